"""Card art: faces, backs, shadows and rings drawn as vector shapes at any size.

Nothing here is a bitmap file. Every card is described as an SVG document in the
card's own pixel coordinates and rasterised by ``pygame.image.load_sized_svg``
(anti-aliased), so cards are crisp at every window size from 1280×720 to 4K.
Rank letters come from a font (pygame's built-in default font is enough); suit
pips and court figures are vector paths made here, because the default font has
no ♠♥♦♣ glyphs and pygame's SVG renderer ignores ``<text>``.

Use::

    art = CardArt(160)                  # card width in pixels; height = round(w * 1.4)
    dx, dy = art.shadow_offset
    screen.blit(art.shadow(), (x + dx, y + dy))     # first, under the card
    screen.blit(art.face(card), (x, y))              # or art.back()
    ox, oy = art.outline_offset()                    # the ring sits outside the card
    screen.blit(art.outline((255, 215, 0)), (x + ox, y + oy))
    screen.blit(art.placeholder("K"), (x, y))        # an empty pile's slot
    icon = pip_surface("H", 24)                      # a ♥ for labels, anywhere

Speed (pygame-ce 2.5.8, one core): all 52 faces plus the back take about 80 ms
at 110 px wide, 110 ms at 160 px and 270 ms at 320 px (≈5 ms a face at 4K
size; court cards ≈8 ms). Faces are drawn lazily, so a scene pays only for
the cards it shows; ``prerender()`` draws them all up front.

Every surface is rendered on first request and cached on the instance; the
surfaces are shared, so callers must not draw on them (copy first). Re-create
the CardArt when the card size changes (e.g. on window resize). Surfaces are
``convert_alpha()``-ed only when a display surface exists, so the module works
headless and before ``pygame.display.set_mode``.
"""
from __future__ import annotations

import io
import math
import threading
from functools import lru_cache, wraps

import pygame

from game.cards import FULL_DECK, RANKS, SUITS, Card

from ..core.kept_pictures import fingerprint, kept_picture

__all__ = [
    "CardArt",
    "BACK_STYLES",
    "SUIT_COLORS",
    "FOUR_COLORS",
    "suit_colors",
    "suit_path_svg",
    "suit_svg",
    "pip_surface",
    "card_height_for",
    "shared_card_art",
]

# --------------------------------------------------------------------------
# colours

RED = (196, 22, 38)
BLACK = (28, 28, 34)
SUIT_COLORS: dict[str, tuple[int, int, int]] = {"C": BLACK, "D": RED, "H": RED, "S": BLACK}
GREEN = (0, 122, 52)
BLUE = (0, 86, 196)
# The four-colour deck, as PySolFC's and Aisleriot's: clubs green, diamonds blue.
FOUR_COLORS = {"C": GREEN, "D": BLUE, "H": RED, "S": BLACK}
# High contrast: the same hues, deeper (every one at least 7:1 against the white face).
DEEPER = {BLACK: (0, 0, 0), RED: (150, 0, 16), GREEN: (0, 84, 30), BLUE: (0, 48, 150)}


def suit_colors(four_colour: bool = False, high_contrast: bool = False) -> dict[str, tuple]:
    """Each suit's colour in the chosen deck."""
    colors = FOUR_COLORS if four_colour else SUIT_COLORS
    return {suit: DEEPER[c] for suit, c in colors.items()} if high_contrast else dict(colors)


FACE_FILL = (253, 252, 248)
FACE_BORDER = (120, 120, 124)
HIGH_FACE_FILL = (255, 255, 255)
HIGH_FACE_BORDER = (0, 0, 0)
GOLD = (222, 178, 64)
GOLD_DARK = (150, 108, 28)
SKIN = (246, 216, 186)
SKIN_SHADE = (214, 170, 134)
INK = (40, 30, 26)
PANEL_FILL = (251, 246, 230)

# court-card palettes: the robe in the suit's colour, an accent for the tunic and
# trimmings (gold is shared). Black suits use no red at all.
_COURT_PALETTE = {
    "red": {"robe": (190, 30, 44), "accent": (38, 70, 150)},
    "black": {"robe": (40, 42, 52), "accent": (44, 84, 160)},
    "green": {"robe": (24, 112, 56), "accent": (196, 150, 40)},    # four colours: clubs
    "blue": {"robe": (28, 78, 170), "accent": (190, 40, 52)},      # four colours: diamonds
}
ROBES = {RED: "red", BLACK: "black", GREEN: "green", BLUE: "blue"}

# back styles: base colour, dark (edges, medallion), light (the trellis)
BACK_STYLES: dict[str, dict[str, tuple[int, int, int]]] = {
    "blue": {"base": (28, 74, 142), "dark": (16, 46, 96), "light": (112, 156, 214)},
    "red": {"base": (160, 30, 42), "dark": (104, 16, 26), "light": (226, 120, 126)},
    "green": {"base": (26, 104, 66), "dark": (14, 66, 40), "light": (110, 178, 136)},
    "purple": {"base": (92, 46, 132), "dark": (58, 26, 88), "light": (170, 130, 210)},
    "black": {"base": (40, 42, 50), "dark": (20, 20, 26), "light": (120, 124, 140)},
}


def _hex(c) -> str:
    return "#%02x%02x%02x" % (int(c[0]), int(c[1]), int(c[2]))


