"""Several server nodes under load, one killed part-way: PostgreSQL + Redis on loopback.

    python bench/cluster_load.py [--nodes 3] [--games 100] [--seconds 30] [--think 1.0]
                                 [--kill-at 12] [--durable] [--compare-games 40]

Starts PostgreSQL and Redis from their binaries in temporary folders (as the tests
do, tests/services.py), ``--nodes`` processes of ``python -m game serve --store …
--bus … --node nI``, and ``--games`` games of two guests each, White on one node
and Black on the next (so half the moves are forwarded between nodes); each
client is given every node's address, its own first. Each side plays a scripted
line of legal moves, waiting ``--think`` seconds (± 50 %) after the opponent's
move. At ``--kill-at`` seconds the first node is killed (SIGKILL): its players
reconnect to the next node and resume their seats, its tables are taken over.

Prints moves per second, a move's round trip (sent → its ``moved`` back) p50 and
p99 outside the failover window and over the whole run, the longest wait for a
move (the first send to its acknowledgement, across a reconnection), each node's
CPU, PostgreSQL's commits per second, and **moves lost**: moves a client saw
acknowledged that the database does not hold at the end (must be 0); and moves
stored twice or out of line (must be 0: the database's moves of each game are
checked against its scripted line).

Then (unless ``--compare-games 0``) one node on PostgreSQL + Redis beside one
server on SQLite, the same short load on each, one after the other.

The issue's figure is ``--games 2000`` (4,000 connections); see docs/cluster.md for
what this two-core machine carries.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.server_load import address, percentile, scripted_lines, server_cpu_seconds  # noqa: E402
from websockets.exceptions import WebSocketException  # noqa: E402

from game.net.client import Client, ConnectionLost, ServerRefused  # noqa: E402
from tests.services import PostgresServer, RedisServer  # noqa: E402

# A lost connection, or a node that closed it mid-handshake (it was being killed).
BROKEN = (ConnectionLost, WebSocketException, OSError, asyncio.TimeoutError)
RETRYABLE = ("storage_unavailable", "table_moved", "table_unavailable", "offline")
REPLY_SECONDS = 20.0
KEPT_MESSAGES = 50            # a bench client's own record of what it received
FAILOVER_WINDOW = 10.0        # seconds after the kill left out of "outside the failover"


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, and SIGKILL if it has not stopped within a minute."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            print("  (a server did not stop within 60 s of SIGTERM: killed)")
            proc.kill()
            proc.wait(15)


def start_server(args: list[str], env: dict) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "game", "serve", "--host", "127.0.0.1",
                             "--port", "0", "--connections-per-address", "100000",
                             "--tables-per-player", "1000", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    line = proc.stdout.readline()
    match = re.search(r"ws://127\.0\.0\.1:(\d+)", line)
    if not match:
        proc.kill()
        raise SystemExit(f"a server did not start: {line!r}")
    return proc, f"ws://127.0.0.1:{match.group(1)}"


class Run:
    """What the players measured."""

    def __init__(self) -> None:
        self.round_trips: list[tuple[float, float]] = []     # (sent at, seconds)
        self.acked: dict[int, dict[int, str]] = {}            # game → ply → move
        self.errors: dict[str, int] = {}
        self.reconnections = 0
        self.set_up = 0.0                                      # seconds to seat every game
        self.games = 0                                         # games set up

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class Resync(Exception):
    """The player's view of its game is wrong: resume to read it again."""


