"""Shared look: colours, fonts, cached text, the felt, buttons and panels.

Sizes are given at 1280×720 and multiplied by :func:`ui_scale` so the same
layout reads well from 720p to 4K.
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from functools import lru_cache, partial
from pathlib import Path
from types import MethodType
from typing import Callable

import pygame

from ..store.files import shipped
from ..store.words import _, on_language_change, right_to_left, script, visual_order

FELT = (22, 92, 58)
FELT_DARK = (10, 52, 32)
INK = (245, 240, 225)
INK_DIM = (190, 200, 190)
GOLD = (240, 196, 80)
FOCUS = (255, 221, 87)
LEGAL = (110, 230, 140)
ILLEGAL = (235, 80, 70)
HINT = (120, 190, 255)
PANEL = (14, 30, 24, 228)
BUTTON = (38, 74, 56)
BUTTON_HOVER = (56, 108, 80)
BUTTON_OFF = (40, 52, 46)


def ui_scale(size: tuple[int, int]) -> float:
    return max(0.5, min(size[0] / 1280, size[1] / 720))


TOOLBAR_HEIGHT = 60   # the bottom bar of a game scene, at 1280×720
MESSAGE_HEIGHT = 36   # the message band just above it


def toolbar_height(size: tuple[int, int]) -> int:
    """The game screens' bottom bar: it grows with the text, and in touch mode
    holds buttons a finger can hit (touch_target)."""
    target = touch_target(size)
    return max(int(TOOLBAR_HEIGHT * ui_scale(size) * FONTS.scale),
               target + int(12 * ui_scale(size)) if target else 0)


def message_band(size: tuple[int, int]) -> pygame.Rect:
    """Where messages (toasts) go: a band above the toolbar that a game scene
    keeps free of its play area, so a message never hides what it is about."""
    s = ui_scale(size) * FONTS.scale          # the toolbar and messages grow with the text
    bottom = size[1] - toolbar_height(size)
    height = int(MESSAGE_HEIGHT * s)
    return pygame.Rect(0, bottom - height, size[0], height)


MAX_SHOWN_CHARS = 1000   # a line longer than this is cut (4K shows some 600 of the smallest):
                         # a 100,000-character name would be a 1.2-million-pixel-wide surface


def clean_text(text) -> str:
    """Text fit for the screen, whatever a file or the network put in it: control
    characters (NUL among them, which the font renderer refuses with an error) and
    lone surrogates (which it cannot encode) become spaces and U+FFFD, and a line
    longer than anyone could read is cut. Every font of the app cleans what it
    measures and renders with this (:class:`ScreenFont`): one place."""
    text = text if isinstance(text, str) else str(text)
    if len(text) > MAX_SHOWN_CHARS:
        text = text[:MAX_SHOWN_CHARS - 1] + "…"
    if text.isprintable():       # the usual case, in C: nothing to change
        return text
    return "".join(_clean_char(c) for c in text)


def _clean_char(char: str) -> str:
    if char < " " or "\x7f" <= char <= "\x9f":
        return " "
    if "\ud800" <= char <= "\udfff":
        return "\ufffd"
    return char       # other unprintables (a no-break space, a soft hyphen) render fine


class ScreenFont(pygame.font.Font):
    """A font that cleans every text it measures or renders (:func:`clean_text`).
    For a right-to-left language its direction and script are set (SDL_ttf
    shapes the line with HarfBuzz) and each line is put in visual order first."""

    rtl = False

    def right_to_left(self, script_code: str | None) -> None:
        try:
            self.set_direction(pygame.DIRECTION_RTL)
            if script_code:
                self.set_script(script_code)
            self.rtl = True
        except (AttributeError, pygame.error):     # an SDL_ttf without HarfBuzz: left to right
            pass

    def _ready(self, text) -> str:
        text = clean_text(text)
        return visual_order(text) if self.rtl else text

    def size(self, text):
        return super().size(self._ready(text))

    def render(self, text, antialias, color, bgcolor=None, wraplength=0):
        return super().render(self._ready(text), antialias, color, bgcolor, wraplength)


FACE_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}   # assets/fonts
FACE_SCALE = 0.62   # DejaVu's em at a pixel size is larger than pygame's default font's


@lru_cache(maxsize=1)
def font_dir() -> Path:
    """``assets/fonts`` (see ``store.files.shipped``). Looked for once."""
    return shipped("assets", "fonts")


TEXT_KEPT = 600                  # rendered lines kept, at most ...
TEXT_KEPT_BYTES = 6 << 20        # ... and at most this many bytes of them


def _pixels(surf: pygame.Surface) -> int:
    return surf.get_width() * surf.get_height() * surf.get_bytesize()


class Fonts:
    """DejaVu Sans, regular for reading and bold for titles and buttons (an
    open-licence face shipped in ``assets/fonts``), cached per pixel size. The
    sizes are those of pygame's default font, which is kept as the fallback
    should the files be missing."""

    def __init__(self) -> None:
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._text: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._bytes = 0              # the kept lines' pixels
        # Fonts are opened and lines rendered by one thread at a time: the
        # board's art may be drawn ahead in a background thread
        # (scenes.table.board_view.warm_board_art) while the frame loop draws.
        self._lock = threading.RLock()
        self.scale = 1.0      # the player's text size (Settings: 100 … 200 %); see set_text_scale
        # Where a line not yet rendered this run is looked for first (key, render) → surface:
        # the first frame's lines, kept between launches (scenes.core.kept_pictures.kept_lines).
        self.keep: Callable | None = None
        on_language_change(self._language_changed)

    def _language_changed(self, code: str) -> None:
        """A new language: fonts opened again (its direction) and lines rendered again."""
        with self._lock:
            self._fonts.clear()
            self._text.clear()
            self._bytes = 0

    def font(self, px: int, bold: bool = False) -> ScreenFont:
        px = max(6, int(px * self.scale))
        key = (px, bool(bold))
        if key not in self._fonts:
            with self._lock:
                self._open(key)
        return self._fonts[key]

    def _open(self, key: tuple[int, bool]) -> None:
        px, bold = key
        if key not in self._fonts:
            try:
                font = ScreenFont(str(font_dir() / FACE_FILES[bool(bold)]), max(5, round(px * FACE_SCALE)))
            except (OSError, pygame.error):
                font = ScreenFont(None, px)
            if right_to_left():
                font.right_to_left(script())
            self._fonts[key] = font

    def text(self, text: str, px: int, color=INK, bold: bool = False) -> pygame.Surface:
        """A rendered line, cached: drawing the same label every frame is free."""
        key = (text, int(px), tuple(color), bool(bold))
        keep = self.keep

        def render() -> pygame.Surface:
            return self.font(px, bold).render(text, True, color)
        return self._kept(key, render if keep is None else lambda: keep(key, render))

    def shadow(self, lit: pygame.Surface, text: str, px: int, bold: bool = False) -> pygame.Surface:
        """The line in black, made from ``lit`` (this line as :meth:`text`
        rendered it in another colour): a rendered line is its colour at every
        pixel with the glyphs' coverage as alpha, so blackening the colour is
        the same picture as rendering again, at a fraction of the cost."""
        def blackened() -> pygame.Surface:
            surf = lit.copy()
            surf.fill((0, 0, 0), special_flags=pygame.BLEND_RGB_MULT)
            return surf
        return self._kept((text, int(px), (0, 0, 0), bool(bold)), blackened)

    def set_scale(self, scale: float) -> bool:
        """Every size of text times ``scale``; True when it changed (the lines
        rendered so far are let go)."""
        if scale == self.scale:
            return False
        with self._lock:
            self.scale = scale
            self._text.clear()
        return True

    def _kept(self, key: tuple, make) -> pygame.Surface:
        surf = self._text.get(key)
        if surf is None:
            with self._lock:
                surf = self._text[key] = make()
                self._bytes += _pixels(surf)
                # Bounded by count and by bytes: at 4K a line is tens of kB, and
                # a game's clock and score make a new one every second.
                while len(self._text) > TEXT_KEPT or self._bytes > TEXT_KEPT_BYTES:
                    self._bytes -= _pixels(self._text.popitem(last=False)[1])
        else:
            try:
                self._text.move_to_end(key)
            except KeyError:        # let go by another thread just now: it is still drawn
                pass
        return surf


FONTS = Fonts()


def set_text_scale(percent: int) -> bool:
    """Text and controls at ``percent`` % of their size (Settings); True when
    that changed, and every screen must be laid out again."""
    return FONTS.set_scale(percent / 100)


def text_scale() -> float:
    """The player's text size as a factor (1.0 … 2.0): controls and bars grow with it."""
    return FONTS.scale


