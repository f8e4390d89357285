"""One referee per table when several server nodes share a store: leases with fencing.

A node referees a table only while it holds the table's lease, a row in the store
(table, node, fence, expires_at) that it renews every few seconds. Whoever takes
a lease over — because it lapsed, or was released — gets a fencing number one
higher than the last. Every write about the table (``add_move``, ``save_table``)
carries the writer's fence and is refused, *in the same transaction*, unless that
fence is still the table's live lease: a node that stalled, lost its network or
was declared dead can never commit a move after another node took the table over,
however late its write arrives. (The store's clock decides expiry, so the nodes'
clocks may disagree.)

:class:`LeasedStorage` is :class:`~game.server.storage.Storage` plus the lease calls;
:class:`SQLiteLeasedStorage` gives the embedded store the same calls (one node:
trivially its own referee, but correct, so the one contract suite runs on both),
and :class:`game.server.pg_storage.PostgresStorage` is the shared one.
"""
from __future__ import annotations

import time
from abc import abstractmethod
from dataclasses import dataclass

from .storage import MoveConflict, SQLiteStorage, Storage, StorageError  # noqa: F401 - MoveConflict: re-exported
from .storage import TableRecord


@dataclass(frozen=True)
class Lease:
    """Who referees a table, under which fencing number, until when (store's clock)."""

    table: int
    node: str
    fence: int
    expires_at: float         # seconds since the epoch


class StorageUnavailable(StorageError):
    """The database cannot be reached: the write is not acknowledged (refuse what
    asked for it). Had the connection dropped during the commit itself, the stored
    moves tell once it is back: a retried ply then meets :class:`MoveConflict`."""


class LeaseLost(StorageError):
    """The writer's fence is no longer the table's live lease: nothing was written."""

    def __init__(self, table: int, fence: int) -> None:
        super().__init__(f"table T{table}: fence {fence} no longer holds its lease")
        self.table, self.fence = table, fence


class LeasedStorage(Storage):
    """A store several nodes can share: the whole :class:`Storage`, and table writes
    carry the writer's fence (``add_move(…, fence=F)``, ``save_table(…, fence=F)``)."""

    def acquire_lease(self, table: int, node: str, ttl: float) -> int | None:
        """Take the table's lease for ``ttl`` seconds if it is free, lapsed or already
        ``node``'s; returns the new fence (higher than every earlier one), or None
        when another node holds it."""
        return self.acquire_leases([table], node, ttl).get(table)

    def create_leased_table(self, record: TableRecord, node: str, ttl: float) -> int:
        """Store a new table with ``node``'s lease on it, in one transaction (another
        node looking for unleased tables must never find it between the two); the
        lease's fence. Here two steps: nodes sharing one SQLite file in one process
        cannot run between them (no await), and several processes on one SQLite file
        are a test set-up; PostgreSQL's store does it in one statement."""
        self.create_table(record)
        return self.acquire_lease(record.id, node, ttl)

    @abstractmethod
    def acquire_leases(self, tables: list[int], node: str, ttl: float) -> dict[int, int]:
        """:meth:`acquire_lease` for many tables in one statement (a takeover of a
        dead node's tables); returns the ones taken, table → new fence. Rows are
        locked in table order, so nodes taking overlapping sets cannot deadlock."""

    @abstractmethod
    def renew_lease(self, table: int, node: str, fence: int, ttl: float) -> bool:
        """Extend a lease still held (``ttl`` seconds from now); False once it has
        lapsed or been taken over (then the node must stop refereeing the table)."""

    @abstractmethod
    def renew_leases(self, node: str, ttl: float) -> dict[int, int]:
        """Extend every lease ``node`` still holds, in one statement (a node renews
        hundreds of tables a second); returns them, table → fence. A table the node
        thinks it referees and that is missing here is lost to it."""

    @abstractmethod
    def release_lease(self, table: int, node: str, fence: int) -> None:
        """Give the lease up now (a clean stop): another node may take it at once."""

    def release_leases(self, node: str, held: dict[int, int]) -> None:
        """:meth:`release_lease` for every ``table → fence`` (a node's clean stop)."""
        for table, fence in sorted(held.items()):
            self.release_lease(table, node, fence)

    def load_tables(self, numbers: list[int]) -> dict[int, TableRecord | None]:
        """:meth:`load_table` for many tables (a takeover's), in one read where the
        store can: number → record (None: no such table)."""
        return {number: self.load_table(number) for number in numbers}

    def save_tables(self, writes: list[tuple[TableRecord, int]]) -> set[int]:
        """Fenced :meth:`save_table` of many tables, ``(record, fence)`` each (a
        takeover's clock charges), sent together where the store can; returns the
        tables whose fence no longer holds their lease (nothing written for them)."""
        lost = set()
        for record, fence in writes:
            try:
                self.save_table(record, fence=fence)
            except LeaseLost:
                lost.add(record.id)
        return lost

    def add_moves(self, writes: list[tuple[TableRecord, int]]) -> dict[int, StorageError]:
        """Fenced :meth:`add_move` of the last move of many tables, ``(record, fence)``
        each (the moves a node received together: a group commit, where the store can),
        each move its table's only change since its last write and not its last;
        returns the writes refused, table → why (:class:`LeaseLost`,
        :class:`MoveConflict`): nothing was written for those. Here one by one."""
        refused = {}
        for record, fence in writes:
            try:
                self.add_move(record, fence=fence)
            except (LeaseLost, MoveConflict) as why:
                refused[record.id] = why
        return refused

    @abstractmethod
    def lease_of(self, table: int) -> Lease | None:
        """The table's live lease, or None when nobody holds one."""

    @abstractmethod
    def unleased_tables(self) -> list[int]:
        """Tables not finished whose lease is missing or lapsed: to take over."""


