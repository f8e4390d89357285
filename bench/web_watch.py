"""How soon watchers in browsers see a move, and what they cost the server.

    python bench/web_watch.py [--watchers 200] [--via stream|poll] [--every 0.3] [--no-browser]

The server runs as a subprocess (``python -m game serve``, an in-memory
database); Alice and Bob play a whole 38-ply game on it over the game protocol,
one move every ``--every`` seconds. Meanwhile ``--watchers`` clients follow the
table as the live page does: ``--via stream`` over a WebSocket each
(``/api/watch/ID``, the page's way), ``--via poll`` by long polling
(``/api/table/ID?since=VERSION``, its fallback: a new connection per answer);
and one real headless Chromium shows the live page. Printed: from a move sent
to each watcher's answer and to the page showing it (median, p99, max); the
server's CPU per move, its memory, and the load average.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.asyncio.client import connect  # noqa: E402

from game.net.client import Client  # noqa: E402
from tests.chromium import Browser, find_chromium  # noqa: E402
from tests.net.helpers import CASTLE_GAME, ServerProcess  # noqa: E402


def spread(seconds: list[float]) -> str:
    ordered = sorted(s * 1000 for s in seconds)
    if not ordered:
        return "none"
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return (f"median {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms, "
            f"max {ordered[-1]:.1f} ms ({len(ordered)} answers)")


def server_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def source(number: int) -> str:
    """The loopback address watcher ``number`` comes from: 40 to an address (the
    server allows 50 streams or long polls from one)."""
    return f"127.0.0.{2 + number // 40}"


async def fetch(port: int, path: str, address: str) -> dict:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    raw = await reader.read()
    writer.close()
    return json.loads(raw.partition(b"\r\n\r\n")[2])


async def watcher(port: int, table: int, sent: dict, seen: list, stop: asyncio.Event,
                  address: str) -> None:
    version = (await fetch(port, f"/api/table/{table}", address))["version"]
    while not stop.is_set():
        detail = await fetch(port, f"/api/table/{table}?since={version}", address)
        arrived = time.monotonic()
        ply = len(detail["moves"])
        if detail["version"] != version and ply in sent:
            seen.append(arrived - sent[ply])
        version = detail["version"]
        if detail["status"] == "finished":
            return


async def stream_watcher(port: int, table: int, sent: dict, seen: list,
                         stop: asyncio.Event, address: str) -> None:
    async with connect(f"ws://127.0.0.1:{port}/api/watch/{table}", max_size=1 << 20,
                       local_addr=(address, 0)) as ws:
        plies = 0
        while not stop.is_set():
            detail = json.loads(await ws.recv())
            arrived = time.monotonic()
            if len(detail["moves"]) > plies and len(detail["moves"]) in sent:
                seen.append(arrived - sent[len(detail["moves"])])
            plies = len(detail["moves"])
            if detail["status"] == "finished":
                return


async def page_watch(port: int, table: int, sent: dict, seen: list, plies: int,
                     ready: asyncio.Event) -> None:
    async with Browser() as page:
        await page.open(f"http://127.0.0.1:{port}/table/{table}")
        await page.wait_for("document.querySelector('#status').dataset.ply === '0'", seconds=30)
        ready.set()
        for ply in range(1, plies + 1):
            await page.wait_for(f"Number(document.querySelector('#status').dataset.ply) >= {ply}",
                                seconds=10)
            seen.append(time.monotonic() - sent[ply])


async def main(watchers: int, via: str, every: float, browser: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(str(Path(folder) / "bench.sqlite3"))
        try:
            await run(server, watchers, via, every, browser)
        finally:
            server.stop()


async def run(server: ServerProcess, watchers: int, via: str, every: float,
              browser: bool) -> None:
    port = int(server.url.rsplit(":", 1)[1])
    pid = server.proc.pid
    alice, bob = await Client.connect(server.url, "Alice"), await Client.connect(server.url, "Bob")
    table = (await alice.create_table(time={"base": 600, "increment": 5}))["table"]
    await alice.sit(table, "white")
    await bob.sit(table, "black")
    await alice.start(table)
    number = int(table[1:])
    sent: dict[int, float] = {}
    http_seen: list[float] = []
    page_seen: list[float] = []
    stop, page_ready = asyncio.Event(), asyncio.Event()
    follow = stream_watcher if via == "stream" else watcher
    tasks = [asyncio.create_task(follow(port, number, sent, http_seen, stop, source(i)))
             for i in range(watchers)]
    if browser:
        tasks.append(asyncio.create_task(page_watch(port, number, sent, page_seen,
                                                    len(CASTLE_GAME), page_ready)))
        await asyncio.wait_for(page_ready.wait(), 60)
    await asyncio.sleep(2.0)                     # every watcher has its first answer
    cpu, wall = server_cpu(pid), time.monotonic()
    for ply, move in enumerate(CASTLE_GAME, start=1):
        sent[ply] = time.monotonic()
        await (alice if ply % 2 else bob).move(table, move)
        await asyncio.sleep(every)
    await asyncio.sleep(1.0)
    cpu, wall = server_cpu(pid) - cpu, time.monotonic() - wall
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    rss = server_rss_mib(pid)
    await alice.close()
    await bob.close()
    print(f"{watchers} watchers ({via}) + {'1 browser page' if browser else 'no browser'}, "
          f"{len(CASTLE_GAME)} moves, one every {every:g} s")
    print(f"  move sent -> watcher's answer: {spread(http_seen)}")
    if browser:
        print(f"  move sent -> the page shows it: {spread(page_seen)}")
    print(f"  server CPU: {cpu:.2f} s in {wall:.1f} s ({100 * cpu / wall:.0f} % of a core), "
          f"{1000 * cpu / len(CASTLE_GAME):.1f} ms per move; RSS {rss:.1f} MiB")
    print(f"  load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--via", choices=("stream", "poll"), default="stream")
    parser.add_argument("--every", type=float, default=0.3)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    if not args.no_browser and find_chromium() is None:
        sys.exit("chromium is not installed: give --no-browser")
    asyncio.run(main(args.watchers, args.via, args.every, not args.no_browser))
