"""Famous games shipped with the app: game records in ``data/famous-games/``
(no pygame).

Each ``.camelot`` file there is an ordinary record (:mod:`game.camelot.record`)
of a game whose moves a public source gives, with its Event, Date, White,
Black, Result and a Source tag (``data/famous-games/README.md`` says how to
add one). The Replay screen lists them beside the kept games and the board
game's demo replays them. The folder sits beside ``data/winnable-*.txt``, found
the same way (``files.shipped``). The test suite replays every file to
its stated result, so a shipped file the rules refuse fails there, not here.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from game.camelot import record as camelot_record
from game.camelot.record import BadRecordError

from .files import one_line, shipped
from .records import KeptRecord
from .words import _

FAMOUS_DIR = shipped("data", "famous-games")
SUFFIX = ".camelot"
MAX_FAMOUS = 100          # read at most this many files (a few kB each)


@dataclass(frozen=True)
class FamousGame(KeptRecord):
    """One famous game: its file and its record (``path``, ``record``)."""

    @property
    def players(self) -> str:
        r = self.record
        return f"{r.tag('White', '?')} – {r.tag('Black', '?')}"

    @property
    def is_opening(self) -> bool:
        """The source gives only the game's first moves (Result ``*``)."""
        return self.record.result == "*"

    @property
    def date(self) -> str:
        """``2009-05-31`` from the Date tag (``?`` parts dropped: ``2009``)."""
        parts = (self.record.tag("Date") or "?").split(".")
        return "-".join(p for p in parts if p and "?" not in p) or "?"

    @property
    def event(self) -> str:
        """The event, with the round when there is one: ``…, game 5``."""
        event = self.record.tag("Event") or "?"
        round_ = self.record.tag("Round")
        return _("{event}, game {n}").format(event=event, n=round_) if round_ and round_ not in ("?", "-") else event

    @property
    def short(self) -> str:
        """``2009-05-31 · game 5``: a short name for a replay's heading."""
        round_ = self.record.tag("Round")
        return self.date + (_(" · game {n}").format(n=round_) if round_ and round_ not in ("?", "-") else "")

    @property
    def title(self) -> str:
        """``White – Black, event, date``: what a list or a demo shows."""
        return f"{self.players}, {self.event}, {self.date}"


def famous_dir() -> Path:
    return FAMOUS_DIR


def list_famous(folder: Path | None = None) -> tuple[list[FamousGame], list[str]]:
    """The famous games, oldest first (by Date, then file name), and one line
    for each file that could not be read (skipped)."""
    folder = famous_dir() if folder is None else Path(folder)
    try:
        paths = sorted(p for p in folder.glob("*" + SUFFIX) if p.is_file())[:MAX_FAMOUS]
    except OSError:
        return [], []
    games, problems = [], []
    for path in paths:
        try:
            games.append(FamousGame(path, camelot_record.read(path)))
        except BadRecordError as exc:
            problems.append(one_line(_("Skipped the famous game {name}: {problem}").format(
                name=path.name, problem=exc)))
    games.sort(key=lambda g: (g.record.tag("Date") or "?", g.path.name))
    return games, problems


__all__ = ["FamousGame", "famous_dir", "list_famous", "FAMOUS_DIR"]
