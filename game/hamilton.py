"""Hamilton (Dalton's "Agnes"): choose a start rank, then build the four
foundations up in suit from it, wrapping K→A.

The exact rules are in ``docs/rules-solitaires.md`` (seed 002).

Piles (ids for ``piles()``)
    ``stock`` (face down), ``chooser``, ``foundation:0`` … ``foundation:3``,
    ``tableau:0`` … ``tableau:6`` (left to right; every tableau card is face up).

Moves (frozen dataclasses; each has ``source``, ``target``, ``card``, ``count``)
    ===========  ===========  ==============  =====================================
    class        source       target          card / count
    ===========  ===========  ==============  =====================================
    TurnChooser  "stock"      "chooser"       stock's top card / 1. Shows the next
                                              card; declines the chooser card (to
                                              the stock's bottom) if there is one.
    ChooseStart  "chooser"    "foundation:i"  the chooser card / 1
    DealRow      "stock"      None            stock's top card / cards dealt (7 or 2);
                                              None: the cards go to every pile
    MoveCards    "tableau:i"  "tableau:j"     the bottom card of the moved group /
                 "foundation:i" "foundation:j"  the number of cards (1 from a foundation)
    ===========  ===========  ==============  =====================================

Notation (case and spaces do not matter; piles are numbered from 0 like their ids)
    ``t``          turn the chooser: show a card, or decline the one shown
    ``ch>f0``      choose the chooser card as start card, onto foundation 0
    ``d``          deal a row from the stock (``s`` / ``stock`` means t or d, whichever applies)
    ``t3>t5``      move the top card of tableau 3 onto tableau 5
    ``t3:2>t5``    move the top two cards (a suited group) of tableau 3 onto tableau 5
    ``t2>f1``      tableau 2's top card to foundation 1 (``t2:3>f1``: a group of three)
    ``f1>t4``      foundation 1's top card back to tableau 4 (costs a point)
    ``f1>f2``      a foundation's top card to another foundation (a lone start card)
    Long pile ids are read too: ``tableau:3>foundation:1``, ``chooser>f0``.

Dead ends: ``play`` ends the game as lost at once when no legal move is left
(it stays in the microseconds). Whether the moves left can still help is a
breadth-first search over every position reachable without dealing (tableau
order ignored; at most ``SEARCH_LIMIT`` positions), usually a few milliseconds,
rarely up to about a second, so it runs apart from ``play``: once the stock is
empty, ``dead_end_pending`` is True until someone checks the position, either
``game.check_dead_end()`` (or ``game.settle()``) right here, or a background
worker running ``dead_end_verdict(game.to_json())`` whose answer goes back to
``game.apply_dead_end_verdict(verdict)``. When the search proves that no
position with more foundation cards can be reached, the game ends as lost with
a reason. When it gives up (more positions than the limit) the game stays in
play and ``dead_end_reason`` is '' — a dead end that big is not reported (the
computer player then returns None). A way to more foundation cards, once found,
is remembered, so following it costs nothing. While the stock holds cards a
deal is always possible and nothing is claimed.
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import ClassVar, Iterator, NamedTuple, Optional, Union

from .base import CardGame, CardMoved, PileMove, Reason, Status
from .cards import FULL_DECK, RANK_NAMES, SUIT_NAMES, SUITS, Card
from .errors import IllegalMoveError, NotationError
from .parsing import parse_int, shown
from .solitaire_common import DeckStart, KeptStatus, squeeze

TABLEAU_COUNT = 7
FOUNDATION_COUNT = 4
MAX_CHOICES = 3
MAX_SCORE = 52
SEARCH_LIMIT = 20000

# --- the rules on small ints (suit * 16 + rank), shared by game and search -----
CODE = {card: SUITS.index(card.suit) * 16 + card.rank for card in FULL_DECK}
CARD = {code: card for card, code in CODE.items()}


def _red(code: int) -> bool:
    return (code >> 4) in (1, 2)


def rank_below(rank: int) -> int:
    """The rank built on ``rank`` in the tableau: one lower, K on A."""
    return 13 if rank == 1 else rank - 1


def _bases(start: int) -> tuple[dict, dict]:
    """For each card: the cards it may lie on in the tableau (one rank higher,
    same colour, not of the start rank), and the one of those in its own suit
    (what it extends a group on). Cached per start rank."""
    if start not in _BASES:
        on, in_suit = {}, {}
        for code in CARD:
            above = code % 16 % 13 + 1                 # K lies on A
            suits = (1, 2) if _red(code) else (0, 3)
            on[code] = () if above == start else tuple(s * 16 + above for s in suits)
            in_suit[code] = None if above == start else (code >> 4) * 16 + above
        _BASES[start] = (on, in_suit)
    return _BASES[start]


_BASES: dict[int, tuple[dict, dict]] = {}


def sits_on(upper: int, lower: int, start: int) -> bool:
    """May card ``upper`` lie on ``lower``: one lower, same colour, and never on
    a card of the start rank (the seam)."""
    return lower in _bases(start)[0][upper]


def group_len(pile: tuple | list, start: int) -> int:
    """Size of the movable group at the top of a pile: in sequence and one suit."""
    in_suit = _bases(start)[1]
    n = 1 if pile else 0
    while n < len(pile) and pile[-n - 1] == in_suit[pile[-n]]:
        n += 1
    return n


def next_rank(start: int, height: int) -> int | None:
    """The rank a foundation of ``height`` cards takes next (None when complete)."""
    return None if height >= 13 else (start - 1 + height) % 13 + 1


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


# --- moves ---------------------------------------------------------------------
@dataclass(frozen=True)
class TurnChooser(PileMove):
    card: Optional[Card]
    source: ClassVar[str] = "stock"
    target: ClassVar[str] = "chooser"


@dataclass(frozen=True)
class ChooseStart(PileMove):
    card: Optional[Card]
    target: str
    source: ClassVar[str] = "chooser"


@dataclass(frozen=True)
class DealRow(PileMove):
    card: Optional[Card]
    count: int
    source: ClassVar[str] = "stock"
    target: ClassVar[None] = None


@dataclass(frozen=True)
class MoveCards(PileMove):
    card: Optional[Card]
    source: str
    target: str
    count: int = 1


HamiltonMove = Union[TurnChooser, ChooseStart, DealRow, MoveCards]


class HamiltonState(NamedTuple):
    """A whole position (what undo keeps): immutable, fields by name."""

    stock: tuple[Card, ...]
    chooser: Card | None
    shown: int
    start_rank: int | None
    foundations: tuple[tuple[Card, ...], ...]
    tableau: tuple[tuple[Card, ...], ...]
    status: Status
    reason: str

    @property
    def score(self) -> int:
        return sum(map(len, self.foundations))


_INDEXES = tuple(str(i) for i in range(TABLEAU_COUNT))   # "0" … "6": the pile numbers written


def tableau_id(i: int) -> str:
    return f"tableau:{i}"


def foundation_id(i: int) -> str:
    return f"foundation:{i}"


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


def pile_name(pile: str) -> str:
    """A pile as the player sees it, the piles counted from the left: "the
    third pile", "the first foundation" (never the notation's t2 or f0)."""
    kind, _, number = pile.partition(":")
    if kind in ("tableau", "foundation") and number.isdigit() and int(number) < len(ORDINALS):
        return f"the {ORDINALS[int(number)]} {'pile' if kind == 'tableau' else 'foundation'}"
    return f"the {pile}"


