"""Texel tuning of the board engine's evaluation on positions from its own games.

    python bench/camelot_texel.py games --out positions.txt [--games 128] [--nodes 400] [--minutes 10]
    python bench/camelot_texel.py tune positions.txt

``games``: the engine plays itself from the opening suite (each opening twice,
seeded differently; ``--nodes`` a move, so the games do not depend on the
load) and writes every quiet position of each game (nothing to capture, no
castle step in reach, ten plies past the opening) with the game's result,
White's points: ``position<TAB>points`` a line.

``tune``: the evaluation is linear in its weights once the castle race is one
feature (see :func:`features`), so it is fitted as Texel's method does: first
the scale K of the win probability ``1 / (1 + exp(-K * eval))`` with today's
weights, then every weight but the man's (100, the unit) by gradient descent on
the mean squared error between that probability and the result. Prints the
error before and after and the weights, as eval.py writes them.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from game.base import Status  # noqa: E402
from game.camelot import eval as ev  # noqa: E402
from game.camelot.ai import choose_move  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402
from game.camelot.geometry import SQUARE_COORDS  # noqa: E402
from engine_match import load_average, load_openings, write_lines  # noqa: E402

SKIP_PLIES = 10
NAMES = ("man", "knight", "progress", "castle0", "castle1", "castle2", "castle3", "castle4",
         "castle5", "home", "outer", "race", "tempo")


def current_weights() -> np.ndarray:
    """Today's weights of the features below, from game/camelot/eval.py."""
    return np.array([ev.MAN_VALUE, ev.KNIGHT_VALUE, ev.PROGRESS_STEP, *ev.CASTLE_APPROACH,
                     ev.HOME_GUARD, ev.OUTER_FILE, ev.RACE_SCALE / 100, ev.TEMPO], dtype=float)


def features(pos) -> list[float]:
    """White minus Black: men, knights, progress steps (15 - distance to the
    enemy castle, summed), pieces inside the enemy castle and 1 … 5 steps from
    it, pieces within two steps of their own castle, pieces on the outer files;
    the castle race (race_score at 100 %); the tempo (+1 White to move, -1 Black).
    Times today's weights: the evaluation, White's view."""
    out = [0.0] * len(NAMES)
    for sq, v in enumerate(pos.board):
        if not v:
            continue
        sign = 1 if v > 0 else -1
        side = 0 if v > 0 else 1
        d = ev.DISTANCE[1 - side][sq]
        out[0 if abs(v) == 1 else 1] += sign
        out[2] += sign * (15 - d)
        if d < len(ev.CASTLE_APPROACH):
            out[3 + d] += sign
        if ev.DISTANCE[side][sq] <= 2:
            out[9] += sign
        if SQUARE_COORDS[sq][0] in (0, 1, 10, 11):
            out[10] += sign
    out[11] = ev.race(pos.bits[0], pos.bits[1], 1) - ev.race(pos.bits[1], pos.bits[0], 0)
    out[12] = 1.0 if pos.side == 0 else -1.0
    return out


def quiet(pos) -> bool:
    return (not pos.must_capture() and not pos.in_own_castle()
            and not ev.castle_step_threat(pos.board, 0) and not ev.castle_step_threat(pos.board, 1))


def play(opening: list[str], seed: int, nodes: int, cap: int) -> tuple[list[str], float]:
    game = CamelotBoard()
    for text in opening:
        game.play(text)
    table: dict = {}
    seen = []
    while game.status is Status.PLAYING and len(game.history) < cap:
        if len(game.history) >= SKIP_PLIES and quiet(game.position):
            seen.append(game.position_text())
        result = choose_move(game, "hard", seed=seed * 1000 + len(game.history),
                             max_nodes=nodes, table=table, threads=1)
        game.play(result.move)
    if game.status is Status.WON:
        points = 1.0 if game.winner == "white" else 0.0
    else:
        points = 0.5
    return seen, points


