"""The board-game AI's levels against a plain fixed-depth search written apart
from the engine (``bench/camelot_plain.py``: alpha-beta, material +
advancement, no quiescence), both colours, and the engine's depth and speed.

    python bench/camelot_match.py [--levels easy,medium,hard] [--plain 3,4 | --versus medium]
                                  [--games 20] [--jobs 2] [--cap 300] [--records DIR]
    python bench/camelot_match.py --depths [--seconds 1]

With ``--versus`` the opponent is the engine itself at another level (its own
table and seeds), to tell the levels apart where the plain searches cannot.
Each pairing plays ``--games`` games: half the seeded two-ply openings with the
engine as White, the same openings with it as Black. The engine keeps its search
table from one of its moves to the next, as the ``engine`` command does. A game that reaches the
ply cap counts as not won. Prints one table row per pairing (wins, draws,
losses, win rate with its 95 % interval), the engine's mean depth and nodes/s in
those games, and its longest answer as a share of its time limit. ``--depths``
prints the depth reached and nodes/s at hard's time in opening, middlegame and
endgame positions.
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from camelot_plain import PlainSearch  # noqa: E402
from game.base import Status  # noqa: E402
from game.camelot.ai import LEVELS, choose_move, prepare  # noqa: E402
from engine_match import load_average, move_of_key  # noqa: E402
from game.camelot.board import CamelotBoard, position_from_pieces  # noqa: E402
from game.camelot.record import from_game, write  # noqa: E402
from game.cli import wilson_interval  # noqa: E402

OPENING_PLIES = 2


def opening(index: int) -> list[str]:
    """A seeded random opening of OPENING_PLIES plies (index 0: none)."""
    game = CamelotBoard()
    rng = random.Random(index)
    if index == 0:
        return []
    for _ in range(OPENING_PLIES):
        game.play(rng.choice(game.legal_moves()))
    return game.history


def play_game(task: tuple) -> dict:
    level, plain_depth, index, engine_color, cap, records = task
    game = CamelotBoard()
    for text in opening(index):
        game.play(text)
    # The opponent: the plain search (a depth) or the engine at another level (a name).
    plain = PlainSearch(plain_depth, seed=index) if isinstance(plain_depth, int) else None
    table: dict = {}   # the engine keeps its search table between its moves, as `engine` does
    their_table: dict = {}
    limit = LEVELS[level].seconds
    stats = []
    started = time.perf_counter()
    while game.status is Status.PLAYING and len(game.history) < cap:
        if game.turn == engine_color:
            result = choose_move(game, level, seed=index * 1000 + len(game.history),
                                 table=table)
            stats.append((result.depth, result.nps, result.seconds / limit))
            game.play(result.move)
        elif plain is None:
            game.play(choose_move(game, plain_depth, seed=index * 1000 + len(game.history) + 7,
                                  table=their_table).move)
        else:
            key = plain.choose(game.position)
            game.play(move_of_key(game, key))
    if records:
        names = {engine_color: f"Round Table ({level})",
                 ("black" if engine_color == "white" else "white"): opponent_name(plain_depth)}
        tag = f"plain{plain_depth}" if plain else f"vs-{plain_depth}"
        write(from_game(game, Event="bench/camelot_match.py", White=names["white"],
                        Black=names["black"], Round=str(index)),
              Path(records) / f"{level}-{tag}-{index:02}-{engine_color}.txt")
    if game.status is Status.WON:
        outcome = "win" if game.winner == engine_color else "loss"
    elif game.status is Status.DRAW:
        outcome = "draw"
    else:
        outcome = "cap"
    return {"level": level, "plain": plain_depth, "index": index, "color": engine_color,
            "outcome": outcome, "plies": len(game.history), "reason": game.status_reason,
            "stats": stats, "seconds": time.perf_counter() - started}


def opponent_name(opponent) -> str:
    if isinstance(opponent, int):
        return f"plain depth {opponent}"
    return f"Round Table ({opponent})"


def run_match(levels, depths, games: int, jobs: int, cap: int, records: str | None) -> None:
    if records:
        Path(records).mkdir(parents=True, exist_ok=True)
    tasks = [(level, depth, index, color, cap, records)
             for level in levels for depth in depths
             for index in range(1, games // 2 + 1) for color in ("white", "black")]
    results: dict[tuple, list] = {}
    print(f"{len(tasks)} games, {jobs} jobs; each finished game prints a line", flush=True)
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for r in pool.imap_unordered(play_game, tasks):
            results.setdefault((r["level"], r["plain"]), []).append(r)
            print(f"  {r['level']:>6} vs {opponent_name(r['plain'])} opening {r['index']:2} "
                  f"engine {r['color']:5}: {r['outcome']:4} {r['plies']:3} plies "
                  f"{r['seconds']:6.0f} s  {r['reason']}", flush=True)
    print()
    print("| level | opponent | games | won | drawn | lost | not finished | win rate (95 % CI) "
          "| mean depth | nodes/s | longest answer / limit |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for level in levels:
        for depth in depths:
            rows = results.get((level, depth), [])
            if not rows:
                continue
            count = {k: sum(r["outcome"] == k for r in rows) for k in ("win", "draw", "loss", "cap")}
            low, high = wilson_interval(count["win"], len(rows))
            stats = [s for r in rows for s in r["stats"]]
            searched = [s for s in stats if s[0] > 0]
            print(f"| {level} | {opponent_name(depth)} | {len(rows)} | {count['win']} | "
                  f"{count['draw']} | {count['loss']} | {count['cap']} | "
                  f"{100 * count['win'] / len(rows):.0f} % ({100 * low:.0f}–{100 * high:.0f} %) | "
                  f"{statistics.mean(s[0] for s in searched) if searched else 0:.1f} | "
                  f"{statistics.mean(s[1] for s in searched) if searched else 0:,.0f} | "
                  f"{max((s[2] for s in stats), default=0):.2f} |", flush=True)


ENDGAMES = [
    {"E8": "M", "F8": "M", "G7": "N", "H6": "M", "C5": "N", "E11": "m", "F12": "m", "H11": "n",
     "I10": "m", "D12": "n"},
    {"F13": "M", "D10": "N", "J9": "M", "C4": "M", "F4": "m", "H5": "n", "G9": "m", "K12": "m"},
    {"E14": "M", "H12": "N", "I13": "M", "E3": "m", "G4": "m", "H3": "n", "B8": "M", "K9": "m"},
]
MIDDLEGAMES = [
    "2/8/10/12/12/2nmmmm1mn2/3nmmmmn3/12/6MN2N1/3NMMMMN3/3MMM1MM3/12/12/10/8/2 b 2 2",
    "2/8/10/12/12/5mmmm1n1/3nmmm1nm2/2m1nm6/6MN1M2/3NM1MMNM2/2NMMMM5/12/12/10/8/2 w 2 2",
]


def sample_positions() -> dict[str, list[str]]:
    """Opening, middlegame and endgame positions (seeded, from plain-vs-plain play)."""
    openings, middle = [CamelotBoard().position_text()], list(MIDDLEGAMES)
    for seed in (1, 2):
        game = CamelotBoard()
        rng = random.Random(seed)
        plain = PlainSearch(2, seed=seed)
        for ply in range(24):
            if game.status is not Status.PLAYING:
                break
            if ply == 4:
                openings.append(game.position_text())
            moves = game.legal_moves()
            if ply % 3 == 0:
                move = rng.choice(moves)
            else:
                key = plain.choose(game.position)
                move = move_of_key(game, key)
            game.play(move)
        if game.status is Status.PLAYING:
            middle.append(game.position_text())
    ends = [position_from_pieces(p, turn) for p in ENDGAMES for turn in ("white",)]
    return {"opening": openings, "middlegame": middle, "endgame": ends}


def depth_report(seconds: float, level: str = "hard", threads: int | None = None) -> None:
    print(f"| phase | positions | depth reached at {seconds:g} s (min–max, mean) | nodes/s (mean) "
          f"| longest answer |")
    print("|---|---|---|---|---|")
    prepare()   # the tablebase opened before the clock runs, as the engine's handshake does
    for phase, positions in sample_positions().items():
        results = [choose_move(CamelotBoard(p), level, seed=1, time_limit=seconds,
                               book=False,   # the search's depth, not the book's answer
                               threads=threads)
                   for p in positions]
        depths = [r.depth for r in results]
        print(f"| {phase} | {len(results)} | {min(depths)}–{max(depths)}, "
              f"{statistics.mean(depths):.1f} | {statistics.mean(r.nps for r in results):,.0f} | "
              f"{max(r.seconds for r in results):.2f} s |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default="easy,medium,hard,expert")
    ap.add_argument("--plain", default="3,4", help="plain search depths")
    ap.add_argument("--versus", help="the engine at these levels instead of the plain search")
    ap.add_argument("--games", type=int, default=20, help="games per pairing (even)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cap", type=int, default=300, help="ply cap per game")
    ap.add_argument("--records", help="write each game's record into this folder")
    ap.add_argument("--depths", action="store_true", help="only the depth/speed report")
    ap.add_argument("--seconds", type=float, default=1.0, help="time for --depths")
    ap.add_argument("--threads", type=int,
                    help="searches at once for --depths (default: the level's, one a core)")
    args = ap.parse_args()
    if args.depths:
        print(f"{load_average()}; threads {args.threads or 'the level default'}", flush=True)
        depth_report(args.seconds, threads=args.threads)
        print(load_average(), flush=True)
        return
    levels = args.levels.split(",")
    for level in levels:
        if level not in LEVELS:
            ap.error(f"unknown level {level}")
    opponents = [int(d) for d in args.plain.split(",")]
    if args.versus:
        opponents = args.versus.split(",")
        for name in opponents:
            if name not in LEVELS:
                ap.error(f"unknown level {name}")
    run_match(levels, opponents, max(2, args.games), args.jobs, args.cap, args.records)


if __name__ == "__main__":
    main()