class Hamilton(DeckStart, KeptStatus, CardGame[HamiltonMove]):
    """The game. Public state for a UI: ``piles()``, ``start_rank`` (None until
    chosen), ``choices_left``, ``chooser``, ``stock_count``, ``score``,
    ``max_score``, ``status``, ``status_reason``, ``dead_end_reason``,
    ``dead_end_pending``, ``check_dead_end()``, ``apply_dead_end_verdict(v)``,
    ``group_size(i)``, ``foundation_moves_from(pile)``, ``deal_events()``."""

    game_id = "hamilton"
    title = "Hamilton"
    max_score = MAX_SCORE
    move_types = (TurnChooser, ChooseStart, DealRow, MoveCards)

    def __init__(self, seed: object = None, deck: object = None) -> None:
        CardGame.__init__(self)
        self._init_start(seed, deck)

    def _deal(self, deck: list[Card]) -> None:
        self.tableau: list[list[Card]] = [[] for _ in range(TABLEAU_COUNT)]
        cards = iter(deck)
        for row in range(TABLEAU_COUNT):            # row r covers piles r … 6
            for i in range(row, TABLEAU_COUNT):
                self.tableau[i].append(next(cards))
        self._stock: list[Card] = list(cards)       # 24 cards, top first
        self.chooser: Card | None = None
        self.shown = 0                              # cards shown at the chooser
        self.start_rank: int | None = None
        self.foundations: list[list[Card]] = [[] for _ in range(FOUNDATION_COUNT)]
        self._status = Status.PLAYING
        self._reason = ""
        # (tableau codes, heights) → steps of a known way to more foundation cards;
        # facts about positions, so undo leaves them and restart clears them
        self._ways: dict[tuple, list] = {}
        self._checked_positions: set[str] = set()   # searched: a way on, or too big to tell

    def deal_events(self) -> tuple:
        """The opening deal as events (stock → tableau, in dealing order), for a
        UI that animates it."""
        events = []
        for row in range(TABLEAU_COUNT):
            for i in range(row, TABLEAU_COUNT):
                events.append(CardMoved(self.deck[len(events)], "stock", tableau_id(i), True))
        return tuple(events)

    # --- state ---------------------------------------------------------------
    def piles(self) -> dict[str, list[tuple[Card, bool]]]:
        result = {"stock": [(c, False) for c in reversed(self._stock)],
                  "chooser": [(self.chooser, True)] if self.chooser else []}
        for k, pile in enumerate(self.foundations):
            result[foundation_id(k)] = [(c, True) for c in pile]
        for i, pile in enumerate(self.tableau):
            result[tableau_id(i)] = [(c, True) for c in pile]
        return result

    @property
    def choices_left(self) -> int:
        """How many more cards the chooser may still show (0 once chosen)."""
        return 0 if self.start_rank is not None else MAX_CHOICES - self.shown

    @property
    def dead_end_reason(self) -> str:
        """Why no move can help any more ('' when some move may still help)."""
        return self._reason if self._status is Status.LOST and self.start_rank else ""

    def is_dead_end(self) -> bool:
        return bool(self.dead_end_reason)

    @property
    def score(self) -> int:
        return sum(len(f) for f in self.foundations)

    def _snapshot(self) -> HamiltonState:
        return HamiltonState(tuple(self._stock), self.chooser, self.shown, self.start_rank,
                             tuple(map(tuple, self.foundations)), tuple(map(tuple, self.tableau)),
                             self._status, self._reason)

    def _restore(self, snap: HamiltonState) -> None:
        self.chooser, self.shown, self.start_rank = snap.chooser, snap.shown, snap.start_rank
        self._status, self._reason = snap.status, snap.reason
        self._stock = list(snap.stock)
        self.foundations = [list(f) for f in snap.foundations]
        self.tableau = [list(p) for p in snap.tableau]

    def states_played(self) -> tuple[HamiltonState, ...]:
        """The position before each move of ``records``, oldest first."""
        return tuple(snapshot for snapshot, _ in self._undo)

    @property
    def state(self) -> HamiltonState:
        """The position now, as an immutable value."""
        return self._snapshot()

    def group_size(self, i: int) -> int:
        """How many cards at the top of tableau pile i move as one group."""
        if self.start_rank is None:
            return 0
        return group_len([CODE[c] for c in self.tableau[i]], self.start_rank)

    def _heights(self) -> tuple[int, ...]:
        heights = [0] * 4
        for pile in self.foundations:
            if pile:
                heights[SUITS.index(pile[0].suit)] = len(pile)
        return tuple(heights)

    def _fits_foundation(self, card: Card, k: int) -> bool:
        pile = self.foundations[k]
        if not pile:
            return card.rank == self.start_rank
        return (card.suit == pile[0].suit and len(pile) < 13
                and card.rank == next_rank(self.start_rank, len(pile)))

    def _fits_tableau(self, card: Card, j: int) -> bool:
        pile = self.tableau[j]
        return not pile or sits_on(CODE[card], CODE[pile[-1]], self.start_rank)

    # --- legal moves -----------------------------------------------------------
    def _legal_moves(self) -> list[HamiltonMove]:
        if self.start_rank is None:
            moves: list[HamiltonMove] = []
            if self.chooser is not None:
                moves += [ChooseStart(self.chooser, foundation_id(k))
                          for k in range(FOUNDATION_COUNT)]
            return moves + [TurnChooser(self._stock[0])]
        moves = list(self._card_moves())
        if self._stock:
            moves.append(DealRow(self._stock[0], min(TABLEAU_COUNT, len(self._stock))))
        return moves

    def _card_moves(self) -> Iterator[MoveCards]:
        for i, pile in enumerate(self.tableau):
            if not pile:
                continue
            source = tableau_id(i)
            size = self.group_size(i)
            for k in range(FOUNDATION_COUNT):
                if self._fits_foundation(pile[-1], k):
                    for n in range(1, size + 1):
                        yield MoveCards(pile[-n], source, foundation_id(k), n)
            for n in range(1, size + 1):
                for j in range(TABLEAU_COUNT):
                    if j != i and self._fits_tableau(pile[-n], j):
                        yield MoveCards(pile[-n], source, tableau_id(j), n)
        for k, pile in enumerate(self.foundations):
            if not pile:
                continue
            for j in range(TABLEAU_COUNT):
                if self._fits_tableau(pile[-1], j):
                    yield MoveCards(pile[-1], foundation_id(k), tableau_id(j))
            for j in range(FOUNDATION_COUNT):
                if j != k and self._fits_foundation(pile[-1], j):
                    yield MoveCards(pile[-1], foundation_id(k), foundation_id(j))

    # --- playing ---------------------------------------------------------------
    def _pile(self, pile_id: str) -> list[Card]:
        kind, _, index = pile_id.partition(":") if isinstance(pile_id, str) else ("", "", "")
        piles = {"tableau": self.tableau, "foundation": self.foundations}.get(kind)
        if piles is None or index not in _INDEXES[:len(piles)]:
            raise IllegalMoveError(f"there is no pile {shown(pile_id)}")
        return piles[int(index)]

    def _apply(self, move: HamiltonMove) -> tuple:
        events: list = []
        if isinstance(move, TurnChooser):
            if self.chooser is not None:              # decline: face down to the bottom
                events.append(CardMoved(self.chooser, "chooser", "stock", False))
                self._stock.append(self.chooser)
                self.chooser = None
            if self.shown == MAX_CHOICES:
                self._status, self._reason = Status.LOST, "declined all three start cards"
                return tuple(events)
            self.chooser = self._stock.pop(0)
            self.shown += 1
            events.append(CardMoved(self.chooser, "stock", "chooser", True))
            return tuple(events)
        events = self._move(move)
        self._check_end()
        return events

    def _move(self, move: ChooseStart | DealRow | MoveCards) -> tuple:
        """Move the cards (no check for the end of the game)."""
        events = []
        if isinstance(move, ChooseStart):
            self.foundations[int(move.target.split(":")[1])].append(self.chooser)
            self.start_rank, self.chooser = self.chooser.rank, None
            events.append(CardMoved(move.card, "chooser", move.target, True))
        elif isinstance(move, DealRow):
            for i in range(move.count):
                card = self._stock.pop(0)
                self.tableau[i].append(card)
                events.append(CardMoved(card, "stock", tableau_id(i), True))
        else:
            source, target = self._pile(move.source), self._pile(move.target)
            group = source[-move.count:]
            del source[-move.count:]
            if move.target.startswith("foundation"):
                group.reverse()                       # the exposed card goes up first
            for card in group:
                target.append(card)
                events.append(CardMoved(card, move.source, move.target, True))
        return tuple(events)

    def _check_end(self) -> None:
        """What ``play`` decides at once (microseconds): won, or lost with no
        legal move left. Whether the moves left can still help is the dead-end
        search, run apart: ``check_dead_end`` / ``dead_end_verdict``."""
        if self.score == MAX_SCORE:
            self._status, self._reason = Status.WON, "all 52 cards are on the foundations"
        elif not self._stock and not self._legal_moves():
            self._status, self._reason = Status.LOST, "no moves left"

    # --- the dead-end search (kept out of play: it may take a second) -------------
    @property
    def dead_end_pending(self) -> bool:
        """True when the position on the table may be a dead end no one has
        checked yet: the stock is empty and the game is still in play."""
        return (self._status is Status.PLAYING and self.start_rank is not None
                and not self._stock and self.position_key() not in self._checked_positions)

    def position_key(self) -> str:
        """The position as the dead-end search sees it (tableau piles, bottom
        first, and the foundations' heights), as text: what a verdict names."""
        tableau, heights = self._search_state()
        piles = "/".join(" ".join(CARD[c].code for c in pile) for pile in tableau)
        return f"{self.start_rank}|{piles}|{','.join(map(str, heights))}|{len(self._stock)}"

    def check_dead_end(self, limit: int = SEARCH_LIMIT) -> bool:
        """Run the dead-end search here and now (a command line, a test, a worker):
        True when it proved the game lost (the status is then LOST with its
        reason). Takes up to about a second; a screen calls it off the frame
        loop through ``dead_end_verdict`` and ``apply_dead_end_verdict``."""
        if not self.dead_end_pending:
            return self.is_dead_end()
        return self.apply_dead_end_verdict(self._dead_end_verdict(limit))

    def _dead_end_verdict(self, limit: int) -> dict:
        verdict, _ = self._progress(self.score, limit)
        reason = "no sequence of moves can put another card on the foundations"
        return {"position": self.position_key(),
                "dead_end": {True: False, False: True, None: None}[verdict],
                "reason": reason if verdict is False else ""}

    def apply_dead_end_verdict(self, verdict: dict) -> bool:
        """Take a verdict from ``dead_end_verdict``: when it is about the position
        on the table and proves a dead end, the game ends as lost with its
        reason. A verdict about another position (the game moved on) changes
        nothing. True when the game is now lost by it."""
        if not isinstance(verdict, dict) or verdict.get("position") != self.position_key():
            return False
        if self._status is not Status.PLAYING:
            return self.is_dead_end()
        if verdict.get("dead_end") is True:
            self._status, self._reason = Status.LOST, str(verdict.get("reason", ""))
            return True
        self._checked_positions.add(verdict["position"])   # a way on, or too big to tell
        return False

    def settle(self) -> Status:
        self.check_dead_end()
        return self.status

    def _search_state(self) -> tuple[tuple, tuple]:
        return tuple(tuple(CODE[c] for c in p) for p in self.tableau), self._heights()

    def _progress(self, goal: int, limit: int = SEARCH_LIMIT):
        """Is a position with more than ``goal`` foundation cards reachable without
        dealing? (True, steps of a shortest way) / (False, None) / (None, None)
        as ``search_progress``. A way found once is remembered for every position
        along it, so following it costs no further search."""
        tableau, heights = self._search_state()
        known = self._ways.get((tableau, heights))
        if known is not None and sum(known[-1][2]) > goal:
            return True, known
        verdict, steps = search_progress(tableau, heights, self.start_rank, limit, goal)
        if verdict:
            self._ways[(tableau, heights)] = steps
            for i, (_, t, h) in enumerate(steps[:-1]):
                self._ways[(t, h)] = steps[i + 1:]
        return verdict, steps

    def foundation_moves_from(self, pile: str) -> list[HamiltonMove]:
        """What a double-click on ``pile`` plays, in order: the chooser card to the
        first empty foundation; from a tableau pile, every group whose exposed card
        fits a foundation, again and again. [] when nothing goes."""
        if self.status is not Status.PLAYING:
            return []
        if pile == "chooser":
            return [m for m in self.legal_moves() if isinstance(m, ChooseStart)][:1]
        if not pile.startswith("tableau:") or self.start_rank is None:
            return []
        self._pile(pile)                              # a pile id of ours, or IllegalMoveError
        i = int(pile.split(":")[1])
        snapshot, moves = self._snapshot(), []
        try:
            while True:
                whole_groups = [m for m in self._card_moves() if m.source == pile
                                and m.target.startswith("foundation")
                                and m.count == self.group_size(i)]
                if not whole_groups:
                    break
                moves.append(whole_groups[0])
                self._move(whole_groups[0])
        finally:
            self._restore(snapshot)
        return moves

    # --- what a card table asks --------------------------------------------------
    def max_pick_up(self, pile: str) -> int:
        """A tableau pile's movable group; one card elsewhere (a foundation's
        top card, the chooser card)."""
        if pile.startswith("tableau:") and self.start_rank is not None:
            return group_len([CODE[c] for c in self._pile(pile)], self.start_rank)
        return 1

    def can_pick_up(self, pile: str, count: int = 1) -> bool:
        """The chooser card; once the start card is chosen, a foundation's top
        card or a group at the top of a tableau pile."""
        if self._status is not Status.PLAYING or count < 1:
            return False
        if pile == "chooser":
            return self.chooser is not None and count == 1
        if self.start_rank is None or not pile.startswith(("tableau:", "foundation:")):
            return False
        return count <= len(self._pile(pile)) and count <= self.max_pick_up(pile)

    def why_not_pick_up(self, pile: str, count: int = 1) -> str:
        if pile in ("stock", "chooser"):
            return ""
        if self.start_rank is None:
            return "choose a start card first: click the stock to show one"
        if pile.startswith("tableau:"):
            return "only the top card, or a run in sequence and in one suit, moves"
        return ""

    def click_move(self, pile: str) -> HamiltonMove | None:
        """The stock: show a start card (or decline the one shown), or deal."""
        if pile != "stock":
            return None
        top = self._stock[0] if self._stock else None
        if self.start_rank is None:
            return TurnChooser(top)
        return DealRow(top, min(TABLEAU_COUNT, len(self._stock)))

    def move_between(self, source: str, count: int, target: str) -> HamiltonMove | None:
        """Cards of a tableau pile or a foundation onto another such pile; the
        chooser card onto a foundation."""
        if not target.startswith(("tableau:", "foundation:")):
            return None
        if source == "chooser":
            return ChooseStart(self.chooser, target) if target.startswith("foundation:") else None
        if not source.startswith(("tableau:", "foundation:")):
            return None
        pile = self._pile(source)
        self._pile(target)
        card = pile[-count] if 1 <= count <= len(pile) else None
        return MoveCards(card, source, target, count)

    # --- messages --------------------------------------------------------------
    def _why_illegal(self, move: HamiltonMove) -> str:
        if isinstance(move, TurnChooser):
            if self.start_rank is None:
                return "that is not the stock's top card"
            return "the start card is chosen: click the stock to deal"
        if isinstance(move, ChooseStart):
            if self.start_rank is not None:
                return "the start card is already chosen"
            if self.chooser is None:
                return "the chooser is empty: turn the stock first"
            if move.card != self.chooser:
                return Reason("not-the-chooser-card", f"the chooser shows the {self.chooser.name}, not the "
                              f"{_words(move.card)}", {"held": self.chooser, "card": move.card})
            return f"there is no foundation {move.target!r}"
        if self.start_rank is None:
            return "choose a start card first: turn the stock to show one"
        if isinstance(move, DealRow):
            if not self._stock:
                return "the stock is empty: there is no redeal"
            return "that is not the deal the stock gives"
        return self._why_cards_illegal(move)

    def _why_cards_illegal(self, move: MoveCards) -> str:
        source, target = self._pile(move.source), self._pile(move.target)
        where = pile_name(move.source)
        if move.source == move.target:
            return "a pile cannot move onto itself"
        if not source:
            return Reason("place-empty", f"{where} is empty", {"place": move.source})
        if move.count < 1 or move.count > len(source):
            return Reason("too-few-cards", f"{where} has {len(source)} card{'s' * (len(source) != 1)}, not "
                          f"{move.count}", {"place": move.source, "n": len(source), "count": move.count})
        if move.card != source[-move.count]:
            return Reason("another-card-there", f"the card there is the {source[-move.count].name}, not the "
                          f"{_words(move.card)}", {"held": source[-move.count], "card": move.card})
        if move.source.startswith("foundation") and move.count != 1:
            return "only the top card of a foundation can move"
        if move.source.startswith("tableau"):
            size = self.group_size(int(move.source.split(":")[1]))
            if move.count > size:
                return Reason("not-a-group", f"the {move.count} cards from {where} are not a group in "
                              f"sequence and in one suit with no card on a {rank_name(self.start_rank)}",
                              {"count": move.count, "place": move.source, "rank": self.start_rank})
        start = rank_name(self.start_rank)
        if move.target.startswith("foundation"):
            exposed = source[-1] if move.source.startswith("tableau") else move.card
            if not target:
                return Reason("start-rank-only", f"an empty foundation takes only a {start} (the start rank)",
                              {"rank": self.start_rank})
            need = next_rank(self.start_rank, len(target))
            if need is None:
                return Reason("complete", f"{pile_name(move.target)} is complete", {"place": move.target})
            return Reason("needs", f"{pile_name(move.target)} needs the {rank_name(need)} of "
                          f"{SUIT_NAMES[target[0].suit]}, not the {exposed.name}",
                          {"place": move.target, "rank": need, "suit": target[0].suit, "card": exposed})
        top = target[-1]
        if top.rank == self.start_rank:
            return Reason("on-start-rank", f"nothing may be placed on the {top.name}: {start} is the start rank",
                          {"card": top, "rank": self.start_rank})
        colour = "red" if top.is_red else "black"
        return Reason("wrong-card-below", f"the {move.card.name} cannot go on the {top.name}: only a {colour} "
                      f"{rank_name(rank_below(top.rank))} can",
                      {"card": move.card, "held": top, "colour": colour, "rank": rank_below(top.rank)})

    # --- notation --------------------------------------------------------------
    def move_text(self, move: HamiltonMove) -> str:
        if isinstance(move, TurnChooser):
            return "t"
        if isinstance(move, DealRow):
            return "d"
        if isinstance(move, ChooseStart):
            return f"ch>f{move.target.split(':')[1]}"
        source = _short(move.source) + (f":{move.count}" if move.count != 1 else "")
        return f"{source}>{_short(move.target)}"

    def parse_move(self, text: str) -> HamiltonMove:
        t = squeeze(text).replace("tableau:", "t").replace("foundation:", "f")
        t = t.replace("chooser", "ch").replace("-", ">")
        if t in ("s", "stock"):
            t = "t" if self.start_rank is None else "d"
        if t in ("t", "turn"):
            return TurnChooser(self._stock[0] if self._stock else None)
        if t in ("d", "deal"):
            top = self._stock[0] if self._stock else None
            return DealRow(top, min(TABLEAU_COUNT, len(self._stock)))
        parts = t.split(">")
        if len(parts) == 2 and parts[0] in ("ch", "c"):
            return ChooseStart(self.chooser, self._pile_ref(parts[1], "f", text))
        if len(parts) == 2:
            source, _, count = parts[0].partition(":")
            source = self._pile_ref(source, "tf", text)
            target = self._pile_ref(parts[1], "tf", text)
            n = parse_int(count, f"the card count in {shown(text)}", 1, 13,
                          NotationError) if count else 1
            pile = self._pile(source)
            card = pile[-n] if 1 <= n <= len(pile) else None
            return MoveCards(card, source, target, n)
        raise NotationError(f"cannot read Hamilton move {shown(text)}: write t, ch>f0, d, "
                            f"t3>t5, t3:2>t5, t2>f1 or f1>t4")

    @staticmethod
    def _pile_ref(ref: str, kinds: str, text: str) -> str:
        if len(ref) >= 2 and ref[0] in kinds and ref[1:] in _INDEXES:
            index, limit = int(ref[1:]), TABLEAU_COUNT if ref[0] == "t" else FOUNDATION_COUNT
            if index < limit:
                return (tableau_id if ref[0] == "t" else foundation_id)(index)
        raise NotationError(f"no pile {shown(ref)} in {shown(text)}: "
                            f"tableau t0–t6, foundations f0–f3")

    # --- computer player -------------------------------------------------------
    def computer_move(self, rng: random.Random | None = None) -> HamiltonMove | None:
        """Take the shown start card when its rank's cards lie less buried than
        declining promises on average (the third card is always taken); then:
        groups to the foundations; else the first move of a shortest way to one
        more foundation card (breadth-first search, no deals); else deal; None
        when none of these is left. Deterministic: ``rng`` is not needed."""
        return choose_move(self)


