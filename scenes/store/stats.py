"""Statistics per game, kept as versioned JSON in the user's data folder.

Per game: played, won, win rate, current and best streak, best score, best
(fastest winning) and average time, and the last results (for the win-rate line
over time). For the board game against the computer: wins, losses and draws per
level. Written atomically; a damaged file or one from a newer version is moved
aside with a one-line message and the statistics start empty.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .settings import data_dir, load_versioned, moved_aside_message, write_json_atomic

STATS_VERSION = 1
HISTORY_CAP = 200     # results kept per game for the win-rate line
RESULTS = ("won", "lost", "drawn")


def _number(value, what: str, minimum: float = 0, optional: bool = False):
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum:
        raise ValueError(f"{what} must be a number ≥ {minimum}, not {value!r}")
    return value


@dataclass
class GameStats:
    played: int = 0
    won: int = 0
    current_streak: int = 0
    best_streak: int = 0
    best_score: int | None = None
    best_time: float | None = None      # the fastest win, in seconds
    total_time: float = 0.0             # all games played, for the average
    history: list[dict] = field(default_factory=list)   # {date, won, score, seconds, result?}
    levels: dict[str, dict[str, int]] = field(default_factory=dict)  # level → won/lost/drawn
    assisted: int = 0                   # finished with automatic play or hints: no win

    @property
    def lost(self) -> int:
        return self.played - self.won - self.assisted

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def average_time(self) -> float | None:
        return self.total_time / self.played if self.played else None

    def running_win_rate(self) -> list[float]:
        """The win rate after each kept result, oldest first (the line)."""
        rates, wins = [], 0
        for k, entry in enumerate(self.history, 1):
            wins += bool(entry.get("won"))
            rates.append(wins / k)
        return rates

    def record(self, won: bool, score=None, seconds: float = 0.0, result: str | None = None,
               level: str | None = None, date: float | None = None,
               assisted: bool = False) -> None:
        """One finished game. An ``assisted`` win (automatic play or hints) is
        kept as played and assisted: no win, no streak, no best time or score."""
        seconds = max(0.0, float(seconds or 0.0))
        self.played += 1
        self.total_time += seconds
        if won and assisted:
            self.assisted += 1
            self.history.append({"date": round(date if date is not None else time.time()),
                                 "won": False, "assisted": True, "score": score,
                                 "seconds": round(seconds, 1)})
            del self.history[:-HISTORY_CAP]
            return
        if won:
            self.won += 1
            self.current_streak += 1
            self.best_streak = max(self.best_streak, self.current_streak)
            if self.best_time is None or seconds < self.best_time:
                self.best_time = seconds
        else:
            self.current_streak = 0
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            if self.best_score is None or score > self.best_score:
                self.best_score = score
        entry = {"date": round(date if date is not None else time.time()), "won": bool(won),
                 "score": score, "seconds": round(seconds, 1)}
        if result:
            entry["result"] = result
        self.history.append(entry)
        del self.history[:-HISTORY_CAP]
        if level is not None:
            counts = self.levels.setdefault(level, {r: 0 for r in RESULTS})
            outcome = result if result in RESULTS else ("won" if won else "lost")
            counts[outcome] = counts.get(outcome, 0) + 1

    def to_json(self) -> dict:
        return {"played": self.played, "won": self.won, "current_streak": self.current_streak,
                "best_streak": self.best_streak, "best_score": self.best_score,
                "best_time": self.best_time, "total_time": self.total_time,
                "history": self.history, "levels": self.levels, "assisted": self.assisted}

    @classmethod
    def from_json(cls, data) -> "GameStats":
        if not isinstance(data, dict):
            raise ValueError("a game's statistics must be an object")
        g = cls(played=_number(data.get("played", 0), "played"),
                won=_number(data.get("won", 0), "won"),
                current_streak=_number(data.get("current_streak", 0), "current streak"),
                best_streak=_number(data.get("best_streak", 0), "best streak"),
                best_score=_number(data.get("best_score"), "best score", float("-inf"), True),
                best_time=_number(data.get("best_time"), "best time", 0, True),
                total_time=_number(data.get("total_time", 0.0), "total time"),
                assisted=_number(data.get("assisted", 0), "assisted"))
        if g.won + g.assisted > g.played or g.current_streak > g.best_streak or g.best_streak > g.won:
            raise ValueError("counts do not add up")
        history = data.get("history", [])
        if not isinstance(history, list) or not all(
                isinstance(e, dict) and isinstance(e.get("won"), bool) for e in history):
            raise ValueError("history must be a list of results")
        g.history = history[-HISTORY_CAP:]
        levels = data.get("levels", {})
        if not isinstance(levels, dict) or not all(
                isinstance(c, dict) and all(isinstance(n, int) and n >= 0 for n in c.values())
                for c in levels.values()):
            raise ValueError("levels must map a level to counts")
        g.levels = levels
        return g


class Stats:
    """All games' statistics; ``record`` updates one game and saves."""

    def __init__(self, games: dict[str, GameStats] | None = None, path: Path | None = None) -> None:
        self.games = games or {}
        self.path = path

    def game(self, game_id: str) -> GameStats:
        return self.games.get(game_id) or GameStats()

    def record(self, game_id: str, won: bool, score=None, seconds: float = 0.0,
               result: str | None = None, level: str | None = None,
               assisted: bool = False) -> str | None:
        """Add one finished game and save; returns a message if saving failed."""
        self.games.setdefault(game_id, GameStats()).record(won, score, seconds, result, level,
                                                           assisted=assisted)
        return self.save()

    def to_json(self) -> dict:
        return {"version": STATS_VERSION,
                "games": {gid: g.to_json() for gid, g in self.games.items()}}

    def save(self) -> str | None:
        path = self.path or data_dir() / "stats.json"
        try:
            write_json_atomic(path, self.to_json())
        except OSError as exc:
            return f"Could not save statistics: {exc.strerror or exc}"
        return None


def load_stats(path: Path | None = None) -> tuple[Stats, str | None]:
    """The saved statistics (empty when there are none); the second value is a
    one-line message when the file had to be moved aside."""
    path = path or data_dir() / "stats.json"
    data, message = load_versioned(path, STATS_VERSION, "Statistics file")
    if data is None:
        return Stats(path=path), message
    try:
        games = data.get("games", {})
        if not isinstance(games, dict):
            raise ValueError("games must be an object")
        return Stats({gid: GameStats.from_json(g) for gid, g in games.items()}, path), None
    except (ValueError, TypeError) as exc:
        return Stats(path=path), moved_aside_message(path, "Statistics file", exc)


__all__ = ["GameStats", "Stats", "load_stats", "STATS_VERSION", "HISTORY_CAP"]
