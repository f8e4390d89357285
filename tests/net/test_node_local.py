"""Nodes without PostgreSQL or Redis: three node servers in one process on one SQLite
file and the in-process bus — the same routing as across machines (the real
servers' tests are in test_cluster.py)."""
from __future__ import annotations

import asyncio
import os
import json
import subprocess
import sys
import time

from websockets.asyncio.client import connect

from game.net.client import Client, ServerRefused
from game.net.protocol import PROTOCOL_VERSION
from game.server.bus import InProcessBus, InProcessHub
from game.server.leases import SQLiteLeasedStorage
from game.server.node import NodeServer

from .helpers import CASTLE_GAME, ROOT, play_line, seated_pair


def run_nodes(tmp_path, scenario, count: int = 3, **options):
    async def main():
        hub, db = InProcessHub(), str(tmp_path / "nodes.sqlite3")
        nodes = [NodeServer(SQLiteLeasedStorage(db), InProcessBus(f"n{i + 1}", hub), f"n{i + 1}",
                            **options) for i in range(count)]
        urls = [f"ws://127.0.0.1:{await node.start('127.0.0.1', 0)}" for node in nodes]
        try:
            return await asyncio.wait_for(scenario(nodes, urls), 30)
        finally:
            for node in nodes:
                await node.close()
    return asyncio.run(main())


def test_players_on_two_nodes_and_a_spectator_on_a_third_see_one_game(tmp_path):
    async def scenario(nodes, urls):
        alice = await Client.connect(urls[0], "Alice")
        bob = await Client.connect(urls[1], "Bob")
        carol = await Client.connect(urls[2], "Carol")
        table = (await alice.create_table())["table"]
        assert [sorted(n.keeper.held) for n in nodes] == [[1], [], []]    # its maker referees
        await alice.sit(table, "white")
        await bob.sit(table, "black")                # n2 forwards to n1 and relays the answer
        state = await carol.watch(table)
        assert state["seats"]["black"]["name"] == "Bob" and state["spectators"] == ["Carol"]
        await alice.start(table)
        await play_line(alice, bob, table, CASTLE_GAME[:10])
        with_moves = await carol.expect("moved", table=table, ply=10)
        assert with_moves["move"] == CASTLE_GAME[9]
        # Refusals come back from the referee as they would from one server.
        try:
            await bob.move(table, CASTLE_GAME[11])
        except ServerRefused as refused:
            assert refused.code == "not_your_turn"
        else:
            raise AssertionError("a move out of turn was played")
        # n3's replica follows the game without refereeing it.
        replica = nodes[2].tables[table]
        assert replica.record.moves == CASTLE_GAME[:10] and nodes[2].refereed() == []
        await bob.leave(table)                       # Bob's seat is absent at the referee
        await asyncio.sleep(0.05)
        assert nodes[0].tables[table].seat_conn["black"] is None
        return table

    run_nodes(tmp_path, scenario)
    store = SQLiteLeasedStorage(str(tmp_path / "nodes.sqlite3"))
    assert store.load_table(1).moves == CASTLE_GAME[:10]
    store.close()


def test_a_node_stopped_cleanly_hands_its_tables_on_at_once(tmp_path):
    async def scenario(nodes, urls):
        alice, bob, _, table = await seated_pair(urls[0], black_url=urls[1])
        await play_line(alice, bob, table, CASTLE_GAME[:2])
        token = alice.token(table)
        await nodes[0].close()                       # its leases released
        alice = await Client.connect(",".join(urls), "Alice")
        assert alice.url == urls[1]
        seated = await alice.request({"type": "resume", "table": table, "token": token},
                                     "seated", timeout=10, direct=True, table=table)
        alice.tokens[table] = (seated["color"], token)
        assert sorted(nodes[1].keeper.held) == [1] or sorted(nodes[2].keeper.held) == [1]
        moved = await alice.request(alice._seat_message("move", table, move=CASTLE_GAME[2]),
                                    "moved", timeout=10, table=table)
        assert moved["ply"] == 3
        nodes.pop(0)

    run_nodes(tmp_path, scenario)


