"""Solver benchmark: decided deals, time per deal, share of winnable deals.

    python bench/solve.py                       # the full targets (slow)
    python bench/solve.py --quick               # a few deals of each
    python bench/solve.py --camelot 10000 --hamilton 1000 --clock 100000
    python bench/solve.py --camelot 0 --hamilton 200 --max-seconds 10

Targets (issue "Solvers"): Camelot deals 1–10,000 all decided, median ≤ 10 ms,
slowest ≤ 2 s; Hamilton ≥ 99 % of deals 1–1,000 decided within 10 s each,
median ≤ 0.5 s; Clock's win rate over 100,000 deals. Each share is printed with
its 95 % Wilson interval and the command that reproduces it.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.cli import wilson_interval  # noqa: E402


def _solve_one(job: tuple) -> tuple:
    game_id, deal, max_states, max_seconds = job
    from game.solver_common import solver_for
    result = solver_for(game_id)(deal, max_states=max_states, max_seconds=max_seconds)
    return deal, result.answer, result.states, result.seconds


def run_solver(game_id: str, deals: int, first: int, max_seconds: float,
               max_states: int | None, verbose: bool, jobs: int = 1) -> dict:
    counts = {"winnable": 0, "not winnable": 0, "unknown": 0}
    times = []
    unknown = []
    started = time.perf_counter()
    work = [(game_id, deal, max_states, max_seconds) for deal in range(first, first + deals)]
    if jobs > 1:
        import multiprocessing
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        answers = pool.imap(_solve_one, work, chunksize=4)
    else:
        pool = None
        answers = map(_solve_one, work)
    for deal, answer, states, seconds in answers:
        counts[answer] += 1
        times.append(seconds)
        if answer == "unknown":
            unknown.append(deal)
        if verbose:
            print(f"  {game_id} {deal}: {answer} {states} states {seconds:.3f} s", flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    decided = counts["winnable"] + counts["not winnable"]
    return {"game": game_id, "deals": deals, "first": first, **counts, "decided": decided,
            "median": statistics.median(times), "max": max(times),
            "slowest": first + times.index(max(times)), "unknown_deals": unknown[:20],
            "total_seconds": time.perf_counter() - started}


def report(row: dict, command: str) -> None:
    n = row["deals"]
    print(f"{row['game']}: deals {row['first']}–{row['first'] + n - 1}: decided "
          f"{row['decided']}/{n} ({100 * row['decided'] / n:.1f} %), winnable "
          f"{row['winnable']}, not winnable {row['not winnable']}, unknown {row['unknown']}")
    print(f"  time per deal: median {1000 * row['median']:.1f} ms, max {row['max']:.2f} s "
          f"(deal {row['slowest']}); total {row['total_seconds']:.1f} s")
    if row["unknown_deals"]:
        print(f"  unknown (first 20): {row['unknown_deals']}")
    if row["decided"]:
        low, high = wilson_interval(row["winnable"], row["decided"])
        print(f"  winnable share of decided deals: {100 * row['winnable'] / row['decided']:.2f} % "
              f"(95 % CI {100 * low:.2f}–{100 * high:.2f} %)")
    if row["unknown"]:
        low, _ = wilson_interval(row["winnable"], n)
        _, high = wilson_interval(row["winnable"] + row["unknown"], n)
        print(f"  bounds counting unknown as lost / won: {100 * low:.2f}–{100 * high:.2f} %")
    print(f"  reproduce: {command}")


def clock_rate(deals: int, first: int) -> None:
    from game.clock_solver import wins
    started = time.perf_counter()
    won = sum(wins(seed) for seed in range(first, first + deals))
    low, high = wilson_interval(won, deals)
    print(f"clock: deals {first}–{first + deals - 1}: won {won} ({100 * won / deals:.2f} %, "
          f"95 % CI {100 * low:.2f}–{100 * high:.2f} %), {time.perf_counter() - started:.1f} s")
    print(f"  reproduce: python bench/solve.py --camelot 0 --hamilton 0 --clock {deals}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--camelot", type=int, default=10_000)
    p.add_argument("--hamilton", type=int, default=1_000)
    p.add_argument("--clock", type=int, default=100_000)
    p.add_argument("--first", type=int, default=1, help="first deal number")
    p.add_argument("--max-seconds", type=float, default=None,
                   help="per deal (default: 2 for Camelot, 10 for Hamilton)")
    p.add_argument("--max-states", type=int, default=None)
    p.add_argument("--quick", action="store_true", help="20 / 10 / 10,000 deals")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--jobs", type=int, default=1,
                   help="deals solved at once, one process each (times stay per deal)")
    args = p.parse_args(argv)
    if args.quick:
        args.camelot, args.hamilton, args.clock = 20, 10, 10_000
    for game_id, deals, limit, flag in (("camelot-solitaire", args.camelot, 2.0, "--camelot"),
                                        ("hamilton", args.hamilton, 10.0, "--hamilton")):
        if deals > 0:
            seconds = args.max_seconds or limit
            row = run_solver(game_id, deals, args.first, seconds, args.max_states, args.verbose,
                             args.jobs)
            others = "--hamilton 0" if flag == "--camelot" else "--camelot 0"
            report(row, f"python bench/solve.py {flag} {deals} {others} --clock 0 "
                        f"--first {args.first} --max-seconds {seconds}"
                        + (f" --max-states {args.max_states}" if args.max_states else "")
                        + (f" --jobs {args.jobs}" if args.jobs > 1 else ""))
    if args.clock > 0:
        clock_rate(args.clock, args.first)
    return 0


if __name__ == "__main__":
    sys.exit(main())