_LEASES = """
CREATE TABLE IF NOT EXISTS leases (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    node TEXT NOT NULL,
    fence INTEGER NOT NULL,
    expires_at REAL NOT NULL
);
"""


class SQLiteLeasedStorage(SQLiteStorage, LeasedStorage):
    """The embedded store with leases. One file, one writer at a time (``BEGIN
    IMMEDIATE``), so a fence check and the write it guards are one transaction."""

    def __init__(self, path: str = ":memory:", checkpoint_every: float = 1.0, *,
                 clock=time.time) -> None:
        super().__init__(path, checkpoint_every)
        self._clock = clock
        self._db.executescript(_LEASES)

    def acquire_leases(self, tables: list[int], node: str, ttl: float) -> dict[int, int]:
        taken = {}
        with self._transaction():
            now = self._clock()
            for table in sorted(set(tables)):
                row = self._db.execute("SELECT node, fence, expires_at FROM leases"
                                       " WHERE table_id=?", (table,)).fetchone()
                if row is not None and row[0] != node and row[2] > now:
                    continue                              # another node's, and live
                taken[table] = 1 if row is None else row[1] + 1
                self._db.execute("INSERT OR REPLACE INTO leases VALUES (?, ?, ?, ?)",
                                 (table, node, taken[table], now + ttl))
        return taken

    def renew_lease(self, table: int, node: str, fence: int, ttl: float) -> bool:
        with self._transaction():
            now = self._clock()
            changed = self._db.execute(
                "UPDATE leases SET expires_at=? WHERE table_id=? AND node=? AND fence=?"
                " AND expires_at>?", (now + ttl, table, node, fence, now)).rowcount
        return changed == 1

    def renew_leases(self, node: str, ttl: float) -> dict[int, int]:
        with self._transaction():
            now = self._clock()
            held = self._db.execute("SELECT table_id, fence FROM leases WHERE node=?"
                                    " AND expires_at>?", (node, now)).fetchall()
            self._db.execute("UPDATE leases SET expires_at=? WHERE node=? AND expires_at>?",
                             (now + ttl, node, now))
        return dict(held)

    def release_lease(self, table: int, node: str, fence: int) -> None:
        with self._transaction():
            self._db.execute("UPDATE leases SET expires_at=? WHERE table_id=? AND node=?"
                             " AND fence=?", (self._clock(), table, node, fence))

    def lease_of(self, table: int) -> Lease | None:
        row = self._db.execute("SELECT table_id, node, fence, expires_at FROM leases"
                               " WHERE table_id=? AND expires_at>?",
                               (table, self._clock())).fetchone()
        return None if row is None else Lease(*row)

    def unleased_tables(self) -> list[int]:
        rows = self._db.execute(
            "SELECT id FROM tables LEFT JOIN leases ON leases.table_id = tables.id"
            " AND leases.expires_at > ? WHERE status != 'finished' AND leases.table_id IS NULL"
            " ORDER BY id", (self._clock(),))
        return [number for (number,) in rows]

    def _check_fence(self, table: int, fence: int | None) -> None:
        """Inside the write's transaction: a fence that is not the live lease
        refuses the write (:class:`LeaseLost`), which then changes nothing."""
        if fence is None:
            return
        live = self._db.execute("SELECT 1 FROM leases WHERE table_id=? AND fence=?"
                                " AND expires_at>?", (table, fence, self._clock())).fetchone()
        if live is None:
            raise LeaseLost(table, fence)
