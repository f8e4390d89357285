"""How long a killed node's tables wait for a new referee (leases only, no server).

    python bench/cluster_failover.py [--nodes 3] [--tables 2000] [--ttl 3] [--every 1] [--runs 3]

Starts a real PostgreSQL (fsync on) as the tests do, creates ``--tables`` open
tables, and runs one LeaseKeeper per node on its own thread and connection, as
the nodes will (every node renews all its leases in one statement each round and
takes over lapsed ones). The tables are shared round-robin. Then one node stops
dead (no release, like ``kill -9``) and the bench records, for each of its
tables, how long until another node held it. Prints the wait's median and
maximum (the bound is ttl + every + one round's work), how many tables each
surviving node took, the time of one round (renewing a node's share of the
leases), and whether any table ever had two live holders (must be never: the
store admits one).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.camelot.board import START_POSITION  # noqa: E402
from game.server.lease_keeper import LeaseKeeper  # noqa: E402
from game.server.storage import TableRecord  # noqa: E402
from tests.services import PostgresServer  # noqa: E402


def keep(keeper: LeaseKeeper, stop: threading.Event, rounds: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        keeper.step()
        rounds.append(time.perf_counter() - start)
        stop.wait(keeper.every)


def one_run(dsn: str, args) -> dict:
    from game.server.pg_storage import PostgresStorage
    setup = PostgresStorage(dsn)
    tables = []
    for _ in range(args.tables):
        record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
        tables.append(setup.create_table(record))
    keepers = [LeaseKeeper(PostgresStorage(dsn), f"n{k}", ttl=args.ttl, every=args.every)
               for k in range(args.nodes)]
    for k, keeper in enumerate(keepers):   # a long first lease: the keepers' rounds shorten it
        keeper.held = keeper.store.acquire_leases(tables[k::args.nodes], keeper.node, 600)
    victim, survivors = keepers[0], keepers[1:]
    orphans = set(victim.held)
    stops = [threading.Event() for _ in keepers]
    rounds: list[list[float]] = [[] for _ in keepers]
    threads = [threading.Thread(target=keep, args=(k, s, r), daemon=True)
               for k, s, r in zip(keepers, stops, rounds)]
    for t in threads:
        t.start()
    time.sleep(2 * args.every)                     # a few rounds in the steady state
    killed = time.monotonic()
    stops[0].set()                                 # dead: no release, no more renewals
    taken: dict[int, float] = {}
    two_holders = 0
    deadline = killed + 10 * args.ttl
    while len(taken) < len(orphans) and time.monotonic() < deadline:
        now = time.monotonic()
        held = [set(k.held) for k in survivors]
        for table in orphans - set(taken):
            if any(table in h for h in held):
                taken[table] = now - killed
        two_holders += sum(len(held[a] & held[b]) for a in range(len(held)) for b in range(a))
        time.sleep(0.01)
    unheld = len(setup.unleased_tables())          # while the survivors still run
    for s in stops:
        s.set()
    for t in threads:
        t.join(10)
    setup.close()
    steady = [r for rs in rounds[1:] for r in rs]
    return {"waits": list(taken.values()), "orphans": len(orphans), "missing": len(orphans) - len(taken),
            "shares": [len(orphans & set(k.held)) for k in survivors],
            "round_ms": statistics.median(steady) * 1e3 if steady else float("nan"),
            "two_holders": two_holders,
            "unheld": unheld}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--ttl", type=float, default=3.0)
    parser.add_argument("--every", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    postgres = PostgresServer(PostgresServer.find(), durable=True)
    postgres.start()
    from game.server.pg_storage import migrate
    try:
        results = []
        for run in range(args.runs):
            dsn = postgres.create_database(f"failover_{run}")
            migrate(dsn)
            results.append(one_run(dsn, args))
    finally:
        postgres.remove()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.runs} runs, "
          f"{args.nodes} nodes, {args.tables} tables, lease {args.ttl} s renewed every {args.every} s")
    for k, r in enumerate(results, 1):
        waits = sorted(r["waits"])
        print(f"run {k}: {r['orphans']} tables orphaned, taken after median "
              f"{statistics.median(waits):.2f} s, max {waits[-1]:.2f} s; not taken: {r['missing']}; "
              f"shares {r['shares']}; one round (renew ~{args.tables // args.nodes} leases and "
              f"look for lapsed ones) {r['round_ms']:.1f} ms; tables with two holders seen: "
              f"{r['two_holders']}; tables without a live lease at the end: {r['unheld']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
