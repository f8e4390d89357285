"""The game in progress, saved on quit and offered again at the next launch.

``save.json`` in the user's data folder: ``{version, game_id, seed, seconds,
engine: game.to_json(), extra, assisted}`` (``extra`` holds the options the game was
started with, e.g. the board game's players: ``scene.saved_options()``).
Written atomically; a damaged save or one from a newer version is moved aside,
never overwritten, and the player is told in one line. A save that is there but
cannot be opened or read (permissions, a read error) is left as it is at the
start; a game saved later sets it aside first, and a new deal never deletes it. This layer knows the
engine, not the scenes: whoever loads a save passes the check of its options
(``scenes.games.check_saved``), and builds the scene from it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from game import GAME_IDS, game_class
from game.errors import RoundTableError
from game.parsing import MAX_SEED

from .files import (LEFT_AS_IT_IS, DamagedFileError, UnreachableFileError, load_versioned,
                    move_aside, moved_aside_message, one_line, read_bytes, shown,
                    write_json_atomic)
from .schema import MAX_SECONDS, choice, flag, mapping, number, sequence, whole
from .settings import data_dir
from .words import N_, _

SAVE_FILE_VERSION = 1
SAVE_MAX_BYTES = 1024 * 1024    # a long board game is ~30 KB
MAX_MOVES = 10_000              # a replay stays quick; no real game comes near
BOARD_PLAYERS = ("mode", "human", "level")   # what a board-game save's ``extra`` holds


def save_path() -> Path:
    return data_dir() / "save.json"


def in_progress(scene) -> bool:
    """A game worth saving: not a demo, started, not over."""
    from game.base import Status  # start-up: the engines' base loads with a game, not the menu
    game = getattr(scene, "game", None)
    return (game is not None and not getattr(scene, "demo", False)
            and game.status is Status.PLAYING and bool(game.history)
            and getattr(scene, "mode", "") is not None)


def save_game(scene) -> str | None:
    """Write the scene's game; returns a message if it could not be saved."""
    extra = scene.saved_options()
    data = {"version": SAVE_FILE_VERSION, "game_id": scene.game_id, "seed": scene.seed,
            "seconds": round(min(getattr(scene, "play_seconds", 0.0), MAX_SECONDS), 1),
            "engine": scene.game.to_json(), "extra": extra,
            "assisted": bool(getattr(scene, "assisted", False))}   # help used: never a clean win
    path = save_path()
    problem = _unreadable(path)
    note = None
    if problem is not None:           # someone's save we could not read: keep it, under a new name
        try:
            note = _("Saved game {problem}; kept as {name}, this game saved.").format(
            problem=problem, name=move_aside(path).name)
        except OSError:
            return _("Could not save the game: save.json {problem}; {left}").format(
                problem=problem, left=_(LEFT_AS_IT_IS))
    try:
        write_json_atomic(path, data)
    except (OSError, ValueError) as exc:
        return _("Could not save the game: {problem}").format(problem=getattr(exc, "strerror", None) or exc)
    return note


def _unreadable(path: Path) -> str | None:
    """Why the file at ``path`` cannot be opened or read ("could not be
    opened (Permission denied)"), or None: there is none, or it reads (a
    damaged one was set aside when it was loaded)."""
    try:
        read_bytes(path, SAVE_MAX_BYTES)
    except UnreachableFileError as exc:
        return str(exc)
    except DamagedFileError:
        return None
    return None


def rebuild_engine(data: dict):
    return game_class(data["game_id"]).from_json(data["engine"])


def _check(data: dict, check_options: Callable[[str, dict], None] | None) -> None:
    """Every field against the save's schema and its game; DamagedFileError (or
    the ValueError of ``check_options``) says which is wrong. Nothing is resumed
    that a scene could not take as it is."""
    game_id = choice(data.get("game_id"), "game", GAME_IDS)
    if data.get("seed") is None:
        raise DamagedFileError("the deal number is missing")
    seed = whole(data.get("seed"), "the deal number", 0, MAX_SEED)
    number(data.get("seconds", 0), "the time played", 0, MAX_SECONDS)
    flag(data.get("assisted", False), "assisted")
    engine = mapping(data.get("engine"), "the game")
    sequence(engine.get("moves"), "the moves", MAX_MOVES)
    start = engine.get("start")
    if isinstance(start, dict) and "seed" in start and start["seed"] != seed:
        raise DamagedFileError(f"the game is deal {shown(start['seed'])}, not deal {seed}")
    extra = mapping(data.get("extra", {}), "the players")
    if check_options is not None:
        check_options(game_id, extra)
    try:
        game = rebuild_engine(data)
    except RoundTableError as exc:
        raise DamagedFileError(one_line(exc, 100)) from None
    from game.base import Status  # start-up: loaded with the saved game's engine just above
    if game.status is not Status.PLAYING:
        raise DamagedFileError("the saved game is already over")


def load_save(path: Path | None = None,
              check_options: Callable[[str, dict], None] | None = None) -> tuple[dict | None, str | None]:
    """The saved game's data (None when there is none) and a one-line message
    when a bad file had to be moved aside. ``check_options(game_id, extra)``
    raises ValueError when the game cannot be played with the saved options."""
    path = path or save_path()
    data, message = load_versioned(path, SAVE_FILE_VERSION, N_("Saved game"), SAVE_MAX_BYTES)
    if data is None:
        return None, message
    try:
        _check(data, check_options)
    except (ValueError, TypeError, KeyError) as exc:
        return None, moved_aside_message(path, N_("Saved game"), exc)
    return data, None


def clear_save() -> None:
    """The game the save held is over or replaced. A save that cannot be read
    is not that game's: it stays, as the start of the app said it would."""
    if _unreadable(save_path()) is not None:
        return
    try:
        save_path().unlink()
    except FileNotFoundError:
        pass
    except OSError:
        pass


__all__ = ["save_game", "load_save", "clear_save", "in_progress", "rebuild_engine", "save_path",
           "SAVE_FILE_VERSION"]
