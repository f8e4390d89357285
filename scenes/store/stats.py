"""Statistics per game, kept as versioned JSON in the user's data folder.

Per game: played, won, win rate, current and best streak, best score, best
(fastest winning) and average time, and the last results (for the win-rate line
over time). For the board game against the computer: wins, losses and draws per
level. Written atomically; a damaged file or one from a newer version is moved
aside with a one-line message and the statistics start empty.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from game import GAME_IDS

from .files import DamagedFileError, load_versioned, moved_aside_message, write_json_atomic
from .schema import (MAX_COUNT, MAX_SCORE, MAX_SECONDS, choice, flag, mapping, number, optional,
                     sequence, whole, word)
from .settings import data_dir
from .words import N_, _

STATS_VERSION = 1
STATS_MAX_BYTES = 2 * 1024 * 1024   # four games' 200 results are ~60 KB
HISTORY_CAP = 200     # results kept per game for the win-rate line
RESULTS = ("won", "lost", "drawn")
MAX_DATE = 10 ** 11   # seconds since 1970: year 5138


def _clean_seconds(seconds) -> float:
    """Time to record: a finite number of seconds in range (a bad one counts as 0)."""
    try:
        seconds = float(seconds or 0.0)
    except (TypeError, ValueError, OverflowError):
        return 0.0
    return min(float(MAX_SECONDS), seconds) if math.isfinite(seconds) and seconds > 0 else 0.0


def _clean_score(score):
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        return None
    if isinstance(score, float) and not math.isfinite(score):
        return None
    return max(-MAX_SCORE, min(MAX_SCORE, score))


def _history_entry(entry) -> dict:
    entry = mapping(entry, "a result")
    clean = {"date": whole(entry.get("date", 0), "a result's date", 0, MAX_DATE),
             "won": flag(entry.get("won"), "a result's won"),
             "score": optional(number, entry.get("score"), "a result's score", -MAX_SCORE, MAX_SCORE),
             "seconds": number(entry.get("seconds", 0), "a result's time")}
    if entry.get("result") is not None:
        clean["result"] = choice(entry["result"], "result", RESULTS)
    if entry.get("assisted") is not None:
        clean["assisted"] = flag(entry["assisted"], "a result's assisted")
    if entry.get("abandoned") is not None:
        clean["abandoned"] = flag(entry["abandoned"], "a result's abandoned")
    return clean


def _level_counts(counts) -> dict[str, int]:
    counts = mapping(counts, "a level's results")
    return {choice(r, "result", RESULTS): whole(n, f"{r} count") for r, n in counts.items()}


@dataclass
class GameStats:
    """One game's statistics, kept in stats.json. (Its docstring also spares
    the dataclass an ``inspect.signature`` for one at every start-up.)"""

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
    abandoned: int = 0                  # of the lost: thrown away after moves (a new deal …)

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
               assisted: bool = False, abandoned: bool = False) -> None:
        """One finished game. An ``assisted`` win (automatic play or hints) is
        kept as played and assisted: no win, no streak, no best time or score.
        An ``abandoned`` game (thrown away after moves) is a loss, counted apart too."""
        seconds = _clean_seconds(seconds)   # never NaN or Infinity into the file
        score = _clean_score(score)
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
        if score is not None:
            if self.best_score is None or score > self.best_score:
                self.best_score = score
        entry = {"date": round(date if date is not None else time.time()), "won": bool(won),
                 "score": score, "seconds": round(seconds, 1)}
        if result:
            entry["result"] = result
        if abandoned and not won:
            self.abandoned += 1
            entry["abandoned"] = True
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
                "history": self.history, "levels": self.levels, "assisted": self.assisted,
                "abandoned": self.abandoned}

    @classmethod
    def from_json(cls, data) -> "GameStats":
        """One game's statistics, every value checked (DamagedFileError)."""
        data = mapping(data, "a game's statistics")
        g = cls(played=whole(data.get("played", 0), "played"),
                won=whole(data.get("won", 0), "won"),
                current_streak=whole(data.get("current_streak", 0), "current streak"),
                best_streak=whole(data.get("best_streak", 0), "best streak"),
                best_score=optional(number, data.get("best_score"), "best score", -MAX_SCORE, MAX_SCORE),
                best_time=optional(number, data.get("best_time"), "best time"),
                total_time=number(data.get("total_time", 0.0), "total time", 0, MAX_SECONDS * MAX_COUNT),
                assisted=whole(data.get("assisted", 0), "assisted"),
                abandoned=whole(data.get("abandoned", 0), "abandoned"))
        if g.won + g.assisted + g.abandoned > g.played or g.current_streak > g.best_streak or g.best_streak > g.won:
            raise DamagedFileError("counts do not add up")
        # The size limit bounds the list; only the newest HISTORY_CAP are kept.
        history = sequence(data.get("history", []), "history", MAX_COUNT)[-HISTORY_CAP:]
        g.history = [_history_entry(e) for e in history]
        levels = mapping(data.get("levels", {}), "levels")
        # Any short word: the screen looks up the levels it knows.
        g.levels = {word(lv, "level"): _level_counts(c) for lv, c in levels.items()}
        return g


class Stats:
    """All games' statistics; ``record`` updates one game and saves."""

    def __init__(self, games: dict[str, GameStats] | None = None, path: Path | None = None) -> None:
        self.games = games or {}
        self.path = path
        self.keep = True     # False: the file cannot be written this run (App says why, once)

    def game(self, game_id: str) -> GameStats:
        return self.games.get(game_id) or GameStats()

    def record(self, game_id: str, won: bool, score=None, seconds: float = 0.0,
               result: str | None = None, level: str | None = None,
               assisted: bool = False, abandoned: bool = False) -> str | None:
        """Add one finished game and save; returns a message if saving failed."""
        self.games.setdefault(game_id, GameStats()).record(won, score, seconds, result, level,
                                                           assisted=assisted, abandoned=abandoned)
        return self.save()

    def to_json(self) -> dict:
        return {"version": STATS_VERSION,
                "games": {gid: g.to_json() for gid, g in self.games.items()}}

    def save(self) -> str | None:
        if not self.keep:
            return None
        path = self.path or data_dir() / "stats.json"
        try:
            write_json_atomic(path, self.to_json())
        except (OSError, ValueError) as exc:
            return _("Could not save statistics: {problem}").format(problem=getattr(exc, "strerror", None) or exc)
        return None


def load_stats(path: Path | None = None) -> tuple[Stats, str | None]:
    """The saved statistics (empty when there are none); the second value is a
    one-line message when the file could not be used (a damaged one is moved aside)."""
    path = path or data_dir() / "stats.json"
    data, message = load_versioned(path, STATS_VERSION, N_("Statistics file"), STATS_MAX_BYTES)
    if data is None:
        return Stats(path=path), message
    try:
        games = mapping(data.get("games", {}), "games")
        return Stats({choice(gid, "game", GAME_IDS): GameStats.from_json(g)
                      for gid, g in games.items()}, path), None
    except ValueError as exc:
        return Stats(path=path), moved_aside_message(path, N_("Statistics file"), exc)


__all__ = ["GameStats", "Stats", "load_stats", "STATS_VERSION", "HISTORY_CAP"]
