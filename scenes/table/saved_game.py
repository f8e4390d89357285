"""A game scene's saved game, one helper for the patience scenes
(``GameScene``) and the board game: the game in progress kept when the app
quits, and an old save made stale when a new game starts. The scenes bind
these as their methods (``Scene.save_on_quit`` is the app's hook)."""
from __future__ import annotations

from ..store.saves import clear_save, in_progress, save_game


def save_on_quit(scene) -> str | None:
    """The app is quitting: keep the game if it is one in progress; a line
    when it could not be kept."""
    return save_game(scene) if in_progress(scene) else None


def new_game_started(scene) -> None:
    """A fresh game or a restart: a new time, no result recorded yet, no help
    used; and a save of an earlier game is stale (a demo's own keeps it)."""
    scene.play_seconds = 0.0
    scene.recorded_game = None
    scene.assisted = False
    if not scene.demo:
        clear_save()
