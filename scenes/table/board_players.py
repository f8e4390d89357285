"""The players of a Camelot board screen, one per side.

A board screen is a :class:`~scenes.table.board_table.BoardTable` and two
players. A player says what the side panel calls it and, unless a person at
this screen picks its moves on the table (``at_screen``), hands the screen its
next move when it has one (``next_move``: None while it has not, every frame).

- :class:`Person`: someone at this screen; the table takes the moves.
- :class:`~scenes.games.camelot_computer.ComputerPlayer`: the engine, through
  the work service.
- :class:`RecordPlayer`: a game record's moves in turn (a famous game in the
  demo; the replay's Play).
- :class:`RemotePlayer`: a seat at a network table; its moves come through the
  online session and are played by the online screen on its one board.
- :class:`ScriptedPlayer`: moves a test chooses, at once.

``pace`` is the screen's :class:`Pace`: the animation speed, whether the game
is fresh (the first move waits twice as long, to let the board be seen) and
whether the board is still showing a move (a move is handed over only once it
is not; the computer starts thinking meanwhile).
"""
from __future__ import annotations

from dataclasses import dataclass

from game.errors import RoundTableError


@dataclass(frozen=True)
class Pace:
    speed: float        # the animation-speed setting's factor
    fresh: bool         # no move yet in this game
    busy: bool = False  # the board is showing a move

    def waited(self, seconds: float, pause: float) -> bool:
        """``seconds`` are ``pause`` (at normal speed; twice that on a fresh game)."""
        pause /= self.speed
        return seconds >= (2 * pause if self.fresh else pause)


class Player:
    """One side (the base: a side no one here plays, with a name)."""

    at_screen = False             # a person at this screen picks this side's moves
    automatic = False             # it plays its own moves here (the computer, a record, a script)

    def __init__(self, name: str = "") -> None:
        self.name = name

    def label(self) -> str:
        """What the side panel calls this side."""
        return self.name

    @property
    def thinking(self) -> bool:
        """Searching for its move (the panel shows a spinner)."""
        return False

    def poll(self, game) -> None:
        """Every frame, whoever is to move: take in answers that have arrived."""

    def next_move(self, game, dt: float, pace: Pace):
        """Its move in ``game`` when it is ready, else None (asked every frame of
        its turn while the board is still)."""
        return None

    def stop_asking(self) -> None:
        """A person here is to move: anything it was working out is not wanted now."""

    def forget(self) -> None:
        """The game changed under it (a move, an undo, a new game): drop what is pending."""


class Person(Player):
    """Someone at this screen: the table takes their moves (``may_choose`` adds
    what else must hold, e.g. an online move not waiting for the server)."""

    at_screen = True

    def __init__(self, name: str, may_choose=None) -> None:
        super().__init__(name)
        self.may_choose = may_choose or (lambda: True)


class RemotePlayer(Player):
    """A seat at a network table: ``describe()`` is what the panel says (the
    seat's name, away); its moves arrive through the online session."""

    def __init__(self, describe) -> None:
        super().__init__()
        self.describe = describe

    def label(self) -> str:
        return self.describe()


class RecordPlayer(Player):
    """A record's moves (notation) one by one, ``pause`` seconds apart; when the
    record runs out, or a move does not parse, ``on_end`` is called once."""

    automatic = True

    def __init__(self, name: str, moves: tuple, pause: float, on_end=None) -> None:
        super().__init__(name)
        self.moves, self.pause, self.on_end = tuple(moves), pause, on_end
        self.ended = False
        self._ready = None
        self._wait = 0.0

    def restart(self) -> None:
        """A new game from the record's start."""
        self.ended, self._ready, self._wait = False, None, 0.0

    def hurry(self) -> None:
        """The next move without the pause."""
        self._wait = float("inf")

    def next_move(self, game, dt: float, pace: Pace):
        if self.ended or pace.busy:
            return None
        ply = len(game.history)
        if self._ready is None:
            try:
                self._ready = game.parse_move(self.moves[ply]) if ply < len(self.moves) else None
            except RoundTableError:
                self._ready = None      # the tests keep shipped records legal; end here
            if self._ready is None:
                self._end()
                return None
        self._wait += dt
        if not pace.waited(self._wait, self.pause):
            return None
        move, self._ready, self._wait = self._ready, None, 0.0
        return move

    def forget(self) -> None:
        self._ready = None

    def _end(self) -> None:
        self.ended = True
        if self.on_end is not None:
            self.on_end()


class ScriptedPlayer(Player):
    """Moves a test chooses: ``choose(game)`` gives each, played at once."""

    automatic = True

    def __init__(self, name: str, choose) -> None:
        super().__init__(name)
        self.choose = choose

    def next_move(self, game, dt: float, pace: Pace):
        return None if pace.busy else self.choose(game)


__all__ = ["Pace", "Player", "Person", "RemotePlayer", "RecordPlayer", "ScriptedPlayer"]
