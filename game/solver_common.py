"""What the patience solvers share: the answer record and the limits.

A solver knows the whole deal, stock order included (what unlimited undo
effectively reveals), and answers

* ``"winnable"`` with a winning line (move notation, replayable with
  ``game.play``) from the position it was asked about,
* ``"not winnable"`` when every way on was tried, or
* ``"unknown"`` when a limit (states, seconds, or a stop request) came first.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from . import GAMES, SOLVER_IDS
from .errors import BadNumberError, UnknownGameError

WINNABLE = "winnable"
NOT_WINNABLE = "not winnable"
UNKNOWN = "unknown"
ANSWERS = (WINNABLE, NOT_WINNABLE, UNKNOWN)


@dataclass(frozen=True)
class SolveResult:
    """A solver's answer. ``line`` is empty unless the answer is winnable (and
    empty too when the position is already won). ``states`` counts the
    positions the search expanded; ``seconds`` is wall-clock time."""

    answer: str
    line: tuple[str, ...] = ()
    states: int = 0
    seconds: float = 0.0
    reason: str = ""          # why unknown: "states", "seconds" or "stopped"

    @property
    def winnable(self) -> bool:
        return self.answer == WINNABLE

    @property
    def decided(self) -> bool:
        return self.answer != UNKNOWN

    def to_json(self) -> dict:
        return {"answer": self.answer, "line": list(self.line), "states": self.states,
                "seconds": round(self.seconds, 4), "reason": self.reason}


class LimitReached(Exception):
    """Raised inside a search when a limit is hit (caught by the solver)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Budget:
    """States and seconds a search may use, and an optional stop request
    (anything with ``is_set()``, e.g. a ``threading.Event``, or a callable
    returning True). ``tick()`` is called once per expanded state."""

    max_states: int | None = None
    max_seconds: float | None = None
    stop: object = None
    states: int = 0
    started: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        # nan compares false with everything: a nan limit would never stop a search
        if self.max_states is not None and (type(self.max_states) is not int or self.max_states < 1):
            raise BadNumberError(f"a state limit is a whole number at least 1, not {self.max_states!r}")
        if self.max_seconds is not None and (
                isinstance(self.max_seconds, bool) or not isinstance(self.max_seconds, (int, float))
                or not math.isfinite(self.max_seconds) or self.max_seconds <= 0):
            raise BadNumberError(f"a time limit is a finite number of seconds more than 0, "
                                 f"not {self.max_seconds!r}")

    def tick(self) -> None:
        self.states += 1
        if self.max_states is not None and self.states > self.max_states:
            raise LimitReached("states")
        if self.states & 511 == 0:
            self.check()

    def check(self) -> None:
        """Raise LimitReached if the time is up or a stop was requested (for
        long work between ticks; counts no state)."""
        if (self.max_seconds is not None
                and time.perf_counter() - self.started > self.max_seconds):
            raise LimitReached("seconds")
        if self.stopped():
            raise LimitReached("stopped")

    def stopped(self) -> bool:
        stop = self.stop
        if stop is None:
            return False
        if hasattr(stop, "is_set"):
            return bool(stop.is_set())
        return bool(stop())

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def result(self, answer: str, line=(), reason: str = "") -> SolveResult:
        return SolveResult(answer, tuple(line), self.states, self.elapsed(), reason)


def game_for(game_class, game_or_deck):
    """The game a solver works on: the live game given, or a new one from a
    deal number or a deck order."""
    if isinstance(game_or_deck, game_class):
        return game_or_deck
    if isinstance(game_or_deck, int) and not isinstance(game_or_deck, bool):
        return game_class(seed=game_or_deck)
    return game_class(deck=game_or_deck)


def solver_for(game_id: str):
    """The ``solve`` function of a game (UnknownGameError, a ValueError, when
    it has no solver)."""
    if not isinstance(game_id, str) or game_id not in SOLVER_IDS:
        raise UnknownGameError(f"no solver for {game_id!r}; solvers: {', '.join(SOLVER_IDS)}")
    return GAMES[game_id].solve_function()