# Touch mode (a finger was used, or Settings says so): every control at least
# 9 mm across on a Steam Deck (7", 1280×800, about 216 pixels an inch: 77 px),
# in proportion at other sizes. The labels keep their size (that of a button
# TOUCH_LABEL_OF px tall): a finger needs room, not larger words.
TOUCH_TARGET = 77
TOUCH_LABEL_OF = 46
_touch = {"on": False, "scale": 1.0}


def set_touch_mode(on: bool) -> bool:
    """Touch mode on or off; True when that changed (every screen is laid out again)."""
    changed = _touch["on"] != on
    _touch["on"] = on
    return changed


def touch_target(size: tuple[int, int]) -> int:
    """The least width and height of a control in touch mode (0 outside it);
    the layouts ask it at every resize."""
    _touch["scale"] = ui_scale(size)
    return int(TOUCH_TARGET * ui_scale(size)) if _touch["on"] else 0


def label_height(button_height: int) -> float:
    """The height a label is sized from: the button's, but no more than an
    ordinary button's in touch mode."""
    if not _touch["on"]:
        return button_height
    return min(button_height, TOUCH_LABEL_OF * _touch["scale"] * FONTS.scale)


def fit_text(text: str, font: pygame.font.Font, width: int) -> str:
    """``text``, cut with an ellipsis to fit ``width`` pixels in ``font``."""
    text = clean_text(text)
    if font.size(text)[0] <= width:
        return text
    # The longest start that fits with the ellipsis, found by halves (a record's
    # 1,000-character tag is ten measurements, not a thousand).
    low, high = 1, len(text) - 1           # text[:low] is kept whatever its width
    while low < high:
        middle = (low + high + 1) // 2
        if font.size(text[:middle] + "…")[0] <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


