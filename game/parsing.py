"""The one way in for numbers written outside the program.

Deal numbers, move numbers inside notation (``t3:2>t5``, ``c12``, ``7H-7``),
command-line counts and limits, position strings' numbers and the winnable-deal
lists are all read here. The rules, once: plain ASCII digits (``str.isdigit``
also takes "²", "③" and "١٢٣", which ``int`` then refuses or reads as
something else), a bounded length (``int`` of 5,000 digits raises, and
anything longer is slow), finite values only (no ``nan``, ``inf``), and a
stated range. A refusal is one of the engine's errors (a ``RoundTableError``)
with one line that says what was expected; the text shown is cut short and
escaped so that it stays one line.
"""
from __future__ import annotations

import math
import os
import re
import stat
from pathlib import Path
from typing import Callable

from .errors import BadNumberError, RoundTableError

_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
MAX_TEXT = 40               # characters of a number's text before it is refused unread
SHOWN = 24                  # characters of bad input quoted back in a message

MAX_SEED = 10**18 - 1       # deal numbers: 0 … 999,999,999,999,999,999
MAX_LIST_BYTES = 1 << 20    # a deal-number list file read whole: 1 MiB at most
MAX_LIST_ENTRIES = 100_000


def shown(text: object) -> str:
    """Bad input quoted in a message: repr (escapes newlines and controls), cut short."""
    if isinstance(text, str) and len(text) > SHOWN:
        return repr(text[:SHOWN]) + "…"
    if isinstance(text, (bytes, bytearray)) or not isinstance(text, (str, int, float)):
        return f"a {type(text).__name__}"
    out = repr(text)
    return out if len(out) <= SHOWN + 2 else out[:SHOWN] + "…"




def parse_int(text: object, what: str, low: int, high: int,
              error: type[RoundTableError] = BadNumberError) -> int:
    """A whole number from ``low`` to ``high`` from text (ASCII digits, spaces
    around allowed) or from an int (not a bool). Raises ``error`` naming
    ``what`` and the range."""
    expected = f"{what} must be a whole number at least {low} and at most {high}"
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise error(f"{expected}, not {shown(text)}")
    if isinstance(text, str):
        digits = text.strip(" \t\r\n")
        if len(digits) > MAX_TEXT or not _DIGITS.fullmatch(digits):
            raise error(f"{expected}, not {shown(text)}")
        value = int(digits)
    else:
        value = text
    if not low <= value <= high:
        raise error(f"{expected}, not {shown(text) if isinstance(text, str) else shown(value)}")
    return value


def parse_float(text: object, what: str, low: float, high: float,
                error: type[RoundTableError] = BadNumberError, low_open: bool = False) -> float:
    """A finite decimal number in [low, high] (or (low, high] with ``low_open``)
    from text (ASCII ``12``, ``0.5``, ``.5``; no exponent, nan or inf) or from
    an int or float. Raises ``error``."""
    bound = f"more than {low}" if low_open else f"at least {low}"
    expected = f"{what} must be a number {bound} and at most {high:g}"
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise error(f"{expected}, not {shown(text)}")
    if isinstance(text, str):
        t = text.strip(" \t\r\n")
        if len(t) > MAX_TEXT or not _DECIMAL.fullmatch(t):
            raise error(f"{expected}, not {shown(text)}")
        value = float(t)
    else:
        try:
            value = float(text)
        except OverflowError:
            raise error(f"{expected}, not {shown(text)}") from None
    if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
        raise error(f"{expected}, not {shown(text)}")
    return value


def number_argument(what: str, low, high, kind: Callable = parse_int):
    """An argparse ``type``: the number read by ``kind`` (``parse_int`` or
    ``parse_float``) from ``low`` to ``high``, or one clear line (argparse's
    own ``int``/``float`` take "١٢", "３" and "1_0", and quote a 5,000-digit
    number whole)."""
    import argparse   # only a command line asks for one

    def read(text: str):
        try:
            return kind(text, what, low, high)
        except RoundTableError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    read.__name__ = what
    return read


def positive_float(text: object, what: str, low: float, high: float,
                   error: type[RoundTableError] = BadNumberError) -> float:
    """``parse_float`` for a length of time: more than ``low``, at most ``high``."""
    return parse_float(text, what, low, high, error, low_open=True)


def parse_index(text: str, what: str, count: int,
                error: type[RoundTableError] = BadNumberError) -> int:
    """An index 0 … count-1 written in notation (``3`` of ``t3``)."""
    return parse_int(text, what, 0, count - 1, error)


def parse_seed(text: object) -> int:
    """A deal number: 0 … ``MAX_SEED``, from text or an int."""
    from .errors import BadSeedError
    return parse_int(text, "deal number", 0, MAX_SEED, BadSeedError)


# --- small files ---------------------------------------------------------------------
class FileReadError(OSError):
    """The file was opened but reading it failed (an I/O error): unlike a file
    that could not be opened, the caller may want to say so differently."""


def read_small_bytes(path: str | os.PathLike, limit: int,
                     error: Callable[[str], Exception] = BadNumberError) -> bytes:
    """The whole of a small file, bounded in every way a hostile path could
    push: only a regular file is read (a FIFO would block, ``/dev/zero`` never
    ends, a folder is no text), and at most ``limit`` bytes. The one bounded
    reader: the engine's record and list files and the app's kept files.

    Raises the ``OSError`` of opening it (``FileNotFoundError`` when there is
    none), ``FileReadError`` when reading fails, and ``error(reason)`` with
    "not a regular file" or "bigger than N bytes"."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)     # O_NONBLOCK: opening a FIFO must not wait for a writer
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error("not a regular file")
        too_big = f"bigger than {limit:,} bytes"
        if info.st_size > limit:
            raise error(too_big)
        chunks, size = [], 0
        while size <= limit:      # st_size can lie (/proc, a file still growing)
            try:
                chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            except OSError as exc:
                raise FileReadError(exc.errno, exc.strerror) from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise error(too_big)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_small_text(path: str | os.PathLike, limit: int = MAX_LIST_BYTES) -> str:
    """A small text file read whole (``read_small_bytes``), UTF-8 (a byte-order
    mark is dropped). Raises OSError for what cannot be read and BadNumberError
    (a RoundTableError) naming the file when it is too big, not a regular file
    or not text."""
    name = os.fspath(path)
    data = read_small_bytes(path, limit, lambda reason: BadNumberError(f"{name} is {reason}"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadNumberError(f"{name} is not UTF-8 text") from None


def parse_deal_list(text: str, limit: int = MAX_LIST_ENTRIES) -> list[int]:
    """Deal numbers from a list's text: whitespace-separated, '#' starts a
    comment line. A word that is not a deal number is skipped (a hand-edited
    list still gives the good ones); at most ``limit`` numbers are kept."""
    deals: list[int] = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        for word in line.split():
            try:
                deals.append(parse_seed(word))
            except RoundTableError:
                continue
            if len(deals) >= limit:
                return deals
    return deals


def read_deal_list(path: str | os.PathLike) -> list[int]:
    """The deal numbers of a list file (the winnable-deal cache); [] when the
    file is missing, unreadable, too big or not text. Never raises."""
    try:
        return parse_deal_list(read_small_text(Path(path)))
    except (OSError, RoundTableError):
        return []


__all__ = ["parse_int", "parse_float", "parse_index", "parse_seed", "read_small_bytes",
           "read_small_text", "FileReadError",
           "parse_deal_list", "read_deal_list", "shown", "MAX_SEED"]
