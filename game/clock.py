"""Clock (patience) — seed 004; exact rules in docs/rules-solitaires.md.

Twelve piles at the hours of a clock face and a centre pile. 48 cards are dealt
face down in clock order 1, 2, …, 12, four rounds (the first card dealt to a pile
lies at its bottom); the last 4 cards go to the centre, the last dealt on top,
and the top one is turned face up.

The move (there is never a choice): the centre's face-up top card goes face up on
top of the pile of its rank (A→1 … Q→12), then that pile's bottom card goes face
up on top of the centre. A king stays in the centre: the centre's own bottom card
goes face up on top. The game ends when the fourth king comes up.

Notation: the card moved and where it goes, ``7H-7`` (to 7 o'clock) or ``KS-C``
(a king staying in the centre). ``7H`` alone is accepted too.

Pile ids: ``clock:1`` … ``clock:12`` and ``centre``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .base import CardFlipped, CardGame, CardMoved, PileMove, Reason, Status
from .cards import Card
from .errors import BadDeckError, NotationError
from .parsing import shown
from .solitaire_common import DeckStart, squeeze

CENTRE = "centre"
HOURS = range(1, 13)
HOUR_TEXTS = tuple(str(h) for h in HOURS)      # "1" … "12": the hours as written


def hour_pile(hour: int) -> str:
    return f"clock:{hour}"


def home_of(card: Card) -> str:
    """The pile a card belongs to: its rank's hour, the centre for kings."""
    return CENTRE if card.rank == 13 else hour_pile(card.rank)


def pile_words(pile: str) -> str:
    """'clock:3' → "3 o'clock", 'centre' → 'the centre' (for messages)."""
    return "the centre" if pile == CENTRE else f"{pile.split(':')[1]} o'clock"


@dataclass(frozen=True)
class ClockMove(PileMove):
    """Put ``card`` (the centre's top card) on pile ``target``."""

    card: Card
    target: str
    source: str = CENTRE


