"""What a failover costs the nodes that survive it, counted, not timed: the store
calls of a takeover, and the lobby views and bus calls of a burst of clients coming
back. (That a takeover loses nothing is test_cluster.py's and test_node_local.py's.)"""
from __future__ import annotations

import asyncio
import select
import socket
import time
from pathlib import Path

import pytest

from game.camelot.board import START_POSITION
from game.net.client import Client, ServerRefused
from game.server import game_server
from game.server import node as node_module
from game.server.backends import migrate_store
from game.server.bus import InProcessBus, InProcessHub
from game.server.leases import SQLiteLeasedStorage
from game.server.limits import Limits
from game.server.lobby import LobbyView
from game.server.node import NodeServer
from game.server.node_cli import run_event_loop
from game.server.storage import TableRecord

from .helpers import FAST_HASH, run_scenario
from .stores import TTL, counting, new_table, store, stores  # noqa: F401 - fixtures

TAKEN = 60                  # tables of a dead node
COMERS = 40                 # clients saying hello at once
CONNECTING = 400            # connections made while the server's loop stands still


def test_many_tables_are_read_in_one_call_and_saved_under_their_fences_together(store):
    mine = [new_table(store) for _ in range(3)]
    theirs = new_table(store)
    fences = {r.id: store.acquire_lease(r.id, "n1", TTL) for r in mine}
    store.acquire_lease(theirs.id, "n1", TTL)
    store.release_lease(theirs.id, "n1", 1)
    store.acquire_lease(theirs.id, "n2", TTL)             # fence 2: n1's 1 is stale
    found = store.load_tables([r.id for r in mine] + [theirs.id, 999_999])
    assert [r.id if r else None for r in found.values()] == [r.id for r in mine] + [theirs.id, None]
    for record in mine + [theirs]:
        record.deserted_since = 1234.5
    lost = store.save_tables([(r, fences[r.id]) for r in mine] + [(theirs, 1)])
    assert lost == {theirs.id}            # n2's fence, not n1's: nothing written there
    after = store.load_tables([r.id for r in mine] + [theirs.id])
    assert [r.deserted_since for r in after.values()] == [1234.5] * 3 + [None]


def counting_store(dsn: str):
    """A real PostgreSQL store that counts the calls reading or writing whole tables
    (psycopg is imported only by the tests that have a PostgreSQL)."""
    from game.server.pg_storage import PostgresStorage

    class CountingStore(PostgresStorage):
        reads = writes = 0

        def load_table(self, number):
            self.reads += 1
            return super().load_table(number)

        def load_tables(self, numbers):
            self.reads += 1
            return super().load_tables(numbers)

        def save_table(self, *args, **options):
            self.writes += 1
            return super().save_table(*args, **options)

        def save_tables(self, writes):
            self.writes += 1
            return super().save_tables(writes)
    return CountingStore(dsn)


def test_a_dead_node_s_tables_are_taken_over_in_a_few_store_calls(postgres_dsn, monkeypatch):
    """n1 made 60 tables and died (its leases lapse): n2 and n3 share them out, each
    reading and storing its share in one call a round (not one per table), and each
    reading the other's share once on hearing it was taken."""
    monkeypatch.setattr(node_module, "SETTLE_SECONDS", 0.3)   # nobody comes back to them
    migrate_store(postgres_dsn)
    from game.server.pg_storage import PostgresStorage
    setup = PostgresStorage(postgres_dsn)
    numbers = []
    for _ in range(TAKEN):
        record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
        setup.create_leased_table(record, "n1", 1.0)     # n1's, and n1 never renews
        numbers.append(record.id)

    async def main():
        hub = InProcessHub()
        stores_ = [counting_store(postgres_dsn) for _ in range(2)]
        nodes = [NodeServer(s, InProcessBus(name, hub), name, ttl=1.0, every=0.2)
                 for s, name in zip(stores_, ("n2", "n3"))]
        for node in nodes:
            await node.start("127.0.0.1", 0)
        try:
            for s in stores_:
                s.reads = s.writes = 0
            deadline = time.monotonic() + 20
            while sum(len(n.keeper.held) for n in nodes) < TAKEN \
                    and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            # Each hears the other's "taken", and stores its share as deserted once
            # nobody came back to them.
            while time.monotonic() < deadline and any(
                    r.deserted_since is None for r in setup.load_tables(numbers).values()):
                await asyncio.sleep(0.1)
            return [dict(n.keeper.held) for n in nodes], [(s.reads, s.writes) for s in stores_]
        finally:
            for node in nodes:
                await node.close()
    held, counts = asyncio.run(main())
    assert sorted([*held[0], *held[1]]) == numbers         # each table, one referee
    assert set(held[0].values()) | set(held[1].values()) == {2}     # n1's fence was 1
    reads, writes = sum(c[0] for c in counts), sum(c[1] for c in counts)
    assert reads <= 12 and writes <= 6, counts            # one by one: >= 60 of each
    for number in numbers:                                # those saves are stored
        assert setup.load_table(number).deserted_since is not None
    setup.close()


