"""The painting of a game's screen, shared by the patience scenes and the board
screens: the top bar (HUD), the toolbar, and a frame that paints only where
something changed.

A :class:`PaintedScene` keeps no full-screen surface but the screen. A frame
paints from scratch, clipped, the areas where something at rest changed (the
felt, the cards or pieces, the HUD), then draws what moves on top. The scene
fills the hooks: ``layout``, ``draw_background``, ``draw_resting``,
``resting_changes``, ``resting_rebuilt``, ``draw_animated``, ``busy_areas``,
and the HUD's words (``status_line``, ``score_line``, ``moves_made``).
"""
from __future__ import annotations

from collections import OrderedDict

import pygame

from ..core.actions import Action, InputEvent
from ..core.scene import Scene
from ..core.ui import (FONTS, GOLD, INK, INK_DIM, draw_text, layout_row, layout_rows, message_band,
                       mirrored, paint_felt, release_felt, text_scale, toolbar_height, touch_target,
                       ui_scale)
from .card_art import CardArt
from ..store.words import N_, _, ngettext, right_to_left

BLOCK = 256             # px: the background is kept in blocks this big, ...
BLOCKS_KEPT = 40        # ... the most recently painted (10 MiB at most): where cards move


# Whole blocks no screen keeps now, to keep the next screen's background in.
# A fresh block costs its page faults (glibc maps each one of its size on its
# own, see App), ten times the copy: at 4K, keeping 40 blocks in new surfaces
# took ~18 ms of a game's first frame, in spare ones ~2 ms. At most BLOCKS_KEPT
# (10 MiB), made on the menu while it waits (prepare_spare_blocks).
_spare_blocks: list[pygame.Surface] = []


def prepare_spare_blocks() -> None:
    """Fill the spares for the window as it is now (the menu's warm-up thread:
    the first game opened keeps its background without new memory)."""
    screen = pygame.display.get_surface()
    while screen is not None and len(_spare_blocks) < BLOCKS_KEPT:
        _spare_blocks.append(pygame.Surface((BLOCK, BLOCK), 0, screen))


def kept_block(surface: pygame.Surface, area: pygame.Rect) -> pygame.Surface:
    """What ``surface`` shows in ``area`` (at most a block), kept in a spare
    block where one of the surface's format is left, else in a new one."""
    while _spare_blocks:
        block = _spare_blocks.pop()
        if block.get_bitsize() == surface.get_bitsize() and block.get_masks() == surface.get_masks():
            if block.get_size() != area.size:
                block = block.subsurface((0, 0) + area.size)   # an edge's block
            block.blit(surface, (0, 0), area)                  # opaque to opaque: a copy
            return block
    return surface.subsurface(area).copy()


def release_blocks(blocks) -> None:
    """Blocks a screen no longer keeps become spares (whole ones, up to the limit)."""
    for block in blocks:
        whole = block.get_parent() or block
        if whole.get_size() == (BLOCK, BLOCK) and len(_spare_blocks) < BLOCKS_KEPT:
            _spare_blocks.append(whole)


