"""Round Table's engine: rules, deals, notation, players, solvers — no pygame.

``game.GAME_IDS`` lists the four games; ``game.game_class(id)`` gives a game's
class (imported on first use, so the menu starts fast).
"""
from __future__ import annotations

import importlib

from .errors import UnknownGameError

# id → (module, class name, title). The order is the menu's order.
GAMES: dict[str, tuple[str, str, str]] = {
    "camelot-solitaire": ("game.camelot_solitaire", "CamelotSolitaire", "Camelot (patience)"),
    "hamilton": ("game.hamilton", "Hamilton", "Hamilton"),
    "clock": ("game.clock", "Clock", "Clock"),
    "camelot-board": ("game.camelot_board", "CamelotBoard", "Camelot (board game)"),
}
GAME_IDS = tuple(GAMES)


def check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or game_id not in GAMES:
        shown = repr(game_id) if len(repr(game_id)) <= 40 else repr(game_id)[:40] + "…"
        raise UnknownGameError(
            f"unknown game {shown}; the games are: {', '.join(GAME_IDS)}")
    return game_id


def game_class(game_id: str):
    """The class of a game. Raises UnknownGameError, or UnknownGameError too when
    the game's module is not written yet."""
    module_name, class_name, _ = GAMES[check_game_id(game_id)]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise UnknownGameError(f"game {game_id!r} is not available yet") from None
    return getattr(module, class_name)


def is_available(game_id: str) -> bool:
    try:
        game_class(game_id)
    except UnknownGameError:
        return False
    return True


def title(game_id: str) -> str:
    return GAMES[check_game_id(game_id)][2]
