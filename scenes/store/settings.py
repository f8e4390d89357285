"""Player settings, kept as versioned JSON where platformdirs says config lives.

Written atomically (temp file + rename). A file that is damaged or from a newer
version is moved aside, never overwritten, and the player is told in one line.
``ROUNDTABLE_HOME`` overrides the folder (tests, portable installs).
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

SETTINGS_VERSION = 1
ANIMATION_SPEEDS = {"slow": 0.6, "normal": 1.0, "fast": 1.8, "instant": 100.0}


def config_dir() -> Path:
    home = os.environ.get("ROUNDTABLE_HOME")
    if home:
        return Path(home)
    import platformdirs
    return Path(platformdirs.user_config_dir("roundtable", appauthor=False))


def data_dir() -> Path:
    """Where statistics and the saved game live (``ROUNDTABLE_HOME`` too)."""
    home = os.environ.get("ROUNDTABLE_HOME")
    if home:
        return Path(home)
    import platformdirs
    return Path(platformdirs.user_data_dir("roundtable", appauthor=False))


def load_versioned(path: Path, version: int, what: str) -> tuple[dict | None, str | None]:
    """A JSON object with this ``version`` read from ``path``: (data, None);
    (None, None) when there is no file; (None, one-line message) when it was
    damaged or from a newer version, after moving it aside (never overwritten).
    ``what`` names the file in the message ("Statistics file")."""
    if not path.exists():
        return None, None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if data.get("version") != version:
            raise ValueError(f"version {data.get('version')!r}, expected {version}")
        return data, None
    except (OSError, ValueError, TypeError) as exc:
        return None, moved_aside_message(path, what, exc)


def moved_aside_message(path: Path, what: str, problem) -> str:
    """Move a bad file aside and say so in one line."""
    try:
        aside = move_aside(path)
        where = f"kept as {aside.name}"
    except OSError:
        where = "left in place"
    return f"{what} was unreadable ({problem}); {where}."


@dataclass
class Settings:
    fullscreen: bool = True
    animation_speed: str = "normal"
    sound: bool = True
    volume: float = 0.8
    card_back: str = "blue"
    last_game: str | None = None
    winnable_only: bool = True       # patience deals only from the proven-winnable lists
    winnable_indicator: bool = True  # the HUD says whether the position can still be won

    @property
    def speed_factor(self) -> float:
        return ANIMATION_SPEEDS.get(self.animation_speed, 1.0)

    def validate(self) -> None:
        if not isinstance(self.fullscreen, bool) or not isinstance(self.sound, bool):
            raise ValueError("fullscreen and sound must be true or false")
        for name in ("winnable_only", "winnable_indicator"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if self.animation_speed not in ANIMATION_SPEEDS:
            raise ValueError(f"unknown animation speed {self.animation_speed!r}")
        if (isinstance(self.volume, bool) or not isinstance(self.volume, (int, float))
                or not 0 <= self.volume <= 1):
            raise ValueError(f"volume must be a number from 0 to 1, not {self.volume!r}")
        from ..table.card_art import BACK_STYLES
        if self.card_back not in BACK_STYLES:
            raise ValueError(f"unknown card back {self.card_back!r}")
        from game import GAME_IDS
        if self.last_game is not None and self.last_game not in GAME_IDS:
            raise ValueError(f"unknown game {self.last_game!r}")


def write_json_atomic(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def move_aside(path: Path) -> Path:
    """Keep a bad file for the player (or a bug report) under a new name."""
    aside = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
    n = 1
    while aside.exists():
        aside = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
        n += 1
    os.replace(path, aside)
    return aside


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, or defaults; the second value is a message for the
    player when the file had to be put aside."""
    path = path or config_dir() / "settings.json"
    if not path.exists():
        return Settings(), None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if data.get("version") != SETTINGS_VERSION:
            raise ValueError(f"version {data.get('version')!r}, expected {SETTINGS_VERSION}")
        known = {f.name for f in fields(Settings)}
        settings = Settings(**{k: v for k, v in data.items() if k in known})
        settings.validate()
        return settings, None
    except (OSError, ValueError, TypeError) as exc:
        try:
            aside = move_aside(path)
            where = f"kept as {aside.name}"
        except OSError:
            where = "left in place"
        return Settings(), f"Settings file was unreadable ({exc}); using defaults, {where}."


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Save; returns an error message instead of raising (a full disk must not
    crash the game)."""
    path = path or config_dir() / "settings.json"
    try:
        write_json_atomic(path, {"version": SETTINGS_VERSION, **asdict(settings)})
    except OSError as exc:
        return f"Could not save settings: {exc.strerror or exc}"
    return None
