"""Where the server keeps tables, seats, moves and finished games.

:class:`Storage` is the one small interface the server writes through;
:class:`SQLiteStorage` is the embedded default. Every call that changes state
is one committed transaction when it returns, and the server acknowledges
nothing before that — so a ``kill -9`` loses at most a move that nobody was
told about. (SQLite in WAL mode with ``synchronous=NORMAL`` keeps every commit
through a process crash; only a power cut could cost the last few.)

A shared database for several server instances would be a second class with
the same five methods (see docs/design-notes.md).
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class SeatRecord:
    name: str
    token_hash: str     # sha256 of the seat token: the database never holds a usable token


@dataclass
class TableRecord:
    """Everything the server needs to rebuild a table after a restart."""

    id: int
    private: bool
    invite: str | None
    start_position: str
    time_base: int | None = None          # seconds; None = untimed
    time_increment: int = 0
    seats: dict[str, SeatRecord] = field(default_factory=dict)   # color → seat
    status: str = "waiting"               # waiting, playing, finished
    moves: list[str] = field(default_factory=list)               # WCF notation
    clocks: dict[str, int] = field(default_factory=dict)         # color → ms left at turn start
    winner: str | None = None
    reason: str = ""
    record_text: str = ""
    created: float = field(default_factory=time.time)
    # Wall-clock time (time.time) since which no player has held a seat at this
    # table; None while one does. Kept in the database so that the time counts
    # across restarts: a table deserted long enough is closed as abandoned.
    deserted_since: float | None = None

    @property
    def table_id(self) -> str:
        return f"T{self.id}"

    @property
    def abandoned(self) -> bool:
        """Closed because nobody came back: over, with no winner, while deserted
        (a draw is agreed or played by players who are there)."""
        return self.status == "finished" and self.winner is None and self.deserted_since is not None


class Storage(ABC):
    """The server's only way to persist anything. Each method is one transaction."""

    @abstractmethod
    def create_table(self, record: TableRecord) -> int:
        """Store a new table; returns its number (also set on ``record.id``)."""

    @abstractmethod
    def save_table(self, record: TableRecord) -> None:
        """Store the table's seats, status, clocks, result and since when it is
        deserted (not its moves)."""

    @abstractmethod
    def add_move(self, record: TableRecord) -> None:
        """Store ``record.moves[-1]`` as the next move, with the table's new state,
        in one transaction."""

    @abstractmethod
    def open_tables(self) -> list[TableRecord]:
        """The tables not finished (to resume after a restart), moves included."""

    @abstractmethod
    def load_table(self, number: int) -> TableRecord | None:
        """Any table by number, finished ones too (for game records)."""

    def close(self) -> None:
        """Release the database."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    private INTEGER NOT NULL,
    invite TEXT,
    start_position TEXT NOT NULL,
    time_base INTEGER,
    time_increment INTEGER NOT NULL,
    seats TEXT NOT NULL,
    status TEXT NOT NULL,
    clocks TEXT NOT NULL,
    winner TEXT,
    reason TEXT NOT NULL,
    record_text TEXT NOT NULL,
    created REAL NOT NULL,
    deserted_since REAL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    PRIMARY KEY (table_id, ply)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
"""

_COLUMNS = ("id, private, invite, start_position, time_base, time_increment, seats, status, "
            "clocks, winner, reason, record_text, created, deserted_since")


class SQLiteStorage(Storage):
    """SQLite in WAL mode. A commit appends to the write-ahead log without waiting
    for the disk; copying the log into the database (a checkpoint, which does wait
    for the disk, tens of ms on a busy one) runs on a thread of its own every
    ``checkpoint_every`` seconds, so no game waits for it."""

    def __init__(self, path: str = ":memory:", checkpoint_every: float = 1.0) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)   # explicit transactions
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "deserted_since" not in columns:        # a database from before abandonment
            self._db.execute("ALTER TABLE tables ADD COLUMN deserted_since REAL")
        self._stop = threading.Event()
        self._checkpointer = None
        if path != ":memory:" and not path.startswith("file::memory:"):
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(path, checkpoint_every),
                name="roundtable-checkpoint", daemon=True)
            self._checkpointer.start()

    def _checkpoint_loop(self, path: str, every: float) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            while not self._stop.wait(every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    pass            # busy or failing: the log just grows until the next try
        finally:
            db.close()

    # --- writing ---------------------------------------------------------------
    def _state(self, r: TableRecord) -> tuple:
        seats = {c: {"name": s.name, "token_hash": s.token_hash} for c, s in r.seats.items()}
        return (json.dumps(seats), r.status, json.dumps(r.clocks), r.winner, r.reason,
                r.record_text, r.deserted_since)

    def create_table(self, record: TableRecord) -> int:
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO tables (private, invite, start_position, time_base, time_increment,"
                " seats, status, clocks, winner, reason, record_text, deserted_since, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (int(record.private), record.invite, record.start_position, record.time_base,
                 record.time_increment, *self._state(record), record.created))
        record.id = cur.lastrowid
        return record.id

    def _update(self, record: TableRecord) -> None:
        self._db.execute(
            "UPDATE tables SET seats=?, status=?, clocks=?, winner=?, reason=?, record_text=?,"
            " deserted_since=? WHERE id=?", (*self._state(record), record.id))

    def save_table(self, record: TableRecord) -> None:
        with self._transaction():
            self._update(record)

    def add_move(self, record: TableRecord) -> None:
        with self._transaction():
            self._db.execute("INSERT INTO moves (table_id, ply, notation) VALUES (?, ?, ?)",
                             (record.id, len(record.moves), record.moves[-1]))
            self._update(record)

    @contextmanager
    def _transaction(self):
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # --- reading ---------------------------------------------------------------
    def _record(self, row) -> TableRecord:
        (number, private, invite, start, base, increment, seats, status, clocks, winner,
         reason, record_text, created, deserted_since) = row
        moves = [n for (n,) in self._db.execute(
            "SELECT notation FROM moves WHERE table_id=? ORDER BY ply", (number,))]
        return TableRecord(
            id=number, private=bool(private), invite=invite, start_position=start,
            time_base=base, time_increment=increment,
            seats={c: SeatRecord(**s) for c, s in json.loads(seats).items()},
            status=status, moves=moves, clocks=json.loads(clocks), winner=winner,
            reason=reason, record_text=record_text, created=created,
            deserted_since=deserted_since)

    def open_tables(self) -> list[TableRecord]:
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM tables WHERE status != 'finished' ORDER BY id").fetchall()
        return [self._record(row) for row in rows]

    def load_table(self, number: int) -> TableRecord | None:
        row = self._db.execute(f"SELECT {_COLUMNS} FROM tables WHERE id=?", (number,)).fetchone()
        return None if row is None else self._record(row)

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(10)
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
        self._db.close()
