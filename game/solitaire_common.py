"""What the patience engines share: starting from a deal number or a deck order,
saving that start as JSON, restarting, and reading forgiving move notation.

A patience game mixes in :class:`DeckStart` and implements ``_deal(deck)``,
which sets up the opening position from a deck order (top card first).
"""
from __future__ import annotations

import re

from .base import Status
from .cards import Card, check_seed, deck_for_seed, deck_text, parse_deck
from .errors import BadDeckError, BadSaveError, NotationError
from .parsing import shown

MAX_MOVE_TEXT = 60     # no move of ours is written in more characters


class DeckStart:
    """Start from ``seed=N`` or ``deck=[Card…] | "AS 10H …"`` (exactly one)."""

    def _init_start(self, seed: object = None, deck: object = None) -> None:
        if (seed is None) == (deck is None):
            raise BadDeckError("give a deal number or a deck order (one of them)")
        if seed is not None:
            self.seed: int | None = check_seed(seed)
            self.deck: list[Card] = deck_for_seed(self.seed)
        else:
            self.seed = None
            if isinstance(deck, (list, tuple)) and all(isinstance(c, Card) for c in deck):
                deck = [c.code for c in deck]
            self.deck = parse_deck(deck)  # type: ignore[arg-type]
        self._deal(list(self.deck))

    def _deal(self, deck: list[Card]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def start_json(self) -> dict:
        if self.seed is not None:
            return {"seed": self.seed}
        return {"deck": deck_text(self.deck)}

    @classmethod
    def from_start_json(cls, data: dict):
        if not isinstance(data, dict) or ("seed" in data) == ("deck" in data):
            raise BadSaveError(f"a start needs exactly one of 'seed' or 'deck': {data!r}")
        if "seed" in data:
            return cls(seed=data["seed"])
        return cls(deck=data["deck"])

    def restart(self) -> None:
        self._deal(list(self.deck))
        self._clear_history()  # type: ignore[attr-defined]


class KeptStatus:
    """For engines that keep their stock, status and its reason as fields
    (``_stock``, ``_status``, ``_reason``) and set them as they play."""

    @property
    def stock_count(self) -> int:
        return len(self._stock)  # type: ignore[attr-defined]

    @property
    def status(self) -> Status:
        return self._status  # type: ignore[attr-defined]

    @property
    def status_reason(self) -> str:
        return self._reason  # type: ignore[attr-defined]


def squeeze(text: object) -> str:
    """Notation as the parsers read it: a string, lower case, no spaces.
    Anything else, or text too long to be a move, is a NotationError."""
    if not isinstance(text, str):
        raise NotationError(f"a move is written as text, not {type(text).__name__}")
    if len(text) > MAX_MOVE_TEXT:
        raise NotationError(f"not a move: {shown(text)} is over {MAX_MOVE_TEXT} characters")
    return re.sub(r"\s+", "", text).lower()


def notation_number(digits: str, what: str, count: int, text: str) -> int:
    """A pile or cell number inside a move (``5`` of ``w>c5``): ASCII digits,
    0 … count-1; a NotationError naming the move otherwise."""
    if len(digits) > 3 or not re.fullmatch(r"[0-9]+", digits) or int(digits) >= count:
        raise NotationError(f"no {what} {shown(digits)} in {shown(text)}: "
                            f"they are numbered 0–{count - 1}")
    return int(digits)


def card_words(card: Card | None) -> str:
    return card.name if card is not None else "no card"