class Clock(DeckStart, CardGame[ClockMove]):
    game_id = "clock"
    title = "Clock"
    max_score = 48
    move_types = (ClockMove,)

    def __init__(self, seed: int | str | None = None,
                 deck: list[Card] | str | None = None) -> None:
        CardGame.__init__(self)
        self._init_start(seed, deck)

    def _deal(self, deck: list[Card]) -> None:
        # pile id → [(card, face_up)], bottom first
        self._piles: dict[str, list[tuple[Card, bool]]] = {hour_pile(h): [] for h in HOURS}
        for i, card in enumerate(deck[:48]):
            self._piles[hour_pile(i % 12 + 1)].append((card, False))
        centre = [(card, False) for card in deck[48:]]
        centre[-1] = (centre[-1][0], True)
        self._piles[CENTRE] = centre

    # --- state -------------------------------------------------------------
    def piles(self) -> dict[str, list[tuple[Card, bool]]]:
        return {pid: list(cards) for pid, cards in self._piles.items()}

    @property
    def centre_card(self) -> Card:
        return self._piles[CENTRE][-1][0]

    @property
    def kings_up(self) -> int:
        """Kings that have come up: face up in the centre."""
        return sum(1 for card, up in self._piles[CENTRE] if up and card.rank == 13)

    @property
    def status(self) -> Status:
        if self.kings_up < 4:
            return Status.PLAYING
        return Status.WON if self.score == self.max_score else Status.LOST

    @property
    def status_reason(self) -> str:
        status = self.status
        if status is Status.WON:
            return "every card is home: all twelve hours complete"
        if status is Status.LOST:
            wrong = self.max_score - self.score
            return Reason("fourth-king", f"the fourth king came up with {wrong} card{'s' * (wrong != 1)} "
                          f"not home", {"n": wrong})
        return ""

    @property
    def score(self) -> int:
        """Non-king cards lying in the pile of their own rank, face up or down."""
        return sum(1 for h in HOURS for card, _ in self._piles[hour_pile(h)] if card.rank == h)

    # --- moves -------------------------------------------------------------
    def _legal_moves(self) -> list[ClockMove]:
        card = self.centre_card
        return [ClockMove(card, home_of(card))]

    def _why_illegal(self, move: ClockMove) -> str:
        if move.target not in self._piles:
            return f"there is no pile {shown(move.target)}: the hours are clock:1 … clock:12"
        card = self.centre_card
        if move.card != card:
            return Reason("not-the-centre-card", f"the {move.card.name} is not the centre card (the "
                          f"{card.name} is)", {"card": move.card, "held": card})
        if card.rank == 13:
            return Reason("king-stays", f"the {card.name} stays in the centre, not to {pile_words(move.target)}",
                          {"card": card, "place": move.target})
        return Reason("goes-to-hour", f"the {card.name} goes to {card.rank} o'clock, not to "
                      f"{pile_words(move.target)}", {"card": card, "hour": card.rank, "place": move.target})

    def _apply(self, move: ClockMove) -> tuple:
        events: list = []
        centre = self._piles[CENTRE]
        if move.target == CENTRE:
            # A king stays; the centre's bottom card comes up on top.
            bottom, was_up = centre.pop(0)
            centre.append((bottom, True))
            events.append(CardMoved(bottom, CENTRE, CENTRE, True))
        else:
            card, _ = centre.pop()
            pile = self._piles[move.target]
            pile.append((card, True))
            events.append(CardMoved(card, CENTRE, move.target, True))
            bottom, was_up = pile.pop(0)
            centre.append((bottom, True))
            events.append(CardMoved(bottom, move.target, CENTRE, True))
        if not was_up:
            events.append(CardFlipped(bottom, CENTRE, True))
        return tuple(events)

    def _snapshot(self):
        return {pid: tuple(cards) for pid, cards in self._piles.items()}

    def _restore(self, snapshot) -> None:
        self._piles = {pid: list(cards) for pid, cards in snapshot.items()}

    def move_text(self, move: ClockMove) -> str:
        target = "C" if move.target == CENTRE else move.target.split(":")[1]
        return f"{move.card.code}-{target}"

    def parse_move(self, text: str) -> ClockMove:
        words = squeeze(text).upper().split("-")
        if len(words) > 2 or not words[0]:
            raise NotationError(f"not a Clock move: {shown(text)} (expected e.g. 7H-7 or KS-C)")
        try:
            card = Card.parse(words[0])
        except BadDeckError:
            raise NotationError(f"not a Clock move: {shown(text)} (expected e.g. 7H-7 or KS-C)") from None
        if len(words) == 1:
            return ClockMove(card, home_of(card))
        where = words[1]
        if where == "C":
            return ClockMove(card, CENTRE)
        if where in HOUR_TEXTS:
            return ClockMove(card, hour_pile(int(where)))
        raise NotationError(f"not a Clock pile: {shown(where)} (1 … 12 or C)")

    def target_of_pile_click(self, pile: str) -> ClockMove:
        """The move a player means by clicking/dropping on ``pile``."""
        return ClockMove(self.centre_card, pile)

    def click_move(self, pile: str) -> ClockMove | None:
        """A click on an hour: the centre card goes there (``play`` says why
        when it does not belong there)."""
        return ClockMove(self.centre_card, pile) if pile in self._piles and pile != CENTRE else None

    def move_between(self, source: str, count: int, target: str) -> ClockMove | None:
        """The centre card dropped on an hour goes there (legal or not); dropped
        back on the centre it stays there when it is a king, and otherwise the
        drop means nothing."""
        if source != CENTRE or count != 1 or target not in self._piles:
            return None
        card = self.centre_card
        if target == CENTRE and home_of(card) != CENTRE:
            return None
        return ClockMove(card, target)

    def computer_move(self, rng: random.Random | None = None) -> ClockMove | None:
        moves = self.legal_moves()
        return moves[0] if moves else None


def play_out(game: Clock) -> Clock:
    """Play the game to its end (Clock has no choices)."""
    while game.status is Status.PLAYING:
        game.play(game.legal_moves()[0])
    return game
