"""Camelot (patience): fill a 4×4 grid, then clear away tens and pairs making ten.

The exact rules are in ``docs/rules-solitaires.md`` (seeds 000 and 001).

Piles (ids for ``piles()``)
    ``stock`` (face down), ``waste`` (at most one card), ``cell:0`` … ``cell:15``
    (row-major, row 0 at the top; each holds at most one card)::

        cell:0  cell:1  cell:2  cell:3       K  Q  Q  K
        cell:4  cell:5  cell:6  cell:7       J  .  .  J
        cell:8  cell:9  cell:10 cell:11      J  .  .  J
        cell:12 cell:13 cell:14 cell:15      K  Q  Q  K

Moves (frozen dataclasses; each has ``source``, ``target`` and ``card``)
    =================  ==========  ==========  ==============================
    class              source      target      card
    =================  ==========  ==========  ==============================
    TurnStock          "stock"     "waste"     the stock's top card (None if empty)
    PlaceCard          "waste"     "cell:i"    the waste card
    RemoveTen          "cell:i"    None        the ten (None means: leaves the table)
    RemovePair         "cell:i"    "cell:j"    the card dragged (from cell i)
    =================  ==========  ==========  ==============================

    A pair may be removed by dragging either card onto the other, so both
    directions are legal moves.

Notation (case and spaces do not matter; cells are numbered 0–15 as above)
    ``t``        turn the stock (``s``, ``stock`` also read)
    ``w>c5``     place the waste card in cell 5 (``w-c5``, ``waste>cell:5`` also read)
    ``c3``       remove the ten in cell 3 (``x c3``, ``10h@c3`` also read)
    ``c3+c7``    remove the pair in cells 3 and 7 (the card in cell 3 is dragged)
"""
from __future__ import annotations

import random
import re
from math import comb
from dataclasses import dataclass
from typing import ClassVar, Optional, Union

from .base import CardGame, CardMoved, CardRemoved, PileMove, Reason, Status
from .cards import RANK_NAMES, Card
from .errors import BadDeckError, IllegalMoveError, NotationError
from .parsing import shown
from .solitaire_common import DeckStart, KeptStatus, notation_number, squeeze

CELL_COUNT = 16
CORNERS = (0, 3, 12, 15)
QUEEN_CELLS = (1, 2, 13, 14)          # middle of top and bottom row
JACK_CELLS = (4, 7, 8, 11)            # middle of left and right column
CENTRE_CELLS = (5, 6, 9, 10)
# The picture rank each border cell is reserved for (besides number cards).
CELL_PICTURE = {**{i: 13 for i in CORNERS}, **{i: 12 for i in QUEEN_CELLS},
                **{i: 11 for i in JACK_CELLS}}
PICTURE_PLACES = {13: "corner", 12: "place in the top or bottom row",
                  11: "place in the left or right column"}
# Which cell a picture goes in, as a refusal says it (a corner is in the top
# row too: the queens' places are the middle of it).
CELL_WORDS = {13: "a corner", 12: "a middle place of the top or bottom row",
              11: "a middle place of the left or right column"}
MAX_SCORE = 40
# Each cell as the player sees it (a refusal names the place, never a number
# the table does not show), row by row from the top left.
_ROW_NAMES = ("top", "second", "third", "bottom")
_COLUMN_NAMES = ("left", "second", "third", "right")


def place_name(i: int) -> str:
    """Cell i in words: "the top-left corner", "the second place of the top
    row", "the second place of the left column", "the upper-left centre place"."""
    row, column = divmod(i, 4)
    if i in CORNERS:
        return f"the {_ROW_NAMES[row]}-{_COLUMN_NAMES[column]} corner"
    if i in QUEEN_CELLS:
        return f"the {_COLUMN_NAMES[column]} place of the {_ROW_NAMES[row]} row"
    if i in JACK_CELLS:
        return f"the {_ROW_NAMES[row]} place of the {_COLUMN_NAMES[column]} column"
    upper, left = ("upper" if row == 1 else "lower"), ("left" if column == 1 else "right")
    return f"the {upper}-{left} centre place"


def cell_id(i: int) -> str:
    return f"cell:{i}"