class Player:
    def __init__(self, run: Run, game: int, color: str, line: list[str], urls: list[str],
                 think: float, end: float) -> None:
        self.run, self.game, self.color, self.line = run, game, color, line
        self.urls, self.think, self.end = urls, think, end
        self.name = f"{color[0].upper()}{game}"
        self.client: Client | None = None
        self.table = self.token = None
        self.moves: list[str] = []
        self.pending_since: float | None = None      # my next move, first sent at
        self.over = False

    async def connect(self) -> None:
        self.client = await Client.connect(",".join(self.urls), self.name,
                                           local_addr=address(self.game), timeout=REPLY_SECONDS)
        # The player reads its messages as they come; the client's list of every one
        # (lobby pages during the set-up: gigabytes over 4,000 clients) is not kept.
        self.client.received = deque(self.client.received, maxlen=KEPT_MESSAGES)

    def take(self, message: dict) -> None:
        if message.get("table") != self.table:
            return
        if message["type"] == "table":
            self.moves = list(message["moves"])
            self.over = message["status"] == "finished"
        elif message["type"] == "moved" and message["ply"] == len(self.moves) + 1:
            self.moves.append(message["move"])
        elif message["type"] == "game_over":
            self.over = True

    async def resume(self) -> None:
        self.urls = self.urls[1:] + self.urls[:1]         # the next node first
        await self.connect()
        self.run.reconnections += 1
        await self.client.request({"type": "resume", "table": self.table, "token": self.token},
                                  "seated", timeout=REPLY_SECONDS, direct=True)
        self.take(await self.client.expect("table", REPLY_SECONDS, table=self.table))

    async def play(self) -> None:
        while not self.over and time.monotonic() < self.end:
            try:
                await self.turn()
            except (*BROKEN, Resync) as exc:
                self.run.error(type(exc).__name__)
                while time.monotonic() < self.end:
                    try:
                        await self.resume()
                        break
                    except (*BROKEN, ServerRefused):
                        await asyncio.sleep(0.3)

    async def turn(self) -> None:
        mine = (len(self.moves) % 2 == 0) == (self.color == "white")
        if not mine:
            self.take(await self.client.next(REPLY_SECONDS))
            return
        ply = len(self.moves) + 1
        if ply > len(self.line):
            self.over = True
            return
        if self.pending_since is None:
            await asyncio.sleep(self.think * random.uniform(0.5, 1.5))
            self.pending_since = time.monotonic()
        notation = self.line[ply - 1]
        sent = await self.client.send({"type": "move", "table": self.table, "token": self.token,
                                       "move": notation})
        while len(self.moves) < ply:
            message = await self.client.next(REPLY_SECONDS)
            if message.get("type") == "error" and message.get("re") == sent:
                self.run.error(message["code"])
                if message["code"] in RETRYABLE:
                    await asyncio.sleep(0.3)
                    return
                raise Resync(message["code"])
            self.take(message)
        if self.moves[ply - 1] == notation:
            now = time.monotonic()
            self.run.round_trips.append((self.pending_since, now - self.pending_since))
            self.run.acked.setdefault(self.game, {})[ply] = notation
        self.pending_since = None


async def set_up(game: int, urls: list[str], white_node: int, nodes: int, line, run: Run,
                 think: float, end: float) -> tuple[Player, Player]:
    def order(first: int) -> list[str]:
        return urls[first:] + urls[:first]
    white = Player(run, game, "white", line, order(white_node), think, end)
    black = Player(run, game, "black", line, order((white_node + 1) % nodes), think, end)
    await white.connect()
    await black.connect()
    white.table = black.table = (await white.client.create_table())["table"]
    white.token = await white.client.sit(white.table, "white")
    black.token = await black.client.request({"type": "sit", "table": black.table,
                                              "color": "black"}, "seated",
                                             timeout=REPLY_SECONDS, direct=True)
    black.token = black.token["token"]
    black.client.tokens[black.table] = ("black", black.token)
    await white.client.start(white.table)
    return white, black


def lines_for(games: int, seconds: float, think: float) -> list[list[str]]:
    """Each game's scripted line, as long as a run of ``seconds`` can play (a side
    waits at least half of ``think`` before each move)."""
    return scripted_lines(games, seed=7, plies=int(seconds / max(0.05, think / 2)) + 10)


