"""The tables in words, for the announcer (scenes.core.announcer).

A pile is named as the player sees it (the scene's ``pile_words``) and its
cards by the engine's names; a face-down card is said as such, never named.
The board's squares by the names its coordinates show (the engine's).
"""
from __future__ import annotations



def square_name(sq: int) -> str:
    """The board's name of a square (the engine's)."""
    # start-up: a patience opens without the board's geometry (its tables take ms to build)
    from game.camelot.geometry import square_name as named
    return named(sq)

from ..store.terms import SIDES, card_name, term
from ..store.words import _, N_, ngettext

PIECES = {"knight": N_("knight"), "man": N_("man")}


def card_words(card, face_up: bool = True) -> str:
    return card_name(card) if face_up else _("a face-down card")


def cards_words(cards) -> str:
    """'the seven of clubs, the eight of hearts' from a pile's (card, face up)
    pairs, bottom to top; runs of face-down cards counted ('3 face-down cards')."""
    parts: list[str] = []
    down = 0
    for card, face_up in cards:
        if not face_up:
            down += 1
            continue
        if down:
            parts.append(_face_down(down))
            down = 0
        parts.append(card_name(card))
    if down:
        parts.append(_face_down(down))
    return ", ".join(parts) if parts else _("empty")


def _face_down(n: int) -> str:
    return ngettext("{n} face-down card", "{n} face-down cards", n).format(n=n)


def pile_line(name: str, cards) -> str:
    """'The third pile: the ace of spades, the two of hearts.'"""
    return _("{pile}: {cards}.").format(pile=name[:1].upper() + name[1:], cards=cards_words(cards))


def focus_line(name: str, cards, depth: int = 1, holding=None) -> str:
    """What is under the focus: the pile, its top card (or the ``depth`` cards
    from the top the focus covers), how many cards it holds, and what the
    player holds."""
    if not cards:
        what = _("empty")
    else:
        card, face_up = cards[-depth] if depth <= len(cards) else cards[0]
        what = card_words(card, face_up)
        if depth > 1:
            what = ngettext("{cards} and the {n} card on it", "{cards} and the {n} cards on it",
                            depth - 1).format(cards=what, n=depth - 1)
        if len(cards) > 1:
            what = ngettext("{cards}, {n} card", "{cards}, {n} cards", len(cards)).format(
                cards=what, n=len(cards))
    line = _("{pile}: {cards}").format(pile=name[:1].upper() + name[1:], cards=what)
    if holding:
        line = _("{line}; holding the {card}").format(line=line, card=holding)
    return line


def square_words(sq: int, piece) -> str:
    """'E9: white knight' / 'E9: empty'."""
    what = (_("{side} {piece}").format(side=term(SIDES, piece.color).lower(), piece=_(PIECES[piece.kind]))
            if piece else _("empty"))
    return f"{square_name(sq).upper()}: {what}"


def board_position_lines(pieces: dict, side_label) -> list[str]:
    """Each side's pieces, knights then men, by square: a line a side."""
    lines = []
    for color in ("white", "black"):
        mine = sorted((sq for sq, p in pieces.items() if p.color == color), key=square_name)
        kinds = []
        for kind in ("knight", "man"):
            squares = [square_name(sq).upper() for sq in mine if pieces[sq].kind == kind]
            if squares:
                kinds.append((ngettext("{n} knight {squares}", "{n} knights {squares}", len(squares))
                              if kind == "knight" else
                              ngettext("{n} man {squares}", "{n} men {squares}", len(squares))).format(
                                  n=len(squares), squares=", ".join(squares)))
        lines.append(_("{name} ({side}): {pieces}.").format(
            name=side_label(color), side=term(SIDES, color).lower(), pieces="; ".join(kinds) or _("no pieces")))
    return lines