def cell_index(pile: str) -> int:
    return int(pile.split(":")[1])


def cell_allows(i: int, card: Card) -> bool:
    """May ``card`` go in (empty) cell i?  Numbers anywhere, pictures on their own cells."""
    return not card.is_picture or CELL_PICTURE.get(i) == card.rank


@dataclass(frozen=True)
class TurnStock(PileMove):
    card: Optional[Card]
    source: ClassVar[str] = "stock"
    target: ClassVar[str] = "waste"


@dataclass(frozen=True)
class PlaceCard(PileMove):
    card: Optional[Card]
    target: str
    source: ClassVar[str] = "waste"


@dataclass(frozen=True)
class RemoveTen(PileMove):
    card: Optional[Card]
    source: str
    target: ClassVar[None] = None


@dataclass(frozen=True)
class RemovePair(PileMove):
    card: Optional[Card]
    source: str
    target: str


CamelotMove = Union[TurnStock, PlaceCard, RemoveTen, RemovePair]


class CamelotSolitaire(DeckStart, KeptStatus, CardGame[CamelotMove]):
    """The game. Public state for a UI: ``piles()``, ``phase``, ``stock_count``,
    ``waste`` (card or None), ``cells`` (16 cards or None), ``score``,
    ``max_score``, ``status``, ``status_reason``, ``removed_count()``."""

    game_id = "camelot-solitaire"
    title = "Camelot (patience)"
    max_score = MAX_SCORE
    move_types = (TurnStock, PlaceCard, RemoveTen, RemovePair)

    def __init__(self, seed: object = None, deck: object = None) -> None:
        CardGame.__init__(self)
        self._init_start(seed, deck)

    def _deal(self, deck: list[Card]) -> None:
        self._stock: list[Card] = deck            # top card first
        self.waste: Card | None = None
        self.cells: list[Card | None] = [None] * CELL_COUNT
        self.removed: list[Card] = []
        self.phase = "filling"
        self._status = Status.PLAYING
        self._reason = ""

    # --- state ---------------------------------------------------------------
    def piles(self) -> dict[str, list[tuple[Card, bool]]]:
        result = {"stock": [(c, False) for c in reversed(self._stock)],
                  "waste": [(self.waste, True)] if self.waste else []}
        for i, card in enumerate(self.cells):
            result[cell_id(i)] = [(card, True)] if card else []
        return result

    def removed_count(self) -> int:
        return len(self.removed)

    @property
    def score(self) -> int:
        return len(self.removed)

    def _snapshot(self):
        return (tuple(self._stock), self.waste, tuple(self.cells), tuple(self.removed),
                self.phase, self._status, self._reason)

    def _restore(self, snap) -> None:
        stock, self.waste, cells, removed, self.phase, self._status, self._reason = snap
        self._stock, self.cells, self.removed = list(stock), list(cells), list(removed)

    def empty_cells(self) -> list[int]:
        return [i for i, c in enumerate(self.cells) if c is None]

    def allowed_cells(self, card: Card) -> list[int]:
        """The empty cells ``card`` may be placed in (the UI's drop targets)."""
        return [i for i in self.empty_cells() if cell_allows(i, card)]

    def _removals(self) -> list[CamelotMove]:
        numbers = [(i, c) for i, c in enumerate(self.cells) if c is not None and not c.is_picture]
        moves: list[CamelotMove] = [RemoveTen(c, cell_id(i)) for i, c in numbers if c.rank == 10]
        for i, a in numbers:
            for j, b in numbers:
                if i != j and a.rank + b.rank == 10:
                    moves.append(RemovePair(a, cell_id(i), cell_id(j)))
        return moves

    # --- rules ---------------------------------------------------------------
    def _can_turn(self) -> bool:
        return self.waste is None and bool(self._stock) and None in self.cells

    def _legal_moves(self) -> list[CamelotMove]:
        if self.waste is not None:
            return [PlaceCard(self.waste, cell_id(i)) for i in self.allowed_cells(self.waste)]
        moves: list[CamelotMove] = []
        if self.phase == "removing":
            moves += self._removals()
        if self._can_turn():
            moves.append(TurnStock(self._stock[0]))
        return moves

    def _apply(self, move: CamelotMove) -> tuple:
        if isinstance(move, TurnStock):
            card = self.waste = self._stock.pop(0)
            self.phase = "filling"
            if not self.allowed_cells(card):
                self._end(Status.LOST, Reason("no-free-place", f"no free {PICTURE_PLACES[card.rank]} for the "
                                                                f"{card.name}", {"card": card, "free": card.rank}))
            return (CardMoved(card, "stock", "waste", True),)
        if isinstance(move, PlaceCard):
            self.cells[cell_index(move.target)] = move.card
            self.waste = None
            if None not in self.cells or not self._stock:
                self.phase = "removing"
            self._check_end()
            return (CardMoved(move.card, "waste", move.target, True),)
        sources = [move.source] + ([move.target] if isinstance(move, RemovePair) else [])
        events = []
        for pile in sources:
            card = self.cells[cell_index(pile)]
            self.cells[cell_index(pile)] = None
            self.removed.append(card)
            events.append(CardRemoved(card, pile))
        self._check_end()
        return tuple(events)

    def _end(self, status: Status, reason: str) -> None:
        self._status, self._reason = status, reason

    def _check_end(self) -> None:
        """After a placement or removal: won, or lost with nothing to remove?"""
        if self.phase != "removing":
            return
        if not self._stock and self.waste is None:
            if all(c is None or c.is_picture for c in self.cells):
                self._end(Status.WON, "only the twelve pictures are left: won")
            elif not self._removals():
                self._end(Status.LOST, "stock empty, no ten and no pair left")
        elif None not in self.cells and not self._removals():
            self._end(Status.LOST, "grid full, no ten and no pair")

    def _why_illegal(self, move: CamelotMove) -> str:
        if isinstance(move, TurnStock):
            if self.waste is not None:
                return self._place_waste_first()
            if not self._stock:
                return "the stock is empty"
            if None not in self.cells:
                return "the grid is full: remove a ten or a pair first"
            return "that is not the stock's top card"
        if isinstance(move, PlaceCard):
            i = _checked_cell(move.target)
            if self.waste is None:
                return "the waste is empty: turn the stock first"
            if move.card != self.waste:
                return Reason("not-the-waste-card", f"the waste card is the {self.waste.name}, not the "
                              f"{_words(move.card)}", {"held": self.waste, "card": move.card})
            if self.cells[i] is not None:
                return Reason("place-taken", f"{place_name(i)} is taken by the {self.cells[i].name}",
                              {"place": move.target, "card": self.cells[i]})
            if move.card.is_picture:
                taker = CELL_PICTURE.get(i)
                here = (f"{place_name(i)} takes {RANK_NAMES[taker]}s only" if taker
                        else f"{place_name(i)} takes number cards only")
                return Reason("pictures-only" if taker else "numbers-only",
                              f"{here}; the {move.card.name} goes in {CELL_WORDS[move.card.rank]}",
                              {"place": move.target, "ranks": taker, "card": move.card,
                               "cell": move.card.rank})
            return Reason("cannot-go-in", f"the {move.card.name} cannot go in {place_name(i)}",
                          {"card": move.card, "place": move.target})
        if self.waste is not None:
            return self._place_waste_first()
        cells = [move.source] + ([move.target] if isinstance(move, RemovePair) else [])
        cards = []
        for pile in cells:
            i = _checked_cell(pile)
            if self.cells[i] is None:
                return Reason("place-empty", f"{place_name(i)} is empty", {"place": pile})
            cards.append(self.cells[i])
        if move.card != cards[0]:
            return Reason("holds-another", f"{place_name(cell_index(move.source))} holds the {cards[0].name}, "
                          f"not the {_words(move.card)}",
                          {"place": move.source, "held": cards[0], "card": move.card})
        if any(c.is_picture for c in cards):
            return "pictures are never removed"
        if isinstance(move, RemoveTen) and cards[0].rank != 10:
            return Reason("not-a-ten", f"the {cards[0].name} is not a ten; only a ten is removed on its own",
                          {"card": cards[0]})
        if isinstance(move, RemovePair):
            if move.source == move.target:
                return "a card cannot pair with itself"
            total = cards[0].rank + cards[1].rank
            if total != 10:
                return Reason("not-ten-together", f"the {cards[0].name} and the {cards[1].name} make "
                              f"{total}, not 10", {"card": cards[0], "other": cards[1], "n": total})
        if self.phase == "filling":
            return "nothing can be removed until the grid is full again (or the stock is empty)"
        return Reason("not-a-move", f"{self.move_text(move)} is not a legal move here",
                      {"move": self.move_text(move)})

    def _place_waste_first(self) -> Reason:
        return Reason("waste-first", f"place the {self.waste.name} from the waste first", {"card": self.waste})

    # --- what a card table asks --------------------------------------------------
    def _cell_card(self, pile: str) -> Card | None:
        if not pile.startswith("cell:"):
            return None
        return self.cells[_checked_cell(pile)]

    def can_pick_up(self, pile: str, count: int = 1) -> bool:
        """The waste card, to place it; in phase two a number card other than a
        ten, to drop it on its partner (a ten is removed by a click instead)."""
        if count != 1 or self._status is not Status.PLAYING:
            return False
        if pile == "waste":
            return self.waste is not None
        card = self._cell_card(pile)
        return (card is not None and not card.is_picture and card.rank != 10
                and self.phase == "removing" and self.waste is None)

    def why_not_pick_up(self, pile: str, count: int = 1) -> str:
        card = self._cell_card(pile)
        if card is None:
            return ""
        if card.is_picture:
            return "pictures stay where they are: they are never removed"
        if self.waste is not None:
            return Reason("place-first", f"place the {self.waste.name} first", {"card": self.waste})
        if self.phase == "filling":
            return "nothing can be removed until the grid is full (or the stock is empty)"
        return ""

    def click_move(self, pile: str) -> CamelotMove | None:
        """The stock: turn it. A ten: remove it."""
        if pile == "stock":
            return TurnStock(self._stock[0] if self._stock else None)
        card = self._cell_card(pile)
        if card is not None and card.rank == 10:
            return RemoveTen(card, pile)
        return None

    def move_between(self, source: str, count: int, target: str) -> CamelotMove | None:
        """The waste card onto a cell: place it there. A cell's card onto another
        card (not a ten): remove them as a pair."""
        if count != 1 or not target.startswith("cell:"):
            return None
        other = self.cells[_checked_cell(target)]
        if source == "waste":
            return PlaceCard(self.waste, target)
        card = self._cell_card(source)
        if card is None or other is None or other.rank == 10:
            return None
        return RemovePair(card, source, target)

    # --- notation ------------------------------------------------------------
    def move_text(self, move: CamelotMove) -> str:
        if isinstance(move, TurnStock):
            return "t"
        if isinstance(move, PlaceCard):
            return f"w>c{cell_index(move.target)}"
        if isinstance(move, RemoveTen):
            return f"c{cell_index(move.source)}"
        return f"c{cell_index(move.source)}+c{cell_index(move.target)}"

    def parse_move(self, text: str) -> CamelotMove:
        t = squeeze(text)
        if t in ("t", "s", "stock", "turn"):
            return TurnStock(self._stock[0] if self._stock else None)
        m = re.fullmatch(r"(?:w|waste)[>\-](?:c|cell:?)([0-9]+)", t)
        if m:
            return PlaceCard(self.waste, cell_id(_cell_number(m.group(1), text)))
        m = re.fullmatch(r"(?:x|([0-9tajqk]+[cdhs])@)?(?:c|cell:?)([0-9]+)", t)
        if m:
            i = _cell_number(m.group(2), text)
            named = _named_card(m.group(1), text) if m.group(1) else self.cells[i]
            return RemoveTen(named, cell_id(i))
        m = re.fullmatch(r"(?:c|cell:?)([0-9]+)[+>\-](?:c|cell:?)([0-9]+)", t)
        if m:
            i, j = _cell_number(m.group(1), text), _cell_number(m.group(2), text)
            return RemovePair(self.cells[i], cell_id(i), cell_id(j))
        raise NotationError(f"cannot read Camelot move {shown(text)}: write t, w>c5, c3 or c3+c7")

    # --- computer player -------------------------------------------------------
    def computer_move(self, rng: random.Random | None = None) -> CamelotMove | None:
        """A number card goes where the chance is best that every picture still
        to come before the grid is full again finds a free cell of its kind
        (exact multivariate hypergeometric odds over the unseen cards); ties go
        to the centre, then to the border kind with most room. Every ten and
        pair is removed (tried: keeping some wins fewer deals), the ones on the
        tightest border cells first. Deterministic for a given ``rng``."""
        moves = self.legal_moves()
        if not moves:
            return None
        rng = rng or random.Random(0)
        if self.waste is not None:
            return self._choose_place(moves, rng)
        removals = [m for m in moves if not isinstance(m, TurnStock)]
        if removals:
            return max(removals, key=lambda m: (self._removal_urgency(m), rng.random()))
        return moves[0]

    def _unseen_pictures(self, rank: int) -> int:
        seen = [c for c in self.cells + [self.waste] if c is not None and c.rank == rank]
        return 4 - len(seen)

    def _room(self, i: int) -> int:
        """Spare empty cells of cell i's picture kind beyond the pictures still to
        come (large for the centre, which no picture needs)."""
        rank = CELL_PICTURE.get(i)
        if rank is None:
            return 99
        free = sum(1 for j, r in CELL_PICTURE.items() if r == rank and self.cells[j] is None)
        return free - self._unseen_pictures(rank)

    def _choose_place(self, moves: list[CamelotMove], rng: random.Random) -> CamelotMove:
        card = self.waste
        if card is None or card.is_picture:
            return moves[0]
        unseen = {k: self._unseen_pictures(k) for k in (11, 12, 13)}
        empty = self.empty_cells()
        draws = min(len(empty) - 1, len(self._stock))

        def value(move: CamelotMove) -> tuple:
            i = cell_index(move.target)
            free = {k: sum(1 for j in empty if j != i and CELL_PICTURE.get(j) == k)
                    for k in (11, 12, 13)}
            safe = _chance_pictures_fit(free, unseen, len(self._stock), draws)
            return (round(safe, 9), i in CENTRE_CELLS, min(self._room(i), 9), rng.random())

        return max(moves, key=value)

    def _removal_urgency(self, move: CamelotMove) -> int:
        cells = [move.source] + ([move.target] if isinstance(move, RemovePair) else [])
        return -min(self._room(cell_index(p)) for p in cells)