async def load(urls: list[str], lines: list[list[str]], seconds: float, think: float,
               kill=None, kill_at: float | None = None,
               batch: int = 25) -> tuple[Run, dict, float]:
    """A game per line on the servers at ``urls`` for ``seconds``; ``kill()`` at
    ``kill_at``. Games are set up ``batch`` at a time; one whose set-up fails is left
    out (counted)."""
    run, games = Run(), len(lines)
    players: list[Player] = []
    setting_up = time.monotonic()
    for start in range(0, games, batch):
        pairs = await asyncio.gather(*(
            set_up(g, urls, g % len(urls), len(urls), lines[g], run, think, 0.0)
            for g in range(start, min(games, start + batch))), return_exceptions=True)
        for pair in pairs:
            if isinstance(pair, BaseException):
                run.error(f"set-up {type(pair).__name__}")
            else:
                players += pair
        if (start + batch) % 500 == 0:
            print(f"  {start + batch} games set up in {time.monotonic() - setting_up:.0f} s")
    run.games = len(players) // 2
    began = time.monotonic()
    run.set_up = began - setting_up
    for p in players:
        p.end = began + seconds
    killer = None
    if kill is not None:
        async def killing():
            await asyncio.sleep(kill_at)
            kill()
            return time.monotonic()
        killer = asyncio.create_task(killing())
    await asyncio.gather(*(p.play() for p in players))
    killed = await killer if killer else None
    for p in players:
        if p.client is not None:
            await p.client.close()
    tables = {p.game: p.table for p in players}
    return run, tables, killed


def check_store(dsn_or_db: str, tables: dict, run: Run, lines) -> tuple[int, int]:
    """(acknowledged moves the store lacks, games whose stored moves leave their line)."""
    if dsn_or_db.startswith("postgresql://"):
        from game.server.pg_storage import PostgresStorage
        store = PostgresStorage(dsn_or_db)
    else:
        from game.server.storage import SQLiteStorage
        store = SQLiteStorage(dsn_or_db)
    lost = wrong = 0
    try:
        for game, table in tables.items():
            stored = store.load_table(int(table[1:])).moves
            wrong += stored != lines[game][:len(stored)]
            lost += sum(1 for ply, move in run.acked.get(game, {}).items()
                        if ply > len(stored) or stored[ply - 1] != move)
    finally:
        store.close()
    return lost, wrong


def commits(dsn: str) -> int:
    import psycopg
    with psycopg.connect(dsn, autocommit=True) as db:
        return db.execute("SELECT xact_commit FROM pg_stat_database"
                          " WHERE datname = current_database()").fetchone()[0]


