"""Process start to the first menu frame, measured from outside the process,
against a bare pygame window opened in the same run.

    python bench/startup.py [--runs 10] [--against DIR]

Starts ``python main.py --frames 1 --timing`` (headless), and measures from just
before the process is spawned to the wall-clock moment the app reports its first
frame was on screen (interpreter start-up included). The same is measured for a
bare window (``import pygame``, ``set_mode`` at the same size, fill, flip), run
alternately with the app so both see the same machine; the ratio of the medians
is the cost of the app over pygame itself (target ≤ 1.3×); the median of each
pair's own ratio (an app run and the bare run just after it) is printed beside it,
less moved by the machine's load drifting during the set. The same is printed
for the process's CPU time at that moment (interpreter start-up included),
which a busy machine stretches far less than the wall clock. Before each size,
both are run a few times untimed, so neither pays for reading its files from disk
(this machine's page cache is small and reclaimed).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WARM_RUNS = 3
BARE = ("import time, pygame\n"
        "pygame.init()\n"
        "screen = pygame.display.set_mode(({w}, {h}))\n"
        "screen.fill((20, 90, 50))\n"
        "pygame.display.flip()\n"
        "print(f'at wall time {{time.time():.6f}}; process CPU {{time.process_time():.6f}} s')\n")


def _env() -> dict:
    """Headless, and with compiled modules cached (in a folder of their own, as an
    installed app has them): a run never counts compiling the source."""
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "dummy"),
               SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"),
               PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONPYCACHEPREFIX=str(Path(tempfile.gettempdir()) / "roundtable-bench-pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _timed(command: list[str]) -> tuple[float, float]:
    """(wall-clock time from spawning to the first frame, the process's CPU
    time by then): the machine's load stretches the first, hardly the second."""
    started = time.time()
    proc = subprocess.run(command, capture_output=True, text=True, env=_env(), cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    found = re.search(r"at wall time ([0-9.]+); process CPU ([0-9.]+) s", proc.stdout)
    return float(found.group(1)) - started, float(found.group(2))


def app_once(size: tuple[int, int], root: Path = ROOT) -> tuple[float, float]:
    return _timed([sys.executable, str(root / "main.py"), "--frames", "1", "--timing",
                   "--size", f"{size[0]}x{size[1]}"])


def bare_once(size: tuple[int, int]) -> tuple[float, float]:
    return _timed([sys.executable, "-c", BARE.format(w=size[0], h=size[1])])


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--against", type=Path, metavar="DIR",
                   help="another checkout of the app (an earlier commit), run in turn with this one")
    args = p.parse_args()
    print(f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    app_once((1280, 720))        # compile every module once, untimed
    if args.against:
        app_once((1280, 720), args.against)
    for size in ((1920, 1080), (3840, 2160)):
        for _ in range(WARM_RUNS):   # untimed: neither side pays for reading its files from disk
            app_once(size)           # (nor, the app, for drawing what it keeps in the user's cache)
            bare_once(size)
            if args.against:
                app_once(size, args.against)
        app, bare, other = [], [], []
        for _ in range(args.runs):   # alternate, so both see the same machine load
            app.append(app_once(size))
            bare.append(bare_once(size))
            if args.against:
                other.append(app_once(size, args.against))
        for k, what in ((0, "wall clock"), (1, "process CPU")) if other else ():
            paired = statistics.median(x[k] / y[k] for x, y in zip(app, other))
            print(f"  {size[0]}x{size[1]} {what}: this app / {args.against} = median of paired ratios "
                  f"{paired:.3f}x (medians {statistics.median(r[k] for r in app) * 1000:.0f} / "
                  f"{statistics.median(r[k] for r in other) * 1000:.0f} ms)")
        for k, what in ((0, "wall clock"), (1, "process CPU")):
            a = statistics.median(r[k] for r in app)
            b = statistics.median(r[k] for r in bare)
            paired = statistics.median(x[k] / y[k] for x, y in zip(app, bare))
            print(f"start to first menu frame at {size[0]}x{size[1]}, {what}: median {a * 1000:.0f} ms "
                  f"(max {max(r[k] for r in app) * 1000:.0f}); bare pygame window {b * 1000:.0f} ms; "
                  f"ratio {a / b:.2f}x over {args.runs} runs (median of each run's own ratio {paired:.2f}x)")
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