def text_surfaces(text: str, px: float, color=INK, shadow: bool = False,
                  bold: bool | None = None) -> tuple[pygame.Surface, pygame.Surface | None]:
    """A line of text as :func:`draw_text` blits it: the line, and its shadow
    (None without one), both rendered once and cached. Text with a shadow
    (titles, the score) is bold unless ``bold`` says otherwise."""
    bold = shadow if bold is None else bold
    surf = FONTS.text(text, int(px), color, bold)
    if not shadow:
        return surf, None
    if tuple(color)[3:] in ((), (255,)):           # opaque ink: its shadow is its copy in black
        return surf, FONTS.shadow(surf, text, int(px), bold)
    return surf, FONTS.text(text, int(px), (0, 0, 0), bold)


def draw_text(surface: pygame.Surface, text: str, px: float, pos: tuple[float, float],
              color=INK, anchor: str = "topleft", shadow: bool = False,
              bold: bool | None = None) -> pygame.Rect:
    """Blit a line of text; ``anchor`` is a pygame.Rect attribute name."""
    surf, dark = text_surfaces(text, px, color, shadow, bold)
    rect = surf.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
    if dark is not None:
        off = max(1, int(px / 30))
        surface.blit(dark, rect.move(off, off))
    surface.blit(surf, rect)
    return rect


def mirrored(anchor: str) -> str:
    """A rect attribute's name seen in a mirror ("midleft" -> "midright"): where
    a right-to-left language puts what a left-to-right one puts at ``anchor``."""
    return anchor.replace("left", "\0").replace("right", "left").replace("\0", "right")


