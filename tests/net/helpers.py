"""Loopback servers and scripted lines for the network tests (every wait is bounded)."""
from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from game.camelot.board import position_from_pieces
from game.net.client import Client
from game.server.limits import Limits
from game.server.game_server import GameServer
from game.server.storage import SQLiteStorage

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_SECONDS = 20

# White men one step from Black's castle: F15-F16, a Black move, G15-G16 wins.
CASTLE_POSITION = position_from_pieces({"F15": "M", "G15": "M", "A5": "m", "L5": "m"})
CASTLE_LINE = ["F15-F16", "A5-A6", "G15-G16"]
# A whole game from the start position that Black wins by occupying White's castle
# (38 plies, with captures, charges and castle moves; found by a random player that
# leans towards the enemy castle, seed 15).
CASTLE_GAME = ("D6-F8 C11-E9 C6-E8-G8 D11-F9 J6-H8 I11-G9 E6-E8 J11-H9 D7-D8 E9xC7 E7-E9 "
               "G9xE7xG5 I7-G9xI9xI11xG9 D10xF8xF6 H8-F8-H10xH12 F9xD7 H6xF4 C7-E7-G5xE3 "
               "G6xE6xC8 F10xH8xF6 H12xF10xD10xF12xF10xH10 E3-F2 H7-F9 F2-F1 H10-G11 F6-G5 "
               "I6-H7 G5-F4 C8-D9 F1-G1 D9-E10 F4-F3 E10-F11 F3-G2 G8-E10-G12 G1-F1 G11-G13 "
               "G2-G1").split()
# The first moves of a game from the start position (all plain, no capture).
OPENING = ["D6-C5", "D11-C12", "I6-J5", "I11-J12"]


# Cheap password hashes for the tests that are not about hashing (the stored
# parameters go with each hash; the default cost is tested on its own).
FAST_HASH = Limits(scrypt_n=1 << 10)
PASSWORD = "correct horse battery"


async def signed_in(url: str, *names: str, password: str = PASSWORD, **options) -> list[Client]:
    """A new account for each name, signed in."""
    return [await Client.account(url, name, password, register=True, **options)
            for name in names]


def run_scenario(scenario, *, grace: float = 60.0, storage=None,
                 seconds: float = SCENARIO_SECONDS, **server_options):
    """Run ``await scenario(server, url)`` against an in-process server on 127.0.0.1."""
    async def main():
        server_options.setdefault("limits", FAST_HASH)
        server = GameServer(storage or SQLiteStorage(":memory:"), grace=grace, **server_options)
        port = await server.start("127.0.0.1", 0)
        try:
            return await asyncio.wait_for(scenario(server, f"ws://127.0.0.1:{port}"), seconds)
        finally:
            await server.close()
    return asyncio.run(main())


async def seated_pair(url: str, position: str | None = None, time_control=None,
                      spectator: bool = False, black_url: str | None = None):
    """Alice (White) and Bob (Black, at ``black_url`` if given: another node) at a
    started table; optionally Carol watching."""
    alice = await Client.connect(url, "Alice")
    bob = await Client.connect(black_url or url, "Bob")
    table = (await alice.create_table(position=position, time=time_control))["table"]
    await alice.sit(table, "white")
    await bob.sit(table, "black")
    carol = None
    if spectator:
        carol = await Client.connect(url, "Carol")
        await carol.watch(table)
    await alice.start(table)
    return alice, bob, carol, table


class ServerProcess:
    """``python -m game serve`` as a subprocess on an ephemeral port (``engine``:
    another program for ``python -m game``, e.g. the built app's ``roundtable game``)."""

    START_SECONDS = 10.0

    def __init__(self, db: str, grace: float = 60.0, *options: str, fault: str = "",
                 engine: list[str] | None = None) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "ROUNDTABLE_FAULT": fault}
        self.proc = subprocess.Popen(
            [*(engine or [sys.executable, "-m", "game"]), "serve", "--host", "127.0.0.1",
             "--port", "0", "--db", db, "--grace", str(grace), *options],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self._first_line(self.START_SECONDS)
        match = re.search(r"ws://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.kill()
            raise RuntimeError(f"the server did not start: {line!r} {self.proc.stderr.read()}")
        self.url = f"ws://127.0.0.1:{match.group(1)}"

    def _first_line(self, seconds: float) -> str:
        import selectors
        selector = selectors.DefaultSelector()
        selector.register(self.proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if selector.select(timeout=deadline - time.monotonic()):
                return self.proc.stdout.readline()
        return ""

    def kill(self) -> str:
        """SIGKILL; returns what the server wrote on stderr."""
        self.proc.kill()
        self.proc.wait(10)
        return self.proc.stderr.read()

    def stop(self) -> str:
        """SIGTERM (a clean stop); returns stderr."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        return self.proc.stderr.read()


async def play_line(white: Client, black: Client, table: str, line: list[str],
                    start: str | None = None) -> list[dict]:
    """Play ``line`` (White first) and check every ``moved`` record against the
    engine playing the same moves: ply, position and captured squares."""
    from game.camelot.board import CamelotBoard
    from game.camelot.moves import SQUARE_NAMES
    engine = CamelotBoard(start) if start else CamelotBoard()
    records = []
    for ply, move in enumerate(line):
        moved = await (white if ply % 2 == 0 else black).move(table, move)
        played = engine.play(move)
        assert moved["ply"] == ply + 1 and moved["move"] == played.notation
        assert moved["position"] == engine.position_text()
        assert moved["captures"] == sorted(SQUARE_NAMES[s] for s in played.move.captured)
        records.append(moved)
    return records
