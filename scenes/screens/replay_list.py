"""The famous games shipped with the app (``scenes.store.famous``), then the
kept board games, newest first (``scenes.store.records``): choose one to
replay it (:class:`~scenes.screens.replay.ReplayScene`); ``open_replay`` also
opens any record file (``main.py --record FILE``, the game-over dialog)."""
from __future__ import annotations

import threading
from functools import partial
from pathlib import Path

import pygame

from ..core.actions import Action, InputEvent
from ..core.overlays import FocusButtons
from ..core.touch import FingerScroll
from ..core.scene import Scene
from game.errors import IllegalMoveError

from ..core.ui import FONTS, GOLD, INK_DIM, Button, draw_text, felt, fit_text, touch_target, ui_scale
from ..store.famous import list_famous
from ..store.records import KeptRecord, list_records, records_dir
from .replay import ReplayScene, moves_words, read_record, result_words
from ..store.words import N_, _, ngettext


class ReplayListScene(Scene):
    """The famous games, then the kept games (newest first): choose one to replay."""

    ROWS = 9      # at most; fewer when the window is short

    def __init__(self, app) -> None:
        super().__init__(app)
        self.famous, self._problems = list_famous()     # shipped, a few small files
        self.kept: list[KeptRecord] = []
        self.rows = [Button(self._famous_label(f), self._opener(f.record, f.short))
                     for f in self.famous]
        self.labels = [b.label for b in self.rows]     # whole; a row shows what fits
        self.back_button = Button(N_("Back"), self.back)
        self.focus = FocusButtons(self.rows + [self.back_button])
        self.first = 0
        self.finger = FingerScroll()     # a finger drawn up or down scrolls the list
        # The kept games are read in the background (200 records of 1 MB take
        # seconds): the list shows at once, and they join it when read.
        self.reading = True
        self._read: tuple[list[KeptRecord], list[str]] | None = None
        self._reader = threading.Thread(target=self._read_kept, name="records", daemon=True)
        try:
            self._reader.start()
        except RuntimeError:          # no thread to be had: read here, as before
            self._read_kept()

    def _read_kept(self) -> None:
        self._read = list_records()      # one assignment: the frame loop sees all or nothing

    def wait_until_read(self, timeout: float | None = None) -> bool:
        """Wait for the kept games and put them in the list (tests, tools)."""
        if self._reader.is_alive():
            self._reader.join(timeout)
        self.update(0.0)
        return not self.reading

    def update(self, dt: float) -> None:
        if self.reading and self._read is not None:
            self._show_kept(*self._read)

    def _show_kept(self, kept: list[KeptRecord], problems: list[str]) -> None:
        self.reading = False
        self.kept = kept
        for line in (self._problems + problems)[:3]:
            self.app.report(line)
        on_back = self.focus.focus == len(self.rows)
        self.rows += [Button(self._label(k), self._opener(k.record, k.when)) for k in kept]
        self.labels += [b.label for b in self.rows[len(self.labels):]]
        self.focus.buttons = self.rows + [self.back_button]
        self.focus.hover = None
        if on_back:
            self.focus.focus = len(self.rows)
        if hasattr(self, "scale"):
            self._place()

    @staticmethod
    def _label(kept) -> str:
        record = kept.record
        return f"{kept.when}   {record.tag('White', '?')} – {record.tag('Black', '?')}   " \
               f"{result_words(record)}, {moves_words(record.full_moves)}"

    @staticmethod
    def _famous_label(famous) -> str:
        record = famous.record
        # the date and game first, the event last: a long one is what the row cuts
        extent = _("Opening") if famous.is_opening and not record.tag("GameResult") else result_words(record)
        return f"{famous.short}   {famous.players}   {extent}, {moves_words(record.full_moves)}   " \
               f"{record.tag('Event') or '?'}"

    def _opener(self, record, name: str):
        return partial(self._open, record, name)       # held weakly by its button (no cycle)

    def _open(self, record, name: str) -> None:
        try:
            scene = ReplayScene(self.app, record, name)
        except IllegalMoveError as exc:    # a file changed by hand: one line, nothing opened
            self.app.toast(f"{name}: {exc}")
            return
        self.app.scenes.push(scene)

    def back(self) -> None:
        self.app.scenes.pop() if len(self.app.scenes.scenes) > 1 else self.app.navigator.open_menu()

    def resize(self, size) -> None:
        super().resize(size)
        self.scale = ui_scale(size)
        self._place()

    def _place(self) -> None:
        s = self.scale
        w, h = self.size
        width = min(w - int(80 * s), int(900 * s))
        target = touch_target(self.size)
        height, gap = max(int(46 * s), target), int(10 * s)
        top = int(150 * s)
        back_h = max(int(50 * s), target)
        self.back_button.rect = pygame.Rect(w // 2 - int(110 * s), h - int(40 * s) - back_h,
                                            int(220 * s), back_h)
        self.ROWS = max(1, min(ReplayListScene.ROWS,
                               (self.back_button.rect.top - gap - top + gap) // (height + gap)))
        focus = self.focus.focus
        if focus < len(self.rows):
            if focus < self.first:
                self.first = focus
            elif focus >= self.first + self.ROWS:
                self.first = focus - self.ROWS + 1
        font = FONTS.font(int(height * 0.5), bold=True)
        for i, b in enumerate(self.rows):
            shown = self.first <= i < self.first + self.ROWS
            b.rect = pygame.Rect(w // 2 - width // 2, top + (i - self.first) * (height + gap),
                                 width, height) if shown else pygame.Rect(-10, -10, 0, 0)
            b.label = fit_text(self.labels[i], font, width - height)

    def handle(self, event: InputEvent) -> None:
        if event.action == Action.BACK:
            self.back()
            return
        if event.action == Action.CYCLE and event.amount:
            self._scroll(event.amount)
            return
        if event.action == Action.POINTER_DOWN and event.button == 1:
            self.finger.press(event)
        elif event.action == Action.POINTER_MOVE and self.rows:
            steps = self.finger.move(event, self.rows[self.first].rect.h)   # a row a row's height
            if steps:
                self._scroll(steps)
        elif event.action == Action.POINTER_UP and self.finger.release():
            return                                 # the list was drawn along: the lift is no tap
        self.focus.handle(event)
        self._place()

    def still_look(self) -> object:
        return (self.reading, len(self.rows))      # drawn again when the records are read

    def _scroll(self, rows: int) -> None:
        self.first = max(0, min(len(self.rows) - self.ROWS, self.first + rows))
        self._place()

    def draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        w = self.size[0]
        surface.blit(felt(self.size), (0, 0))
        draw_text(surface, _("Replay a game"), 52 * s, (w // 2, int(70 * s)), GOLD, anchor="center",
                  shadow=True)
        if self.reading and not self.rows:
            draw_text(surface, _("Reading your games…"), 26 * s, (w // 2, int(220 * s)), INK_DIM,
                      anchor="center")
        elif not self.rows:
            draw_text(surface, _("No games kept yet: every board game you finish is kept here."),
                      26 * s, (w // 2, int(220 * s)), INK_DIM, anchor="center")
        else:
            draw_text(surface, self._summary(), 22 * s, (w // 2, int(118 * s)), INK_DIM,
                      anchor="center")
        for i, b in enumerate(self.rows):
            if self.first <= i < self.first + self.ROWS:
                b.hot = i == self.focus.focus
                b.draw(surface, s)
                if i < len(self.famous):      # a famous game: a gold mark on its left
                    mark = pygame.Rect(b.rect.x, b.rect.y, max(3, int(8 * s)), b.rect.h)
                    pygame.draw.rect(surface, GOLD, mark.inflate(0, -int(12 * s)),
                                     border_radius=max(1, int(3 * s)))
        self.back_button.hot = self.focus.focus == len(self.rows)
        self.back_button.draw(surface, s)


    def _summary(self) -> str:
        parts = []
        if self.famous:
            parts.append(ngettext("{n} famous game (gold)", "{n} famous games (gold)",
                                  len(self.famous)).format(n=len(self.famous)))
        if self.kept:
            parts.append(_("{n} of yours, newest first").format(n=len(self.kept)))
        if self.reading:
            parts.append(_("reading yours…"))
        more = _(" · wheel or arrows for more") if len(self.rows) > self.ROWS else ""
        return _(", then ").join(parts) + more


def open_replay(app, path=None) -> None:
    """The replay of the record at ``path`` (a line, and nothing opened, for a
    bad file), or the list of kept games."""
    if path is None:
        app.scenes.push(ReplayListScene(app))
        return
    record, problem = read_record(path)
    if record is None:
        app.toast(problem)
        return
    path = Path(path)
    name = KeptRecord(path, record).when if path.parent == records_dir() else path.name
    app.scenes.push(ReplayScene(app, record, name))


__all__ = ["ReplayListScene", "open_replay"]
