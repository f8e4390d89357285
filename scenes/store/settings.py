"""Player settings, kept as versioned JSON in the user's config folder (XDG on Linux, platformdirs elsewhere).

Read and written through files.py (bounded reading, atomic writing); every value
is checked against the schema in ``Settings.from_json``. A file that is damaged or
from a newer version is moved aside, never overwritten, and the player is told in
one line.
``ROUNDTABLE_HOME`` overrides the folder (tests, portable installs).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NamedTuple

from game import GAME_IDS

from .files import (PROBE_PREFIX, DamagedFileError, clean_stale_temps, folder_problem, load_versioned,
                    moved_aside_message, write_json_atomic)
from .schema import choice, flag, number, whole
from .words import _, LANGUAGES, N_, SYSTEM

SETTINGS_VERSION = 1
SETTINGS_MAX_BYTES = 64 * 1024     # ours is ~250 bytes
KEPT_FILES = ("settings.json", "stats.json", "save.json")
ANIMATION_SPEEDS = {"slow": 0.6, "normal": 1.0, "fast": 1.8, "instant": 100.0}
# The card backs by name, in the settings screen's order; their colours are the
# card art's (scenes.table.card_art.CARD_BACKS), which has these names.
CARD_BACKS = ("blue", "red", "green", "purple", "black")
TEXT_SCALES = (100, 125, 150, 175, 200)   # per cent: the size of text and controls


class SeeingChoice(NamedTuple):
    """A setting for seeing the table, as the Settings screen shows it: its
    field, its name, its values in order and the words for each, and a line
    saying what it does."""
    field: str
    title: str
    values: tuple
    words: tuple[str, ...]
    description: str


# The Settings screen's rows for them, in its order (the screen reads this list).
SEEING_CHOICES = (
    SeeingChoice("four_colour", N_("Card colours"), (False, True), (N_("Red and black"), N_("Four colours")),
                 N_("Four colours: clubs green and diamonds blue, so no two suits look alike "
                 "(hearts red, spades black).")),
    SeeingChoice("high_contrast", N_("Contrast"), (False, True), (N_("Normal"), N_("High")),
                 N_("High: a dark plain table, white cards edged in black, deep suit colours "
                 "and thicker rings.")),
    SeeingChoice("reduced_motion", N_("Motion"), (False, True), (N_("Full"), N_("Reduced")),
                 N_("Reduced: moves and deals are placed at once; no flights, no win wheel, "
                 "no fades.")),
    SeeingChoice("text_scale", N_("Text size"), TEXT_SCALES, tuple(f"{n} %" for n in TEXT_SCALES),
                 N_("Text and buttons from 100 % to 200 % of their usual size.")),
)
# For a player who cannot see the screen (scenes.core.announcer): a row of the same kind.
SPEECH_CHOICE = SeeingChoice("speech", N_("Speech"), (False, True), (N_("Off"), N_("On")),
                             N_("On: focus moves, moves, refusals, hints and the end of a game are "
                             "spoken (F2 or the right stick's click reads the whole position)."))
# A touch screen (a Steam Deck): controls a finger can hit (scenes.core.ui.touch_target).
TOUCH_CHOICE = SeeingChoice("touch_controls", N_("Touch controls"), (False, True),
                            (N_("When a finger is used"), N_("Always")),
                            N_("Large buttons a finger can hit (at least 9 mm on a Steam Deck): "
                            "from the first touch of the screen, or always."))
CHOICE_ROWS = SEEING_CHOICES + (SPEECH_CHOICE, TOUCH_CHOICE)   # the Settings screen's rows of choices


def seeing_words(settings: "Settings", seeing: SeeingChoice) -> str:
    """'Card colours: Four colours' — a row's label, in the player's language."""
    value = getattr(settings, seeing.field)
    return _("{setting}: {value}").format(setting=_(seeing.title),
                                          value=_(seeing.words[seeing.values.index(value)]))


def step_seeing(settings: "Settings", seeing: SeeingChoice, step: int = 1) -> None:
    """The next (or previous) value of one of the seeing settings, round."""
    values = seeing.values
    here = values.index(getattr(settings, seeing.field))
    setattr(settings, seeing.field, values[(here + step) % len(values)])


# On Linux the user's folders are the XDG base directories, read here: the
# platformdirs package would cost some ms of every launch to import (it
# compiles regular expressions for folders the app never asks for).
XDG_FOLDERS = {"config": ("XDG_CONFIG_HOME", "~/.config"), "data": ("XDG_DATA_HOME", "~/.local/share"),
               "cache": ("XDG_CACHE_HOME", "~/.cache")}


def _user_dir(kind: str) -> Path:
    """The app's folder of ``kind`` (config, data, cache) for this user."""
    if sys.platform.startswith("linux"):
        variable, fallback = XDG_FOLDERS[kind]
        base = os.environ.get(variable, "")
        if not os.path.isabs(base):          # unset, empty or relative: the spec says ignore it
            base = os.path.expanduser(fallback)
        return Path(base) / "roundtable"
    import platformdirs  # start-up: elsewhere only, see above
    return Path(getattr(platformdirs, f"user_{kind}_dir")("roundtable", appauthor=False))


