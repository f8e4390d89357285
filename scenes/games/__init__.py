"""The game scenes, each built on the table layer, and the games' descriptors.

:data:`GAMES` is the one list of games on screen, in the menu's order: a
descriptor per game (``<game>_descriptor.py``, next to its scene module). The
scenes themselves are imported only when a game opens.
"""
from __future__ import annotations

import threading

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


_warming: threading.Thread | None = None


def warm_scene_modules(size: tuple[int, int]) -> threading.Thread:
    """Load every game's scene module in a background thread (once), and draw
    what a game's first frame needs in a window of ``size`` where its
    descriptor says how (``warm``): started when the menu is on screen, so that
    opening a game later waits for neither (together most of the board game's
    opening at 4K). The frame loop keeps
    going meanwhile: it sleeps most of each menu frame, and gets the GIL back
    within the interpreter's switch interval when it wakes. Not a daemon: an
    app that quits at once waits for the module being loaded (a few tens of
    ms) and ends cleanly, never in the middle of an import."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=_load_scene_modules, args=(size,),
                                    name="warm-scene-modules")
        _warming.start()
    return _warming


def _load_scene_modules(size: tuple[int, int]) -> None:
    from ..table.painted_scene import prepare_spare_blocks  # start-up: loaded behind the menu
    steps = [step for game in GAMES.values()
             for step in (game.scene_class, lambda game=game: game.warm and game.warm(size))]
    for step in steps + [prepare_spare_blocks]:   # then the memory a game's background is kept in
        if not threading.main_thread().is_alive():
            return                  # the app has quit: the rest is not wanted
        try:
            step()
        except Exception:  # noqa: BLE001 - opening that game will raise it, where it is seen
            pass


__all__ = ["GAMES", "GameDescriptor", "descriptor", "playable_games", "check_saved_options",
           "warm_scene_modules"]
