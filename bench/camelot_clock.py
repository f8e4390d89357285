"""Two engine versions at the same clock on the same positions, through the
``engine`` protocol as a match plays them: how deep each gets, at what speed,
and how much of its time it uses.

    python bench/camelot_clock.py [--base 130f0c3] [--test COMMIT] [--seconds 1 | --depth D]
                                  [--openings 4] [--rounds 1]

The positions: the ten of ``camelot_match.py --depths`` (opening, middlegame,
endgame) and the first ``--openings`` of the suite (``data/camelot-openings.txt``).
Each version runs in one engine process (started, handshake done, before any
clock runs), asked ``go movetime MS`` position by position, the two versions
alternating (the one asked first alternating too), so both see the same load.
Per position and version it prints the depth of the last completed iteration,
its nodes, nodes a second of the engine's own thinking (the process's CPU time,
so a busy machine lowers the wall-clock figure, not this one), and the wall time
from ``go`` to ``bestmove`` as a share of the time given: a version that answers
at 40 % of its second left 60 % unused. With ``--depth`` both search to that
depth instead (``go depth D``: no book, no clock): the same search finds the same
move with the same node count, and the CPU seconds compare the nodes' cost.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from camelot_match import sample_positions  # noqa: E402
from engine_match import (EngineProcess, Limit, commit_name, extract_tree,  # noqa: E402
                          load_average, load_openings)

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def positions(openings: int) -> list[tuple[str, str]]:
    """(phase, protocol position line) for every position measured."""
    out = [(phase, f"position fen {text}")
           for phase, texts in sample_positions().items() for text in texts]
    for moves in load_openings()[:openings]:
        out.append(("suite", "position start moves " + " ".join(moves)))
    return out


def measure(engine: EngineProcess, line: str) -> dict:
    cpu = cpu_seconds(engine.proc.pid)
    started = time.perf_counter()
    move, info = engine.answer(line)
    wall = time.perf_counter() - started
    cpu = cpu_seconds(engine.proc.pid) - cpu
    return {"move": move, "depth": info.get("depth", 0), "nodes": info.get("nodes", 0),
            "wall": wall, "cpu": cpu, "searched": info.get("time", 0) / 1000}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="130f0c3", help="a git commit")
    ap.add_argument("--test", help="a git commit (default: this working tree)")
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--depth", type=int, help="a fixed depth instead of the clock")
    ap.add_argument("--openings", type=int, default=4, help="positions of the suite too")
    ap.add_argument("--rounds", type=int, default=1, help="times each position is asked")
    ap.add_argument("--go", default="", help="more words for both sides' go")
    args = ap.parse_args(argv)

    limit = Limit(depth=args.depth) if args.depth else Limit(seconds=args.seconds)
    given = 1.0 if args.depth else args.seconds   # the shares below: of a second
    names = [commit_name(args.base), commit_name(args.test) if args.test else "this tree"]
    trees = [extract_tree(args.base), extract_tree(args.test) if args.test else ROOT]
    engines = [EngineProcess(tree, limit, args.go) for tree in trees]
    print(f"# {names[0]} against {names[1]} at {limit}; {load_average()}")
    print("| position | version | depth | nodes | nodes/s (CPU) | wall / limit | CPU / wall | move |")
    print("|---|---|---|---|---|---|---|---|")
    rows: dict[tuple[str, int], list[dict]] = {}
    try:
        for round_ in range(args.rounds):
            for number, (phase, line) in enumerate(positions(args.openings)):
                order = (0, 1) if (number + round_) % 2 == 0 else (1, 0)
                for side in order:
                    row = measure(engines[side], line)
                    rows.setdefault((phase, side), []).append(row)
                    nps = row["nodes"] / row["cpu"] if row["cpu"] > 0 else 0.0
                    print(f"| {phase} {number + 1} | {names[side]} | {row['depth']} | "
                          f"{row['nodes']:,} | {nps:,.0f} | {row['wall'] / given:.0%} | "
                          f"{row['cpu'] / row['wall']:.0%} | {row['move']} |", flush=True)
    finally:
        for engine in engines:
            engine.close()
    print(f"\n# means; {load_average()}")
    print("| phase | version | depth | nodes | nodes/s (CPU) | wall / limit (min–max) |")
    print("|---|---|---|---|---|---|")
    for (phase, side), found in rows.items():
        walls = [r["wall"] / given for r in found]
        nodes = sum(r["nodes"] for r in found)
        cpu = sum(r["cpu"] for r in found)
        print(f"| {phase} | {names[side]} | {statistics.mean(r['depth'] for r in found):.1f} | "
              f"{statistics.mean(r['nodes'] for r in found):,.0f} | "
              f"{nodes / cpu if cpu else 0:,.0f} | {statistics.mean(walls):.0%} "
              f"({min(walls):.0%}–{max(walls):.0%}) |")
    if args.depth:
        same = sum(a["move"] == b["move"] and a["nodes"] == b["nodes"]
                   for phase in {p for p, _ in rows}
                   for a, b in zip(rows[(phase, 0)], rows[(phase, 1)]))
        cpu = [sum(r["cpu"] for (_, side), found in rows.items() if side == s for r in found)
               for s in (0, 1)]
        print(f"\nsame move and node count: {same} of {sum(len(f) for f in rows.values()) // 2}; "
              f"CPU seconds {names[0]} {cpu[0]:.2f}, {names[1]} {cpu[1]:.2f} "
              f"({cpu[0] / cpu[1]:.2f} x as fast)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