def test_clients_saying_hello_at_once_share_lobby_views_and_the_news_brings_them_up_to_date(
        monkeypatch):
    """40 guests arrive at once (as a dead node's clients do at a survivor): their
    welcomes share a few views of the lobby — each view is a pass over every table
    and every name — and the lobby news that follows lists them all."""
    made = [0]

    class CountedView(LobbyView):
        def __init__(self, server) -> None:
            made[0] += 1
            super().__init__(server)
    monkeypatch.setattr(game_server, "LobbyView", CountedView)

    async def scenario(server, url):
        first = await Client.connect(url, "First")
        for _ in range(20):
            await first.create_table()
        # A welcome may show the lobby as it was up to LOBBY_DELAY ago (the news
        # follows within that time): the tables are older than that.
        await asyncio.sleep(game_server.LOBBY_DELAY * 2)
        made[0] = 0
        comers = await asyncio.gather(*(Client.connect(url, f"Guest{i}")
                                        for i in range(COMERS)))
        assert all(c.welcome and c.received for c in comers)
        # Every welcome carried the lobby, with the tables already there.
        lobbies = [next(m for m in c.received if m["type"] == "lobby") for c in comers]
        assert all(lobby["total"] == 20 for lobby in lobbies)
        views = made[0]
        news = await comers[0].expect("lobby", 5, where=lambda m: m["online"] == COMERS + 1)
        return views, news

    views, news = run_scenario(scenario, limits=Limits(connections_per_address=100,
                                                        waiting_per_player=50,
                                                        waiting_per_address=50))
    assert views <= COMERS // 4, views                    # one per welcome: 40
    assert len(news["users"]) == COMERS + 1


class CountingBus(InProcessBus):
    """The in-process bus, counting the calls that ask about claims."""

    asked = 0

    async def holder(self, key):
        self.asked += 1
        return await super().holder(key)

    async def holders(self, keys):
        self.asked += 1
        return {key: await InProcessBus.holder(self, key) for key in keys}

    async def claim(self, claims, ttl):
        self.asked += 1
        return await super().claim(claims, ttl)


def test_clients_coming_at_once_are_checked_and_named_in_a_few_bus_calls(tmp_path):
    """40 guests come to a node at once: their addresses' ban checks and their name
    claims go to the bus together (it was two calls each); of two guests taking one
    name from two addresses at that moment, one has it."""
    async def main():
        hub = InProcessHub()
        bus = CountingBus("n1", hub)
        node = NodeServer(SQLiteLeasedStorage(str(tmp_path / "n.sqlite3")), bus, "n1",
                          limits=Limits(connections_per_address=100,
                                        scrypt_n=FAST_HASH.scrypt_n))
        url = f"ws://127.0.0.1:{await node.start('127.0.0.1', 0)}"
        try:
            bus.asked = 0
            comers = await asyncio.gather(*(Client.connect(url, f"Guest{i}")
                                            for i in range(COMERS)))
            asked = bus.asked
            twins = await asyncio.gather(
                *(Client.connect(url, "Twin", local_addr=(address, 0))
                  for address in ("127.0.0.2", "127.0.0.3")), return_exceptions=True)
            return asked, [c.name for c in comers], twins
        finally:
            await node.close()
    asked, names, twins = asyncio.run(main())
    assert names == [f"Guest{i}" for i in range(COMERS)]
    assert asked <= COMERS // 4, asked                    # two each: 80
    refused = [t for t in twins if isinstance(t, ServerRefused)]
    assert len(refused) == 1 and refused[0].code == "name_taken"


def test_guests_coming_at_once_are_told_apart_from_accounts_in_a_few_store_reads(tmp_path):
    """40 guests say hello at once (a dead node's, at a survivor): whether each name is
    an account's is read for all of them together (it was one read each); a guest
    taking an account's name among them is still refused."""
    async def main():
        people = counting(SQLiteLeasedStorage, "find_account", "find_accounts")(
            str(tmp_path / "n.sqlite3"))
        people.create_account("Owner", "owner", "hash", "session", time.time())
        node = NodeServer(people, InProcessBus("n1", InProcessHub()), "n1",
                          limits=Limits(connections_per_address=100,
                                        scrypt_n=FAST_HASH.scrypt_n))
        url = f"ws://127.0.0.1:{await node.start('127.0.0.1', 0)}"
        try:
            people.calls = 0
            comers = await asyncio.gather(
                *(Client.connect(url, f"Guest{i}") for i in range(COMERS)),
                Client.connect(url, "Owner"), return_exceptions=True)
            return people.calls, comers
        finally:
            await node.close()
    asked, comers = asyncio.run(main())
    assert [c.name for c in comers[:COMERS]] == [f"Guest{i}" for i in range(COMERS)]
    assert isinstance(comers[-1], ServerRefused) and comers[-1].code == "name_taken"
    assert asked <= COMERS // 4, asked                   # one each: 41


