"""A plain Camelot opponent, written apart from the engine's search: fixed-depth
negamax alpha-beta over the rules' legal moves, material + advancement, captures
tried first, nothing else (no quiescence, no table, no pruning, no extensions).

It is the yardstick of ``bench/camelot_match.py`` and, being exact within its
depth about forced results, the referee that checks the answers of the tactical
test positions (``tests/game/test_camelot_tactics.py``).
"""
from __future__ import annotations

import random

from game.camelot.geometry import bit_squares
from game.camelot.moves import SQUARE_COORDS
from game.camelot.position import Position

WIN = 1_000_000
MAN, KNIGHT = 100, 150
ADVANCE = 3          # per rank advanced toward the enemy side


VALUE = {code: tuple((KNIGHT if abs(code) == 2 else MAN)
                     + ADVANCE * (r - 1 if code > 0 else 16 - r) for _, r in SQUARE_COORDS)
         for code in (1, 2, -1, -2)}


def material_and_advancement(pos: Position) -> int:
    """White's view: pieces (man 100, knight 150) plus 3 per rank advanced."""
    board = pos.board
    white = sum(VALUE[board[sq]][sq] for sq in bit_squares(pos.bits[0]))
    return white - sum(VALUE[board[sq]][sq] for sq in bit_squares(pos.bits[1]))


class PlainSearch:
    def __init__(self, depth: int, seed: int | None = None) -> None:
        self.depth = depth
        self.rng = random.Random(seed)
        self.nodes = 0
        self.killers: dict[int, tuple] = {}

    def _result_score(self, pos: Position, ply: int, result) -> int:
        if result[1] is None:
            return 0
        return WIN - ply if result[1] == pos.side else -(WIN - ply)

    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        result = pos.outcome_without_moves()
        if result is not None:
            return self._result_score(pos, ply, result)
        if depth == 0:  # a leaf: no move generation (a side without moves is rare)
            score = material_and_advancement(pos)
            return score if pos.side == 0 else -score
        moves = pos.moves()
        if not moves:
            return self._result_score(pos, ply, pos.outcome_no_moves())
        best = -WIN - 1
        killer = self.killers.get(ply)
        # Ordering changes only the speed of alpha-beta, never the value found.
        for key in sorted(moves, key=lambda k: -len(k[2]) - (k == killer)):
            pos.push(*key)
            score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            pos.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.killers[ply] = key
                        break
        return best

    def scores(self, pos: Position, window: int = WIN + 1) -> dict:
        """Every root move's exact score (full window each)."""
        pos = pos.copy()
        out = {}
        for key in pos.moves():
            pos.push(*key)
            out[key] = -self.negamax(pos, self.depth - 1, -window, window, 1)
            pos.pop()
        return out

    def choose(self, pos: Position):
        """The best move key (ties broken by the seeded generator)."""
        pos = pos.copy()
        keys = list(pos.moves())
        self.rng.shuffle(keys)
        keys.sort(key=lambda k: -len(k[2]))
        best, alpha = None, -WIN - 1
        for key in keys:
            pos.push(*key)
            score = -self.negamax(pos, self.depth - 1, -WIN - 1, -alpha, 1)
            pos.pop()
            if best is None or score > alpha:
                best, alpha = key, score
        return best
