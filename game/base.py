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

What a screen asks is answered here too, so that no scene restates a rule:
``why_illegal(move)`` (a sentence, '' when legal), ``records`` (the moves played,
as records), and for the patience games (:class:`CardGame`) ``moves_from``,
``can_pick_up``/``why_not_pick_up``/``max_pick_up``, ``click_move`` and
``move_between``. Every patience move is a :class:`PileMove`.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Generic, Hashable, TypeVar

from .errors import BadSaveError, IllegalMoveError, NotationError, RoundTableError
from .parsing import shown

SAVE_VERSION = 1

M = TypeVar("M", bound=Hashable)


class Reason(str):
    """A sentence the rules say (why a move is refused, why a game ended): the
    English sentence as ever, and what it says as data, a stable ``code`` and
    its ``parts`` (cards, piles, ranks, numbers, squares), so that a screen
    can word it in another language without reading the English."""

    code: str
    parts: dict

    def __new__(cls, code: str, text: str, parts: dict | None = None) -> "Reason":
        said = super().__new__(cls, text)
        said.code, said.parts = code, dict(parts or {})
        return said

    def __reduce__(self):
        return Reason, (self.code, str(self), self.parts)


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

    move_types: ClassVar[tuple[type, ...]] = ()
    """The classes a move of this game is made of (checked by ``play``; empty:
    not declared, anything is looked up among the legal moves)."""

    def _why_illegal(self, move: M) -> str:
        """A sentence for the error; games override it to be specific."""
        return f"{self.move_text(move)} is not a legal move here"

    def _refusal(self, move: object) -> tuple[M | None, str]:
        """(the move, '') when ``move`` (a move or its notation) is legal here,
        else (None, why not). Raises NotationError for text it cannot read and
        for anything that is neither text nor a move of this game."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif self.move_types and not isinstance(move, self.move_types):
            raise NotationError(f"not a {self.title} move: a {type(move).__name__}")
        if self.status is not Status.PLAYING:
            return None, f"the game is over ({self.status.value})"
        try:
            if move in self._legal_moves():
                return move, ""  # type: ignore[return-value]
            return None, self._why_illegal(move)  # type: ignore[arg-type]
        except RoundTableError as exc:
            return None, str(exc)
        except (TypeError, AttributeError, LookupError, ValueError):
            # a hand-made object that looks like a move but is not one of ours
            raise NotationError(f"not a {self.title} move: {type(move).__name__}") from None

    def why_illegal(self, move: M | str) -> str:
        """Why ``move`` (a move or its notation) cannot be played here, in a
        sentence; '' when it can. Never raises for bad input: the sentence
        then says what is wrong with it."""
        try:
            return self._refusal(move)[1]
        except RoundTableError as exc:
            return str(exc)

    def play(self, move: M | str) -> MoveRecord:
        record = self._play(move)
        self._redo.clear()
        return record

    def _play(self, move: M | str) -> MoveRecord:
        legal, reason = self._refusal(move)
        if legal is None:
            raise IllegalMoveError(reason)
        move = legal
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

    @property
    def records(self) -> tuple[MoveRecord, ...]:
        """The records of the moves played so far, oldest first (what undo
        would take back, in the order they were played)."""
        return tuple(record for _, record in self._undo)

    def settle(self) -> Status:
        """Run the end-of-game checks an engine keeps out of ``play`` because
        they may take long (Hamilton's dead-end search), then give the status.
        A screen runs these off the frame loop instead; a command line or a
        test calls this."""
        return self.status

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
            version = data.get("version")
            if type(version) is not int or version != SAVE_VERSION:   # true == 1 in Python
                raise BadSaveError(f"save version {shown(version)} is not {SAVE_VERSION}")
            if data.get("game") != cls.game_id:
                raise BadSaveError(f"save is for {shown(data.get('game'))}, not {cls.game_id!r}")
            moves = data["moves"]
            if not isinstance(moves, list):
                raise BadSaveError(f"the moves of a save are a list, not {shown(moves)}")
            game = cls.from_start_json(data["start"])
            for text in moves:
                game.play(text)
        except BadSaveError:
            raise
        except (RoundTableError, KeyError, TypeError, AttributeError) as exc:
            raise BadSaveError(f"damaged save: {exc}") from exc
        return game


class PileMove:
    """The declared type of every patience move: the top ``count`` cards of
    pile ``source`` (``card`` is the lowest of them, the one a player grabs)
    go to pile ``target``. ``target`` None means off the table (a Camelot ten)
    or onto every pile (a Hamilton deal). Games declare their moves as frozen
    dataclasses deriving from this; ``count`` is 1 unless a move says more."""

    source: str
    target: str | None
    card: Any
    count: ClassVar[int] = 1


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

    # --- what a card table asks ----------------------------------------------
    def moves_from(self, source: str, count: int | None = None) -> list[M]:
        """The legal moves taking cards from pile ``source`` (only those that
        take ``count`` cards, when given)."""
        return [m for m in self.legal_moves()
                if m.source == source and (count is None or m.count == count)]  # type: ignore[attr-defined]

    def can_pick_up(self, pile: str, count: int = 1) -> bool:
        """May a player take the top ``count`` cards of ``pile`` in hand (to
        drag or to put down elsewhere)? By default: when some move takes them."""
        return any(m.target is not None for m in self.moves_from(pile, count))  # type: ignore[attr-defined]

    def why_not_pick_up(self, pile: str, count: int = 1) -> str:
        """A sentence for a player who tried to take cards that cannot move ('':
        nothing worth saying, e.g. an empty place or a card a click acts on)."""
        return ""

    def max_pick_up(self, pile: str) -> int:
        """How many cards from the top of ``pile`` may be taken together."""
        return 1

    def click_move(self, pile: str) -> M | None:
        """The move a plain click on ``pile`` means (turn the stock, remove a
        ten …), legal or not, so that ``play`` says why when it is not; None
        when a click there means no move."""
        return None

    def move_between(self, source: str, count: int, target: str) -> M | None:
        """The move meant by putting the top ``count`` cards of ``source`` on
        ``target``, legal or not (``play`` or ``why_illegal`` then says why not);
        None when that gesture means no move at all."""
        for move in self.moves_from(source, count):
            if move.target == target:  # type: ignore[attr-defined]
                return move
        return None
