"""Process start to the first menu frame, measured from outside the process.

    python bench/startup.py [--runs 10]

Starts ``python main.py --frames 1 --timing`` (headless), and measures from just
before the process is spawned to the wall-clock moment the app reports its first
frame was on screen (interpreter start-up included).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def once(extra: list[str]) -> float:
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "dummy"),
               SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"))
    started = time.time()
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "--frames", "1", "--timing", *extra],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    wall = float(re.search(r"at wall time ([0-9.]+)", proc.stdout).group(1))
    return wall - started


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=10)
    args = p.parse_args()
    for label, extra in (("menu, full screen", []), ("menu, 1920x1080 window", ["--size", "1920x1080"])):
        times = [once(extra) for _ in range(args.runs)]
        print(f"start to first frame ({label}): median {statistics.median(times) * 1000:.0f} ms, "
              f"max {max(times) * 1000:.0f} ms over {args.runs} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
