"""The computer opponent for Camelot.

Negamax alpha-beta with iterative deepening, principal-variation search with
late-move reductions, a transposition table on Zobrist keys, move ordering
(table move, captures — most pieces first —, killer and history moves, then
progress toward the enemy castle) and a quiescence search over captures. Capture
is compulsory in Camelot, so a quiescence node that must capture may not "stand
pat"; one where only an optional knight's charge captures may.

The evaluation (100 ≈ a man, from the side to move's view) counts material (a
knight 160), progress toward the enemy castle with extra weight one and two
squares from it (castle threats), a piece inside the enemy castle (+300: half a
castle win), mobility (empty neighbours), and in quiet positions spots the
threat of stepping into the second castle square (a win next move).

``choose_move(board, level)`` reads the board once (a copy of its position) and
keeps no global mutable state, so it can run in a worker thread or process.
Levels: easy (0.15 s, depth ≤ 2, ±60 noise on root scores), medium (0.5 s, depth
≤ 4), hard (1 s, as deep as time allows; it answers within the limit).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .camelot_moves import ADJACENT, CASTLES, ON_BOARD, SHIFTS, SQUARE_COORDS, Move, make_move
from .camelot_position import Position

MATE = 100_000  # a won game; MATE - ply so that quicker wins score higher
WIN_THRESHOLD = MATE - 1000

MAN_VALUE, KNIGHT_VALUE = 100, 160
IN_CASTLE_BONUS = 300  # a piece in the enemy castle is half of a castle win
MOBILITY_WEIGHT = 2
LMR_AFTER = 4  # quiet moves after this many are first searched a ply shallower


@dataclass(frozen=True)
class Level:
    seconds: float
    max_depth: int
    noise: int  # random centipawns added to root scores (weak levels)


LEVELS = {
    "easy": Level(0.15, 2, 60),
    "medium": Level(0.5, 4, 0),
    "hard": Level(1.0, 64, 0),
}


@dataclass(frozen=True)
class SearchResult:
    """What a search found: ``move`` (with its paths; None when there is no legal
    move), its ``score`` for the side to move, the last fully searched ``depth``
    (0: the move was forced), ``nodes`` searched, ``seconds`` taken, nodes/s."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    nps: float


def _progress(sq: int, target_castle: tuple[int, int]) -> int:
    # King-move distance to the nearer square of the castle being attacked.
    f, r = SQUARE_COORDS[sq]
    d = min(max(abs(f - SQUARE_COORDS[c][0]), abs(r - SQUARE_COORDS[c][1])) for c in target_castle)
    return (15 - d) * 4 + (40 if d == 1 else 15 if d == 2 else 0)


def _piece_tables() -> dict[int, tuple[int, ...]]:
    """Static value of each piece on each square, from White's view."""
    tables = {}
    for code in (1, 2, -1, -2):
        side = 0 if code > 0 else 1
        enemy_castle = CASTLES[1 - side]
        base = KNIGHT_VALUE if abs(code) == 2 else MAN_VALUE
        values = []
        for sq in range(160):
            v = base + _progress(sq, enemy_castle) + (IN_CASTLE_BONUS if sq in enemy_castle else 0)
            values.append(v if side == 0 else -v)
        tables[code] = tuple(values)
    return tables


PIECE_TABLES = _piece_tables()


def evaluate(pos: Position) -> int:
    """Static score from the side to move's view: material, progress toward the
    enemy castle, pieces in it, and mobility (empty neighbours)."""
    board = pos.board
    score = 0
    for squares in pos.pieces:
        for sq in squares:
            score += PIECE_TABLES[board[sq]][sq]
    white, black = pos.bits
    empty = ON_BOARD & ~(white | black)
    mobility = 0
    for d in SHIFTS:  # (piece, empty neighbour) pairs, both ways along each line
        mobility += (((white << d) & empty).bit_count() + ((white >> d) & empty).bit_count()
                     - ((black << d) & empty).bit_count() - ((black >> d) & empty).bit_count())
    score += mobility * MOBILITY_WEIGHT
    return score if pos.side == 0 else -score


class _Timeout(Exception):
    pass


