"""What a node taking a dead node's tables does before their players come back,
counted, not timed: the boards it replays and the writes (and the other nodes'
reads) that a takeover and the resumes after it cost. (That a takeover loses
nothing is test_cluster.py's and test_node_local.py's.)"""
from __future__ import annotations

import asyncio
import time

from game.camelot.board import START_POSITION
from game.net.client import Client
from game.server import node as node_module
from game.server import table as table_module
from game.server.bus import InProcessBus, InProcessHub
from game.server.leases import SQLiteLeasedStorage
from game.server.node import NodeServer
from game.server.storage import SeatRecord, TableRecord
from game.server.table import hash_token

from .helpers import CASTLE_GAME, FAST_HASH, play_line, seated_pair

TAKEN = 20                   # tables of a dead node


def seat_token(color: str, number: int) -> str:
    return f"{color * 24}{number:08d}"


class CountingStore(SQLiteLeasedStorage):
    """The embedded store with leases, counting the writes of one table at a time
    (not a takeover's writes of many together) and the reads of each table."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.saves, self.reads = 0, {}
        self._together = False

    def save_table(self, *args, **options):
        self.saves += not self._together
        return super().save_table(*args, **options)

    def save_tables(self, writes):
        self._together = True
        try:
            return super().save_tables(writes)
        finally:
            self._together = False

    def load_tables(self, numbers):
        for number in numbers:
            self.reads[number] = self.reads.get(number, 0) + 1
        return super().load_tables(numbers)


def dead_node_tables(db: str, ttl: float) -> None:
    """TAKEN games in play refereed by n1, whose leases run out after ``ttl`` s (n1
    is dead: nobody renews them)."""
    setup = SQLiteLeasedStorage(db)
    for i in range(TAKEN):
        record = TableRecord(
            id=0, private=False, invite=None, start_position=START_POSITION,
            status="playing", turn_wall=time.time(),
            seats={"white": SeatRecord(f"W{i}", hash_token(seat_token("w", i))),
                   "black": SeatRecord(f"B{i}", hash_token(seat_token("b", i)))})
        setup.create_leased_table(record, "n1", ttl)
    setup.close()


async def lone_node(store, ttl: float, every: float) -> tuple[NodeServer, str]:
    """Node n2 started alone on ``store`` (n1 is dead); it and its address."""
    node = NodeServer(store, InProcessBus("n2", InProcessHub()), "n2", ttl=ttl, every=every,
                      limits=FAST_HASH)
    return node, f"ws://127.0.0.1:{await node.start('127.0.0.1', 0)}"


def test_a_takeover_replays_no_board_and_marks_tables_nobody_came_back_to_later(
        tmp_path, monkeypatch):
    """n1 died referring 20 games: n2 takes them without replaying one (a board is
    made from its moves when its players come back: the replays of hundreds of
    tables stood the loop still for a second), and does not store them as deserted
    while their players are on their way; the ones nobody came back to are, from the
    takeover on, a moment later."""
    built = []

    class CountedBoard(table_module.CamelotBoard):
        def __init__(self, *args, **options):
            built.append(1)
            super().__init__(*args, **options)
    monkeypatch.setattr(table_module, "CamelotBoard", CountedBoard)
    monkeypatch.setattr(node_module, "SETTLE_SECONDS", 0.6, raising=False)
    db = str(tmp_path / "nodes.sqlite3")
    dead_node_tables(db, 0.3)

    async def main():
        node, url = await lone_node(CountingStore(db), ttl=1.0, every=0.2)
        try:
            deadline = time.monotonic() + 10
            while len(node.keeper.held) < TAKEN and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            taken_at = time.time()
            boards, deserted = len(built), [
                r.deserted_since for r in node.storage.load_tables(range(1, TAKEN + 1)).values()]
            white = await Client.connect(url, "W0")
            seated = await white.request({"type": "resume", "table": "T1", "token": seat_token("w", 0)},
                                         "seated", timeout=10, direct=True)
            state = await white.expect("table", 10, table="T1")
            one_more = len(built) - boards
            await asyncio.sleep(1.5)                         # the presence is looked at
            later = node.storage.load_tables(range(1, TAKEN + 1))
            return (boards, deserted, seated, state, one_more, taken_at, later,
                    node.storage.saves)
        finally:
            await node.close()
    boards, deserted, seated, state, one_more, taken_at, later, saves = asyncio.run(main())
    assert boards == 0                                 # one per table taken: 20
    assert deserted == [None] * TAKEN                  # stored deserted at once, before
    assert seated["color"] == "white" and state["status"] == "playing"
    assert one_more == 1                               # T1's board, for its state
    assert later[1].deserted_since is None             # White came back to T1
    others = [later[n].deserted_since for n in range(2, TAKEN + 1)]
    assert all(s is not None and s <= taken_at for s in others), others
    assert saves == 0                                  # stored together, not one by one


def test_players_coming_back_to_a_taken_table_cost_no_write_and_no_read_elsewhere(tmp_path):
    """n1 referees Alice (on n1) against Bob (on n2) and dies; n2 or n3 takes the
    table, Bob is re-attached, Alice reconnects and plays on. The takeover's "taken"
    makes the node that did not take it read the table once; the resumes change no
    seat stored (the table was never stored as deserted), so nothing more is
    written and nobody reads the table — with its moves — again (every resume did
    both: 1,333 of them at 2,000 games)."""
    async def main():
        hub, db = InProcessHub(), str(tmp_path / "nodes.sqlite3")
        stores = [CountingStore(db) for _ in range(3)]
        nodes = [NodeServer(s, InProcessBus(f"n{i + 1}", hub), f"n{i + 1}", ttl=2.0,
                            every=0.2, limits=FAST_HASH) for i, s in enumerate(stores)]
        urls = [f"ws://127.0.0.1:{await n.start('127.0.0.1', 0)}" for n in nodes]
        try:
            alice, bob, _, table = await seated_pair(",".join(urls), black_url=urls[1])
            await play_line(alice, bob, table, CASTLE_GAME[:4])
            token = alice.token(table)
            await asyncio.sleep(0.3)                       # every look heard
            crashed = nodes.pop(0)                         # n1 stops dead
            for task in crashed._tasks:
                task.cancel()
            crashed.bus.publish = lambda channel, body: None
            crashed._server.close()
            for s in stores[1:]:
                s.saves, s.reads = 0, {}
            await bob.expect("table", 10, table=table)    # re-attached at the new referee
            await alice.close()
            alice = await Client.connect(",".join(urls[1:]), "Alice")
            seated = await alice.request({"type": "resume", "table": table, "token": token},
                                         "seated", timeout=10, direct=True, table=table)
            alice.tokens[table] = (seated["color"], token)
            await alice.expect("table", 10, table=table)
            await alice.move(table, CASTLE_GAME[4])
            await bob.move(table, CASTLE_GAME[5])
            await asyncio.sleep(0.5)                       # every look heard
            taker = 0 if 1 in nodes[0].keeper.held else 1
            return ([s.saves for s in stores[1:]], stores[2 - taker].reads.get(1, 0),
                    crashed)
        finally:
            for node in nodes:
                await node.close()
    saves, reads_elsewhere, crashed = asyncio.run(main())
    crashed.hasher.shutdown()
    crashed.storage.close()
    assert saves == [0, 0]                 # Bob's resume stored its seat back: 1
    assert reads_elsewhere == 1            # "taken"; and again after each resume: 2 or more
    store = SQLiteLeasedStorage(str(tmp_path / "nodes.sqlite3"))
    assert store.load_table(1).moves == CASTLE_GAME[:6]
    store.close()


class ClaimCountingStore(SQLiteLeasedStorage):
    """The embedded store with leases, counting the leases taken one table at a time
    and the lease rounds' takings of many together."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.one_by_one, self.together = 0, 0

    def acquire_lease(self, table, node, ttl):
        self.one_by_one += 1
        self._single = True
        try:
            return super().acquire_lease(table, node, ttl)
        finally:
            self._single = False

    def acquire_leases(self, tables, node, ttl):
        if not getattr(self, "_single", False):
            self.together += 1
        return super().acquire_leases(tables, node, ttl)


