"""The computer as a board game player: it asks the work service for its moves
(``camelot-move``, searched in another process, so the frames keep coming) and
hands each to the screen when the board is ready for it.

One search runs at a time; each answer belongs to the position string it was
asked for and is thrown away once the game has moved on (undo, a new game, the
player's own move). One :class:`ComputerPlayer` may play both sides (the demo,
automatic play): it asks for whichever side is to move.
"""
from __future__ import annotations

from game.errors import RoundTableError

from ..store.terms import LEVELS, term
from ..table.game_scene import AUTOPLAY_PAUSE
from ..work.service import Channel
from ..table.board_players import Pace, Player
from ..store.words import _

DEMO_LEVEL = "medium"


class ComputerPlayer(Player):
    """The engine at ``level``; ``rng`` seeds its searches (and a random move
    when the worker fails); ``toast`` says so to the player."""

    automatic = True

    def __init__(self, level: str, rng, toast) -> None:
        super().__init__(_("Computer ({level})").format(level=term(LEVELS, level).lower()))
        self.level, self.rng, self.toast = level, rng, toast
        self.worker = Channel("camelot-move")
        self._asked: str | None = None      # the position a move was asked for
        self._ready = None                  # its move, waiting to be played
        self._wait = 0.0
        self._position_cache: tuple | None = None

    @property
    def thinking(self) -> bool:
        return self._ready is None

    def position(self, game) -> str:
        """The position string, computed once per position (forget() starts again)."""
        key = (game, len(game.history), game.can_redo)
        if self._position_cache is None or self._position_cache[0] != key:
            self._position_cache = (key, game.position_text())
        return self._position_cache[1]

    def poll(self, game) -> None:
        reply = self.worker.poll()
        if reply is None or self._asked is None:
            return
        position, self._asked = self._asked, None
        if position != self.position(game):
            return  # an answer for a position that has gone
        move = None
        notation = reply.data.get("move") if reply.ok else None
        if notation:
            try:
                move = game.parse_move(notation)
            except RoundTableError:
                move = None
        if move is None:
            moves = game.legal_moves()
            if not moves:
                return
            if not reply.ok:
                self.toast(_("The computer player failed; it plays a random move"), 2.5)
            move = self.rng.choice(moves)
        self._ready = move

    def next_move(self, game, dt: float, pace: Pace):
        position = self.position(game)
        if self._ready is None and self._asked != position:
            self._asked = position
            self.worker.ask({"position": position, "level": self.level,
                             "seed": self.rng.getrandbits(32), "time_limit": None})
            self._wait = 0.0
        if self._ready is None or pace.busy:
            return None
        self._wait += dt
        if not pace.waited(self._wait, AUTOPLAY_PAUSE):
            return None
        move, self._ready, self._wait = self._ready, None, 0.0
        return move

    def stop_asking(self) -> None:
        """Not its turn (a person's now): a search under way is no longer wanted."""
        if self._asked is not None:
            self.forget()

    def forget(self) -> None:
        self.worker.cancel()
        self._asked = None
        self._ready = None
        self._position_cache = None


__all__ = ["ComputerPlayer", "DEMO_LEVEL"]
