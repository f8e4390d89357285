"""Moving a keyboard/gamepad focus between things laid out on the screen."""
from __future__ import annotations

import math


def nearest_in_direction(points: dict, current, direction: tuple[int, int]):
    """The key of ``points`` (key → (x, y)) nearest to ``current`` in
    ``direction``: within 60° of it, distance weighted against straying sideways.
    Stays put when nothing lies that way."""
    if current not in points:
        return next(iter(points), current)
    cx, cy = points[current]
    dx, dy = direction
    best, best_cost = current, math.inf
    for key, (x, y) in points.items():
        if key == current:
            continue
        vx, vy = x - cx, y - cy
        along = vx * dx + vy * dy
        if along <= 0:
            continue
        across = abs(vx * dy - vy * dx)
        if across > along * math.tan(math.radians(60)):
            continue
        cost = along + 2.0 * across
        if cost < best_cost:
            best, best_cost = key, cost
    return best
