"""Texel tuning of the board engine's evaluation on positions from its own games.

    python bench/camelot_texel.py games --out positions.txt [--games 128] [--nodes 400] [--minutes 10] [--seed 0]
                                       [--jobs 2] [--random-plies 4-8]
    python bench/camelot_texel.py tune positions.txt [--ridge 1e-8] [--folds 2] [--from-hand-set] [--try lone,...]

``games``: the engine plays itself from the opening suite (each opening again
with another seed once all are used), or with ``--random-plies`` from random
openings that reach no position of the suite (``--nodes`` a move, so the
games do not depend on the load) and writes every quiet position of each game (nothing to
capture, no castle step in reach, ten plies past the opening) with the game's
result, White's points, and the game's number: ``position<TAB>points<TAB>game``
a line.

``tune``: the evaluation is linear in its weights once the castle race is one
feature (see :func:`features`), so it is fitted as Texel's method does: first
the scale K of the win probability ``1 / (1 + exp(-K * eval))`` with today's
weights, then every weight but the man's (100, the unit) on the mean squared
error between that probability and the result, drawn toward the starting
weights by a small ridge. The positions of one game share its result, so the
held-out error is measured by game: the games are split into folds, each fitted
on the others. ``--try`` adds candidate features the evaluation does not have
(:data:`CANDIDATES`, starting at 0) to see whether the fit gives them weight and
the held-out error falls. Prints the errors before and after and the weights,
as eval.py names them.
"""
from __future__ import annotations

import argparse
import multiprocessing
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
from game.camelot.geometry import ON_BOARD, SQUARE_COORDS  # noqa: E402
from engine_match import load_average, load_openings, random_start, write_lines  # noqa: E402

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
            and not ev.castle_step_threat(pos.bits, 0) and not ev.castle_step_threat(pos.bits, 1))


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


def random_opening(seed: int, low: int, high: int, avoid: set[str]) -> list[str]:
    """``low``-``high`` random legal plies from the start (seeded), none reaching a
    position of ``avoid`` (the match suite's), so the fit is not trained on the
    openings its match is played from."""
    rng = random.Random(seed)
    while True:
        game = random_start(rng, low, high)
        if game is not None and game.position_text() not in avoid:
            return list(game.history)


def suite_positions(openings: list[list[str]]) -> set[str]:
    out = set()
    for opening in openings:
        game = CamelotBoard()
        for text in opening:
            game.play(text)
            out.add(game.position_text())
    return out


def _one_game(task: tuple) -> tuple[int, list[str], float]:
    index, opening, seed, nodes, cap = task
    positions, points = play(opening, seed, nodes, cap)
    return index, positions, points


def make_games(args) -> None:
    openings = load_openings()
    if args.random_plies:
        low, high = (int(x) for x in args.random_plies.split("-"))
        avoid = suite_positions(openings)
        tasks = [(i, random_opening(args.seed * 1_000_003 + i, low, high, avoid),
                  args.seed + 1, args.nodes, args.cap) for i in range(args.games)]
        where = f"{low}-{high} random plies from the start (no position of the suite)"
    else:
        tasks = [(i, openings[i % len(openings)], args.seed + i // len(openings) + 1,
                  args.nodes, args.cap) for i in range(args.games)]
        where = "the opening suite"
    stop_at = time.monotonic() + args.minutes * 60
    lines, won, played = [], [0, 0, 0], 0
    print(f"self-play at {args.nodes} nodes a move from {where}, {args.jobs} at once; "
          f"{load_average()}", flush=True)
    started = time.monotonic()
    # Spawned, not forked: a forked child of a threaded process (a test runner's
    # worker) can hang on a lock it copied held. One job: no pool at all.
    pool = multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else None
    try:
        for index, positions, points in (pool.imap_unordered(_one_game, tasks) if pool
                                         else map(_one_game, tasks)):
            won[{1.0: 0, 0.5: 1, 0.0: 2}[points]] += 1
            lines += [f"{p}\t{points:g}\t{index}" for p in positions]
            played += 1
            print(f"  game {index + 1}: {points:g} for White, {len(positions)} quiet positions",
                  flush=True)
            if time.monotonic() > stop_at:
                print(f"the time is up after {played} games", flush=True)
                break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    write_lines(args.out, f"# {sum(won)} self-play games at {args.nodes} nodes a move from {where}: "
                f"White won {won[0]}, drew {won[1]}, lost {won[2]}\n", lines)
    print(f"{len(lines)} positions in {(time.monotonic() - started) / 60:.1f} minutes; "
          f"{load_average()}", flush=True)


