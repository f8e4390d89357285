"""Game server under load: N simultaneous games of scripted clients on loopback.

    python bench/server_load.py [--games 200] [--seconds 20] [--think 1.0]

Starts ``python -m game serve`` as a subprocess on 127.0.0.1 (an ephemeral
port, a fresh database in a temporary folder), connects two clients per game,
and lets every pair play a scripted line of legal moves (random games from the
start position, computed once here, so the clients spend no time on rules):
each side waits ``--think`` seconds (± 50 %) after its opponent's move, then
moves. Prints moves per second, the round trip of a move (sent → its record
back from the server, p50/p99/max), the server's memory (RSS now and peak)
and every error. Bounded: the run stops after ``--seconds`` of play.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.base import Status  # noqa: E402
from game.camelot_board import CamelotBoard  # noqa: E402
from game.net.client import Client  # noqa: E402

LINE_PLIES = 400
CONNECT_BATCH = 50


def scripted_lines(count: int, seed: int) -> list[list[str]]:
    """Random games from the start, as WCF move lists (a finished game ends its line)."""
    lines = []
    for n in range(count):
        rng, board, line = random.Random(seed + n), CamelotBoard(), []
        while board.status is Status.PLAYING and len(line) < LINE_PLIES:
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


class Stats:
    def __init__(self) -> None:
        self.round_trips: list[float] = []
        self.errors: list[str] = []
        self.games_over = 0


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
            started = time.perf_counter()
            moved = await client.move(table, move)
            stats.round_trips.append(time.perf_counter() - started)
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


async def set_up_game(url: str, number: int) -> tuple[Client, Client, str]:
    white = await Client.connect(url, f"W{number}")
    black = await Client.connect(url, f"B{number}")
    table = (await white.create_table())["table"]
    await white.sit(table, "white")
    await black.sit(table, "black")
    await white.start(table)
    return white, black, table


async def run(url: str, pid: int, games: int, seconds: float, think: float, seed: int) -> dict:
    lines = scripted_lines(min(games, 16), seed)
    stats = Stats()
    setup_started = time.perf_counter()
    pairs = []
    for first in range(0, games, CONNECT_BATCH):
        batch = range(first, min(games, first + CONNECT_BATCH))
        pairs += await asyncio.gather(*(set_up_game(url, n) for n in batch))
    setup = time.perf_counter() - setup_started
    rss_before, _ = server_memory(pid)
    cpu_before = server_cpu_seconds(pid)
    clients_cpu_before = time.process_time()
    started = time.monotonic()
    stop_at = started + seconds
    tasks = []
    for n, (white, black, table) in enumerate(pairs):
        line = lines[n % len(lines)]
        rng = random.Random(seed * 1000 + n)
        tasks.append(play_side(white, table, line, True, think, stop_at, stats, rng))
        tasks.append(play_side(black, table, line, False, think, stop_at, stats, rng))
    results = await asyncio.gather(*tasks, return_exceptions=True)
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
    await asyncio.gather(*(c.close() for white, black, _ in pairs for c in (white, black)))
    trips = stats.round_trips
    return {"games": games, "connections": 2 * games, "setup_s": setup, "seconds": elapsed,
            "moves": len(trips), "moves_per_s": len(trips) / elapsed if elapsed else 0.0,
            "p50_ms": 1000 * percentile(trips, 0.50), "p99_ms": 1000 * percentile(trips, 0.99),
            "max_ms": 1000 * max(trips, default=0.0),
            "mean_ms": 1000 * statistics.fmean(trips) if trips else 0.0,
            "games_finished": stats.games_over, "server_cpu_s": cpu, "server_system_s": system,
            "clients_cpu_s": clients_cpu, "load": os.getloadavg()[0], "rss_kib_idle": rss_before, "rss_kib": rss,
            "peak_rss_kib": peak, "errors": stats.errors, "errors_on_wire": errors_on_wire}


def start_server(db: str, stats: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "serve", "--host", "127.0.0.1", "--port", "0", "--db", db,
         "--stats", stats],
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        stats = Path(folder) / "stats.json"
        proc, url = start_server(str(Path(folder) / "load.sqlite3"), str(stats))
        try:
            out = asyncio.run(asyncio.wait_for(
                run(url, proc.pid, args.games, args.seconds, args.think, args.seed),
                args.seconds + 120))
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            server_errors = proc.stderr.read()
        inside = json.loads(stats.read_text())["move_seconds"] if stats.exists() else []
    print("python bench/server_load.py " + " ".join(sys.argv[1:]))
    print(f"{out['games']} games, {out['connections']} connections on {url} "
          f"(set up in {out['setup_s']:.1f} s), think {args.think:g} s ± 50 %, "
          f"{out['seconds']:.1f} s of play")
    print(f"moves: {out['moves']}  ({out['moves_per_s']:.1f} moves/s), "
          f"games finished: {out['games_finished']}")
    print(f"move round trip: p50 {out['p50_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms, "
          f"max {out['max_ms']:.1f} ms, mean {out['mean_ms']:.1f} ms")
    if inside:
        print(f"inside the server (frame in → move stored → replies written): "
              f"p50 {1000 * percentile(inside, 0.5):.2f} ms, p99 {1000 * percentile(inside, 0.99):.2f} ms, "
              f"max {1000 * max(inside):.1f} ms over {len(inside)} moves")
    print(f"server CPU: {out['server_cpu_s']:.2f} s over the play "
          f"({1000 * out['server_cpu_s'] / max(1, out['moves']):.2f} ms per move, all work included, "
          f"{100 * out['server_system_s'] / max(1e-9, out['server_cpu_s']):.0f} % of it in the kernel); "
          f"the clients' process: {out['clients_cpu_s']:.2f} s; load average {out['load']:.1f} "
          f"on {os.cpu_count()} cores")
    print(f"server memory: RSS {out['rss_kib'] / 1024:.1f} MiB "
          f"(after set-up {out['rss_kib_idle'] / 1024:.1f} MiB, peak {out['peak_rss_kib'] / 1024:.1f} MiB)")
    errors = out["errors"] + ([f"{out['errors_on_wire']} error messages on the wire"]
                              if out["errors_on_wire"] else [])
    if "Traceback" in server_errors:
        errors.append("the server printed a traceback")
    print(f"errors: {len(errors)}" + "".join(f"\n  {e}" for e in errors[:20]))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
