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


def _contract_keys(row: dict, keys: str) -> None:
    assert set(keys.split()) <= set(row), (sorted(row), keys)


def test_the_pages_data_has_the_shapes_the_web_pages_read():
    """Storage.player_profile, leaderboard and archive: the keys of PlayerPage,
    Leaderboard, Archive and GameRow; pages of 50 with the next offset."""
    from game.server.ratings import Rating, rate_game
    from game.server.storage import PAGE, RatingChange, SeatRecord

    store = SQLiteStorage(":memory:")
    alice = store.create_account("Alice", "alice", "scrypt$x", "s1", 1.0e9)
    bob = store.create_account("Bob", "bob", "scrypt$y", "s2", 1.0e9)
    white, black = Rating(), Rating()
    for n in range(PAGE + 3):
        record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION,
                             time_base=180, rated=True)
        record.seats = {"white": SeatRecord("Alice", "h", alice.id),
                        "black": SeatRecord("Bob", "h", bob.id)}
        store.create_table(record)
        record.moves = ["D6-C5", "D11-C12"]
        record.status, record.winner, record.reason, record.ended = \
            "finished", "white", "Black resigned", 1.0e9 + n
        new_white, new_black = rate_game(white, black, "white")
        store.save_table(record, (RatingChange(alice.id, "blitz", white, new_white),
                                  RatingChange(bob.id, "blitz", black, new_black)))
        white, black = new_white, new_black
    page = store.player_profile("ALICE")
    _contract_keys(page, "name guest created ratings games next")
    assert page["name"] == "Alice" and page["guest"] is False and page["created"].endswith("Z")
    _contract_keys(page["ratings"]["blitz"], "rating rd games provisional")
    assert page["ratings"]["blitz"]["games"] == PAGE + 3
    assert len(page["games"]) == PAGE and page["next"] == PAGE
    game = page["games"][0]
    _contract_keys(game, "id white black result reason rated time_class ended moves")
    assert (game["white"], game["result"], game["reason"], game["rated"], game["time_class"],
            game["moves"]) == ("Alice", "1-0", "Black resigned", True, "blitz", 2)
    assert page["games"][0]["ended"] > page["games"][1]["ended"]        # newest first
    rest = store.player_profile("alice", PAGE)
    assert len(rest["games"]) == 3 and rest["next"] is None
    board = store.leaderboard("blitz")
    _contract_keys(board, "time_class time_classes rows next")
    _contract_keys(board["rows"][0], "rank name rating rd games")
    assert [r["name"] for r in board["rows"]] == ["Alice", "Bob"] and board["next"] is None
    assert store.leaderboard()["time_class"] == "blitz"           # the first class there is
    archive = store.archive("bob", 50)
    _contract_keys(archive, "games next")
    assert len(archive["games"]) == 3 and store.archive("nobody") == {"games": [], "next": None}
    assert store.player_profile("nobody") is None and store.player_profile("!!") is None
    store.close()
