"""The board-game engine's search: negamax alpha-beta, iterative deepening.

What makes a node cheap (Python counts every call):

- the piece-square part of the evaluation is updated move by move
  (:func:`~game.camelot.eval.pst_delta`), the castle race is a few bitboard
  operations, and the quiescence search asks ``must_capture`` (bitboards) before
  it lists anything: a quiet leaf generates no move at all;
- the transposition-table move is tried before the moves are generated and,
  where nothing is forced, the knights' charges and the killers too (each
  listed on its own); the rest are ordered: captures (by the piece-square
  values they take), killers, history, gain — the stages keep that order, so
  they only save listing; the table serves quiescence too (capture sequences
  transpose) and may be kept between a game's moves (``table``);
- principal variation search (null windows after the first move), at the root
  too, and aspiration windows from depth 4 that widen step by step; a reduced
  move that beats the window is searched again at full depth with the null
  window before the full one (a PV search only for a move that really rises);
- null-move pruning (from depth 2) and reverse futility where nothing is
  forced, futility and late-move pruning near the frontier, logarithmic
  late-move reductions for quiet moves (at the root too, one ply less in PV
  nodes), delta pruning of the optional charges at a quiescence leaf.

Time: the search stops at its deadline (checked every 32 nodes), once the
first ply is searched whole (which may take the move's time again, a second at
least, no more), and does not begin an iteration whose first half (its expected
time: the last one's times the measured growth) would end past the budget; an
iteration cut short still gives its best move when that move's score came from
inside the window. ``depth`` is always the last completed iteration.

What makes it see Camelot's tactics:

- capturing is compulsory, so a quiescence node that must capture may not stand
  pat: every capture sequence is played out;
- **forcing moves are extended** a ply: a move after which the opponent must
  capture (a sacrifice that sets up a multiple jump, or an optional knight's
  charge met by a recapture), and the only legal move;
- the evaluation knows the castle race (:mod:`game.camelot.eval`).

:class:`Search` owns its position copy, table and counters, and keeps no global
state, so it runs in a worker thread or process. Scores are from the side to
move's view; ``MATE - ply`` is a win.
"""
from __future__ import annotations

import math
import time
from operator import itemgetter
from dataclasses import dataclass

from .eval import PST, castle_step_threat, evaluate_from, pst_total
from .moves import BIT, CASTLES, jump_squares
from .movekeys import CASTLE_BITS, move_keys, step_targets
from .position import DRAW_PLIES, REPETITIONS, ZOBRIST_BLACK, Position

MATE = 100_000
CONTEMPT = 25          # what a draw costs the side the search plays for
WIN_THRESHOLD = MATE - 1000
INFINITE = MATE + 1
Q_DEPTH = 10           # compulsory captures played out in quiescence, at most
NULL_MIN_DEPTH = 2
FUTILITY_MARGIN = 110  # a quiet move at the frontier must be able to gain this much
DELTA_MARGIN = 120     # a charge at a quiescence leaf must be able to reach alpha by this
REVERSE_MARGIN = 130   # per ply of depth
LMR_AFTER = 3          # moves searched in full before late quiet moves are reduced
# Plies cut from the i-th move at depth d (quiet, not a killer, nothing forced):
# grows with both, the usual logarithmic shape; PV nodes reduce one ply less.
# Was 0.75 + ln d ln i / 2.25 (see the README's gated changes for the match).
REDUCTION = tuple(tuple(0 if i < LMR_AFTER or d < 2 else
                        int(1.0 + math.log(d) * math.log(i) / 1.5)
                        for i in range(64)) for d in range(64))
