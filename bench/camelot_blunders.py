"""How often a level gives away a man or more, judged by a deeper search: a
measure of "beatable by a beginner" that does not need a beginner.

    python bench/camelot_blunders.py POSITIONS [--levels easy,medium] [--count 60] [--depth 4]

POSITIONS is a file of position strings, one a line (a tab and anything after
it ignored: ``bench/camelot_texel.py games`` writes one). For each of the first
``--count`` positions the level chooses its move (seeded, as in a game); a
reference search (the engine, ``--depth`` plies plus quiescence) scores the
best move and the level's move. A move scoring a man (100) or more below the
best is a blunder, three men or more a big one. Prints, for each level, the
positions, the blunders and their share with its 95 % interval, and the
average loss.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from game.base import Status  # noqa: E402
from game.camelot.ai import WIN_THRESHOLD, choose_move  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402
from engine_match import load_average  # noqa: E402
from game.cli import wilson_interval  # noqa: E402

BLUNDER = 100
BIG = 300


def clipped(score: int) -> int:
    """A forced result counts as ten men: a lost win is a blunder, not infinity."""
    return max(-1000, min(1000, score)) if abs(score) >= WIN_THRESHOLD else score


def loss_of(board: CamelotBoard, move, depth: int) -> int:
    """What ``move`` gives away against the best move, by a ``depth``-ply search."""
    best = choose_move(board, "hard", seed=0, max_depth=depth, time_limit=600, threads=1,
                       book=False, tablebase=False)
    if best.move == move:
        return 0
    after = CamelotBoard(board.position_text())
    after.play(move)
    if after.status is not Status.PLAYING:
        return 0 if after.winner == board.turn else clipped(best.score) + 1000
    reply = choose_move(after, "hard", seed=0, max_depth=depth - 1, time_limit=600, threads=1,
                        book=False, tablebase=False)
    return max(0, clipped(best.score) - clipped(-reply.score))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("positions")
    ap.add_argument("--levels", default="easy,medium")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--depth", type=int, default=4)
    args = ap.parse_args()
    texts = []
    for line in Path(args.positions).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            texts.append(line.split("\t")[0])
    # Every few positions, spread over the file (its games are in order).
    step = max(1, len(texts) // args.count)
    texts = texts[::step][:args.count]
    print(f"{len(texts)} positions, reference search depth {args.depth}; {load_average()}")
    print("| level | positions | blunders (≥ 1 man) | share (95 % CI) | big (≥ 3 men) | "
          "mean loss |")
    print("|---|---|---|---|---|---|")
    for level in args.levels.split(","):
        losses = []
        for index, text in enumerate(texts):
            board = CamelotBoard(text)
            move = choose_move(board, level, seed=index, threads=1).move
            losses.append(loss_of(board, move, args.depth))
        blunders = sum(x >= BLUNDER for x in losses)
        low, high = wilson_interval(blunders, len(losses))
        print(f"| {level} | {len(losses)} | {blunders} | {100 * blunders / len(losses):.0f} % "
              f"({100 * low:.0f}–{100 * high:.0f} %) | {sum(x >= BIG for x in losses)} | "
              f"{statistics.mean(losses):.0f} |", flush=True)
    print(load_average())
    return 0


if __name__ == "__main__":
    sys.exit(main())
