"""A help screen per game: the rules in our own words, a small diagram drawn
with the real card / board art, and the controls for mouse, keyboard and gamepad.

Two pages, "Rules" and "Controls". LEFT/RIGHT (or Tab, the right shoulder, a
click on a tab) change page; UP/DOWN and the mouse wheel scroll a page that does
not fit, and go on to the next (previous) page at its end (start). SELECT goes
to the next page, or back from the last one; BACK (Escape, gamepad B) or the
"Back" button closes the help.

    app.scenes.push(HelpScene(app, game_id))

The words and the diagram are each game's (its descriptor's ``help``, in
``scenes.games``); the controls every game shares are here.
"""
from __future__ import annotations

from functools import partial

import pygame

from ..core.actions import Action, InputEvent
from ..core.overlays import FocusButtons
from ..core.touch import FingerScroll
from ..core.scene import Scene
from ..core.ui import (BUTTON, FOCUS, GOLD, INK, INK_DIM, Button, FONTS, draw_text, felt, for_reading,
                       mirrored, rounded_panel, touch_target, ui_scale, wrap_text)
from ..games import descriptor
from ..store.words import N_, _, right_to_left

# --------------------------------------------------------------------------- the words

COMMON_CONTROLS = [
    # action, mouse or touch, keyboard, gamepad
    (N_("Move the focus"), N_("Hover"), N_("Arrows"), N_("D-pad, left stick")),
    (N_("Select / play"), N_("Click or tap, or drag and drop"), N_("Enter, Space"), N_("A")),
    (N_("Put down what is picked up"), N_("Right-click, long press"), N_("Escape"), N_("B")),
    (N_("Back, pause menu"), N_("Toolbar \"Menu\""), N_("Escape"), N_("B, Start")),
    (N_("Hint"), N_("Toolbar \"Hint\""), N_("H"), N_("X")),
    (N_("Undo"), N_("Toolbar \"Undo\", two-finger tap"), N_("Ctrl+Z, U"), N_("Y")),
    (N_("Redo"), N_("Toolbar \"Redo\""), N_("Ctrl+Y, Ctrl+Shift+Z"), N_("Left shoulder")),
    (N_("Automatic play"), N_("Toolbar \"Auto\""), N_("A"), N_("Back")),
    (N_("New deal / restart"), N_("Toolbar"), N_("N / R"), N_("Pause menu")),
    (N_("Full screen"), "", N_("F11, Alt+Enter"), ""),
    (N_("Read the position aloud"), "", N_("F2"), N_("Right stick click")),
]

HELP_FOOTER = N_("Left / right: page · Up / down or wheel: scroll · Escape or B: back")
PAGES = (N_("Rules"), N_("Controls"))


def controls_for(game_id: str) -> list[tuple[str, str, str, str]]:
    game = descriptor(game_id)
    rows = list(COMMON_CONTROLS)
    if not game.has_deals:
        rows = [r if r[0] != "New deal / restart" else ("New game / restart", "Toolbar", "N / R",
                                                        N_("Pause menu")) for r in rows]
    return [tuple(_(cell) if cell else cell for cell in row) for row in rows + list(game.help.controls)]


# --------------------------------------------------------------------------- the scene

