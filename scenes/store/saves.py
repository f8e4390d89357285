"""The game in progress, saved on quit and offered again at the next launch.

``save.json`` in the user's data folder: ``{version, game_id, seed, seconds,
engine: game.to_json(), extra}`` (``extra`` holds the options the game was
started with, e.g. the board game's players: ``scene.saved_options()``).
Written atomically; a damaged save or one from a newer version is moved aside,
never overwritten, and the player is told in one line. This layer knows the
engine, not the scenes: whoever loads a save passes the check of its options
(``scenes.games.check_saved``), and builds the scene from it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from game import GAME_IDS, game_class
from game.base import Status
from game.errors import RoundTableError

from .settings import data_dir, load_versioned, moved_aside_message, write_json_atomic

SAVE_FILE_VERSION = 1


def save_path() -> Path:
    return data_dir() / "save.json"


def in_progress(scene) -> bool:
    """A game worth saving: not a demo, started, not over."""
    game = getattr(scene, "game", None)
    return (game is not None and not getattr(scene, "demo", False)
            and game.status is Status.PLAYING and bool(game.history)
            and getattr(scene, "mode", "") is not None)


def save_game(scene) -> str | None:
    """Write the scene's game; returns a message if it could not be saved."""
    extra = scene.saved_options()
    data = {"version": SAVE_FILE_VERSION, "game_id": scene.game_id, "seed": scene.seed,
            "seconds": round(getattr(scene, "play_seconds", 0.0), 1),
            "engine": scene.game.to_json(), "extra": extra}
    try:
        write_json_atomic(save_path(), data)
    except OSError as exc:
        return f"Could not save the game: {exc.strerror or exc}"
    return None


def rebuild_engine(data: dict):
    return game_class(data["game_id"]).from_json(data["engine"])


def _check(data: dict, check_options: Callable[[str, dict], None] | None) -> None:
    game_id = data.get("game_id")
    if game_id not in GAME_IDS:
        raise ValueError(f"unknown game {game_id!r}")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("the deal number is missing")
    seconds = data.get("seconds", 0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
        raise ValueError("the time played is not a number")
    if not isinstance(data.get("engine"), dict) or not isinstance(data.get("extra", {}), dict):
        raise ValueError("the game is missing")
    if check_options is not None:
        check_options(game_id, data.get("extra", {}))
    try:
        game = rebuild_engine(data)
    except RoundTableError as exc:
        raise ValueError(str(exc)) from None
    if game.status is not Status.PLAYING:
        raise ValueError("the saved game is already over")


def load_save(path: Path | None = None,
              check_options: Callable[[str, dict], None] | None = None) -> tuple[dict | None, str | None]:
    """The saved game's data (None when there is none) and a one-line message
    when a bad file had to be moved aside. ``check_options(game_id, extra)``
    raises ValueError when the game cannot be played with the saved options."""
    path = path or save_path()
    data, message = load_versioned(path, SAVE_FILE_VERSION, "Saved game")
    if data is None:
        return None, message
    try:
        _check(data, check_options)
    except (ValueError, TypeError, KeyError) as exc:
        return None, moved_aside_message(path, "Saved game", exc)
    return data, None


def clear_save() -> None:
    try:
        save_path().unlink()
    except FileNotFoundError:
        pass
    except OSError:
        pass


__all__ = ["save_game", "load_save", "clear_save", "in_progress", "rebuild_engine", "save_path",
           "SAVE_FILE_VERSION"]
