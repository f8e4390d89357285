"""Finished board games, kept as game records in the data folder (no pygame).

``records/`` under the data folder holds one file per finished game, named by
the moment it ended (``2026-11-25_014502.camelot``; a second game in the same
second gets ``-2``). The text is the engine's record format
(:mod:`game.camelot.record`), so any file here also opens with
``python -m game play camelot-board --record FILE``.

Writing is the engine's atomic ``write``, which refuses a target that is not a
regular file (as root, replacing a device node would break the machine); the
temporary file of a write killed midway is removed by the next one. At
most ``MAX_KEPT`` records are kept: the oldest go when a new one comes. Listing
reads at most ``MAX_KEPT`` files, newest first (records saved here by others,
e.g. an online game's ``.txt``, are listed too, by the time they were written,
and never pruned); a file that cannot be read is skipped with one line saying why.
"""
from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass
from pathlib import Path

from game.camelot import record as camelot_record
from game.camelot.record import BadRecordError, GameRecord

from .files import clean_stale_temps, one_line
from .settings import data_dir
from .words import _

MAX_KEPT = 200                  # a few kB each: well under a megabyte in all
SUFFIX = ".camelot"
OTHER_SUFFIX = ".txt"           # records others keep here (online games); listed, never pruned
TEMP_PREFIX = ".record-"        # camelot_record.write's temporary files
_NAME_RE = re.compile(r"(\d{4}-\d{2}-\d{2}_\d{6})(?:-(\d{1,4}))?" + re.escape(SUFFIX))


@dataclass(frozen=True)
class KeptRecord:
    """One kept game: its file and its record."""
    path: Path
    record: GameRecord

    @property
    def title(self) -> str:
        """``White – Black, result`` for a list."""
        r = self.record
        return f"{r.tag('White', '?')} – {r.tag('Black', '?')}, {r.result}"

    @property
    def when(self) -> str:
        """``2026-11-25 01:45`` from the file's name (its end), or the Date tag."""
        match = _NAME_RE.fullmatch(self.path.name)
        if match:
            day, clock = match.group(1).split("_")
            return f"{day} {clock[:2]}:{clock[2:4]}"
        return (self.record.tag("Date") or "?").replace(".", "-")


def records_dir() -> Path:
    return data_dir() / "records"


def record_name(when: datetime.datetime, n: int = 1) -> str:
    stamp = when.strftime("%Y-%m-%d_%H%M%S")
    return f"{stamp}{'' if n == 1 else f'-{n}'}{SUFFIX}"


def keep_record(record: GameRecord, folder: Path | None = None,
                when: datetime.datetime | None = None) -> tuple[Path | None, str | None]:
    """Write ``record`` as a new file in the records folder and drop the oldest
    beyond ``MAX_KEPT``. Returns (path, None), or (None, one line) when it
    could not be kept (nothing else is touched then)."""
    folder = records_dir() if folder is None else Path(folder)
    when = when or datetime.datetime.now()
    try:
        if os.path.lexists(folder) and not folder.is_dir():
            return None, _("The game was not kept: {folder} is not a folder.").format(folder=folder)
        folder.mkdir(parents=True, exist_ok=True)
        n = 1
        while os.path.lexists(folder / record_name(when, n)):
            n += 1
            if n > 9999:
                return None, _("The game was not kept: too many games in the same second.")
        path = folder / record_name(when, n)
        camelot_record.write(record, path)
    except (OSError, BadRecordError) as exc:
        return None, one_line(_("The game was not kept: {problem}").format(problem=exc))
    prune(folder)
    clean_stale_temps(folder, (TEMP_PREFIX,))   # what a write killed midway left
    return path, None


def _kept_names(folder: Path, ours_only: bool = True) -> list[str]:
    """Names of records in ``folder``, newest first (regular files only). Ours
    are named by time; with ``ours_only`` false, other records put there (an
    online game's ``.txt``) come too, placed by the time they were written."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    keyed = []
    for entry in entries:
        name = entry.name
        match = _NAME_RE.fullmatch(name)
        if match is None and (ours_only or name.startswith(".")
                              or not name.endswith((SUFFIX, OTHER_SUFFIX))):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if match is not None:
                key = (match.group(1), int(match.group(2) or 1))
            else:
                stamp = datetime.datetime.fromtimestamp(entry.stat(follow_symlinks=False).st_mtime)
                key = (stamp.strftime("%Y-%m-%d_%H%M%S"), 0)
        except (OSError, ValueError, OverflowError):
            continue
        keyed.append((key, name))
    return [name for _, name in sorted(keyed, reverse=True)]


def prune(folder: Path, keep: int = MAX_KEPT) -> int:
    """Remove the oldest records beyond ``keep``; returns how many went."""
    removed = 0
    for name in _kept_names(folder)[keep:]:
        try:
            os.unlink(folder / name)
            removed += 1
        except OSError:
            pass
    return removed


def list_records(folder: Path | None = None,
                 limit: int = MAX_KEPT) -> tuple[list[KeptRecord], list[str]]:
    """The kept records, newest first, and one line for each file skipped."""
    folder = records_dir() if folder is None else Path(folder)
    kept, problems = [], []
    for name in _kept_names(folder, ours_only=False)[:limit]:
        try:
            kept.append(KeptRecord(folder / name, camelot_record.read(folder / name)))
        except BadRecordError as exc:       # the line names the file once, then the fault
            problems.append(one_line(_("Skipped {name}: {problem}").format(
                name=name, problem=str(exc).removeprefix(f"{folder / name}: "))))
    return kept, problems


__all__ = ["KeptRecord", "keep_record", "list_records", "prune", "records_dir", "record_name",
           "MAX_KEPT", "SUFFIX"]
