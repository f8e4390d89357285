"""The engine's words as the player reads them: the names of levels, results,
sides and games' values, which the engine (``game/``) keeps in English, marked
here for translation and looked up where they are drawn (``store.words``)."""
from __future__ import annotations

import re

from .words import N_, _

LEVELS = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard"), "expert": N_("Expert")}
RESULTS = {"won": N_("Won"), "lost": N_("Lost"), "drawn": N_("Drawn")}
SIDES = {"white": N_("White"), "black": N_("Black")}
PILE_NAMES = {"stock": N_("the stock"), "waste": N_("the waste"), "chooser": N_("the chooser")}   # patience piles


def term(table: dict[str, str], value: str) -> str:
    """``value`` (an engine's word) in the player's language; an unknown one as it is."""
    shown = table.get(value)
    return _(shown) if shown is not None else value


# The engine's sentences (refusals and why a game ended), by their English text:
# a sentence here is shown in the player's language; one made with numbers or
# cards in it is matched by a pattern below, its parts looked up in turn; any
# other is shown as the engine wrote it.
ENGINE_SENTENCES = (
    N_("every card is home: all twelve hours complete"),
    N_("the stock is empty"),
    N_("the grid is full: remove a ten or a pair first"),
    N_("that is not the stock's top card"),
    N_("the waste is empty: turn the stock first"),
    N_("pictures are never removed"),
    N_("a card cannot pair with itself"),
    N_("nothing can be removed until the grid is full again (or the stock is empty)"),
    N_("pictures stay where they are: they are never removed"),
    N_("nothing can be removed until the grid is full (or the stock is empty)"),
    N_("only the twelve pictures are left: won"),
    N_("stock empty, no ten and no pair left"),
    N_("grid full, no ten and no pair"),
    N_("choose a start card first: click the stock to show one"),
    N_("only the top card, or a run in sequence and in one suit, moves"),
    N_("the start card is chosen: click the stock to deal"),
    N_("the start card is already chosen"),
    N_("the chooser is empty: turn the stock first"),
    N_("choose a start card first: turn the stock to show one"),
    N_("the stock is empty: there is no redeal"),
    N_("that is not the deal the stock gives"),
    N_("a pile cannot move onto itself"),
    N_("only the top card of a foundation can move"),
    N_("declined all three start cards"),
    N_("all 52 cards are on the foundations"),
    N_("no moves left"),
    N_("no sequence of moves can put another card on the foundations"),
    N_("Both sides are down to one piece"),
    N_("The same position occurred for the third time"),
    N_("50 moves by each side with no capture and no castle entry"),
)
_SIDE = r"(?P<side>White|Black)"
_OTHER = r"(?P<other>White|Black)"
ENGINE_PATTERNS = (
    (re.compile(rf"{_SIDE} captured all of {_OTHER}'s pieces"), N_("{side} captured all of {other}'s pieces")),
    (re.compile(rf"{_SIDE} has no legal move and {_OTHER} has only one piece"),
     N_("{side} has no legal move and {other} has only one piece")),
    (re.compile(rf"{_SIDE} has no legal move"), N_("{side} has no legal move")),
    (re.compile(rf"{_OTHER} has no pieces left and {_SIDE} has only (?P<n>\d+)"),
     N_("{other} has no pieces left and {side} has only {n}")),
    (re.compile(rf"{_SIDE} occupies {_OTHER}'s castle"), N_("{side} occupies {other}'s castle")),
    (re.compile(r"the fourth king came up with (?P<n>\d+) cards? not home"),
     N_("the fourth king came up with {n} cards not home")),
)


def reason_words(text: str, full_stop: bool = True) -> str:
    """An engine's sentence for the screen: in the player's language where it
    is known, begun with a capital, ended with a full stop (``full_stop``)."""
    said = _(text) if text in _KNOWN else None
    if said is None:
        for pattern, template in ENGINE_PATTERNS:
            found = pattern.fullmatch(text)
            if found:
                parts = {k: term(SIDES, v.lower()) if k in ("side", "other") else v
                         for k, v in found.groupdict().items()}
                said = _(template).format(**parts)
                break
    said = text if said is None else said
    said = said[:1].upper() + said[1:]
    if full_stop and said and said[-1] not in ".!?":
        said += "."
    return said


_KNOWN = frozenset(ENGINE_SENTENCES)


RANKS = {1: N_("ace"), 2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"),
         7: N_("seven"), 8: N_("eight"), 9: N_("nine"), 10: N_("ten"), 11: N_("jack"),
         12: N_("queen"), 13: N_("king")}
SUITS = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}


def card_name(card) -> str:
    """'seven of hearts' in the player's language (the engine's ``Card.name``)."""
    return _("{rank} of {suit}").format(rank=_(RANKS[card.rank]), suit=_(SUITS[card.suit]))


def rank_words(rank: int) -> str:
    return _(RANKS[rank])
