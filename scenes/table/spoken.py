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


def card_words(card, face_up: bool = True) -> str:
    return card.name if face_up else "a face-down card"


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
            parts.append(f"{down} face-down card{'s' if down > 1 else ''}")
            down = 0
        parts.append(card.name)
    if down:
        parts.append(f"{down} face-down card{'s' if down > 1 else ''}")
    return ", ".join(parts) if parts else "empty"


def pile_line(name: str, cards) -> str:
    """'The third pile: the ace of spades, the two of hearts.'"""
    return f"{name[:1].upper()}{name[1:]}: {cards_words(cards)}."


def focus_line(name: str, cards, depth: int = 1, holding=None) -> str:
    """What is under the focus: the pile, its top card (or the ``depth`` cards
    from the top the focus covers), how many cards it holds, and what the
    player holds."""
    if not cards:
        what = "empty"
    else:
        card, face_up = cards[-depth] if depth <= len(cards) else cards[0]
        what = card_words(card, face_up)
        if depth > 1:
            what += f" and the {depth - 1} card{'s' if depth > 2 else ''} on it"
        if len(cards) > 1:
            what += f", {len(cards)} cards"
    line = f"{name[:1].upper()}{name[1:]}: {what}"
    if holding:
        line += f"; holding the {holding}"
    return line


def square_words(sq: int, piece) -> str:
    """'E9: white knight' / 'E9: empty'."""
    return f"{square_name(sq).upper()}: {f'{piece.color} {piece.kind}' if piece else 'empty'}"


def board_position_lines(pieces: dict, side_label) -> list[str]:
    """Each side's pieces, knights then men, by square: a line a side."""
    lines = []
    for color in ("white", "black"):
        mine = sorted((sq for sq, p in pieces.items() if p.color == color), key=square_name)
        kinds = []
        for kind in ("knight", "man"):
            squares = [square_name(sq).upper() for sq in mine if pieces[sq].kind == kind]
            if squares:
                kinds.append(f"{len(squares)} {kind}{'s' if len(squares) > 1 else ''} "
                             f"{', '.join(squares)}")
        lines.append(f"{side_label(color)} ({color}): {'; '.join(kinds) or 'no pieces'}.")
    return lines
