"""The one protocol every game offers (modelled on python-chess's Board).

A game is created from a deal number or an explicit start (deck order or
position string); ``legal_moves()`` lists moves; ``play(move)`` accepts a move or
its notation and returns a frozen :class:`MoveRecord` of what happened (the input
for an animation, pokerkit-style) or raises an :class:`IllegalMoveError` /
:class:`NotationError` leaving the state untouched. Undo, redo, restart, status,
score and JSON in/out are written once, here.

Subclasses implement the rules: ``_legal_moves``, ``_apply`` (mutate, return the
events), ``_snapshot``/``_restore`` (for undo), ``parse_move``/``move_text`` and
``status``/``score``.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Generic, Hashable, TypeVar

from .errors import BadSaveError, IllegalMoveError, RoundTableError

SAVE_VERSION = 1

M = TypeVar("M", bound=Hashable)


class Status(str, Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    DRAW = "draw"


@dataclass(frozen=True)
class MoveRecord:
    """What one move did: the move, its notation and the game-specific events
    (card moved, card flipped, piece captured …) in the order they happened."""

    move: Any
    notation: str
    events: tuple
    status: Status
    score: int


class Game(ABC, Generic[M]):
    """Common surface of all four games."""

    game_id: ClassVar[str]
    title: ClassVar[str]

    def __init__(self) -> None:
        self._undo: list[tuple[Any, MoveRecord]] = []  # (snapshot before, record)
        self._redo: list[M] = []

    # --- the rules, per game -------------------------------------------------
    @abstractmethod
    def _legal_moves(self) -> list[M]: ...

    @abstractmethod
    def _apply(self, move: M) -> tuple:
        """Play a move known to be legal; return the events that happened."""

    @abstractmethod
    def _snapshot(self) -> Any: ...

    @abstractmethod
    def _restore(self, snapshot: Any) -> None: ...

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Notation → move, in this position. Raises NotationError."""

    @abstractmethod
    def move_text(self, move: M) -> str:
        """Move → notation (parses back with ``parse_move``)."""

    @property
    @abstractmethod
    def status(self) -> Status: ...

    @property
    @abstractmethod
    def score(self) -> int: ...

    @property
    def status_reason(self) -> str:
        """A sentence on why the game ended ('' while playing)."""
        return ""

    @abstractmethod
    def start_json(self) -> dict:
        """What the game was started from (deal number, deck or position)."""

    @classmethod
    @abstractmethod
    def from_start_json(cls, data: dict) -> "Game": ...

    @abstractmethod
    def restart(self) -> None:
        """Back to the start of the same deal; history is cleared."""

    # --- written once -------------------------------------------------------
    def legal_moves(self) -> list[M]:
        if self.status is not Status.PLAYING:
            return []
        return self._legal_moves()

    def computer_move(self, rng: random.Random | None = None) -> M | None:
        """The computer player's choice here (demo, hints, ``simulate``).

        Games override this with a sensible player; None when no move is left.
        """
        moves = self.legal_moves()
        if not moves:
            return None
        return moves[0] if rng is None else rng.choice(moves)

    def is_legal(self, move: M) -> bool:
        return move in self.legal_moves()

    def _why_illegal(self, move: M) -> str:
        """A sentence for the error; games override it to be specific."""
        return f"{self.move_text(move)} is not a legal move here"

    def play(self, move: M | str) -> MoveRecord:
        record = self._play(move)
        self._redo.clear()
        return record

    def _play(self, move: M | str) -> MoveRecord:
        if isinstance(move, str):
            move = self.parse_move(move)
        if self.status is not Status.PLAYING:
            raise IllegalMoveError(f"the game is over ({self.status.value})")
        if move not in self._legal_moves():
            raise IllegalMoveError(self._why_illegal(move))
        notation = self.move_text(move)
        snapshot = self._snapshot()
        events = self._apply(move)
        record = MoveRecord(move, notation, tuple(events), self.status, self.score)
        self._undo.append((snapshot, record))
        return record

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> MoveRecord | None:
        """Take back the last move; returns its record (None if nothing to undo)."""
        if not self._undo:
            return None
        snapshot, record = self._undo.pop()
        self._restore(snapshot)
        self._redo.append(record.move)
        return record

    def redo(self) -> MoveRecord | None:
        if not self._redo:
            return None
        return self._play(self._redo.pop())

    def _clear_history(self) -> None:
        self._undo.clear()
        self._redo.clear()

    @property
    def history(self) -> list[str]:
        """The moves played so far, in notation."""
        return [record.notation for _, record in self._undo]

    def to_json(self) -> dict:
        """The whole game as JSON-able data: how it started and the moves since."""
        return {
            "version": SAVE_VERSION,
            "game": self.game_id,
            "start": self.start_json(),
            "moves": self.history,
        }

    @classmethod
    def from_json(cls, data: dict) -> "Game":
        """Rebuild a game from ``to_json`` data, replaying and checking every move."""
        try:
            if data.get("version") != SAVE_VERSION:
                raise BadSaveError(f"save version {data.get('version')!r} is not {SAVE_VERSION}")
            if data.get("game") != cls.game_id:
                raise BadSaveError(f"save is for {data.get('game')!r}, not {cls.game_id!r}")
            game = cls.from_start_json(data["start"])
            for text in data["moves"]:
                game.play(text)
        except BadSaveError:
            raise
        except (RoundTableError, KeyError, TypeError, AttributeError) as exc:
            raise BadSaveError(f"damaged save: {exc}") from exc
        return game


@dataclass(frozen=True)
class CardMoved:
    """A card went from one pile to another (pile ids like 'stock', 'clock:7')."""

    card: Any
    source: str
    target: str
    face_up: bool


@dataclass(frozen=True)
class CardFlipped:
    card: Any
    pile: str
    face_up: bool


@dataclass(frozen=True)
class CardRemoved:
    """A card left the table (Camelot removals)."""

    card: Any
    source: str


class CardGame(Game[M]):
    """A patience: the state is a set of named piles of cards.

    ``piles()`` is what the card table draws: pile id → list of (card, face_up),
    bottom card first. Pile ids are stable strings, so a scene can map each to a
    place on the screen without knowing the rules.
    """

    @abstractmethod
    def piles(self) -> dict[str, list[tuple[Any, bool]]]: ...

    def card_count(self) -> int:
        """Cards on the table plus cards removed; always 52 (a tested invariant)."""
        return sum(len(p) for p in self.piles().values()) + self.removed_count()

    def removed_count(self) -> int:
        return 0
