"""Camelot move-generation speed: perft counts from the start position.

    python bench/perft.py [--depth 3] [--position "<position string>"]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.camelot.board import START_POSITION, perft  # noqa: E402
from game.camelot.position import Position  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--position", default=START_POSITION)
    args = parser.parse_args()
    pos = Position.from_text(args.position)
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        count = perft(pos, depth)
        seconds = time.perf_counter() - started
        print(f"perft({depth}) = {count:>10,}   {seconds:6.2f} s   "
              f"{count / seconds if seconds else 0:>10,.0f} leaf nodes/s", flush=True)


if __name__ == "__main__":
    main()
