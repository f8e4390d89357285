"""The one way in and out for every file the app keeps (settings, statistics, the save).

Reading is bounded in every direction a hand-edited or hostile file could push:
only a regular file is opened (a FIFO would block, ``/dev/zero`` never ends), at
most ``max_bytes`` are read, the text must be UTF-8 (a byte-order mark is fine),
JSON numbers must be finite and short, and nesting is bounded (the C decoder
recurses). Any of these is a ``DamagedFileError``: the caller moves the file
aside and says so in one line. A file that cannot be *opened* (permissions, a
folder that cannot be entered) is an ``UnreachableFileError``: it is left alone.

Writing is atomic (temp file, fsync, rename) and never writes NaN or Infinity.
A ``kill -9`` mid-write leaves only a temp file; ``clean_stale_temps`` removes
those at the next start.
"""
from __future__ import annotations

import json
import math
import os
import tempfile
import time
from pathlib import Path

from game.parsing import MAX_SEED, FileReadError, parse_int, read_small_bytes
from .words import N_, _

MAX_DEPTH = 32          # our files nest 5 deep; the C decoder would go to ~1,000
MAX_INT_DIGITS = 30     # JSON integers longer than this are nobody's count or deal
MAX_FILE_INT = MAX_SEED  # the largest whole number any of our files holds (a deal number)
TEMP_SUFFIX = ".tmp"
STALE_TEMP_SECONDS = 30.0   # an atomic write takes milliseconds; older temps are leftovers
PROBE_PREFIX = ".probe."
LEFT_AS_IT_IS = N_("left as it is.")   # ends the message for a file that could not be opened


class DataFileError(ValueError):
    """A kept file that cannot be used; ``str()`` is one line for the player."""


class DamagedFileError(DataFileError):
    """The content is not what we write: move it aside, keep it for the player."""


class UnreachableFileError(DataFileError):
    """The file could not be opened or read at all: leave it where it is."""


def shown(value, limit: int = 40) -> str:
    """``repr`` for a one-line message, cut short (a 4,000-digit number or a
    deep list must not become a screen-wide toast, or fail to print)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)          # as the file has it: true, null
    try:
        text = repr(value)
    except (ValueError, RecursionError):   # ints past the str-conversion limit
        text = f"<{type(value).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def one_line(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


# --- reading -------------------------------------------------------------------------
def _json_int(text: str) -> int:
    """A JSON integer through the engine's one number parser (ASCII digits,
    bounded length and range; the sign is JSON's)."""
    if len(text) > MAX_INT_DIGITS:     # said plainly, before the parser quotes the start of it
        raise DamagedFileError(f"a number {len(text):,} digits long")
    magnitude = parse_int(text.removeprefix("-"), "a number in the file", 0, MAX_FILE_INT)
    return -magnitude if text.startswith("-") else magnitude


def _json_float(text: str) -> float:
    # Not the engine's parse_float: JSON floats have exponents (1e-05 is what
    # json.dumps writes), which it rightly refuses on a command line.
    value = float(text)
    if not math.isfinite(value):      # 1e999 reads as inf
        raise DamagedFileError(f"the number {shown(text)} is out of range")
    return value


def _json_constant(name: str):
    raise DamagedFileError(f"{name} is not a number we keep")


