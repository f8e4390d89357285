"""A rating ladder for the board engine: a round robin of fixed anchors, rated
by maximum likelihood with error bars (``bench/rating.py``).

    python bench/ladder.py [--players random,plain2,plain3,plain4,old,easy,medium,hard,expert]
                           [--pairs 1] [--old-commit 130f0c3] [--old-nodes N | --old-seconds 1]
                           [--time-scale 1] [--jobs 2] [--minutes 30] [--cap 300]
                           [--skip PAIRINGS] [--add LOG …]

The players:

- ``random``: a uniformly random legal move (seeded by the game); its rating is 0;
- ``plain2`` … ``plain4``: the plain full-width alpha-beta of
  ``bench/camelot_plain.py`` at that depth (material + advancement, no quiescence);
- ``old``: the engine of ``--old-commit`` (unpacked with ``git archive``) at
  ``--old-seconds`` or ``--old-nodes`` a move, through the ``engine`` protocol;
- ``easy``, ``medium``, ``hard``, ``expert``: the levels of this working tree
  (``game.camelot.ai``), at their own time a move times ``--time-scale``, each
  keeping its search table between its moves as the app's player does.

Every pairing plays ``--pairs`` openings of the suite, each twice with the
colours swapped. No game is begun after ``--minutes``; games still being played
then are finished. A game reaching ``--cap`` plies is a draw. Prints each game,
then the table: rank, player, Elo ± 95 %, games, points, with the time taken
and the load. ``--add`` reads the games of earlier runs from their printed
output and rates them together with this run's (so a long ladder can be played
in bounded pieces); ``--skip a-b,c-d`` leaves those pairings out of this run.
"""
from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import re
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_match import (  # noqa: E402
    EngineProcess, Limit, extract_tree, load_average, load_openings, move_of_key, play_game)
from rating import fit_ratings  # noqa: E402
from camelot_plain import PlainSearch  # noqa: E402
from game.camelot.ai import LEVELS, choose_move  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402

ANCHOR = "random"
ALL_PLAYERS = ("random", "plain2", "plain3", "plain4", "old", "easy", "medium", "hard", "expert")


def board_after(moves: list[str]) -> CamelotBoard:
    game = CamelotBoard()
    for text in moves:
        game.play(text)
    return game


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def best_move(self, moves):
        return str(self.rng.choice(board_after(moves).legal_moves())), {}


class PlainPlayer:
    def __init__(self, depth: int, seed: int) -> None:
        self.search = PlainSearch(depth, seed=seed)

    def best_move(self, moves):
        game = board_after(moves)
        key = self.search.choose(game.position)
        return str(move_of_key(game, key)), {}


class LevelPlayer:
    def __init__(self, level: str, seed: int, scale: float) -> None:
        self.level, self.seed = level, seed
        self.seconds = LEVELS[level].seconds * scale
        self.table: dict = {}

    def best_move(self, moves):
        result = choose_move(board_after(moves), self.level, seed=self.seed + len(moves),
                             time_limit=self.seconds, table=self.table)
        return str(result.move), {"depth": result.depth, "nodes": result.nodes}


def make_player(name: str, seed: int, options: dict):
    """A fresh player (no table kept from another game)."""
    if name == "random":
        return RandomPlayer(seed)
    if name.startswith("plain"):
        return PlainPlayer(int(name[5:]), seed)
    if name == "old":
        return EngineProcess(Path(options["old_tree"]), options["old_limit"])
    return LevelPlayer(name, seed, options["scale"])


def play(task: tuple) -> tuple:
    white_name, black_name, opening, seed, cap, options = task
    players = [make_player(white_name, seed, options), make_player(black_name, seed + 1, options)]
    started = time.monotonic()
    try:
        result = play_game(players[0], players[1], list(opening), cap)
    finally:
        for player in players:
            if hasattr(player, "close"):
                player.close()
    return white_name, black_name, result, time.monotonic() - started


def schedule(players: list[str], pairs: int, openings: list) -> list[tuple]:
    """(white, black, opening) for every game: each pairing's openings twice,
    colours swapped; the pairings interleaved so a short run covers them all."""
    games = []
    combos = list(itertools.combinations(players, 2))
    for round_ in range(pairs):
        for number, (a, b) in enumerate(combos):
            opening = openings[(round_ * len(combos) + number) % len(openings)]
            games.append((a, b, opening))
            games.append((b, a, opening))
    return games


GAME_LINE = re.compile(r"^\s+(\S+) - (\S+)\s+([\d.]+)-([\d.]+)\s+\d+ plies")


def read_log(path: Path) -> list[tuple[str, str, float]]:
    """(white, black, White's points) of every game line in a ladder's output."""
    games = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        found = GAME_LINE.match(line)
        if found:
            games.append((found[1], found[2], float(found[3])))
    return games


def tally(results: dict, white: str, black: str, white_points: float) -> None:
    a, b = sorted((white, black))
    entry = results.setdefault((a, b), [0.0, 0])
    entry[0] += white_points if a == white else 1 - white_points
    entry[1] += 1


