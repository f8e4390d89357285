"""An exact solver for Camelot (patience), knowing the stock order.

Why it is fast — what the rules make equivalent or certain:

* **Suits never matter** and a card in a cell matters only by its value (a
  picture never leaves its cell), so a position is the stock index, the phase,
  and for each of the four *kinds* of cell (corners, top/bottom middles,
  left/right middles, centre) the multiset of values in it. Cells of one kind
  are interchangeable, so each kind is stored sorted: every equivalent
  position is one state in the transposition table.
* **Reaching the end of the stock is a win.** Every removal takes one card of
  value v and one of 10 − v (or a ten, or two fives), so once all 52 cards are
  placed the number cards left always pair off completely. The search is only
  about placing the cards; the final clearing is appended greedily.
* **A fill is forced in length.** After turning, nothing can be removed until
  the grid is full again, so the next e cards (e = empty cells) are all placed
  before the next removal. If they hold more pictures of a kind than there are
  free cells of that kind, the state is dead at once (checked from prefix
  counts of the stock, at every placement).
* **A kind-blind relaxation prunes the rest.** If picture kinds did not
  matter (a picture taking any empty cell), a fill would be forced entirely
  and a position at a full grid would be just (stock index, how many number
  cards of each value are on the grid): a tiny game, solved with its own
  memo. Every real line is a line of that game, so when the relaxation cannot
  get through the stock from the grid a fill will leave, the real position is
  lost too. Checked before every fill (and at every full grid), this proves
  most lost deals in a few hundred states.
* **Relaxations keeping one or two picture kinds prune far more.** Keep the
  cells of one border kind exact (the values in them, how many are free)
  and pool every other cell: a value count and a number of free cells, where
  any other picture may go. A round is a removal (any balanced set of
  values, each from the kind's cells or the pool) and then the forced fill
  (the kind's pictures need its own free cells, the other pictures free pool
  cells, the numbers split between the kind and the pool in every distinct
  way). Every real line maps to a line of this game (a real picture of
  another kind takes a cell of the pool; a real removal is a balanced set),
  so when no line of it gets through the stock, the real position is lost.
  This catches number cards stuck in the cells a picture will need — e.g.
  four 4s in the corners with no 6 before the next king — which the
  kind-blind game cannot see. Keeping two kinds (and pooling the third with
  the centre) is a finer relaxation of the same kind; it is cut at a
  horizon of h removal rounds: "every line dies within h rounds" is still a
  proof, "something lives h rounds" only means no proof (memoised with its
  h, and each kind alone is tried first, as a relaxation of the pair).
  These run at every full grid, in stages (``STAGES``): the first short
  attempt adds the one-kind games to the kind-blind one, later attempts the
  two-kind games with h = 1 (and the one-kind games before every fill too,
  ``KIND_FILL``), and the last stage the two-kind games with a horizon
  growing by ``HORIZON_STEP`` rounds every attempt (0: to the end of the
  stock at once), so that no attempt of a winnable deal spends seconds in
  one relaxation before its first states.
* **Inside the kind games, the kind-blind game comes first.** Pooling the
  kept kinds' cells too (every picture taking any free cell) relaxes a kind
  game further: its lines are lines of the kind-blind game from the same
  full grid. So a full grid of a kind game from which the kind-blind game
  (memoised, tiny) cannot get through is lost in the kind game as well, and
  its removal rounds are not enumerated (``BLIND_IN_KIND``).
* A kind game's removal round is enumerated fast: the sub-multisets of the
  kept kinds' values are listed once per values (with the balance the pool
  must make up), and the pool's matching takes once per (pool counts,
  balance); the ways to split a fill's numbers once per stretch of stock.
  The clock and the stop request are also checked inside the relaxations
  (``Budget.check``), so ``max_seconds`` holds even when one runs long; the
  garbage collector is off during a solve (the search frees little).
* A picture has one canonical place (the first free cell of its kind); a
  number card has one per group of interchangeable free cells, tried in
  the attempt's order: "arrival" the centre first, then the border kind
  whose next picture comes last; "room" the centre, then the most free
  cells less the kind's pictures to come; "fit" below. A border kind with
  no picture of its own left in the stock joins the centre's group.
* The first orderings ("fit", ``ORDERS``) look at values: a number card
  goes first where its cell is not needed (by a picture that would find no
  free cell of its kind) before the card can leave (when its mate can come:
  at the end of this fill for a ten or a card whose mate is on the grid or
  in the fill, else at the mate's next arrival), the cell needed soonest
  among those, so the centre stays for the cards that stay; and the
  removals freeing a cell of the kind whose next picture lacks a cell
  soonest are tried first (``FIT_REMOVALS``: the canonical order is kept for
  which removals follow which, so the same sets are searched). Orderings
  only change what is tried first, never what is tried.

The search restarts with other move orderings (then seeded random ones),
each with a share of states growing without bound (× ``GROWTH`` every four
attempts); the attempts share the
table of failed states (each entry a proof, whatever the order or stage), so
the search stays complete.

Answers are exact: ``winnable`` with a line in the game's notation,
``not winnable`` when the search space is exhausted, or ``unknown`` past the
limits.
"""
from __future__ import annotations

