"""The contract every store keeps about people — accounts, sessions, ratings,
moderators, ignore lists, the pages' data — on SQLite and on a real PostgreSQL
(the tables' and leases' part: test_storage_contract.py)."""
from __future__ import annotations

import inspect
import os
import subprocess
import sys

import pytest

from game.server.accounts import hash_password, name_key, verify_password
from game.server.leases import LeaseLost
from game.server.ratings import Rating, rate_game
from game.server.storage import (PAGE, ModAction, NameTaken, RatingChange, SeatRecord,
                                 SQLiteStorage, Storage)

from .helpers import ROOT
from .stores import TTL, new_table, store, stores  # noqa: F401 - fixtures

NOW = 1.7e9


def account(store, name: str, session: str | None = None):
    return store.create_account(name, name_key(name), f"scrypt$test${name}",
                                session or f"session-{name}", NOW)


def rated_table(store, white, black, **fields):
    """A rated blitz game between two accounts, two moves in, not over."""
    record = new_table(store, time_base=180, rated=True, **fields)
    record.seats = {"white": SeatRecord(white.name, "hw", white.id),
                    "black": SeatRecord(black.name, "hb", black.id)}
    record.status = "playing"
    store.save_table(record)
    for move in ("D6-C5", "D11-C12"):
        record.moves.append(move)
        store.add_move(record)
    return record


def finish(record, winner: str | None = "white", ended: float = NOW):
    record.status, record.winner, record.ended = "finished", winner, ended
    record.reason = "Black resigned" if winner == "white" else "Draw agreed"
    record.record_text = f"[Result] {record.id}\n1. D6-C5 D11-C12\n"


def changes(store, record, winner="white"):
    """Both players' rating changes for the game's result, from their stored ratings."""
    white, black = (record.seats[c].account for c in ("white", "black"))
    before = (store.rating(white, "blitz"), store.rating(black, "blitz"))
    after = rate_game(*before, winner)
    return (RatingChange(white, "blitz", before[0], after[0]),
            RatingChange(black, "blitz", before[1], after[1]))


def test_every_method_a_store_offers_is_declared_by_the_interface_and_each_is_required():
    """A store that lacks a method the server calls cannot be opened at all (a
    TypeError at start, not an AttributeError mid-game)."""
    offered = {name for name, _ in inspect.getmembers(SQLiteStorage, inspect.isfunction)
               if not name.startswith("_")}
    assert offered - set(dir(Storage)) == set()
    assert {"create_account", "session_account", "rating", "moderate", "set_ignore",
            "add_move", "take_back", "mark_alive"} <= Storage.__abstractmethods__
    forgetful = type("Forgetful", (Storage,), {name: lambda *a, **k: None
                                               for name in Storage.__abstractmethods__
                                               if name != "rating"})
    with pytest.raises(TypeError, match="abstract method.*rating"):
        forgetful()


def test_an_account_keeps_its_scrypt_hash_and_its_name_is_unique_whatever_its_look(stores):
    store = stores.open()
    stored = hash_password("correct horse battery", n=1 << 10)
    alice = store.create_account("Alice", name_key("Alice"), stored, "s1", NOW)
    assert (alice.name, alice.key, alice.password_hash, alice.created) == \
        ("Alice", "alice", stored, NOW)
    for disguise in ("ALICE", "ａｌｉｃｅ", "аӏісе", "A1ice", "al_ice"):
        with pytest.raises(NameTaken):
            store.create_account(disguise, name_key(disguise), "scrypt$x", f"s-{disguise}", NOW)
    bob = account(store, "Bob")
    assert bob.id != alice.id
    store.close()
    again = stores.open()
    found = again.find_account(name_key("ALICE"))
    assert found == alice and again.account_by_id(bob.id) == bob
    assert verify_password("correct horse battery", found.password_hash)
    assert again.find_account("nobody") is None and again.account_by_id(999) is None
    assert again.find_accounts(["bob", "nobody", "alice"]) == \
        {"bob": bob, "nobody": None, "alice": alice}      # many at once, in the order asked
    assert again.session_account("s1") == alice          # the first session came with it
    assert again.session_account("s-ALICE") is None      # the refused ones left nothing


def test_sessions_start_end_and_a_new_password_ends_all_but_the_one_given(store):
    alice = account(store, "Alice", "s1")
    store.add_session(alice.id, "s2", NOW + 1)
    store.add_session(alice.id, "s3", NOW + 2)
    assert {store.session_account(s).id for s in ("s1", "s2", "s3")} == {alice.id}
    store.drop_session("s2")
    assert store.session_account("s2") is None and store.session_account("s1") == alice
    store.set_password(alice.id, "scrypt$new", "s3")
    assert store.session_account("s1") is None
    assert store.session_account("s3").password_hash == "scrypt$new"
    store.set_password(alice.id, "scrypt$newer", "s4")   # a session not stored yet: added
    assert store.session_account("s3") is None and store.session_account("s4").id == alice.id