def run(args) -> dict:
    players = args.players.split(",")
    openings = load_openings()
    options = {"scale": args.time_scale}
    old_tree = None
    if "old" in players:
        old_tree = extract_tree(args.old_commit)
        options["old_tree"] = str(old_tree)
        options["old_limit"] = (Limit(nodes=args.old_nodes) if args.old_nodes
                                else Limit(seconds=args.old_seconds * args.time_scale))
    skip = {tuple(sorted(p.split("-"))) for p in args.skip.split(",") if p}
    games = [g for g in schedule(players, args.pairs, openings)
             if tuple(sorted(g[:2])) not in skip]
    print(f"ladder: {len(players)} players, {len(games)} games ({args.pairs} opening pairs a "
          f"pairing), {args.jobs} jobs; levels at {args.time_scale:g}x their time"
          + (f"; old = {args.old_commit} at {options['old_limit']}" if old_tree else "")
          + f"; at most {args.minutes:g} minutes; {load_average()}", flush=True)
    results: dict[tuple[str, str], list] = {}
    for log in args.add:
        for white, black, points in read_log(log):
            tally(results, white, black, points)
            for name in (white, black):
                if name not in players:
                    players.append(name)
    started = time.monotonic()
    stop_at = started + args.minutes * 60
    # Spawned, not forked: a fork of a process with threads (a test run, the app) can
    # deadlock on a lock a thread held; no pool at all when every game is skipped.
    pool = multiprocessing.get_context("spawn").Pool(args.jobs) if games else None
    played = 0
    try:
        pending, queue_ = [], list(enumerate(games))
        while queue_ or pending:
            while queue_ and len(pending) < args.jobs and time.monotonic() < stop_at:
                number, (white, black, opening) = queue_.pop(0)
                task = (white, black, tuple(opening), 1000 * number, args.cap, options)
                pending.append(pool.apply_async(play, (task,)))
            if time.monotonic() >= stop_at:
                queue_.clear()
            done = [job for job in pending if job.ready()]
            if not done:
                time.sleep(0.2)
                continue
            for job in done:
                pending.remove(job)
                white, black, result, seconds = job.get()
                played += 1
                tally(results, white, black, result.white_points)
                print(f"  {white:>7} - {black:<7} {result.white_points:g}-"
                      f"{1 - result.white_points:g}  {result.plies:3} plies {seconds:5.0f} s  "
                      f"{result.reason}", flush=True)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if old_tree is not None:
            shutil.rmtree(old_tree, ignore_errors=True)
    seconds = time.monotonic() - started
    table = fit_ratings(players, {k: (v[0], v[1]) for k, v in results.items()}, ANCHOR)
    print()
    print(f"{played} games in {seconds / 60:.1f} minutes; {load_average()}")
    print("| rank | player | Elo | ± 95 % | games | points |")
    print("|---|---|---|---|---|---|")
    for rank, r in enumerate(table, 1):
        error = "anchor" if r.name == ANCHOR else f"{r.error:.0f}"
        print(f"| {rank} | {describe(r.name, args, options)} | {r.elo:+.0f} | {error} | {r.games} | "
              f"{r.points:g} |")
    return {"table": table, "results": results, "games": played, "seconds": seconds}


def describe(name: str, args, options: dict) -> str:
    if name == "random":
        return "random mover"
    if name.startswith("plain"):
        return f"plain depth {name[5:]}"
    if name == "old":
        return f"engine {args.old_commit} ({options.get('old_limit', 'as in the added run')})"
    return f"{name} ({LEVELS[name].seconds * args.time_scale:g} s)"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default=",".join(ALL_PLAYERS))
    ap.add_argument("--pairs", type=int, default=1, help="openings a pairing (each played twice)")
    ap.add_argument("--old-commit", default="130f0c3")
    ap.add_argument("--old-nodes", type=int)
    ap.add_argument("--old-seconds", type=float, default=1.0)
    ap.add_argument("--time-scale", type=float, default=1.0,
                    help="the levels' and the old engine's time a move, times this")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--cap", type=int, default=300)
    ap.add_argument("--skip", default="", help="pairings left out: a-b,c-d")
    ap.add_argument("--add", action="append", default=[], metavar="LOG",
                    help="the printed output of an earlier run: its games are rated too")
    return ap


def main(argv=None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    names = args.players.split(",")
    for name in names:
        if name not in ALL_PLAYERS:
            ap.error(f"unknown player {name!r}; players: {', '.join(ALL_PLAYERS)}")
    if ANCHOR not in names or len(set(names)) != len(names) or len(names) < 2:
        ap.error(f"--players: two or more different players, {ANCHOR} among them (the anchor)")
    for name in ("pairs", "jobs", "minutes", "cap", "time_scale"):
        if not getattr(args, name) > 0:
            ap.error(f"--{name.replace('_', '-')} must be more than 0")
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
