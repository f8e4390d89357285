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

    def __init__(self, make) -> None:
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
        opened = Stores(lambda: SQLiteLeasedStorage(path))
    else:
        dsn = request.getfixturevalue("postgres_dsn")
        from game.server.pg_storage import PostgresStorage, migrate
        migrate(dsn)
        opened = Stores(lambda: PostgresStorage(dsn))
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