# Features the evaluation does not have, for ``tune --try``: computed here only,
# so a candidate costs the search nothing until its fit earns it a place.
def _neighbours(b: int) -> int:
    return ((b << 1) | (b >> 1) | (b << 15) | (b >> 15) | (b << 16) | (b >> 16)
            | (b << 17) | (b >> 17))


def _attacked(mine: int, theirs: int) -> int:
    """Pieces of ``mine`` that a piece of ``theirs`` could jump now."""
    empty = ON_BOARD & ~(mine | theirs)
    over = 0
    for s in (1, 15, 16, 17):
        over |= ((theirs << s) & (empty >> s)) | ((theirs >> s) & (empty << s))
    return mine & over


def _stm(pos, count) -> float:
    """A count of the side to move's pieces, White's view."""
    return -count if pos.side == 0 else count


CANDIDATES = {
    # the side to move's men / knights that the other side could jump (in a quiet
    # position the side to move has nothing to jump)
    "attacked_men": lambda pos: _stm(pos, (_attacked(pos.bits[pos.side], pos.bits[1 - pos.side])
                                           & ~pos.knights[pos.side]).bit_count()),
    "attacked_knights": lambda pos: _stm(pos, (_attacked(pos.bits[pos.side],
                                                         pos.bits[1 - pos.side])
                                               & pos.knights[pos.side]).bit_count()),
    # pieces with no piece of their own next to them / with one, White minus Black
    "lone": lambda pos: float((pos.bits[0] & ~_neighbours(pos.bits[0])).bit_count()
                              - (pos.bits[1] & ~_neighbours(pos.bits[1])).bit_count()),
    "cohesion": lambda pos: float((pos.bits[0] & _neighbours(pos.bits[0])).bit_count()
                                  - (pos.bits[1] & _neighbours(pos.bits[1])).bit_count()),
}

# The hand-set weights the first fit started from (and was drawn toward): knight
# 160, a step 4, 300 inside the castle, 40 and 15 one and two steps from it.
HAND_SET = (100, 160, 4, 300, 40, 15, 0, 0, 0, 0, 0, 1.0, 0)


