"""The game in progress, saved on quit and offered again at the next launch.

``save.json`` in the user's data folder: ``{version, game_id, seed, seconds,
engine: game.to_json(), extra}`` (``extra`` holds the board game's players).
Written atomically; a damaged save or one from a newer version is moved aside,
never overwritten, and the player is told in one line.
"""
from __future__ import annotations

from pathlib import Path

from game.base import Status
from game.parsing import MAX_SEED

from .files import (DamagedFileError, load_versioned, moved_aside_message, one_line, shown,
                    write_json_atomic)
from .schema import MAX_SECONDS, choice, mapping, number, sequence, whole
from .settings import data_dir

SAVE_FILE_VERSION = 1
SAVE_MAX_BYTES = 1024 * 1024    # a long board game is ~30 KB
MAX_MOVES = 10_000              # a replay stays quick; no real game comes near
BOARD_PLAYERS = ("mode", "human", "level")   # what a board-game save's ``extra`` holds


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
    extra = {}
    for name in BOARD_PLAYERS:
        if hasattr(scene, name):
            extra[name] = getattr(scene, name)
    data = {"version": SAVE_FILE_VERSION, "game_id": scene.game_id, "seed": scene.seed,
            "seconds": round(min(getattr(scene, "play_seconds", 0.0), MAX_SECONDS), 1),
            "engine": scene.game.to_json(), "extra": extra}
    try:
        write_json_atomic(save_path(), data)
    except (OSError, ValueError) as exc:
        return f"Could not save the game: {getattr(exc, 'strerror', None) or exc}"
    return None


def rebuild_engine(data: dict):
    from game import game_class
    return game_class(data["game_id"]).from_json(data["engine"])


def _check(data: dict) -> None:
    """Every field against the save's schema and its game; DamagedFileError says
    which is wrong. Nothing is resumed that a scene could not take as it is."""
    from game import GAME_IDS
    from game.errors import RoundTableError

    from ..screens.navigation import has_scene
    game_id = choice(data.get("game_id"), "game", GAME_IDS)
    if not has_scene(game_id):
        raise DamagedFileError(f"{game_id} cannot be played yet")
    if data.get("seed") is None:
        raise DamagedFileError("the deal number is missing")
    seed = whole(data.get("seed"), "the deal number", 0, MAX_SEED)
    number(data.get("seconds", 0), "the time played", 0, MAX_SECONDS)
    engine = mapping(data.get("engine"), "the game")
    sequence(engine.get("moves"), "the moves", MAX_MOVES)
    start = engine.get("start")
    if isinstance(start, dict) and "seed" in start and start["seed"] != seed:
        raise DamagedFileError(f"the game is deal {shown(start['seed'])}, not deal {seed}")
    extra = mapping(data.get("extra", {}), "the players")
    if game_id == "camelot-board":
        from ..games.camelot_computer import LEVELS
        if set(extra) != set(BOARD_PLAYERS):
            raise DamagedFileError("the players are missing")
        choice(extra["mode"], "mode", ("computer", "two"))
        choice(extra["human"], "side", ("white", "black"))
        choice(extra["level"], "level", LEVELS)
    elif extra:
        raise DamagedFileError(f"{game_id} takes no {', '.join(sorted(map(shown, extra)))}")
    try:
        game = rebuild_engine(data)
    except RoundTableError as exc:
        raise DamagedFileError(one_line(exc, 100)) from None
    if game.status is not Status.PLAYING:
        raise DamagedFileError("the saved game is already over")


def load_save(path: Path | None = None) -> tuple[dict | None, str | None]:
    """The saved game's data (None when there is none) and a one-line message
    when it could not be used (a damaged one is moved aside)."""
    path = path or save_path()
    data, message = load_versioned(path, SAVE_FILE_VERSION, "Saved game", SAVE_MAX_BYTES)
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
    kwargs = {k: extra[k] for k in BOARD_PLAYERS if k in extra}
    scene = cls(app, seed=data["seed"], game=rebuild_engine(data), **kwargs)
    scene.play_seconds = float(data.get("seconds", 0.0))
    return scene


__all__ = ["save_game", "load_save", "clear_save", "in_progress", "resume_scene", "describe",
           "save_path", "SAVE_FILE_VERSION"]
