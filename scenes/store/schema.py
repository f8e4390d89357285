"""Checks for values read from a kept file, each raising DamagedFileError with one line.

JSON gives us bools that are ints, floats that may be huge, and anything where
we expect a word; the screens need none of that. Every loaded value passes one
of these before anything uses it.
"""
from __future__ import annotations

import math

from .files import DamagedFileError, shown

MAX_COUNT = 10 ** 9          # games played, won, streaks, per-level results
MAX_SECONDS = 10 ** 8        # about three years of play, in one game or summed
MAX_SCORE = 10 ** 9


def whole(value, what: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """An int (not a bool, not 3.0) from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise DamagedFileError(f"{what} must be a whole number from {low:,} to {high:,}, "
                               f"not {shown(value)}")
    return value


def number(value, what: str, low: float = 0, high: float = MAX_SECONDS) -> float | int:
    """An int or a finite float from ``low`` to ``high``."""
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or (isinstance(value, float) and not math.isfinite(value)) or not low <= value <= high):
        raise DamagedFileError(f"{what} must be a number from {low:,} to {high:,}, not {shown(value)}")
    return value


def optional(check, value, what: str, *args):
    return None if value is None else check(value, what, *args)


def flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise DamagedFileError(f"{what} must be true or false, not {shown(value)}")
    return value


def choice(value, what: str, choices) -> str:
    if not isinstance(value, str) or value not in choices:
        raise DamagedFileError(f"unknown {what} {shown(value)}")
    return value


def word(value, what: str, longest: int = 20) -> str:
    """A short ASCII word (a name the screens may not know, but can show)."""
    if not isinstance(value, str) or not value.isascii() or not value.isalpha() or len(value) > longest:
        raise DamagedFileError(f"{what} must be a short word")
    return value


def mapping(value, what: str) -> dict:
    if not isinstance(value, dict):
        raise DamagedFileError(f"{what} must be an object")
    return value


def sequence(value, what: str, longest: int) -> list:
    if not isinstance(value, list) or len(value) > longest:
        raise DamagedFileError(f"{what} must be a list of at most {longest:,}")
    return value


__all__ = ["whole", "number", "optional", "flag", "choice", "word", "mapping", "sequence",
           "MAX_COUNT", "MAX_SECONDS", "MAX_SCORE"]