def load(path: str, tried=(), extra=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (with the ``tried`` candidates' columns, then ``extra(pos)``'s,
    last), results, game numbers (the third column; for an older file without
    it, a new game wherever the result changes or the pieces grow in number)."""
    rows, results, games = [], [], []
    game, last = 0, (None, 999)
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        pos = CamelotBoard(cells[0]).position
        pieces = (pos.bits[0] | pos.bits[1]).bit_count()
        if len(cells) > 2:
            game = int(cells[2])
        elif cells[1] != last[0] or pieces > last[1]:
            game += 1
        last = (cells[1], pieces)
        rows.append(features(pos) + [CANDIDATES[name](pos) for name in tried]
                    + (extra(pos) if extra else []))
        results.append(float(cells[1]))
        games.append(game)
    return np.array(rows), np.array(results), np.array(games)


def error(x: np.ndarray, r: np.ndarray, w: np.ndarray, k: float) -> float:
    p = 1 / (1 + np.exp(-k * (x @ w)))
    return float(np.mean((r - p) ** 2))


def fit_k(x, r, w) -> float:
    best = min((error(x, r, w, k), k) for k in np.geomspace(1e-4, 0.05, 400))
    return best[1]


def fit(x, r, k, w0, ridge: float, iterations: int = 200) -> np.ndarray:
    """Every weight but the man's (the unit), minimising the mean squared error
    between the predicted and the actual result plus ``ridge`` times the squared
    distance from ``w0``, features scaled to unit spread (a raw ridge of
    ``ridge`` times each feature's variance)."""
    scale = x.std(axis=0) + 1e-9
    return fit_raw(x, r, k, w0, ridge * scale * scale, np.arange(1, len(w0)), iterations,
                   tolerance=1e-9 / scale.max())


# The per-square corrections: one for each kind of piece and each square as its
# owner sees it (Black's ranks turned round), a square and its mirror image in
# the centre file sharing one (the board is symmetric): 2 x 80 columns.
def _square_class() -> tuple[dict[tuple[int, int], int], list[tuple[int, int]]]:
    classes: dict[tuple[int, int], int] = {}
    for f, rank in SQUARE_COORDS:
        classes.setdefault((min(f, 11 - f), rank), len(classes))
    return classes, sorted(classes, key=classes.get)


SQUARE_CLASS, CLASS_SQUARES = _square_class()


def square_columns(pos) -> list[float]:
    """White minus Black: pieces of each kind on each square class."""
    out = [0.0] * (2 * len(CLASS_SQUARES))
    for sq, v in enumerate(pos.board):
        if v:
            f, rank = SQUARE_COORDS[sq]
            if v < 0:
                rank = 17 - rank
            out[(abs(v) - 1) * len(CLASS_SQUARES) + SQUARE_CLASS[(min(f, 11 - f), rank)]] += (
                1 if v > 0 else -1)
    return out


def fit_raw(x, r, k, w0, ridge: np.ndarray, free: np.ndarray, iterations: int = 60,
            tolerance: float = 1e-4) -> np.ndarray:
    """The ``free`` weights minimising the mean squared error plus, for each,
    its ``ridge`` times its squared distance from ``w0`` (raw units: a square
    correction seldom seen stays near 0): Gauss-Newton steps, halved while they
    do not lower it."""
    def loss(w):
        d = (w - w0)[free]
        return error(x, r, w, k) + float(ridge[free] @ (d * d))

    w = w0.copy()
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-k * (x @ w)))
        jac = (k * p * (1 - p))[:, None] * x[:, free]
        lhs = jac.T @ jac / len(r) + np.diag(ridge[free])
        rhs = jac.T @ (r - p) / len(r) - ridge[free] * (w - w0)[free]
        step = np.zeros_like(w)
        step[free] = np.linalg.solve(lhs, rhs)
        before = loss(w)
        while loss(w + step) > before and np.abs(step).max() > tolerance * 1e-3:
            step /= 2
        w += step
        if np.abs(step).max() < tolerance:
            break
    return w


