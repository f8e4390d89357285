"""Game server under load: N simultaneous games of signed-in players on loopback.

    python bench/server_load.py [--games 200] [--seconds 20] [--think 1.0]
                                [--waiting 1000] [--finished 10000]
                                [--store sqlite|postgresql|both|postgresql://…]

First the restart: a database holding ``--finished`` finished games (40 moves
each) is opened by ``python -m game serve`` and the time to its listening line is
measured, beside the same start on an empty database (3 runs each, medians).
Then the load: the server starts on a fresh database (an ephemeral port); guests
from many loopback addresses open ``--waiting`` tables waiting for players (the
server's memory before and after: memory per waiting table); then two players per
game register accounts (real password hashes; each pair from its own address in
127.1.0.0/16, as the limits count per address) and sit at a started game (memory
per game, its two connections included). Every pair plays a scripted line of legal
moves (random games from the
start position, computed once here, so the clients spend no time on rules):
each side waits ``--think`` seconds (± 50 %) after its opponent's move, then
moves. Prints moves per second, the round trip of a move (sent → its record
back from the server, p50/p99/max), the server's memory (RSS now and peak)
and every error. Bounded: the run stops after ``--seconds`` of play.

Where the round trip goes: the server (``serve --stats``) stamps each move as
its frame reaches the handler, after the engine, after the commit and after
the replies are written; with the client's own stamps (one system-wide
monotonic clock) each round trip splits into to server / engine / store /
replies written / back to client. Both event loops' lateness and the server's
garbage-collection pauses are printed too (game/server/probe.py).

``--store``: the node's store. ``sqlite`` (today's default, a fresh file);
``postgresql`` starts a real PostgreSQL in a temporary folder, as the tests do
(tests/services.py; its defaults, fsync on) and runs ``serve --store
postgresql://…`` on a fresh database with ``synchronous_commit`` as ``--pg-sync``
says (``off`` by default: SQLite's promise, see docs/cluster.md); a
``postgresql://`` address uses that database (migrated first); ``both`` runs the
load once on each, SQLite first, and ends with the two side by side. The restart
is timed on SQLite only.

Where the server's CPU goes, over the play only: ``--profile FILE`` (cProfile: every
call counted, at a cost per call that inflates many small ones) or ``--sample FILE``
(the stack sampled about every 4 ms of the server's CPU: each function's share).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.base import Status  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402
from game.camelot.board import START_POSITION  # noqa: E402
from game.net.client import Client  # noqa: E402
from game.server.game_server import tune_garbage_collector  # noqa: E402
from game.server.storage import SeatRecord, SQLiteStorage, TableRecord  # noqa: E402

LINE_PLIES = 400
CONNECT_BATCH = 50


def scripted_lines(count: int, seed: int, plies: int = LINE_PLIES) -> list[list[str]]:
    """Random games from the start, as WCF move lists (a finished game ends its line;
    at most ``plies`` moves: what a run can play)."""
    lines = []
    for n in range(count):
        rng, board, line = random.Random(seed + n), CamelotBoard(), []
        while board.status is Status.PLAYING and len(line) < plies:
            line.append(board.move_text(rng.choice(board.legal_moves())))
            board.play(line[-1])
        lines.append(line)
    return lines


def server_memory(pid: int) -> tuple[int, int]:
    """(RSS, peak RSS) of a process in KiB, from /proc (0, 0 where there is none)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0, 0
    field = lambda name: int(re.search(rf"{name}:\s+(\d+)", text).group(1))  # noqa: E731
    return field("VmRSS"), field("VmHWM")


def server_cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds a process has used ((0, 0) where /proc is missing)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def spread(values: list[float], digits: int = 2) -> str:
    """p50, p99 and max of durations in seconds, as milliseconds."""
    return (f"p50 {1000 * percentile(values, .5):.{digits}f} ms, "
            f"p99 {1000 * percentile(values, .99):.{digits}f} ms, "
            f"max {1000 * max(values, default=0.0):.1f} ms")


class Stats:
    def __init__(self) -> None:
        self.round_trips: list[float] = []
        self.errors: list[str] = []
        self.games_over = 0
        self.stamps: list[tuple] = []     # (table, ply, sent, received) monotonic, per move
        self.loop_lag: list[float] = []   # how late the clients' loop woke a 10 ms sleep


