"""Several server nodes under load, one killed part-way: PostgreSQL + Redis on loopback.

    python bench/cluster_load.py [--nodes 3] [--games 100] [--seconds 30] [--think 1.0]
                                 [--kill-at 12] [--durable] [--compare-games 40]
                                 [--client-processes K]
                                 [--profile FILE | --sample FILE | --sample-failover FILE]

Starts PostgreSQL and Redis from their binaries in temporary folders (as the tests
do, tests/services.py), ``--nodes`` processes of ``python -m game serve --store …
--bus … --node nI``, and ``--games`` games of two guests each, White on one node
and Black on the next (so half the moves are forwarded between nodes); each
client is given every node's address, its own first. Each side plays a scripted
line of legal moves, waiting ``--think`` seconds (± 50 %) after the opponent's
move. At ``--kill-at`` seconds the first node is killed (SIGKILL): its players
notice at once (while thinking too), reconnect as the app's client does — to one of
the other nodes at random (game/net/client.py's ``lost_last``) — and resume their
seats; its tables are taken over.

Prints moves per second, a move's round trip (sent → its ``moved`` back) p50 and
p99 outside the failover window and over the whole run, the longest wait for a
move (the first send to its acknowledgement, across a reconnection), each node's
CPU, PostgreSQL's commits per second, and **moves lost**: moves a client saw
acknowledged that the database does not hold at the end (must be 0); and moves
stored twice or out of line (must be 0: the database's moves of each game are
checked against its scripted line).

The players run in ``--client-processes`` processes (by default one per 250 games;
bench/cluster_clients.py), each keeping only counts and a fixed histogram of round
trips, merged at the end; their peak memory is printed. The nodes' CPU over the play
is also given per acknowledged move, and over the failover window (the kill to
:data:`WINDOW` seconds after it). ``--profile FILE`` (cProfile) or ``--sample FILE``
(the stack sampled, no cost per call) watch the last node over the play;
``--sample-failover FILE`` samples n2 (half of the killed node's clients go to it)
over the failover window, by the wall clock (a wait on PostgreSQL or Redis in a
blocking call counts: it stalls the loop as much as work does).

Then (unless ``--compare-games 0``) one node on PostgreSQL + Redis beside one
server on SQLite, the same short load on each, one after the other.

The issue's figure is ``--games 2000`` (4,000 connections); see docs/cluster.md for
what this two-core machine carries.
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cluster_clients import GAMES_PER_PROCESS, PHASES, SLOT, Tally, load  # noqa: E402
from bench.server_load import (PROFILED_SERVE, SAMPLED_SERVE, print_profile,  # noqa: E402
                               scripted_lines, server_cpu_seconds)
from tests.services import PostgresServer, RedisServer  # noqa: E402

WINDOW = 15.0                 # seconds after the kill sampled, and the CPU told, as failover
# SAMPLED_SERVE by the wall clock: a stack every millisecond of real time, the loop's
# blocking waits (a store call, a bus call) and its idle moments included.
WALL_SAMPLED_SERVE = SAMPLED_SERVE.replace("ITIMER_PROF", "ITIMER_REAL").replace(
    "SIGPROF", "SIGALRM")


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


def start_server(args: list[str], env: dict, launch: list[str] = ("-m", "game")
                 ) -> tuple[subprocess.Popen, str]:
    """``serve`` with ``args`` (``launch``: how Python runs it, a profiler's script)."""
    proc = subprocess.Popen([sys.executable, *launch, "serve", "--host", "127.0.0.1",
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


def bus_gaps(url: str) -> str:
    """A live node's count of bus gaps (each answered by reading its tables again)."""
    import urllib.request
    try:
        with urllib.request.urlopen(url.replace("ws://", "http://") + "/metrics", timeout=5) as r:
            text = r.read().decode()
    except OSError:
        return "?"
    match = re.search(r"^roundtable_bus_gaps_total (\S+)", text, re.M)
    return match.group(1) if match else "?"


def family_cpu_seconds(leader: int) -> float:
    """CPU seconds of a process and its children (PostgreSQL's server and its
    backends), the children it has waited for included."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue                               # ended meanwhile
        if int(entry) == leader or int(fields[1]) == leader:      # it, or a child
            used = int(fields[11]) + int(fields[12])
            if int(entry) == leader:
                used += int(fields[13]) + int(fields[14])
            total += used / tick
    return total


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy (not idle, not waiting on
    the disk), from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds(leaving_out: set[int]) -> float:
    """CPU seconds of this process's children (the client processes) but those."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in leaving_out:
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                total += sum(server_cpu_seconds(int(entry)))
    return total


def lines_for(games: int, seconds: float, think: float) -> list[list[str]]:
    """Each game's scripted line, as long as a run of ``seconds`` can play (a side
    waits at least half of ``think`` before each move)."""
    return scripted_lines(games, seed=7, plies=int(seconds / max(0.05, think / 2)) + 10)


def check_store(dsn_or_db: str, tables: dict, tally: Tally, lines) -> tuple[int, int]:
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
            lost += sum(1 for ply, move in tally.acked.get(game, {}).items()
                        if ply > len(stored) or stored[ply - 1] != move)
    finally:
        store.close()
    return lost, wrong


def watch_takeover(dsn: str, node: str, seconds: float, every: float = 0.2) -> list[str]:
    """From a kill on: when ``node``'s last live lease lapsed and when its tables had
    new referees (the first, and all), in seconds after the kill, from PostgreSQL."""
    import psycopg
    began = time.monotonic()
    seen: dict[str, float] = {}
    with psycopg.connect(dsn, autocommit=True) as db:
        tables = [t for (t,) in db.execute("SELECT table_id FROM leases WHERE node = %s",
                                           (node,))]
        while time.monotonic() - began < seconds and len(seen) < 3:
            live, taken = db.execute(
                "SELECT count(*) FILTER (WHERE node = %(node)s),"
                " count(*) FILTER (WHERE node <> %(node)s) FROM leases"
                " WHERE table_id = ANY(%(tables)s) AND expires_at > clock_timestamp()",
                {"node": node, "tables": tables}).fetchone()
            at = time.monotonic() - began
            for what, now in (("lapsed", live == 0), ("first taken", taken > 0),
                              ("all taken", taken == len(tables))):
                if now:
                    seen.setdefault(what, at)
            time.sleep(every)
    return [f"{len(tables)} tables"] + [f"{what} +{at:.1f} s" for what, at in seen.items()]


def commits(dsn: str) -> int:
    import psycopg
    with psycopg.connect(dsn, autocommit=True) as db:
        return db.execute("SELECT xact_commit FROM pg_stat_database"
                          " WHERE datname = current_database()").fetchone()[0]


def report(title: str, tally: Tally, seconds: float, killed: float | None, lost: int,
           wrong: int) -> None:
    ms = lambda v: f"{v * 1000:.1f} ms"  # noqa: E731
    print(f"{title}: {tally.moves} moves in {seconds:.0f} s = {tally.moves / seconds:.1f} "
          f"moves/s; round trip p50 {ms(tally.calm.percentile(0.5))}, p99 "
          f"{ms(tally.calm.percentile(0.99))}{' outside the failover window' if killed else ''}"
          f"; whole run p99 {ms(tally.whole.percentile(0.99))}, longest wait "
          f"{ms(tally.longest)}")
    print(f"  moves lost: {lost}; games whose stored moves leave their line: {wrong}; "
          f"reconnections: {tally.reconnections}; errors: {dict(tally.errors) or 'none'}")
    print("  p99 by 5 s of play: " + ", ".join(
        f"{slot * SLOT:.0f}+ {tally.slots[slot].percentile(0.99) * 1000:.0f}"
        for slot in sorted(tally.slots)) + " ms")
    if tally.phases:
        titles = dict(zip(PHASES, (
            "the loss noticed (after the kill)", "the WebSocket handshake", "hello → welcome",
            "resume → seated", "seated → table", "back in the seat (after the kill)")))
        print("  reconnections after the kill, p50 / p90 / max s: " + "; ".join(
            f"{titles[name]} " + " / ".join(
                f"{tally.phases[name].percentile(share):.2f}" for share in (0.5, 0.9, 1.0))
            + f" ({tally.phases[name].total})" for name in PHASES if name in tally.phases))
    peaks = tally.peak_rss or [0]
    print(f"  client processes: {len(tally.peak_rss)}, peak RSS {max(peaks) / 1024:.0f} MiB "
          f"the largest, {sum(peaks) / 1024:.0f} MiB together")
    for failure in tally.failures:
        print(f"  FAILED: {failure}")


def processes_for(games: int, asked: int) -> int:
    return asked or max(1, -(-games // GAMES_PER_PROCESS))


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
    parser.add_argument("--client-processes", type=int, default=0,
                        help=f"processes playing the games (0: one per {GAMES_PER_PROCESS} games)")
    profilers = parser.add_mutually_exclusive_group()
    profilers.add_argument("--profile", metavar="FILE",
                           help="cProfile the last node over the play; its stats written there")
    profilers.add_argument("--sample", metavar="FILE",
                           help="sample the last node's stack over the play (each function's "
                                "share written there)")
    profilers.add_argument("--sample-failover", metavar="FILE",
                           help=f"sample n2's stack by the wall clock from the kill to "
                                f"{WINDOW:g} s after it (n2 gets half of n1's clients)")
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
        profiled = (["-c", PROFILED_SERVE, args.profile] if args.profile else
                    ["-c", SAMPLED_SERVE, args.sample] if args.sample else ["-m", "game"])
        watched = args.nodes - 1
        if args.sample_failover:
            profiled, watched = ["-c", WALL_SAMPLED_SERVE, args.sample_failover], 1
        started = [start_server(["--store", dsn, "--bus", redis.url, "--node", f"n{i + 1}"], env,
                                profiled if i == watched else ["-m", "game"])
                   for i in range(args.nodes)]
        procs = [p for p, _ in started]
        urls = [u for _, u in started]
        lines = lines_for(args.games, args.seconds, args.think)
        cpu0 = [sum(server_cpu_seconds(p.pid)) for p in procs]
        services = lambda: (family_cpu_seconds(postgres.proc.pid),  # noqa: E731
                            sum(server_cpu_seconds(redis.proc.pid)))
        commits0, wall0, services0 = commits(dsn), time.monotonic(), services()
        at_play: list[list[float]] = []       # the nodes' CPU as the play begins and ends

        def playing(begins: bool) -> None:
            at_play.append([sum(server_cpu_seconds(p.pid)) for p in procs])
            if args.profile or args.sample:
                procs[-1].send_signal(signal.SIGUSR1 if begins else signal.SIGUSR2)

        # The nodes', PostgreSQL's, Redis's, the clients' (the bench's other children)
        # and the machine's CPU seconds at the kill and WINDOW s later.
        in_window: list[list[float]] = []

        def window_cpu() -> list[float]:
            nodes = [sum(server_cpu_seconds(p.pid)) for p in procs]
            others = {p.pid for p in procs} | {postgres.proc.pid, redis.proc.pid}
            return [*nodes, *services(), children_cpu_seconds(others), machine_busy_seconds()]

        def window_over() -> None:
            in_window.append(window_cpu())
            if args.sample_failover:
                procs[watched].send_signal(signal.SIGUSR2)

        takeover: list[str] = []

        def kill() -> None:
            procs[0].send_signal(signal.SIGKILL)
            threading.Thread(target=lambda: takeover.extend(
                watch_takeover(dsn, "n1", WINDOW)), daemon=True).start()
            in_window.append(window_cpu())
            if args.sample_failover:
                procs[watched].send_signal(signal.SIGUSR1)
            threading.Timer(WINDOW, window_over).start()
        tally, killed, set_up = load(
            urls, lines, args.seconds, args.think, kill if args.kill_at > 0 else None,
            args.kill_at, args.setup_batch, processes_for(args.games, args.client_processes),
            playing)
        wall = time.monotonic() - wall0
        cpu1 = [sum(server_cpu_seconds(p.pid)) for p in procs]
        postgres_cpu, redis_cpu = (b - a for a, b in zip(services0, services()))
        gaps = [bus_gaps(u) if p.poll() is None else "-" for p, u in zip(procs, urls)]
        cpu = [c1 - c0 for c1, c0 in zip(cpu1, cpu0)]
        stop_seconds = []
        for p in procs:          # a stopped node's backends flush their statistics
            stopped = time.monotonic()
            stop(p)
            stop_seconds.append(time.monotonic() - stopped)
        time.sleep(1.0)
        rate = (commits(dsn) - commits0) / wall
        lost, wrong = check_store(dsn, tally.tables, tally, lines)
        mode = "fsync and synchronous_commit on" if args.durable else "fsync off (as the tests)"
        killing = f", n1 killed at {args.kill_at:g} s" if killed else ""
        report(f"{args.nodes} nodes, {tally.games} games set up of {args.games} "
               f"({2 * tally.games} connections), "
               f"PostgreSQL with {mode}{killing}", tally, args.seconds, killed, lost, wrong)
        print("  CPU (share of one core over the set-up and the run): " + ", ".join(
            f"n{i + 1} {c / wall * 100:.0f} %" + (" (killed)" if i == 0 and killed else "")
            for i, c in enumerate(cpu)) + f"; the bench's clients {tally.cpu / wall * 100:.0f} %"
            f"; PostgreSQL {postgres_cpu / wall * 100:.0f} %, Redis {redis_cpu / wall * 100:.0f} %"
            f"; PostgreSQL commits/s: {rate:.0f}; set-up {set_up:.0f} s; the nodes' clean "
            f"stop (SIGTERM) " + ", ".join(f"{t:.1f}" for t in stop_seconds) + " s; bus gaps "
            + ", ".join(gaps))
        if takeover:
            print("  n1's leases (PostgreSQL, every 0.2 s): " + ", ".join(takeover))
        if len(in_window) == 2:
            used = [(c1 - c0) / WINDOW * 100 for c0, c1 in zip(*in_window)]
            print(f"  CPU over the failover window (the kill to {WINDOW:g} s after it, share "
                  f"of one core): " + ", ".join(f"n{i + 1} {u:.0f} %" for i, u in
                                               enumerate(used[:len(procs)]) if i)
                  + f"; PostgreSQL {used[-4]:.0f} %, Redis {used[-3]:.0f} %, the bench's "
                  f"clients {used[-2]:.0f} %; the machine busy {used[-1]:.0f} % of "
                  f"{os.cpu_count() * 100} %")
        if len(at_play) == 2 and tally.moves:
            during = [c1 - c0 for c1, c0 in zip(at_play[1], at_play[0])]
            print("  the nodes' CPU over the play, per acknowledged move: " + ", ".join(
                f"n{i + 1} {c / tally.moves * 1000:.2f} ms" for i, c in enumerate(during))
                + f"; all together {sum(during) / tally.moves * 1000:.2f} ms")
        if args.compare_games:
            compare(args, postgres, redis, env)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        postgres.remove()
        redis.remove()
    print_profile(args.profile, args.sample, "the last node", rows=30)
    print_profile(None, args.sample_failover, "n2 over the failover window (wall clock)")
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
            tally, _, _ = load([url], lines, args.compare_seconds, args.think,
                               processes=processes_for(args.compare_games,
                                                       args.client_processes))
            cpu = sum(server_cpu_seconds(proc.pid)) - cpu0
        finally:
            stop(proc)
        lost, wrong = check_store(where, tally.tables, tally, lines)
        report(f"{title}, {args.compare_games} games", tally, args.compare_seconds, None, lost,
               wrong)
        print(f"  CPU: {cpu / args.compare_seconds * 100:.0f} % of one core")


if __name__ == "__main__":
    sys.exit(main())