def check_depth(data, limit: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than ``limit`` (iteratively: no recursion to exhaust)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                raise DamagedFileError(f"nested more than {limit} deep")
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def read_bytes(path: Path, max_bytes: int) -> bytes | None:
    """The file's bytes (None when there is no file), through the engine's one
    bounded reader: only a regular file, at most ``max_bytes`` of it."""
    try:
        return read_small_bytes(path, max_bytes, DamagedFileError)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except FileReadError as exc:
        raise UnreachableFileError(f"could not be read ({exc.strerror or exc})") from None
    except OSError as exc:
        raise UnreachableFileError(f"could not be opened ({exc.strerror or exc})") from None


def parse_json(raw: bytes):
    """JSON from a file's bytes, or DamagedFileError with the reason."""
    # A byte-order mark from a Windows editor is fine. (Dropped by hand: the
    # "utf-8-sig" codec is one more module to load at every start-up.)
    body = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DamagedFileError(f"not UTF-8 text (byte {exc.start + len(raw) - len(body)})") from None
    try:
        data = json.loads(text, parse_int=_json_int, parse_float=_json_float,
                          parse_constant=_json_constant)
    except RecursionError:
        raise DamagedFileError(f"nested more than {MAX_DEPTH} deep") from None
    except json.JSONDecodeError as exc:
        raise DamagedFileError(f"{exc.msg}: line {exc.lineno} column {exc.colno}") from None
    except DamagedFileError:
        raise
    except ValueError as exc:          # the number parser's refusal (a RoundTableError)
        raise DamagedFileError(one_line(exc, 110)) from None
    check_depth(data)
    return data


def read_json(path: Path, max_bytes: int):
    """The JSON in ``path`` (None when there is no file). A file that holds
    just ``null`` is damaged, not absent: we never write one, and taking it
    for no file would overwrite it unsaid."""
    raw = read_bytes(path, max_bytes)
    if raw is None:
        return None
    data = parse_json(raw)
    if data is None:
        raise DamagedFileError("it holds only null")
    return data


def check_version(data, version: int) -> dict:
    """A JSON object whose ``version`` is exactly this int (``true`` is not 1)."""
    if not isinstance(data, dict):
        raise DamagedFileError("not a JSON object")
    found = data.get("version")
    if type(found) is not int or found != version:
        raise DamagedFileError(f"version {shown(found)}, expected {version}")
    return data


def load_versioned(path: Path, version: int, what: str, max_bytes: int,
                   then: str = "") -> tuple[dict | None, str | None]:
    """A JSON object with this ``version`` read from ``path``: (data, None);
    (None, None) when there is no file; (None, one-line message) when it could
    not be used, after moving a damaged one aside (never overwritten). ``what``
    names the file in the message ("Statistics file"), ``then`` what happens
    instead ("using defaults, ")."""
    try:
        data = read_json(path, max_bytes)
        return (None if data is None else check_version(data, version)), None
    except UnreachableFileError as exc:
        return None, _("{file} {problem}; {then}{left}").format(
            file=_(what), problem=exc, then=_(then) if then else "", left=_(LEFT_AS_IT_IS))
    except DamagedFileError as exc:
        return None, moved_aside_message(path, what, exc, then)


def moved_aside_message(path: Path, what: str, problem, then: str = "") -> str:
    """Move a bad file aside and say so in one line (``then``: what happens
    instead, e.g. "using defaults, ")."""
    try:
        aside = move_aside(path)
        where = _("kept as {name}").format(name=aside.name)
    except OSError:
        where = _("left in place")
    return _("{file} was unreadable ({problem}); {then}{where}.").format(
        file=_(what), problem=one_line(problem, 120), then=_(then) if then else "", where=where)


def left_as_it_is(message: str | None) -> bool:
    """The message says a file could not be opened and was left as it is."""
    return bool(message) and message.endswith((LEFT_AS_IT_IS, _(LEFT_AS_IT_IS)))


def move_aside(path: Path) -> Path:
    """Keep a bad file for the player (or a bug report) under a new name."""
    stamp = time.strftime('%Y%m%d-%H%M%S')
    aside = path.with_name(f"{path.name}.bad-{stamp}")
    n = 1
    while os.path.lexists(aside):
        aside = path.with_name(f"{path.name}.bad-{stamp}-{n}")
        n += 1
    os.replace(path, aside)
    return aside


# --- writing -----------------------------------------------------------------------
def write_json_atomic(path: Path, data: dict) -> None:
    """Write all of ``data`` or nothing: a crash leaves the old file (and at
    worst a temp file that ``clean_stale_temps`` removes). NaN and Infinity are
    refused (ValueError) rather than written for the next start to trip on."""
    write_bytes_atomic(path, json.dumps(data, indent=2, allow_nan=False).encode("utf-8"))


def write_bytes_atomic(path: Path, data, durable: bool = True) -> None:
    """All of ``data`` at ``path`` or nothing (see write_json_atomic): bytes,
    or a tuple of parts written one after the other (a window's pixels need
    no copy); ``durable=False`` (a cache, which can be made again) does not
    wait for the disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f"{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in data if isinstance(data, tuple) else (data,):
                out.write(part)
            out.flush()
            if durable:
                os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def shipped(*parts: str) -> Path:
    """A folder shipped with the app (``"data"``, ``"assets", "fonts"``): next
    to the ``scenes`` package (a source checkout or an editable install), else
    inside it (``scenes/data``, ``scenes/assets``: a wheel; see pyproject's
    package data)."""
    here = Path(__file__).resolve().parents[1]  # the scenes package
    for candidate in (here.parent.joinpath(*parts), here.joinpath(*parts)):
        if candidate.is_dir():
            return candidate
    return here.parent.joinpath(*parts)


def clean_stale_temps(folder: Path, names, older_than: float = STALE_TEMP_SECONDS) -> int:
    """Remove temp files that an interrupted ``write_json_atomic`` of one of
    ``names`` left in ``folder``; returns how many. Young ones may belong to
    another instance writing right now, so they stay. Never raises."""
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not (entry.name.endswith(TEMP_SUFFIX) and any(entry.name.startswith(n) for n in names)):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and now - entry.stat(follow_symlinks=False).st_mtime > older_than:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            pass
    return removed


def folder_problem(folder: Path) -> str | None:
    """None when files can be written in ``folder`` (made if needed), else why not."""
    if os.path.lexists(folder) and not os.path.isdir(folder):
        return "it is not a folder"       # mkdir would only say "File exists"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=PROBE_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


__all__ = ["DataFileError", "DamagedFileError", "UnreachableFileError", "read_json", "parse_json",
           "read_bytes", "check_version", "check_depth", "load_versioned", "moved_aside_message",
           "move_aside", "write_json_atomic", "shipped", "clean_stale_temps", "folder_problem", "shown",
           "one_line", "MAX_DEPTH", "LEFT_AS_IT_IS", "PROBE_PREFIX"]
