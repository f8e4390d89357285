"""SQLite storage: what is written is what a restart reads back."""
import time

import pytest

from game.camelot.board import START_POSITION
from game.net.client import ServerRefused
from game.server.storage import SQLiteStorage, StorageError, TableRecord

from .helpers import OPENING, run_scenario, seated_pair


# Tables, moves and a ply stored twice: tests/net/test_storage_contract.py, on every store.


class FailingStorage(SQLiteStorage):
    """A disk that fills up after the game has started."""

    def add_move(self, record, ratings=()):
        raise StorageError("database or disk is full")


def test_a_move_that_cannot_be_stored_is_never_announced_and_the_server_stops():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        bob.drain()
        with pytest.raises(ServerRefused) as refusal:
            await alice.move(table, OPENING[0])
        assert refusal.value.code == "stopping"
        assert server.stopped.is_set()
        with pytest.raises(ServerRefused) as refusal:
            await bob.chat(table, "hello?")          # everything is refused from now on
        assert refusal.value.code == "stopping"
        assert all(m["type"] != "moved" for m in bob.drain())
    run_scenario(scenario, storage=FailingStorage(":memory:"))


def test_the_write_ahead_log_is_copied_into_the_database_by_the_checkpoint_thread(tmp_path):
    path = tmp_path / "c.sqlite3"
    store = SQLiteStorage(str(path), checkpoint_every=0.05)
    size_before = path.stat().st_size
    record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
    store.create_table(record)
    for ply in range(200):
        record.moves.append(f"F{ply % 9 + 1}-F{ply % 9 + 2}")
        store.add_move(record)
    deadline = time.monotonic() + 5
    while path.stat().st_size <= size_before and time.monotonic() < deadline:
        time.sleep(0.02)                 # only a checkpoint writes the database file itself
    assert path.stat().st_size > size_before
    store.close()
    assert SQLiteStorage(str(path)).load_table(record.id).moves == record.moves


# The pages' data (profiles, the archive, the leaderboard) on every store:
# tests/net/test_storage_people.py.
