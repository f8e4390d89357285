"""The patience computer players over many deals, with why each game ended.

    python bench/sim_patience.py [camelot-solitaire|hamilton …] [--deals N] [--first S]

``python -m game simulate`` gives the win rate; this adds the end reasons and the
slowest deal, which is what one looks at when tuning a player.
"""
from __future__ import annotations

import argparse
import collections
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from game import game_class  # noqa: E402
from game.base import Status  # noqa: E402

MOVE_CAP = 2000


def run(game_id: str, deals: int, first: int) -> None:
    cls = game_class(game_id)
    reasons: collections.Counter[str] = collections.Counter()
    wins = total = 0
    slowest = (0.0, None)
    started = time.perf_counter()
    for deal in range(first, first + deals):
        t0 = time.perf_counter()
        game, rng = cls(seed=deal), random.Random(deal)
        for _ in range(MOVE_CAP):
            if game.status is not Status.PLAYING:
                break
            move = game.computer_move(rng)
            if move is None:
                break
            game.play(move)
        assert game.card_count() == 52
        wins += game.status is Status.WON
        total += game.score
        # group "no free corner for the king of spades" etc. by their kind
        reason = game.status_reason.split(" for the ")[0] or "computer gave up, still playing"
        reasons[f"{game.status.value}: {reason}"] += 1
        slowest = max(slowest, (time.perf_counter() - t0, deal))
    seconds = time.perf_counter() - started
    print(f"{game_id}: {deals} deals from {first}: won {wins} ({100 * wins / deals:.1f} %), "
          f"mean score {total / deals:.2f}, {seconds:.1f} s "
          f"(slowest deal {slowest[1]}: {slowest[0]:.2f} s)")
    for reason, count in reasons.most_common():
        print(f"  {count:5d}  {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["camelot-solitaire", "hamilton"])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=1)
    args = parser.parse_args()
    for game_id in args.games:
        run(game_id, args.deals, args.first)


if __name__ == "__main__":
    main()
