"""A whole server on PostgreSQL: ``python -m game serve --store postgresql://…``
with accounts, a rated game and the pages, and all of it there again after the
node is killed and started anew (a real PostgreSQL, a real server process)."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request

import pytest

from game.net.client import Client

from .helpers import ROOT, ServerProcess, signed_in
from .test_ratings import rated_game


def serve(*options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game", "serve", *options], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_a_rated_game_on_a_node_backed_by_postgresql_outlives_the_node(postgres_dsn, tmp_path):
    unused = str(tmp_path / "never-made.sqlite3")         # --db is not the store here
    migrated = serve("--store", postgres_dsn, "--migrate")
    assert migrated.returncode == 0 and migrated.stdout.strip().endswith("version 3"), \
        migrated.stderr
    first = ServerProcess(unused, 60.0, "--store", postgres_dsn, "--node", "n1")
    try:
        async def play():
            alice, bob = await signed_in(first.url, "Alice", "Bob")
            table = await rated_game(first.url, alice, bob, {"base": 180, "increment": 2})
            over = await bob.resign(table)
            assert over["result"] == "1-0"
            return table, alice.session, over["ratings"]
        table, session, ratings = asyncio.run(asyncio.wait_for(play(), 30))
    finally:
        first.kill()                                        # kill -9: no goodbye
    assert not (tmp_path / "never-made.sqlite3").exists()

    made = serve("--store", postgres_dsn, "--make-moderator", "Alice")
    assert made.returncode == 0 and made.stdout.strip() == "Alice is now a moderator", made.stderr

    again = ServerProcess(unused, 60.0, "--store", postgres_dsn, "--node", "n1")
    try:
        async def look():
            alice = await Client.with_session(again.url, session)   # signed in as before
            assert alice.welcome["name"] == "Alice" and alice.welcome["moderator"] is True
            page = await alice.history("Bob")
            blitz = page["ratings"]["blitz"]
            shown = pytest.approx((ratings["black"]["after"], ratings["black"]["rd"]), abs=0.05)
            assert (blitz["rating"], blitz["rd"]) == shown and blitz["games"] == 1
            assert [(g["id"], g["white"], g["black"], g["result"], g["rated"])
                    for g in page["games"]] == [(int(table[1:]), "Alice", "Bob", "1-0", True)]
            assert [g["id"] for g in (await alice.archive("alice"))["games"]] == [int(table[1:])]
            board = await alice.leaderboard("blitz")
            assert [r["name"] for r in board["rows"]] == ["Alice", "Bob"]
            assert [r["rating"] for r in board["rows"]] == pytest.approx(
                [ratings["white"]["after"], ratings["black"]["after"]], abs=0.05)
            record = await alice.record(table)
            assert "D6-C5" in record["text"] and "1-0" in record["text"]
        asyncio.run(asyncio.wait_for(look(), 30))
        http = again.url.replace("ws://", "http://")
        with urllib.request.urlopen(f"{http}/api/player/Alice", timeout=10) as answer:
            alice_page = json.load(answer)
        assert alice_page["ratings"]["blitz"]["rating"] == pytest.approx(
            ratings["white"]["after"], abs=0.05)
        assert alice_page["games"][0]["id"] == int(table[1:])
    finally:
        again.stop()