def config_dir() -> Path:
    home = os.environ.get("ROUNDTABLE_HOME")
    if home:
        return Path(home)
    return _user_dir("config")


def data_dir() -> Path:
    """Where statistics and the saved game live (``ROUNDTABLE_HOME`` too)."""
    home = os.environ.get("ROUNDTABLE_HOME")
    if home:
        return Path(home)
    return _user_dir("data")


def cache_dir() -> Path:
    """What the app can make again, kept to be quicker (``ROUNDTABLE_HOME/cache``
    under ``ROUNDTABLE_HOME``)."""
    home = os.environ.get("ROUNDTABLE_HOME")
    if home:
        return Path(home) / "cache"
    return _user_dir("cache")


def prepare_folders() -> str | None:
    """At start: check the settings and data folders can be written (made if
    need be) and remove the temp files an interrupted write left there. None
    when all is well, else one line for the player: nothing will be kept."""
    for folder in dict.fromkeys((config_dir(), data_dir())):
        problem = folder_problem(folder)
        if problem:
            shown = str(folder) if len(str(folder)) <= 100 else "…" + str(folder)[-99:]
            return _("Cannot write in {folder} ({problem}): settings and statistics "
                     "will not be kept after you quit.").format(folder=shown, problem=problem)
        clean_stale_temps(folder, KEPT_FILES + (PROBE_PREFIX,))
    return None


