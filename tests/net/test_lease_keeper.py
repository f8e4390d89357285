"""A node's leases kept: a dead node's tables taken over, a stalled node told what
it lost, a clean stop handing tables on at once — on both stores."""
from __future__ import annotations

import asyncio
import time

import pytest

from game.server.lease_keeper import LeaseChange, LeaseKeeper
from game.server.leases import LeaseLost

from .stores import new_table, store, stores  # noqa: F401 - fixtures

SHORT = 0.5


def wait_until_lapsed(store, tables) -> None:
    deadline = time.monotonic() + 10
    while any(store.lease_of(t) for t in tables) and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_dead_node_s_tables_are_taken_over_and_it_learns_it_lost_them(stores):
    n1 = LeaseKeeper(stores.open(), "n1", ttl=30, every=1)
    n2 = LeaseKeeper(stores.open(), "n2", ttl=30, every=1)
    tables = [new_table(n1.store).id for _ in range(3)]
    fences = {t: n1.claim(t) for t in tables}
    assert fences == {t: 1 for t in tables}
    assert n2.step() == [] and n2.held == {}                   # n1 is alive: nothing to take
    n1.store.renew_leases("n1", SHORT)                         # n1's last renewal; then it dies
    wait_until_lapsed(n2.store, tables)
    assert n2.step() == [LeaseChange(t, 2, "taken") for t in tables]
    assert n1.step() == [LeaseChange(t, 1, "lost") for t in tables]   # back: told at once
    assert n1.held == {} and n2.held == {t: 2 for t in tables}
    record = n1.store.load_table(tables[0])
    record.moves.append("D6-C5")
    with pytest.raises(LeaseLost):
        n1.store.add_move(record, fence=fences[tables[0]])


def test_a_clean_stop_hands_its_tables_on_at_once(stores):
    n1 = LeaseKeeper(stores.open(), "n1", ttl=30, every=1)
    n2 = LeaseKeeper(stores.open(), "n2", ttl=30, every=1)
    table = new_table(n1.store).id
    n1.claim(table)
    assert n1.release_all() == [LeaseChange(table, 1, "released")]
    assert n2.step() == [LeaseChange(table, 2, "taken")]      # no lease to wait out


def test_a_node_restarted_under_its_name_takes_its_tables_afresh(stores):
    """The leases still live in n1's name belong to n1's earlier run: the new run
    takes them with new fences, so the old one, were it still writing, is shut out."""
    before = LeaseKeeper(stores.open(), "n1", ttl=30, every=1)
    table = new_table(before.store).id
    old = before.claim(table)
    again = LeaseKeeper(stores.open(), "n1", ttl=30, every=1, take_over=False)
    assert again.step() == [LeaseChange(table, old + 1, "taken")]
    record = before.store.load_table(table)
    record.moves.append("D6-C5")
    with pytest.raises(LeaseLost):
        before.store.add_move(record, fence=old)


def test_running_keepers_take_a_killed_node_s_tables(stores):
    changes: list[LeaseChange] = []
    n1 = LeaseKeeper(stores.open(), "n1", ttl=2, every=0.1)
    n2 = LeaseKeeper(stores.open(), "n2", ttl=2, every=0.1, on_change=changes.append)
    tables = [new_table(n1.store).id for _ in range(4)]
    for table in tables:
        n1.claim(table)

    async def scenario():
        tasks = [asyncio.create_task(k.run()) for k in (n1, n2)]
        await asyncio.sleep(1)
        assert n2.held == {}                                   # n1 renews: nothing lapses
        tasks[0].cancel()                                      # kill -9: no release
        deadline = time.monotonic() + 10
        while len(n2.held) < len(tables) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        tasks[1].cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    asyncio.run(scenario())
    assert sorted(n2.held) == tables
    assert sorted(c.table for c in changes) == tables and {c.change for c in changes} == {"taken"}


def test_a_lease_must_be_renewed_more_often_than_it_lasts(store):
    with pytest.raises(ValueError, match="every 3 s, ttl 3 s"):
        LeaseKeeper(store, "n1", ttl=3, every=3)


def test_after_the_database_was_down_longer_than_a_lease_the_node_retakes_its_tables(
        postgres_server, postgres_dsn):
    from game.server.pg_storage import PostgresStorage, migrate
    migrate(postgres_dsn)
    keeper = LeaseKeeper(PostgresStorage(postgres_dsn, timeout=2), "n1", ttl=SHORT, every=0.1)
    table = new_table(keeper.store).id
    keeper.claim(table)
    postgres_server.stop()
    assert keeper.step() == [] and keeper.unavailable is not None
    time.sleep(SHORT + 0.2)
    postgres_server.start()
    # Its lease lapsed meanwhile: lost (stop refereeing on the old fence), and taken
    # again at once (reload, referee on the new one).
    assert keeper.step() == [LeaseChange(table, 1, "lost"), LeaseChange(table, 2, "taken")]
    assert keeper.unavailable is None


def test_lapsed_tables_are_shared_out_and_a_share_left_untaken_goes_a_round_later(stores):
    dead = LeaseKeeper(stores.open(), "n1", ttl=SHORT, every=0.1)
    n2 = LeaseKeeper(stores.open(), "n2", ttl=30, every=1, share=lambda: (0, 2))
    n3 = LeaseKeeper(stores.open(), "n3", ttl=30, every=1, share=lambda: (1, 2))
    tables = [new_table(dead.store).id for _ in range(4)]
    for table in tables:
        dead.claim(table)
    wait_until_lapsed(n2.store, tables)
    assert sorted(n2.step() and n2.held) == [t for t in tables if t % 2 == 0]
    assert sorted(n3.step() and n3.held) == [t for t in tables if t % 2 == 1]
    more = [new_table(dead.store).id for _ in range(2)]      # n3 dies too, with its share
    for table in more:
        dead.claim(table)
    wait_until_lapsed(n2.store, more)
    assert sorted(n2.step() and n2.held) == sorted([t for t in tables if t % 2 == 0]
                                                   + [t for t in more if t % 2 == 0])
    n2.step()                                                   # a round later: the rest
    assert sorted(n2.held) == sorted([t for t in tables if t % 2 == 0] + more)