def test_moderators_mute_and_ban_and_every_action_is_logged_with_its_change(store):
    alice, bob, carol = (account(store, n) for n in ("Alice", "Bob", "Carol"))
    assert store.set_moderator("alice", True).moderator
    assert store.set_moderator("nobody", True) is None
    assert store.find_account("alice").moderator and not store.find_account("bob").moderator
    store.moderate(ModAction("Alice", "mute", "Bob", "10 min", NOW), bob.id,
                   muted_until=NOW + 600)
    store.moderate(ModAction("Alice", "ban", "Carol", "spam", NOW + 1), carol.id, banned=True)
    store.moderate(ModAction("Alice", "close", "T7", "", NOW + 2))
    assert store.account_by_id(bob.id).muted_until == NOW + 600
    assert store.account_by_id(carol.id).banned and store.session_account("session-Carol") is None
    assert store.session_account("session-Bob") is not None     # a mute ends no session
    assert [(a.action, a.target, a.at) for a in store.moderation_log()] == \
        [("close", "T7", NOW + 2), ("ban", "Carol", NOW + 1), ("mute", "Bob", NOW)]
    assert [a.action for a in store.moderation_log(1)] == ["close"]
    store.moderate(ModAction("Alice", "unban", "Carol", "", NOW + 3), carol.id, banned=False)
    assert not store.account_by_id(carol.id).banned
    assert store.set_moderator("alice", False).moderator is False


def test_an_ignore_list_holds_name_keys_once_each(store):
    alice = account(store, "Alice")
    assert store.ignored(alice.id) == set()
    for key in ("bob", "carol", "bob"):
        store.set_ignore(alice.id, key, True)
    store.set_ignore(alice.id, "carol", False)
    store.set_ignore(alice.id, "dave", False)
    assert store.ignored(alice.id) == {"bob"}


def test_the_sign_of_life_keeps_the_latest(stores):
    store = stores.open()
    assert store.last_alive() is None
    store.mark_alive(NOW)
    store.mark_alive(NOW + 0.5)
    store.close()
    assert stores.open().last_alive() == NOW + 0.5


def test_a_table_keeps_who_sat_where_its_rating_and_its_clock_across_reopening(stores):
    store = stores.open()
    alice, bob = account(store, "Alice"), account(store, "Bob")
    record = rated_table(store, alice, bob, owner=f"account:{alice.id}")
    record.turn_wall, record.clocks = NOW + 5, {"white": 170000, "black": 175000}
    record.deserted_since = NOW + 6
    store.save_table(record)
    record.moves = record.moves[:1]                        # a takeback
    store.take_back(record)
    store.close()
    (loaded,) = stores.open().open_tables()
    assert loaded == record and loaded.seats["white"].account == alice.id
    assert loaded.rated and loaded.owner == f"account:{alice.id}" and loaded.moves == ["D6-C5"]


def test_a_result_and_both_rating_changes_are_stored_together_and_read_back(stores):
    store = stores.open()
    alice, bob = account(store, "Alice"), account(store, "Bob")
    record = rated_table(store, alice, bob)
    finish(record)
    made = changes(store, record)
    record.moves.append("I6-J5")                           # the move that ended it
    store.add_move(record, made)
    store.close()
    again = stores.open()
    assert again.rating(alice.id, "blitz") == made[0].after
    assert again.rating(bob.id, "blitz") == made[1].after
    assert again.rating(alice.id, "rapid") == Rating()       # another class: untouched
    assert again.load_table(record.id).status == "finished"
    profile = again.player_profile("alice")
    assert profile["ratings"]["blitz"] == {"rating": made[0].after.rating,
                                           "rd": made[0].after.rd, "games": 1,
                                           "provisional": True}
    assert [g["id"] for g in profile["games"]] == [record.id]


def test_a_rated_result_refused_for_a_lost_lease_stores_no_rating_either(store):
    alice, bob = account(store, "Alice"), account(store, "Bob")
    record = rated_table(store, alice, bob)
    old = store.acquire_lease(record.id, "n1", TTL)
    store.release_lease(record.id, "n1", old)
    store.acquire_lease(record.id, "n2", TTL)
    finish(record)
    with pytest.raises(LeaseLost):
        store.save_table(record, changes(store, record), fence=old)
    assert store.load_table(record.id).status == "playing"
    assert store.rating(alice.id, "blitz") == Rating() == store.rating(bob.id, "blitz")
    assert store.player_profile("alice")["ratings"] == {}


_RESIGN = """
import sys
from game.server.backends import open_store
from game.server.ratings import Rating
from game.server.storage import RatingChange
store = open_store(sys.argv[1])
record = store.load_table(int(sys.argv[2]))
record.status, record.winner, record.reason, record.ended = "finished", "white", "resigned", 1.0
white, black = (record.seats[c].account for c in ("white", "black"))
store.save_table(record, (RatingChange(white, "blitz", Rating(), Rating(1662.3, 290.3)),
                          RatingChange(black, "blitz", Rating(), Rating(1337.7, 290.3))))
print("stored")
"""


