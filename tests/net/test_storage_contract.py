"""One contract for every store the server can run on: SQLite (one node) and
PostgreSQL (several). Each test runs on both, against real databases."""
from __future__ import annotations

import random
import threading
import time

import pytest

from game.camelot.board import START_POSITION
from game.server.leases import LeaseLost, MoveConflict
from game.server.storage import SeatRecord, TableRecord

from .stores import TTL, new_table, run_sql, store, stores, work_of  # noqa: F401 - fixtures

SHORT = 0.4         # a lease the test waits out


def play(store, record: TableRecord, move: str, fence: int | None = None) -> None:
    record.moves.append(move)
    try:
        store.add_move(record, fence=fence)
    except Exception:
        record.moves.pop()
        raise


def test_tables_moves_and_results_survive_reopening(stores):
    store = stores.open()
    a = TableRecord(id=0, private=True, invite="ABCD1234", start_position=START_POSITION,
                    time_base=300, time_increment=5)
    b = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
    assert (store.create_table(a), store.create_table(b)) == (1, 2)
    a.seats = {"white": SeatRecord("Ann", "h1"), "black": SeatRecord("Bo", "h2")}
    a.status, a.clocks = "playing", {"white": 300000, "black": 300000}
    store.save_table(a)
    a.moves.append("F7-F8")
    a.clocks["white"] = 301500
    a.deserted_since = 1234.5
    store.add_move(a)
    b.status, b.reason, b.record_text = "finished", "Draw agreed", "text"
    store.save_table(b)
    store.close()

    again = stores.open()
    (loaded,) = again.open_tables()                 # the finished one is not reopened
    assert loaded == a
    assert again.load_table(2) == b
    assert again.load_table(99) is None


def test_a_ply_is_stored_once_and_a_refused_write_changes_nothing(store):
    record = new_table(store)
    play(store, record, "F7-F8")
    record.clocks = {"white": 1}
    with pytest.raises(MoveConflict, match="T1: move 1 is already stored"):
        store.add_move(record)                      # the same ply again (a retry)
    stored = store.load_table(record.id)
    assert stored.moves == ["F7-F8"] and stored.clocks == {}


def test_open_tables_are_the_unfinished_ones_in_order_with_their_moves(store):
    tables = [new_table(store) for _ in range(4)]
    play(store, tables[2], "D6-C5")
    play(store, tables[2], "D11-C12")
    tables[1].status = "finished"
    store.save_table(tables[1])
    assert [(t.id, t.moves) for t in store.open_tables()] == [
        (1, []), (3, ["D6-C5", "D11-C12"]), (4, [])]


def test_a_lease_has_one_holder_and_each_takeover_raises_the_fence(store):
    table = new_table(store).id
    assert store.acquire_lease(table, "n1", TTL) == 1
    assert store.acquire_lease(table, "n2", TTL) is None          # held by n1
    assert store.lease_of(table).node == "n1"
    assert store.renew_lease(table, "n1", 1, TTL)
    assert not store.renew_lease(table, "n2", 1, TTL)             # not n2's to renew
    store.release_lease(table, "n1", 1)
    assert store.lease_of(table) is None
    assert store.acquire_lease(table, "n2", TTL) == 2             # released: free at once
    assert not store.renew_lease(table, "n1", 1, TTL)             # n1's old fence is dead
    assert store.acquire_lease(table, "n2", TTL) == 3             # a holder re-taking it too
    lease = store.lease_of(table)
    assert (lease.table, lease.node, lease.fence) == (table, "n2", 3)
    assert lease.expires_at > time.time() + TTL / 2


def test_many_leases_are_taken_at_once_except_the_ones_another_node_holds(store):
    free, mine, theirs, lapsed = (new_table(store).id for _ in range(4))
    store.acquire_lease(mine, "n1", TTL)
    store.acquire_lease(theirs, "n2", TTL)
    store.acquire_lease(lapsed, "n2", 0.01)
    time.sleep(0.1)
    assert store.acquire_leases([lapsed, theirs, free, mine, free], "n1", TTL) == {
        free: 1, mine: 2, lapsed: 2}
    assert store.lease_of(theirs).node == "n2"
    assert store.acquire_leases([], "n1", TTL) == {}


