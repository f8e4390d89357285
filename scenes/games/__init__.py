"""The game scenes, each built on the table layer, and the games' descriptors.

:data:`GAMES` is the one list of games on screen, in the menu's order: a
descriptor per game (``<game>_descriptor.py``, next to its scene module). The
scenes themselves are imported only when a game opens.
"""
from __future__ import annotations

from .camelot_board_descriptor import CAMELOT_BOARD
from .camelot_solitaire_descriptor import CAMELOT_SOLITAIRE
from .clock_descriptor import CLOCK
from .descriptor import GameDescriptor
from .hamilton_descriptor import HAMILTON

GAMES: dict[str, GameDescriptor] = {d.id: d for d in (CAMELOT_SOLITAIRE, HAMILTON, CLOCK, CAMELOT_BOARD)}


def descriptor(game_id: str) -> GameDescriptor:
    """The game's descriptor; ValueError for a game the app cannot show."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game_id!r}") from None


def playable_games() -> list[str]:
    return list(GAMES)


def check_saved_options(game_id: str, saved: dict) -> None:
    """For :func:`scenes.store.saves.load_save`: the game can be shown, and
    with the options it was saved with (ValueError if not)."""
    descriptor(game_id).options.check(game_id, saved)


__all__ = ["GAMES", "GameDescriptor", "descriptor", "playable_games", "check_saved_options"]
