"""Several server nodes on a real PostgreSQL and a real Redis (tests/services.py):
one game across three nodes, a node killed, PostgreSQL and Redis restarted
mid-game, two nodes racing for one table. Every node is ``python -m game serve
--store … --bus … --node …`` in a process of its own; every wait is bounded."""
from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from game.camelot.board import START_POSITION
from game.net.client import Client, ServerRefused
from game.server.backends import migrate_store

from .helpers import CASTLE_GAME, ROOT, ServerProcess, play_line

SCENARIO_SECONDS = 60


class Node(ServerProcess):
    START_SECONDS = 30.0        # a node loads the database and bus drivers; CI is busy
    def __init__(self, tmp_path, name: str, dsn: str, redis: str, *options: str) -> None:
        super().__init__(str(tmp_path / f"{name}.unused"), 60.0, "--store", dsn, "--bus", redis,
                         "--node", name, *options)
        self.name = name
        self.http = self.url.replace("ws://", "http://")

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.http + path, timeout=5) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode()

    def games(self) -> int:
        """Tables this node referees now (its /metrics)."""
        text = self.get("/metrics")[1]
        return sum(int(float(n)) for n in re.findall(r'^roundtable_games\{status="(?:waiting|'
                                                      r'playing)"\} (\S+)$', text, re.M))


@pytest.fixture
def nodes(tmp_path, postgres_dsn, redis_url):
    """``nodes(3)``: that many nodes on one new database and the Redis; all stopped after."""
    migrate_store(postgres_dsn)
    started: list[Node] = []

    def one(name: str, options: tuple = ()) -> Node:
        node = Node(tmp_path, name, postgres_dsn, redis_url, *options)
        started.append(node)                  # stopped after, even if another fails to start
        return node

    def start(count: int, *options: str) -> list[Node]:
        """``count`` nodes, each given ``options`` (``serve``'s)."""
        names = [f"n{len(started) + i + 1}" for i in range(count)]
        with ThreadPoolExecutor(count) as pool:          # started at once (they race)
            return list(pool.map(one, names, [options] * count))
    start.dsn = postgres_dsn
    yield start
    for node in started:
        if node.proc.poll() is None:
            node.kill()


def run(scenario):
    return asyncio.run(asyncio.wait_for(scenario(), SCENARIO_SECONDS))


async def request(client: Client, message: dict, reply: str, seconds: float = 15.0, **match):
    """``client.request`` with room for a failover (a node's answer may wait for one)."""
    return await client.request(message, reply, timeout=seconds, **match)


async def move(client: Client, table: str, notation: str, seconds: float = 15.0) -> dict:
    return await request(client, client._seat_message("move", table, move=notation), "moved",
                         seconds, table=table, by=client.color(table))


async def resume(client: Client, table: str, token: str) -> dict:
    seated = await request(client, {"type": "resume", "table": table, "token": token}, "seated",
                           direct=True, table=table)
    client.tokens[table] = (seated["color"], token)
    return seated


async def game_across(first: Node, second: Node, third: Node | None = None):
    """Alice (White) on ``first``, Bob (Black) on ``second``, Carol watching on ``third``;
    the game started. Each client is given its node first and the others after."""
    urls = [n.url for n in (first, second, third) if n is not None]
    alice = await Client.connect(",".join(urls), "Alice")
    bob = await Client.connect(",".join(urls[1:] + urls[:1]), "Bob")
    table = (await alice.create_table())["table"]
    await alice.sit(table, "white")
    await bob.sit(table, "black")                    # forwarded to Alice's node
    carol = None
    if third is not None:
        carol = await Client.connect(",".join(urls[2:] + urls[:2]), "Carol")
        await request(carol, {"type": "watch", "table": table}, "table", table=table)
    await alice.start(table)
    return alice, bob, carol, table


def stored_moves(dsn: str, table: str) -> list[str]:
    from game.server.pg_storage import PostgresStorage
    store = PostgresStorage(dsn)
    try:
        return store.load_table(int(table[1:])).moves
    finally:
        store.close()