def blocks_over(area: pygame.Rect, screen: pygame.Rect) -> list[pygame.Rect]:
    """The background blocks (``BLOCK`` px on the screen's grid) ``area`` lies
    on, each clipped to the screen; none for an empty area."""
    if not (area.w and area.h):
        return []
    return [pygame.Rect(bx * BLOCK, by * BLOCK, BLOCK, BLOCK).clip(screen)
            for by in range(area.top // BLOCK, (area.bottom - 1) // BLOCK + 1)
            for bx in range(area.left // BLOCK, (area.right - 1) // BLOCK + 1)]


def paint_areas(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """The areas to paint for ``rects``: two that overlap become one where
    their union is hardly larger (a card and where it was a frame ago), and stay
    two where it would take in much empty table (a stream of cards from the
    stock across the screen): painting an area is painting the felt and every
    card in it, so the table between them is not painted for nothing. Painting
    is the same wherever it is done, so an overlap painted twice looks the same."""
    out: list[pygame.Rect] = []
    for rect in rects:
        rect = pygame.Rect(rect)
        joined = True
        while joined:
            joined = False
            for i, other in enumerate(out):
                if rect.colliderect(other):
                    union, both = rect.union(other), rect.clip(other)
                    if union.w * union.h * 4 <= (rect.w * rect.h + other.w * other.h
                                                 - both.w * both.h) * 5:
                        rect = union
                        out.pop(i)
                        joined = True
                        break
        out.append(rect)
    return out


HUD_ROWS_PX = (28, 22)   # the top bar's two rows of text when the text is larger than usual


def hud_height(size: tuple[int, int]) -> int:
    """The top bar's height: one row of text, or two when the player chose a
    larger text size (the title and score, then the status and the time)."""
    s, k = ui_scale(size), text_scale()
    return int(54 * s) if k <= 1 else int(sum(HUD_ROWS_PX) * s * k * 1.25)


def play_area_for(size: tuple[int, int]) -> pygame.Rect:
    """Where a game lays out its table in a window of ``size``: below the top
    bar, above the band kept for messages (and the toolbar under it)."""
    s = ui_scale(size)
    top = hud_height(size)                # the top bar (GameScene.hud_h)
    bottom = message_band(size).top
    return pygame.Rect(int(16 * s), top, size[0] - int(32 * s), bottom - top)


class PaintedScene(Scene):
    """A screen with a HUD, a toolbar and a table painted where it changed."""

    title = ""
    has_deals = False   # a patience shows its deal number in the top bar
    demo = False
    seed = None
    play_seconds = 0.0  # the time played, in the top bar

    def __init__(self, app) -> None:
        super().__init__(app)
        self.scale = 1.0
        self.pointer = (-1, -1)

    # --- for subclasses ----------------------------------------------------
    def layout(self, play_area: pygame.Rect) -> None: ...
    def open_pause(self, reason: str = "") -> None: ...

    def status_line(self) -> str:
        return ""

    def score_line(self) -> str:
        return ""

    def moves_made(self) -> int:
        return 0

    def button_enabled(self, label: str) -> bool:
        return True

    def button_lit(self, label: str) -> bool:
        return False

    def enter(self) -> None:
        super().enter()
        # A game without cards lets the faces kept for the last card game go (at 4K
        # some 25 MiB); a card game keeps them (its own, or a new size).
        if not isinstance(getattr(self, "art", None), CardArt):
            self.app.art_cache.pop("cards", None)

    def resize(self, size) -> None:
        super().resize(size)
        self._full_next = True  # painted whole at the new size
        self._back_shown = self._look()
        s = self.scale = ui_scale(size)
        w, h = size
        k = text_scale()                 # the bars grow with the player's text size
        self.hud_h = hud_height(size)
        self.bar_h = int(40 * s)
        target = touch_target(size)
        if target:       # touch: buttons a finger can hit, in the bar grown to hold them
            layout_rows(self.toolbar.buttons, w // 2, h - toolbar_height(size) // 2 - target // 2,
                        target, int(10 * s), len(self.toolbar.buttons))
        else:
            layout_row(self.toolbar.buttons, (w // 2, h - int(30 * s * k)), self.bar_h, int(10 * s),
                       int(20 * s))
        self.play_area = play_area_for(size)
        self.layout(self.play_area)

    def repaint_whole(self) -> None:
        """The next frame paints the whole screen (the layout changed)."""
        self._full_next = True

    def resume(self) -> None:
        self._full_next = True
        if getattr(self, "_back_shown", None) != self._look():
            self.resize(self.size)       # the cards' look was changed in Settings

    def _look(self) -> tuple:
        """The settings the cards are drawn with (a change means new art)."""
        st = self.app.settings
        return (st.card_back, st.four_colour, st.high_contrast, st.text_scale)

    def screen_input(self, event: InputEvent) -> bool:
        """The input a game's screen takes before its game does: any key ends a
        demo, a lost pad pauses, the toolbar takes its clicks. True when taken."""
        a = event.action
        if event.pos is not None:
            self.pointer = event.pos
        if self.demo:
            if a not in (Action.POINTER_MOVE, Action.POINTER_UP, Action.FOCUS_LOST,
                         Action.DEVICE_ADDED):
                self.app.navigator.open_menu()
            return True
        if a == Action.DEVICE_LOST:
            self.open_pause(N_("The gamepad was disconnected."))
            return True
        if self.toolbar.handle(event) if event.is_pointer else False:
            return True
        return event.is_pointer and any(b.contains(event.pos) for b in self.toolbar.buttons)

    def time_and_moves(self) -> str:
        """'3:05 · 48 moves': the HUD's clock and the game-over dialog's line."""
        seconds = int(self.play_seconds)
        n = self.moves_made()
        return ngettext("{time}  ·  {n} move", "{time}  ·  {n} moves", n).format(
            time=f"{seconds // 60}:{seconds % 60:02d}", n=n)

    # --- drawing ----------------------------------------------------------
    # The screen is the only full-screen surface a game keeps. A frame paints
    # only where something changed: what is at rest (the felt and decorations:
    # draw_background; cards, HUD: draw_resting, draw_hud) is painted from
    # scratch within those areas, clipped, then what moves (draw_animated) on
    # top; where a card was in the air last frame is such an area. Everything
    # drawn at rest honours the surface's clip.
    def draw_background(self, surface: pygame.Surface) -> None:
        paint_felt(surface)

    def draw_resting(self, surface: pygame.Surface, clip: pygame.Rect | None) -> None: ...

    def resting_changes(self) -> list[pygame.Rect]:
        """Areas where things at rest changed since the last call."""
        return []

    def resting_rebuilt(self) -> None:
        """The static layer was painted whole."""

    def draw_animated(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """Paint what moves this frame onto the screen; return its areas."""
        return []

    def _update_toolbar(self) -> None:
        mouse = self.app.input.pointing
        for b in self.toolbar.buttons:
            b.enabled = self.button_enabled(b.key)
            b.hot = mouse and b.contains(self.pointer) or self.button_lit(b.key)

    def _hud_texts(self) -> dict[str, list[tuple]]:
        """The HUD's lines of text by part: (text, px, pos, colour, anchor, shadow)."""
        s = self.scale
        w = self.size[0]
        mid = lower = self.hud_h // 2
        title, deal, score_px, status, time_px = (int(px * s) for px in (34, 26, 30, 26, 24))
        two_rows = text_scale() > 1     # larger text: the status and the time under the rest
        if two_rows:
            top, under = HUD_ROWS_PX
            mid, lower = self.hud_h * top // (2 * (top + under)), self.hud_h * (2 * top + under) // (2 * (top + under))
            title = score_px = int(top * s)
            deal = status = time_px = int(under * s)
        left = [(_(self.title), title, (int(20 * s), mid), GOLD, "midleft", True)]
        if self.has_deals:
            title_w = FONTS.font(title, bold=True).size(_(self.title))[0]
            left.append((_("Deal {number}").format(number=self.seed), deal, (int(20 * s) + title_w + int(24 * s), mid),
                         INK_DIM, "midleft", False))
        centre = _("DEMO — press any key or button") if self.demo else self.status_line()
        score = self.score_line()
        right = [(score, score_px, (w - int(20 * s), mid), INK, "midright", True)]
        if not self.demo:   # the time played and the moves, left of the score (or under it)
            beside = 0 if two_rows else FONTS.font(score_px, bold=True).size(score)[0] + int(28 * s)
            right.append((self.time_and_moves(), time_px, (w - int(20 * s) - beside, lower),
                          INK_DIM, "midright", False))
        where = ((int(20 * s), lower), "midleft") if two_rows else ((w // 2, mid), "center")
        return {"left": left,
                "centre": [(centre, status, where[0], INK, where[1], False)] if centre else [],
                "right": right}

    @staticmethod
    def _texts_rect(texts: list[tuple]) -> pygame.Rect | None:
        rect = None
        for text, px, pos, _, anchor, shadow in texts:
            r = pygame.Rect((0, 0), FONTS.font(px, bold=shadow).size(text))
            setattr(r, anchor, pos)
            r.inflate_ip(px // 6, px // 6)  # room for the shadow
            rect = r if rect is None else rect.union(r)
        return rect

    def _placed_hud_texts(self) -> dict[str, list[tuple]]:
        """The HUD's lines where they are drawn: mirrored for a right-to-left
        language (the game's name on the right, the score on the left)."""
        texts = self._hud_texts()
        if not right_to_left():
            return texts
        w = self.size[0]
        return {name: [(text, px, (w - pos[0], pos[1]), color, mirrored(anchor), shadow)
                       for text, px, pos, color, anchor, shadow in lines]
                for name, lines in texts.items()}

    def _hud_parts(self) -> dict[str, tuple]:
        """What each part of the HUD shows; a part is repainted where it was
        and where it will be when it changes."""
        self._update_toolbar()
        parts = {name: tuple(texts) for name, texts in self._placed_hud_texts().items()}
        if not self.demo:
            parts["toolbar"] = tuple((b.label, b.enabled, b.hot) for b in self.toolbar.buttons)
        return parts

    def _hud_part_rect(self, name: str, value: tuple) -> pygame.Rect | None:
        if name == "toolbar":
            bar = int(60 * self.scale * text_scale())
            return pygame.Rect(0, self.size[1] - bar, self.size[0], bar)
        return self._texts_rect(list(value))

    def _changes(self) -> list[pygame.Rect]:
        """Areas where what is at rest (table, HUD) changed since the last frame."""
        dirty = self.resting_changes()
        parts = self._hud_parts()
        if parts != self._hud_drawn:
            for name in set(parts) | set(self._hud_drawn):
                old, new = self._hud_drawn.get(name), parts.get(name)
                if old != new:
                    dirty += [r for r in (self._hud_part_rect(name, old or ()),
                                          self._hud_part_rect(name, new or ())) if r is not None]
            self._hud_drawn = parts
        return dirty

    def before_full_repaint(self) -> None:
        """The whole screen is about to be painted (subclasses note what is drawn)."""

    def busy_areas(self) -> list[pygame.Rect]:
        """Where things will move and be repainted first (the cards and their
        piles): the background there is kept in blocks when the screen is
        painted whole, so the first moves (a deal) do not draw it."""
        return []

    def release_background(self) -> None:
        """The background blocks kept go to the spares (a full repaint, or left)."""
        release_blocks(self.__dict__.pop("_blocks", {}).values())

    def leave(self) -> None:
        super().leave()
        self.release_background()

    def _keep_background_blocks(self, surface: pygame.Surface) -> OrderedDict:
        """The background just painted whole, kept in blocks under the busy
        areas, as many as there are spare blocks for: each a copy of what is on
        screen. The others are kept when first repainted (:meth:`_paint_area`):
        new memory is not worth its page faults in the frame that opens a game."""
        blocks: OrderedDict = OrderedDict()
        screen = surface.get_rect()
        for area in self.busy_areas():
            for block in blocks_over(area.clip(screen), screen):
                if block.topleft not in blocks:
                    if not _spare_blocks or len(blocks) >= BLOCKS_KEPT:
                        return blocks
                    blocks[block.topleft] = kept_block(surface, block)
        return blocks

    def _paint_all(self, surface: pygame.Surface) -> None:
        """Everything at rest, the whole screen."""
        release_felt()        # the menu's felt, if any: a game paints its own
        self.release_background()            # the background may have changed
        self.before_full_repaint()
        surface.set_clip(None)
        self.draw_background(surface)
        self._blocks = self._keep_background_blocks(surface)
        self.draw_resting(surface, None)
        self.resting_changes()          # all of it is painted now
        self.resting_rebuilt()
        self._hud_drawn = self._hud_parts()
        self.draw_hud(surface)
        self._painted_size = surface.get_size()

    def _paint_area(self, surface: pygame.Surface, rect: pygame.Rect) -> pygame.Rect:
        """What is at rest within ``rect``, painted from scratch: the
        background from kept blocks, then the cards and the HUD there, in
        order. No copy of the whole screen is kept. Returns the area painted:
        ``rect``, grown to whole blocks where a block had to be drawn first."""
        blocks = self.__dict__.setdefault("_blocks", OrderedDict())
        screen = surface.get_rect()
        grid = blocks_over(rect, screen)
        for block in grid:
            key = block.topleft
            if key in blocks:
                blocks.move_to_end(key)
                continue
            # Drawn on the screen (the cards there are painted again below) and kept.
            surface.set_clip(block)
            self.draw_background(surface)
            blocks[key] = kept_block(surface, block)
            rect = rect.union(block)
            while len(blocks) > BLOCKS_KEPT:
                release_blocks([blocks.popitem(last=False)[1]])
        surface.set_clip(rect)
        for block in grid:
            kept = blocks.get(block.topleft)
            if kept is not None:
                surface.blit(kept, block)
            else:       # more blocks in this area than are kept: drawn here
                self.draw_background(surface)
                break
        self.draw_resting(surface, rect)
        if rect.top < self.hud_h or rect.bottom > self.size[1] - int(60 * self.scale * text_scale()):
            self.draw_hud(surface)
        surface.set_clip(None)
        return rect

    def draw(self, surface: pygame.Surface) -> None:
        """The whole frame (something else is drawn over it, e.g. a dialog)."""
        self._paint_all(surface)
        self._last_animated = self.draw_animated(surface)
        self._full_next = True

    def draw_incremental(self, surface: pygame.Surface, restore: list[pygame.Rect]) -> list[pygame.Rect] | None:
        """Repaint only what changed; the areas changed, or None for all.

        The screen is the only full-screen surface: where something changed at
        rest, where a card was in the air last frame and where a toast was, the
        area is painted from scratch; then what moves is drawn on top."""
        look = self.animated_look()
        if getattr(self, "_full_next", True) or getattr(self, "_painted_size", None) != surface.get_size():
            self._full_next = False
            self._paint_all(surface)
            self._last_animated = self.draw_animated(surface)
            self._drawn_look = look
            return None
        changes = self._changes() + list(restore)
        if not changes and look is not None and look == self._drawn_look:
            return []          # nothing moved and the rings are as drawn: the screen is right
        self._drawn_look = look
        screen = surface.get_rect()
        areas = [r.clip(screen) for r in paint_areas(changes + self._last_animated)]
        areas = [self._paint_area(surface, r) for r in areas if r.w and r.h]
        self._last_animated = self.draw_animated(surface)
        return areas + self._last_animated

    def animated_look(self):
        """All that ``draw_animated`` shows, as a value to compare, while it
        shows the same from frame to frame (rings, no card in the air); None
        when unknown or moving (it is drawn every frame then)."""
        return None

    def draw_hud(self, surface: pygame.Surface) -> None:
        s = self.scale
        w, _ = self.size
        band = getattr(self, "_band", None)
        if band is None or band.get_size() != (w, self.hud_h):
            band = self._band = pygame.Surface((w, self.hud_h), pygame.SRCALPHA)
            band.fill((0, 0, 0, 70))
        surface.blit(band, (0, 0))
        for texts in self._placed_hud_texts().values():
            for text, px, pos, color, anchor, shadow in texts:
                draw_text(surface, text, px, pos, color, anchor=anchor, shadow=shadow)
        if not self.demo:
            for b in self.toolbar.buttons:
                b.draw(surface, s)
