"""Makes the opening suite of ``bench/sprt.py`` and ``bench/ladder.py``:
``data/camelot-openings.txt``.

    python bench/camelot_openings.py [--count 64] [--plies 2-4] [--nodes 40000]
                                     [--margin 40] [--seed 1] [--jobs 2] [--out FILE]
                                     [--extend]

Random legal plies from the start (a seeded number between the --plies
bounds), each resulting position searched by the engine (``--nodes`` nodes,
the hard level's search); an opening is kept where that search scores it
within ``--margin`` (100 = a man) of level, and where no kept opening reached
the same position. Writes one opening a line (moves from the start, then the
score and depth as a comment) until ``--count`` are kept. ``--extend`` keeps
the openings already in ``--out`` first, unchanged and in order (so results
over the first N stay comparable), and adds new ones after them (give it
another ``--seed`` than the one that made them, or their candidates are
searched again only to be skipped).
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from game.camelot.ai import choose_move  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402
from engine_match import random_start, write_lines  # noqa: E402


def candidate(task: tuple):
    seed, low, high, nodes = task
    game = random_start(random.Random(seed), low, high)
    if game is None:
        return None
    result = choose_move(game, "hard", seed=0, time_limit=3600.0, max_depth=64,
                         max_nodes=nodes)
    # The score is the side to move's; the suite states it for White.
    white = result.score if game.turn == "white" else -result.score
    return seed, list(game.history), game.position_text(), white, result.depth


def existing_suite(path: Path) -> tuple[str, list[str]]:
    """A suite file's comment header (its leading ``#`` lines) and its opening lines."""
    header, lines = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and not lines:
            header.append(line + "\n")
        elif line.split("#", 1)[0].strip():
            lines.append(line)
    return "".join(header), lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=64)
    ap.add_argument("--plies", default="2-4", help="random plies from the start: LOW-HIGH")
    ap.add_argument("--nodes", type=int, default=40_000)
    ap.add_argument("--margin", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "data" / "camelot-openings.txt"))
    ap.add_argument("--extend", action="store_true",
                    help="keep the openings already in --out first and add new ones after them")
    args = ap.parse_args(argv)
    try:
        low, high = (int(x) for x in args.plies.split("-"))
    except ValueError:
        ap.error(f"--plies {args.plies!r}: LOW-HIGH, e.g. 2-4")
    if not 0 < low <= high or args.count <= 0 or args.nodes <= 0:
        ap.error("--plies, --count and --nodes must be more than 0")
    started = time.monotonic()
    kept, seen = [], set()
    header, old_lines = "", []
    if args.extend:
        header, old_lines = existing_suite(Path(args.out))
        for line in old_lines:
            game = CamelotBoard()
            for text in line.split("#", 1)[0].split():
                game.play(text)
            seen.add(game.position_text())
        if len(old_lines) >= args.count:
            ap.error(f"--extend: {args.out} already holds {len(old_lines)} openings")
    tasks = ((args.seed * 1_000_000 + i, low, high, args.nodes) for i in range(10 ** 6))
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for found in pool.imap(candidate, tasks):
            if found is None:
                continue
            seed, moves, position, score, depth = found
            if abs(score) > args.margin or position in seen:
                continue
            seen.add(position)
            kept.append((moves, score, depth))
            print(f"{len(old_lines) + len(kept):3}: {' '.join(moves):40} {score:+4} "
                  f"(depth {depth})", flush=True)
            if len(old_lines) + len(kept) >= args.count:
                pool.terminate()
                break
    command = (f"python bench/camelot_openings.py --count {args.count} --plies {args.plies} "
               f"--nodes {args.nodes} --margin {args.margin} --seed {args.seed}")
    if args.extend:
        header += (f"# Extended to {len(old_lines) + len(kept)} (openings {len(old_lines) + 1} on) "
                   f"by: {command} --extend\n")
    else:
        header = (f"# Camelot opening suite: {len(kept)} positions {low}-{high} random plies "
                  f"from the start,\n# kept where the engine's search ({args.nodes} nodes) "
                  f"scores them within {args.margin} of level (100 = a man).\n"
                  f"# Made by: {command}\n"
                  f"# One opening a line: moves from the start, then # White's score, depth.\n")
    lines = old_lines + [f"{' '.join(m):40} # {s:+d} d{d}" for m, s, d in kept]
    write_lines(args.out, header, lines)
    print(f"{len(lines)} openings ({len(kept)} new) written to {args.out} in "
          f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