def _f(v: float) -> str:
    """A compact number for SVG text."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


# --------------------------------------------------------------------------
# suit shapes: path data in a 100 × 100 box, centred on (50, 50)

def _circle_d(cx: float, cy: float, r: float) -> str:
    # two clockwise (in screen coordinates) half arcs, so every subpath winds the
    # same way and the nonzero fill rule unions the lobes.
    return (f"M{_f(cx - r)} {_f(cy)} A{_f(r)} {_f(r)} 0 1 1 {_f(cx + r)} {_f(cy)} "
            f"A{_f(r)} {_f(r)} 0 1 1 {_f(cx - r)} {_f(cy)} Z")


_SUIT_PATHS: dict[str, str] = {
    # heart: two round lobes and a sharp point
    "H": ("M50 95 C46 86 5 66 5 36 C5 17 17 6 30.5 6 C41 6 47.5 12.5 50 21 "
          "C52.5 12.5 59 6 69.5 6 C83 6 95 17 95 36 C95 66 54 86 50 95 Z"),
    # diamond: a rhombus with slightly hollow sides
    "D": "M50 2 Q64 28 86 50 Q64 72 50 98 Q36 72 14 50 Q36 28 50 2 Z",
    # spade: an upside-down heart on a flared stem
    "S": ("M50 3 C56 16 95 38 95 61 C95 75 85 83 73 83 C64 83 57 79 53.5 73 "
          "C54.5 84 59 91 68 97 L32 97 C41 91 45.5 84 46.5 73 "
          "C43 79 36 83 27 83 C15 83 5 75 5 61 C5 38 44 16 50 3 Z"),
    # club: three round lobes, a filled middle and a flared stem; every subpath
    # winds clockwise (on screen) so the nonzero rule leaves no holes
    "C": (_circle_d(50, 27, 21.5) + " " + _circle_d(26.5, 60, 21.5) + " "
          + _circle_d(73.5, 60, 21.5) + " "
          "M50 40 L66 58 L50 70 L34 58 Z "
          "M53 64 C53.5 80 58 89 68 97 L32 97 C42 89 46.5 80 47 64 Z"),
}


def suit_path_svg(suit: str) -> str:
    """SVG path data (the ``d`` attribute) of a suit symbol in a 100×100 box.

    ``suit`` is one of ``"C" "D" "H" "S"``. Fill it with the nonzero rule.
    """
    try:
        return _SUIT_PATHS[suit]
    except KeyError:
        raise ValueError(f"no such suit: {suit!r} (expected one of C D H S)") from None


def suit_svg(suit: str, size: int, color=None) -> bytes:
    """A whole SVG document (``size``×``size`` px) showing one suit symbol."""
    col = _hex(color if color is not None else SUIT_COLORS[suit])
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 100 100"><path d="{suit_path_svg(suit)}" fill="{col}"/>'
            f'</svg>').encode()


def _render_svg(svg: str | bytes, size: tuple[int, int]) -> pygame.Surface:
    data = svg.encode() if isinstance(svg, str) else svg
    surf = pygame.image.load_sized_svg(io.BytesIO(data), size)
    if surf.get_size() != size:  # defensive: the rasteriser rounds up
        fixed = pygame.Surface(size, pygame.SRCALPHA)
        fixed.blit(surf, (0, 0))
        surf = fixed
    return surf


def _finish(surf: pygame.Surface) -> pygame.Surface:
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surf.convert_alpha()
    return surf


# One thread draws card pictures at a time: a background thread renders the
# faces ahead (CardArt.prerender_in_background) while the frame loop may draw
# one it needs now, and both blit the same cached pieces (pips, rank letters);
# pygame lets go of the interpreter's lock while it blits, so two blits of one
# source at once fail ("surface locked"). Pictures already drawn are looked up
# without it.
_DRAWING = threading.RLock()


def _drawn_alone(draw):
    @wraps(draw)
    def alone(*args, **kwargs):
        with _DRAWING:
            return draw(*args, **kwargs)
    return alone


@lru_cache(maxsize=256)
def _pip_surface_cached(suit: str, size: int, color: tuple[int, int, int]) -> pygame.Surface:
    return _finish(_render_svg(suit_svg(suit, size, color), (size, size)))


@_drawn_alone
def pip_surface(suit: str, size: int, color=None) -> pygame.Surface:
    """A ``size``×``size`` per-pixel-alpha surface with the suit symbol (cached).

    For drawing ♠♥♦♣ anywhere, e.g. beside text in a label. ``color`` defaults
    to the suit's colour (red for D/H, near-black for C/S). Do not draw on the
    returned surface; it is shared.
    """
    suit_path_svg(suit)  # validates
    size = max(1, int(size))
    col = tuple(int(v) for v in (color if color is not None else SUIT_COLORS[suit]))[:3]
    return _pip_surface_cached(suit, size, col)


def card_height_for(width: int) -> int:
    """Card height for a card width: the poker ratio 2.5 × 3.5."""
    return round(width * 1.4)


# --------------------------------------------------------------------------
# fonts (rank letters)

_FONTS: dict[int, pygame.font.Font] = {}
_CAP_RATIO: float | None = None


def _font(size: int) -> pygame.font.Font:
    f = _FONTS.get(size)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = _FONTS[size] = pygame.font.Font(None, size)
    return f


def _cap_ratio() -> float:
    """Cap height of the default font as a fraction of its nominal size."""
    global _CAP_RATIO
    if _CAP_RATIO is None:
        surf = _font(200).render("H", True, (0, 0, 0))
        _CAP_RATIO = surf.get_bounding_rect().height / 200
    return _CAP_RATIO


def _glyphs(text: str, cap: float, color) -> pygame.Surface:
    """``text`` in the default font with a cap height of ``cap`` px, cropped to ink."""
    size = max(4, round(cap / _cap_ratio()))
    try:
        surf = _font(size).render(text, True, color)
    except pygame.error:   # the font module was quit and restarted: fonts are stale
        _FONTS.clear()
        surf = _font(size).render(text, True, color)
    return surf.subsurface(surf.get_bounding_rect()).copy()


def _rank_text(rank: int, cap: float, color) -> pygame.Surface:
    """The rank label, tightly cropped; "10" is kerned close so it stays narrow."""
    text = RANKS[rank - 1]
    if text != "10":
        return _glyphs(text, cap, color)
    one = _glyphs("1", cap, color)
    zero = _glyphs("0", cap, color)
    gap = max(0, round(cap * 0.04))
    h = max(one.get_height(), zero.get_height())
    out = pygame.Surface((one.get_width() + gap + zero.get_width(), h), pygame.SRCALPHA)
    out.blit(one, (0, h - one.get_height()))
    out.blit(zero, (one.get_width() + gap, h - zero.get_height()))
    return out


# --------------------------------------------------------------------------
# pip layouts: (column, row); columns L M R, rows 0 (top) … 1 (bottom). Pips
# below the middle are drawn upside down, as on printed cards.

_L, _M, _R = -1, 0, 1
_PIPS: dict[int, list[tuple[int, float]]] = {
    2: [(_M, 0), (_M, 1)],
    3: [(_M, 0), (_M, 0.5), (_M, 1)],
    4: [(_L, 0), (_R, 0), (_L, 1), (_R, 1)],
    5: [(_L, 0), (_R, 0), (_M, 0.5), (_L, 1), (_R, 1)],
    6: [(_L, 0), (_R, 0), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    7: [(_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    8: [(_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_M, 0.75), (_L, 1), (_R, 1)],
    9: [(_L, 0), (_R, 0), (_L, 1 / 3), (_R, 1 / 3), (_M, 0.5),
        (_L, 2 / 3), (_R, 2 / 3), (_L, 1), (_R, 1)],
    10: [(_L, 0), (_R, 0), (_M, 1 / 6), (_L, 1 / 3), (_R, 1 / 3),
         (_L, 2 / 3), (_R, 2 / 3), (_M, 5 / 6), (_L, 1), (_R, 1)],
}


def _pip_el(suit: str, cx: float, cy: float, size: float, color, upside_down: bool,
            extra: str = "") -> str:
    s = size / 100
    rot = f" rotate(180 {_f(cx)} {_f(cy)})" if upside_down else ""
    return (f'<path transform="{rot.strip()} translate({_f(cx - size / 2)} {_f(cy - size / 2)}) '
            f'scale({_f(s)})" d="{_SUIT_PATHS[suit]}" fill="{_hex(color)}"{extra}/>')


# --------------------------------------------------------------------------
# court figures: the top half of the picture panel; the bottom half is the same
# image turned half round.

def _court_figure(rank: int, suit: str, robes: str | None = None) -> list[str]:
    """SVG elements of one half of a court card (11 jack, 12 queen, 13 king).

    Drawn in a box 100 units wide; y runs from 0 (the panel's top) to 110 (the
    panel's middle line), where the bust is cut off.
    """
    pal = _COURT_PALETTE[robes or ("red" if suit in "DH" else "black")]
    robe = _hex(pal["robe"])
    acc = _hex(pal["accent"])
    gold, gold_dark = _hex(GOLD), _hex(GOLD_DARK)
    skin, skin_shade, ink = _hex(SKIN), _hex(SKIN_SHADE), _hex(INK)
    white = "#fbfaf4"
    out: list[str] = []
    add = out.append
    st = f'stroke="{ink}" stroke-width="0.9" stroke-linejoin="round"'
    gst = f'stroke="{gold_dark}" stroke-width="0.9" stroke-linejoin="round"'

    # the item held up beside the figure, drawn first so the robe covers its foot
    if rank == 13:     # sceptre, on the right
        add(f'<path d="M83 110 L83 34" stroke="{gold_dark}" stroke-width="3.6"/>')
        add(f'<path d="M83 110 L83 34" stroke="{gold}" stroke-width="2.1"/>')
        add(f'<circle cx="83" cy="30" r="5" fill="{gold}" {gst}/>')
        add(f'<path d="M83 17 L83 25.5 M79 21 L87 21" stroke="{gold_dark}" '
            f'stroke-width="2"/>')
        add(f'<circle cx="83" cy="30" r="1.8" fill="{robe}"/>')
    elif rank == 12:   # a flower, on the left
        flower = robe if suit in "DH" else acc
        add(f'<path d="M19 110 L19 50" stroke="#3e7a3a" stroke-width="2.2"/>')
        add(f'<path d="M19 72 C12 69 9 64 10 59 C15 61 19 65 19 72 Z" fill="#3e7a3a"/>')
        add(f'<path d="M19 64 C25 61 28 57 27 52 C22 54 19 58 19 64 Z" fill="#3e7a3a"/>')
        for k in range(5):
            ang = k * 72 * math.pi / 180
            px, py = 19 + 4.6 * math.sin(ang), 44 - 4.6 * math.cos(ang)
            add(f'<circle cx="{_f(px)}" cy="{_f(py)}" r="3.7" fill="{flower}" '
                f'stroke="{ink}" stroke-width="0.6"/>')
        add(f'<circle cx="19" cy="44" r="2.5" fill="{gold}"/>')
    else:              # halberd, on the left
        add(f'<path d="M17 110 L17 34" stroke="#5a3c20" stroke-width="3"/>')
        add(f'<path d="M17 26 L20.5 36 L17 40 L13.5 36 Z" fill="#c4c8d0" {st}/>')
        add(f'<path d="M17 40 C24 40 28 45 28 52 C23 49 20 48 17 48 Z" fill="#c4c8d0" {st}/>')
        add(f'<path d="M17 41 L10 45 L17 47 Z" fill="#c4c8d0" {st}/>')

    # hair behind the head (queen: long; jack: a bob; king: short and grey)
    if rank == 12:
        add(f'<path d="M50 27 C30 27 27 44 28 58 C29 72 25 84 23 96 L39 96 L41 66 '
            f'L59 66 L61 96 L77 96 C75 84 71 72 72 58 C73 44 70 27 50 27 Z" '
            f'fill="#7a4a22" {st}/>')
    elif rank == 11:
        add(f'<path d="M50 29 C33 29 32 44 32 54 C32 63 34 68 37 72 L63 72 '
            f'C66 68 68 63 68 54 C68 44 67 29 50 29 Z" fill="#c8902e" {st}/>')
    else:
        add(f'<path d="M50 31 C35 31 34 44 34 52 C34 58 35 62 37 65 L63 65 '
            f'C65 62 66 58 66 52 C66 44 65 31 50 31 Z" fill="#a6a6a6" {st}/>')

    # shoulders and robe, with brocade studs
    add(f'<path d="M3 110 L5 95 C7 84 19 78 36 75 L64 75 C81 78 93 84 95 95 L97 110 Z" '
        f'fill="{robe}" {st}/>')
    add(f'<path d="M7 95 C9 86 20 80.5 36 78 M64 78 C80 80.5 91 86 93 95" fill="none" '
        f'stroke="{gold}" stroke-width="1.4"/>')
    for x, y in ((14, 101), (25, 92), (27, 104), (73, 104), (75, 92), (86, 101)):
        add(f'<path d="M{x} {y - 2.6} L{x + 2} {y} L{x} {y + 2.6} L{x - 2} {y} Z" '
            f'fill="{gold}"/>')
    # the tunic down the middle, in the accent colour, edged with gold
    add(f'<path d="M39 110 L41.5 79 L58.5 79 L61 110 Z" fill="{acc}" stroke="{gold}" '
        f'stroke-width="2.2" stroke-linejoin="round"/>')
    for y in (87, 95, 103):
        add(f'<circle cx="50" cy="{y}" r="2" fill="{gold}" stroke="{gold_dark}" '
            f'stroke-width="0.6"/>')
    if rank == 13:    # ermine bands either side of the tunic, mirror images
        for m in (1, -1):
            def mx(v: float, m: int = m) -> str:
                return _f(50 + m * (v - 50))
            add(f'<path d="M{mx(36)} 77 L{mx(40.5)} 77 L{mx(38.5)} 110 L{mx(33)} 110 Z" '
                f'fill="{white}" {st}/>')
            for y in (84, 93, 102):
                c = 38 - 2 * (y - 77) / 33
                add(f'<path d="M{mx(c)} {y - 2} L{mx(c + 1.3)} {y + 2} L{mx(c - 1.3)} {y + 2} Z" '
                    f'fill="{ink}"/>')
    elif rank == 12:  # a gold necklace with a pendant
        add(f'<path d="M38 76 C41 87 59 87 62 76" fill="none" stroke="{gold}" '
            f'stroke-width="2.4"/>')
        add(f'<path d="M50 84 L53.5 89 L50 94 L46.5 89 Z" fill="{robe}" stroke="{gold}" '
            f'stroke-width="1.2"/>')
    else:             # jack: a white squared collar
        add(f'<path d="M33 75 L42 87 L50 79 L58 87 L67 75 Z" fill="{white}" {st}/>')

    # neck and head
    add(f'<path d="M44.5 62 L44.5 77 L55.5 77 L55.5 62 Z" fill="{skin_shade}"/>')
    add(f'<ellipse cx="50" cy="51" rx="13.5" ry="16.5" fill="{skin}" {st}/>')
    for ex in (44.8, 55.2):
        add(f'<ellipse cx="{ex}" cy="50" rx="1.8" ry="1.5" fill="{ink}"/>')
    add(f'<path d="M40.5 46 Q44.5 43.8 48 45.8 M52 45.8 Q55.5 43.8 59.5 46" fill="none" '
        f'stroke="{ink}" stroke-width="1.1"/>')
    add(f'<path d="M50 50 L48.2 56.5 L51 57.1" fill="none" stroke="{skin_shade}" '
        f'stroke-width="1.2" stroke-linejoin="round"/>')
    if rank != 13:
        add(f'<path d="M46.2 61 Q50 63 53.8 61" fill="none" stroke="#9a5448" '
            f'stroke-width="1.4" stroke-linecap="round"/>')

    if rank == 13:
        # beard and moustache
        add(f'<path d="M36.8 52 C36.6 65 42 75 50 77 C58 75 63.4 65 63.2 52 '
            f'C60.5 59 57 60.5 50 60 C43 60.5 39.5 59 36.8 52 Z" fill="#b4b4b4" {st}/>')
        add(f'<path d="M42.5 60.5 C46 57.5 49 58 50 59.3 C51 58 54 57.5 57.5 60.5 '
            f'C54 61.5 51 61 50 60.3 C49 61 46 61.5 42.5 60.5 Z" fill="#8a8a8a"/>')
        # crown: five points with pearls, a jewelled band
        add(f'<path d="M33.5 38 L33.5 15 L41 26 L45 9 L50 23 L55 9 L59 26 L66.5 15 L66.5 38 Z" '
            f'fill="{gold}" {gst}/>')
        add(f'<rect x="32.5" y="31.5" width="35" height="7.5" rx="1" fill="{gold}" {gst}/>')
        for x, y in ((33.5, 14), (45, 8), (55, 8), (66.5, 14)):
            add(f'<circle cx="{x}" cy="{y}" r="2.5" fill="{white}" stroke="{gold_dark}" '
                f'stroke-width="0.7"/>')
        add(f'<circle cx="50" cy="19.5" r="2.7" fill="{robe}" stroke="{gold_dark}" '
            f'stroke-width="0.7"/>')
        for x, c in ((40, acc), (50, robe), (60, acc)):
            add(f'<rect x="{x - 2.3}" y="33" width="4.6" height="4.6" rx="0.8" fill="{c}"/>')
    elif rank == 12:
        # coronet: a low band rising to a point, pearls along it
        add(f'<path d="M35.5 40 C35.5 34 39.5 31 44 30 L50 19 L56 30 C60.5 31 64.5 34 64.5 40 '
            f'C57 36.5 43 36.5 35.5 40 Z" fill="{gold}" {gst}/>')
        for x, y in ((38.5, 33.5), (44, 29.5), (56, 29.5), (61.5, 33.5)):
            add(f'<circle cx="{x}" cy="{y}" r="1.9" fill="{white}" stroke="{gold_dark}" '
                f'stroke-width="0.5"/>')
        add(f'<circle cx="50" cy="17" r="2.8" fill="{white}" stroke="{gold_dark}" '
            f'stroke-width="0.7"/>')
        add(f'<path d="M50 26.5 L52.4 31 L50 35.5 L47.6 31 Z" fill="{acc}"/>')
    else:
        # jack: a soft cap with a gold band and a long feather
        # the plume: a broad feather with a notched edge and a gold quill
        add(f'<path d="M64 33 C66 24 70 17 76 12 L77.5 15 C80 9 84 5 90 2 L89.5 6.5 '
            f'C92 6 94 7 95 8 C91 11 89 14 88 17 L91 18 C87 24 80 29 72 32 L73.5 34 '
            f'C70 35 67 35 64 33 Z" fill="{acc}" {st}/>')
        add(f'<path d="M65 32.5 C73 25 81 15 91 4" fill="none" stroke="{gold}" '
            f'stroke-width="1.3" stroke-linecap="round"/>')
        add(f'<path d="M33 42 C29 29 38 20 52 20 C65 20 73 28 69.5 40 Z" fill="{robe}" {st}/>')
        add(f'<path d="M32.5 41.5 C44 36.5 57 36.5 70 39.5 L69.5 45 C57 41.8 44 41.8 33.5 46.8 Z" '
            f'fill="{gold}" stroke="{gold_dark}" stroke-width="0.8"/>')
        add(f'<circle cx="66" cy="40.5" r="2.5" fill="{acc}" stroke="{gold}" '
            f'stroke-width="0.9"/>')
    return out


# --------------------------------------------------------------------------

class CardArt:
    """All the card pictures for one card size.

    ``CardArt(card_width, back_style="blue")``; ``size`` is ``(w, round(1.4 w))``.
    Methods return cached per-pixel-alpha surfaces of exactly ``size``:
    ``face(card)``, ``back()``, ``shadow()`` (blit at ``shadow_offset``) and
    ``placeholder(label)``; ``outline(color, thickness)`` is a ring that sits
    just outside the card (blit at ``outline_offset()``).
    """

    def __init__(self, card_width: int, back_style: str = "blue", four_colour: bool = False,
                 high_contrast: bool = False) -> None:
        w = int(card_width)
        if w < 8:
            raise ValueError(f"card width must be at least 8 pixels, not {card_width!r}")
        if back_style not in BACK_STYLES:
            raise ValueError(f"unknown back style {back_style!r}; "
                             f"choose one of: {', '.join(BACK_STYLES)}")
        self.width = w
        self.height = card_height_for(w)
        self.back_style = back_style
        self.four_colour, self.high_contrast = four_colour, high_contrast
        self.suit_colors = suit_colors(four_colour, high_contrast)
        self._robes = {suit: ROBES[c] for suit, c in suit_colors(four_colour).items()}
        self.face_fill = HIGH_FACE_FILL if high_contrast else FACE_FILL
        self.face_border = HIGH_FACE_BORDER if high_contrast else FACE_BORDER
        self.corner_radius = max(2, round(w * 0.06))
        # blit the shadow at the card's position plus this offset
        self.shadow_offset = (max(1, round(w * 0.035)), max(2, round(w * 0.055)))
        self._faces: dict[Card, pygame.Surface] = {}
        self._back: pygame.Surface | None = None
        self._blank_face: pygame.Surface | None = None
        self._shadow: pygame.Surface | None = None
        self._outlines: dict[tuple, pygame.Surface] = {}
        self._placeholders: dict = {}    # label, or ("letter", label) -> picture
        self._ranks: dict[tuple, pygame.Surface] = {}
        self._warming: threading.Thread | None = None

    # ---------------------------------------------------------------- basics

    def _kept(self, what: str, which, draw) -> pygame.Surface:
        """``draw``'s picture (``which`` of ``what``), kept in the user's cache
        between launches: a game opened at once draws its backs and empty
        places from there (start-up; scenes.core.kept_pictures)."""
        options = (which, self.width, self.height, self.back_style, self.four_colour, self.high_contrast)
        return kept_picture(what, options, fingerprint(__file__), draw)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def _svg_open(self, size: tuple[int, int] | None = None) -> list[str]:
        w, h = size or self.size
        return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}">']

    def _card_shape(self, fill, stroke=None) -> str:
        """The card's rounded rectangle with a thin border (high contrast: thick and black)."""
        w, h = self.width, self.height
        stroke = self.face_border if stroke is None else stroke
        sw = max(2.0, w / 45) if self.high_contrast else max(1.0, w / 150)
        r = self.corner_radius
        return (f'<rect x="{_f(sw / 2)}" y="{_f(sw / 2)}" width="{_f(w - sw)}" '
                f'height="{_f(h - sw)}" rx="{_f(r - sw / 2)}" fill="{_hex(fill)}" '
                f'stroke="{_hex(stroke)}" stroke-width="{_f(sw)}"/>')

    def _render(self, parts: list[str], size: tuple[int, int] | None = None) -> pygame.Surface:
        parts.append("</svg>")
        return _render_svg("".join(parts), size or self.size)

    # ---------------------------------------------------------------- faces

    # index geometry, as fractions of the card width
    _IDX_CX = 0.115      # centre of the index column
    _IDX_TOP = 0.038     # top of the rank letter
    _IDX_CAP = 0.152     # rank letter cap height
    _IDX_GAP = 0.018     # rank → pip gap
    _IDX_PIP = 0.11      # pip size (the index ends at 0.318 w ≈ 0.227 h)

    def _rank_surface(self, rank: int, cap: float, color) -> pygame.Surface:
        key = (rank, round(cap * 4), tuple(color))
        s = self._ranks.get(key)
        if s is None:
            s = self._ranks[key] = _rank_text(rank, cap, color)
        return s

    def face(self, card: Card | str) -> pygame.Surface:
        """The face of ``card`` (a :class:`game.cards.Card`, or a code like
        ``"QH"``), cached."""
        if isinstance(card, str):
            card = Card.parse(card)
        surf = self._faces.get(card)
        if surf is None:
            surf = self._faces[card] = _finish(self._draw_face(card))
        return surf

    def prerender(self, cards=None) -> None:
        """Render ``cards`` now (default: all 52), plus the back and the shadow."""
        for card in (FULL_DECK if cards is None else cards):
            self.face(card)
        self.back()
        self.shadow()

    def prerender_in_background(self) -> threading.Thread:
        """Render every picture not yet drawn in a background thread (once per
        instance), so a face that first comes up mid-game costs the frame loop
        nothing (a few ms each at 4K). Called once the game's first frame is on
        screen, so the two do not share the work of opening it. Each picture is
        a new surface put in the cache when done; were the frame loop to ask for
        one first, it draws it itself and one of the two copies is kept."""
        if self._warming is None:
            self._warming = threading.Thread(target=self._prerender_quietly, daemon=True,
                                             name="card-art-prerender")
            self._warming.start()
        return self._warming

    def _prerender_quietly(self) -> None:
        def while_shown(cards):
            for card in cards:
                if pygame.display.get_surface() is None:
                    return      # the app has quit (or left the window): nothing is wanted
                yield card
        try:
            self.prerender(while_shown(FULL_DECK))
        except pygame.error:    # the display went away meanwhile
            pass

    def _index_parts(self, card: Card) -> tuple[list[str], pygame.Surface, float, float]:
        """SVG for the corner pips and the rank surface with its top-left corner."""
        w, h = self.width, self.height
        color = self.suit_colors[card.suit]
        rank_s = self._rank_surface(card.rank, w * self._IDX_CAP, color)
        cx = w * self._IDX_CX
        rx = cx - rank_s.get_width() / 2
        ry = w * self._IDX_TOP
        pip = w * self._IDX_PIP
        pcy = w * (self._IDX_TOP + self._IDX_CAP + self._IDX_GAP) + pip / 2
        parts = [_pip_el(card.suit, cx, pcy, pip, color, False),
                 _pip_el(card.suit, w - cx, h - pcy, pip, color, True)]
        return parts, rank_s, rx, ry

    def _blank(self) -> pygame.Surface:
        """The face without marks: white rounded card with its border."""
        if self._blank_face is None:
            parts = self._svg_open()
            parts.append(self._card_shape(self.face_fill))
            self._blank_face = self._render(parts)
        return self._blank_face

    @_drawn_alone
    def _draw_face(self, card: Card) -> pygame.Surface:
        w, h = self.width, self.height
        color = self.suit_colors[card.suit]
        # The blank card is rasterised once per instance; each face only
        # rasterises its own marks on a transparent layer (much less work).
        surf = self._blank().copy()
        parts = self._svg_open()
        idx_parts, rank_s, rx, ry = self._index_parts(card)
        parts += idx_parts
        if card.rank == 1:
            size = w * (0.56 if card.suit == "S" else 0.44)
            parts.append(_pip_el(card.suit, w / 2, h / 2, size, color, False))
            if card.suit == "S":   # a finer line inside the big spade, as on real decks
                inner = size * 0.80
                parts.append(_pip_el(card.suit, w / 2, h / 2 + size * 0.02, inner, color,
                                     False, f' stroke="{_hex(self.face_fill)}" '
                                     f'stroke-width="{_f(100 / inner * max(1.0, w / 160))}"'))
        elif card.rank <= 10:
            pip = w * 0.172
            cols = {_L: w * 0.315, _M: w * 0.5, _R: w * 0.685}
            top, bottom = h * 0.2, h * 0.8
            for col, row in _PIPS[card.rank]:
                cy = top + (bottom - top) * row
                parts.append(_pip_el(card.suit, cols[col], cy, pip, color, row > 0.5))
        if card.rank <= 10:
            surf.blit(self._render(parts), (0, 0))
        else:
            # A court card looks the same after a half turn, so only the top half
            # is rasterised; the bottom half is that image turned (pixel-exact,
            # and half the work).
            hh = (h + 1) // 2
            parts = self._svg_open((w, hh))
            parts.append(idx_parts[0])
            parts += self._court_top_parts(card)
            top = self._render(parts, (w, hh))
            surf.blit(top, (0, 0))
            surf.blit(pygame.transform.flip(top.subsurface((0, 0, w, h // 2)), True, True),
                      (0, hh))
        surf.blit(rank_s, (round(rx), round(ry)))
        turned = pygame.transform.flip(rank_s, True, True)
        surf.blit(turned, (round(w - rx - rank_s.get_width()), round(h - ry - rank_s.get_height())))
        return surf

    # panel geometry (fractions of the card width / height)
    _PANEL_X0 = 0.215
    _PANEL_Y0 = 0.055

    def _panel_rect(self) -> tuple[float, float, float, float]:
        w, h = self.width, self.height
        x0, y0 = w * self._PANEL_X0, h * self._PANEL_Y0
        return x0, y0, w - 2 * x0, h - 2 * y0

    def _court_top_parts(self, card: Card) -> list[str]:
        """The picture panel of a court card, as far as its top half goes."""
        w, h = self.width, self.height
        x0, y0, pw, ph = self._panel_rect()
        color = self.suit_colors[card.suit]
        gold, gold_dark = _hex(GOLD), _hex(GOLD_DARK)
        line = max(1.0, w / 110)
        parts = [f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(pw)}" height="{_f(ph)}" '
                 f'rx="{_f(w * 0.012)}" fill="{_hex(PANEL_FILL)}" stroke="{_hex(color)}" '
                 f'stroke-width="{_f(line)}"/>']
        # the figure, cut off at the middle line
        inset = line * 1.5
        scale = (pw - 2 * inset) / 100
        fig = "".join(_court_figure(card.rank, card.suit, self._robes[card.suit]))
        tx, ty = x0 + inset, y0 + ph / 2 - 110 * scale
        parts.append(f'<g transform="translate({_f(tx)} {_f(ty)}) scale({_f(scale)})">{fig}</g>')
        # middle line
        parts.append(f'<path d="M{_f(x0)} {_f(h / 2)} L{_f(x0 + pw)} {_f(h / 2)}" '
                     f'stroke="{gold_dark}" stroke-width="{_f(line * 1.6)}"/>')
        parts.append(f'<path d="M{_f(x0)} {_f(h / 2)} L{_f(x0 + pw)} {_f(h / 2)}" '
                     f'stroke="{gold}" stroke-width="{_f(line * 0.7)}"/>')
        # gold inner frame
        parts.append(f'<rect x="{_f(x0 + inset)}" y="{_f(y0 + inset)}" '
                     f'width="{_f(pw - 2 * inset)}" height="{_f(ph - 2 * inset)}" '
                     f'fill="none" stroke="{gold}" stroke-width="{_f(line * 0.8)}"/>')
        # a suit pip in the panel's top-left corner (bottom-right after the turn)
        pip = w * 0.1
        px, py = x0 + inset + pip * 0.65, y0 + inset + pip * 0.65
        parts.append(_pip_el(card.suit, px, py, pip, color, False))
        return parts

    # ---------------------------------------------------------------- back

    def back(self) -> pygame.Surface:
        """The card back in this instance's ``back_style``, cached."""
        if self._back is None:
            self._back = _finish(self._kept("card-back", None, self._draw_back))
        return self._back

    @_drawn_alone
    def _draw_back(self) -> pygame.Surface:
        w, h = self.width, self.height
        pal = BACK_STYLES[self.back_style]
        base, dark, light = _hex(pal["base"]), _hex(pal["dark"]), _hex(pal["light"])
        gold, white = _hex(GOLD), _hex(FACE_FILL)
        parts = self._svg_open()
        parts.append(self._card_shape(self.face_fill))
        m = w * 0.06
        ix0, iy0, ix1, iy1 = m, m, w - m, h - m
        ir = max(1.0, self.corner_radius * 0.55)
        parts.append(f'<rect x="{_f(ix0)}" y="{_f(iy0)}" width="{_f(ix1 - ix0)}" '
                     f'height="{_f(iy1 - iy0)}" rx="{_f(ir)}" fill="{base}"/>')
        # trellis inside a white frame line, with a plain band of the base colour
        # around it: pairs of thin diagonal lines both ways, clipped to the frame
        fi = w * 0.03
        lx0, ly0, lx1, ly1 = ix0 + fi, iy0 + fi, ix1 - fi, iy1 - fi
        lr = max(0.5, ir - fi / 2)
        step = w * 0.09
        lw = max(0.6, w * 0.008)
        pair = w * 0.018
        segs: list[str] = []
        cxm, cym = w / 2, h / 2
        n = int((ix1 - ix0 + iy1 - iy0) / step) + 2
        for direction in (1, -1):
            for k in range(-n, n + 1):
                for off in (-pair / 2, pair / 2):
                    seg = _clip_diagonal(direction, k * step + off, cxm, cym, lx0, ly0, lx1, ly1)
                    if seg:
                        segs.append("M%s %s L%s %s" % tuple(_f(v) for v in seg))
        parts.append(f'<path d="{" ".join(segs)}" stroke="{light}" stroke-width="{_f(lw)}" '
                     f'fill="none"/>')
        # small diamonds where the trellis crosses
        dots: list[str] = []
        d = w * 0.012
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                # where line i of the "\\" family crosses line j of the "/" family
                x = cxm + (j - i) * step / 2
                y = cym + (j + i) * step / 2
                if lx0 + d < x < lx1 - d and ly0 + d < y < ly1 - d:
                    dots.append(f"M{_f(x)} {_f(y - d)} L{_f(x + d)} {_f(y)} "
                                f"L{_f(x)} {_f(y + d)} L{_f(x - d)} {_f(y)} Z")
        parts.append(f'<path d="{" ".join(dots)}" fill="{light}"/>')
        # cover the trellis where the frame's corners are rounded
        parts.append(f'<path fill-rule="evenodd" fill="{base}" d="'
                     f'M{_f(lx0 - 1)} {_f(ly0 - 1)} L{_f(lx1 + 1)} {_f(ly0 - 1)} '
                     f'L{_f(lx1 + 1)} {_f(ly1 + 1)} L{_f(lx0 - 1)} {_f(ly1 + 1)} Z '
                     f'{_rounded_rect_d(lx0, ly0, lx1, ly1, lr)}"/>')
        parts.append(f'<rect x="{_f(lx0)}" y="{_f(ly0)}" width="{_f(lx1 - lx0)}" '
                     f'height="{_f(ly1 - ly0)}" rx="{_f(lr)}" fill="none" stroke="{white}" '
                     f'stroke-width="{_f(max(0.8, w * 0.009))}"/>')
        parts.append(f'<rect x="{_f(ix0)}" y="{_f(iy0)}" width="{_f(ix1 - ix0)}" '
                     f'height="{_f(iy1 - iy0)}" rx="{_f(ir)}" fill="none" stroke="{dark}" '
                     f'stroke-width="{_f(max(0.8, w * 0.01))}"/>')
        # the emblem: a round table with twelve seats, in a gold-ringed medallion
        r = w * 0.22
        parts.append(f'<circle cx="{_f(cxm)}" cy="{_f(cym)}" r="{_f(r)}" fill="{dark}" '
                     f'stroke="{gold}" stroke-width="{_f(max(1.0, w * 0.014))}"/>')
        parts.append(f'<circle cx="{_f(cxm)}" cy="{_f(cym)}" r="{_f(r * 0.86)}" fill="none" '
                     f'stroke="{light}" stroke-width="{_f(max(0.6, w * 0.006))}"/>')
        parts.append(f'<circle cx="{_f(cxm)}" cy="{_f(cym)}" r="{_f(r * 0.46)}" fill="{base}" '
                     f'stroke="{gold}" stroke-width="{_f(max(1.0, w * 0.012))}"/>')
        for i in range(12):
            a = i * math.pi / 6
            sx, sy = cxm + r * 0.66 * math.sin(a), cym - r * 0.66 * math.cos(a)
            parts.append(f'<circle cx="{_f(sx)}" cy="{_f(sy)}" r="{_f(r * 0.085)}" '
                         f'fill="{gold}"/>')
        # a four-pointed star on the table
        s1, s2 = r * 0.36, r * 0.1
        star = []
        for i in range(8):
            a = i * math.pi / 4
            rr = s1 if i % 2 == 0 else s2
            star.append(f"{_f(cxm + rr * math.sin(a))} {_f(cym - rr * math.cos(a))}")
        parts.append(f'<path d="M{" L".join(star)} Z" fill="{gold}"/>')
        return self._render(parts)

    # ---------------------------------------------------------------- extras

    def shadow(self) -> pygame.Surface:
        """A soft translucent shadow, card-sized; blit it at the card's position
        plus ``shadow_offset`` before blitting the card."""
        if self._shadow is None:
            self._shadow = _finish(self._kept("card-shadow", None, self._draw_shadow))
        return self._shadow

    @_drawn_alone
    def _draw_shadow(self) -> pygame.Surface:
        w, h = self.size
        blur = max(1, round(w * 0.028))
        parts = self._svg_open()
        parts.append(f'<rect x="{blur}" y="{blur}" width="{w - 2 * blur}" '
                     f'height="{h - 2 * blur}" rx="{self.corner_radius}" '
                     f'fill="#000000" fill-opacity="0.5"/>')
        surf = self._render(parts)
        # two box blurs ≈ a gaussian; the result stays within the card's size
        rad = max(1, blur // 2)
        surf = pygame.transform.box_blur(surf, rad)
        return pygame.transform.box_blur(surf, rad)     # finished by shadow(), read or drawn

    def outline_thickness(self, thickness: int | None = None) -> int:
        """The ring width ``outline`` uses: ``thickness`` or the default for this size."""
        return max(1, int(thickness)) if thickness is not None else max(2, round(self.width * 0.03))

    def outline(self, color, thickness: int | None = None) -> pygame.Surface:
        """A rounded ring hugging the card's edge from outside, for hover,
        selection and legal targets. ``color`` may have alpha.

        The surface is the card's size plus ``t`` on every side, where
        ``t = outline_thickness(thickness)``: blit it at ``(x - t, y - t)``
        (see :meth:`outline_offset`). The ring overlaps the card by one pixel so
        no background shows between them; it never covers the corner index.
        """
        c = pygame.Color(color)
        t = self.outline_thickness(thickness)
        key = (tuple(c), t)
        surf = self._outlines.get(key)
        if surf is None:
            surf = self._outlines[key] = self._draw_outline(c, t)
        return surf

    @_drawn_alone
    def _draw_outline(self, c: pygame.Color, t: int) -> pygame.Surface:
        w, h = self.width + 2 * t, self.height + 2 * t
        sw = t + 1
        parts = self._svg_open((w, h))
        parts.append(f'<rect x="{_f(sw / 2)}" y="{_f(sw / 2)}" width="{_f(w - sw)}" '
                     f'height="{_f(h - sw)}" rx="{_f(self.corner_radius + t - sw / 2)}" '
                     f'fill="none" stroke="{_hex(c)}" stroke-opacity="{_f(c.a / 255)}" '
                     f'stroke-width="{_f(sw)}"/>')
        return _finish(self._render(parts, (w, h)))

    def outline_offset(self, thickness: int | None = None) -> tuple[int, int]:
        """Where to blit ``outline(…, thickness)`` relative to the card: ``(-t, -t)``."""
        t = self.outline_thickness(thickness)
        return (-t, -t)

    def placeholder(self, label: str | None = None) -> pygame.Surface:
        """An empty pile's slot: a faint rounded outline, optionally with a big
        faint rank letter (``"K"``, ``"A"`` …) or, for ``"C" "D" "H" "S"``, a suit pip."""
        surf = self._placeholders.get(label)
        if surf is None:
            if label and label not in SUITS:      # a letter over the kept outline: quicker drawn than read
                surf = self._draw_placeholder(label)
            else:
                surf = _finish(self._kept("card-place", label, lambda: self._draw_placeholder(label)))
            self._placeholders[label] = surf
        return surf

    def draw_placeholder(self, surface: pygame.Surface, pos: tuple[int, int],
                         label: str | None = None) -> None:
        """:meth:`placeholder` drawn on ``surface`` at ``pos``; a letter is drawn
        over the outline there, as pygame would blend it into a copy of the
        outline (to within a level of rounding): Clock's 13 hour places at 4K
        are then no 13 copies of the outline (7 MB of fresh memory, whose page
        faults cost more than the blits, as the game opens)."""
        if not label or label in SUITS:
            surface.blit(self.placeholder(label), pos)
            return
        surface.blit(self.placeholder(None), pos)
        letter = self._place_letter(label)
        w, h = self.size
        surface.blit(letter, letter.get_rect(center=(pos[0] + w // 2, pos[1] + h // 2)))

    def _place_letter(self, label: str) -> pygame.Surface:
        """The faint letter of an empty place, cropped to its ink."""
        letter = self._placeholders.get(("letter", label))
        if letter is None:
            cap = self.size[0] * (0.34 if len(label) == 1 else 0.2)

            def draw() -> pygame.Surface:
                with _DRAWING:
                    return _glyphs(label, cap, (255, 255, 255))
            # kept between launches: 13 letters at 4K were some 10 ms of Clock's opening
            letter = self._kept("place-letter", label, draw)
            # all white, so pygame's blend onto the translucent fill stays exact
            letter.set_alpha(160 if self.high_contrast else 72)
            self._placeholders[("letter", label)] = letter
        return letter

    @_drawn_alone
    def _draw_placeholder(self, label: str | None) -> pygame.Surface:
        w, h = self.size
        if label and label not in SUITS:
            # the same outline under every letter: rendered once (Clock's 13
            # hour slots cost one SVG render, not 13, when the game opens)
            surf = self.placeholder(None).copy()
            text = self._place_letter(label)
            surf.blit(text, text.get_rect(center=(w // 2, h // 2)))
            return surf
        # high contrast: an empty place is drawn as plainly as a card's edge
        t = max(2.5, w * 0.03) if self.high_contrast else max(1.5, w * 0.016)
        fill, edge = ("0.12", "0.95") if self.high_contrast else ("0.07", "0.45")
        parts = self._svg_open()
        parts.append(f'<rect x="{_f(t / 2)}" y="{_f(t / 2)}" width="{_f(w - t)}" '
                     f'height="{_f(h - t)}" rx="{_f(self.corner_radius - t / 2)}" '
                     f'fill="#ffffff" fill-opacity="{fill}" stroke="#ffffff" '
                     f'stroke-opacity="{edge}" stroke-width="{_f(t)}"/>')
        if label in SUITS:
            size = w * 0.44
            parts.append(_pip_el(label, w / 2, h / 2, size, (255, 255, 255), False,
                                 ' fill-opacity="0.26"'))
        return self._render(parts)       # finished by placeholder(), read or drawn


def _rounded_rect_d(x0: float, y0: float, x1: float, y1: float, r: float) -> str:
    return (f"M{_f(x0 + r)} {_f(y0)} L{_f(x1 - r)} {_f(y0)} "
            f"A{_f(r)} {_f(r)} 0 0 1 {_f(x1)} {_f(y0 + r)} L{_f(x1)} {_f(y1 - r)} "
            f"A{_f(r)} {_f(r)} 0 0 1 {_f(x1 - r)} {_f(y1)} L{_f(x0 + r)} {_f(y1)} "
            f"A{_f(r)} {_f(r)} 0 0 1 {_f(x0)} {_f(y1 - r)} L{_f(x0)} {_f(y0 + r)} "
            f"A{_f(r)} {_f(r)} 0 0 1 {_f(x0 + r)} {_f(y0)} Z")


def _clip_diagonal(direction: int, c: float, cx: float, cy: float,
                   x0: float, y0: float, x1: float, y1: float):
    """The part inside the rectangle of the 45° line (y - cy) = direction·(x - cx) + c·√2 …

    Lines are parametrised as y = cy + direction * (x - cx) + c (c is the vertical
    offset). Returns (xa, ya, xb, yb) or None.
    """
    # x range where y stays within [y0, y1]
    xa = cx + (y0 - cy - c) / direction
    xb = cx + (y1 - cy - c) / direction
    lo, hi = max(x0, min(xa, xb)), min(x1, max(xa, xb))
    if hi - lo <= 1e-6:
        return None
    return (lo, cy + direction * (lo - cx) + c, hi, cy + direction * (hi - cx) + c)


def shared_card_art(app, card_width: int) -> CardArt:
    """Card pictures at this width with the chosen back. Each face is rendered
    once, when first drawn (a few ms at 4K: prerendering all 52 would keep a
    game from opening at once); the last two sizes are kept on the app, so a
    new deal or a return from the menu costs nothing."""
    cache = app.art_cache.setdefault("cards", {})
    st = app.settings
    key = (card_width, st.card_back, st.four_colour, st.high_contrast)
    art = cache.get(key)
    if art is None:
        art = CardArt(card_width, st.card_back, st.four_colour, st.high_contrast)
        # At 4K one size of the 52 faces is some 25 MiB: only the newest is kept then.
        while cache and (len(cache) >= 2 or _faces_bytes(cache) + _faces_bytes({key: art}) > CARD_ART_BYTES):
            cache.pop(next(iter(cache)))
        cache[key] = art
    return art


CARD_ART_BYTES = 24 << 20     # the faces of the sizes kept, at most (estimated)


def _faces_bytes(cache: dict) -> int:
    """The pixels of 52 faces, a back and a shadow at each size in ``cache``."""
    return sum(art.width * art.height * 4 * 54 for art in cache.values())
