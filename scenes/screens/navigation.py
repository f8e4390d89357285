"""Going from screen to screen: the screens layer's navigator.

The app holds a navigator (``scenes.core.navigator``); this one knows the
menu, the help and the games (their descriptors), and is put into the app the
first time a screen or a game is opened through here (the launcher, tools and
tests all start that way). Game scenes go back up through ``app.navigator``
and never import this layer.
"""
from __future__ import annotations

from ..core.navigator import Navigator
from ..games import descriptor, playable_games
from .menu import MenuScene


class ScreenNavigator(Navigator):
    def __init__(self, app) -> None:
        self.app = app

    def open_menu(self) -> None:
        self.app.scenes.reset(MenuScene(self.app))

    def open_game(self, game_id: str, seed: int | None = None, demo: bool = False,
                  cycle: bool = False) -> None:
        """Show a game; ``demo`` lets the computer play; ``cycle`` (attract mode)
        moves on to the next game after each demo game."""
        app = self.app
        scene_class = descriptor(game_id).scene_class()
        if not demo and app.settings.last_game != game_id:
            app.settings.last_game = game_id   # the menu's focus starts there next time
            app.save_settings()
        scene = scene_class(app, seed=seed, demo=demo)
        scene.demo_cycle = cycle
        app.scenes.reset(scene)

    def open_help(self, game_id: str) -> None:
        from .help import HelpScene  # start-up: loads when first asked for, not with the menu
        self.app.scenes.push(HelpScene(self.app, game_id))

    def open_replay(self, path=None) -> None:
        # start-up: the replay (a board, its analysis on the work service) loads when opened
        from .replay_list import open_replay
        open_replay(self.app, path)

    def open_settings(self) -> None:
        """The settings over whatever is showing (a paused game too); Back returns there."""
        from .settings import SettingsScene  # start-up: loads when first asked for, not with the menu
        self.app.scenes.push(SettingsScene(self.app))

    def open_online(self) -> None:
        # start-up: the network modules (websockets) load only when someone plays online
        from .online import open_online
        open_online(self.app)

    def next_game(self, after: str) -> str:
        games = playable_games()
        return games[(games.index(after) + 1) % len(games)]


def install(app) -> ScreenNavigator:
    """The app's navigator, this layer's own from now on."""
    if not isinstance(app.navigator, ScreenNavigator):
        app.navigator = ScreenNavigator(app)
    return app.navigator


def open_menu(app) -> None:
    install(app).open_menu()


def open_game(app, game_id: str, seed: int | None = None, demo: bool = False,
              cycle: bool = False) -> None:
    install(app).open_game(game_id, seed=seed, demo=demo, cycle=cycle)


__all__ = ["ScreenNavigator", "install", "open_menu", "open_game", "playable_games"]