class Searcher:
    """One search: owns its position copy, transposition table and counters."""

    def __init__(self, pos: Position, rng: random.Random, deadline: float, stop_event=None):
        self.pos = pos
        self.rng = rng
        self.deadline = deadline
        self.stop_event = stop_event
        self.nodes = 0
        self.tt: dict[int, tuple] = {}
        self.killers: dict[int, list] = {}
        self.history: dict[tuple, int] = {}

    # --- helpers -------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 63 == 0:
            if time.perf_counter() > self.deadline or (
                    self.stop_event is not None and self.stop_event.is_set()):
                raise _Timeout

    def _terminal(self, ply: int) -> int | None:
        """Score if the game is decided here (before move generation), else None."""
        pos = self.pos
        result = pos.outcome_without_moves()
        if result is None:
            if ply and pos.key in pos.history:
                return 0  # a repetition: treat the line as a draw
            return None
        if result[1] is None:
            return 0
        return MATE - ply if result[1] == pos.side else -(MATE - ply)

    def _no_moves_score(self, ply: int) -> int:
        result = self.pos.outcome_no_moves()
        if result[1] is None:
            return 0
        return MATE - ply if result[1] == self.pos.side else -(MATE - ply)

    def _order(self, moves, best, ply):
        killers = self.killers.get(ply, ())
        history = self.history
        board = self.pos.board

        def weight(key):
            frm, to, caps = key
            if key == best:
                return 10_000_000
            if caps:
                return 1_000_000 + sum(100 + 50 * (abs(board[c]) == 2) for c in caps)
            if key in killers:
                return 500_000
            v = board[frm]
            table = PIECE_TABLES[v]
            gain = (table[to] - table[frm]) * (1 if v > 0 else -1)
            return history.get(key, 0) + gain

        return sorted(moves, key=weight, reverse=True)

    # --- search ----------------------------------------------------------------
    def quiesce(self, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        self._tick()
        score = self._terminal(ply)
        if score is not None:
            return score
        pos = self.pos
        if pos.in_own_castle():
            # Rare: the duty to leave the castle decides; look at every move.
            moves = pos.moves()
            if not moves:
                return self._no_moves_score(ply)
            captures = [k for k in moves if k[2]]
            compulsory = len(captures) == len(moves)
        else:
            compulsory = pos.must_capture()
            captures = None
        best = -MATE
        if not compulsory:
            # Capturing is optional (a knight's charge at most): standing pat is
            # allowed, and often enough to stop before listing the charges.
            best = self._stand_pat(ply)
            if best >= beta or qdepth <= 0:
                return best
            alpha = max(alpha, best)
        elif qdepth <= 0:
            return self._stand_pat(ply)
        if captures is None:
            captures = pos.captures(compulsory)
        # When capturing is compulsory there is no standing pat: every capture is searched.
        for key in self._order(captures, None, ply):
            pos.push(*key)
            score = -self.quiesce(-beta, -alpha, ply + 1, qdepth - 1)
            pos.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _stand_pat(self, ply: int) -> int:
        # A quiet position where we already hold one enemy castle square and a
        # piece can step into the other: a win next move.
        pos = self.pos
        sign = 1 if pos.side == 0 else -1
        a, b = CASTLES[1 - pos.side]
        board = pos.board
        for held, free in ((a, b), (b, a)):
            if board[held] * sign > 0 and board[free] == 0 and any(
                    board[n] * sign > 0 for n in ADJACENT[free] if n != held):
                return MATE - ply - 1
        return evaluate(pos)

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, 12)
        self._tick()
        score = self._terminal(ply)
        if score is not None:
            return score
        pos = self.pos
        entry = self.tt.get(pos.key)
        best_key = None
        alpha0 = alpha
        if entry is not None:
            e_depth, e_flag, e_score, best_key = entry
            if e_depth >= depth:
                e_score = _from_tt(e_score, ply)
                if (e_flag == 0 or (e_flag > 0 and e_score >= beta)
                        or (e_flag < 0 and e_score <= alpha)):
                    return e_score
        moves = pos.moves()
        if not moves:
            return self._no_moves_score(ply)
        best = -MATE - 1
        killers = self.killers.get(ply, ())
        for index, key in enumerate(self._order(moves, best_key, ply)):
            pos.push(*key)
            if index == 0:
                score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            else:
                # Principal variation search: prove later moves worse with a null
                # window, late quiet ones a ply shallower; re-search if one is not.
                reduce = 1 if (depth >= 3 and index >= LMR_AFTER and not key[2]
                               and key not in killers) else 0
                score = -self.negamax(depth - 1 - reduce, -alpha - 1, -alpha, ply + 1)
                if score > alpha and (reduce or score < beta):
                    score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            pos.pop()
            if score > best:
                best, best_key = score, key
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not key[2]:
                            killers = self.killers.setdefault(ply, [])
                            if key not in killers:
                                killers.insert(0, key)
                                del killers[2:]
                            self.history[key] = self.history.get(key, 0) + depth * depth
                        break
        flag = 1 if best >= beta else (-1 if best <= alpha0 else 0)
        self.tt[pos.key] = (depth, flag, _to_tt(best, ply), best_key)
        return best

    def root(self, moves, depth: int, noise: dict, result_so_far):
        """One iteration at the root; returns (best key, score) or raises _Timeout
        after updating ``result_so_far`` with a partial result."""
        pos = self.pos
        alpha, beta = -MATE - 1, MATE + 1
        best_key, best = None, -MATE - 1
        for index, key in enumerate(moves):
            pos.push(*key)
            bonus = noise.get(key, 0)
            if index == 0:
                score = -self.negamax(depth - 1, -beta, -alpha, 1) + bonus
            else:
                score = -self.negamax(depth - 1, -(alpha - bonus) - 1, -(alpha - bonus), 1) + bonus
                if score > alpha:
                    score = -self.negamax(depth - 1, -beta, -(alpha - bonus), 1) + bonus
            pos.pop()
            if score > best:
                best, best_key = score, key
                alpha = max(alpha, score)
                result_so_far[:] = [best_key, best]
        return best_key, best


