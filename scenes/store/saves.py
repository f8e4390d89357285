"""The game in progress, saved on quit and offered again at the next launch.

``save.json`` in the user's data folder: ``{version, game_id, seed, seconds,
engine: game.to_json(), extra}`` (``extra`` holds the board game's players).
Written atomically; a damaged save or one from a newer version is moved aside,
never overwritten, and the player is told in one line.
"""
from __future__ import annotations

from pathlib import Path

from game.base import Status

from .settings import data_dir, load_versioned, moved_aside_message, write_json_atomic

SAVE_FILE_VERSION = 1


def save_path() -> Path:
    return data_dir() / "save.json"


def in_progress(scene) -> bool:
    """A game worth saving: not a demo, started, not over."""
    game = getattr(scene, "game", None)
    return (game is not None and not getattr(scene, "demo", False)
            and game.status is Status.PLAYING and bool(game.history)
            and getattr(scene, "mode", "") is not None
            and getattr(scene, "keeps_save", True))   # an online game lives on its server


def save_game(scene) -> str | None:
    """Write the scene's game; returns a message if it could not be saved."""
    extra = {}
    for name in ("mode", "human", "level"):
        if hasattr(scene, name):
            extra[name] = getattr(scene, name)
    data = {"version": SAVE_FILE_VERSION, "game_id": scene.game_id, "seed": scene.seed,
            "seconds": round(getattr(scene, "play_seconds", 0.0), 1),
            "engine": scene.game.to_json(), "extra": extra}
    try:
        write_json_atomic(save_path(), data)
    except OSError as exc:
        return f"Could not save the game: {exc.strerror or exc}"
    return None


def rebuild_engine(data: dict):
    from game import game_class
    return game_class(data["game_id"]).from_json(data["engine"])


def _check(data: dict) -> None:
    from game import GAME_IDS
    from game.errors import RoundTableError

    from ..screens.navigation import has_scene
    game_id = data.get("game_id")
    if game_id not in GAME_IDS or not has_scene(game_id):
        raise ValueError(f"unknown game {game_id!r}")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("the deal number is missing")
    seconds = data.get("seconds", 0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
        raise ValueError("the time played is not a number")
    if not isinstance(data.get("engine"), dict) or not isinstance(data.get("extra", {}), dict):
        raise ValueError("the game is missing")
    extra = data.get("extra", {})
    if game_id == "camelot-board":
        from ..games.camelot_computer import LEVELS
        if (extra.get("mode") not in ("computer", "two") or extra.get("human") not in ("white", "black")
                or extra.get("level") not in LEVELS):
            raise ValueError("the players are missing")
    try:
        game = rebuild_engine(data)
    except RoundTableError as exc:
        raise ValueError(str(exc)) from None
    if game.status is not Status.PLAYING:
        raise ValueError("the saved game is already over")


def load_save(path: Path | None = None) -> tuple[dict | None, str | None]:
    """The saved game's data (None when there is none) and a one-line message
    when a bad file had to be moved aside."""
    path = path or save_path()
    data, message = load_versioned(path, SAVE_FILE_VERSION, "Saved game")
    if data is None:
        return None, message
    try:
        _check(data)
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


def describe(data: dict) -> str:
    """'Clock (deal 12)' or 'Camelot (board game)'."""
    from game import title
    from ..screens.navigation import scene_class
    name = title(data["game_id"])
    if getattr(scene_class(data["game_id"]), "has_deals", True):
        return f"{name} (deal {data['seed']})"
    return name


def resume_scene(app, data: dict):
    """The game scene with the saved game, exactly as it was left."""
    from ..screens.navigation import scene_class
    cls = scene_class(data["game_id"])
    extra = dict(data.get("extra") or {})
    kwargs = {k: extra[k] for k in ("mode", "human", "level") if k in extra}
    scene = cls(app, seed=data["seed"], game=rebuild_engine(data), **kwargs)
    scene.play_seconds = float(data.get("seconds", 0.0))
    return scene


__all__ = ["save_game", "load_save", "clear_save", "in_progress", "resume_scene", "describe",
           "save_path", "SAVE_FILE_VERSION"]