def test_nodes_taking_overlapping_sets_at_once_neither_deadlock_nor_share(stores):
    """Four nodes each take every table, in its own shuffled order, while renewing
    what they hold: each table ends with one holder, and no call fails."""
    tables = [new_table(stores.open()).id for _ in range(40)]
    won: dict[str, dict[int, int]] = {}
    failures: list[Exception] = []
    start = threading.Barrier(4)

    def node(name: str, seed: int):
        order = random.Random(seed).sample(tables, len(tables))
        with stores.apart() as store:
            start.wait(10)
            try:
                for k in range(0, len(order), 10):
                    store.acquire_leases(order[k:k + 10], name, TTL)
                    store.renew_leases(name, TTL)
                won[name] = store.renew_leases(name, TTL)
            except Exception as error:          # noqa: BLE001 - reported by the assert below
                failures.append(error)

    threads = [threading.Thread(target=node, args=(f"n{k}", k)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failures == []
    assert sorted(t for held in won.values() for t in held) == tables


def test_a_node_renews_all_its_leases_at_once_and_learns_which_it_lost(store):
    tables = [new_table(store).id for _ in range(4)]
    fences = {t: store.acquire_lease(t, "n1", TTL) for t in tables[:3]}
    store.acquire_lease(tables[3], "n2", TTL)
    assert store.renew_leases("n1", TTL) == fences
    store.release_lease(tables[0], "n1", fences[tables[0]])       # as if lost
    store.acquire_lease(tables[0], "n2", TTL)
    assert store.renew_leases("n1", TTL) == {t: fences[t] for t in tables[1:3]}
    assert store.renew_leases("n3", TTL) == {}
    assert set(store.renew_leases("n2", TTL)) == {tables[0], tables[3]}


def test_a_lapsed_lease_is_taken_over_and_the_old_holder_can_write_nothing(store):
    record = new_table(store)
    old = store.acquire_lease(record.id, "n1", SHORT)
    play(store, record, "D6-C5", old)
    assert store.unleased_tables() == []
    deadline = time.monotonic() + 10
    while store.lease_of(record.id) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.unleased_tables() == [record.id]
    assert not store.renew_lease(record.id, "n1", old, TTL)       # lapsed: lost for good
    assert store.renew_leases("n1", TTL) == {}
    new = store.acquire_lease(record.id, "n2", TTL)
    assert new == old + 1
    with pytest.raises(LeaseLost, match=f"T{record.id}: fence {old} no longer holds"):
        play(store, record, "D11-C12", old)
    record.status = "finished"
    with pytest.raises(LeaseLost):
        store.save_table(record, fence=old)
    stored = store.load_table(record.id)
    assert stored.moves == ["D6-C5"] and stored.status == "waiting"
    play(store, record, "D11-C12", new)
    assert store.load_table(record.id).moves == ["D6-C5", "D11-C12"]


def test_nodes_racing_for_tables_get_one_lease_each(stores):
    tables = [new_table(stores.open()).id for _ in range(20)]
    nodes = [f"n{k}" for k in range(4)]
    won: dict[str, list[int]] = {name: [] for name in nodes}
    start = threading.Barrier(len(nodes))

    def race(name):
        with stores.apart() as store:
            start.wait(10)
            for table in tables:
                if store.acquire_lease(table, name, TTL) is not None:
                    won[name].append(table)

    threads = [threading.Thread(target=race, args=(name,)) for name in nodes]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(t for taken in won.values() for t in taken) == tables   # each exactly once
    check = stores.open()
    for name, taken in won.items():
        assert all(check.lease_of(t).node == name for t in taken)


def test_a_node_that_loses_its_lease_mid_game_commits_nothing_after_the_takeover(stores):
    """n1 writes moves as fast as it can and, after its first, lets its lease lapse;
    n2 takes the table over, on its own connection, concurrently. Every move n1 was
    told is stored is in what n2 loads, and n1 commits nothing after."""
    setup = stores.open()
    record = new_table(setup)
    fence = setup.acquire_lease(record.id, "n1", TTL)
    n2 = stores.open()
    writing, taken = threading.Event(), threading.Event()
    acknowledged: list[int] = []
    refused_after: list[Exception] = []

    def referee():
        mine = TableRecord(**{**record.__dict__, "moves": []})
        deadline = time.monotonic() + 20
        with stores.apart() as n1:
            while len(refused_after) < 3 and time.monotonic() < deadline:
                after_takeover = taken.is_set()
                try:
                    play(n1, mine, f"M{len(mine.moves) + 1}", fence)
                    acknowledged.append(len(mine.moves))
                except LeaseLost as refusal:
                    if after_takeover:
                        refused_after.append(refusal)
                if not writing.is_set():
                    assert n1.renew_lease(record.id, "n1", fence, SHORT)   # lapses soon
                    writing.set()

    writer = threading.Thread(target=referee)
    writer.start()
    assert writing.wait(10)
    deadline = time.monotonic() + 10
    new = None
    while new is None and time.monotonic() < deadline:
        new = n2.acquire_lease(record.id, "n2", TTL)
    taken.set()
    loaded = n2.load_table(record.id)
    taken_over_at = len(loaded.moves)
    play(n2, loaded, "N2", new)
    writer.join(30)
    assert new == fence + 1 and len(refused_after) == 3
    assert [taken_over_at] == acknowledged[-1:]          # n2 loaded every acknowledged move
    final = setup.load_table(record.id).moves
    assert final == [f"M{k}" for k in acknowledged] + ["N2"]


FINISHED = 10_000


def test_a_restart_reads_the_open_tables_only_however_many_finished_ones_are_stored(stores):
    """What a node reads when it starts (its sign of life, the open tables with
    their moves) costs the database the same work with 10,000 finished games
    stored as with none: counted (steps, rows read), not timed."""
    store = stores.open()
    template = new_table(store, status="finished")
    for move in ("D6-C5", "D11-C12", "I6-J5"):
        play(store, template, move)
    store.save_table(template)
    open_ones = [new_table(store) for _ in range(3)]
    play(store, open_ones[1], "D6-C5")
    store.mark_alive(1.0)

    def restart():
        again = stores.open()
        return work_of(again, lambda: (again.last_alive(), again.open_tables())), again

    before, _ = restart()
    columns = ("private, invite, start_position, time_base, time_increment, seats, status,"
               " clocks, winner, reason, record_text, created, deserted_since, rated, owner,"
               " turn_wall, ended, ply, time_class, white_account, black_account")
    run_sql(store, f"WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n"
                   f" WHERE k < {FINISHED}) INSERT INTO tables ({columns})"
                   f" SELECT {columns} FROM tables, n WHERE tables.id = {template.id}")
    run_sql(store, f"INSERT INTO moves (table_id, ply, notation) SELECT t.id, m.ply, m.notation"
                   f" FROM tables t, moves m WHERE m.table_id = {template.id}"
                   f" AND t.id > {open_ones[-1].id}")
    after, again = restart()
    assert run_sql(again, "SELECT count(*) FROM tables") == [(FINISHED + 4,)]
    assert [(t.id, t.moves) for t in again.open_tables()] == [
        (t.id, t.moves) for t in open_ones]
    assert after <= before * 1.2 + 20, (before, after)
