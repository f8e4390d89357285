"""The engine's words as the player reads them: the names of levels, results,
sides and games' values, which the engine (``game/``) keeps in English, marked
here for translation and looked up where they are drawn (``store.words``)."""
from __future__ import annotations

import re
from functools import lru_cache

from game.cards import Card

from .words import N_, Nn_, _, language, ngettext

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
ENGINE_SENTENCE_PATTERNS = (
    (rf"{_SIDE} captured all of {_OTHER}'s pieces", N_("{side} captured all of {other}'s pieces")),
    (rf"{_SIDE} has no legal move and {_OTHER} has only one piece",
     N_("{side} has no legal move and {other} has only one piece")),
    (rf"{_SIDE} has no legal move", N_("{side} has no legal move")),
    (rf"{_OTHER} has no pieces left and {_SIDE} has only (?P<n>\d+)",
     N_("{other} has no pieces left and {side} has only {n}")),
    (rf"{_SIDE} occupies {_OTHER}'s castle", N_("{side} occupies {other}'s castle")),
)


@lru_cache(maxsize=1)
def _engine_patterns() -> tuple:
    """The board engine's sentences as patterns, compiled when first needed
    (a patience opened at once does not wait for them)."""
    return tuple((re.compile(sentence), template) for sentence, template in ENGINE_SENTENCE_PATTERNS)


def reason_words(text: str, full_stop: bool = True, places=None) -> str:
    """An engine's sentence for the screen: in the player's language where it
    is known (by its code and parts where it has them: a ``game.base.Reason``;
    ``places`` names a pile as the screen shows it), begun with a capital,
    ended with a full stop (``full_stop``)."""
    said = _reason_from_parts(text, places)
    if said is None and text in _KNOWN:
        said = _(text)
    if said is None:
        for pattern, template in _engine_patterns():
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


def refusal_text(exc: Exception) -> str:
    """The sentence an engine's exception carries, with its code and parts
    where it has them (``str(exc)`` would keep only the English)."""
    first = exc.args[0] if exc.args else ""
    return first if isinstance(first, str) else str(exc)


# The rules' sentences that name cards, piles, ranks, squares or numbers, by
# their code (game.base.Reason): each a template filled with its parts in the
# player's language (a pair: singular and plural, by the part ``n``).
REASONS = {
    # Camelot (patience)
    "waste-first": N_("place the {card} from the waste first"),
    "place-first": N_("place the {card} first"),
    "not-the-waste-card": N_("the waste card is the {held}, not the {card}"),
    "place-taken": N_("{place} is taken by the {card}"),
    "pictures-only": N_("{place} takes {ranks} only; the {card} goes in {cell}"),
    "numbers-only": N_("{place} takes number cards only; the {card} goes in {cell}"),
    "cannot-go-in": N_("the {card} cannot go in {place}"),
    "place-empty": N_("{place} is empty"),
    "holds-another": N_("{place} holds the {held}, not the {card}"),
    "not-a-ten": N_("the {card} is not a ten; only a ten is removed on its own"),
    "not-ten-together": N_("the {card} and the {other} make {n}, not 10"),
    "not-legal-here": N_("{move} is not a legal move here"),
    "no-free-place": N_("no free {free} for the {card}"),
    # Hamilton
    "not-the-chooser-card": N_("the chooser shows the {held}, not the {card}"),
    "too-few-cards": Nn_("{place} has {n} card, not {count}", "{place} has {n} cards, not {count}"),
    "another-card-there": N_("the card there is the {held}, not the {card}"),
    "not-a-group": N_("the {count} cards from {place} are not a group in sequence and in one suit "
                      "with no card on a {rank}"),
    "start-rank-only": N_("an empty foundation takes only a {rank} (the start rank)"),
    "complete": N_("{place} is complete"),
    "needs": N_("{place} needs the {rank} of {suit}, not the {card}"),
    "on-start-rank": N_("nothing may be placed on the {card}: {rank} is the start rank"),
    "wrong-card-below": N_("the {card} cannot go on the {held}: only a {colour} {rank} can"),
    # Clock
    "fourth-king": Nn_("the fourth king came up with {n} card not home",
                       "the fourth king came up with {n} cards not home"),
    "not-the-centre-card": N_("the {card} is not the centre card (the {held} is)"),
    "king-stays": N_("the {card} stays in the centre, not to {place}"),
    "goes-to-hour": N_("the {card} goes to {hour} o'clock, not to {place}"),
    # Camelot (board game): game.camelot.board's Refusal codes
    "game-over": N_("the game is over: {why}"),
    "no-piece": N_("there is no piece on {square}"),
    "not-your-turn": N_("the piece on {square} is not {side}'s; it is {side}'s turn"),
    "must-leave-castle": N_("{side}'s piece on {square} ended its move in its own castle and must move out now"),
    "must-capture": N_("capturing is compulsory; {side} must capture (for example {move})"),
    "must-jump-on": N_("the piece may not stop there; it must go on and capture (for example {move})"),
    "own-castle": N_("a piece may enter its own castle only by a jump"),
    "blocked": N_("the piece on {square} has no legal move: every square it could reach is taken or forbidden"),
    "not-a-move": N_("{path} is not a legal move here"),
}
PICTURE_RANKS = {13: N_("kings"), 12: N_("queens"), 11: N_("jacks")}         # a place takes … only
PICTURE_CELLS = {13: N_("a corner"), 12: N_("a middle place of the top or bottom row"),
                 11: N_("a middle place of the left or right column")}      # a picture goes in …