class Settings:
    """The player's choices, kept in settings.json. A plain class, not a
    dataclass: it is made before the first frame, and a dataclass's generated
    methods cost half a ms of every launch (start-up)."""

    FIELDS = ("fullscreen", "animation_speed", "sound", "volume", "card_back", "last_game",
              "winnable_only", "winnable_indicator", "eval_bar",
              "four_colour", "high_contrast", "reduced_motion", "text_scale", "speech",
              "touch_controls", "language")

    def __init__(self, fullscreen: bool = True, animation_speed: str = "normal", sound: bool = True,
                 volume: float = 0.8, card_back: str = "blue", last_game: str | None = None,
                 winnable_only: bool = True, winnable_indicator: bool = True,
                 eval_bar: bool = False, four_colour: bool = False, high_contrast: bool = False,
                 reduced_motion: bool = False, text_scale: int = 100, speech: bool = False,
                 touch_controls: bool = False, language: str = SYSTEM) -> None:
        self.fullscreen = fullscreen
        self.animation_speed = animation_speed
        self.sound = sound
        self.volume = volume
        self.card_back = card_back
        self.last_game = last_game
        self.winnable_only = winnable_only            # patience deals only from the proven-winnable lists
        self.winnable_indicator = winnable_indicator  # the HUD says whether the position can still be won
        self.eval_bar = eval_bar                      # the board game: the engine's evaluation beside the board
        self.four_colour = four_colour                # clubs green, diamonds blue (SEEING_CHOICES)
        self.high_contrast = high_contrast
        self.reduced_motion = reduced_motion          # everything placed at once (speed_factor)
        self.text_scale = text_scale                  # per cent, one of TEXT_SCALES
        self.speech = speech                          # announcements spoken (scenes.core.announcer)
        self.touch_controls = touch_controls          # touch mode always, not only once a finger is used
        self.language = language                      # a code of LANGUAGES, or "system" (store.words)

    def to_json(self) -> dict:
        return {name: getattr(self, name) for name in self.FIELDS}

    def __eq__(self, other) -> bool:
        return isinstance(other, Settings) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"Settings({', '.join(f'{k}={v!r}' for k, v in self.to_json().items())})"

    @property
    def speed_factor(self) -> float:
        if self.reduced_motion:     # every tween ends within its first frame
            return ANIMATION_SPEEDS["instant"]
        return ANIMATION_SPEEDS.get(self.animation_speed, 1.0)

    def validate(self) -> None:
        """Raise DamagedFileError (a ValueError) for a value outside the schema."""
        Settings.from_json(self.to_json())

    @classmethod
    def from_json(cls, data: dict) -> "Settings":
        """Settings from the file's object, every value checked (DamagedFileError)."""
        d = cls()
        last = data.get("last_game", d.last_game)
        return cls(fullscreen=flag(data.get("fullscreen", d.fullscreen), "fullscreen"),
                   animation_speed=choice(data.get("animation_speed", d.animation_speed),
                                          "animation speed", ANIMATION_SPEEDS),
                   sound=flag(data.get("sound", d.sound), "sound"),
                   volume=float(number(data.get("volume", d.volume), "volume", 0, 1)),
                   card_back=choice(data.get("card_back", d.card_back), "card back", CARD_BACKS),
                   last_game=None if last is None else choice(last, "game", GAME_IDS),
                   winnable_only=flag(data.get("winnable_only", d.winnable_only), "winnable_only"),
                   winnable_indicator=flag(data.get("winnable_indicator", d.winnable_indicator),
                                           "winnable_indicator"),
                   eval_bar=flag(data.get("eval_bar", d.eval_bar), "eval_bar"),
                   four_colour=flag(data.get("four_colour", d.four_colour), "four_colour"),
                   high_contrast=flag(data.get("high_contrast", d.high_contrast), "high_contrast"),
                   reduced_motion=flag(data.get("reduced_motion", d.reduced_motion),
                                       "reduced_motion"),
                   text_scale=_text_scale(data.get("text_scale", d.text_scale)),
                   speech=flag(data.get("speech", d.speech), "speech"),
                   touch_controls=flag(data.get("touch_controls", d.touch_controls), "touch_controls"),
                   language=choice(data.get("language", d.language), "language",
                                   (SYSTEM, *LANGUAGES)))


def _text_scale(value) -> int:
    """One of TEXT_SCALES (a whole number of per cent)."""
    value = whole(value, "text size", TEXT_SCALES[0], TEXT_SCALES[-1])
    if value not in TEXT_SCALES:
        raise DamagedFileError(f"text size must be one of {', '.join(map(str, TEXT_SCALES))}, "
                               f"not {value}")
    return value


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, or defaults; the second value is a message for the
    player when the file could not be used (a damaged one is moved aside)."""
    path = path or config_dir() / "settings.json"
    data, message = load_versioned(path, SETTINGS_VERSION, N_("Settings file"), SETTINGS_MAX_BYTES,
                                   then=N_("using defaults, "))
    if data is None:
        return Settings(), message
    try:
        return Settings.from_json(data), None
    except ValueError as exc:
        return Settings(), moved_aside_message(path, N_("Settings file"), exc, N_("using defaults, "))


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Save; returns an error message instead of raising (a full disk must not
    crash the game)."""
    path = path or config_dir() / "settings.json"
    try:
        write_json_atomic(path, {"version": SETTINGS_VERSION, **settings.to_json()})
    except (OSError, ValueError) as exc:
        return _("Could not save settings: {problem}").format(problem=getattr(exc, "strerror", None) or exc)
    return None
