"""The statistics screen: one game at a time, as pictures and numbers.

Left: the numbers (played, won, win rate, streaks, best score, times). Middle:
bars, won against lost (for the board game: won, lost and drawn per level
against the computer). Right: the win rate over time, a line through the
running win rate of the last results. Left / right (D-pad, the arrow buttons)
changes game; Escape / B or Back closes.
"""
from __future__ import annotations

from functools import partial

import pygame

from ..core.actions import Action, InputEvent
from ..core.overlays import FocusButtons
from ..core.scene import Scene
from ..core.touch import FingerScroll
from ..core.ui import (GOLD, ILLEGAL, INK, INK_DIM, LEGAL, Button, draw_text, felt, layout_row,
                       layout_rows, mirrored, for_reading, FONTS, text_scale, rounded_panel, touch_target, ui_scale)
from ..games import GAMES, GameDescriptor, playable_games
from ..store.stats import RESULTS, GameStats
from ..store.terms import LEVELS, RESULTS as RESULT_WORDS, term
from ..store.words import N_, _, ngettext, right_to_left

RECORD_PX = 26          # the record's words, at 100 % (the player's text size grows them)
DRAWN = (150, 170, 200)
LINE = (120, 190, 255)
GRID = (255, 255, 255, 40)


def format_time(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def result_bars(g: GameStats) -> list[tuple[str, int, tuple]]:
    """The won/lost bars: (name, count, colour), adding up to the games played.
    A game won with help (automatic play or hints) has a bar of its own when
    there is one: it is neither a win nor a loss."""
    bars = [(N_("Won"), g.won, LEGAL)]
    if g.assisted:
        bars.append((N_("With help"), g.assisted, DRAWN))
    return bars + [(N_("Lost"), g.lost, ILLEGAL)]


def fitting(px: float, texts: list[str], width: int) -> float:
    """``px`` (which the player's text size grows), or less as far as the
    widest of ``texts`` must shrink to fit ``width``."""
    while px > 6 and max(FONTS.font(px).size(text)[0] for text in texts) > width:
        px *= 0.94
    return px


class StatsScene(Scene):
    still_until_input = True

    def __init__(self, app, game_id: str | None = None) -> None:
        super().__init__(app)
        self.games = playable_games()
        self.index = self.games.index(game_id) if game_id in self.games else 0
        self.prev_button = Button(N_("< Previous game"), partial(self.switch, -1))
        self.back_button = Button(N_("Back"), self.back)
        self.next_button = Button(N_("Next game >"), partial(self.switch, 1))
        self.focus = FocusButtons([self.prev_button, self.back_button, self.next_button])
        self.focus.focus = 1
        self._page: pygame.Surface | None = None
        self.record_first = self.record_more = 0     # the record's first row shown; rows below the last shown
        self.finger = FingerScroll()

    @property
    def game_id(self) -> str:
        return self.games[self.index]

    @property
    def game(self) -> GameDescriptor:
        return GAMES[self.game_id]

    def switch(self, step: int) -> None:
        self.index = (self.index + step) % len(self.games)
        self._page, self.record_first = None, 0

    def back(self) -> None:
        self.app.scenes.pop()

    # --- input ------------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        a = event.action
        if a in (Action.BACK, Action.PAUSE):
            self.back()
        elif a in (Action.LEFT, Action.RIGHT):
            self.switch(1 if (a == Action.RIGHT) != right_to_left() else -1)    # as the dots run
        elif a in (Action.UP, Action.DOWN):
            self.scroll_record(1 if a == Action.DOWN else -1)
        elif a == Action.CYCLE and event.amount:
            self.scroll_record(event.amount)          # the wheel
        elif a == Action.POINTER_DOWN and event.button == 1:
            self.finger.press(event)
            self.focus.handle(event)
        elif a == Action.POINTER_MOVE:
            self.scroll_record(-self.finger.move(event, int(30 * self.scale)))   # the rows follow the finger
            self.focus.handle(event)
        elif a == Action.POINTER_UP and event.button == 1 and self.finger.release():
            return                                    # the record was drawn along: no tap
        else:
            self.focus.handle(event)

    # --- layout -----------------------------------------------------------------
    def resize(self, size) -> None:
        super().resize(size)
        s = self.scale = ui_scale(size)
        w, h = size
        target = touch_target(size)
        self.footer_px = 20 * s
        if target:        # touch: buttons a finger can hit, where the keys' footer was
            layout_rows(self.focus.buttons, w // 2, h - target - int(14 * s), target, int(20 * s), 3)
            self.footer_top = h
        else:
            # The keys' footer at the bottom, the buttons over it, each as tall as the text needs.
            self.footer_top = h - int(8 * s) - FONTS.font(self.footer_px).get_linesize()
            layout_row(self.focus.buttons, (w // 2, h // 2), int(48 * s), int(20 * s), int(24 * s))
            rise = max(b.rect.bottom for b in self.focus.buttons) - (self.footer_top - int(8 * s))
            for button in self.focus.buttons:
                button.rect.move_ip(0, -rise)
        self._page = None

    # --- drawing ----------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if self._page is None or self._page.get_size() != self.size:
            self._page = self._render_page()
        surface.blit(self._page, (0, 0))
        self.focus.draw(surface, self.scale)

    def _render_page(self) -> pygame.Surface:
        s = self.scale
        w, h = self.size
        page = felt(self.size).copy()
        stats = self.app.stats.game(self.game_id)
        # The titles and the dots, one under another as tall as the text size makes them.
        # (The titles, large already, grow a quarter at most: the room is the panels'.)
        k = text_scale()
        y = draw_text(page, _("Statistics"), 64 * s * min(k, 1.25) / k, (w // 2, int(14 * s)), GOLD,
                      anchor="midtop", shadow=True).bottom
        y = draw_text(page, self.game.title, 40 * s * min(k, 1.25) / k, (w // 2, y), INK, anchor="midtop").bottom
        # Dots: which of the games this is.
        r = max(3, int(5 * s))
        x0 = w // 2 - (len(self.games) - 1) * 3 * r
        for k in range(len(self.games)):
            x = w - x0 - k * 6 * r if right_to_left() else x0 + k * 6 * r
            pygame.draw.circle(page, GOLD if k == self.index else INK_DIM, (x, y + int(4 * s) + r),
                               r if k == self.index else max(2, r - 2))
        top = y + 2 * r + int(14 * s)
        bottom = min(b.rect.top for b in self.focus.buttons) - int(12 * s)
        margin, gap = int(40 * s), int(20 * s)
        inner = w - 2 * margin - 2 * gap
        # The record as wide as its words at the player's text size need (up to 45 %), the rest shared.
        rows = self._record_rows(stats)
        need = (max(FONTS.font(RECORD_PX * s).size(_(label))[0] for label, _v in rows)
                + max(FONTS.font(RECORD_PX * s).size(value)[0] for _l, value in rows) + int(60 * s))
        record_w = min(max(int(inner * 0.28), need), int(inner * 0.45))
        rest = inner - record_w
        widths = (record_w, rest * 27 // 72, rest - rest * 27 // 72)
        x = margin
        rects = []
        for width in widths:
            rects.append(for_reading(pygame.Rect(x, top, width, bottom - top), margin, w - margin))
            x += width + gap
        self.panel_rects = rects          # the balance, the bars, the line: in reading order
        for rect in rects:
            page.blit(rounded_panel(rect.size, (12, 40, 28, 215), radius=int(16 * s)), rect)
        self._draw_numbers(page, rects[0], rows)
        if self.game.levels:
            self._draw_level_bars(page, rects[1], stats)
        else:
            self._draw_bars(page, rects[1], stats)
        self._draw_line(page, rects[2], stats)
        if not touch_target(self.size):
            footer = _("Left / right to change game · Escape or B to go back")
            draw_text(page, footer, fitting(self.footer_px, [footer], w - int(40 * s)), (w // 2, self.footer_top),
                      INK_DIM, anchor="midtop")
        return page

    def _heading(self, surface, rect: pygame.Rect, text: str) -> int:
        """A panel's heading, as large as the text size makes it and the panel holds; where below it to go on."""
        s = self.scale
        px = fitting(28 * s, [_(text)], rect.w - int(24 * s))
        return draw_text(surface, _(text), px, (rect.centerx, rect.y + int(12 * s)), GOLD,
                         anchor="midtop").bottom + int(10 * s)

    def _record_rows(self, g: GameStats) -> list[tuple[str, str]]:
        """The record's rows: (label, number)."""
        rows = [(N_("Played"), str(g.played)), (N_("Won"), str(g.won))]
        if g.assisted:
            rows.append((N_("Won with help"), str(g.assisted)))   # automatic play or hints
        rows.append((N_("Lost"), str(g.lost)))
        if g.abandoned:
            rows.append((N_("of them left unfinished"), str(g.abandoned)))   # a new deal mid-game …
        rows += [(N_("Win rate"), f"{g.win_rate:.0%}" if g.played else "—"),
                 (N_("Current streak"), str(g.current_streak)), (N_("Best streak"), str(g.best_streak))]
        if self.game.has_deals:
            rows.append((N_("Best score"), "—" if g.best_score is None else str(g.best_score)))
        return rows + [(N_("Fastest win"), format_time(g.best_time)),
                       (N_("Average time"), format_time(g.average_time))]

    def _draw_numbers(self, surface, rect: pygame.Rect, rows: list[tuple[str, str]]) -> None:
        """The record, a row a line at the player's text size; the rows that do
        not fit scroll (up / down, the wheel, a finger), arrows saying where more are."""
        s = self.scale
        y = self._heading(surface, rect, N_("Record"))
        px = RECORD_PX * s
        label_w = max(FONTS.font(px).size(_(label))[0] for label, _v in rows)
        value_w = max(FONTS.font(px).size(value)[0] for _l, value in rows)
        room = rect.w - int(60 * s)
        if label_w + value_w > room:       # wider than the widest record panel: smaller words
            px *= room / (label_w + value_w)
        line = FONTS.font(px).get_linesize()
        step = min(int(44 * s * text_scale()), max(line + int(4 * s), (rect.bottom - y - int(16 * s)) // len(rows)))
        shown = max(1, (rect.bottom - y - int(16 * s)) // step)
        self.record_more = max(0, len(rows) - shown)
        self.record_first = min(self.record_first, self.record_more)
        start, end = (rect.x + int(24 * s), rect.right - int(24 * s))[::-1 if right_to_left() else 1]
        top = y
        for label, value in rows[self.record_first:self.record_first + shown]:
            # the label where a line starts, the number where it ends
            draw_text(surface, _(label), px, (start, y + step // 2), INK_DIM,
                      anchor=mirrored("midleft") if right_to_left() else "midleft")
            draw_text(surface, value, px, (end, y + step // 2), INK,
                      anchor=mirrored("midright") if right_to_left() else "midright")
            y += step
        arrow = max(4, int(7 * s))
        cx = rect.centerx
        if self.record_first > 0:              # more above
            pygame.draw.polygon(surface, GOLD, [(cx - arrow, top), (cx + arrow, top), (cx, top - arrow)])
        if self.record_first < self.record_more:   # more below
            b = rect.bottom - int(8 * s)
            pygame.draw.polygon(surface, GOLD, [(cx - arrow, b - arrow), (cx + arrow, b - arrow), (cx, b)])

    def scroll_record(self, steps: int) -> None:
        first = max(0, min(self.record_more, self.record_first + steps))
        if first != self.record_first:
            self.record_first, self._page = first, None

    def _bar_group(self, surface, area: pygame.Rect, bars: list[tuple[str, int, tuple]], most: int,
                   label_px: float) -> None:
        """Vertical bars side by side in ``area``, each with its count above and name below."""
        s = self.scale
        n = len(bars)
        slot = area.w / n
        bar_w = int(slot * 0.62)
        label_px = fitting(label_px, [_(name) for name, _c, _k in bars], int(slot * 0.96))
        line = FONTS.font(label_px).get_linesize()
        base = area.bottom - line - int(6 * s)
        room = base - area.y - line - int(4 * s)
        for k, (name, count, color) in enumerate(bars):
            cx = int(area.x + slot * (k + 0.5))
            height = int(room * count / most) if most else 0
            bar = pygame.Rect(cx - bar_w // 2, base - height, bar_w, height)
            if height:
                pygame.draw.rect(surface, color, bar, border_top_left_radius=int(6 * s),
                                 border_top_right_radius=int(6 * s))
            draw_text(surface, str(count), label_px, (cx, base - height - int(4 * s)), INK,
                      anchor="midbottom")
            draw_text(surface, _(name), label_px, (cx, base + int(6 * s)), INK_DIM, anchor="midtop")
        pygame.draw.line(surface, INK_DIM, (area.x, base), (area.right, base), max(1, int(2 * s)))

    def _draw_bars(self, surface, rect: pygame.Rect, g: GameStats) -> None:
        s = self.scale
        y = self._heading(surface, rect, N_("Won and lost"))
        area = pygame.Rect(rect.x + int(28 * s), y + int(10 * s), rect.w - int(56 * s),
                           rect.bottom - y - int(30 * s))
        bars = result_bars(g)
        self._bar_group(surface, area, bars, max(count for _, count, _ in bars),
                        (24 if len(bars) == 2 else 20) * s)

    def _draw_level_bars(self, surface, rect: pygame.Rect, g: GameStats) -> None:
        """Against the computer: won / lost / drawn for each level."""
        levels = self.game.levels
        s = self.scale
        y = self._heading(surface, rect, N_("Against the computer"))
        colors = {"won": LEGAL, "lost": ILLEGAL, "drawn": DRAWN}
        # The key: what each colour means.
        kx = rect.x + int(24 * s)
        key_words = [term(RESULT_WORDS, result) for result in RESULTS]
        key_px = fitting(18 * s, [" ".join(key_words)], rect.w - int(48 * s) - len(RESULTS) * int(30 * s))
        for result, words in zip(RESULTS, key_words):
            pygame.draw.rect(surface, colors[result], (kx, y, int(14 * s), int(14 * s)))
            kx = draw_text(surface, words, key_px, (kx + int(20 * s), y + int(7 * s)), INK_DIM,
                           anchor="midleft").right + int(16 * s)
        y += max(int(26 * s), FONTS.font(key_px).get_linesize() + int(6 * s))
        counts = {lv: g.levels.get(lv, {}) for lv in levels}
        most = max([c.get(r, 0) for c in counts.values() for r in RESULTS] + [0])
        group_h = (rect.bottom - y - int(16 * s)) // len(levels)
        level_px = fitting(min(22 * s, 22 * s * group_h / (3 * 22 * s * text_scale())),
                           [term(LEVELS, lv) for lv in levels], int(rect.w * 0.4))
        name_w = max(FONTS.font(level_px).size(term(LEVELS, lv))[0] for lv in levels)
        for k, lv in enumerate(levels):
            top = y + k * group_h
            draw_text(surface, term(LEVELS, lv), level_px, (rect.x + int(24 * s), top + group_h // 2), INK,
                      anchor="midleft")
            left = rect.x + int(32 * s) + name_w
            area = pygame.Rect(left, top + int(8 * s), rect.right - int(20 * s) - left, group_h - int(20 * s))
            bar_h = max(4, (area.h - int(8 * s)) // 3)
            for j, result in enumerate(RESULTS):
                n = counts[lv].get(result, 0)
                length = int((area.w - int(40 * s)) * n / most) if most else 0
                bar = pygame.Rect(area.x, area.y + j * (bar_h + int(4 * s)), length, bar_h)
                if length:
                    pygame.draw.rect(surface, colors[result], bar, border_top_right_radius=int(4 * s),
                                     border_bottom_right_radius=int(4 * s))
                draw_text(surface, str(n), min(20 * s, bar_h * 0.9 / text_scale()), (bar.right + int(6 * s), bar.centery),
                          INK, anchor="midleft")
            pygame.draw.line(surface, INK_DIM, (area.x, area.y), (area.x, area.y + 3 * (bar_h + int(4 * s))),
                             max(1, int(2 * s)))

    def _draw_line(self, surface, rect: pygame.Rect, g: GameStats) -> None:
        s = self.scale
        rates = g.running_win_rate()
        y = self._heading(surface, rect, ngettext("Win rate over the last {n} game",
                                                  "Win rate over the last {n} games", len(rates)).format(n=len(rates))
                          if len(rates) > 1 else N_("Win rate over time"))
        px = min(18 * s, 18 * s * rect.h / (300 * s * text_scale()))      # the axis's words
        label_w = FONTS.font(px).size("100%")[0] + int(8 * s)
        line = FONTS.font(px).get_linesize()
        area = pygame.Rect(rect.x + int(20 * s) + label_w, y + line // 2,
                           rect.w - int(44 * s) - label_w, rect.bottom - y - line // 2 - line - int(20 * s))
        grid = pygame.Surface(rect.size, pygame.SRCALPHA)
        for frac in (0, 0.25, 0.5, 0.75, 1):
            gy = area.bottom - int(area.h * frac)
            pygame.draw.line(grid, GRID, (area.x - rect.x, gy - rect.y), (area.right - rect.x, gy - rect.y),
                             max(1, int(s)))
            draw_text(surface, f"{frac:.0%}", px, (area.x - int(8 * s), gy), INK_DIM, anchor="midright")
        surface.blit(grid, rect)
        if not rates:
            none = _("No games played yet")
            draw_text(surface, none, fitting(26 * s, [none], area.w), area.center, INK_DIM, anchor="center")
            return
        n = len(rates)
        points = [(area.x + (int(area.w * k / (n - 1)) if n > 1 else area.w // 2),
                   area.bottom - int(area.h * r)) for k, r in enumerate(rates)]
        if n > 1:
            shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            poly = [(x - rect.x, y2 - rect.y) for x, y2 in points]
            poly = [(poly[0][0], area.bottom - rect.y)] + poly + [(poly[-1][0], area.bottom - rect.y)]
            pygame.draw.polygon(shade, (*LINE, 50), poly)
            surface.blit(shade, rect)
            pygame.draw.lines(surface, LINE, False, points, max(2, int(3 * s)))
        # Each result as a dot on the line when there is room: green won, red lost.
        if area.w / max(1, n) >= 6 * s:
            for (x, y2), entry in zip(points, g.history):
                color = LEGAL if entry.get("won") else DRAWN if entry.get("result") == "drawn" or entry.get("assisted") else ILLEGAL
                pygame.draw.circle(surface, color, (x, y2), max(3, int(5 * s)))
        last = points[-1]
        high = rates[-1] > 0.8   # near the top: the label goes under the line
        draw_text(surface, f"{rates[-1]:.0%}", 24 * s,
                  (last[0] - int(8 * s), last[1] + int(10 * s) * (1 if high else -1)), GOLD,
                  anchor="topright" if high else "bottomright", shadow=True)
        draw_text(surface, _("oldest"), px, (area.x, area.bottom + int(8 * s)), INK_DIM, anchor="topleft")
        draw_text(surface, _("latest"), px, (area.right, area.bottom + int(8 * s)), INK_DIM, anchor="topright")


__all__ = ["StatsScene", "format_time", "result_bars"]