async def resume_all(urls: str, timeout: float) -> list[dict]:
    """The dead node's White players come back (to the nodes at ``urls``) and resume."""
    async def one(i: int) -> dict:
        client = await Client.connect(urls, f"W{i}")
        try:
            return await client.request({"type": "resume", "table": f"T{i + 1}",
                                         "token": seat_token("w", i)}, "seated",
                                        timeout=timeout, direct=True)
        finally:
            await client.close()
    return await asyncio.gather(*(one(i) for i in range(TAKEN)))


def test_resumes_waiting_on_a_dead_referee_take_its_tables_in_one_lease_round(tmp_path):
    """n1 died; its players come back to n2 while n1's leases still run, so their
    resumes wait for n1. When the retries find the leases run out, n2 takes the
    tables in one lease round (one statement), not one claim per table as it did
    (each claim a write, a read and a "taken" of its own: hundreds in a failover).
    n2's own lease rounds are far apart here: only the retries can see the lapse."""
    db = str(tmp_path / "nodes.sqlite3")
    dead_node_tables(db, 1.0)

    async def main():
        node, url = await lone_node(ClaimCountingStore(db), ttl=60.0, every=30.0)
        try:
            seated = await resume_all(url, 10)
            return seated, node.storage.one_by_one, node.storage.together
        finally:
            await node.close()
    seated, one_by_one, together = asyncio.run(main())
    assert [s["color"] for s in seated] == ["white"] * TAKEN
    assert one_by_one == 0                    # one claim per table: 20
    assert together == 1


