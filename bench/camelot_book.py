"""Makes the opening book ``game/camelot/book.txt`` (read by game/camelot/book.py)
from the engine's own deep searches.

    python bench/camelot_book.py [--plies 1] [--nodes 150000] [--jobs 2] [--out FILE]

The book holds the start position and every position up to ``--plies`` plies
from it (every legal move of both sides: 100 positions after one ply), each with
the move a search of ``--nodes`` nodes chose there (the hard level's search,
no book). One line a position: its string's first four fields, the move, and
the search's score, depth and nodes as a comment.
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from game.camelot.ai import choose_move  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402
from engine_match import write_lines  # noqa: E402
from game.camelot.book import BOOK_FILE, book_key  # noqa: E402


def positions(plies: int) -> list[list[str]]:
    """Move lists reaching every position up to ``plies`` plies from the start."""
    out, frontier = [[]], [[]]
    for _ in range(plies):
        nxt = []
        for moves in frontier:
            game = CamelotBoard()
            for text in moves:
                game.play(text)
            nxt.extend(moves + [str(m)] for m in game.legal_moves())
        out.extend(nxt)
        frontier = nxt
    return out


def search(task: tuple) -> str:
    moves, nodes = task
    game = CamelotBoard()
    for text in moves:
        game.play(text)
    result = choose_move(game, "hard", seed=0, time_limit=3600.0, max_depth=64,
                         max_nodes=nodes, book=False)
    return (f"{book_key(game.position)} {result.move}  # score {result.score:+d} depth "
            f"{result.depth} nodes {result.nodes} after {' '.join(moves) or 'the start'}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plies", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=150_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(BOOK_FILE))
    args = ap.parse_args(argv)
    if not 0 <= args.plies <= 2 or args.nodes <= 0 or args.jobs <= 0:
        ap.error("--plies 0-2, --nodes and --jobs more than 0")
    started = time.monotonic()
    todo = positions(args.plies)
    lines = []
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for line in pool.imap(search, [(m, args.nodes) for m in todo]):
            lines.append(line)
            print(line, flush=True)
    header = (f"# Camelot opening book: the start and every position {args.plies} ply from it, "
              f"each with the move of a {args.nodes}-node search.\n"
              f"# Made by: python bench/camelot_book.py --plies {args.plies} --nodes {args.nodes}\n")
    write_lines(args.out, header, lines)
    print(f"{len(lines)} positions in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