async def play_side(client: Client, table: str, line: list[str], first: bool, think: float,
                    stop_at: float, stats: Stats, rng: random.Random) -> None:
    color = client.color(table)
    opponent = "black" if color == "white" else "white"
    my_turn = first
    for ply, move in enumerate(line):
        if time.monotonic() >= stop_at:
            return
        if my_turn:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            started, sent = time.perf_counter(), time.monotonic()
            moved = await client.move(table, move)
            stats.round_trips.append(time.perf_counter() - started)
            stats.stamps.append((table, moved["ply"], sent, time.monotonic()))
            if moved["status"] != "playing":
                stats.games_over += 1
                return
        else:
            # The opponent moves within 1.5 × think, or has stopped at stop_at.
            wait = max(0.0, stop_at - time.monotonic()) + 1.5 * think + 5.0
            try:
                moved = await client.expect("moved", timeout=wait, table=table, by=opponent)
            except asyncio.TimeoutError:
                if time.monotonic() >= stop_at:
                    return
                raise
            if moved["status"] != "playing":
                return
        if moved["move"] != move:
            stats.errors.append(f"{table}: ply {ply + 1} came back as {moved['move']}, not {move}")
            return
        my_turn = not my_turn


async def watch_loop(stop_at: float, stats: Stats) -> None:
    while time.monotonic() < stop_at:
        asked = time.monotonic()
        await asyncio.sleep(0.01)
        stats.loop_lag.append(time.monotonic() - asked - 0.01)