def dead_end_verdict(data: dict, limit: int = SEARCH_LIMIT) -> dict:
    """The dead-end search as a JSON-in, JSON-out job for a background worker.

    ``data`` is ``game.to_json()``. The answer is ``{"position": …, "dead_end":
    true | false | null, "reason": …}``: true when no sequence of moves without
    dealing can put another card on the foundations (null: the search gave up
    after ``limit`` positions). Hand it to ``game.apply_dead_end_verdict``.
    Raises BadSaveError for data that is not a Hamilton game.
    """
    game = Hamilton.from_json(data)
    if not game.dead_end_pending:
        return {"position": game.position_key(), "dead_end": game.is_dead_end(),
                "reason": game.dead_end_reason}
    return game._dead_end_verdict(limit)


def _short(pile: str) -> str:
    kind, _, index = pile.partition(":")
    return kind[0] + index


def _words(card: Card | None) -> str:
    return card.name if card is not None else "empty space"


# --- search over positions reachable without dealing ---------------------------
def successors(tableau: tuple, heights: tuple, start: int):
    """(move, tableau, heights) after each move that is not a deal. Moves are
    ('tf', i, n), ('tt', i, j, n) or ('ft', suit, j); of several empty target
    piles only the first is tried (they are alike), and a whole pile is never
    moved to an empty one (nothing changes)."""
    on = _bases(start)[0]
    tops = {pile[-1]: j for j, pile in enumerate(tableau) if pile}
    empty = next((j for j, pile in enumerate(tableau) if not pile), None)
    for i, pile in enumerate(tableau):
        if not pile:
            continue
        size = group_len(pile, start)
        top = pile[-1]
        suit = top >> 4
        if next_rank(start, heights[suit]) == top & 15:
            for n in range(1, size + 1):
                h = list(heights)
                h[suit] += n
                yield ("tf", i, n), _replace(tableau, i, pile[:-n]), tuple(h)
        for n in range(1, size + 1):
            targets = [tops[c] for c in on[pile[-n]] if c in tops and tops[c] != i]
            if empty is not None and n < len(pile):
                targets.append(empty)
            for j in targets:
                moved = _replace(tableau, i, pile[:-n])
                yield ("tt", i, j, n), _replace(moved, j, tableau[j] + pile[-n:]), heights
    for suit, height in enumerate(heights):
        if height == 0:
            continue
        card = suit * 16 + (start + height - 2) % 13 + 1
        targets = [tops[c] for c in on[card] if c in tops]
        if empty is not None:
            targets.append(empty)
        for j in targets:
            h = list(heights)
            h[suit] -= 1
            yield ("ft", suit, j), _replace(tableau, j, tableau[j] + (card,)), tuple(h)