import functools
import gc
import itertools
import random
import operator

from .camelot_solitaire import CamelotSolitaire
from .base import Status
from .solver_common import (NOT_WINNABLE, UNKNOWN, WINNABLE, Budget, LimitReached, SolveResult,
                            game_for)

CELLS_OF = ((0, 3, 12, 15), (1, 2, 13, 14), (4, 7, 8, 11), (5, 6, 9, 10))
PIC_KIND = {13: 0, 12: 1, 11: 2}
DEFAULT_MAX_STATES = 2_000_000
RELAXED = True             # prune by the kind-blind relaxation (see _Search.relaxed)
KIND_FILL = True           # and the one-kind games before every fill, from stage 2 on
# The pruning of each attempt: 0 kind-blind only, 1 and the one-kind games,
# 2 and the two-kind games to PAIR_HORIZON rounds, 3 the two-kind games to a
# horizon growing by HORIZON_STEP each attempt (0: to the end of the stock).
STAGES = (1, 2, 2, 2, 2, 2, 2, 2, 3)
PAIR_HORIZON = 1
HORIZON_STEP = 1
FULL = 99                  # a horizon past the end of any stock
SINGLE = ((0,), (1,), (2,))
PAIRED = ((0, 1), (0, 2), (1, 2))
BLIND_IN_KIND = True       # the kind-blind game first at each full grid of the kind games


def solve(game_or_deck, max_states: int | None = DEFAULT_MAX_STATES,
          max_seconds: float | None = None, stop=None) -> SolveResult:
    """Solve a deal (a deal number, a deck order) or a live game from its
    current position. The line replays with ``game.play`` from that position."""
    collecting = gc.isenabled()
    gc.disable()            # the search makes many small tuples and frees few
    try:
        return _solve(game_or_deck, max_states, max_seconds, stop)
    finally:
        if collecting:
            gc.enable()


def _solve(game_or_deck, max_states, max_seconds, stop) -> SolveResult:
    game = game_for(CamelotSolitaire, game_or_deck)
    budget = Budget(max_states, max_seconds, stop)
    if game.status is Status.WON:
        return budget.result(WINNABLE)
    if game.status is not Status.PLAYING:
        return budget.result(NOT_WINNABLE)
    stock = [card.rank for card, _ in reversed(game.piles()["stock"])]   # top first
    cells = [0 if c is None else min(c.rank, 11) for c in game.cells]   # a picture: 11
    search = _Search(stock if game.waste is None else [game.waste.rank] + stock, budget)
    try:
        if game.phase == "removing" and game.waste is None and not stock:
            won, line = True, _clear(cells)
        else:
            won, line = search.run(cells, game.waste is not None, game.phase == "removing")
    except LimitReached as exc:
        return budget.result(UNKNOWN, reason=exc.reason)
    return budget.result(WINNABLE, line) if won else budget.result(NOT_WINNABLE)