class HelpScene(Scene):
    """The rules and controls of one game; opaque, over the felt."""

    still_until_input = True

    def __init__(self, app, game_id: str) -> None:
        super().__init__(app)
        self.game = descriptor(game_id)       # ValueError for a game with no help
        self.game_id = game_id
        self.help = self.game.help
        self.page = 0
        self.scroll = 0
        self.finger = FingerScroll()      # a finger drawn up or down scrolls the page
        self.tabs = [Button(name, self._goto(k)) for k, name in enumerate(PAGES)]
        self.back_button = Button(N_("Back"), self.back)
        self.focus = FocusButtons([self.back_button])
        self._pressed_tab: Button | None = None

    # --- navigation -------------------------------------------------------------------
    def _goto(self, page: int):
        return partial(self.set_page, page)     # held weakly by its button (no cycle)

    def set_page(self, page: int, at_end: bool = False) -> None:
        self.page = page % len(PAGES)
        self.scroll = self.max_scroll if at_end else 0

    def back(self) -> None:
        if self.app.scenes.top is self:
            self.app.scenes.pop()

    @property
    def max_scroll(self) -> int:
        return max(0, self.content_h[self.page] - self.view.h)

    def scroll_by(self, steps: int) -> None:
        """Scroll a page; past its end (start) go on to the next (previous) page."""
        before = self.scroll
        self.scroll = max(0, min(self.max_scroll, self.scroll + steps * self.scroll_step))
        if self.scroll == before:
            if steps > 0 and self.page < len(PAGES) - 1:
                self.set_page(self.page + 1)
            elif steps < 0 and self.page > 0:
                self.set_page(self.page - 1, at_end=True)

    # --- layout -------------------------------------------------------------------------
    def resize(self, size) -> None:
        super().resize(size)
        s = self.scale = ui_scale(size)
        w, h = size
        self.margin = int(40 * s)
        self.title_px = int(56 * s)
        self.head_px = int(27 * s)
        self.text_px = int(24 * s)
        self.small_px = int(21 * s)
        self.line_h = int(self.text_px * 1.2)
        target = touch_target(size)
        tab_h = max(int(40 * s), target)
        tab_y = int(88 * s)
        tab_w = max(int(170 * s), target)
        gap = int(12 * s)
        x = w // 2 - tab_w - gap // 2
        for tab in self.tabs:                         # in reading order, as is all of the page
            tab.rect = for_reading(pygame.Rect(x, tab_y, tab_w, tab_h), 0, w)
            x += tab_w + gap
        bh = max(int(46 * s), target)
        self.back_button.rect = pygame.Rect(0, 0, max(int(160 * s), target), bh)
        self.back_button.rect.bottomright = (w - self.margin, h - int(16 * s))
        self.back_button.rect = for_reading(self.back_button.rect, 0, w)
        self.footer_anchor = mirrored("midleft") if right_to_left() else "midleft"
        self.footer_pos = (w - self.margin if right_to_left() else self.margin, self.back_button.rect.centery)
        top = tab_y + tab_h + int(18 * s)
        bottom = self.back_button.rect.y - int(14 * s)
        self.panel_rect = pygame.Rect(self.margin, top, w - 2 * self.margin, bottom - top)
        pad = int(22 * s)
        inner = self.panel_rect.inflate(-2 * pad, -2 * pad)
        self.panel = rounded_panel(self.panel_rect.size, (10, 34, 24, 200), radius=int(16 * s))
        # Rules page: text on the left, the diagram on the right.
        diagram_w = int(inner.w * 0.40)
        self.rules_view = pygame.Rect(inner.x, inner.y, inner.w - diagram_w - pad, inner.h)
        self.diagram_rect = pygame.Rect(self.rules_view.right + pad, inner.y, diagram_w, inner.h)
        self.rules_view = for_reading(self.rules_view, inner.left, inner.right)       # text on the right,
        self.diagram_rect = for_reading(self.diagram_rect, inner.left, inner.right)   # the diagram left
        self.controls_view = inner.copy()
        self.scroll_step = self.line_h * 3
        fade_h = int(self.line_h * 1.3)
        self.fades = {}
        for page, view in enumerate((self.rules_view, self.controls_view)):
            bottom = pygame.Surface((max(1, view.w - int(12 * s)), fade_h), pygame.SRCALPHA)
            for y in range(fade_h):
                a = int(235 * (y / max(1, fade_h - 1)) ** 1.4)
                pygame.draw.line(bottom, (11, 38, 26, a), (0, y), (bottom.get_width(), y))
            self.fades[page] = (bottom, pygame.transform.flip(bottom, False, True))
        self._build_pages()
        self.scroll = min(self.scroll, self.max_scroll)

    @property
    def view(self) -> pygame.Rect:
        return self.rules_view if self.page == 0 else self.controls_view

    def _build_pages(self) -> None:
        """Render each page's scrolling content once per size."""
        s = self.scale
        # Rules: headings and wrapped paragraphs.
        width = self.rules_view.w - int(14 * s)   # room for the scroll bar
        items: list[tuple[str, int, tuple, int]] = []   # text, px, colour, y
        y = 0
        for heading, para in self.help.rules:
            items.append((_(heading), self.head_px, GOLD, y))
            y += int(self.head_px * 1.25)
            for line in wrap_text(_(para), self.text_px, width):
                items.append((line, self.text_px, INK, y))
                y += self.line_h
            y += int(self.line_h * 0.45)
        rules_h = y - int(self.line_h * 0.45)
        self.rules_lines = items
        self.rules_surface = self._render_items(items, (self.rules_view.w, max(1, rules_h)))
        # Controls: a table, then the game's own notes.
        self.controls_surface, controls_h = self._render_controls()
        self.content_h = [rules_h, controls_h]
        # The diagram and its caption, fixed on the right.
        self.diagram_surface = self._render_diagram()

    def _render_items(self, items, size) -> pygame.Surface:
        surf = pygame.Surface(size, pygame.SRCALPHA)
        for text, px, color, y in items:
            line = FONTS.text(text, px, color)
            # right to left: lines start at the right edge (the scroll bar on the left)
            surf.blit(line, (self._line_x(line.get_width(), size[0]), y))
        return surf

    @staticmethod
    def _line_x(line_w: int, width: int) -> int:
        """Where a line starts in a view ``width`` wide: at its reading edge."""
        return width - line_w if right_to_left() else 0

    def _render_controls(self) -> tuple[pygame.Surface, int]:
        s = self.scale
        view = self.controls_view
        width = view.w - int(14 * s)
        rows = controls_for(self.game_id)
        header = ("", _("Mouse, touch"), _("Keyboard"), _("Gamepad"))
        px = self.small_px
        font = FONTS.font(px)
        cell_pad = int(14 * s)
        # Column widths: the action column as wide as it needs (at most 30 %),
        # the rest shared in proportion to what each needs.
        need = [max(font.size(r[i])[0] for r in rows + [header]) + cell_pad for i in range(4)]
        first = min(need[0], int(width * 0.30))
        rest = width - first
        share = sum(need[1:]) or 1
        cols = [first] + [max(int(rest * 0.2), int(rest * n / share)) for n in need[1:]]
        over = sum(cols) - width
        if over > 0:
            widest = cols.index(max(cols[1:]), 1)
            cols[widest] -= over
        self.table_columns = cols
        wrapped_rows = []
        for row in [header] + rows:
            cells = [wrap_text(text, px, c - cell_pad) if text else [""] for text, c in zip(row, cols)]
            wrapped_rows.append(cells)
        row_gap = int(px * 0.42)
        line_h = int(px * 1.2)
        heights = [max(len(c) for c in cells) * line_h + row_gap for cells in wrapped_rows]
        notes = [line for note in self.help.notes for line in wrap_text(_(note), self.text_px, width)]
        notes_top = sum(heights) + int(self.line_h * 0.9)
        notes_h = int(self.head_px * 1.3) + len(notes) * self.line_h if notes else 0
        total = notes_top + notes_h
        surf = pygame.Surface((view.w, max(1, total)), pygame.SRCALPHA)
        y = 0
        self.controls_lines: list[tuple[str, pygame.Rect]] = []
        # Right to left: the columns from the right (the scroll bar on the left), each
        # cell's lines at its right edge.
        left = view.w - width if right_to_left() else 0
        for k, (cells, rh) in enumerate(zip(wrapped_rows, heights)):
            if k % 2 == 1:
                pygame.draw.rect(surf, (255, 255, 255, 14), (left, y - row_gap // 2, width, rh))
            x = 0
            for c, (lines, cw) in enumerate(zip(cells, cols)):
                color = GOLD if k == 0 else INK if c == 0 else INK_DIM
                cell = for_reading(pygame.Rect(left + x, y, cw, rh), left, left + width)
                for i, line in enumerate(lines):
                    if line:
                        img = FONTS.text(line, px, color)
                        place = img.get_rect(topleft=(cell.x + cell_pad // 2, y + i * line_h))
                        if right_to_left():
                            place.right = cell.right - cell_pad // 2
                        surf.blit(img, place)
                        self.controls_lines.append((line, place))
                x += cw
            y += rh
            if k == 0:
                pygame.draw.line(surf, (255, 255, 255, 60), (left, y - row_gap // 2),
                                 (left + width, y - row_gap // 2), max(1, int(s)))
        if notes:
            y = notes_top
            head = FONTS.text(_("In {game}").format(game=self.game.title), self.head_px, GOLD, bold=True)
            surf.blit(head, (self._line_x(head.get_width(), view.w), y))
            y += int(self.head_px * 1.3)
            for line in notes:
                img = FONTS.text(line, self.text_px, INK)
                place = img.get_rect(topleft=(self._line_x(img.get_width(), view.w), y))
                surf.blit(img, place)
                self.controls_lines.append((line, place))
                y += self.line_h
        return surf, total

    def _render_diagram(self) -> pygame.Surface:
        rect = self.diagram_rect
        surf = pygame.Surface(rect.size, pygame.SRCALPHA)
        caption = wrap_text(_(self.help.caption), self.small_px, rect.w)
        cap_line = int(self.small_px * 1.2)
        cap_h = len(caption) * cap_line + int(12 * self.scale)
        area = pygame.Rect(0, 0, rect.w, rect.h - cap_h)
        self.caption_lines = caption
        self.help.diagram(surf, area, self.scale)
        y = area.bottom + int(8 * self.scale)
        for line in caption:
            draw_text(surf, line, self.small_px, (rect.w // 2, y), INK_DIM, anchor="midtop")
            y += cap_line
        return surf

    # --- input --------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        a = event.action
        if a == Action.BACK:
            self.back()
        elif a in (Action.LEFT, Action.RIGHT):         # the tabs as they are laid out
            self.set_page(self.page + (1 if (a == Action.RIGHT) != right_to_left() else -1))
        elif a == Action.UP:
            self.scroll_by(-1)
        elif a == Action.DOWN:
            self.scroll_by(1)
        elif a == Action.CYCLE:
            if event.amount:
                self.scroll_by(event.amount)      # the wheel
            else:
                self.set_page(self.page + 1)      # Tab, right shoulder
        elif a == Action.SELECT:
            if self.page < len(PAGES) - 1:
                self.set_page(self.page + 1)
            else:
                self.back()
        elif a == Action.PAUSE:
            self.back()
        elif a == Action.POINTER_DOWN and event.button == 1:
            self._pressed_tab = next((t for t in self.tabs if t.contains(event.pos)), None)
            self.finger.press(event)
            if self._pressed_tab is None:
                self.focus.handle(event)
        elif a == Action.POINTER_MOVE:
            line = max(1, self.scroll_step // 3)        # the page follows the finger, a line at a time
            steps = self.finger.move(event, line)
            if steps:
                self.scroll = max(0, min(self.max_scroll, self.scroll + steps * line))
        elif a == Action.POINTER_UP and event.button == 1:
            tab, self._pressed_tab = self._pressed_tab, None
            if self.finger.release():
                return                  # the page was drawn along: no tap
            if tab is not None and tab.contains(event.pos):
                tab.action()
            else:
                self.focus.handle(event)
        elif a == Action.POINTER_DOWN and event.button == 3:
            self.back()

    # --- drawing ------------------------------------------------------------------------
    def visible_text_rects(self) -> list[pygame.Rect]:
        """Screen areas of every line of text drawn now (tests: all on screen)."""
        out = [self._title_rect(), self._footer_rect()]
        out += [t.rect for t in self.tabs] + [self.back_button.rect]
        view = self.view
        if self.page == 0:
            for text, px, _, y in self.rules_lines:
                r = FONTS.text(text, px, INK).get_rect(topleft=(view.x, view.y + y - self.scroll))
                r.x += self._line_x(r.w, view.w)
                if r.colliderect(view):
                    out.append(r)
            out.append(self.diagram_rect)
        else:
            for _, r in self.controls_lines:
                r = r.move(view.x, view.y - self.scroll)
                if r.colliderect(view):
                    out.append(r)
        return out

    def _title_rect(self) -> pygame.Rect:
        img = FONTS.text(self._title(), self.title_px, GOLD, bold=True)
        return img.get_rect(center=(self.size[0] // 2, int(46 * self.scale)))

    def _title(self) -> str:
        return _("How to play: {game}").format(game=self.game.title)

    def _footer_rect(self) -> pygame.Rect:
        img = FONTS.text(_(HELP_FOOTER), self.small_px, INK_DIM)
        return img.get_rect(**{self.footer_anchor: self.footer_pos})

    def draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        w, h = self.size
        surface.blit(felt(self.size), (0, 0))
        draw_text(surface, self._title(), self.title_px, self._title_rect().center,
                  GOLD, anchor="center", shadow=True)
        for k, tab in enumerate(self.tabs):
            tab.hot = k == self.page
            color = BUTTON if k != self.page else (70, 124, 92)
            radius = max(4, int(10 * s))
            pygame.draw.rect(surface, color, tab.rect, border_radius=radius)
            edge = FOCUS if k == self.page else (255, 255, 255, 60)
            pygame.draw.rect(surface, edge, tab.rect, width=max(1, int(2 * s)), border_radius=radius)
            draw_text(surface, tab.label, tab.rect.h * 0.55, tab.rect.center,
                      INK if k == self.page else INK_DIM, anchor="center")
        surface.blit(self.panel, self.panel_rect)
        view = self.view
        content = self.rules_surface if self.page == 0 else self.controls_surface
        area = pygame.Rect(0, self.scroll, view.w, view.h)
        surface.blit(content, view.topleft, area)
        if self.page == 0:
            surface.blit(self.diagram_surface, self.diagram_rect)
        self._draw_scrollbar(surface, view)
        draw_text(surface, _(HELP_FOOTER), self.small_px, self.footer_pos, INK_DIM, anchor=self.footer_anchor)
        self.focus.draw(surface, s)

    def _draw_scrollbar(self, surface: pygame.Surface, view: pygame.Rect) -> None:
        total = self.content_h[self.page]
        if total <= view.h:
            return
        s = self.scale
        bar_w = max(3, int(6 * s))
        track = for_reading(pygame.Rect(view.right - bar_w, view.y, bar_w, view.h), view.left, view.right)
        bar = pygame.Surface(track.size, pygame.SRCALPHA)
        pygame.draw.rect(bar, (255, 255, 255, 36), bar.get_rect(), border_radius=bar_w // 2)
        thumb_h = max(int(30 * s), int(view.h * view.h / total))
        thumb_y = int((view.h - thumb_h) * self.scroll / max(1, self.max_scroll))
        pygame.draw.rect(bar, (*GOLD, 220), (0, thumb_y, bar_w, thumb_h), border_radius=bar_w // 2)
        surface.blit(bar, track)
        # Soft fades where the text goes on beyond the view.
        fade_bottom, fade_top = self.fades[self.page]
        x = view.right - fade_bottom.get_width() if right_to_left() else view.x
        if self.scroll < self.max_scroll:
            surface.blit(fade_bottom, (x, view.bottom - fade_bottom.get_height()))
        if self.scroll > 0:
            surface.blit(fade_top, (x, view.y))


__all__ = ["HelpScene", "COMMON_CONTROLS", "PAGES", "controls_for"]
