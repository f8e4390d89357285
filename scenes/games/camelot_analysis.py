"""Analysis while playing Camelot: the hint with the expected reply, and the
evaluation bar (a setting, off by default).

:class:`BoardAnalysis` is a mixin for the board scene, before ``ComputerTurns``
in its bases. Hint asks the engine (``scenes.work.analysis``, a shallow search
in a worker process, never on the frame loop) for the best move; the answer is
drawn as the hint's path, with the reply the search expects after it drawn in
the computer's colour, and said in a toast. With the setting on, every
position the game reaches is analysed and the bar beside the board shows who
stands better.
"""
from __future__ import annotations

from game.base import Status
from game.camelot.board import CamelotBoard
from game.errors import RoundTableError

from ..table.board_analysis import bar_item, line_words
from ..table.board_view import PATH_COMPUTER
from ..work.analysis import Analyst

HINT_SHOWN = 6.0           # s a hint (and its reply) stays on the board


class BoardAnalysis:
    """The board scene's hint and evaluation bar (a mixin)."""

    analyst: Analyst | None = None
    _hint_for: str | None = None          # the position a hint was asked in
    hint_reply = None                     # (path, captured) of the expected reply
    analysis = None                       # the latest answer for the position shown

    def _analyst(self) -> Analyst:
        if self.analyst is None:
            self.analyst = Analyst()
        return self.analyst

    @property
    def eval_bar_on(self) -> bool:
        # at this screen only: no engine beside a game against someone online
        return bool(getattr(self.app.settings, "eval_bar", False)) and \
            self.mode in ("computer", "two", "demo")

    def hint(self) -> None:
        if not self.interactive:
            self.app.toast("Wait for your turn" if self.game.status is Status.PLAYING
                           else "The game is over")
            return
        self.assisted = True              # a game won after a hint is kept as won with help
        self._hint_for = self._position()
        self._analyst().ask(self._hint_for)
        self.app.toast("Looking for a good move…", 1.2)

    def update(self, dt: float) -> None:
        super().update(dt)
        self._poll_analysis()

    def _poll_analysis(self) -> None:
        position = self._position() if self.mode is not None else None
        # Not while the computer thinks: the two searches would share the cores and
        # the computer would play weaker in its time. The bar keeps the last answer.
        if self.eval_bar_on and not self.busy and self.game.status is Status.PLAYING \
                and not self.computer_to_move:
            self._analyst().ask(position)
        if self.analyst is None:
            return
        answer = self.analyst.poll()
        if answer is None or self.analyst.position != position:
            return
        self.analysis = answer
        if self._hint_for == position:
            self._hint_for = None
            self._show_analysis_hint(answer)

    def _show_analysis_hint(self, answer: dict) -> None:
        if not answer.get("move") or not self.interactive:
            return
        try:
            move = self.game.parse_move(answer["move"])
        except RoundTableError:
            return
        self.hint_move, self.hint_time = move, HINT_SHOWN
        self.hint_reply = None
        pv = answer.get("pv") or []
        if len(pv) > 1:
            try:       # the reply on a copy of the position (microseconds)
                after = CamelotBoard(self.game.position_text())
                after.play(move)
                reply = after.parse_move(pv[1])
                self.hint_reply = (move, reply.path, frozenset(reply.captured))
            except RoundTableError:
                pass
        self.app.toast(line_words(answer).replace("Best", "Hint:", 1)
                       .replace(", then", ", expected reply", 1), HINT_SHOWN)
        self.show_hint(move)

    def _compute_items(self) -> list[tuple]:
        items = super()._compute_items()
        reply = self.hint_reply
        if reply is not None and (self.hint_move is None or reply[0] != self.hint_move):
            reply = self.hint_reply = None
        if reply is not None and self.interactive and self.selected is None:
            self._add_path(items.append, reply[1], reply[2], PATH_COMPUTER, show_captures=False)
        if self.eval_bar_on:
            bar = bar_item(self.analysis)
            if bar is not None:
                items.append(bar)
        items.sort(key=lambda k: k[0])
        return items
