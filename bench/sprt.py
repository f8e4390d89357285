"""A match between two versions of the board engine, scored as chess engine
testers do (OpenBench, fastchess): game pairs, a pentanomial count, a sequential
probability ratio test and Elo with its 95 % interval.

    python bench/sprt.py --base 130f0c3 [--test WORKTREE|COMMIT] (--nodes N | --depth D | --seconds S)
                         [--elo0 0 --elo1 10 --alpha 0.05 --beta 0.05]
                         [--max-pairs 200] [--minutes 60] [--jobs 2] [--cap 400]
                         [--test-go 'threads 2'] [--base-go 'threads 1']
                         [--from-opening 29 --resume 4,0,18,0,6]

Each pair plays one opening of the suite (``data/camelot-openings.txt``, in
order, round again when used up) twice, the tested version White in one game
and Black in the other. Every game has two fresh engine processes (no table
kept from another game); each version runs from its own folder (a commit is
unpacked with ``git archive``; the tested side is this working tree unless
``--test`` names a commit) and speaks the ``engine`` protocol. Prints a line a
pair, then the pentanomial counts, Elo ± 95 %, the LLR with its bounds and the
verdict (H1: the tested version is at least elo1 better; H0: at most elo0; or
unfinished when a limit ended the run first), the time taken and the load.

``--nodes`` makes a move's length independent of the machine's load: use it
(or ``--depth``) on a shared machine; ``--seconds`` is the real time control.
At a fixed node count or depth the games are deterministic, so a match is
continued, not replayed: ``--from-opening`` starts at the next unplayed opening
and ``--resume`` carries the earlier run's pentanomial counts into the LLR and Elo.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_match import (  # noqa: E402
    ROOT, EngineProcess, Limit, commit_name, extract_tree, load_average, load_openings,
    play_game)
from rating import gsprt_llr, pentanomial_elo, sprt_bounds  # noqa: E402


@dataclass(frozen=True)
class PairResult:
    index: int
    opening: tuple[str, ...]
    test_points: tuple[float, float]   # the tested version's points: as White, as Black
    reasons: tuple[str, str]
    plies: tuple[int, int]

    @property
    def cell(self) -> int:
        """Its pentanomial cell: the tested version's points in the pair, doubled."""
        return round(2 * sum(self.test_points))


def play_pair(task: tuple) -> PairResult:
    index, opening, test_tree, base_tree, limit, cap, test_go, base_go = task
    points, reasons, plies = [], [], []
    for test_white in (True, False):
        engines = [EngineProcess(Path(test_tree), limit, test_go),
                   EngineProcess(Path(base_tree), limit, base_go)]
        try:
            white, black = engines if test_white else engines[::-1]
            result = play_game(white, black, list(opening), cap)
        finally:
            for engine in engines:
                engine.close()
        points.append(result.white_points if test_white else 1 - result.white_points)
        reasons.append(result.reason)
        plies.append(result.plies)
    return PairResult(index, tuple(opening), tuple(points), tuple(reasons), tuple(plies))


@dataclass
class Tally:
    counts: list = field(default_factory=lambda: [0] * 5)   # pentanomial, tested side
    won: int = 0      # games
    drawn: int = 0
    lost: int = 0

    def add(self, pair: PairResult) -> None:
        self.counts[pair.cell] += 1
        for points in pair.test_points:
            if points == 1:
                self.won += 1
            elif points == 0:
                self.lost += 1
            else:
                self.drawn += 1


def verdict(llr: float, bounds: tuple[float, float]) -> str:
    if llr >= bounds[1]:
        return "H1 accepted: the tested version is stronger (at least elo1)"
    if llr <= bounds[0]:
        return "H0 accepted: the tested version is not elo1 stronger (at most elo0)"
    return "unfinished: the LLR is between the bounds"


