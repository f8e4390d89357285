"""Going between screens, for the layers that may not import the screens.

The app holds a :class:`Navigator`. The screens layer (``scenes.screens.navigation``)
puts in its own, which knows the menu, the help and the games; a game scene asks
``self.app.navigator.open_menu()`` and never imports the layer above it. The
plain one here knows no screen: each step says so.
"""
from __future__ import annotations


class NoScreens(RuntimeError):
    """A scene asked to go to a screen, and no screens were installed in the app."""


class Navigator:
    """Where a scene can go: the menu, a game, a game's help; which game is next."""

    def open_menu(self) -> None:
        raise NoScreens("no menu: the screens layer has not installed its navigator")

    def open_game(self, game_id: str, seed: int | None = None, demo: bool = False,
                  cycle: bool = False) -> None:
        raise NoScreens(f"cannot open {game_id!r}: the screens layer has not installed its navigator")

    def open_help(self, game_id: str) -> None:
        raise NoScreens(f"no help for {game_id!r}: the screens layer has not installed its navigator")

    def open_settings(self) -> None:
        raise NoScreens("no settings: the screens layer has not installed its navigator")

    def open_online(self) -> None:
        """Play online: the connect screen, then the lobby."""
        raise NoScreens("cannot play online: the screens layer has not installed its navigator")

    def open_replay(self, path=None) -> None:
        """The replay screen: a kept record (its path), or the list of them."""
        raise NoScreens("no replay screen: the screens layer has not installed its navigator")

    def next_game(self, after: str) -> str:
        """The game after ``after`` in the menu's order (attract mode's next demo)."""
        raise NoScreens("no list of games: the screens layer has not installed its navigator")