def _chance_pictures_fit(free: dict, unseen: dict, stock: int, draws: int) -> float:
    """The chance that among the next ``draws`` cards of a ``stock`` of unseen
    cards no picture kind (11, 12, 13) brings more cards than ``free`` cells."""
    if draws <= 0:
        return 1.0
    others = stock - sum(unseen.values())
    total = 0
    for kings in range(min(free[13], unseen[13]) + 1):
        for queens in range(min(free[12], unseen[12]) + 1):
            for jacks in range(min(free[11], unseen[11]) + 1):
                rest = draws - kings - queens - jacks
                if 0 <= rest <= others:
                    total += (comb(unseen[13], kings) * comb(unseen[12], queens)
                              * comb(unseen[11], jacks) * comb(others, rest))
    return total / comb(stock, draws)


def _cell_number(digits: str, text: str) -> int:
    return notation_number(digits, "cell", CELL_COUNT, text)


def _named_card(code: str, text: str) -> Card:
    try:
        return Card.parse(code)
    except BadDeckError:
        raise NotationError(f"no card {shown(code)} in {shown(text)}") from None


def _checked_cell(pile: object) -> int:
    """The cell number of a pile id from a hand-made move; a clear error if it is none."""
    kind, _, digits = pile.partition(":") if isinstance(pile, str) else ("", "", "")
    if kind != "cell" or not re.fullmatch(r"[0-9]{1,2}", digits) or int(digits) >= CELL_COUNT:
        raise IllegalMoveError(f"there is no cell {shown(pile)}")
    return int(digits)


def _words(card: Card | None) -> str:
    return card.name if card is not None else "empty space"
