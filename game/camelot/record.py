"""Camelot game records: a game as text, to keep, send and replay.

The format follows chess's PGN, cut down to what Camelot needs::

    [Event "Club evening"]
    [Date "2026.11.24"]
    [White "Ann"]
    [Black "Round Table (hard)"]
    [Result "1-0"]
    [Position "2/8/10/12/12/2nmmmmmmn2/…/2 w 2 2"]

    1.F7-F8 F11-F9 2.D7-F7 E10-E9 3.F8-F10xF12 … 1-0

- Tag lines come first, one per line: ``[Name "value"]``; a name is letters,
  digits and ``_``; in a value ``\\"`` is a quote and ``\\\\`` a backslash. Event,
  Date (``YYYY.MM.DD``, ``?`` for unknown parts), White, Black and Result are
  written first, in that order; any other tag may follow. ``Position`` (a position
  string, see the rules page) is there only when the game did not start from the
  usual start; ``Termination`` says why a finished game ended.
- Then the moves in WCF notation (``-`` before a square reached by a plain move or
  canter, ``x`` before one reached by a jump), numbered: ``12.`` before White's
  move, and ``12...`` before a Black move that opens the record or follows a
  comment. Numbers are optional on reading, but a number that is there must be
  the right one.
- A comment is anything between ``{`` and ``}`` (kept out of the moves).
- Last, the result: ``1-0`` (White won), ``0-1`` (Black won), ``1/2-1/2`` (draw)
  or ``*`` (unfinished or unknown); it must agree with the Result tag.

:class:`GameRecord` is a frozen value: ``parse``/``read`` make one (raising
:class:`BadRecordError` with one line naming the fault), ``format``/``write``
turn one into text (``write`` replaces the file atomically), ``from_game`` takes
one from a :class:`~game.camelot.board.CamelotBoard` and ``to_game`` replays it
(IllegalMoveError, naming the move, at the first move the rules refuse).
"""
from __future__ import annotations

import datetime
import os
import re
import tempfile
from dataclasses import dataclass

from ..base import Status
from .board import START_POSITION, CamelotBoard
from .position import Position
from ..errors import IllegalMoveError, NotationError, RoundTableError
from ..parsing import read_small_text

MAX_RECORD_BYTES = 1_000_000   # a long real game is a few kB
MAX_PLIES = 5000               # the 50-move rule ends every game well before this
MAX_TAGS = 100
MAX_TAG_CHARS = 2000
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
SEVEN_TAGS = ("Event", "Date", "White", "Black", "Result")
LINE_WIDTH = 79

_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")   # NUL, escapes, tabs: no part of a name or a date
_TAG_RE = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]')
# ASCII digits only, and few of them: \d takes "١", and int() of 5,000 digits raises
_NUMBER_RE = re.compile(r"([0-9]{1,6})(\.(?:\.\.)?)(.*)")


class BadRecordError(RoundTableError):
    """A game record that cannot be read: bad text, too big, or not readable."""


@dataclass(frozen=True)
class GameRecord:
    """One game: ``tags`` (name, value) in order, the ``moves`` in WCF notation
    (plies, White's first unless the Position tag has Black to move), ``result``."""

    tags: tuple[tuple[str, str], ...]
    moves: tuple[str, ...]
    result: str = "*"

    def tag(self, name: str, default: str | None = None) -> str | None:
        for key, value in self.tags:
            if key == name:
                return value
        return default

    @property
    def position(self) -> str:
        """The position the game started from."""
        return self.tag("Position") or START_POSITION

    @property
    def full_moves(self) -> int:
        """How many moves, as the move numbers count them (a White ply and the
        Black reply are one move): 23 plies from the start are 12 moves."""
        return self.move_number(len(self.moves))

    def move_number(self, ply: int) -> int:
        """The number the move list gives ply ``ply`` (1-based; 0 for the
        start): plies 1 and 2 are move 1 from the start; with Black first,
        ply 1 is move 1 and plies 2 and 3 are move 2."""
        if ply <= 0:
            return 0
        first_black = self.position.split()[1:2] == ["b"]
        return (ply - 1 + first_black) // 2 + 1

    def mover(self, ply: int) -> str:
        """Who made ply ``ply`` (1-based): "white" or "black"."""
        first_black = self.position.split()[1:2] == ["b"]
        return "white" if (ply - 1 + first_black) % 2 == 0 else "black"

    def to_game(self, plies: int | None = None) -> CamelotBoard:
        """The game after its moves (or its first ``plies``). Raises
        IllegalMoveError naming the first move the rules refuse."""
        game = CamelotBoard(self.position)
        first_black = game.turn == "black"
        for index, text in enumerate(self.moves[:plies]):
            try:
                game.play(text)
            except (IllegalMoveError, NotationError) as exc:
                raise IllegalMoveError(f"move {move_label(index, first_black)} {text}: {exc}") \
                    from None
        return game