def split_round_trips(client_stamps: list[tuple], server_stamps: list) -> list[str]:
    """Where the round trip went: client send → server handler start → stored → replies
    written → client has the record (one clock: CLOCK_MONOTONIC is system-wide). The
    last part can be a little below zero: the client may read the record before the
    server, which wrote it, takes its last stamp."""
    server = {(t, p): (a, g, s, e) for t, p, a, g, s, e in server_stamps}
    parts: dict[str, list[float]] = {
        "to server": [], "engine": [], "store": [], "replies written": [], "back to client": []}
    slow = []
    for table, ply, sent, received in client_stamps:
        if (table, ply) not in server:
            continue
        start, engine, stored, end = server[(table, ply)]
        row = (start - sent, engine - start, stored - engine, end - stored, received - end)
        for name, value in zip(parts, row):
            parts[name].append(value)
        slow.append((received - sent, row))
    lines = [f"  {name}: {spread(values)}" for name, values in parts.items()]
    slow.sort(reverse=True)
    worst = slow[:max(1, len(slow) // 100)]
    if worst:
        means = [1000 * statistics.fmean(r[i] for _, r in worst) for i in range(5)]
        lines.append("  slowest 1 %: mean " + ", ".join(
            f"{name} {m:.1f} ms" for name, m in zip(parts, means)))
    return lines


def address(number: int, base: int = 1) -> tuple[str, int]:
    """A loopback source address of its own for each number (127.base.x.y)."""
    return (f"127.{base}.{number // 250}.{number % 250 + 1}", 0)


PASSWORD = "load bench password"


async def register(url: str, number: int) -> tuple[str, str]:
    """Register game ``number``'s two accounts (a real hash each, from the pair's own
    address); returns their session tokens."""
    sessions = []
    for side in "WB":
        client = await Client.account(url, f"{side}{number}", PASSWORD, register=True,
                                      local_addr=address(number), timeout=120)
        sessions.append(client.session)
        await client.close()
    return tuple(sessions)


async def set_up_game(url: str, number: int, sessions: tuple[str, str]) -> tuple[Client, Client, str]:
    white, black = [await Client.with_session(url, session, local_addr=address(number))
                    for session in sessions]
    table = (await white.create_table())["table"]
    await white.sit(table, "white")
    await black.sit(table, "black")
    await white.start(table)
    return white, black, table


async def open_waiting_tables(url: str, count: int) -> list[Client]:
    """``count`` tables waiting for players, 5 per guest, each guest from its own address."""
    guests = []
    for first in range(0, count, 5 * CONNECT_BATCH):
        batch = range(first // 5, min(count, first + 5 * CONNECT_BATCH) // 5)
        guests += await asyncio.gather(*(Client.connect(url, f"Wait{n}", local_addr=address(n, 2))
                                         for n in batch))
    for guest in guests:
        for _ in range(5):
            await guest.create_table()
    return guests


async def run(url: str, pid: int, games: int, seconds: float, think: float, seed: int,
              waiting: int, profile: bool = False) -> dict:
    lines = scripted_lines(min(games, 16), seed)
    stats = Stats()
    # The accounts are registered first, each connection closed at once (the hashes
    # take a while and a client waiting in the lobby meanwhile only reads its news);
    # the hashing threads' memory (scrypt: 16 MiB each, kept by the allocator) is then
    # in the baseline, not in the games'.
    registered = time.perf_counter()
    sessions = []
    for first in range(0, games, CONNECT_BATCH):
        batch = range(first, min(games, first + CONNECT_BATCH))
        sessions += await asyncio.gather(*(register(url, n) for n in batch))
    registered = time.perf_counter() - registered
    rss_empty, _ = server_memory(pid)
    guests = await open_waiting_tables(url, waiting)
    rss_waiting, _ = server_memory(pid)
    setup_started = time.perf_counter()
    pairs = []
    for first in range(0, games, CONNECT_BATCH):
        batch = range(first, min(games, first + CONNECT_BATCH))
        pairs += await asyncio.gather(*(set_up_game(url, n, sessions[n]) for n in batch))
    setup = time.perf_counter() - setup_started
    rss_games, _ = server_memory(pid)
    # The 400 clients' process keeps every message it receives (Client.received):
    # the same full-collection pauses as the server's would stall it and count
    # in the round trips, so it gets the server's tuning.
    tune_garbage_collector()
    rss_before, _ = server_memory(pid)
    cpu_before = server_cpu_seconds(pid)
    clients_cpu_before = time.process_time()
    started = time.monotonic()
    if profile:
        os.kill(pid, signal.SIGUSR1)         # the server's profiler: from here on
    stop_at = started + seconds
    tasks = []
    for n, (white, black, table) in enumerate(pairs):
        line = lines[n % len(lines)]
        rng = random.Random(seed * 1000 + n)
        tasks.append(play_side(white, table, line, True, think, stop_at, stats, rng))
        tasks.append(play_side(black, table, line, False, think, stop_at, stats, rng))
    lag = asyncio.create_task(watch_loop(stop_at, stats))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    await lag
    if profile:
        os.kill(pid, signal.SIGUSR2)
    elapsed = time.monotonic() - started
    for result in results:
        if isinstance(result, BaseException):
            stats.errors.append(f"{type(result).__name__}: {result}")
    errors_on_wire = sum(1 for white, black, _ in pairs for c in (white, black)
                         for m in c.received if m.get("type") == "error")
    rss, peak = server_memory(pid)
    user, system = (after - before for after, before in zip(server_cpu_seconds(pid), cpu_before))
    cpu = user + system
    clients_cpu = time.process_time() - clients_cpu_before
    await asyncio.gather(*(c.close() for white, black, _ in pairs for c in (white, black)),
                         *(g.close() for g in guests))
    trips = stats.round_trips
    return {"games": games, "connections": 2 * games, "setup_s": setup, "register_s": registered, "seconds": elapsed,
            "moves": len(trips), "moves_per_s": len(trips) / elapsed if elapsed else 0.0,
            "p50_ms": 1000 * percentile(trips, 0.50), "p99_ms": 1000 * percentile(trips, 0.99),
            "max_ms": 1000 * max(trips, default=0.0),
            "mean_ms": 1000 * statistics.fmean(trips) if trips else 0.0,
            "games_finished": stats.games_over, "server_cpu_s": cpu, "server_system_s": system,
            "clients_cpu_s": clients_cpu, "load": os.getloadavg()[0], "rss_kib_idle": rss_before, "rss_kib": rss,
            "peak_rss_kib": peak, "waiting": waiting, "rss_kib_empty": rss_empty,
            "kib_per_waiting": (rss_waiting - rss_empty) / max(1, waiting),
            "kib_per_game": (rss_games - rss_waiting) / max(1, games), "errors": stats.errors, "errors_on_wire": errors_on_wire,
            "stamps": stats.stamps, "loop_lag": stats.loop_lag}


def fill_finished_games(db: str, count: int, plies: int = 40) -> None:
    """``count`` finished rated-looking games between two accounts, ``plies`` moves each:
    the tables through the storage's own calls, the moves in one transaction."""
    line = scripted_lines(1, 7)[0][:plies]
    storage = SQLiteStorage(db)
    alice = storage.create_account("Alice", "alice", "scrypt$-", "s-a", time.time())
    bob = storage.create_account("Bob", "bob", "scrypt$-", "s-b", time.time())
    numbers = []
    for n in range(count):
        record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION,
                             time_base=300, time_increment=3, rated=True, status="finished",
                             winner="white", reason="Black resigned", moves=list(line),
                             ended=time.time(),
                             seats={"white": SeatRecord("Alice", "-", alice.id),
                                    "black": SeatRecord("Bob", "-", bob.id)})
        numbers.append(storage.create_table(record))
    storage.close()
    import sqlite3
    with sqlite3.connect(db) as db_file:
        db_file.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                            [(t, ply + 1, move) for t in numbers for ply, move in enumerate(line)])


def time_start(db: str, runs: int = 3) -> float:
    """Median seconds from spawning ``serve`` on ``db`` to its listening line."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        proc, _ = start_server(db, None)
        times.append(time.perf_counter() - started)
        proc.terminate()
        proc.wait(10)
    return statistics.median(times)


# ``serve`` with a profiler that runs from SIGUSR1 to SIGUSR2 (sent when the play starts
# and ends: set-up and closing left out) and writes its stats to argv[1] when the server
# stops (SIGTERM).
PROFILED_SERVE = """
import atexit, cProfile, runpy, signal, sys
out, sys.argv = sys.argv[1], ["game", *sys.argv[2:]]
profile = cProfile.Profile()
signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
signal.signal(signal.SIGUSR2, lambda *_: profile.disable())
atexit.register(lambda: (profile.disable(), profile.dump_stats(out)))
runpy.run_module("game", run_name="__main__", alter_sys=True)
"""


# ``serve`` with a sampling profiler, on from SIGUSR1 to SIGUSR2: every 1 ms of the
# process's CPU (the kernel's tick, 4 ms here, in practice) the stack is noted, and at
# the end each function's share of the samples (itself and what it called, then itself
# alone) is written to argv[1]. No cost per call, so many small calls weigh what they
# cost (cProfile's own cost per call inflates them).
SAMPLED_SERVE = """
import atexit, collections, os, runpy, signal, sys
out, sys.argv = sys.argv[1], ["game", *sys.argv[2:]]
root, within, total = os.getcwd() + os.sep, collections.Counter(), [0]
itself = collections.Counter()
def name(code):
    return f"{code.co_filename.replace(root, '')}:{code.co_firstlineno}({code.co_name})"
def sample(_, frame):
    total[0] += 1
    itself[name(frame.f_code)] += 1
    seen = set()
    while frame is not None:
        seen.add(name(frame.f_code))
        frame = frame.f_back
    within.update(seen)
def write():
    signal.setitimer(signal.ITIMER_PROF, 0)
    share = lambda n: f"{100 * n / max(1, total[0]):5.1f} %"
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"{total[0]} samples; the share of them in each function and its callees:\\n")
        f.writelines(f"{share(n)} {name}\\n" for name, n in within.most_common())
        f.write("\\nthe share of them in each function itself (the innermost Python frame):\\n")
        f.writelines(f"{share(n)} {name}\\n" for name, n in itself.most_common())