def make_games(args) -> None:
    openings = load_openings()
    stop_at = time.monotonic() + args.minutes * 60
    lines, won = [], [0, 0, 0]
    print(f"self-play at {args.nodes} nodes a move; {load_average()}", flush=True)
    started = time.monotonic()
    for index in range(args.games):
        if time.monotonic() > stop_at:
            print(f"the time is up after {index} games", flush=True)
            break
        positions, points = play(openings[index % len(openings)],
                                 args.seed + index // len(openings) + 1, args.nodes, args.cap)
        won[{1.0: 0, 0.5: 1, 0.0: 2}[points]] += 1
        lines += [f"{p}\t{points:g}\t{index}" for p in positions]
        print(f"  game {index + 1}: {points:g} for White, {len(positions)} quiet positions",
              flush=True)
    write_lines(args.out, f"# {sum(won)} self-play games at {args.nodes} nodes a move: White won "
                f"{won[0]}, drew {won[1]}, lost {won[2]}\n", lines)
    print(f"{len(lines)} positions in {(time.monotonic() - started) / 60:.1f} minutes; "
          f"{load_average()}", flush=True)


def load(path: str) -> tuple[np.ndarray, np.ndarray]:
    rows, results = [], []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        text, points = line.split("\t")[:2]
        rows.append(features(CamelotBoard(text).position))
        results.append(float(points))
    return np.array(rows), np.array(results)


def error(x: np.ndarray, r: np.ndarray, w: np.ndarray, k: float) -> float:
    p = 1 / (1 + np.exp(-k * (x @ w)))
    return float(np.mean((r - p) ** 2))


def fit_k(x, r, w) -> float:
    best = min((error(x, r, w, k), k) for k in np.geomspace(1e-4, 0.05, 400))
    return best[1]


def tune(args) -> None:
    x, r = load(args.positions)
    if args.same_near:
        # One weight for a piece one or two steps from the castle (column 4 then
        # follows column 3's weight): an evaluation that does not prefer the
        # second step to the first.
        x[:, 3] += x[:, 4]
        x[:, 4] = 0
    w0 = current_weights()
    k = fit_k(x, r, w0)
    print(f"{len(r)} positions; K {k:.5f}; error with today's weights {error(x, r, w0, k):.6f}")
    # Gradient descent on every weight but the man's, in features scaled to
    # unit spread (the race is hundreds, the counts a few).
    scale = x.std(axis=0) + 1e-9
    z = x / scale
    v = w0 * scale
    for _ in range(args.steps):
        e = z @ v
        p = 1 / (1 + np.exp(-k * e))
        grad = -2 * k * ((r - p) * p * (1 - p)) @ z / len(r)
        grad[0] = 0   # the man is the unit
        v -= args.rate * grad
    w = v / scale
    if args.same_near:
        w[4] = w[3]
    print(f"error with tuned weights {error(x, r, w, k):.6f} "
          f"(held-out half, fitted on the other: {held_out(x, r, k, args):.6f} against "
          f"{error(x[1::2], r[1::2], w0, k):.6f})")
    for name, old, new in zip(NAMES, w0, w):
        print(f"  {name:10} {old:8.2f} -> {new:8.2f}")


def held_out(x, r, k, args) -> float:
    """The error on the odd positions of weights fitted on the even ones."""
    train = x[0::2]
    scale = train.std(axis=0) + 1e-9
    z = train / scale
    v = current_weights() * scale
    for _ in range(args.steps):
        p = 1 / (1 + np.exp(-k * (z @ v)))
        grad = -2 * k * ((r[0::2] - p) * p * (1 - p)) @ z / len(z)
        grad[0] = 0
        v -= args.rate * grad
    return error(x[1::2], r[1::2], v / scale, k)


def main_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("games")
    g.add_argument("--out", required=True)
    g.add_argument("--games", type=int, default=128)
    g.add_argument("--nodes", type=int, default=400)
    g.add_argument("--cap", type=int, default=300)
    g.add_argument("--seed", type=int, default=0,
                   help="added to each game's seed (another run, other games)")
    g.add_argument("--minutes", type=float, default=10.0)
    t = sub.add_parser("tune")
    t.add_argument("positions")
    t.add_argument("--steps", type=int, default=3000)
    t.add_argument("--same-near", action="store_true",
                   help="one weight for one and two steps from the castle")
    t.add_argument("--rate", type=float, default=2000.0)
    return ap


def main() -> int:
    args = main_parser().parse_args()
    random.seed(0)
    if args.command == "games":
        make_games(args)
    else:
        tune(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