def _to_tt(score: int, ply: int) -> int:
    if score > WIN_THRESHOLD:
        return score + ply
    if score < -WIN_THRESHOLD:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score > WIN_THRESHOLD:
        return score - ply
    if score < -WIN_THRESHOLD:
        return score + ply
    return score


def choose_move(board, level: str = "medium", seed: int | None = None,
                time_limit: float | None = None, stop_event=None,
                max_depth: int | None = None) -> SearchResult:
    """The computer's move for the side to move.

    ``board`` is a CamelotBoard (or a Position); it is not changed. ``level`` is
    easy, medium or hard; ``time_limit`` (seconds) and ``max_depth`` override the
    level's; ``stop_event`` (e.g. a threading.Event) ends the search early.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    lv = LEVELS[level]
    seconds = lv.seconds if time_limit is None else time_limit
    depth_cap = lv.max_depth if max_depth is None else max_depth
    started = time.perf_counter()
    pos = board.copy() if isinstance(board, Position) else board.position
    rng = random.Random(seed)

    if pos.outcome_without_moves() is not None:
        return SearchResult(None, 0, 0, 0, 0.0, 0.0)
    paths = pos.moves(want_paths=True)
    if not paths:
        return SearchResult(None, 0, 0, 0, 0.0, 0.0)

    def finish(key, score, depth, nodes):
        seconds_used = time.perf_counter() - started
        move = make_move(key, paths[key])  # equal to the board's own Move, same paths
        return SearchResult(move, score, depth, nodes, seconds_used,
                            nodes / seconds_used if seconds_used > 0 else 0.0)

    keys = list(paths)
    rng.shuffle(keys)  # seeded tie-breaking: equal moves keep this random order
    if len(keys) == 1:
        return finish(keys[0], 0, 0, 0)
    noise = {k: rng.randint(-lv.noise, lv.noise) for k in keys} if lv.noise else {}

    searcher = Searcher(pos, rng, started + seconds * 0.92, stop_event)
    best_key, best_score, reached = None, 0, 0
    stack_base = pos.ply_depth
    for depth in range(1, depth_cap + 1):
        ordered = searcher._order(keys, best_key, 0)
        partial: list = []
        try:
            best_key, best_score = searcher.root(ordered, depth, noise, partial)
        except _Timeout:
            while pos.ply_depth > stack_base:  # unwind the interrupted line
                pos.pop()
            # The previous best is searched first, so a partial iteration's best
            # has beaten it at the new depth (or is it): trust it.
            if partial:
                best_key, best_score = partial
            break
        reached = depth
        if abs(best_score) > WIN_THRESHOLD:
            break  # a forced result: deeper search changes nothing
    if best_key is None:
        best_key = searcher._order(keys, None, 0)[0]
    return finish(best_key, best_score, reached, searcher.nodes)


__all__ = ["choose_move", "evaluate", "SearchResult", "LEVELS", "Searcher"]
