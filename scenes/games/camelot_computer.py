"""The computer's side of the Camelot board scene: asking the work service
for moves, and playing its answers when the board is ready (hints are the
analysis's: :mod:`scenes.games.camelot_analysis`).

:class:`ComputerTurns` is a mixin for
:class:`~scenes.games.camelot_board_scene.CamelotBoardScene`. One search runs at a
time; each answer belongs to the position string it was asked for and is thrown
away once the game has moved on (undo, a new game, the player's own move).
"""
from __future__ import annotations

from game.errors import RoundTableError

from ..table.game_scene import AUTOPLAY_PAUSE

DEMO_LEVEL = "medium"


class ComputerTurns:
    """Asks ``self.worker`` (a work-service Channel for ``camelot-move``) and
    plays its moves (a mixin)."""

    def _position(self) -> str:
        """The position string, computed once per change of the game."""
        key = (self.game, len(self.game.history), self.game.can_redo, self._version)
        cached = getattr(self, "_position_cache", None)
        if cached is None or cached[0] != key:
            cached = self._position_cache = (key, self.game.position_text())
        return cached[1]

    def show_hint(self, move) -> None:
        # The focus goes to the hinted piece, so SELECT (A) picks up what the
        # hint shows; for a pointer player the focus is not drawn.
        self.focus_sq = move.from_square

    def _ask(self, what: str, position: str, level: str, seconds: float | None = None) -> None:
        self._task = (what, position)
        self.worker.ask({"position": position, "level": level, "seed": self.rng.getrandbits(32),
                         "time_limit": seconds})

    def _cancel_ai(self) -> None:
        self.worker.cancel()
        self._task = None
        self._ready = None

    def _poll_ai(self) -> None:
        reply = self.worker.poll()
        if reply is None or self._task is None:
            return
        _, position = self._task
        self._task = None
        if position != self._position():
            return  # an answer for a position that has gone
        move = None
        notation = reply.data.get("move") if reply.ok else None
        if notation:
            try:
                move = self.game.parse_move(notation)
            except RoundTableError:
                move = None
        if move is None:
            moves = self.game.legal_moves()
            if not moves:
                return
            if not reply.ok:
                self.app.toast("The computer player failed; it plays a random move", 2.5)
            move = self.rng.choice(moves)
        self._ready = move

    def _drive_computer(self, dt: float) -> None:
        if not self.computer_to_move:
            if self._task is not None and self._task[0] == "move":
                self._cancel_ai()
            return
        position = self._position()
        if self._ready is None and (self._task is None or self._task[1] != position):
            level = DEMO_LEVEL if self.demo else self.level
            self._ask("move", position, level)
            self._wait = 0.0
        if self._ready is not None and not self.busy and self._waited(dt, AUTOPLAY_PAUSE):
            if self._play_ready() is None:
                self._task = None

    def _waited(self, dt: float, pause: float) -> bool:
        """``pause`` seconds (at normal speed; twice that on a fresh game) have
        passed since the last move: time for the next."""
        self._wait += dt
        pause /= self.app.settings.speed_factor
        return self._wait >= (2 * pause if self._fresh_deal else pause)

    def _play_ready(self):
        """Play the move waiting in ``_ready`` as the computer's; its record or None."""
        move, self._ready = self._ready, None
        self._wait = 0.0
        return self.play(move, by_computer=True)
