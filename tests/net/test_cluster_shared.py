"""What two nodes on a real PostgreSQL and Redis must agree on about people, so that
a client sees one server whichever node it reaches: guest names, seeks, the limits
(sign-in failures, connections and waiting tables per player and address), a
moderator's ban and mute. Every node is a process of its own (test_cluster.py's)."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import pytest

from game.net.client import Client, ConnectionLost, ServerRefused
from websockets.exceptions import InvalidStatus, WebSocketException

from .helpers import CASTLE_GAME, PASSWORD, ROOT
from .test_cluster import nodes, run  # noqa: F401  (the fixture)


async def until(condition, seconds: float = 8.0):
    """``await condition()`` until it is true (the nodes' presence rounds take a second)."""
    deadline = time.monotonic() + seconds
    while not (value := await condition()) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    return value


class refused:
    """``with refused("name_taken"):`` — the block is refused with that code."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        assert kind is ServerRefused, f"not refused ({self.code} expected)"
        assert error.code == self.code, error
        return True


def test_names_seeks_limits_and_moderation_hold_across_two_nodes(nodes):
    n1, n2 = nodes(2, "--connections-per-address", "3", "--tables-per-player", "2")

    async def scenario():
        # A guest's name is taken on every node; let go when the guest leaves.
        ann = await Client.connect(n1.url, "Ann")
        with refused("name_taken"):
            await Client.connect(n2.url, "ANN", local_addr=("127.0.0.2", 0))
        await ann.close()
        ann = await until(lambda: _connects(n2.url, "Ann", ("127.0.0.2", 0)))
        assert ann.welcome["name"] == "Ann"

        # A seek on n1 pairs with a seek on n2: one game, each in a seat, moves go.
        bob = await Client.connect(n1.url, "Bob")
        carol = await Client.connect(n2.url, "Carol", local_addr=("127.0.0.3", 0))
        waiting = await bob.seek()
        assert waiting["type"] == "seek_waiting"
        assert await until(lambda: _lobby_seeks(carol, "Bob"))      # n2 shows Bob's seek
        await carol.send({"type": "seek"})
        table_bob, table_carol = await bob.seated(), await carol.seated()
        assert table_bob == table_carol
        first, second = (bob, carol) if bob.color(table_bob) == "white" else (carol, bob)
        assert (await first.move(table_bob, CASTLE_GAME[0]))["ply"] == 1
        assert (await second.move(table_bob, CASTLE_GAME[1]))["ply"] == 2
        assert not await _lobby_seeks(carol, "Bob")

        # Wrong passwords count on every node: three on n1, two on n2, then the right
        # one is refused for a while (five failures per account).
        dave = await Client.account(n1.url, "Dave", PASSWORD, register=True)
        await dave.close()
        for url in (n1.url, n1.url, n1.url, n2.url, n2.url):
            with refused("bad_password"):
                await Client.account(url, "Dave", "wrong password",
                                     local_addr=("127.0.0.4", 0))
        with refused("rate_limited"):
            await Client.account(n2.url, "Dave", PASSWORD, local_addr=("127.0.0.5", 0))

        # Connections per address (3): two on n1, then n2 lets one more in, not two.
        here = ("127.0.0.6", 0)
        kept = [await Client.connect(n1.url, None, local_addr=here) for _ in range(2)]
        assert await until(lambda: _refused_at(n2.url, here, keep=kept))
        for client in kept:
            await client.close()

        # Waiting tables per player (2): made on n1, a third refused on n2.
        eve = await Client.connect(n1.url, "Eve", local_addr=("127.0.0.7", 0))
        for _ in range(2):
            await eve.create_table()
        await eve.close()
        eve = await Client.connect(n2.url, "Eve", local_addr=("127.0.0.7", 0))
        with refused("too_many_tables"):
            await eve.create_table()

        # An account signed in on n2 closes its connection on n1, as one server would.
        first = await Client.account(n1.url, "Mod", PASSWORD, register=True)
        mod = await Client.account(n2.url, "Mod", PASSWORD)
        assert await _closed(first) == 1008 and first.ws.close_reason == "signed in elsewhere"

        # A moderator on n2 mutes a guest on n1 and bans another there.
        made = subprocess.run([sys.executable, "-m", "game", "serve", "--store", nodes.dsn,
                               "--make-moderator", "Mod"], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        assert made.returncode == 0, made.stderr
        gina = await Client.connect(n1.url, "Gina", local_addr=("127.0.0.8", 0))
        frank = await Client.connect(n1.url, "Frank", local_addr=("127.0.0.9", 0))
        assert await until(lambda: _online(mod, {"Gina", "Frank"}))
        await mod.moderate("mute", name="Gina", minutes=10)
        await asyncio.sleep(0.5)
        with refused("muted"):
            await gina.lobby_chat("hello")
        await mod.moderate("ban", name="Frank")
        assert await _closed(frank) == 1008           # n1 closed Frank's connection
        for url in (n1.url, n2.url):                  # and his address is refused on both
            with pytest.raises((InvalidStatus, WebSocketException, ConnectionLost, OSError)):
                await Client.connect(url, "Frank2", local_addr=("127.0.0.9", 0))

    run(scenario)


async def _connects(url: str, name: str, source):
    try:
        return await Client.connect(url, name, local_addr=source)
    except ServerRefused:
        return None


async def _closed(client: Client, seconds: float = 5.0) -> int | None:
    """The close code once the server closed ``client``'s connection (it reads until then)."""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            await client.next(max(0.01, deadline - time.monotonic()))
    except (ConnectionLost, asyncio.TimeoutError):
        pass
    return client.ws.close_code


async def _lobby_seeks(client: Client, name: str) -> bool:
    return any(row["name"] == name for row in (await client.lobby())["seeks"])


async def _online(client: Client, names: set) -> bool:
    return names <= set((await client.lobby())["users"])


async def _refused_at(url: str, source, keep: list) -> bool:
    """True once a third connection from ``source`` is let in and a fourth is refused."""
    third = await Client.connect(url, None, local_addr=source)
    try:
        fourth = await Client.connect(url, "Four", local_addr=source)
    except (ServerRefused, WebSocketException, ConnectionLost, OSError):
        await third.close()
        return True
    await fourth.close()
    await third.close()
    return False