def _replace(tableau: tuple, i: int, pile: tuple) -> tuple:
    return tableau[:i] + (pile,) + tableau[i + 1:]


def search_progress(tableau: tuple, heights: tuple, start: int, limit: int,
                    goal: int | None = None):
    """Breadth-first search for a position with more than ``goal`` foundation
    cards (default: more than now).

    Returns (True, steps) with the steps of a shortest way there, each a
    (move, tableau, heights) after the move; (False, None) when every reachable
    position was seen and none has more; or (None, None) when more than
    ``limit`` positions were seen first.
    """
    goal = sum(heights) if goal is None else goal
    seen = {(tuple(sorted(tableau)), heights)}
    queue = deque([(tableau, heights, None)])      # node: (tableau, heights, (parent, move))
    while queue:
        node = queue.popleft()
        for move, t2, h2 in successors(node[0], node[1], start):
            if sum(h2) > goal:
                steps = [(move, t2, h2)]
                while node[2] is not None:
                    parent, parent_move = node[2]
                    steps.append((parent_move, node[0], node[1]))
                    node = parent
                return True, steps[::-1]
            key = (tuple(sorted(t2)), h2)
            if key in seen:
                continue
            if len(seen) >= limit:
                return None, None
            seen.add(key)
            queue.append((t2, h2, (node, move)))
    return False, None