solve_position = solve


def _clear(cells: list[int]) -> list[str]:
    """Remove every number card left (always possible once the stock is out)."""
    cells = list(cells)
    line = []
    while True:
        numbers = [(c, v) for c, v in enumerate(cells) if 1 <= v <= 10]
        if not numbers:
            return line
        for c, v in numbers:
            if v == 10:
                line.append(f"c{c}")
                cells[c] = 0
                break
            mate = next((d for d, w in numbers if d != c and w == 10 - v), None)
            if mate is not None:
                line.append(f"c{c}+c{mate}")
                cells[c] = cells[mate] = 0
                break
        else:                                 # cannot happen with a real deal
            raise AssertionError(f"numbers left that do not pair: {cells}")


def _splits(nums: list[int], sizes: list[int]):
    """Each distinct way to take sizes[0], sizes[1], … of the values in
    ``nums`` (sorted sub-multisets), with what is left."""
    if not sizes:
        yield (), nums
        return
    seen = set()
    for part in itertools.combinations(nums, sizes[0]):
        if part in seen:
            continue
        seen.add(part)
        left = list(nums)
        for v in part:
            left.remove(v)
        for parts, rest in _splits(left, sizes[1:]):
            yield (part,) + parts, rest


@functools.lru_cache(maxsize=None)        # at most 1001 multisets of four values
def _removals_from(kv: tuple) -> list:
    """Each distinct sub-multiset of the values ``kv`` a removal may take, as
    (signature, values left, how many taken), the largest first. The
    signature (n(10 − v) − n(v) for v = 1…4, n(5) mod 2) is what the rest of
    the removal must balance."""
    subs = set()
    for m in range(len(kv) + 1):
        subs.update(itertools.combinations(kv, m))
    out = []
    for sub in sorted(subs, key=len, reverse=True):
        counts = [0] * 11
        for v in sub:
            counts[v] += 1
        left = list(kv)
        for v in sub:
            left.remove(v)
        sig = tuple(counts[10 - v] - counts[v] for v in range(1, 5)) + (counts[5] % 2,)
        out.append((sig, tuple(left), len(sub)))
    return out


@functools.lru_cache(maxsize=1 << 12)
def _kept_removals(vals: tuple) -> list:
    """The removals from the kept kinds' values (each kind's values in
    ``vals``): (signature, values left, how many taken from each, how many
    in all), the largest first."""
    if len(vals) == 1:
        return [(sig, (left,), (n,), n) for sig, left, n in _removals_from(vals[0])]
    if len(vals) > 2:                   # not used (one or two kinds are kept)
        raise ValueError("keep one or two kinds")
    out = []
    seconds = _removals_from(vals[1])
    for (a1, a2, a3, a4, a5), left, n in _removals_from(vals[0]):
        for (b1, b2, b3, b4, b5), left2, n2 in seconds:
            out.append(((a1 + b1, a2 + b2, a3 + b3, a4 + b4, (a5 + b5) & 1),
                        (left, left2), (n, n2), n + n2))
    out.sort(key=lambda c: -c[3])
    return out


def _pool_removals(rest: tuple, sig: tuple) -> list:
    """Each way to take values from the pool (counts ``rest``) that balances
    a removal of signature ``sig`` from the kept kinds: (counts left, how
    many taken), the largest takes of tens first."""
    tens = [(rest[10] - t, t) for t in range(rest[10], -1, -1)]
    pairs = []
    for v in range(1, 5):
        d = sig[v - 1]                        # taken v − taken (10 − v) must be d
        pairs.append([(rest[v] - a, rest[10 - v] - a + d, 2 * a - d)
                      for a in range(min(rest[v], rest[10 - v] + d), max(0, d) - 1, -1)])
    fives = [(rest[5] - f, f) for f in range(rest[5], -1, -1) if (f + sig[4]) % 2 == 0]
    return [((0, p1[0], p2[0], p3[0], p4[0], f5[0], p4[1], p3[1], p2[1], p1[1], t[0]),
             t[1] + p1[2] + p2[2] + p3[2] + p4[2] + f5[1])
            for t, p1, p2, p3, p4, f5 in itertools.product(tens, *pairs, fives)]


