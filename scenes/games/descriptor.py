"""What the app knows of a game, in one place: the scene-side descriptor.

Each game has one (``<game>_descriptor.py``, next to its scene), and
``scenes.games`` collects them in the menu's order. Everything that lists or
treats games (the menu, help, statistics, saves, navigation, demos, the
launcher) reads them; nothing else asks which game it is.

A descriptor joins the engine's descriptor (``game.GameInfo``: id, title,
engine class, solver) with what is on screen: the scene, the menu's tile, the
help (rules, controls, diagram), the options a game is started with (saved
with it) and what its statistics record.
"""
from __future__ import annotations

import importlib
from typing import Callable, NamedTuple

import pygame

from game import GameInfo

from ..store.files import shown
from ..store.saves import rebuild_engine
from ..store.words import N_, _

# The engine's names of the games (game.GAMES), for extraction: shown through ``title``.
ENGINE_TITLES = (N_("Camelot (patience)"), N_("Hamilton"), N_("Clock"), N_("Camelot (board game)"))

# (surface, rect, ui scale) → the help's diagram; (surface, rect, ui scale, age in s) → the menu's emblem
Diagram = Callable[[pygame.Surface, pygame.Rect, float], None]
Emblem = Callable[[pygame.Surface, pygame.Rect, float, float], None]


# The records here are named tuples, frozen as dataclasses would be: made
# before the menu's first frame, in a fraction of a dataclass's time (start-up).
class GameHelp(NamedTuple):
    """The help screen's words and picture: rules as (heading, paragraph), the
    game's own controls as (action, mouse, keyboard, gamepad), notes, and a
    diagram with its caption."""

    rules: tuple[tuple[str, str], ...]
    controls: tuple[tuple[str, str, str, str], ...]
    notes: tuple[str, ...]
    caption: str
    diagram: Diagram


class GameOptions(NamedTuple):
    """The options a game is started with (e.g. the board game's players): each
    name with its allowed values. They are saved with the game, checked when it
    is loaded and given back to the scene when it is resumed."""

    choices: dict[str, tuple[str, ...]]
    missing: str = "the options are missing"   # the saved game's problem when one is not there
    words: dict[str, str] | None = None   # an option's name for the player, where not its own

    def check(self, game_id: str, saved: dict) -> None:
        """ValueError, in one line, unless ``saved`` holds exactly this game's options."""
        unknown = set(saved) - set(self.choices)
        if unknown:
            raise ValueError(f"{game_id} takes no {', '.join(sorted(shown(k) for k in unknown))}")
        if set(saved) != set(self.choices):
            raise ValueError(self.missing)
        for name, values in self.choices.items():
            if saved[name] not in values:
                raise ValueError(f"unknown {(self.words or {}).get(name, name)} {shown(saved[name])}")


class GameDescriptor(NamedTuple):
    """A game as the app shows it: the engine's descriptor, the scene, the
    menu's tile, the help, the options it starts with, the art drawn ahead."""

    info: GameInfo                     # the engine's descriptor (game.GAMES)
    scene: str                         # "module:Class"; imported when the game opens (start-up speed)
    blurb: tuple[str, ...]             # the lines under the name on the menu's tile
    emblem: Emblem                     # the picture on the menu's tile
    help: GameHelp
    options: GameOptions = GameOptions({})
    # Draws what the scene's first frame needs at a window size, ahead of time
    # (a background thread, while the menu is up); None: nothing worth it.
    warm: Callable[[tuple[int, int]], None] | None = None
    emblem_moves: bool = False         # the emblem changes with time (the menu repaints it each frame)

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def title(self) -> str:
        """The game's name in the player's language (the engine's, looked up)."""
        return _(self.info.title)

    @property
    def levels(self) -> tuple[str, ...]:
        """The computer's levels (the engine's); the statistics count results per level."""
        return self.info.levels

    @property
    def has_deals(self) -> bool:
        """A patience has deal numbers (and a score in the statistics); the board game has not."""
        return self.info.dealt

    def scene_class(self):
        module_name, class_name = self.scene.split(":")
        return getattr(importlib.import_module(module_name), class_name)

    # --- a saved game -----------------------------------------------------------
    def describe(self, saved: dict) -> str:
        """'Clock (deal 12)' or 'Camelot (board game)'."""
        if self.has_deals:
            return _("{game} (deal {seed})").format(game=self.title, seed=saved["seed"])
        return self.title

    def resume(self, app, saved: dict):
        """The game scene with the saved game, exactly as it was left."""
        options = dict(saved.get("extra") or {})
        scene = self.scene_class()(app, seed=saved["seed"], game=rebuild_engine(saved),
                                   **{k: options[k] for k in self.options.choices if k in options})
        scene.play_seconds = float(saved.get("seconds", 0.0))
        scene.assisted = saved.get("assisted") is True
        return scene


__all__ = ["GameDescriptor", "GameHelp", "GameOptions"]
