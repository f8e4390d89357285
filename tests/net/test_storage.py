"""SQLite storage: what is written is what a restart reads back."""
import sqlite3
import time

import pytest

from game.camelot.board import START_POSITION
from game.net.client import ServerRefused
from game.net.storage import SeatRecord, SQLiteStorage, TableRecord

from .helpers import OPENING, run_scenario, seated_pair


def test_tables_moves_and_results_survive_reopening_the_file(tmp_path):
    path = str(tmp_path / "s.sqlite3")
    store = SQLiteStorage(path)
    a = TableRecord(id=0, private=True, invite="ABCD1234", start_position=START_POSITION,
                    time_base=300, time_increment=5)
    b = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
    assert (store.create_table(a), store.create_table(b)) == (1, 2)
    a.seats = {"white": SeatRecord("Ann", "h1"), "black": SeatRecord("Bo", "h2")}
    a.status, a.clocks = "playing", {"white": 300000, "black": 300000}
    store.save_table(a)
    a.moves.append("F7-F8")
    a.clocks["white"] = 301500
    store.add_move(a)
    b.status, b.winner, b.reason, b.record_text = "finished", None, "Draw agreed", "text"
    store.save_table(b)
    store.close()

    again = SQLiteStorage(path)
    (loaded,) = again.open_tables()                 # the finished one is not reopened
    assert loaded == a
    assert again.load_table(2).reason == "Draw agreed"
    assert again.load_table(99) is None


def test_a_move_is_stored_once_per_ply(tmp_path):
    store = SQLiteStorage(str(tmp_path / "p.sqlite3"))
    record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
    store.create_table(record)
    record.moves.append("F7-F8")
    store.add_move(record)
    with pytest.raises(sqlite3.IntegrityError):
        store.add_move(record)                      # the same ply again: refused, rolled back
    assert store.load_table(record.id).moves == ["F7-F8"]


class FailingStorage(SQLiteStorage):
    """A disk that fills up after the game has started."""

    def add_move(self, record):
        raise sqlite3.OperationalError("database or disk is full")


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
