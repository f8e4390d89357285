"""The long monkey run: seeded random streams of input through every scene.

    python bench/monkey.py --events 100000 [--seed S] [--jobs N] [--size 1280x720]

Prints events, scenes visited, games finished, moves played and seconds; on a
failure (an exception, a broken engine invariant, a worker process left
running) it prints the seed, the event index and the traceback, and exits 1.
With ``--jobs N`` the events are split into N streams (seeds S, S+1, …), each
its own app in its own process, run side by side. The short version runs in
CI: tests/scenes/test_monkey.py.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def one_stream(seed: int, events: int, size, as_json: bool) -> int:
    from tests.monkey import run_monkey

    def progress(report):
        print(f"  seed {seed}: {report.events} events, {report.frames} frames, "
              f"{report.games_finished} games finished, {report.moves_played} moves",
              file=sys.stderr, flush=True)
    report = run_monkey(seed, events, size, progress)
    data = {"seed": seed, "events": report.events, "frames": report.frames,
            "scenes": dict(report.scenes), "games_finished": report.games_finished,
            "moves_played": report.moves_played, "checks": report.checks,
            "relaunches": report.relaunches, "language_switches": report.language_switches,
            "seconds": report.seconds,
            "failure": report.failure, "failed_at": report.failed_at}
    if as_json:
        print(json.dumps(data))
    else:
        print_results([data], report.seconds)
    return 0 if report.ok else 1


def print_results(results: list[dict], seconds: float) -> int:
    from tests.monkey import REQUIRED_SCENES
    scenes = Counter()
    for r in results:
        scenes.update(r["scenes"])
    total = lambda key: sum(r[key] for r in results)  # noqa: E731
    seeds = ", ".join(str(r["seed"]) for r in results)
    print(f"monkey (seed{'s' if len(results) > 1 else ''} {seeds}): {total('events')} events, "
          f"{total('frames')} frames, {seconds:.0f} s")
    print(f"scenes visited: {len(scenes)} — " + ", ".join(f"{k} {n}" for k, n in sorted(scenes.items())))
    missing = sorted(REQUIRED_SCENES - set(scenes))
    if missing:
        print("scenes never visited: " + ", ".join(missing))
    print(f"games finished: {total('games_finished')}; moves played: {total('moves_played')}; "
          f"invariant checks: {total('checks')}; relaunches after Quit: {total('relaunches')}; "
          f"language switches: {total('language_switches')}")
    failed = [r for r in results if r["failure"]]
    for r in failed:
        print(f"FAILED: seed {r['seed']}, event {r['failed_at']}\n{r['failure']}")
    if not failed:
        print("result: OK, no exception, invariants held, no worker process left")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="streams run side by side")
    p.add_argument("--size", default="1280x720", help="window size at the start")
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    try:
        size = tuple(int(v) for v in args.size.lower().split("x"))
        assert len(size) == 2
    except (ValueError, AssertionError):
        p.error(f"size must look like 1280x720, not {args.size!r}")
    if args.events < 1 or args.jobs < 1:
        p.error("--events and --jobs must be at least 1")
    if args.jobs == 1:
        return one_stream(args.seed, args.events, size, args.json)
    started = time.perf_counter()
    share = -(-args.events // args.jobs)
    procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--json",
                               "--events", str(share), "--seed", str(args.seed + i),
                               "--size", args.size], stdout=subprocess.PIPE, text=True)
             for i in range(args.jobs)]
    results = []
    for i, proc in enumerate(procs):
        out, _ = proc.communicate()
        try:
            results.append(json.loads(out.strip().splitlines()[-1]))
        except (ValueError, IndexError):
            results.append({"seed": args.seed + i, "events": 0, "frames": 0, "scenes": {},
                            "games_finished": 0, "moves_played": 0, "checks": 0, "relaunches": 0,
                            "language_switches": 0, "seconds": 0.0, "failed_at": None,
                            "failure": f"the stream's process ended with code {proc.returncode}"})
    return print_results(results, time.perf_counter() - started)


if __name__ == "__main__":
    sys.exit(main())
