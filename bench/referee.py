"""The game server's rules work per move, in one process: ratio to the whole list.

    python bench/referee.py [--games 20] [--repeat 3] [--seed 1]

Random games from the start (computed first) are replayed as a game server
referees them: ``play(notation)`` then ``position_text()`` (what the ``moved``
message carries), each move timed over the whole line (best of ``--repeat``).
The reference, in the same process on the same lines: the same and
``legal_moves()`` after every move — every legal Move made with its paths and
sorted, as the board did after each move before it listed moves only when
asked. Prints microseconds per move for both, the ratio, and the memory a board
keeps per ply played (its undo snapshots and records).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.camelot.board import CamelotBoard  # noqa: E402
from bench.server_load import scripted_lines  # noqa: E402  the load bench's random games

def referee(lines: list[list[str]], list_every_move: bool) -> float:
    """Seconds to referee every line (a fresh board each)."""
    started = time.perf_counter()
    for line in lines:
        board = CamelotBoard()
        for notation in line:
            board.play(notation)
            board.position_text()
            if list_every_move:
                board.legal_moves()
    return time.perf_counter() - started


def bytes_per_ply(line: list[str]) -> float:
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    board = CamelotBoard()
    for notation in line:
        board.play(notation)
    kept = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del board
    return kept / max(1, len(line))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = scripted_lines(args.games, args.seed)
    plies = sum(map(len, lines))
    now = full = float("inf")
    for _ in range(args.repeat):          # interleaved: a busy spell hits both alike
        now = min(now, referee(lines, False))
        full = min(full, referee(lines, True))
    longest = max(lines, key=len)
    print(f"{args.games} random games, {plies} moves (best of {args.repeat}); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"referee a move (play the notation, write the position): {1e6 * now / plies:.0f} µs")
    print(f"the same, every legal Move made after each move (the reference): "
          f"{1e6 * full / plies:.0f} µs")
    print(f"ratio to the reference: {now / full:.2f}")
    print(f"a board keeps {bytes_per_ply(longest) / 1024:.2f} KiB per ply played "
          f"({len(longest)} plies)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