def for_reading(rect: pygame.Rect, left: int, right: int) -> pygame.Rect:
    """``rect``, laid out left to right between x = ``left`` and ``right``,
    where the player's language reads it: mirrored for a right-to-left one."""
    if not right_to_left():
        return rect
    return pygame.Rect(left + right - rect.right, rect.y, rect.w, rect.h)


def wrap_text(text: str, px: int, width: int) -> list[str]:
    font = FONTS.font(px)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}".strip()
            if font.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


_felt_cache: dict[tuple[int, int], pygame.Surface] = {}
_felt_coarse: dict[tuple[int, int], pygame.Surface] = {}
FELT_STEP = 4   # the felt is kept at 1/4 of the screen's size: one level of its
                # gradient spans some 50 px at 4K, so 4-px steps cannot be seen


def screen_layer(size: tuple[int, int]) -> pygame.Surface:
    """A surface of ``size`` in the window's pixel format (made so directly:
    converting a full-screen surface would hold it twice for a moment)."""
    display = pygame.display.get_surface()
    return pygame.Surface(size, 0, display) if display is not None else pygame.Surface(size)


FELT_HIGH_CONTRAST = ((6, 36, 22), (0, 8, 4))   # a dark, nearly plain table: cards and text stand out
_felt_colours = [FELT, FELT_DARK]


def drawing_options() -> tuple:
    """What every screen's look depends on beyond its own state (a kept
    screen's name, see kept_pictures.read_frame): the text scale, the felt's
    colours, touch mode."""
    return FONTS.scale, tuple(map(tuple, _felt_colours)), _touch["on"]


def set_high_contrast(on: bool) -> None:
    """The felt in the high-contrast theme or not (Settings); the felt painted
    so far is forgotten when it changes."""
    colours = list(FELT_HIGH_CONTRAST) if on else [FELT, FELT_DARK]
    if colours != _felt_colours:
        _felt_colours[:] = colours
        _vignette.cache_clear()
        _felt_coarse.clear()
        _felt_blocks.clear()
        _felt_cache.clear()


@lru_cache(maxsize=1)
def _vignette() -> pygame.Surface:
    """The felt's vignette, tiny: smoothscaled up, it is cheap and perfectly smooth."""
    small = pygame.Surface((32, 18))
    light, dark = _felt_colours
    for y in range(18):
        for x in range(32):
            dx = (x - 15.5) / 16
            dy = (y - 8.5) / 9
            t = min(1.0, (dx * dx + dy * dy) / 1.5625)
            small.set_at((x, y), (int(light[0] + (dark[0] - light[0]) * t),
                                  int(light[1] + (dark[1] - light[1]) * t),
                                  int(light[2] + (dark[2] - light[2]) * t)))
    return small