def run(args) -> dict:
    """The whole match; returns its summary (also printed)."""
    openings = load_openings(Path(args.openings))
    limit = Limit(args.nodes, args.depth, args.seconds)
    bounds = sprt_bounds(args.alpha, args.beta)
    temps = []
    base_tree = extract_tree(args.base)
    temps.append(base_tree)
    if args.test:
        test_tree = extract_tree(args.test)
        temps.append(test_tree)
        test_name = commit_name(args.test)
    else:
        test_tree, test_name = ROOT, "the working tree"
    sides = "".join(f"; {name} go: {words!r}" for name, words in
                    (("tested", args.test_go), ("base", args.base_go)) if words)
    print(f"SPRT: {test_name} against {commit_name(args.base)}, {limit}{sides}, {args.jobs} jobs, "
          f"{len(openings)} openings; elo0 {args.elo0:g}, elo1 {args.elo1:g} (logistic), "
          f"alpha {args.alpha:g}, beta {args.beta:g}: LLR bounds "
          f"({bounds[0]:.3f}, {bounds[1]:.3f}); at most {args.max_pairs} pairs, "
          f"{args.minutes:g} minutes; {load_average()}", flush=True)
    tally = Tally(counts=list(args.resume))
    if any(args.resume):
        print(f"continuing a match whose pairs scored {list(args.resume)} "
              f"(its games are not counted again below, its pairs are)", flush=True)
    started = time.monotonic()
    stop_at = started + args.minutes * 60
    llr = 0.0
    pool = multiprocessing.get_context("spawn").Pool(args.jobs)
    try:
        pending = []
        submitted = 0
        decided = False
        while True:
            while (not decided and len(pending) < args.jobs and submitted < args.max_pairs
                   and time.monotonic() < stop_at):
                opening = openings[(args.from_opening - 1 + submitted) % len(openings)]
                task = (submitted, tuple(opening), str(test_tree), str(base_tree), limit, args.cap,
                        args.test_go, args.base_go)
                pending.append(pool.apply_async(play_pair, (task,)))
                submitted += 1
            if not pending:
                break
            done = [job for job in pending if job.ready()]
            if not done:
                if time.monotonic() > stop_at + args.grace * 60:
                    print("the time is up: the pairs still playing are dropped", flush=True)
                    break
                time.sleep(0.2)
                continue
            for job in done:
                pending.remove(job)
                pair = job.get()
                tally.add(pair)
                llr = gsprt_llr(tally.counts, args.elo0, args.elo1)
                print(f"  pair {pair.index + 1:3} ({' '.join(pair.opening)}): tested "
                      f"{pair.test_points[0]:g} as White ({pair.plies[0]} plies, "
                      f"{pair.reasons[0]}), {pair.test_points[1]:g} as Black "
                      f"({pair.plies[1]} plies, {pair.reasons[1]}); LLR {llr:+.3f}", flush=True)
                if not (bounds[0] < llr < bounds[1]):
                    decided = True
            if decided:
                break   # the pairs still playing are dropped
    finally:
        pool.terminate()
        pool.join()
        for folder in temps:
            shutil.rmtree(folder, ignore_errors=True)
    seconds = time.monotonic() - started
    estimate = pentanomial_elo(tally.counts)
    won, drawn, lost = tally.won, tally.drawn, tally.lost
    summary = {"counts": list(tally.counts), "won": won, "drawn": drawn, "lost": lost,
               "llr": llr, "bounds": bounds, "estimate": estimate,
               "verdict": verdict(llr, bounds), "seconds": seconds}
    print()
    this_run = " in this run" if any(args.resume) else ""
    print(f"games{this_run} {won + drawn + lost}: tested version won {won}, drew {drawn}, "
          f"lost {lost}")
    print(f"pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2 points): {tally.counts}")
    print(f"Elo {estimate}")
    print(f"LLR {llr:+.3f} (bounds {bounds[0]:.3f}, {bounds[1]:.3f}; elo0 {args.elo0:g}, "
          f"elo1 {args.elo1:g}): {summary['verdict']}")
    print(f"{seconds / 60:.1f} minutes, {limit}; {load_average()}", flush=True)
    return summary


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the reference version: a git commit")
    ap.add_argument("--test", help="the tested version: a git commit (default: this working tree)")
    ap.add_argument("--test-go", default="", help="more words for the tested side's go "
                    "(e.g. 'threads 2'): two settings of one version")
    ap.add_argument("--base-go", default="", help="more words for the base side's go")
    ap.add_argument("--nodes", type=int, help="nodes a move")
    ap.add_argument("--depth", type=int, help="plies a move")
    ap.add_argument("--seconds", type=float, help="seconds a move")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--max-pairs", type=int, default=200)
    ap.add_argument("--minutes", type=float, default=60.0, help="no pair is begun after this")
    ap.add_argument("--grace", type=float, default=10.0,
                    help="minutes after --minutes that the last pairs may take")
    ap.add_argument("--jobs", type=int, default=2, help="pairs played at once")
    ap.add_argument("--cap", type=int, default=400, help="plies; a longer game is a draw")
    ap.add_argument("--openings", default=str(ROOT / "data" / "camelot-openings.txt"))
    # A match at a fixed node count or depth plays the same games again from the
    # same openings; one continued in another run starts where the last stopped.
    ap.add_argument("--from-opening", type=int, default=1,
                    help="the suite's opening (from 1) of the first pair")
    ap.add_argument("--resume", type=_counts, default=(0, 0, 0, 0, 0),
                    help="an earlier run's pentanomial counts (five numbers, commas), "
                         "to continue its match: the LLR and Elo count both")
    return ap


def _counts(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(x) for x in text.split(","))
    except ValueError:
        counts = ()
    if len(counts) != 5 or min(counts) < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not five counts like 4,0,18,0,6")
    return counts


def main(argv=None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    if sum(x is not None for x in (args.nodes, args.depth, args.seconds)) == 0:
        ap.error("give a limit a move: --nodes N, --depth D or --seconds S")
    for name in ("nodes", "depth", "seconds", "max_pairs", "jobs", "cap", "from_opening"):
        value = getattr(args, name)
        if value is not None and not value > 0:
            ap.error(f"--{name.replace('_', '-')} must be more than 0")
    if not (0 < args.alpha < 0.5 and 0 < args.beta < 0.5):
        ap.error("--alpha and --beta must be between 0 and 0.5")
    if not args.elo0 < args.elo1 or not all(map(math.isfinite, (args.elo0, args.elo1))):
        ap.error("--elo0 must be below --elo1")
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