class LeaseCountingStore(SQLiteLeasedStorage):
    """The embedded store with leases, counting the questions "who referees this table?"."""

    asked = 0

    def lease_of(self, table):
        self.asked += 1
        return super().lease_of(table)


def test_a_node_knows_who_referees_the_tables_whose_news_it_hears(tmp_path):
    """A node hears every referee's looks: when its clients come to those tables (as a
    dead node's come back to a survivor) it forwards them without asking the store
    who referees each (one query each, by the hundred, in a failover)."""
    async def main():
        hub, db = InProcessHub(), str(tmp_path / "nodes.sqlite3")
        stores_ = [LeaseCountingStore(db) for _ in range(2)]
        nodes = [NodeServer(s, InProcessBus(f"n{i + 1}", hub), f"n{i + 1}",
                            limits=FAST_HASH) for i, s in enumerate(stores_)]
        urls = [f"ws://127.0.0.1:{await node.start('127.0.0.1', 0)}" for node in nodes]
        try:
            alice = await Client.connect(urls[0], "Alice")
            tables = [(await alice.create_table())["table"] for _ in range(5)]
            while not all(t in nodes[1].tables for t in tables):     # n2 heard them
                await asyncio.sleep(0.02)
            stores_[1].asked = 0
            carol = await Client.connect(urls[1], "Carol")
            for table in tables:
                state = await carol.watch(table)                 # forwarded to n1
                assert state["table"] == table
            return stores_[1].asked
        finally:
            for node in nodes:
                await node.close()
    assert asyncio.run(main()) == 0                              # was one per table


def test_clients_connecting_while_the_server_is_busy_are_all_held_for_it():
    """A node taking a dead node's clients gets them all at once while its loop is
    busy (a takeover): the kernel holds every connection until the server accepts it
    (asyncio's default queue held 100 and dropped the rest's SYNs, each client then
    waiting a second and more for its retry). Here the server's loop stands still
    while 400 connections are made: all are established within half a second (a
    dropped SYN is sent again after one)."""
    async def scenario(server, url):
        sockets = []
        try:                                  # the loop does not run meanwhile
            return connect_waiting(int(url.rsplit(":", 1)[1]), sockets, 0.5)
        finally:
            for s in sockets:
                s.close()
    assert run_scenario(scenario) >= min(CONNECTING, listen_cap())     # was 101


def connect_waiting(port: int, sockets: list, seconds: float) -> int:
    """CONNECTING connections to ``port`` (put in ``sockets``), made without the event
    loop; how many the kernel established within ``seconds``."""
    for _ in range(CONNECTING):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        sockets.append(s)
    deadline, waiting = time.monotonic() + seconds, set(sockets)
    while waiting and time.monotonic() < deadline:
        _, writable, _ = select.select([], list(waiting), [], 0.05)
        waiting -= {s for s in writable
                    if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0}
    return CONNECTING - len(waiting)


def listen_cap() -> int:
    """The kernel caps a listening queue at net.core.somaxconn (4096 since Linux 5.4;
    128 on older kernels and elsewhere)."""
    somaxconn = Path("/proc/sys/net/core/somaxconn")
    return int(somaxconn.read_text()) if somaxconn.exists() else 128


def test_a_node_s_busy_loop_takes_every_waiting_connection_at_once():
    """A node's event loop (uvloop where installed) never idle — as a survivor's is
    while a dead node's players come back — with 400 connections waiting to be
    accepted: a few turns of the loop take them all. (uvloop took one a turn: at 20 ms
    a turn, a dead node's players waited seconds for their handshakes, most of the
    failover.)"""
    async def main():
        loop = asyncio.get_running_loop()
        made = []

        class Counted(asyncio.Protocol):
            def connection_made(self, transport):
                made.append(transport)
        server = await loop.create_server(Counted, "127.0.0.1", 0,
                                          backlog=game_server.LISTEN_BACKLOG)
        sockets = []
        try:
            connect_waiting(server.sockets[0].getsockname()[1], sockets, 2.0)
            for _ in range(10):               # ten turns, something always ready
                await asyncio.sleep(0)
            return len(made)
        finally:
            for transport in made:
                transport.close()
            server.close()
            await server.wait_closed()
            for s in sockets:
                s.close()
    assert run_event_loop(main()) >= min(CONNECTING, listen_cap())     # 9 with uvloop's own


def test_a_node_s_loop_takes_connections_itself_only_on_one_ip_address():
    """A host name may stand for several addresses (and listen on each): uvloop's own
    server then, as for TLS or a socket given."""
    uvloop = pytest.importorskip("uvloop")
    from game.server.accepting import EagerAcceptLoop, EagerListener

    async def main():
        loop = asyncio.get_running_loop()
        own = await loop.create_server(asyncio.Protocol, "127.0.0.1", 0)
        named = await loop.create_server(asyncio.Protocol, "localhost", 0)
        for server in (own, named):
            server.close()
            await server.wait_closed()
        return type(own), type(named)
    own, named = uvloop.run(main(), loop_factory=EagerAcceptLoop)
    assert own is EagerListener and named is not EagerListener
