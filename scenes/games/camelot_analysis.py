"""Analysis while playing Camelot: the hint with the expected reply, and the
evaluation bar (a setting, off by default).

:class:`BoardAnalysis` is a part of the board screen at this computer. Hint
asks the engine (``scenes.work.analysis``, a shallow search in a worker
process, never on the frame loop) for the best move; the answer is drawn on the
table as the hint's path, with the reply the search expects after it drawn in
the computer's colour, and said in a toast. With the setting on, every position
the game reaches is analysed and the bar beside the board shows who stands
better.
"""
from __future__ import annotations

from game.camelot.board import CamelotBoard
from game.errors import RoundTableError

from ..table.board_analysis import line_words
from ..work.analysis import Analyst
from ..store.words import _

HINT_SHOWN = 6.0           # s a hint (and its reply) stays on the board


class BoardAnalysis:
    """The hint and the evaluation bar of one board ``table``."""

    def __init__(self, app, table) -> None:
        self.app, self.table = app, table
        self.analyst: Analyst | None = None
        self.hint_for: str | None = None      # the position a hint was asked in

    def _analyst(self) -> Analyst:
        if self.analyst is None:
            self.analyst = Analyst()
        return self.analyst

    def ask_hint(self, position: str) -> None:
        self.hint_for = position
        self._analyst().ask(position)
        self.app.toast(_("Looking for a good move…"), 1.2)

    def poll(self, position: str | None, bar_wanted: bool) -> None:
        """Every frame: ask for the bar's position when ``bar_wanted``; take an
        answer for ``position`` (the position shown) when it is in."""
        if bar_wanted:
            self._analyst().ask(position)
        if self.analyst is None:
            return
        answer = self.analyst.poll()
        if answer is None or self.analyst.position != position:
            return
        self.table.analysis = answer
        if self.hint_for == position:
            self.hint_for = None
            self._show_hint(answer)

    def _show_hint(self, answer: dict) -> None:
        table, game = self.table, self.table.game
        if not answer.get("move") or not table.interactive:
            return
        try:
            move = game.parse_move(answer["move"])
        except RoundTableError:
            return
        reply = None
        pv = answer.get("pv") or []
        if len(pv) > 1:
            try:       # the reply on a copy of the position (microseconds)
                after = CamelotBoard(game.position_text())
                after.play(move)
                expected = after.parse_move(pv[1])
                reply = (expected.path, frozenset(expected.captured))
            except RoundTableError:
                pass
        self.app.toast(line_words(answer, hint=True), HINT_SHOWN)
        table.show_hint(move, HINT_SHOWN, reply)

    def forget(self) -> None:
        if self.analyst is not None:
            self.analyst.forget()


__all__ = ["BoardAnalysis", "HINT_SHOWN"]