LATE_MOVES = (0, 4, 8, 14)  # quiet moves searched at depth 1-3 (non-PV, nothing forced)
ASPIRATION = 60        # half-width of the first window around the last iteration's score
ASPIRE_FROM = 4        # depth from which iterations start with that window
GROWTH_MIN, GROWTH_MAX = 1.2, 3.0   # next iteration's time / the last one's, assumed
# An iteration is begun when its first part is expected to end within the
# budget: the last best move is searched first and a cut-short iteration's best
# is used, so a move given a fixed time gains by searching to its deadline. Was
# 1.0 (the whole iteration expected to fit): a 1 s move then ended at 0.3-0.6 s.
NEXT_SHARE = 0.5
ROOT_SALT = 0x5BD1E995C3A4F00D   # table keys of a search played for Black (see Search)
# Quiet moves are staged after the killers (Search.negamax) while no history
# weight could lift one to a killer's place in the order (500,000).
HISTORY_CEILING = 400_000
# Quiet moves searched before a cut-off lose what the cut-off move gains. Off:
# its matches at 3,000 nodes a move were +38 ± 53 Elo over the first suite's 64
# openings, then +6 ± 30 over 199 of the 200 (LLR -1.15 of ±2.94): no gain shown
# (README). Nodes to depth 6 on the --depths positions: 458,659 without, 317,728 with.
HISTORY_MALUS = False
TT_LIMIT = 1_500_000   # entries; the table is cleared beyond this
FIRST_PLY_GRACE = 1.0  # seconds, at least, the first ply may run past the deadline (Search.run)
CHECK_EVERY = 31       # nodes between looks at the clock (a millisecond or two)
_WHITE_CASTLE, _BLACK_CASTLE = CASTLE_BITS


class SearchTimeout(Exception):
    """The deadline passed or the search was told to stop."""


@dataclass(frozen=True)
class Iteration:
    """One finished depth: the best move key, its score, nodes so far, the PV keys."""

    depth: int
    score: int
    nodes: int
    seconds: float
    best: tuple
    pv: tuple


