"""Scenes and the scene stack (compare Tuxemon's StateManager, Arcade's View).

The app keeps a stack. Only the top scene gets input and (unless an overlay asks
otherwise) updates; drawing starts at the topmost opaque scene so an overlay
shows the game beneath it.

Lifecycle: ``enter`` when pushed, ``leave`` when popped, ``pause`` when another
scene covers it, ``resume`` when it is on top again, ``resize`` on every window
size change (and once before the first draw).
"""
from __future__ import annotations

import pygame

from .actions import InputEvent

IDLE_WAKE = 0.1   # s: how often a still screen looks for what it cannot foresee


class Scene:
    opaque = True            # False for overlays: the scene below is drawn first
    update_below = False     # True: the scene below keeps animating (celebrations)
    holds_game = False       # True: a game the player would lose on quitting
    still_until_input = False    # True: what it shows changes only with input (see still_look)

    def __init__(self, app) -> None:   # app: scenes.core.app.App, which imports this module
        self.app = app
        self.size = app.size

    def enter(self) -> None: ...
    def leave(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def handle(self, event: InputEvent) -> None: ...
    def update(self, dt: float) -> None: ...
    def draw(self, surface: pygame.Surface) -> None: ...

    def next_change_in(self) -> float:
        """Seconds until this scene may change by itself (nothing from the
        player), for a still screen to sleep that long: 0 while it animates.
        By default ``IDLE_WAKE``: whatever a scene waits for (a worker's
        answer, a network message) is looked for that often."""
        return IDLE_WAKE

    def still_look(self) -> object:
        """For a scene drawn whole each frame (no ``draw_incremental``) that
        looks the same until input comes (a dialog at rest, help, settings): a
        value that changes only when what it shows changes by itself (a
        message arrived, a file was read). The app draws it again on input, on
        a change of the scene stack or of this value, and else presents
        nothing. None (the default): it may move by itself, drawn every frame."""
        return True if self.still_until_input else None

    def save_on_quit(self) -> str | None:
        """The app is quitting: keep the game in progress (``holds_game``);
        a one-line message when it could not be kept."""
        return None


class SceneStack:
    def __init__(self) -> None:
        self.scenes: list[Scene] = []
        self.changes = 0          # counts pushes, pops and swaps (what is shown changed)

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        self.changes += 1
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        scene.resize(scene.app.size)
        scene.enter()

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        self.changes += 1
        scene = self.scenes.pop()
        scene.leave()
        if self.scenes:
            self.scenes[-1].resume()
        return scene

    def remove(self, scene: Scene) -> None:
        """Pop ``scene`` and everything above it."""
        while scene in self.scenes:
            self.pop()

    def replace(self, scene: Scene) -> None:
        """Swap the top scene for ``scene``."""
        self.changes += 1
        if self.scenes:
            self.scenes.pop().leave()
        self.scenes.append(scene)
        scene.resize(scene.app.size)
        scene.enter()

    def reset(self, scene: Scene) -> None:
        """Clear the stack, then show ``scene`` alone."""
        self.changes += 1
        while self.scenes:
            self.scenes.pop().leave()
        self.push(scene)

    def resize(self, size: tuple[int, int]) -> None:
        self.changes += 1
        for scene in self.scenes:
            scene.resize(size)

    def handle(self, event: InputEvent) -> None:
        if self.scenes:
            self.scenes[-1].handle(event)

    def updating(self) -> list[Scene]:
        """The scenes that update each frame: the top one, and those below an
        overlay that lets them (``update_below``)."""
        if not self.scenes:
            return []
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].update_below:
            start -= 1
        return self.scenes[start:]

    def update(self, dt: float) -> None:
        for scene in self.updating():
            scene.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        start = len(self.scenes) - 1
        while start > 0 and not self.scenes[start].opaque:
            start -= 1
        for scene in self.scenes[max(start, 0):]:
            scene.draw(surface)
