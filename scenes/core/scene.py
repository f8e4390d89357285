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


class Scene:
    opaque = True            # False for overlays: the scene below is drawn first
    update_below = False     # True: the scene below keeps animating (celebrations)
    holds_game = False       # True: a game the player would lose on quitting

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

    def save_on_quit(self) -> str | None:
        """The app is quitting: keep the game in progress (``holds_game``);
        a one-line message when it could not be kept."""
        return None


class SceneStack:
    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        scene.resize(scene.app.size)
        scene.enter()

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
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
        if self.scenes:
            self.scenes.pop().leave()
        self.scenes.append(scene)
        scene.resize(scene.app.size)
        scene.enter()

    def reset(self, scene: Scene) -> None:
        """Clear the stack, then show ``scene`` alone."""
        while self.scenes:
            self.scenes.pop().leave()
        self.push(scene)

    def resize(self, size: tuple[int, int]) -> None:
        for scene in self.scenes:
            scene.resize(size)

    def handle(self, event: InputEvent) -> None:
        if self.scenes:
            self.scenes[-1].handle(event)

    def update(self, dt: float) -> None:
        if not self.scenes:
            return
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].update_below:
            start -= 1
        for scene in self.scenes[start:]:
            scene.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        start = len(self.scenes) - 1
        while start > 0 and not self.scenes[start].opaque:
            start -= 1
        for scene in self.scenes[max(start, 0):]:
            scene.draw(surface)