def move_label(ply: int, first_black: bool = False) -> str:
    """``'3.'`` or ``'3...'``: the number of the ``ply``-th move (0-based)."""
    ply += first_black
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"


def result_of(game: CamelotBoard) -> str:
    if game.status is Status.PLAYING:
        return "*"
    if game.status is Status.DRAW:
        return "1/2-1/2"
    return "1-0" if game.winner == "white" else "0-1"


def from_game(game: CamelotBoard, **tags: str) -> GameRecord:
    """The record of ``game`` so far. ``tags`` (Event, Date, White, Black, any
    other) are added; Date defaults to today, the others to ``?``."""
    result = result_of(game)
    values = {"Event": "?", "Date": datetime.date.today().strftime("%Y.%m.%d"),
              "White": "?", "Black": "?", **_without_controls(tags), "Result": result}
    start = game.start_json()["position"]
    if start != START_POSITION:
        values["Position"] = start
    if result != "*" and game.status_reason and "Termination" not in values:
        values["Termination"] = game.status_reason
    return GameRecord(_ordered(values), tuple(game.history), result)


def _without_controls(tags: dict[str, str]) -> dict[str, str]:
    """Tag values as ``parse`` takes them back: a control character (a name
    typed or sent with one) becomes a space, so a record kept is never refused."""
    return {name: _CONTROL_RE.sub(" ", value) for name, value in tags.items()}


def _ordered(values: dict[str, str]) -> tuple[tuple[str, str], ...]:
    first = [(k, values[k]) for k in SEVEN_TAGS if k in values]
    return tuple(first + [(k, v) for k, v in values.items() if k not in SEVEN_TAGS])


