"""Drive the real app headless: post pygame events, step frames of 1/60 s."""
from __future__ import annotations

import multiprocessing
import time

import pygame

from game.camelot.moves import SQUARE_COORDS

from scenes.core.app import App, AppOptions
from scenes.screens.navigation import install
from scenes.store.settings import Settings

DT = 1 / 60


def make_app(size=(1280, 720), speed="fast") -> App:
    settings = Settings(fullscreen=False, animation_speed=speed, sound=False)
    app = App(AppOptions(size=size, save_settings=False), settings=settings)
    # Events an earlier test's window left in SDL's queue (a test that sets a
    # window size of its own leaves a resize) are not this app's.
    pygame.event.clear()
    install(app)   # the screens' navigator, as the launcher's first screen puts it in
    return app


def step(app: App, frames: int = 1) -> None:
    for _ in range(frames):
        app.step(DT)


WORK_SECONDS = 30.0   # wall-clock bound on waiting for a worker's answer


def settle(app: App, scene, limit: int = 600) -> None:
    """Step until the scene's animations are over and what it waits for from
    the background workers (Hamilton's dead-end verdict) is in: ``limit``
    frames, and past them frames with short sleeps while a worker answers, for
    at most ``WORK_SECONDS``."""
    end = time.monotonic() + WORK_SECONDS
    frames = 0
    while frames < limit or time.monotonic() < end:
        step(app)
        frames += 1
        if not scene.busy:
            return
        if frames >= limit:
            time.sleep(0.002)
    raise AssertionError("animations never finished")


def post(kind: int, **attrs) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def click(app: App, pos, button: int = 1) -> None:
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
    step(app)


def drag(app: App, start, end, steps: int = 6) -> None:
    post(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    step(app)
    for k in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * k // steps
        y = start[1] + (end[1] - start[1]) * k // steps
        post(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(1, 0, 0))
        step(app)
    post(pygame.MOUSEBUTTONUP, pos=end, button=1)
    step(app)


def key(app: App, k: int, mod: int = 0) -> None:
    post(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)
    step(app)


def pad(app: App, button: int) -> None:
    post(pygame.CONTROLLERBUTTONDOWN, button=button, instance_id=0)
    step(app)


def image_difference(a: pygame.Surface, b: pygame.Surface) -> float:
    """Share of pixels that differ noticeably (any channel by more than 40)."""
    if a.get_size() != b.get_size():
        return 1.0
    w, h = a.get_size()
    small = (w // 4, h // 4)
    a4 = pygame.transform.smoothscale(a.convert(32) if a.get_bitsize() != 32 else a, small)
    b4 = pygame.transform.smoothscale(b.convert(32) if b.get_bitsize() != 32 else b, small)
    differ = 0
    for y in range(small[1]):
        for x in range(small[0]):
            ca, cb = a4.get_at((x, y)), b4.get_at((x, y))
            if max(abs(ca[i] - cb[i]) for i in range(3)) > 40:
                differ += 1
    return differ / (small[0] * small[1])


def children_left(seconds: float = 5.0) -> list:
    """Worker processes still alive after a shutdown, given ``seconds`` to be
    reaped (two threads may be joining the same process; one sees it a moment
    later). A worker that goes on working is still there after that."""
    end = time.monotonic() + seconds
    while (left := multiprocessing.active_children()) and time.monotonic() < end:
        time.sleep(0.05)
    return left


# --- fingers (a touch screen): positions go as SDL sends them, 0 … 1 of the window ---------
def finger(app: App, kind: int, pos, finger_id: int = 0) -> None:
    w, h = app.size
    post(kind, touch_id=1, finger_id=finger_id, x=pos[0] / (w - 1), y=pos[1] / (h - 1),
         dx=0.0, dy=0.0, pressure=1.0)


def tap(app: App, pos, after_a_while: bool = True) -> None:
    """A finger down and up, with SDL's mouse copy of it (which must be ignored).
    ``after_a_while``: half a second after the last input, as a player's taps
    for two moves are (the input's clock is moved on, not waited out): not
    half of a double tap."""
    if after_a_while:
        app.input.now += 0.5
    finger(app, pygame.FINGERDOWN, pos)
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=True)
    step(app)
    finger(app, pygame.FINGERUP, pos)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=True)
    step(app)


def finger_drag(app: App, start, end, steps: int = 6) -> None:
    finger(app, pygame.FINGERDOWN, start)
    step(app)
    for k in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * k // steps
        y = start[1] + (end[1] - start[1]) * k // steps
        finger(app, pygame.FINGERMOTION, (x, y))
        post(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(1, 0, 0), touch=True)
        step(app)
    finger(app, pygame.FINGERUP, end)
    step(app)


def long_press(app: App, pos, seconds: float = 0.6) -> None:
    finger(app, pygame.FINGERDOWN, pos)
    step(app, int(seconds / DT) + 1)
    finger(app, pygame.FINGERUP, pos)
    step(app)


def two_finger_tap(app: App, pos) -> None:
    finger(app, pygame.FINGERDOWN, pos, 0)
    finger(app, pygame.FINGERDOWN, (pos[0] + 60, pos[1]), 1)
    step(app, 3)
    finger(app, pygame.FINGERUP, pos, 0)
    finger(app, pygame.FINGERUP, (pos[0] + 60, pos[1]), 1)
    step(app)


def board_square(app: App, scene, square: int) -> tuple[int, int]:
    """Where a finger touches ``square`` of the board now. In touch mode, where
    the squares are smaller than a finger, a tap on the whole board magnifies
    the part round it first, and a drag from a square that holds nothing to
    pick up moves the magnified board until ``square`` is seen."""
    view = scene.table.view
    if view.magnifies and not view.zoomed:
        tap(app, view.square_centre(square))
        assert view.zoomed, "a tap on the board did not magnify it"
    for _ in range(8):
        if view.shows_square(square):
            return view.square_centre(square)
        table = scene.table
        grip = next(sq for sq in range(len(SQUARE_COORDS))
                    if view.shows_square(sq) and sq != table.selected and sq not in table.movable())
        start = view.square_centre(grip)
        there = view.square_centre(square)
        reach = view.viewport.h // 2
        dx = max(-reach, min(reach, view.viewport.centerx - there[0]))
        dy = max(-reach, min(reach, view.viewport.centery - there[1]))
        end = (max(1, min(app.size[0] - 2, start[0] + dx)), max(1, min(app.size[1] - 2, start[1] + dy)))
        finger_drag(app, start, end)
    raise AssertionError(f"square {square} never came into the magnified board")