def test_after_a_crash_the_side_to_move_is_charged_up_to_its_referee_s_last_sign_of_life(
        tmp_path):
    """n1 dies (no lease released) while Black thinks: the node that takes the table
    charges Black's clock the time thought up to n1's last renewal, not the time the
    table had no referee."""
    async def scenario(nodes, urls):
        alice, bob, _, table = await seated_pair(urls[0], black_url=urls[1],
                                                 time_control={"base": 300, "increment": 0})
        await alice.move(table, CASTLE_GAME[0])
        await asyncio.sleep(1.0)                      # Black thinks for a second, then
        crashed = nodes.pop(0)                        # n1 stops dead: leases kept,
        for task in crashed._tasks:                   # nothing more stored or said
            task.cancel()
        crashed.storage.close()
        crashed.bus.publish = lambda channel, body: None
        crashed._server.close()
        state = await bob.expect("table", 10, table=table,        # re-attached at n2
                                 where=lambda m: m["moves"] == CASTLE_GAME[:1])
        assert any(sorted(n.keeper.held) == [1] for n in nodes)
        return state["clocks"]["black"] / 1000, crashed

    clocks, crashed = run_nodes(tmp_path, scenario, ttl=0.6, every=0.2)
    crashed.hasher.shutdown()
    # Thought ≈ 1 s before the crash; the table then had no referee for ≥ 0.6 s, not charged.
    assert 300 - 2.5 < clocks < 300 - 0.5


def test_a_node_stops_within_seconds_though_a_client_reads_nothing(tmp_path):
    """A client that stopped reading while news piled up for it (the buffers full, so
    not even the close frame can be written to it) does not hold a node's stop: the
    others are told 1001 (going away), the leases are released at once, and the
    silent client is cut after the close handshake's time."""
    async def scenario(nodes, urls):
        alice = await Client.connect(urls[0], "Alice")
        table = (await alice.create_table())["table"]
        silent = await connect(urls[0])
        silent.transport.pause_reading()              # it reads nothing from now on
        await silent.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION,
                                      "name": "Silent"}))
        while len(nodes[0].names) < 2:
            await asyncio.sleep(0.01)
        stuck = nodes[0].names["silent"].ws
        for _ in range(40):                           # 40 MB of news it never reads
            nodes[0]._broadcast([stuck], "x" * (1 << 20))
            await asyncio.sleep(0)
        started = time.monotonic()
        await asyncio.wait_for(nodes[0].close(), 15)
        stopped = time.monotonic() - started
        await asyncio.wait_for(alice._reader, 5)
        nodes.pop(0)
        return table, stopped, alice.ws.close_code

    table, stopped, code = run_nodes(tmp_path, scenario, count=2)
    assert stopped < 5.0
    assert code == 1001                               # going away
    store = SQLiteLeasedStorage(str(tmp_path / "nodes.sqlite3"))
    assert store.lease_of(int(table[1:])) is None     # released, not left to lapse
    store.close()


def test_a_bad_node_name_or_store_is_refused_in_one_line(tmp_path):
    """``serve --node ""`` is refused (it once ran as one server under no name), and a
    SQLite store that cannot be opened is one line, not a traceback."""
    command = [sys.executable, "-m", "game", "serve", "--port", "0"]
    for options, status, said in (
            (["--node", ""], 2, "error: --node: a node name is 1 to 64 printable characters"),
            (["--node", "n1", "--store", str(tmp_path / "no" / "such" / "x.sqlite3")], 1,
             "server: cannot start node n1: unable to open database file")):
        # run in a folder of its own: a serve that starts makes its database there
        done = subprocess.run([*command, *options], cwd=tmp_path, capture_output=True, text=True,
                              timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == status
        assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith(said)


def test_two_nodes_pairing_one_seek_at_once_make_one_game(tmp_path):
    """Ann's seek on n1 is heard on n2 and n3; Bob (n2) and Carol (n3) seek at the same
    moment: one of them gets Ann (the claim on her seek decides), the other waits."""
    async def scenario(nodes, urls):
        ann = await Client.connect(urls[0], "Ann")     # three addresses: three people
        bob = await Client.connect(urls[1], "Bob", local_addr=("127.0.0.2", 0))
        carol = await Client.connect(urls[2], "Carol", local_addr=("127.0.0.3", 0))
        await ann.seek()
        while not all(n.remote_seeks for n in nodes[1:]):
            await asyncio.sleep(0.01)
        await asyncio.gather(bob.send({"type": "seek"}), carol.send({"type": "seek"}))
        table = await ann.seated()
        answers = {c.name: await _seek_answer(c) for c in (bob, carol)}
        assert sorted(a["type"] for a in answers.values()) == ["seated", "seek_waiting"]
        partner = next(name for name, a in answers.items() if a["type"] == "seated")
        assert answers[partner]["table"] == table
        state = await ann.expect("table", table=table)
        assert sorted(s["name"] for s in state["seats"].values()) == sorted(["Ann", partner])

    run_nodes(tmp_path, scenario)


async def _seek_answer(client: Client) -> dict:
    """What the server answered a seek: ``seated`` (paired) or ``seek_waiting``."""
    while True:
        message = await client.next(5)
        if message["type"] in ("seated", "seek_waiting"):
            return message