FREE_PLACES = {13: N_("corner"), 12: N_("place in the top or bottom row"),
               11: N_("place in the left or right column")}                 # no free … for it
COLOURS = {"red": N_("red"), "black": N_("black")}


def _part_words(key: str, value, places) -> str:
    """One part of a reason in the player's language, by what it is."""
    if value is None:
        return _("empty space")          # a move that names no card
    if isinstance(value, Card):
        return card_name(value)
    words = {"place": lambda: places(value) if places is not None else str(value),
             "rank": lambda: rank_words(value), "ranks": lambda: _(PICTURE_RANKS[value]),
             "cell": lambda: _(PICTURE_CELLS[value]), "free": lambda: _(FREE_PLACES[value]),
             "suit": lambda: _(SUITS[value]), "colour": lambda: term(COLOURS, value),
             "side": lambda: term(SIDES, value), "why": lambda: reason_words(value, full_stop=False)}
    said = words.get(key)
    return said() if said is not None else str(value)


def _reason_from_parts(text: str, places) -> str | None:
    """A Reason with a known code in the player's language, else None."""
    template = REASONS.get(getattr(text, "code", None))
    if template is None:
        return None
    parts = {key: _part_words(key, value, places) for key, value in text.parts.items()}
    if isinstance(template, tuple):
        said = ngettext(*template, text.parts["n"])
    else:
        said = _(template)
    said = said.format(**parts)
    if "path" in parts and text.code != "not-a-move":      # the board's refusals name the path first
        said = _("{path}: {reason}").format(path=parts["path"], reason=said)
    return said


RANKS = {1: N_("ace"), 2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"),
         7: N_("seven"), 8: N_("eight"), 9: N_("nine"), 10: N_("ten"), 11: N_("jack"),
         12: N_("queen"), 13: N_("king")}
SUITS = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}


def card_name(card) -> str:
    """'seven of hearts' in the player's language (the engine's ``Card.name``)."""
    return _("{rank} of {suit}").format(rank=_(RANKS[card.rank]), suit=_(SUITS[card.suit]))


def rank_words(rank: int) -> str:
    return _(RANKS[rank])


# The server's refusals a player meets most, by their code (docs/protocol.md): in
# another language than English a screen says these instead of the server's
# English sentence (which says the same with the names and numbers in it).
SERVER_REFUSALS = {
    "bad_password": N_("the name or the password is wrong"),
    "name_taken": N_("that name is taken"),
    "weak_password": N_("that password is too weak or too long"),
    "bad_name": N_("a name holds letters and digits of one alphabet"),
    "bad_session": N_("that session has ended: sign in again"),
    "rate_limited": N_("too many tries: wait a little and try again"),
    "banned": N_("this account is banned"),
    "needs_account": N_("guests have no account: register first"),
    "rated_needs_account": N_("sign in to play rated games"),
    "seat_taken": N_("that seat is taken"),
    "no_table": N_("there is no such table"),
    "not_your_turn": N_("it is not your turn"),
    "opponent_gone": N_("your opponent has left the table"),
    "muted": N_("a moderator muted you"),
    "too_many_tables": N_("you have too many tables waiting"),
    "bad_invite": N_("that table is private: it needs its invite code"),
    "no_player": N_("there is no such player"),
    "not_moderator": N_("only a moderator may do that"),
}


def server_refusal(code: str, said: str) -> str:
    """The server's refusal ``said`` (English) as the player reads it: by its
    ``code`` in the player's language where known, else as the server said it."""
    if language() != "en" and code in SERVER_REFUSALS:
        return _(SERVER_REFUSALS[code])
    return said
