"""Write the cache lists of deal numbers proven winnable (for "winnable deals only").

    python tools/winnable_deals.py --camelot 2000 --hamilton 300 [--max-seconds 10]

Writes data/winnable-camelot-solitaire.txt and data/winnable-hamilton.txt: the
deal numbers among 1…N that the solver proved winnable (deals it could not
decide within the limit are left out), a few per line.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.solver_common import solver_for  # noqa: E402


def write(game_id: str, deals: int, max_seconds: float) -> None:
    solve = solver_for(game_id)
    started = time.perf_counter()
    proven, unknown = [], 0
    for deal in range(1, deals + 1):
        result = solve(deal, max_seconds=max_seconds)
        if result.winnable:
            proven.append(deal)
        unknown += result.answer == "unknown"
    seconds = time.perf_counter() - started
    path = ROOT / "data" / f"winnable-{game_id}.txt"
    path.parent.mkdir(exist_ok=True)
    lines = [f"# {game_id}: deals 1-{deals} proven winnable by the solver "
             f"({len(proven)} of {deals}; {unknown} undecided within {max_seconds} s each)",
             f"# written by: python tools/winnable_deals.py in {seconds:.0f} s"]
    lines += [" ".join(map(str, proven[i:i + 20])) for i in range(0, len(proven), 20)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{path.relative_to(ROOT)}: {len(proven)} deals, {unknown} undecided, {seconds:.0f} s")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="write the winnable-deal cache lists")
    p.add_argument("--camelot", type=int, default=2000)
    p.add_argument("--hamilton", type=int, default=300)
    p.add_argument("--max-seconds", type=float, default=5.0)
    args = p.parse_args(argv)
    if args.camelot:
        write("camelot-solitaire", args.camelot, args.max_seconds)
    if args.hamilton:
        write("hamilton", args.hamilton, args.max_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
