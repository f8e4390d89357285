"""How long the search's first ply can take: the first iteration (depth 1) runs
past the move's deadline (a late start still answers a searched move), so a
position where it explodes is an engine that does not answer in time.

    python bench/camelot_first_ply.py [--from-opening 1] [--games 40] [--nodes 3000]
                                      [--above 20000] [--cap 300]

Self-play from the suite's openings (``data/camelot-openings.txt``), the engine at
``--nodes`` a move (deterministic, whatever the load); at every position of every
game the first ply is searched alone and its nodes counted (stopped at 3 million).
Prints each position whose first ply took more than ``--above`` nodes (its
position string, to replay), a line a game, then the largest count and where.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from game.base import Status  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402
from game.camelot.position import Position  # noqa: E402
from game.camelot.search import Search  # noqa: E402
from engine_match import load_average, load_openings, move_of_key  # noqa: E402

FIRST_PLY_CAP = 3_000_000   # nodes: far beyond any move's time


def first_ply_nodes(pos: Position, keys: list) -> int:
    """Nodes the first iteration alone takes (FIRST_PLY_CAP when it is cut)."""
    search = Search(pos, node_limit=FIRST_PLY_CAP)
    search.run(keys, 1)
    return search.nodes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from-opening", type=int, default=1, help="the suite's opening (from 1)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--nodes", type=int, default=3000, help="nodes a move in the games")
    ap.add_argument("--above", type=int, default=20000, help="print first plies above this")
    ap.add_argument("--cap", type=int, default=300, help="plies a game, at most")
    args = ap.parse_args()
    for name in ("from_opening", "games", "nodes", "above", "cap"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    openings = load_openings()
    print(f"{args.games} games from opening {args.from_opening}, {args.nodes} nodes a move; "
          f"{load_average()}", flush=True)
    started = time.perf_counter()
    worst = (0, "")
    positions = 0
    gc.disable()   # as in the levels; collected between moves
    try:
        for index in range(args.from_opening - 1, args.from_opening - 1 + args.games):
            game = CamelotBoard()
            for text in openings[index % len(openings)]:
                game.play(text)
            while game.status is Status.PLAYING and len(game.history) < args.cap:
                pos = game.position   # a copy
                keys = list(pos.moves())
                count = first_ply_nodes(pos, keys)
                positions += 1
                if count > args.above:
                    print(f"  opening {index + 1}, ply {len(game.history)}: first ply "
                          f"{count:,} nodes: {game.position_text()}", flush=True)
                if count > worst[0]:
                    worst = (count, f"opening {index + 1}, ply {len(game.history)}")
                done = Search(pos, node_limit=args.nodes).run(keys, 64)
                key = done.best if done is not None else keys[0]
                game.play(move_of_key(game, key))
                gc.collect()
            print(f"game {index + 1}: {len(game.history)} plies, {game.status.name.lower()}",
                  flush=True)
    finally:
        gc.enable()
    print(f"{positions} positions; the largest first ply {worst[0]:,} nodes ({worst[1]}); "
          f"{(time.perf_counter() - started) / 60:.1f} minutes; {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
