"""Time-based animation: easing curves and tweens (never per-frame steps).

Every duration is in seconds of *game time*; the app scales it by the player's
animation-speed setting through ``Tweens.speed``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

Easing = Callable[[float], float]


def linear(t: float) -> float:
    return t


def ease_out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


def ease_in_out_cubic(t: float) -> float:
    return 4 * t * t * t if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def ease_out_back(t: float) -> float:
    c1 = 1.70158
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


def ease_in_quad(t: float) -> float:
    return t * t


def ease_out_quad(t: float) -> float:
    return 1 - (1 - t) * (1 - t)


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def lerp2(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


@dataclass
class Tween:
    """A value going from ``start`` to ``end`` over ``duration`` after ``delay``.

    ``start``/``end`` are floats or tuples of floats. ``arc`` lifts the middle of
    a 2-D path (cards fly in a gentle curve rather than a ruler-straight line).
    """

    start: tuple[float, ...]
    end: tuple[float, ...]
    duration: float
    delay: float = 0.0
    easing: Easing = ease_in_out_cubic
    arc: float = 0.0
    elapsed: float = 0.0
    on_done: Callable[[], None] | None = field(default=None, repr=False)

    @property
    def started(self) -> bool:
        return self.elapsed >= self.delay

    @property
    def done(self) -> bool:
        return self.elapsed >= self.delay + self.duration

    @property
    def progress(self) -> float:
        if self.duration <= 0:
            return 1.0 if self.started else 0.0
        return min(1.0, max(0.0, (self.elapsed - self.delay) / self.duration))

    def advance(self, dt: float) -> None:
        self.elapsed += dt

    def finish(self) -> None:
        self.elapsed = self.delay + self.duration

    def value(self) -> tuple[float, ...]:
        t = self.easing(self.progress)
        out = tuple(a + (b - a) * t for a, b in zip(self.start, self.end))
        if self.arc and len(out) == 2:
            out = (out[0], out[1] - self.arc * math.sin(math.pi * self.progress))
        return out


def reduced_motion(app) -> bool:
    """The player asked for reduced motion (Settings): moves and deals are
    placed at once (the speed factor sees to every tween), and nothing else
    moves by itself: no win wheel, no shaking ring, no rising dialog, no fade."""
    return bool(getattr(getattr(app, "settings", None), "reduced_motion", False))


def shake(app, seconds_left: float, amplitude: float) -> int:
    """The sideways offset of a refused pile's ring (none with reduced motion)."""
    return 0 if reduced_motion(app) else int(math.sin(seconds_left * 40) * amplitude)


class Timer:
    """Calls ``action`` once after ``seconds`` of game time."""

    def __init__(self, seconds: float, action: Callable[[], None]) -> None:
        self.left = seconds
        self.action = action

    def advance(self, dt: float) -> bool:
        """True when it fired (and should be dropped)."""
        self.left -= dt
        if self.left <= 0:
            self.action()
            return True
        return False