class Search:
    """One search from one position (copied): ``run`` iterates deeper and deeper."""

    def __init__(self, pos: Position, deadline: float | None = None, stop_event=None,
                 table: dict | None = None, node_limit: int | None = None,
                 tablebase=None) -> None:
        self.pos = pos.copy()
        self.deadline = deadline
        self.stop_event = stop_event
        # A node budget (``go nodes N``): a search whose length does not depend on
        # the machine's load, for matches on a shared machine.
        self.node_limit = node_limit
        # The three-piece tablebase (game.camelot.tablebase), probed where at
        # most three pieces are left; None: not used.
        self.tablebase = tablebase
        self.tb_hits = 0
        self.nodes = 0
        # A table kept from an earlier search (the same game, a move or two before)
        # starts this one with its results; None: a fresh one.
        self.tt: dict[int, tuple] = {} if table is None else table
        # A draw's score depends on the side the search plays for (CONTEMPT):
        # a kept table holds each side's entries under keys of their own, so a
        # search for the other side (a hint, the engine thinking for both)
        # never reads a draw scored the other way round.
        self.salt = ROOT_SALT if pos.side else 0
        self.killers: list[list] = [[] for _ in range(128)]
        self.history: dict[tuple, int] = {}
        self.history_log: list[tuple] = []   # (key, gain): what each cut-off added
        self.history_peak = 0
        self.pst = pst_total(self.pos.board)
        self.root_side = self.pos.side
        self.max_ply = 0
        self.started = time.perf_counter()

    # --- bookkeeping --------------------------------------------------------------
    def _check(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchTimeout
        if self.stop_event is not None and self.stop_event.is_set():
            raise SearchTimeout
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise SearchTimeout

    def _push(self, key) -> int:
        pos = self.pos
        board = pos.board
        frm, to, caps = key
        table = PST[board[frm]]
        delta = table[to] - table[frm]
        for sq in caps:
            delta -= PST[board[sq]][sq]
        self.pst += delta
        pos.push(frm, to, caps)
        return delta

    def _pop(self, delta: int) -> None:
        self.pos.pop()
        self.pst -= delta

    def evaluate(self) -> int:
        """Static score, side to move's view."""
        pos = self.pos
        return evaluate_from(self.pst, pos.bits, pos.side)

    def _terminal(self, ply: int) -> int | None:
        pos = self.pos
        white, black = pos.bits
        if (white & _BLACK_CASTLE != _BLACK_CASTLE and black & _WHITE_CASTLE != _WHITE_CASTLE
                and white & (white - 1) and black & (black - 1)   # two pieces or more each
                and pos.clock < DRAW_PLIES):
            # The common case, without outcome_without_moves' tuples: no castle
            # taken, no side down to one piece, no 50-move draw; a position seen
            # before in the line is a draw (as a third one would be at the root).
            if pos.key in pos.history and (ply or pos.history.count(pos.key) >= REPETITIONS - 1):
                return self._draw()
            if self.tablebase is not None and (white | black).bit_count() <= 3:
                return self._probe(ply)
            return None
        result = pos.outcome_without_moves()
        if result is None:
            if ply and pos.key in pos.history:
                return self._draw()  # a repetition: the line is a draw
            if self.tablebase is not None and (white | black).bit_count() <= 3:
                return self._probe(ply)
            return None
        if result[1] is None:
            return self._draw()
        return MATE - ply if result[1] == pos.side else -(MATE - ply)

    def _probe(self, ply: int) -> int | None:
        """The tablebase's exact score of a three-piece position (None: not there)."""
        hit = self.tablebase.probe(self.pos)
        if hit is None:
            return None
        self.tb_hits += 1
        if hit.result == "draw":
            return self._draw()
        won = MATE - ply - hit.plies
        return won if hit.result == "win" else -won

    def _draw(self) -> int:
        """A draw, side to move's view: a little worse than even for the side
        the search plays for (it goes on with a level game rather than repeat)."""
        return -CONTEMPT if self.pos.side == self.root_side else CONTEMPT

    def _no_moves(self, ply: int) -> int:
        result = self.pos.outcome_no_moves()
        if result[1] is None:
            return self._draw()
        return MATE - ply if result[1] == self.pos.side else -(MATE - ply)

    def _plausible(self, key) -> bool:
        """A table move is checked before it is played without generating moves
        (a key collision must not play an illegal move)."""
        frm, to, caps = key
        board = self.pos.board
        sign = 1 if self.pos.side == 0 else -1
        if board[frm] * sign <= 0 or (board[to] != 0 and to != frm):
            return False
        return all(board[sq] * sign < 0 for sq in caps)

    def _legal_killers(self, killers, tt_key) -> list:
        """The killers that are legal quiet moves here (not the table's move), in
        the order the move generator lists them (as ``_order`` keeps them). Only
        where nothing is forced: no capture compulsory, no piece in its castle."""
        pos = self.pos
        board, side = pos.board, pos.side
        sign = 1 if side == 0 else -1
        found = []
        for key in killers:
            frm = key[0]
            if key == tt_key or board[frm] * sign <= 0:
                continue
            own = move_keys(board, side, pos.castle_left[side], pos.bits, False, False,
                            None, BIT[frm])
            if key in own:
                found.append((frm, list(own).index(key), key))
        if len(found) > 1:
            found.sort(key=_PLACE)
        return [key for _, _, key in found]

    def _order(self, moves, first, ply: int, lead: bool = False, stale=()) -> list:
        """``moves`` best first, without ``first`` (searched already) unless
        ``lead``: then it heads the list. Captures by what they take (piece and
        progress values: an enemy near our castle counts more), then killers,
        then quiet moves by history and their own gain."""
        if len(moves) == 1:
            (key,) = moves
            return [key] if key != first or lead else []
        board = self.pos.board
        killers = self.killers[ply] if ply < 128 else ()
        weigh = self.history.get
        if stale:
            # ``stale``: (key, gain) added to the history since; order as before them
            # (the few keys corrected, not the whole history copied).
            history = self.history
            before = {}
            for key, gain in stale:
                before[key] = before.get(key, history[key]) - gain
            weigh = lambda key, default=0: before.get(key, history.get(key, default))  # noqa: E731
        scored = []
        for key in moves:
            if key == first:
                continue
            frm, to, caps = key
            if caps:
                w = 1_000_000
                for c in caps:
                    w += abs(PST[board[c]][c])
            elif key in killers:
                w = 500_000
            else:
                v = board[frm]
                table = PST[v]
                w = weigh(key, 0) + (table[to] - table[frm]) * (1 if v > 0 else -1)
            scored.append((w, key))
        scored.sort(key=_WEIGHT, reverse=True)
        ordered = [key for _, key in scored]
        return [first] + ordered if lead else ordered

    # --- quiescence -------------------------------------------------------------------
    def quiesce(self, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0:
            self._check()
        if ply > self.max_ply:
            self.max_ply = ply
        score = self._terminal(ply)
        if score is not None:
            return score
        pos = self.pos
        # The table serves quiescence too (capture sequences transpose): an entry
        # from this kind of node or a deeper one may answer, its move goes first.
        level = 0 if qdepth == Q_DEPTH else -1
        entry = self.tt.get(pos.key ^ self.salt)
        tt_move = None
        if entry is not None:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= level:
                e_score = _from_tt(e_score, ply)
                if (e_flag == 0 or (e_flag > 0 and e_score >= beta)
                        or (e_flag < 0 and e_score <= alpha)):
                    return e_score
        side = pos.side
        if pos.bits[side] & CASTLE_BITS[side]:
            # Rare (a piece in its own castle): the duty to leave it decides what may move.
            moves = pos.moves()
            if not moves:
                return self._no_moves(ply)
            if not all(k[2] for k in moves):
                return self._stand_pat(ply)
        elif not pos.must_capture():
            if castle_step_threat(pos.bits, side):
                # It steps into the enemy castle next and wins: first, before any
                # threat against its own castle is answered move by move (both
                # sides at the castle doors made every quiescence ply full width,
                # a depth-1 search of millions of nodes).
                return MATE - ply - 1
            if not castle_step_threat(pos.bits, 1 - side):
                # Nothing forced: stand pat, unless (first quiescence ply only) an
                # optional knight's charge does better: the charges are Camelot's
                # big captures, and a leaf that ignores them blunders pieces.
                stand = self._stand_pat(ply)
                if stand >= beta or qdepth < Q_DEPTH:
                    return stand
                charges = pos.captures(False)
                if charges and stand + DELTA_MARGIN < alpha:
                    # Delta pruning: a charge whose pieces taken cannot lift the
                    # score to alpha is not played out (recaptures only lower it).
                    board = pos.board
                    floor = alpha - stand - DELTA_MARGIN
                    charges = [k for k in charges
                               if sum(abs(PST[board[c]][c]) for c in k[2]) > floor]
                if not charges:
                    return stand
                return self._quiesce_moves(charges, stand, max(alpha, stand), beta, ply, qdepth,
                                           level, tt_move)
            # The opponent steps into our castle next: only a move can say if it is stopped.
            if qdepth <= 0:
                return self.evaluate()
            moves = pos.moves()
            if not moves:
                return self._no_moves(ply)
        else:
            if qdepth <= 0:
                return self.evaluate()
            moves = pos.captures(True)
        # Capturing is compulsory (or the castle is threatened): no standing pat.
        return self._quiesce_moves(moves, -INFINITE, alpha, beta, ply, qdepth, level, tt_move)

    def _quiesce_moves(self, moves, best: int, alpha: int, beta: int, ply: int,
                       qdepth: int, level: int, tt_move) -> int:
        """The best of ``best`` (what standing pat is worth, or -INFINITE when
        the side must move) and the quiescence scores of ``moves``, kept in the
        table at depth ``level`` (0: a first quiescence ply, -1: a deeper one).
        (Searching the table's capture before listing the others, checked legal
        by its piece's captures, was measured slower: 0.93 ×.)"""
        alpha0 = alpha
        best_key = None
        for key in self._order(moves, tt_move, ply, tt_move in moves):
            delta = self._push(key)
            score = -self.quiesce(-beta, -alpha, ply + 1, qdepth - 1)
            self._pop(delta)
            if score > best:
                best = score
                if score > alpha:
                    best_key = key
                    alpha = score
                    if alpha >= beta:
                        break
        tt = self.tt
        key = self.pos.key ^ self.salt
        entry = tt.get(key)
        if entry is None or entry[0] <= level:
            # An upper bound is stored as alpha: moves pruned above were not searched.
            if best >= beta:
                tt[key] = (level, 1, _to_tt(best, ply), best_key)
            elif best <= alpha0:
                tt[key] = (level, -1, _to_tt(alpha0, ply), None)
            else:
                tt[key] = (level, 0, _to_tt(best, ply), best_key)
        return best

    def _stand_pat(self, ply: int) -> int:
        pos = self.pos
        bits, side = pos.bits, pos.side
        if castle_step_threat(bits, side):
            return MATE - ply - 1
        if bits[side].bit_count() <= 3 and not pos.moves():
            # Few pieces (say, shut in the enemy castle with no castle move
            # left) may have no move at all: that loses, it is no quiet position.
            return self._no_moves(ply)
        return evaluate_from(self.pst, bits, side)

    # --- the main search ----------------------------------------------------------------
    def negamax(self, depth: int, alpha: int, beta: int, ply: int, can_null: bool = True,
                ext: int = 1) -> int:
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, Q_DEPTH)
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0:
            self._check()
        score = self._terminal(ply)
        if score is not None:
            return score
        pos = self.pos
        pv_node = beta - alpha > 1
        entry = self.tt.get(pos.key ^ self.salt)
        tt_key = None
        if entry is not None:
            e_depth, e_flag, e_score, tt_key = entry
            if e_depth >= depth and not pv_node:
                e_score = _from_tt(e_score, ply)
                if (e_flag == 0 or (e_flag > 0 and e_score >= beta)
                        or (e_flag < 0 and e_score <= alpha)):
                    return e_score
        side = pos.side
        forced = pos.bits[side] & CASTLE_BITS[side] != 0 or pos.must_capture()
        if not forced and castle_step_threat(pos.bits, side):
            return MATE - ply - 1   # it steps into the enemy castle next (see quiesce)
        forced = forced or castle_step_threat(pos.bits, 1 - side)
        static = None
        if not forced and not pv_node:
            static = self._stand_pat(ply)
            if static >= WIN_THRESHOLD:
                return static
            # Reverse futility: far above beta with nothing forced.
            if depth <= 3 and static - REVERSE_MARGIN * depth >= beta:
                return static
            # Null move: pass; if still above beta, this node is not worth a full search.
            if (can_null and depth >= NULL_MIN_DEPTH and static >= beta
                    and pos.bits[pos.side].bit_count() > 3 and not self._null_forces()):
                reduction = 3 if depth >= 5 else 2
                pos.side ^= 1
                pos.key ^= ZOBRIST_BLACK
                try:
                    score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, False, ext)
                finally:
                    pos.side ^= 1
                    pos.key ^= ZOBRIST_BLACK
                if score >= beta:
                    return score if score < WIN_THRESHOLD else beta
        alpha0 = alpha
        best, best_key = -INFINITE, None
        index = 0
        moves = None
        killers = self.killers[ply] if ply < 128 else []
        if tt_key is not None and self._plausible(tt_key):
            first = [tt_key]
        else:
            tt_key, first = None, []
        futile = (depth == 1 and not forced and static is not None
                  and static + FUTILITY_MARGIN <= alpha)
        late_limit = (LATE_MOVES[depth] if depth < len(LATE_MOVES) and static is not None
                      else 1 << 30)
        # Stages: the table's move; where nothing is forced (the captures are
        # then the knights' charges only) and at least two moves are sure, the
        # charges, then the killers, each found without listing every move;
        # then the rest. The order is the one the whole list would have had, so
        # a cut-off among the first stages only saves the listing and sorting.
        staged = not forced and ply < 128 and self.history_peak < HISTORY_CEILING
        searched = 0          # moves of stages 1 and 2, which head the full order
        single = False
        tried = []            # quiet moves searched here without a cut-off
        for stage in (0, 1, 2, 3):
            if stage == 0:
                sequence = first
            elif stage == 1:
                sequence = ()
                mark = len(self.history_log)   # the full order is the one of now
                if staged:
                    charges = pos.captures(False)
                    if len(charges) + min(2, step_targets(pos.bits, pos.side).bit_count()) >= 2:
                        sequence = self._order(charges, tt_key, ply)
                        searched = len(sequence)
                    else:
                        staged = False
            elif stage == 2:
                sequence = self._legal_killers(killers, tt_key) if staged else ()
                searched += len(sequence)
            else:
                moves = pos.moves()
                if not moves:
                    return self._no_moves(ply)
                if staged:
                    # History learnt in the stages above must not reorder the rest.
                    sequence = self._order(moves, tt_key, ply, stale=self.history_log[mark:])
                    del sequence[:searched]
                else:
                    sequence = self._order(moves, tt_key, ply)
                single = len(moves) == 1
            for key in sequence:
                quiet = not key[2]
                if quiet and index > 0 and (futile or (index >= late_limit
                                                       and key not in killers)):
                    # Near the horizon, late quiet moves (and every quiet move where
                    # none can reach alpha) are pruned; captures come first.
                    if futile and static > best:
                        best = static
                    if stage > 0:
                        break
                    continue
                delta = self._push(key)
                gives = pos.must_capture()   # the opponent must capture now
                new_depth = depth - 1
                child_ext = ext
                # One extension per line: a quiet move that makes the opponent
                # capture (a sacrifice), an optional charge met by a recapture,
                # or the only move. Exchanges in progress are quiescence's.
                if ext and ((gives and (quiet or not forced)) or single):
                    new_depth += 1
                    child_ext = ext - 1
                try:
                    if index == 0:
                        score = -self.negamax(new_depth, -beta, -alpha, ply + 1, True, child_ext)
                    else:
                        reduce = 0
                        if quiet and not forced and key not in killers:
                            reduce = REDUCTION[min(depth, 63)][min(index, 63)]
                            if pv_node and reduce:
                                reduce -= 1
                            if reduce >= new_depth:
                                reduce = new_depth   # straight into quiescence
                        score = -self.negamax(new_depth - reduce, -alpha - 1, -alpha, ply + 1, True,
                                              child_ext)
                        if score > alpha and reduce:
                            # A reduced move that rose: the full depth, still a null window.
                            score = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, True,
                                                  child_ext)
                        if alpha < score < beta:
                            score = -self.negamax(new_depth, -beta, -alpha, ply + 1, True,
                                                  child_ext)
                finally:
                    self._pop(delta)
                index += 1
                if score > best:
                    best, best_key = score, key
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if quiet:
                                if ply < 128 and key not in killers:
                                    killers.insert(0, key)
                                    del killers[2:]
                                bonus = depth * depth
                                history = self.history
                                gain = history.get(key, 0) + bonus
                                history[key] = gain
                                self.history_log.append((key, bonus))
                                if gain > self.history_peak:
                                    self.history_peak = gain
                                if HISTORY_MALUS:
                                    # The quiet moves tried before it failed here.
                                    for other in tried:
                                        history[other] = history.get(other, 0) - bonus
                                        self.history_log.append((other, -bonus))
                            break
                if quiet and HISTORY_MALUS:
                    tried.append(key)
            else:
                continue
            break   # a cut-off or a pruned move: the remaining stages are not needed
        flag = 1 if best >= beta else (-1 if best <= alpha0 else 0)
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        self.tt[pos.key ^ self.salt] = (depth, flag, _to_tt(best, ply), best_key)
        return best

    def _null_forces(self) -> bool:
        """Whether passing would leave the opponent a compulsory capture (then a
        pass says nothing: being made to capture can be the opponent's ruin)."""
        pos = self.pos
        them = 1 - pos.side
        theirs, mine = pos.bits[them], pos.bits[pos.side]
        castle = CASTLES[pos.side]
        return bool(jump_squares(theirs, mine) & theirs & ~(BIT[castle[0]] | BIT[castle[1]]))

    # --- the root -------------------------------------------------------------------------
    root_depth = 1

    def search_root(self, keys: list, depth: int, noise: dict, partial: list,
                    alpha: int = -INFINITE, beta: int = INFINITE) -> tuple:
        """One iteration over the root moves (best first) within the aspiration
        window ``alpha``..``beta`` (a score outside it is only a bound: the caller
        searches again, wider); ``partial`` holds the best found so far, for a
        search that runs out of time mid-iteration."""
        self.root_depth = depth
        alpha0 = alpha
        pos = self.pos
        best, best_key = -INFINITE, None
        scores = {}
        for index, key in enumerate(keys):
            # No node below is open between root moves: the history's log
            # (for the stages' order, see negamax) starts again.
            self.history_log.clear()
            bonus = noise.get(key, 0)
            delta = self._push(key)
            try:
                if index == 0:
                    score = -self.negamax(depth - 1, -beta, -alpha, 1)
                else:
                    # Late quiet root moves are first searched shallower (a PV node:
                    # one ply less than inside the tree), then in full if they rise.
                    reduce = 0
                    if not key[2] and depth >= 3 and not pos.must_capture():
                        reduce = max(REDUCTION[min(depth, 63)][min(index, 63)] - 1, 0)
                    bar = alpha - bonus
                    score = -self.negamax(depth - 1 - reduce, -bar - 1, -bar, 1)
                    if score > bar and reduce:
                        score = -self.negamax(depth - 1, -bar - 1, -bar, 1)
                    if score > bar:
                        score = -self.negamax(depth - 1, -beta, -bar, 1)
            finally:
                self._pop(delta)
            if abs(score) < WIN_THRESHOLD:
                score += bonus   # the weak levels' noise never hides a forced result
            scores[key] = score
            if score > best:
                best, best_key = score, key
                if score > alpha0:   # not just a bound below the window: a real best
                    partial[:] = [best_key, best]
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if alpha0 < best < beta:
            self.tt[pos.key ^ self.salt] = (depth, 0, _to_tt(best, 0), best_key)
        return best_key, best, scores

    def principal_variation(self, first, limit: int) -> tuple:
        """The expected line: the best move, then the table's moves (checked legal)."""
        pos = self.pos
        line = [first]
        pos.push(*first)
        seen = {pos.key}
        try:
            while len(line) < limit:
                entry = self.tt.get(pos.key ^ self.salt)
                if entry is None or entry[3] is None or pos.outcome_without_moves() is not None:
                    break
                key = entry[3]
                if key not in pos.moves():
                    break
                pos.push(*key)
                line.append(key)
                if pos.key in seen:
                    break
                seen.add(pos.key)
        finally:
            for _ in line:
                pos.pop()
        return tuple(line)

    def _aspire(self, keys: list, depth: int, noise: dict, partial: list, done) -> tuple:
        """An iteration searched first in a window around the last score, widened
        on the side where the score fell outside it."""
        if done is None or depth < ASPIRE_FROM or abs(done.score) >= WIN_THRESHOLD:
            return self.search_root(keys, depth, noise, partial)
        window = ASPIRATION
        low, high = done.score - window, done.score + window
        while True:
            result = self.search_root(keys, depth, noise, partial, low, high)
            best = result[1]
            window *= 3
            if best <= low:
                low = -INFINITE if window > 1000 else max(best - window, -INFINITE)
            elif best >= high:
                high = INFINITE if window > 1000 else min(best + window, INFINITE)
                # The move that failed high leads the search again.
                keys = [result[0]] + [k for k in keys if k != result[0]]
            else:
                return result

    def run(self, keys: list, max_depth: int, noise: dict | None = None, budget: float | None = None,
            on_iteration=None, first_depth: int = 1) -> Iteration | None:
        """Iterative deepening over the root moves ``keys``, from ``first_depth``
        (a lazy-SMP helper may start a ply deeper). Stops at ``max_depth``,
        at a forced result, at the deadline, or (with ``budget`` seconds) when the next
        iteration would likely not finish. Returns the last (or partial) iteration."""
        noise = noise or {}
        done = None
        order = list(keys)
        # Each iteration takes about ``growth`` times the one before (measured,
        # within bounds); one that would end past the budget is not started.
        last = previous = 0.0
        growth = GROWTH_MAX
        deadline = self.deadline
        # The first ply is searched to its end past the deadline if need be (as
        # chess engines do): a search that starts late (a loaded machine, a first
        # search that loaded the tablebase) still answers a searched move. But not
        # for ever: by the move's own time again at most (a second at least), then
        # the best root move so far. Told to stop, or out of nodes, it stops all the same.
        first_deadline = None if deadline is None else (
            max(deadline, time.perf_counter()) + max(deadline - self.started, FIRST_PLY_GRACE))
        for depth in range(min(first_depth, max_depth), max_depth + 1):
            self.deadline = first_deadline if depth == 1 else deadline
            partial: list = []
            stack = self.pos.ply_depth
            try:
                best_key, best, scores = self._aspire(order, depth, noise, partial, done)
            except SearchTimeout:
                while self.pos.ply_depth > stack:
                    self.pos.pop()
                self.pst = pst_total(self.pos.board)
                if partial:
                    # The previous best is searched first, so a partial iteration's
                    # best has beaten it at the new depth (or is it): trust it.
                    key, score = partial
                    pv = done.pv if done is not None and done.best == key else (key,)
                    done = Iteration(done.depth if done else 0, score, self.nodes,
                                     time.perf_counter() - self.started, key, pv)
                break
            elapsed = time.perf_counter() - self.started
            done = Iteration(depth, best, self.nodes, elapsed, best_key,
                             self.principal_variation(best_key, depth + 4))
            if on_iteration is not None:
                on_iteration(done)
            if abs(best) > WIN_THRESHOLD:
                break
            order = sorted(order, key=lambda k: scores.get(k, -INFINITE), reverse=True)
            took, last = elapsed - last, elapsed
            if previous > 0.02:
                growth = min(max(took / previous, GROWTH_MIN), GROWTH_MAX)
            previous = took
            if budget is not None and not worth_beginning(elapsed, took * growth, budget):
                break   # too little of the next iteration would be searched in time
        self.deadline = deadline
        return done


def worth_beginning(elapsed: float, expected: float, budget: float) -> bool:
    """Whether an iteration expected to take ``expected`` seconds is begun at
    ``elapsed`` seconds of a ``budget``: when its first part fits (NEXT_SHARE)."""
    return elapsed + expected * NEXT_SHARE <= budget


_WEIGHT = itemgetter(0)
_PLACE = itemgetter(0, 1)


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


__all__ = ["Search", "SearchTimeout", "Iteration", "MATE", "WIN_THRESHOLD", "worth_beginning"]
