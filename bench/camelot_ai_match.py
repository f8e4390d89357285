"""Camelot AI strength and speed: the hard AI against a random mover and against a
one-ply greedy capturer, alternating colours, seeded.

    python bench/camelot_ai_match.py [--games 10] [--seconds 0.5] [--cap 300]

A game that reaches the ply cap counts as not-a-win. Prints e.g.
"hard vs random: 10/10 wins", then the AI's depth and nodes/s at 1 s per move.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.base import Status  # noqa: E402
from game.camelot.ai import choose_move  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402


def random_player(game: CamelotBoard, rng: random.Random):
    return rng.choice(game.legal_moves())


def greedy_player(game: CamelotBoard, rng: random.Random):
    """Captures as many pieces as it can (knights first); otherwise a random move."""
    moves = game.legal_moves()
    rng.shuffle(moves)

    def gain(move):
        return sum(1.6 if game.piece_at(sq).kind == "knight" else 1.0 for sq in move.captured)

    return max(moves, key=gain)


def play_match(opponent, name: str, games: int, seconds: float, cap: int, stats: list) -> int:
    wins = 0
    for n in range(games):
        ai_color = "white" if n % 2 == 0 else "black"
        rng = random.Random(1000 + n)
        game = CamelotBoard()
        started = time.perf_counter()
        while game.status is Status.PLAYING and len(game.history) < cap:
            if game.turn == ai_color:
                result = choose_move(game, "hard", seed=n * 1000 + len(game.history),
                                     time_limit=seconds)
                stats.append(result)
                game.play(result.move)
            else:
                game.play(opponent(game, rng))
        won = game.status is Status.WON and game.winner == ai_color
        wins += won
        outcome = game.status_reason or f"stopped at the {cap}-ply cap"
        print(f"  game {n + 1:2} AI {ai_color:5}: {'win ' if won else 'NO  '} "
              f"{len(game.history):3} plies, {time.perf_counter() - started:5.1f} s — {outcome}",
              flush=True)
    print(f"hard vs {name}: {wins}/{games} wins", flush=True)
    return wins


def speed_at(seconds: float) -> None:
    """Depth and nodes/s of the hard level from a few positions of a seeded game."""
    game = CamelotBoard()
    rng = random.Random(7)
    samples = []
    for ply in range(40):
        if game.status is not Status.PLAYING:
            break
        if ply % 8 == 0:
            samples.append(choose_move(game, "hard", seed=ply, time_limit=seconds))
        game.play(rng.choice(game.legal_moves()))
    depths = [r.depth for r in samples]
    print(f"hard at {seconds:g} s/move: depth {min(depths)}-{max(depths)} "
          f"(mean {statistics.mean(depths):.1f}), "
          f"{statistics.mean(r.nps for r in samples):,.0f} nodes/s, "
          f"longest answer {max(r.seconds for r in samples):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=0.5, help="AI time per move")
    parser.add_argument("--cap", type=int, default=300, help="plies before a game is stopped")
    args = parser.parse_args()
    print(f"hard AI at {args.seconds:g} s per move, {args.games} games each, "
          f"cap {args.cap} plies", flush=True)
    for opponent, name in ((random_player, "random"), (greedy_player, "greedy")):
        stats: list = []
        play_match(opponent, name, args.games, args.seconds, args.cap, stats)
        searched = [r for r in stats if r.nodes]
        if searched:
            print(f"  AI depth mean {statistics.mean(r.depth for r in searched):.1f}, "
                  f"max {max(r.depth for r in searched)}; "
                  f"{statistics.mean(r.nps for r in searched):,.0f} nodes/s", flush=True)
    speed_at(1.0)


if __name__ == "__main__":
    main()