# --- text -----------------------------------------------------------------------
def format(record: GameRecord) -> str:  # noqa: A001 - the module's verb, like json.dumps
    """The record as text (tags, a blank line, the numbered moves, the result)."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.tags]
    first_black = Position.from_text(record.position).side == 1
    words = []
    for index, text in enumerate(record.moves):
        label = move_label(index, first_black)
        # Black's moves are numbered only when one opens the record.
        words.append(text if label.endswith("...") and index > 0 else label + text)
    words.append(record.result)
    out, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > LINE_WIDTH:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\n".join(lines + [""] + out) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def parse(text: str) -> GameRecord:
    """A record from its text. Raises BadRecordError naming the fault (with its
    line for a bad tag). The moves are not checked against the rules here:
    ``to_game`` does that."""
    if not isinstance(text, str):
        raise BadRecordError(f"a game record is text, not {type(text).__name__}")
    if len(text) > MAX_RECORD_BYTES:
        raise BadRecordError(f"the record is longer than {MAX_RECORD_BYTES} characters")
    text = text.lstrip("\ufeff")
    tags: list[tuple[str, str]] = []
    # Lines end at CR, LF or both only: splitlines() would also end one at the
    # controls \x1c-\x1e and \x85, which are then refused inside a tag instead.
    lines = re.split(r"\r\n?|\n", text)
    body_start = len(lines)
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if not line.startswith("["):
            body_start = number - 1
            break
        match = _TAG_RE.fullmatch(line)
        if match is None:
            raise BadRecordError(f"line {number}: {_short(line)} is not a tag "
                                 f'(write [Name "value"])')
        name, value = match.group(1), _unescape(match.group(2))
        if any(name == key for key, _ in tags):
            raise BadRecordError(f"line {number}: the tag {name} is given twice")
        if len(tags) >= MAX_TAGS or len(value) > MAX_TAG_CHARS:
            raise BadRecordError(f"line {number}: too many tags or a tag too long")
        control = _CONTROL_RE.search(value)
        if control is not None:
            raise BadRecordError(f"line {number}: the {name} tag holds the control character "
                                 f"{control.group()!r}")
        tags.append((name, value))
    body = "\n".join(lines[body_start:])
    record_tags = tuple(tags)
    position = dict(tags).get("Position")
    first_black = False
    if position is not None:
        try:
            first_black = Position.from_text(position).side == 1
        except RoundTableError as exc:
            raise BadRecordError(f"the Position tag: {exc}") from None
    moves, result = _parse_moves(body, first_black)
    tag_result = dict(tags).get("Result")
    if tag_result is not None and tag_result not in RESULTS:
        raise BadRecordError(f"the Result tag is {tag_result!r}; it must be one of "
                             f"{', '.join(RESULTS)}")
    if result is None:
        result = tag_result or "*"
    elif tag_result is not None and tag_result != result:
        raise BadRecordError(f"the moves end with {result} but the Result tag says {tag_result}")
    if not tags and not moves and result == "*" and not body.strip():
        raise BadRecordError("the record is empty")
    return GameRecord(record_tags, tuple(moves), result)


def _parse_moves(body: str, first_black: bool) -> tuple[list[str], str | None]:
    if body.count("{") != body.count("}"):
        raise BadRecordError("a comment opened with '{' is not closed (or the other way)")
    body = re.sub(r"\{[^{}]*\}", " ", body)
    moves: list[str] = []
    result = None
    for token in body.split():
        if result is not None:
            raise BadRecordError(f"{_short(token)} follows the result {result}; "
                                 f"the result comes last")
        if token in RESULTS:
            result = token
            continue
        match = _NUMBER_RE.fullmatch(token)
        if match:
            number, dots, token = int(match.group(1)), match.group(2), match.group(3)
            expected = move_label(len(moves), first_black)
            if f"{number}{dots}" != expected and not (dots == "." and expected == f"{number}..."):
                raise BadRecordError(f"move number {number}{dots} where {expected} was expected")
            if not token:
                continue
        if not re.fullmatch(r"[a-lA-L][0-9]{1,2}([-xX][a-lA-L][0-9]{1,2})+", token):
            raise BadRecordError(f"{_short(token)} (move {move_label(len(moves), first_black)}) "
                                 f"is not a move in WCF notation (e.g. F7-F8, E9xC7xE5)")
        if len(moves) >= MAX_PLIES:
            raise BadRecordError(f"the record has more than {MAX_PLIES} moves")
        moves.append(token)
    return moves, result


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


# --- files ------------------------------------------------------------------------
def read(path: str | os.PathLike) -> GameRecord:
    """Read and parse a record file (at most MAX_RECORD_BYTES). BadRecordError
    for a file that is missing, unreadable, too big, not UTF-8 or not a record."""
    # game.parsing reads it: a regular file only (a FIFO would block for ever),
    # size-limited, UTF-8 (a byte-order mark dropped).
    try:
        text = read_small_text(path, MAX_RECORD_BYTES)
    except OSError as exc:
        raise BadRecordError(f"cannot read {os.fspath(path)}: {exc.strerror or exc}") from None
    except RoundTableError as exc:
        raise BadRecordError(f"{exc}; it is not a game record") from None
    try:
        return parse(text)
    except BadRecordError as exc:
        raise BadRecordError(f"{os.fspath(path)}: {exc}") from None


def write(record: GameRecord, path: str | os.PathLike) -> None:
    """Write the record to ``path`` atomically (a reader never sees half a file).
    BadRecordError if the file cannot be written."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    # Replacing what is there must never swap out a device, a FIFO or a folder
    # (as root, os.replace onto /dev/null would put our file in its place).
    if os.path.lexists(path) and not os.path.isfile(path):
        raise BadRecordError(f"cannot write {path}: not a regular file")
    text = format(record)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".record-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise BadRecordError(f"cannot write {path}: {exc.strerror or exc}") from None


__all__ = ["BadRecordError", "GameRecord", "format", "from_game", "parse", "read", "write",
           "result_of", "move_label", "MAX_RECORD_BYTES", "RESULTS"]