def report(title: str, run: Run, seconds: float, killed: float | None, lost: int, wrong: int):
    trips = run.round_trips
    moves = len(trips)
    calm = [t for at, t in trips
            if killed is None or not killed - 1 <= at <= killed + FAILOVER_WINDOW]
    ms = lambda v: f"{v * 1000:.1f} ms"  # noqa: E731
    print(f"{title}: {moves} moves in {seconds:.0f} s = {moves / seconds:.1f} moves/s; "
          f"round trip p50 {ms(percentile(calm, 0.5))}, p99 {ms(percentile(calm, 0.99))}"
          f"{' outside the failover window' if killed else ''}; whole run p99 "
          f"{ms(percentile([t for _, t in trips], 0.99))}, longest wait "
          f"{ms(max((t for _, t in trips), default=0))}")
    print(f"  moves lost: {lost}; games whose stored moves leave their line: {wrong}; "
          f"reconnections: {run.reconnections}; errors: {run.errors or 'none'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--kill-at", type=float, default=12.0, help="seconds (0: no kill)")
    parser.add_argument("--durable", action="store_true",
                        help="PostgreSQL with fsync on and synchronous_commit on")
    parser.add_argument("--compare-games", type=int, default=40,
                        help="games for PostgreSQL vs SQLite, one node each (0: skip)")
    parser.add_argument("--compare-seconds", type=float, default=12.0)
    parser.add_argument("--setup-batch", type=int, default=25,
                        help="games set up at once (larger: a quicker set-up, more at once)")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    # Stopped (timeout, kill): its servers are stopped too, not left running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    print(f"load before: {os.getloadavg()[0]:.1f} (uptime's 1-minute average), "
          f"{os.cpu_count()} cores")
    postgres = PostgresServer(PostgresServer.find(), durable=args.durable)
    redis = RedisServer(RedisServer.find())
    postgres.start()
    redis.start()
    procs = []
    try:
        from game.server.backends import migrate_store
        dsn = postgres.create_database("cluster_load")
        migrate_store(dsn)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        started = [start_server(["--store", dsn, "--bus", redis.url, "--node", f"n{i + 1}"], env)
                   for i in range(args.nodes)]
        procs = [p for p, _ in started]
        urls = [u for _, u in started]
        lines = lines_for(args.games, args.seconds, args.think)
        cpu0 = [sum(server_cpu_seconds(p.pid)) for p in procs]
        commits0, wall0, client0 = commits(dsn), time.monotonic(), time.process_time()

        def kill():
            procs[0].send_signal(signal.SIGKILL)
        run, tables, killed = asyncio.run(load(
            urls, lines, args.seconds, args.think,
            kill if args.kill_at > 0 else None, args.kill_at, args.setup_batch))
        wall = time.monotonic() - wall0
        client = time.process_time() - client0
        cpu = [sum(server_cpu_seconds(p.pid)) - c for p, c in zip(procs, cpu0)]
        stop_seconds = []
        for p in procs:          # a stopped node's backends flush their statistics
            stopped = time.monotonic()
            stop(p)
            stop_seconds.append(time.monotonic() - stopped)
        time.sleep(1.0)
        rate = (commits(dsn) - commits0) / wall
        lost, wrong = check_store(dsn, tables, run, lines)
        mode = "fsync and synchronous_commit on" if args.durable else "fsync off (as the tests)"
        killing = f", n1 killed at {args.kill_at:g} s" if killed else ""
        report(f"{args.nodes} nodes, {run.games} games set up of {args.games} "
               f"({2 * run.games} connections), "
               f"PostgreSQL with {mode}{killing}", run, args.seconds, killed, lost, wrong)
        print("  CPU (share of one core over the set-up and the run): " + ", ".join(
            f"n{i + 1} {c / wall * 100:.0f} %" + (" (killed)" if i == 0 and killed else "")
            for i, c in enumerate(cpu)) + f"; this bench's clients {client / wall * 100:.0f} %"
            f"; PostgreSQL commits/s: {rate:.0f}; set-up {run.set_up:.0f} s; the nodes' clean "
            f"stop (SIGTERM) " + ", ".join(f"{t:.1f}" for t in stop_seconds) + " s")
        if args.compare_games:
            compare(args, postgres, redis, env)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        postgres.remove()
        redis.remove()
    print(f"load after: {os.getloadavg()[0]:.1f}")
    return 0


def compare(args, postgres: PostgresServer, redis: RedisServer, env: dict) -> None:
    """One node on PostgreSQL + Redis, then one server on SQLite: the same load."""
    from game.server.backends import migrate_store
    dsn = postgres.create_database("compare_load")
    migrate_store(dsn)
    folder = tempfile.mkdtemp(prefix="cluster-load-")
    sqlite = os.path.join(folder, "load.sqlite3")
    lines = lines_for(args.compare_games, args.compare_seconds, args.think)
    for title, options, where in (
            ("one node, PostgreSQL + Redis",
             ["--store", dsn, "--bus", redis.url, "--node", "solo"], dsn),
            ("one server, SQLite (no bus)", ["--db", sqlite], sqlite)):
        proc, url = start_server(options, env)
        try:
            cpu0 = sum(server_cpu_seconds(proc.pid))
            run, tables, _ = asyncio.run(load([url], lines, args.compare_seconds, args.think))
            cpu = sum(server_cpu_seconds(proc.pid)) - cpu0
        finally:
            stop(proc)
        lost, wrong = check_store(where, tables, run, lines)
        report(f"{title}, {args.compare_games} games", run, args.compare_seconds, None, lost,
               wrong)
        print(f"  CPU: {cpu / args.compare_seconds * 100:.0f} % of one core")


if __name__ == "__main__":
    sys.exit(main())