class _Restart(Exception):
    """This attempt's share of states is spent: try the next move ordering."""


# Move orderings tried in turn, each with a growing share of states; they
# share the table of failed states (a failure is proven whatever the order).
ORDERS = (("fit", False), ("fit", True), ("arrival", False), ("room", True))
FIRST_SHARE = 200
GROWTH = 1.5
FIT_REMOVALS = True        # "fit" also tries first the removals freeing cells needed soonest


class _Search:
    def __init__(self, stock: list[int], budget: Budget) -> None:
        self.stock = stock
        self.n = len(stock)
        self.budget = budget
        self.failed: set = set()
        self.relaxed_memo: dict = {}
        self.kind_memo: dict = {}
        self.splits_memo: dict = {}    # (i, j, sizes): the ways to split a fill's numbers
        self.pool_memo: dict = {}      # (pool counts, signature): the pool's takes
        self.polls = 0             # relaxation nodes, for the clock checks
        self.expanded = 0          # states of the real search (the budget counts all)
        self.nums_prefix = [0]
        for r in stock:
            self.nums_prefix.append(self.nums_prefix[-1] + (r <= 10))
        self.line: list[str] = []
        # pics[k][i]: pictures of kind k among the first i stock cards
        self.pics = []
        for rank in (13, 12, 11):
            counts = [0]
            for r in stock:
                counts.append(counts[-1] + (r == rank))
            self.pics.append(counts)
        # next_pic[k][i]: stock index of the first picture of kind k at or after i
        self.next_pic = []
        for rank in (13, 12, 11):
            nxt = [self.n] * (self.n + 1)
            for j in range(self.n - 1, -1, -1):
                nxt[j] = j if stock[j] == rank else nxt[j + 1]
            self.next_pic.append(nxt)
        # next_val[i][v]: stock index of the first card of value v at or after i
        cur = [self.n] * 11
        self.next_val = [tuple(cur)] * (self.n + 1)
        for j in range(self.n - 1, -1, -1):
            if stock[j] <= 10:
                cur[stock[j]] = j
            self.next_val[j] = tuple(cur)
        # pic_at[k]: the stock indices of the pictures of kind k
        self.pic_at = [[j for j, r in enumerate(stock) if r == rank] for rank in (13, 12, 11)]
        self.groups_at = [self._groups(i) for i in range(self.n + 1)]
        self.getters_at = [[operator.itemgetter(*g) for g in groups]
                           for groups in self.groups_at]

    def run(self, cells: list[int], waste: bool, removing: bool) -> tuple[bool, list[str]]:
        share = FIRST_SHARE
        attempt = 0
        while True:
            if attempt < len(ORDERS):
                self.order, self.turn_first = ORDERS[attempt]
                self.rng = None
            else:                          # then random orderings, seeded: repeatable
                self.rng = random.Random(attempt)
                self.order = ORDERS[attempt % len(ORDERS)][0]
                self.turn_first = self.rng.random() < 0.5
            self.level = STAGES[attempt] if attempt < len(STAGES) else STAGES[-1]
            self.horizon = PAIR_HORIZON if self.level == 2 else FULL
            if self.level == 3 and HORIZON_STEP:
                self.horizon = PAIR_HORIZON + HORIZON_STEP * (1 + attempt - STAGES.index(3))
            self.limit = self.expanded + int(share)
            self.line = []
            work = list(cells)
            try:
                if waste:
                    return self.fill(work, 0), self.line[1:]   # the card is already turned
                if removing:
                    return self.remove(work, 0), self.line
                return self.fill(work, 0), self.line
            except _Restart:
                attempt += 1
                if attempt % len(ORDERS) == 0:
                    share *= GROWTH

    def tick(self) -> None:
        self.budget.tick()
        self.expanded += 1
        if self.expanded > self.limit:
            raise _Restart

    def _groups(self, i: int) -> list[tuple[int, ...]]:
        """The cells in groups of interchangeable cells at stock index i: a
        border kind with no picture of its own left in the stock is no
        different from the centre, so it joins the centre's group."""
        pooled = list(CELLS_OF[3])
        groups = []
        for k in range(3):
            if self.pics[k][self.n] - self.pics[k][i]:
                groups.append(CELLS_OF[k])
            else:
                pooled.extend(CELLS_OF[k])
        return [tuple(pooled)] + groups

    def groups(self, i: int) -> list[tuple[int, ...]]:
        return self.groups_at[i]

    def key(self, cells: list[int], i: int, removing: int) -> tuple:
        # pictures are stored as 11 in the cells: a picture is only a blocker
        return (i * 2 + removing,) + tuple(
            tuple(sorted(get(cells))) for get in self.getters_at[i])

    def fits(self, cells: list[int], i: int) -> bool:
        """Do the pictures among the next (empty cells) cards find room?"""
        empty = cells.count(0)
        j = min(self.n, i + empty)
        for k in range(3):
            counts = self.pics[k]
            if counts[j] - counts[i]:
                free = sum(1 for c in CELLS_OF[k] if cells[c] == 0)
                if counts[j] - counts[i] > free:
                    return False
        if j < self.n:
            # the grid will be full with these values in it (wherever they go):
            # can the kind-blind relaxation get through the stock from there?
            counts = [0] * 11
            for v in cells:
                if 1 <= v <= 10:
                    counts[v] += 1
            for v in self.stock[i:j]:
                if v <= 10:
                    counts[v] += 1
            if not self.relaxed_ok_full(counts):
                return False
            if RELAXED and not self.relaxed(j, tuple(counts)):
                return False
            if KIND_FILL and self.level >= 2 and not self.kind_ok(cells, i, SINGLE):
                return False
        return True

    def fill(self, cells: list[int], i: int) -> bool:
        """Phase one at stock index i: turn and place (cells has an empty cell)."""
        key = self.key(cells, i, 0)
        if key in self.failed or not self.fits(cells, i):
            return False
        self.tick()
        card = self.stock[i]
        line = self.line
        line.append("t")
        if card > 10:
            kind = CELLS_OF[PIC_KIND[card]]
            targets = [next(c for c in kind if cells[c] == 0)]
        else:
            targets = []
            groups = self.groups(i + 1)
            if self.order == "fit":
                rest = self.fit_order(cells, i, card, groups)
            elif self.order == "arrival":      # the kind whose next picture comes last first
                rest = [(self.next_pic[PIC_KIND[self.stock_rank(g)]][i + 1], n)
                        for n, g in enumerate(groups) if n]
            else:
                rest = [(sum(1 for c in g if cells[c] == 0)
                         - (self.pics[PIC_KIND[self.stock_rank(g)]][self.n]
                            - self.pics[PIC_KIND[self.stock_rank(g)]][i + 1]), n)
                        for n, g in enumerate(groups) if n]
            for n in (rest if self.order == "fit"
                      else [0] + [n for _, n in sorted(rest, reverse=True)]):
                cell = next((c for c in groups[n] if cells[c] == 0), None)
                if cell is not None:
                    targets.append(cell)
            if self.rng is not None and len(targets) > 1 and self.rng.random() < 0.3:
                self.rng.shuffle(targets)
        value = min(card, 11)
        for cell in targets:
            cells[cell] = value
            line.append(f"w>c{cell}")
            if i + 1 == self.n:
                line.extend(_clear(cells))
                return True
            if (self.remove(cells, i + 1) if 0 not in cells else self.fill(cells, i + 1)):
                return True
            line.pop()
            cells[cell] = 0
        line.pop()
        self.failed.add(key)
        return False

    def fit_order(self, cells, i, card, groups):
        """The groups to try for a number card at stock index i ("fit"): the
        card is likely to stay until its mate can come (the end of this fill
        if it is a ten or its mate is on the grid or in the fill, else the
        mate's next arrival); a group's free cell is needed when the picture
        it would leave without a cell arrives. Groups whose cell is needed
        only after the card can go come first, the soonest needed first
        (the long-lived cells kept for long-lived cards), then the others,
        the latest needed first."""
        empty = cells.count(0)
        j = i + empty                     # the stock index at the next removal
        if card == 10:
            r = j
        else:
            comp = 10 - card
            if comp in cells or self.next_val[i + 1][comp] < j:
                r = j
            else:
                r = self.next_val[min(j, self.n)][comp]
        keyed = []
        for n, g in enumerate(groups):
            free = sum(1 for c in g if cells[c] == 0)
            if not free:
                continue
            if n == 0:
                need = self.n + 1
            else:
                k = PIC_KIND[self.stock_rank(g)]
                base = self.pics[k][i + 1]
                at = self.pic_at[k]
                need = at[base + free - 1] if base + free - 1 < len(at) else self.n + 1
            keyed.append(((0, need) if need > r else (1, -need), n))
        keyed.sort()
        return [n for _, n in keyed]

    def fit_removals(self, cells, i, moves):
        """The removals in the order a "fit" search tries them: those
        freeing a cell of the group whose next picture would find no free
        cell soonest first (the canonical order only breaking ties). Only the
        order of trying changes: each removal is still tried from the same
        canonical point on, so the same sets of removals are searched."""
        groups = self.groups(i)
        need = [self.n + 1]
        for g in groups[1:]:
            k = PIC_KIND[self.stock_rank(g)]
            free = sum(1 for c in g if cells[c] == 0)
            base = self.pics[k][i]
            at = self.pic_at[k]
            need.append(at[base + free] if base + free < len(at) else self.n + 1)
        def prio(m):
            order = m[0]
            return (min(need[order[1]], need[order[3]] if order[2] else self.n + 1), order)
        return sorted(moves, key=prio)

    @staticmethod
    def stock_rank(group: tuple[int, ...]) -> int:
        return {0: 13, 1: 12, 4: 11}[group[0]]

    def relaxed(self, i: int, counts: tuple) -> bool:
        """Can the stock be got through at all if picture kinds did not matter
        (a picture taking any cell)? Then a fill is forced and only the values
        on the grid count: a cheap necessary condition, memoised on
        (stock index, count of each value 1–10 on the grid) at a full grid."""
        key = (i, counts)
        known = self.relaxed_memo.get(key)
        if known is not None:
            return known
        self.polls += 1
        if not self.polls & 255:
            self.budget.check()
        options = [range(counts[10] + 1)]
        for v in range(1, 5):
            options.append(range(min(counts[v], counts[10 - v]) + 1))
        options.append(range(counts[5] // 2 + 1))
        answer = False
        for choice in itertools.product(*options):
            removed = choice[0] + 2 * sum(choice[1:])
            if not removed:
                continue
            if i + removed >= self.n:
                answer = True
                break
            after = list(counts)
            after[10] -= choice[0]
            for v in range(1, 5):
                after[v] -= choice[v]
                after[10 - v] -= choice[v]
            after[5] -= 2 * choice[5]
            for v in self.stock[i:i + removed]:
                if v <= 10:
                    after[v] += 1
            if self.relaxed_ok_full(after) and self.relaxed(i + removed, tuple(after)):
                answer = True
                break
        self.relaxed_memo[key] = answer
        return answer

    # --- the relaxations keeping one or two picture kinds ----------------------
    def kind_fill(self, ks: tuple, i: int, vals: tuple, frees: tuple, rest: tuple,
                  fr: int, h: int = FULL) -> bool:
        """Relaxation keeping the kinds ``ks``: the cells of kind ks[n] hold
        the values vals[n] and frees[n] of them are free; every other cell is
        one pool (``rest``: count of each value, ``fr`` free) where any other
        picture may go. A fill of all free cells from stock index i: False
        when every line of the relaxation dies within h more removal rounds
        (a proof that the position is lost), True otherwise."""
        key = (ks, i, vals, frees, rest, fr)
        memo = self.kind_memo
        known = memo.get(key)
        if known is not None and (known < 0 or known >= h):
            return known >= 0
        r = fr + sum(frees)
        j = min(self.n, i + r)
        po = j - i - self.nums_prefix[j] + self.nums_prefix[i]
        sizes = []
        for k, f in zip(ks, frees):
            pk = self.pics[k][j] - self.pics[k][i]
            if pk > f:
                memo[key] = -1
                return False
            po -= pk
            sizes.append(f - pk)
        if po > fr:
            memo[key] = -1
            return False
        if i + r >= self.n:
            memo[key] = FULL
            return True
        self.polls += 1
        if not self.polls & 255:
            self.budget.check()       # a relaxation can run long between ticks
        if len(ks) > 1:
            # each kind alone is a relaxation of this one: a cheap first test
            for n in range(len(ks)):
                pooled = list(rest)
                for m, kv in enumerate(vals):
                    if m != n:
                        for v in kv:
                            pooled[v] += 1
                if not self.kind_fill((ks[n],), i, (vals[n],), (frees[n],), tuple(pooled),
                                      r - frees[n]):
                    memo[key] = -1
                    return False
        if h <= 0:
            return True
        skey = (i, j, tuple(sizes))
        splits = self.splits_memo.get(skey)
        if splits is None:
            nums = [v for v in self.stock[i:j] if v <= 10]
            splits = self.splits_memo[skey] = list(_splits(nums, sizes))
        answer = False
        for parts, left in splits:
            after = list(rest)
            for v in left:
                after[v] += 1
            if self.kind_full(ks, j, tuple(tuple(sorted(old + new))
                                          for old, new in zip(vals, parts)), tuple(after), h):
                answer = True
                break
        memo[key] = h if answer else -1
        return answer

    def kind_full(self, ks: tuple, i: int, vals: tuple, rest: tuple, h: int = FULL) -> bool:
        """The kind relaxation at a full grid: some removal, then the fill
        (one round of the h)."""
        key = (ks, i, vals, rest)
        memo = self.kind_memo
        known = memo.get(key)
        if known is not None and (known < 0 or known >= h):
            return known >= 0
        if h <= 0:
            return True
        self.budget.tick()
        self.polls += 1
        if not self.polls & 63:
            self.budget.check()
        if BLIND_IN_KIND:
            counts = list(rest)
            for kv in vals:
                for v in kv:
                    counts[v] += 1
            if not self.relaxed_ok_full(counts) or not self.relaxed(i, tuple(counts)):
                memo[key] = -1
                return False
        answer = False
        combos = _kept_removals(vals)
        pool_memo = self.pool_memo
        for sig, lefts, frees, taken in combos:
            pkey = (rest, sig)
            pool = pool_memo.get(pkey)
            if pool is None:
                pool = pool_memo[pkey] = _pool_removals(rest, sig)
            for after, fr in pool:
                if not fr and not taken:
                    continue
                known = memo.get((ks, i, lefts, frees, after, fr))   # kind_fill's memo
                if known is not None and (known < 0 or known >= h - 1):
                    if known >= 0:
                        answer = True
                        break
                    continue
                if self.kind_fill(ks, i, lefts, frees, after, fr, h - 1):
                    answer = True
                    break
            if answer:
                break
        memo[key] = h if answer else -1
        return answer

    def kind_ok(self, cells: list[int], i: int, kind_sets, h: int = FULL) -> bool:
        """The kind relaxations for the given sets of kinds (each kind with
        pictures still to come)."""
        for ks in kind_sets:
            if any(self.pics[k][self.n] == self.pics[k][i] for k in ks):
                continue
            vals = []
            frees = []
            for k in ks:
                kv = []
                f = 0
                for c in CELLS_OF[k]:
                    v = cells[c]
                    if v == 0:
                        f += 1
                    elif v <= 10:
                        kv.append(v)
                kv.sort()
                vals.append(tuple(kv))
                frees.append(f)
            rest = [0] * 11
            fr = 0
            for kk in range(4):
                if kk not in ks:
                    for c in CELLS_OF[kk]:
                        v = cells[c]
                        if v == 0:
                            fr += 1
                        elif v <= 10:
                            rest[v] += 1
            if fr or any(frees):
                ok = self.kind_fill(ks, i, tuple(vals), tuple(frees), tuple(rest), fr, h)
            else:
                ok = self.kind_full(ks, i, tuple(vals), tuple(rest), h)
            if not ok:
                return False
        return True

    @staticmethod
    def relaxed_ok_full(counts) -> bool:
        return bool(counts[10] or counts[5] >= 2
                    or any(counts[v] and counts[10 - v] for v in range(1, 5)))

    def remove(self, cells: list[int], i: int, after: tuple = ()) -> bool:
        """Phase two at stock index i (stock not empty): remove, or turn.
        Removals are made in a canonical order (each set of them once):
        only removals sorting at or after ``after`` are tried."""
        key = self.key(cells, i, 1)
        if key in self.failed or (after and (key, after) in self.failed):
            return False
        if 0 not in cells and RELAXED:
            counts = [0] * 11
            for v in cells:
                if 1 <= v <= 10:
                    counts[v] += 1
            level = self.level
            if (not self.relaxed(i, tuple(counts))
                    or (level >= 1 and not self.kind_ok(cells, i, SINGLE))
                    or (level >= 2 and not self.kind_ok(cells, i, PAIRED,
                                                        self.horizon))):
                self.failed.add(key)
                return False
        self.tick()
        line = self.line
        if self.turn_first and 0 in cells and self.fill(cells, i):
            return True
        moves = self.removals(cells, self.groups(i))
        if self.order == "fit" and FIT_REMOVALS and len(moves) > 1:
            moves = self.fit_removals(cells, i, moves)
        for order, move in moves:
            if order < after:
                continue
            for c in move:
                cells[c], move[c] = 0, cells[c]
            line.append("+".join(f"c{c}" for c in move))
            if self.remove(cells, i, order):
                return True
            line.pop()
            for c, v in move.items():
                cells[c] = v
        if not self.turn_first and 0 in cells and self.fill(cells, i):
            return True
        # with `after`, only the removals from it on were tried
        self.failed.add((key, after) if after else key)
        return False

    @staticmethod
    def removals(cells: list[int], groups: list) -> list[tuple[tuple, dict]]:
        """One removal of each group-distinct sort, as (order, {cell: value})."""
        reps: dict[int, list[tuple[int, int]]] = {}
        for k, kind in enumerate(groups):
            seen = set()
            for c in kind:
                v = cells[c]
                if 1 <= v <= 10 and v not in seen:
                    seen.add(v)
                    reps.setdefault(v, []).append((k, c))
        moves = [((10, k, 0, 0), {c: 0}) for k, c in reps.get(10, ())]
        for v in range(1, 5):
            for ka, a in reps.get(v, ()):
                for kb, b in reps.get(10 - v, ()):
                    moves.append(((v, ka, 10 - v, kb), {a: 0, b: 0}))
        fives = [(k, c) for k, kind in enumerate(groups) for c in kind if cells[c] == 5]
        done = set()
        for x in range(len(fives)):
            for y in range(x + 1, len(fives)):
                kinds = (fives[x][0], fives[y][0])
                if kinds not in done:
                    done.add(kinds)
                    moves.append(((5, kinds[0], 5, kinds[1]), {fives[x][1]: 0, fives[y][1]: 0}))
        moves.sort(key=lambda m: m[0])
        return moves