def tune_squares(args) -> None:
    """The formula's weights fitted together with a correction for every square
    class, the corrections drawn to 0 by each ridge of ``--squares``; the held-out
    error (by game) of each, then the best fit's corrections as grids."""
    x, r, games = load(args.positions, extra=square_columns)
    corrections = x.shape[1] - len(NAMES)
    w0 = np.concatenate([current_weights(), np.zeros(corrections)])
    k = fit_k(x[:, :len(NAMES)], r, w0[:len(NAMES)])
    free = np.arange(1, len(w0))
    folds = [games % args.folds == i for i in range(args.folds)]
    print(f"{len(r)} positions of {len(set(games))} games; K {k:.5f}; today's weights: error "
          f"{error(x, r, w0, k):.6f}, on each fold {np.mean([error(x[f], r[f], w0, k) for f in folds]):.6f}")
    near_free = np.full(len(w0), 1e-12)
    formula = np.arange(1, len(NAMES))   # the corrections held at 0
    held = np.mean([error(x[f], r[f], fit_raw(x[~f], r[~f], k, w0, near_free, formula), k)
                    for f in folds])
    print(f"  the formula's weights alone refitted: held out {held:.6f}")
    best = None
    for lam in (float(v) for v in args.squares.split(",")):
        ridge = np.concatenate([near_free[:len(NAMES)], np.full(corrections, lam)])
        held = np.mean([error(x[f], r[f], fit_raw(x[~f], r[~f], k, w0, ridge, free), k)
                        for f in folds])
        print(f"  with square corrections, ridge {lam:g}: held out {held:.6f}", flush=True)
        if best is None or held < best[0]:
            best = (held, lam, ridge)
    held, lam, ridge = best
    w = fit_raw(x, r, k, w0, ridge, free)
    print(f"best ridge {lam:g} (held out {held:.6f}); fitted on all: error {error(x, r, w, k):.6f}")
    for name, old, new in zip(NAMES, w0, w):
        print(f"  {name:16} {old:8.2f} -> {new:8.2f}")
    n = len(CLASS_SQUARES)
    for kind, values in (("MAN", w[len(NAMES):len(NAMES) + n]), ("KNIGHT", w[len(NAMES) + n:])):
        print(f"{kind}_CORRECTION = (   # files A-F (G-L mirror them), the owner's rank 16 first")
        for rank in range(16, 0, -1):
            cells = [f"{round(values[SQUARE_CLASS[(f, rank)]]):4d}," if (f, rank) in SQUARE_CLASS
                     else "     " for f in range(6)]
            print(f"    {''.join(cells)}  # {rank}")
        print(")")


def tune(args) -> None:
    tried = [name for name in args.tried.split(",") if name]
    unknown = set(tried) - set(CANDIDATES)
    if unknown:
        raise SystemExit(f"no candidate feature {', '.join(sorted(unknown))}: "
                         f"there are {', '.join(CANDIDATES)}")
    x, r, games = load(args.positions, tried)
    start = np.array(HAND_SET if args.from_hand_set else current_weights(), dtype=float)
    w0 = np.concatenate([start, np.zeros(len(tried))])
    k = fit_k(x, r, w0)
    folds = [games % args.folds == i for i in range(args.folds)]
    print(f"{len(r)} positions of {len(set(games))} games; K {k:.5f}; "
          f"{'hand-set' if args.from_hand_set else 'today'}'s weights: error {error(x, r, w0, k):.6f}, "
          f"on each fold of games {np.mean([error(x[f], r[f], w0, k) for f in folds]):.6f}")
    held = np.mean([error(x[f], r[f], fit(x[~f], r[~f], k, w0, args.ridge), k) for f in folds])
    w = fit(x, r, k, w0, args.ridge)
    print(f"tuned (ridge {args.ridge:g}): error {error(x, r, w, k):.6f}; on each fold of games "
          f"fitted on the others {held:.6f}")
    for name, old, new in zip(NAMES + tuple(tried), w0, w):
        print(f"  {name:16} {old:8.2f} -> {new:8.2f}")


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
    g.add_argument("--jobs", type=int, default=1, help="games played at once (one a core)")
    g.add_argument("--random-plies", default="",
                   help="LOW-HIGH: start each game that many random plies from the start "
                        "(never a position of the suite) instead of from the suite")
    t = sub.add_parser("tune")
    t.add_argument("positions")
    t.add_argument("--ridge", type=float, default=1e-8,
                   help="the pull toward the starting weights (scaled features)")
    t.add_argument("--folds", type=int, default=2, help="held out by game: each in turn")
    t.add_argument("--from-hand-set", action="store_true",
                   help="start from (and draw toward) the hand-set weights, as the first fit did")
    t.add_argument("--squares", default="",
                   help="ridges (comma-separated) for a correction on every square class, "
                        "fitted with the formula's weights")
    t.add_argument("--try", dest="tried", default="",
                   help="candidate features to add, comma-separated: " + ", ".join(CANDIDATES))
    return ap


def main() -> int:
    args = main_parser().parse_args()
    random.seed(0)
    if args.command == "games":
        make_games(args)
    elif args.squares:
        tune_squares(args)
    else:
        tune(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
