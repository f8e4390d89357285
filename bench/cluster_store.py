"""The cluster's store and bus, side by side with the one-node ones, on loopback.

    python bench/cluster_store.py [--tables 200] [--moves 4000] [--messages 4000] [--runs 3]

Starts a real PostgreSQL (its defaults: fsync on) and a real Redis in temporary
folders, as the tests do (tests/services.py), and measures, alternating in one
process so the machine's load falls on each alike:

- **moves stored**: ``add_move`` with the referee's fence (checked in the same
  transaction), round-robin over ``--tables`` leased tables, one call at a time as
  a node's event loop makes them: commits per second and the time of one commit
  (p50/p99), for SQLite (WAL, synchronous=NORMAL: today's server), PostgreSQL with
  ``synchronous_commit=off`` (the same promise as SQLite's: a crash of the process
  or of PostgreSQL loses nothing, a power cut may lose the last commits) and
  PostgreSQL with ``synchronous_commit=on`` (nothing acknowledged is lost even then:
  every commit waits for the disk);
- **renewing the leases**: ``renew_leases`` for all the tables at once (what a node
  does every second);
- **bus**: publish on one node → delivered to a subscriber on another, round trip of
  one message at a time and throughput of ``--messages`` in a burst, in one process
  and over Redis.

Ratios are to SQLite / to the in-process bus of the same run. Prints ``uptime``'s
load average: the machine is shared.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.camelot.board import START_POSITION  # noqa: E402
from game.server.bus import InProcessBus, InProcessHub  # noqa: E402
from game.server.leases import SQLiteLeasedStorage  # noqa: E402
from game.server.storage import TableRecord  # noqa: E402
from tests.services import PostgresServer, RedisServer  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def store_run(store, node: str, tables: int, moves: int) -> dict:
    records, fences = [], {}
    for _ in range(tables):
        record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
        store.create_table(record)
        fences[record.id] = store.acquire_lease(record.id, node, 60)
        records.append(record)
    times = []
    start = time.perf_counter()
    for k in range(moves):
        record = records[k % tables]
        record.moves.append(f"M{len(record.moves) + 1}")
        record.clocks = {"white": 300000 - k, "black": 300000}
        t = time.perf_counter()
        store.add_move(record, fence=fences[record.id])
        times.append(time.perf_counter() - t)
    elapsed = time.perf_counter() - start
    t = time.perf_counter()
    renewed = store.renew_leases(node, 60)
    renew = time.perf_counter() - t
    assert len(renewed) == tables
    store.close()
    return {"per_second": moves / elapsed, "p50": percentile(times, 50) * 1e3,
            "p99": percentile(times, 99) * 1e3, "renew": renew * 1e3}


async def bus_run(make, messages: int) -> dict:
    sender, receiver = make("n1"), make("n2")
    subscription = await receiver.subscribe("table:1")
    trips = []
    for k in range(200):
        t = time.perf_counter()
        sender.publish("table:1", {"ply": k})
        await subscription.get(10)
        trips.append(time.perf_counter() - t)
    start = time.perf_counter()
    for k in range(messages):
        sender.publish("table:1", {"ply": k, "move": "D6-C5", "position": "x" * 120})
    for _ in range(messages):
        await subscription.get(10)
    elapsed = time.perf_counter() - start
    await sender.close()
    await receiver.close()
    return {"per_second": messages / elapsed, "p50": percentile(trips, 50) * 1e3,
            "p99": percentile(trips, 99) * 1e3}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--messages", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    postgres = PostgresServer(PostgresServer.find(), durable=True)
    redis_server = RedisServer(RedisServer.find())
    postgres.start()
    redis_server.start()
    from game.server.pg_storage import PostgresStorage, migrate
    from game.server.redis_bus import RedisBus
    folder = Path(tempfile.mkdtemp(prefix="roundtable-bench-"))
    results: dict[str, list[dict]] = {}
    try:
        for run in range(args.runs):
            dsn = postgres.create_database(f"bench_{run}")
            migrate(dsn)
            stores = {
                "SQLite (WAL, synchronous=NORMAL)":
                    lambda: SQLiteLeasedStorage(str(folder / f"bench_{run}.sqlite3")),
                "PostgreSQL, synchronous_commit=off":
                    lambda: PostgresStorage(dsn + "?options=-csynchronous_commit%3Doff"),
                "PostgreSQL, synchronous_commit=on":
                    lambda: PostgresStorage(dsn),
            }
            for k, (name, make) in enumerate(stores.items()):
                # each store its own tables (in one database for the two PostgreSQL ones)
                results.setdefault(name, []).append(
                    store_run(make(), f"node{k}", args.tables, args.moves))
            hub = InProcessHub()
            buses = {"bus in one process": lambda node: InProcessBus(node, hub),
                     "bus over Redis": lambda node: RedisBus(redis_server.url, node)}
            for name, make in buses.items():
                results.setdefault(name, []).append(asyncio.run(bus_run(make, args.messages)))
    finally:
        postgres.remove()
        redis_server.remove()

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{args.runs} runs, {args.tables} tables, {args.moves} moves, {args.messages} messages")
    reference = {"store": None, "bus": None}
    for name, runs in results.items():
        kind = "bus" if name.startswith("bus") else "store"
        rate = statistics.median(r["per_second"] for r in runs)
        reference[kind] = reference[kind] or rate
        p50 = statistics.median(r["p50"] for r in runs)
        p99 = statistics.median(r["p99"] for r in runs)
        line = (f"{name:38s} {rate:9.0f}/s ({rate / reference[kind]:.2f}x)  "
                f"one: p50 {p50:.3f} ms, p99 {p99:.3f} ms")
        if kind == "store":
            line += f"; renew {args.tables} leases: {statistics.median(r['renew'] for r in runs):.2f} ms"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
