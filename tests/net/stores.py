"""Both stores, for the suites every store must pass: SQLite and a real PostgreSQL."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from game.camelot.board import START_POSITION
from game.server.leases import SQLiteLeasedStorage
from game.server.storage import TableRecord

TTL = 30.0          # a lease that outlives the test


class Stores:
    """Stores on one database, each with its own connection (SQLite's is usable only
    on the thread that opened it: a thread opens its own with ``apart``)."""

    def __init__(self, kind: str, address: str, make) -> None:
        self.kind, self.address = kind, address      # address: what open_store/serve take
        self._make, self._opened = make, []

    def open(self):
        self._opened.append(self._make())
        return self._opened[-1]

    @contextmanager
    def apart(self):
        store = self._make()
        try:
            yield store
        finally:
            store.close()

    def close(self) -> None:
        for store in self._opened:
            store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def stores(request, tmp_path):
    if request.param == "sqlite":
        path = str(tmp_path / "contract.sqlite3")
        opened = Stores("sqlite", path, lambda: SQLiteLeasedStorage(path))
    else:
        # A real PostgreSQL (tests/services.py): missing, the test fails in CI with
        # the reason and is skipped elsewhere.
        dsn = request.getfixturevalue("postgres_dsn")
        from game.server.pg_storage import PostgresStorage, migrate
        migrate(dsn)
        opened = Stores("postgresql", dsn, lambda: PostgresStorage(dsn))
    yield opened
    opened.close()


@pytest.fixture
def store(stores):
    return stores.open()


def new_table(store, **fields) -> TableRecord:
    record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION,
                         **fields)
    store.create_table(record)
    return record


def run_sql(store, sql: str) -> list[tuple]:
    """A statement of the test's own, on the store's connection (in both dialects)."""
    if hasattr(store, "_query"):
        return store._query(sql)                      # PostgreSQL
    return store._db.execute(sql).fetchall()          # SQLite


def work_of(store, call) -> int:
    """How much the database does for ``call()``, counted, not timed: SQLite's
    virtual-machine steps; PostgreSQL's rows of tables and moves read (by scans and
    through indexes), from the server's statistics, which the store's own session
    is made to hand in before and after."""
    if not hasattr(store, "_query"):
        steps = [0]

        def step():
            steps[0] += 1
        store._db.set_progress_handler(step, 1)
        try:
            call()
        finally:
            store._db.set_progress_handler(None, 1)
        return steps[0]

    def rows_read() -> int:
        store._query("SELECT pg_stat_force_next_flush()")    # handed in once idle ...
        store._query("SELECT 1")                              # ... which it is by now
        (rows,) = store._query("SELECT coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)),"
                               " 0) FROM pg_stat_user_tables WHERE relname IN ('tables', 'moves')",
                               one=True)
        return int(rows)
    before = rows_read()
    call()
    return rows_read() - before


def counting(store_class, one: str, many: str):
    """``store_class`` counting in ``calls`` the calls made to it about one thing
    (method ``one``) or many at once (``many``, one call however many; the ``one``
    calls it makes inside not counted again): a node's round trips to the store."""
    def counted_one(self, *args, **options):
        self.calls += not self._together
        return getattr(store_class, one)(self, *args, **options)

    def counted_many(self, *args, **options):
        self.calls += 1
        self._together = True
        try:
            return getattr(store_class, many)(self, *args, **options)
        finally:
            self._together = False
    # Named as they count: a node tells its writes apart by their methods' names.
    counted_one.__name__, counted_many.__name__ = one, many
    return type(f"Counting{store_class.__name__}", (store_class,),
                {"calls": 0, "_together": False, one: counted_one, many: counted_many})