def _coarse(size: tuple[int, int]) -> pygame.Surface:
    surf = _felt_coarse.get(size)
    if surf is not None:
        return surf
    w, h = size
    surf = pygame.transform.smoothscale(_vignette(), (-(-w // FELT_STEP), -(-h // FELT_STEP)))
    _felt_coarse.clear()
    _felt_blocks.clear()
    _felt_coarse[size] = surf
    return surf


FELT_BLOCK = 256          # px: the felt is painted from blocks this big, kept ...
FELT_BLOCKS_KEPT = 8     # ... the most recently used (2 MiB)
_felt_blocks: OrderedDict = OrderedDict()


def _felt_block(size: tuple[int, int], bx: int, by: int) -> pygame.Surface:
    key = (size, bx, by)
    block = _felt_blocks.get(key)
    if block is not None:
        _felt_blocks.move_to_end(key)
        return block
    coarse, step, n = _coarse(size), FELT_STEP, FELT_BLOCK // FELT_STEP
    x0, y0 = bx * n, by * n
    w, h = min(n, coarse.get_width() - x0), min(n, coarse.get_height() - y0)
    block = pygame.transform.scale(coarse.subsurface((x0, y0, w, h)), (w * step, h * step))
    if pygame.display.get_surface() is not None:
        block = block.convert()
    _felt_blocks[key] = block
    while len(_felt_blocks) > FELT_BLOCKS_KEPT:
        _felt_blocks.popitem(last=False)
    return block


def paint_felt(surface: pygame.Surface, area: pygame.Rect | None = None) -> None:
    """Paint the table's felt (green, with a soft vignette, for a table the size
    of ``surface``) into ``area`` (default: the surface's clip). It is painted
    block by block from a quarter-size copy, and the blocks last painted are
    kept: where cards move the felt costs a plain blit, and no full-screen
    surface is needed for it."""
    area = pygame.Rect(area if area is not None else surface.get_clip()).clip(surface.get_rect())
    if not area.w or not area.h:
        return
    size = surface.get_size()
    step = FELT_STEP
    if not (area.x % step or area.y % step or area.w % step or area.h % step):
        # On the quarter-size copy's grid (the whole table, a game's background
        # block): scaled straight into place, nothing made or kept for it.
        coarse = _coarse(size).subsurface((area.x // step, area.y // step, area.w // step, area.h // step))
        pygame.transform.scale(coarse, area.size, surface.subsurface(area))
        return
    clip = surface.get_clip()
    surface.set_clip(area)
    for by in range(area.top // FELT_BLOCK, (area.bottom - 1) // FELT_BLOCK + 1):
        for bx in range(area.left // FELT_BLOCK, (area.right - 1) // FELT_BLOCK + 1):
            surface.blit(_felt_block(size, bx, by), (bx * FELT_BLOCK, by * FELT_BLOCK))
    surface.set_clip(clip)


def felt(size: tuple[int, int]) -> pygame.Surface:
    """The table's felt as one surface of ``size``, kept for the screens that
    blit it whole (menu, help). A game paints it with :func:`paint_felt` where
    it repaints instead, and lets this go (:func:`release_felt`)."""
    surf = _felt_cache.get(size)
    if surf is not None:
        return surf
    _felt_cache.clear()
    surf = screen_layer(size)
    paint_felt(surf)
    _felt_cache[size] = surf
    return surf


def draw_felt_while(surface: pygame.Surface, work: Callable[[], None]) -> None:
    """:func:`draw_felt` on a second core while ``work`` runs on this one: a
    screen's first frame at a size renders its lines of text meanwhile. The
    felt is a few C calls that let go of the interpreter's lock (scaling into
    the window), so the two overlap; ``work`` must not touch ``surface``."""
    failed: list[BaseException] = []
    _vignette()     # its few Python steps here: the painter then only waits on C calls

    def paint() -> None:
        try:
            draw_felt(surface)
        except BaseException as exc:          # raised here, in the frame loop, below
            failed.append(exc)

    painter = threading.Thread(target=paint, name="felt", daemon=True)
    try:
        painter.start()
    except RuntimeError:        # no thread to be had (a process at its limit): one after the other
        painter = None
        paint()
    try:
        work()
    finally:
        if painter is not None:
            painter.join()
    if failed:
        raise failed[0]


def draw_felt(surface: pygame.Surface) -> None:
    """The whole felt onto a screen-sized ``surface`` (the menu's background):
    scaled straight into the window where its size allows (no second full-screen
    surface, which at 4K costs tens of ms of fresh memory on the first frame),
    else blitted from :func:`felt` (block by block every frame would cost more)."""
    w, h = surface.get_size()
    if (surface.get_clip() != surface.get_rect()          # a part: from a few kept blocks
            or surface is pygame.display.get_surface() and w % FELT_STEP == 0 and h % FELT_STEP == 0):
        paint_felt(surface)
    else:
        surface.blit(felt((w, h)), (0, 0))


def release_felt() -> None:
    """Let the full-screen felt go (a game scene paints its own, area by area)."""
    _felt_cache.clear()


def rounded_panel(size: tuple[int, int], color=PANEL, radius: int = 16,
                  border: tuple | None = (255, 255, 255, 40)) -> pygame.Surface:
    surf = pygame.Surface(size, pygame.SRCALPHA)
    rect = surf.get_rect()
    pygame.draw.rect(surf, color, rect, border_radius=radius)
    if border:
        pygame.draw.rect(surf, border, rect, width=max(1, radius // 8), border_radius=radius)
    return surf


class TallPanel:
    """A :func:`rounded_panel` kept as its top and bottom (the rounded corners)
    and one slice of its straight middle, which is the same on every row: blit
    down the panel's height, the slice paints the same pixels as the panel
    drawn whole, without a surface the panel's size (at 4K a menu tile would be
    some 3 MB of fresh memory on the first frame)."""

    SLICE = 128   # rows in the kept slice of the middle

    def __init__(self, size: tuple[int, int], color=PANEL, radius: int = 16) -> None:
        w, h = self.size = size
        self.band = radius + 1        # the corners and the border lie within it
        if h <= 2 * self.band + self.SLICE:
            self.drawn = rounded_panel(size, color, radius)
        else:
            self.drawn = rounded_panel((w, 2 * self.band + self.SLICE), color, radius)

    def blit_to(self, surface: pygame.Surface, pos: tuple[int, int]) -> None:
        w, h = self.size
        x, y = pos
        band, drawn = self.band, self.drawn
        if drawn.get_height() == h:
            surface.blit(drawn, pos)
            return
        surface.blit(drawn, (x, y), (0, 0, w, band))
        for top in range(band, h - band, self.SLICE):
            surface.blit(drawn, (x, y + top), (0, band, w, min(self.SLICE, h - band - top)))
        surface.blit(drawn, (x, y + h - band), (0, band + self.SLICE, w, band))


def merge_rects(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Overlapping areas joined into one: a stack of cards landing together is
    repainted once, not once per card (which costs cards² blits)."""
    out: list[pygame.Rect] = []
    for rect in rects:
        rect = pygame.Rect(rect)
        while True:
            hits = rect.collidelistall(out)
            if not hits:
                break
            for i in reversed(hits):
                rect.union_ip(out.pop(i))
        out.append(rect)
    return out


_glow_cache: dict[tuple, tuple] = {}


def glow_ring(size: tuple[int, int], color, width: int, radius: int) -> pygame.Surface:
    """The picture :func:`glow_rect` paints around a rect ``2 * width`` px
    smaller than ``size`` each way: three fading rings and the bright one."""
    pad = width * 2
    ring = pygame.Surface(size, pygame.SRCALPHA)
    for i in range(3):
        alpha = 50 - i * 15
        pygame.draw.rect(ring, (*color[:3], alpha), ring.get_rect().inflate(-i * width, -i * width),
                         width=width, border_radius=radius + pad - i * width // 2)
    inner = pygame.Rect(pad, pad, size[0] - 2 * pad, size[1] - 2 * pad).inflate(width, width)
    pygame.draw.rect(ring, color, inner, width=width, border_radius=radius + width // 2)
    return ring


def _ring_pieces(size: tuple[int, int], color, width: int, radius: int,
                 band: int) -> list[tuple[pygame.Surface, tuple[int, int], pygame.Rect | None]]:
    """A large ring as pieces to blit (picture, where, which part): drawn at
    the smallest size with the same corners (every corner lies within ``band``
    px of its edges), and each side stretched from its middle line of pixels,
    which is the same all along a straight side. The same pixels as the ring
    drawn whole, without a surface the size of what it surrounds (at 4K the
    menu's focus ring would be some 3 MB of fresh memory on the first frame)."""
    w, h = size
    n = 2 * band + 1
    small = glow_ring((n, n), color, width, radius)
    sides = ((pygame.transform.scale(small.subsurface(band, 0, 1, band), (w - 2 * band, band)), (band, 0)),
             (pygame.transform.scale(small.subsurface(band, n - band, 1, band), (w - 2 * band, band)),
              (band, h - band)),
             (pygame.transform.scale(small.subsurface(0, band, band, 1), (band, h - 2 * band)), (0, band)),
             (pygame.transform.scale(small.subsurface(n - band, band, band, 1), (band, h - 2 * band)),
              (w - band, band)))
    corners = [(small, (x, y), pygame.Rect(sx, sy, band, band))
               for (x, sx) in ((0, 0), (w - band, n - band)) for (y, sy) in ((0, 0), (h - band, n - band))]
    return corners + [(side, at, None) for side, at in sides]


def glow_rect(surface: pygame.Surface, rect: pygame.Rect, color, width: int,
              radius: int) -> pygame.Rect:
    """A highlight ring with a soft outer glow (focus, legal targets, hints).
    Returns the area painted. The ring is drawn once per size and colour."""
    pad = width * 2
    band = pad + radius + 2 * width
    size = (rect.w + 2 * pad, rect.h + 2 * pad)
    pos = (rect.x - pad, rect.y - pad)
    key = (rect.size, tuple(color), width, radius)
    drawn = _glow_cache.get(key)
    if drawn is None:
        if 4 * band >= min(size):      # hardly any middle: drawn whole
            drawn = glow_ring(size, color, width, radius)
        else:
            drawn = _ring_pieces(size, color, width, radius, band)
        if len(_glow_cache) > 64:
            _glow_cache.clear()
        _glow_cache[key] = drawn
    if isinstance(drawn, pygame.Surface):
        return surface.blit(drawn, pos)
    shown = pygame.Rect(pos, size).clip(surface.get_clip())
    if not (shown.w and shown.h):
        clip = surface.get_clip()          # out of sight: the empty area a blit answers
        return pygame.Rect(max(pos[0], clip.x), max(pos[1], clip.y), 0, 0)
    for piece, (x, y), part in drawn:
        surface.blit(piece, (pos[0] + x, pos[1] + y), part)
    return shown


class WeakCall:
    """A bound method and its arguments, the method's object held weakly:
    called, it calls the method, or does nothing once the object has gone."""

    __slots__ = ("method", "args")

    def __init__(self, method: MethodType, args: tuple = ()) -> None:
        self.method = weakref.WeakMethod(method)
        self.args = args

    def __call__(self, *more) -> None:
        method = self.method()
        if method is not None:
            method(*self.args, *more)


def held_weakly(action: Callable | None) -> Callable | None:
    """``action`` as a screen's control keeps it: a bound method, or a
    ``partial`` of one, as a :class:`WeakCall` (held strongly, a screen's
    controls on its own methods make a reference cycle, see ``Button.action``);
    anything else as it is."""
    if type(action) is MethodType:
        return WeakCall(action)
    if type(action) is partial and type(action.func) is MethodType and not action.keywords:
        return WeakCall(action.func, action.args)
    return action


class Button:
    """A clickable, focusable button; ``action`` runs on click or SELECT. Each
    button is itself (compared by identity). A plain class, not a dataclass:
    the menu makes its buttons before the first frame (start-up)."""

    def __init__(self, label: str, action: Callable[[], None], rect: pygame.Rect | None = None,
                 enabled: bool = True, hot: bool = False, hovered: bool = False) -> None:
        self.label = label          # as made (English): read, it is in the player's language
        self.action = action        # a bound method is held weakly: see ``action``
        self.rect = rect            # set by the layout
        self.enabled = enabled
        self.hot = hot              # focused (keys, gamepad): SELECT activates it
        self.hovered = hovered      # under the pointer: lit, but not the focus

    def __repr__(self) -> str:
        return f"Button({self._label!r}, enabled={self.enabled})"

    @property
    def label(self) -> str:
        """The label in the player's language, looked up as it is read (drawn,
        measured, said): a language switch shows at once."""
        return _(self._label)

    @label.setter
    def label(self, label: str) -> None:
        self._label = label

    @property
    def key(self) -> str:
        """The label as made, in English: what a screen tells its buttons apart by."""
        return self._label

    @property
    def action(self) -> Callable[[], None]:
        return self._action

    @action.setter
    def action(self, action: Callable[[], None]) -> None:
        # A screen's button on one of the screen's methods, held strongly, would
        # make a reference cycle (screen -> buttons -> method -> screen) that
        # keeps a screen that was left alive, with its pictures (tens of MiB at
        # 4K), until a rare full collection. Held weakly, the screen goes when
        # it is left; the method's object must be held elsewhere (the screen).
        self._action = held_weakly(action)

    def label_surface(self) -> pygame.Surface:
        """The label as the button shows it (cached, as every line of text)."""
        ink = INK if self.enabled else (120, 130, 125)
        # half the button's height, which has grown with the text size already
        return text_surfaces(self.label, label_height(self.rect.h) * 0.5 / FONTS.scale, ink, bold=True)[0]

    def draw(self, surface: pygame.Surface, scale: float) -> None:
        # One chosen look: the focus (``hot``) is lit and edged in gold; a button
        # only under the pointer gets a thicker edge, never the lit face, so two
        # buttons never both look chosen.
        color = BUTTON_OFF if not self.enabled else BUTTON_HOVER if self.hot else BUTTON
        radius = max(4, int(10 * scale))
        pygame.draw.rect(surface, color, self.rect, border_radius=radius)
        edge = FOCUS if self.hot and self.enabled else (255, 255, 255, 60)
        pointed = self.hovered and self.enabled and not self.hot
        width = max(2, int(4 * scale)) if pointed else max(1, int(2 * scale))
        pygame.draw.rect(surface, edge, self.rect, width=width, border_radius=radius)
        label = self.label_surface()
        surface.blit(label, label.get_rect(center=self.rect.center))

    def contains(self, pos) -> bool:
        return self.rect is not None and self.rect.collidepoint(pos)


def layout_row(buttons: list[Button], center: tuple[int, int], height: int,
               gap: int, px: int) -> None:
    """Place buttons side by side, centred, each as wide as its label needs.
    ``height`` and ``gap`` grow with the player's text size, as far as the row
    still fits between the edges (it is centred on the screen's middle)."""
    room = 2 * center[0] - 2 * gap
    grow = FONTS.scale
    while True:
        # the label is half the button's height: the font grows by FONTS.scale itself
        font = FONTS.font(int(height * 0.5 * grow / FONTS.scale), bold=True)
        widths = [font.size(b.label)[0] + int(height * grow) for b in buttons]
        if grow <= 1 or sum(widths) + int(gap * grow) * (len(buttons) - 1) <= room:
            break
        grow = max(1.0, grow - 0.05)
    height, gap = int(height * grow), int(gap * grow)
    total = sum(widths) + gap * (len(buttons) - 1)
    x = center[0] - total // 2
    for button, width in zip(buttons, widths):     # in reading order: right to left in Hebrew
        button.rect = for_reading(pygame.Rect(x, center[1] - height // 2, width, height),
                                  center[0] - total // 2, center[0] - total // 2 + total)
        x += width + gap


def layout_rows(buttons: list[Button], center_x: int, top: int, height: int, gap: int,
                per_row: int) -> int:
    """Buttons in centred rows of ``per_row``, each ``height`` tall and as wide
    as its label needs (touch mode: no row of seven fits a finger's buttons).
    Returns the bottom of the last row."""
    font = FONTS.font(int(label_height(height) * 0.5 / FONTS.scale), bold=True)
    y = top
    for first in range(0, len(buttons), per_row):
        row = buttons[first:first + per_row]
        widths = [font.size(b.label)[0] + height for b in row]
        total = sum(widths) + gap * (len(row) - 1)
        x = left = center_x - total // 2
        for button, width in zip(row, widths):     # in reading order
            button.rect = for_reading(pygame.Rect(x, y, width, height), left, left + total)
            x += width + gap
        y += height + gap
    return y - gap


def layout_column(buttons: list[Button], center_x: int, top: int, width: int,
                  height: int, gap: int) -> None:
    """Buttons one under another (``height`` and ``width`` grow with the text size)."""
    width, height = int(width * FONTS.scale), int(height * FONTS.scale)
    y = top
    for button in buttons:
        button.rect = pygame.Rect(center_x - width // 2, y, width, height)
        y += height + gap