signal.signal(signal.SIGPROF, sample)
signal.signal(signal.SIGUSR1, lambda *_: signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001))
signal.signal(signal.SIGUSR2, lambda *_: signal.setitimer(signal.ITIMER_PROF, 0))
atexit.register(write)
runpy.run_module("game", run_name="__main__", alter_sys=True)
"""


def start_server(db: str, stats: str | None, store: str | None = None,
                 profile: str | None = None, sample: str | None = None
                 ) -> tuple[subprocess.Popen, str]:
    """``serve`` on ``db`` (or on ``store``, a PostgreSQL address; with ``profile`` or
    ``sample``: under a profiler started by SIGUSR1, its findings written there when the
    server stops); returns the process and its address."""
    launch = (["-c", PROFILED_SERVE, profile] if profile else
              ["-c", SAMPLED_SERVE, sample] if sample else ["-m", "game"])
    proc = subprocess.Popen(
        [sys.executable, *launch, "serve", "--host", "127.0.0.1", "--port", "0",
         "--db", db, *(["--stats", stats] if stats else []),
         *(["--store", store, "--node", "bench"] if store else [])],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.search(r"ws://127\.0\.0\.1:\d+", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r} {proc.stderr.read()}")
    return proc, match.group(0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="play this long")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a side waits before its move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--waiting", type=int, default=1000,
                        help="tables waiting for players opened before the games (memory)")
    parser.add_argument("--finished", type=int, default=10000,
                        help="finished games in the database whose restart is timed (0: none)")
    parser.add_argument("--store", default="sqlite",
                        help="sqlite, postgresql (a temporary server), both, or a postgresql:// address")
    parser.add_argument("--pg-sync", choices=("on", "off"), default="off",
                        help="PostgreSQL's synchronous_commit for the node (default off)")
    profilers = parser.add_mutually_exclusive_group()
    profilers.add_argument("--profile", metavar="FILE",
                           help="profile the server (cProfile) from the start of the play, its "
                                "stats kept in FILE; the functions costing most are printed")
    profilers.add_argument("--sample", metavar="FILE",
                           help="sample the server's stack from the start of the play (no cost "
                                "per call, unlike cProfile); each function's share kept in FILE, "
                                "the largest printed")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.finished:
        time_restart(args.finished)
    stores = ["sqlite", "postgresql"] if args.store == "both" else [args.store]
    results = []
    postgres = None
    try:
        for store in stores:
            address = None
            if store.startswith(("postgresql://", "postgres://")):
                address = store
            elif store == "postgresql":
                if postgres is None:
                    from tests.services import PostgresServer
                    postgres = PostgresServer(PostgresServer.find(), durable=True)
                    postgres.start()
                address = postgres.create_database(f"load_{len(results)}")
            elif store != "sqlite":
                raise SystemExit(f"--store: sqlite, postgresql, both or postgresql://…, not {store!r}")
            if address:
                from game.server.backends import migrate_store
                migrate_store(address)
                address += ("&" if "?" in address else "?") + \
                    f"options=-csynchronous_commit%3D{args.pg_sync}"
            name = "SQLite" if address is None else f"PostgreSQL (synchronous_commit={args.pg_sync})"
            results.append((name, load(args, address)))
    finally:
        if postgres is not None:
            postgres.remove()
    errors = 0
    for name, out in results:
        print(f"\n=== one node on {name} ===")
        errors += report(args, out)
    if len(results) > 1:
        print("\nside by side (the same load, one after the other):")
        print("| store | moves/s | round trip p50 / p99 / max | server CPU per move | load |")
        print("|---|---|---|---|---|")
        for name, out in results:
            print(f"| {name} | {out['moves_per_s']:.1f} | {out['p50_ms']:.1f} / {out['p99_ms']:.1f} / "
                  f"{out['max_ms']:.1f} ms | {1000 * out['server_cpu_s'] / max(1, out['moves']):.2f} ms | "
                  f"{out['load']:.1f} |")
    return 1 if errors else 0


def time_restart(finished: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        empty, full = str(Path(folder) / "empty.sqlite3"), str(Path(folder) / "full.sqlite3")
        SQLiteStorage(empty).close()
        filled = time.perf_counter()
        fill_finished_games(full, finished)
        filled = time.perf_counter() - filled
        bare_start, full_start = time_start(empty), time_start(full)
        print(f"restart with {finished} finished games stored: {full_start:.2f} s to listening "
              f"(an empty database: {bare_start:.2f} s, ratio {full_start / bare_start:.2f}; "
              f"filled in {filled:.1f} s; load {os.getloadavg()[0]:.1f})")


def load(args, store: str | None) -> dict:
    """One node under the load; ``store``: a PostgreSQL address, or None (SQLite)."""
    with tempfile.TemporaryDirectory() as folder:
        stats = Path(folder) / "stats.json"
        proc, url = start_server(str(Path(folder) / "load.sqlite3"), str(stats), store,
                                 args.profile, args.sample)
        try:
            out = asyncio.run(asyncio.wait_for(
                run(url, proc.pid, args.games, args.seconds, args.think, args.seed, args.waiting,
                    bool(args.profile or args.sample)),
                args.seconds + 900))   # registering 2 × games accounts takes a while
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            server_errors = proc.stderr.read()
        server_stats = json.loads(stats.read_text()) if stats.exists() else {}
        inside = server_stats.get("move_seconds", [])
    out.update(url=url, server_errors=server_errors, server_stats=server_stats, inside=inside)
    return out


def report(args, out: dict) -> int:
    """Print one run's numbers; the number of errors."""
    url, server_errors = out["url"], out["server_errors"]
    server_stats, inside = out["server_stats"], out["inside"]
    print("python bench/server_load.py " + " ".join(sys.argv[1:]))
    print(f"{out['games']} games, {out['connections']} connections on {url} "
          f"(registered in {out['register_s']:.1f} s, set up in {out['setup_s']:.1f} s), think {args.think:g} s ± 50 %, "
          f"{out['seconds']:.1f} s of play")
    print(f"moves: {out['moves']}  ({out['moves_per_s']:.1f} moves/s), "
          f"games finished: {out['games_finished']}")
    print(f"move round trip: p50 {out['p50_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms, "
          f"max {out['max_ms']:.1f} ms, mean {out['mean_ms']:.1f} ms")
    if inside:
        print(f"inside the server (frame in → move stored → replies written): "
              f"p50 {1000 * percentile(inside, 0.5):.2f} ms, p99 {1000 * percentile(inside, 0.99):.2f} ms, "
              f"max {1000 * max(inside):.1f} ms over {len(inside)} moves")
    if server_stats.get("move_stamps"):
        print("the round trip split (matched by table and ply):")
        print("\n".join(split_round_trips(out["stamps"], server_stats["move_stamps"])))
    if server_stats.get("loop_lags"):
        lags, pauses = server_stats["loop_lags"], server_stats["gc_pauses"]
        print(f"the server's event loop, late waking from a 10 ms sleep: {spread(lags)}")
        full = sorted((s for g, s in pauses if g == 2), reverse=True)
        young = sorted((s for g, s in pauses if g < 2), reverse=True)
        print(f"server garbage collections: {len(pauses)}, {len(full)} of them full "
              f"(longest {', '.join(f'{1000 * s:.0f}' for s in full[:5]) or '-'} ms); "
              f"longest young one {1000 * young[0] if young else 0:.1f} ms; "
              f"{server_stats['objects']} objects at the end")
    print(f"the clients' event loop, late waking from a 10 ms sleep: {spread(out['loop_lag'])}")
    print(f"server CPU: {out['server_cpu_s']:.2f} s over the play "
          f"({1000 * out['server_cpu_s'] / max(1, out['moves']):.2f} ms per move, all work included, "
          f"{100 * out['server_system_s'] / max(1e-9, out['server_cpu_s']):.0f} % of it in the kernel); "
          f"the clients' process: {out['clients_cpu_s']:.2f} s; load average {out['load']:.1f} "
          f"on {os.cpu_count()} cores")
    print(f"server memory: RSS {out['rss_kib'] / 1024:.1f} MiB "
          f"(empty {out['rss_kib_empty'] / 1024:.1f} MiB, after set-up {out['rss_kib_idle'] / 1024:.1f} MiB, "
          f"peak {out['peak_rss_kib'] / 1024:.1f} MiB); per waiting table "
          f"{out['kib_per_waiting']:.1f} KiB (over {out['waiting']}), per game "
          f"{out['kib_per_game']:.1f} KiB (two signed-in connections and a started table)")
    errors = out["errors"] + ([f"{out['errors_on_wire']} error messages on the wire"]
                              if out["errors_on_wire"] else [])
    if "Traceback" in server_errors:
        errors.append("the server printed a traceback")
    print(f"errors: {len(errors)}" + "".join(f"\n  {e}" for e in errors[:20]))
    print_profile(args.profile, args.sample, "the server")
    return len(errors)


def print_profile(profile: str | None, sample: str | None, whose: str, rows: int = 25) -> None:
    """What ``--profile`` or ``--sample`` wrote (a server stopped with its profiler)."""
    if sample and Path(sample).exists():
        print(f"{whose}'s time by function (the play only, sampled; {sample}):")
        print("".join(Path(sample).read_text(encoding="utf-8").splitlines(True)[:41]), end="")
    if profile and Path(profile).exists():
        import pstats
        print(f"{whose}'s profile (the play only; {profile}):")
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(rows)


if __name__ == "__main__":
    sys.exit(main())