def test_resumes_waiting_on_a_dead_referee_go_on_as_soon_as_its_tables_are_taken(
        tmp_path, monkeypatch):
    """n1 died with its players' resumes waiting for it on n2; n2 and n3 take its
    tables in their lease rounds. Each waiting resume goes to its table's new referee
    as soon as the takeover is known — made on n2, or heard from n3 — not at the next
    retry of unanswered messages (made very late here: they waited for it)."""
    monkeypatch.setattr(node_module, "RETRY_AFTER", 60.0)
    db = str(tmp_path / "nodes.sqlite3")
    dead_node_tables(db, 1.0)

    async def main():
        hub = InProcessHub()
        nodes = [NodeServer(SQLiteLeasedStorage(db), InProcessBus(name, hub), name,
                            ttl=2.0, every=0.2, limits=FAST_HASH) for name in ("n2", "n3")]
        urls = [f"ws://127.0.0.1:{await n.start('127.0.0.1', 0)}" for n in nodes]
        try:
            seated = await resume_all(urls[0], 8)
            return seated, [len(n.keeper.held) for n in nodes]
        finally:
            for n in nodes:
                await n.close()
    seated, held = asyncio.run(main())
    assert [s["color"] for s in seated] == ["white"] * TAKEN    # refused after 8 s before
    assert sum(held) == TAKEN


def test_a_silent_referee_s_tables_are_taken_as_soon_as_its_leases_run_out(
        tmp_path, monkeypatch):
    """n1 died with its players' resumes waiting for it on n2; n2 asks the store once
    who referees their tables (n1, for a moment more), and its lease rounds and
    retries are far apart here: a round is run when the leases the store named run
    out, so the resumes go on then (they waited for the next round or retry: up to a
    second more of every failover)."""
    monkeypatch.setattr(node_module, "HOUSEKEEPING_EVERY", 60.0)    # no retries by itself
    db = str(tmp_path / "nodes.sqlite3")
    dead_node_tables(db, 2.0)

    async def main():
        node, url = await lone_node(SQLiteLeasedStorage(db), ttl=60.0, every=30.0)
        try:
            resuming = asyncio.ensure_future(resume_all(url, 8))
            while len(node.forwards) < TAKEN and not resuming.done():
                await asyncio.sleep(0.02)
            monkeypatch.setattr(node_module, "RETRY_AFTER", 0.0)
            node._retry_forwards()                 # the store asked: n1's, until its end
            monkeypatch.setattr(node_module, "RETRY_AFTER", 60.0)
            return await resuming, len(node.keeper.held)
        finally:
            await node.close()
    seated, held = asyncio.run(main())
    assert [s["color"] for s in seated] == ["white"] * TAKEN      # refused after 8 s before
    assert held == TAKEN
