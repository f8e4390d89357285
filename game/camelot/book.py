"""The board game's opening book: the engine's own deep searches of the first
plies, kept in ``game/camelot/book.txt`` (made by ``bench/camelot_book.py``).

One entry a line: a position string's first four fields (board, side to move,
castle moves left), the move, then a comment (the search's score, depth and
nodes). ``book_move(pos)`` answers a position in the book with its move (checked
legal), else None. The levels above easy and ``think`` play a book move at once
unless told not to (``--no-book``, ``go … nobook``); it is reported as such
(``source: "book"``). A missing or damaged book is no book (``BOOK.problem``).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .moves import make_move
from .position import Position

# Beside this module: the engine's own data, installed with it (a wheel, the app).
BOOK_FILE = Path(__file__).with_name("book.txt")


@dataclass(frozen=True)
class BookEntry:
    move: str       # WCF notation
    comment: str    # how it was found (score, depth, nodes)


class Book:
    def __init__(self, path: Path = BOOK_FILE) -> None:
        self.entries: dict[str, BookEntry] = {}
        self.problem = ""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            self.problem = f"{path.name}: {exc.strerror or exc}"
            return
        for number, line in enumerate(text.splitlines(), 1):
            body, _, comment = line.partition("#")
            fields = body.split()
            if not fields:
                continue
            if len(fields) != 5:
                self.problem = f"{path.name} line {number}: position (4 fields) and a move"
                self.entries.clear()
                return
            self.entries[" ".join(fields[:4])] = BookEntry(fields[4], comment.strip())

    def lookup(self, pos: Position):
        """(the move's key, its entry) for a position in the book, else None."""
        entry = self.entries.get(book_key(pos))
        if entry is None:
            return None
        for key, paths in pos.moves(want_paths=True).items():
            if str(make_move(key, paths)) == entry.move:   # the canonical notation
                return key, entry
        return None


def book_key(pos: Position) -> str:
    """The book's key of a position: its string's first four fields."""
    return " ".join(pos.text().split()[:4])


_shared: Book | None = None


def shared() -> Book:
    global _shared
    if _shared is None:
        _shared = Book()
    return _shared


__all__ = ["Book", "BookEntry", "BOOK_FILE", "book_key", "shared"]