async def moves_seen(client: Client, table: str, count: int, seconds: float = 10.0) -> list[str]:
    """The moves a watcher has been shown once it has seen ``count`` of them: from the
    last whole table it got and the moves after it."""
    deadline = time.monotonic() + seconds
    while True:
        moves: list[str] = []
        for m in client.received:
            if m.get("table") != table:
                continue
            if m["type"] == "table":
                moves = list(m["moves"])
            elif m["type"] == "moved" and m["ply"] == len(moves) + 1:
                moves.append(m["move"])
        if len(moves) >= count or time.monotonic() > deadline:
            return moves
        try:
            await client.next(max(0.01, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            pass


def test_a_game_across_three_nodes_with_lobby_chat_health_and_metrics(nodes, tmp_path):
    n1, n2, n3 = nodes(3)

    async def scenario():
        alice, bob, carol, table = await game_across(n1, n2, n3)
        deadline = time.monotonic() + 10             # the nodes' presence rounds (each 1 s)
        while True:
            lobby = await carol.lobby()              # n3 referees nothing, shows everything
            if set(lobby["users"]) >= {"Alice", "Bob", "Carol"} or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.3)
        assert [row["table"] for row in lobby["tables"]] == [table]
        assert {"Alice", "Bob", "Carol"} <= set(lobby["users"])
        played = await play_line(alice, bob, table, CASTLE_GAME)
        assert played[-1]["winner"] == "black"
        assert await moves_seen(carol, table, len(CASTLE_GAME)) == CASTLE_GAME
        over = await carol.expect("game_over", table=table)
        assert over["winner"] == "black"
        await bob.lobby()
        said = await alice.lobby_chat("good game")   # n1's lobby chat reaches n2's lobby
        assert said["text"] == "good game"
        heard = await bob.expect("lobby_chat", **{"from": "Alice"})
        assert heard["text"] == "good game"
        return table

    table = run(scenario)
    assert stored_moves(nodes.dsn, table) == CASTLE_GAME
    for node in (n1, n2, n3):
        assert node.get("/healthz") == (200, "ok\n")
        status, text = node.get("/metrics")
        assert status == 200 and f'roundtable_node_info{{node="{node.name}"}} 1' in text
    assert "roundtable_moves_total 38" in n1.get("/metrics")[1]       # n1 refereed them all
    assert 'roundtable_lease_changes_total{change="taken"} 1' in n1.get("/metrics")[1]
    assert re.search(r"^roundtable_bus_lag_seconds_count [1-9]", n2.get("/metrics")[1], re.M)


def test_a_node_killed_mid_game_its_table_is_taken_over_and_the_game_goes_on(nodes):
    n1, n2, n3 = nodes(3)

    async def scenario():
        alice, bob, carol, table = await game_across(n1, n2, n3)
        await play_line(alice, bob, table, CASTLE_GAME[:6])
        token = alice.token(table)
        n1.kill()                                    # the referee, and Alice's node
        killed = time.monotonic()
        alice = await Client.connect(",".join([n1.url, n2.url, n3.url]), "Alice")   # n2
        await resume(alice, table, token)
        resumed = time.monotonic() - killed
        # Bob stayed on n2 and Carol on n3: they were attached to the new referee.
        for ply, notation in enumerate(CASTLE_GAME[6:12], start=6):
            moved = await move(alice if ply % 2 == 0 else bob, table, notation)
            assert moved["ply"] == ply + 1
        assert await moves_seen(carol, table, 12) == CASTLE_GAME[:12]
        return table, resumed

    table, resumed = run(scenario)
    assert resumed < 15.0                            # a lapsed lease (3 s), then a round
    assert stored_moves(nodes.dsn, table) == CASTLE_GAME[:12]     # none lost, none twice
    assert n2.games() + n3.games() == 1
    for survivor in (n2, n3):                        # a clean stop (SIGTERM) takes seconds
        started = time.monotonic()
        survivor.proc.terminate()
        assert survivor.proc.wait(15) == 0 and time.monotonic() - started < 6.0


def test_postgresql_restarted_mid_game_moves_are_refused_until_it_is_back(nodes, postgres_server):
    n1, n2 = nodes(2)

    async def scenario():
        alice, bob, _, table = await game_across(n1, n2)
        await play_line(alice, bob, table, CASTLE_GAME[:5])
        postgres_server.stop()
        # Bob's move, forwarded by n2 to n1 (the referee), cannot be stored: refused.
        with pytest.raises(ServerRefused) as refused:
            await move(bob, table, CASTLE_GAME[5])
        assert refused.value.code == "storage_unavailable"
        assert "database" in str(refused.value)
        health = n1.get("/healthz")
        deadline = time.monotonic() + 5
        while health[0] == 200 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            health = n1.get("/healthz")
        assert health[0] == 503 and "database" in health[1]
        postgres_server.start()
        for ply, notation in enumerate(CASTLE_GAME[5:8], start=5):   # the same move again
            await move(alice if ply % 2 == 0 else bob, table, notation)
        return table

    table = run(scenario)
    assert stored_moves(nodes.dsn, table) == CASTLE_GAME[:8]
    deadline = time.monotonic() + 5
    while n1.get("/healthz")[0] != 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert n1.get("/healthz") == (200, "ok\n")


def test_redis_restarted_mid_game_nothing_is_lost(nodes, redis_server):
    n1, n2, n3 = nodes(3)

    async def scenario():
        alice, bob, carol, table = await game_across(n1, n2, n3)
        await play_line(alice, bob, table, CASTLE_GAME[:4])
        redis_server.restart()
        # Bob's move goes through n2 to n1 on the bus: it waits for the nodes to
        # reconnect, then arrives once.
        for ply, notation in enumerate(CASTLE_GAME[4:10], start=4):
            client = alice if ply % 2 == 0 else bob
            moved = await move(client, table, notation)
            assert moved["ply"] == ply + 1
        assert await moves_seen(carol, table, 10) == CASTLE_GAME[:10]
        return table

    table = run(scenario)
    assert stored_moves(nodes.dsn, table) == CASTLE_GAME[:10]


def test_two_nodes_racing_for_one_table_s_lease_one_referees_it(nodes, tmp_path):
    """A table with no referee (its node never came back), two nodes started at once:
    one takes it, the other forwards; every move is stored once."""
    from game.server.pg_storage import PostgresStorage
    from game.server.storage import TableRecord
    migrate_store(nodes.dsn)
    store = PostgresStorage(nodes.dsn)
    record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
    store.create_table(record)
    store.close()
    table = record.table_id
    n1, n2 = nodes(2)
    assert n1.games() + n2.games() == 1

    async def scenario():
        alice = await Client.connect(n1.url, "Alice")
        bob = await Client.connect(n2.url, "Bob")
        await alice.sit(table, "white")
        await bob.sit(table, "black")
        await alice.start(table)
        await play_line(alice, bob, table, CASTLE_GAME[:6])

    run(scenario)
    assert stored_moves(nodes.dsn, table) == CASTLE_GAME[:6]
    assert n1.games() + n2.games() == 1


def test_serve_migrate_says_one_line_and_a_bad_bus_is_one_line(postgres_dsn, tmp_path):
    from game.server.pg_schema import LATEST
    command = [sys.executable, "-m", "game", "serve", "--store", postgres_dsn]
    done = subprocess.run([*command, "--migrate"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.strip().splitlines() == [
        f"the database's schema is at version {LATEST}"]
    bad = subprocess.run([*command, "--bus", "http://nowhere", "--port", "0"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and len(bad.stderr.strip().splitlines()) == 1
    assert "unknown bus address" in bad.stderr


def test_a_paused_referee_that_lost_its_lease_acknowledges_nothing(nodes):
    """The referee frozen (SIGSTOP) past its lease: another node takes the table; when
    it wakes, a move its player sent meanwhile is either refused or refereed by the
    new node — never stored by the old one — and the game goes on."""
    n1, n2 = nodes(2)

    async def scenario():
        alice, bob, _, table = await game_across(n1, n2)
        await play_line(alice, bob, table, CASTLE_GAME[:4])
        n1.proc.send_signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 15
            while n2.games() != 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            assert n2.games() == 1                        # n2 referees the table now
            sent = await alice.send(alice._seat_message("move", table, move=CASTLE_GAME[4]))
        finally:
            n1.proc.send_signal(signal.SIGCONT)
        while True:
            message = await alice.next(15)
            if message.get("re") == sent and message["type"] == "error":
                assert message["code"] in ("table_moved", "table_unavailable")
                assert stored_moves(nodes.dsn, table) == CASTLE_GAME[:4]
                await asyncio.sleep(0.5)
                await move(alice, table, CASTLE_GAME[4])         # the same move, again
                break
            if message.get("type") == "moved" and message.get("ply") == 5:
                break
        await move(bob, table, CASTLE_GAME[5])
        return table

    table = run(scenario)
    assert stored_moves(nodes.dsn, table) == CASTLE_GAME[:6]
    assert n1.games() == 0 and n2.games() == 1


def test_a_rematch_s_players_are_seated_again_after_its_referee_is_killed(nodes):
    """A rematch is a new table the referee makes for both players; after that node
    is killed, the player on the other node is seated again at the new referee (its
    node knew the new seat) and the game goes on."""
    n1, n2 = nodes(2)

    async def scenario():
        alice, bob, _, first = await game_across(n1, n2)
        await play_line(alice, bob, first, CASTLE_GAME[:2])
        await alice.resign(first)
        await alice.rematch(first)
        await bob.rematch(first)                     # forwarded to n1, which makes the table
        table = await alice.seated()
        assert await bob.seated() == table and bob.color(table) == "white"   # swapped
        await bob.expect("table", table=table)
        token = alice.token(table)
        n1.kill()                                    # the referee, and Alice's node
        bob.drain()
        # Bob never sent anything about the new table: n2 knew his seat from the
        # rematch itself, took the table over and seated him again (the whole table).
        again = await bob.expect("table", 15, table=table)
        assert again["seats"]["white"]["present"]
        alice = await Client.connect(",".join([n1.url, n2.url]), "Alice")
        await resume(alice, table, token)
        for ply, notation in enumerate(CASTLE_GAME[:4]):
            moved = await move(bob if ply % 2 == 0 else alice, table, notation)
            assert moved["ply"] == ply + 1
        return table

    table = run(scenario)
    assert stored_moves(nodes.dsn, table) == CASTLE_GAME[:4]
