"""Playing cards: the value type, parsing, and seeded deck orders.

Cards are written rank then suit (``AS``, ``10H``, ``QD``); a parser also accepts
``T`` for ten and lower case. A deck order lists 52 cards, top card (first dealt)
first.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import BadDeckError
from .parsing import parse_seed, shown

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
              8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king"}


@dataclass(frozen=True, order=True)
class Card:
    """One card. ``rank`` is 1 (ace) … 13 (king); ``suit`` is one of C D H S."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 13 or self.suit not in SUITS:
            raise BadDeckError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @property
    def is_red(self) -> bool:
        return self.suit in "DH"

    @property
    def is_picture(self) -> bool:
        return self.rank >= 11

    @property
    def name(self) -> str:
        """Words for messages: 'king of spades', 'seven of hearts'."""
        return f"{RANK_NAMES.get(self.rank, str(self.rank))} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """``'10H'``, ``'th'``, ``'as'`` → Card. Raises BadDeckError."""
        if not isinstance(text, str) or len(text) > 8:
            raise BadDeckError(f"not a card: {shown(text)} (expected e.g. AS, 10H, QD)")
        t = text.strip().upper()
        if len(t) < 2:
            raise BadDeckError(f"not a card: {text!r} (expected e.g. AS, 10H, QD)")
        rank_text, suit = t[:-1], t[-1]
        if rank_text == "T":
            rank_text = "10"
        if rank_text not in RANKS or suit not in SUITS:
            raise BadDeckError(f"not a card: {shown(text)} (expected e.g. AS, 10H, QD)")
        return cls(RANKS.index(rank_text) + 1, suit)


FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
MAX_DECK_TEXT = 52 * 5 + 200    # 52 codes, separators and some slack


def parse_deck(text: str | list[str]) -> list[Card]:
    """A deck order from text (``"AS 10H …"``, commas allowed) or a list of codes.

    It must be exactly 52 distinct cards; the error names what is wrong.
    """
    if isinstance(text, str):
        if len(text) > MAX_DECK_TEXT:
            raise BadDeckError(f"a deck order is at most {MAX_DECK_TEXT} characters, "
                               f"this one has {len(text)}")
        words = text.replace(",", " ").split()
    elif isinstance(text, (list, tuple)):
        words = list(text)
    else:
        raise BadDeckError(f"a deck order is text or a list of cards, not {shown(text)}")
    if len(words) != 52:
        raise BadDeckError(f"a deck has 52 cards, this one has {len(words)}")
    cards = [Card.parse(w) for w in words]
    if len(cards) != 52:
        raise BadDeckError(f"a deck has 52 cards, this one has {len(cards)}")
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise BadDeckError(f"card {card.code} appears twice in the deck")
        seen.add(card)
    return cards


def deck_text(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


def check_seed(seed: object) -> int:
    """A deal number: a whole number 0 … ``MAX_SEED`` (ASCII digits in a string
    are fine). Raises BadSeedError. Read by ``game.parsing``, the one place that
    reads numbers from outside."""
    return parse_seed(seed)


def deck_for_seed(seed: int) -> list[Card]:
    """The deck order of deal number ``seed``: the same on every machine and run.

    Uses its own ``random.Random(seed)`` (never the global generator), shuffling
    the deck in the fixed order of FULL_DECK.
    """
    seed = check_seed(seed)
    cards = list(FULL_DECK)
    random.Random(seed).shuffle(cards)
    return cards