def test_a_process_killed_between_the_result_and_its_rating_change_leaves_neither(stores):
    """The writer is killed (SIGKILL) inside the transaction, after the result and
    before the ratings: on PostgreSQL its connection drops mid-transaction."""
    store = stores.open()
    alice, bob = account(store, "Alice"), account(store, "Bob")
    record = rated_table(store, alice, bob)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    killed = subprocess.run(
        [sys.executable, "-c", _RESIGN, stores.address, str(record.id)], cwd=ROOT,
        env={**env, "ROUNDTABLE_FAULT": "between_result_and_rating"},
        capture_output=True, text=True, timeout=60)
    assert killed.returncode == -9 and "stored" not in killed.stdout, killed.stderr
    again = stores.open()
    assert again.load_table(record.id) == record                 # still playing, as it was
    assert again.rating(alice.id, "blitz") == Rating() == again.rating(bob.id, "blitz")
    assert again.archive()["games"] == [] and again.player_profile("bob")["ratings"] == {}
    done = subprocess.run([sys.executable, "-c", _RESIGN, stores.address, str(record.id)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "stored", done.stderr         # the same write, not killed
    assert again.rating(alice.id, "blitz").rating == 1662.3
    assert again.load_table(record.id).status == "finished"


def test_the_archive_is_searchable_by_player_newest_first_in_pages_with_records(store):
    alice, bob, carol = (account(store, n) for n in ("Alice", "Bob", "Carol"))
    white, black = Rating(), Rating()
    games = []
    for n in range(PAGE + 3):
        record = rated_table(store, alice, bob)
        finish(record, "white" if n % 3 else None, ended=NOW + n)
        new_white, new_black = rate_game(white, black, record.winner)
        store.save_table(record, (RatingChange(alice.id, "blitz", white, new_white),
                                  RatingChange(bob.id, "blitz", black, new_black)))
        white, black = new_white, new_black
        games.append(record)
    private = rated_table(store, alice, carol)            # finished, but private: not listed
    private.private = True
    store.save_table(private)
    other = rated_table(store, bob, carol)
    finish(other, "black", ended=NOW + 1000)
    store.save_table(other)

    page = store.player_profile("ALICE")
    assert (page["name"], page["guest"], page["created"]) == ("Alice", False, "2023-11-14T22:13:20Z")
    assert page["ratings"]["blitz"]["games"] == PAGE + 3
    assert page["ratings"]["blitz"]["rating"] == white.rating
    newest = games[::-1]
    assert [g["id"] for g in page["games"]] == [g.id for g in newest[:PAGE]]
    assert page["next"] == PAGE
    row = page["games"][0]
    assert row == {"id": newest[0].id, "white": "Alice", "black": "Bob",
                   "result": "1-0" if (PAGE + 2) % 3 else "1/2-1/2",
                   "reason": newest[0].reason, "rated": True, "time_class": "blitz",
                   "ended": "2023-11-14T22:14:12Z", "moves": 2}
    rest = store.player_profile("alice", PAGE)
    assert [g["id"] for g in rest["games"]] == [g.id for g in newest[PAGE:]]
    assert rest["next"] is None
    assert [g["id"] for g in store.archive("carol")["games"]] == [other.id]
    assert [g["id"] for g in store.archive()["games"][:2]] == [other.id, newest[0].id]
    assert store.archive("bob", PAGE)["games"][-1]["id"] == games[0].id
    assert store.archive("nobody") == {"games": [], "next": None}
    assert store.archive("!!") == {"games": [], "next": None}
    assert store.player_profile("nobody") is None and store.player_profile("!!") is None
    # Each record downloadable: the archive's number gives the whole game back.
    assert store.load_table(newest[0].id).record_text == newest[0].record_text


def test_the_leaderboard_ranks_by_class_leaves_banned_players_out_and_pages(store):
    players = [account(store, f"P{n:02d}") for n in range(PAGE + 1)]      # P50 the best
    for n, player in enumerate(players):
        record = new_table(store)
        store.save_table(record, (RatingChange(player.id, "rapid", Rating(),
                                               Rating(1500 + n, 100, 0.06, 1)),))
    board = store.leaderboard()
    assert board["time_class"] == "rapid"                  # the first class anybody has
    assert [r["name"] for r in board["rows"][:2]] == [f"P{PAGE}", f"P{PAGE - 1}"]
    assert board["rows"][0] == {"rank": 1, "name": f"P{PAGE}", "rating": 1500 + PAGE,
                                "rd": 100, "games": 1}
    assert len(board["rows"]) == PAGE and board["next"] == PAGE
    assert store.leaderboard("rapid", PAGE)["rows"][0] == {
        "rank": PAGE + 1, "name": "P00", "rating": 1500, "rd": 100, "games": 1}
    store.moderate(ModAction("mod", "ban", f"P{PAGE}", "", NOW), players[-1].id, banned=True)
    board = store.leaderboard("rapid")
    assert board["rows"][0]["name"] == f"P{PAGE - 1}" and board["next"] is None
    assert store.leaderboard("blitz")["rows"] == []
