"""Camelot engine node cost: perft leaf nodes/s and the search's nodes/s at a
fixed depth on the positions of ``camelot_match.py --depths`` (the middlegame
ones unless ``--phases`` says more).

    python bench/camelot_nodes.py [--perft 3] [--depth 4] [--repeat 3] [--baseline DIR]
                                  [--phases opening,middlegame,endgame]

A fixed depth (not a time limit) makes the node counts reproducible, so two
versions of the engine can be compared on the same work. ``--baseline DIR``
loads the ``game`` package of another checkout (say ``git archive main`` unpacked
in a temporary folder) next to this one and runs the two alternately, timing
CPU seconds (the cycle collector paused, as in the engine's levels), and
prints the ratio: on a shared machine that is the figure to trust, not either
one's nodes/s. It also says on how many positions the two searches found the
same move, score, line and node count: a change meant as a pure speed-up must
find all of them identical.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from camelot_match import sample_positions  # noqa: E402


def engine(package: str) -> dict:
    """The board, position and search modules of an imported ``game`` package."""
    return {name: importlib.import_module(f"{package}.camelot.{name}")
            for name in ("board", "position", "search")}


def load_baseline(tree: str) -> dict:
    """Another checkout's ``game`` package, imported as ``baseline_game``."""
    init = Path(tree).resolve() / "game" / "__init__.py"
    if not (init.parent / "camelot" / "search.py").is_file():
        raise SystemExit(f"no game/camelot package in {tree} (an older layout is not read)")
    spec = importlib.util.spec_from_file_location(
        "baseline_game", init, submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_game"] = module
    spec.loader.exec_module(module)
    loaded = engine("baseline_game")
    for mod in loaded.values():  # an absolute "game." import would mix the two trees
        if not Path(mod.__file__).resolve().is_relative_to(init.parent):
            raise SystemExit(f"{mod.__name__} was loaded from {mod.__file__}, not from {tree}")
    return loaded


def time_perft(eng: dict, depth: int) -> tuple[int, float]:
    board = eng["board"]
    pos = eng["position"].Position.from_text(board.START_POSITION)
    started = time.process_time()
    count = board.perft(pos, depth)
    return count, time.process_time() - started


def time_search(eng: dict, texts: list[str], depth: int) -> tuple[int, float, list]:
    """Nodes and CPU seconds to ``depth`` on each position, the cycle collector
    paused as the engine's levels pause it (a collection would bill one tree
    for the garbage of the other)."""
    nodes, seconds, found = 0, 0.0, []
    for text in texts:
        pos = eng["position"].Position.from_text(text)
        keys = sorted(pos.moves(), key=lambda k: (-len(k[2]), k[0], k[1], sorted(k[2])))
        search = eng["search"].Search(pos)
        gc.collect()
        gc.disable()
        started = time.process_time()
        try:
            done = search.run(keys, depth)
        finally:
            seconds += time.process_time() - started
            gc.enable()
        nodes += search.nodes
        found.append((done.best, done.score, done.pv, search.nodes))
    return nodes, seconds, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perft", type=int, default=3, help="perft depth (0: skip)")
    parser.add_argument("--depth", type=int, default=4, help="search depth (0: skip)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--phases", default="middlegame",
                        help="which of the --depths positions: opening,middlegame,endgame")
    parser.add_argument("--baseline", help="another checkout to compare with")
    args = parser.parse_args()
    phases = sample_positions()
    positions = [p for phase in args.phases.split(",") for p in phases[phase]]
    engines = {"this tree": engine("game")}
    if args.baseline:
        engines["baseline"] = load_baseline(args.baseline)
    totals: dict = {}
    results: dict = {}
    rounds: dict = {}   # tree -> its search seconds, round by round
    for round_ in range(args.repeat):
        # Each tree goes first in every other round (the first run of a round
        # meets a different cache and heap).
        for name, eng in (list(engines.items())[::-1] if round_ % 2 else engines.items()):
            if args.perft:
                count, seconds = time_perft(eng, args.perft)
                totals[name, "perft"] = totals.get((name, "perft"), 0) + seconds
                print(f"{name:>9}: perft({args.perft}) = {count:,} in {seconds:.2f} s: "
                      f"{count / seconds:,.0f} leaf nodes/s", flush=True)
            if args.depth:
                nodes, seconds, results[name] = time_search(eng, positions, args.depth)
                totals[name, "search"] = totals.get((name, "search"), 0) + seconds
                rounds.setdefault(name, []).append(seconds)
                print(f"{name:>9}: search depth {args.depth} on {len(positions)} positions "
                      f"({args.phases}): {nodes:,} nodes in {seconds:.2f} s: "
                      f"{nodes / seconds:,.0f} nodes/s", flush=True)
    if args.baseline and args.depth:
        # A pure speed-up must not change what the search finds.
        same = [a == b for a, b in zip(results["this tree"], results["baseline"])]
        print(f"search results (move, score, line, nodes) identical to the baseline's on "
              f"{sum(same)} of {len(same)} positions"
              + ("" if all(same) else f": differ at {[i for i, s in enumerate(same) if not s]}"))
    if args.baseline:
        for what in ("perft", "search"):
            if ("baseline", what) in totals:
                ratio = totals["baseline", what] / totals["this tree", what]
                print(f"{what}: this tree is {ratio:.2f} × as fast as the baseline "
                      f"(CPU seconds over {args.repeat} runs)")
        if args.depth and args.repeat > 1:
            # Round by round (each pair ran back to back): their spread is the noise.
            ratios = sorted(b / t for b, t in zip(rounds["baseline"], rounds["this tree"]))
            print("search, round by round: " + ", ".join(f"{r:.2f}" for r in ratios)
                  + f" (median {statistics.median(ratios):.2f})")


if __name__ == "__main__":
    main()
