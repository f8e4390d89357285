"""Going from scene to scene (lazy imports keep start-up fast and avoid cycles)."""
from __future__ import annotations

import importlib

from game import GAME_IDS, title

# game id → "module:Class" of its scene; a game without a scene yet is missing.
GAME_SCENES = {
    "camelot-solitaire": "scenes.games.camelot_solitaire_scene:CamelotSolitaireScene",
    "hamilton": "scenes.games.hamilton_scene:HamiltonScene",
    "clock": "scenes.games.clock_scene:ClockScene",
    "camelot-board": "scenes.games.camelot_board_scene:CamelotBoardScene",
}


def has_scene(game_id: str) -> bool:
    return game_id in GAME_SCENES


def scene_class(game_id: str):
    module_name, class_name = GAME_SCENES[game_id].split(":")
    return getattr(importlib.import_module(module_name), class_name)


def open_menu(app) -> None:
    from .menu import MenuScene
    app.scenes.reset(MenuScene(app))


def open_game(app, game_id: str, seed: int | None = None, demo: bool = False,
              cycle: bool = False) -> None:
    """Show a game; ``demo`` lets the computer play; ``cycle`` (attract mode)
    moves on to the next game after each demo game."""
    if not demo and app.settings.last_game != game_id:
        app.settings.last_game = game_id   # the menu's focus starts there next time
        app.save_settings()
    scene = scene_class(game_id)(app, seed=seed, demo=demo)
    scene.demo_cycle = cycle
    app.scenes.reset(scene)


def playable_games() -> list[str]:
    return [gid for gid in GAME_IDS if has_scene(gid)]


__all__ = ["GAME_SCENES", "has_scene", "scene_class", "open_menu", "open_game",
           "playable_games", "title"]