# --- the computer player ---------------------------------------------------------
def choose_move(game: Hamilton) -> HamiltonMove | None:
    moves = game.legal_moves()
    if not moves:
        return None
    if game.start_rank is None:
        return _choose_start(game, moves)
    start = game.start_rank
    tableau, heights = game._search_state()
    options = list(successors(tableau, heights, start))
    seen = _seen_positions(game)
    stock = game.stock_count
    ups = [m for m, t, h in options if m[0] == "tf" and _key(t, h, stock) not in seen]
    if ups:  # the biggest group to the foundations, leftmost pile first
        return _real_move(game, max(ups, key=lambda m: (m[2], -m[1])))
    # The shortest way to one more foundation card, aiming above the best score
    # met since the last deal (so that a card taken down is not just put back).
    # Tried before dealing, which covers every pile. (Greedy tableau tidying by a
    # heuristic was tried and won fewer deals than this.)
    best = max([game.score] + [state.score for state in game.states_played()
                               if len(state.stock) == stock])
    verdict, steps = game._progress(best, SEARCH_LIMIT // 2 if stock else SEARCH_LIMIT)
    if verdict:
        return _real_move(game, steps[0][0])
    deals = [m for m in moves if isinstance(m, DealRow)]
    return deals[0] if deals else None


def _key(tableau: tuple, heights: tuple, stock: int) -> tuple:
    return tuple(sorted(tableau)), heights, stock


def _seen_positions(game: Hamilton) -> set:
    """Positions met so far in this game (from the undo history), to avoid cycling."""
    seen = set()
    for state in game.states_played():
        if state.start_rank is None:
            continue
        heights = [0] * 4
        for pile in state.foundations:
            if pile:
                heights[SUITS.index(pile[0].suit)] = len(pile)
        codes = tuple(tuple(CODE[c] for c in p) for p in state.tableau)
        seen.add(_key(codes, tuple(heights), len(state.stock)))
    tableau, heights = game._search_state()
    seen.add(_key(tableau, heights, game.stock_count))
    return seen


def _real_move(game: Hamilton, move: tuple) -> MoveCards:
    """A search move ('tf', i, n) / ('tt', i, j, n) / ('ft', suit, j) as a MoveCards."""
    def foundation_of(suit: str) -> int:
        for k, pile in enumerate(game.foundations):
            if pile and pile[0].suit == suit:
                return k
        return next(k for k, pile in enumerate(game.foundations) if not pile)

    if move[0] == "ft":
        k = foundation_of(SUITS[move[1]])
        return MoveCards(game.foundations[k][-1], foundation_id(k), tableau_id(move[2]))
    pile = game.tableau[move[1]]
    n = move[-1]
    if move[0] == "tf":
        target = foundation_id(foundation_of(pile[-1].suit))
    else:
        target = tableau_id(move[2])
    return MoveCards(pile[-n], tableau_id(move[1]), target, n)


def _choose_start(game: Hamilton, moves: list[HamiltonMove]) -> HamiltonMove:
    """Take the shown card when its rank is at least as good as what declining
    promises on average over the unseen cards (the third card is always taken)."""
    if game.chooser is None:
        return moves[-1]
    depth = {}
    for pile in game.tableau:
        for d, card in enumerate(reversed(pile)):
            depth[card] = d

    def badness(rank: int) -> float:
        # start-rank cards buried deep block a foundation; the next rank matters less
        following = rank % 13 + 1
        return (sum(d for c, d in depth.items() if c.rank == rank)
                + 0.5 * sum(d for c, d in depth.items() if c.rank == following))

    declined = game._stock[len(game._stock) - (game.shown - 1):] if game.shown > 1 else []
    unseen = [c for c in FULL_DECK if c not in depth and c != game.chooser and c not in declined]
    cost = {r: badness(r) for r in range(1, 14)}
    chooser_cost = cost[game.chooser.rank]
    if game.shown < MAX_CHOICES:
        promise = sum(cost[c.rank] for c in unseen) / len(unseen)
        for _ in range(MAX_CHOICES - game.shown - 1):
            promise = sum(min(cost[c.rank], promise) for c in unseen) / len(unseen)
        if chooser_cost > promise:
            return moves[-1]
    return moves[0]
