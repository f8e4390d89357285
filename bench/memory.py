"""Memory over a long run: the app's resident memory, sampled from outside
while a demo plays, for attract mode and for each game alone.

    python bench/memory.py [--size 3840x2160] [--frames 30000] [--only all,clock]
                           [--every 0.5] [--points 12]

Each run is ``python main.py --demo ID --size WxH --frames N`` (headless; every
frame is 1/60 s of game time, so N frames are the same game on any machine).
Its resident set (``VmRSS`` in /proc) is read every ``--every`` seconds, and the
peak is the kernel's own high-water mark (``VmHWM``), read just before the run
ends. The worker processes the app starts (the computer players' searches) are
counted apart: they are separate processes, each its own interpreter.

Printed per run: the peak, the curve (the resident set at ``--points`` moments
spread over the run, with the frame reached), and the growth from the first
quarter's median to the last quarter's. Goal (issue 20): no run of any length
over 120 MiB at 3840x2160.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.startup import _env  # noqa: E402  the same headless, cached-bytecode set-up

GOAL_MIB = 120
RUNS = ("all", "camelot-solitaire", "hamilton", "clock", "camelot-board")


def status_kib(pid: int, field: str) -> int | None:
    """A ``VmRSS``/``VmHWM`` line of /proc/PID/status, in KiB (None once gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def children_kib(pid: int) -> int:
    """The resident sets of ``pid``'s child processes (its workers), together."""
    total = 0
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            kids = [int(k) for k in listing.read().split()]
    except OSError:
        return 0
    for kid in kids:
        total += status_kib(kid, "VmRSS") or 0
    return total


def measure(demo: str, size: str, frames: int, every: float) -> dict:
    """One run: samples of (seconds, RSS KiB), the peak KiB, the workers' peak."""
    # The curve is against time, taken as frames: with fixed steps and no
    # sleeping, the frames run about evenly.
    chosen = [] if demo == "all" else [demo]          # --demo alone: every game in turn
    command = [sys.executable, "main.py", "--size", size, "--frames", str(frames), "--demo", *chosen]
    started = time.monotonic()
    proc = subprocess.Popen(command, cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    samples, peak, workers_peak = [], 0, 0
    while proc.poll() is None:
        rss = status_kib(proc.pid, "VmRSS")
        hwm = status_kib(proc.pid, "VmHWM")
        if rss is not None:
            samples.append((time.monotonic() - started, rss))
            peak = max(peak, hwm or rss)
            workers_peak = max(workers_peak, children_kib(proc.pid))
        time.sleep(every)
    err = proc.stderr.read()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {err[-2000:]}")
    return {"samples": samples, "peak": peak, "workers": workers_peak,
            "seconds": time.monotonic() - started}


def report(demo: str, run: dict, frames: int, points: int) -> None:
    samples = run["samples"]
    mib = lambda kib: kib / 1024  # noqa: E731
    print(f"{demo:18} peak {mib(run['peak']):6.1f} MiB  "
          f"({'within' if mib(run['peak']) <= GOAL_MIB else 'OVER'} {GOAL_MIB}); "
          f"workers' peak together {mib(run['workers']):.0f} MiB; {run['seconds']:.0f} s")
    if len(samples) < 4:
        return
    total = samples[-1][0]
    curve = []
    for k in range(points):
        at = total * k / (points - 1)
        t, rss = min(samples, key=lambda s: abs(s[0] - at))
        curve.append(f"{mib(rss):.0f}@{int(frames * t / total)}")
    quarter = max(1, len(samples) // 4)
    first = statistics.median(r for _, r in samples[:quarter])
    last = statistics.median(r for _, r in samples[-quarter:])
    print(f"{'':18} curve MiB@frame: {' '.join(curve)}")
    print(f"{'':18} first quarter {mib(first):.1f} MiB -> last quarter {mib(last):.1f} MiB "
          f"({mib(last - first):+.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="3840x2160")
    parser.add_argument("--frames", type=int, default=30000)
    parser.add_argument("--only", default=",".join(RUNS),
                        help="runs to make: all (attract mode) and game ids, comma-separated")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between samples")
    parser.add_argument("--points", type=int, default=12, help="points of the printed curve")
    args = parser.parse_args()
    print(f"memory: {args.size}, {args.frames} frames a run; load {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    for demo in args.only.split(","):
        report(demo, measure(demo, args.size, args.frames, args.every), args.frames, args.points)
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
