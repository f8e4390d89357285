"""An exact solver for Hamilton, knowing the stock order.

The search is a complete best-first search: every position reachable from the
deal is either expanded or never needed, so "not winnable" is a proof, and a
heuristic only decides which positions are looked at first.

* **The start card is part of the search**: each of the (up to three) cards
  the chooser can show is tried as start card; the declined ones go under the
  stock, so each choice fixes the order of the 23 cards dealt later. Each
  choice has its own frontier, and the frontiers are served in turn, so a
  start card whose positions merely *look* good cannot starve the others.
* **Deals are forced moves** of known cards (7, 7, 7, 2), one more move in
  each position.
* **Canonical pile order where it is safe**: piles that no deal will reach any
  more (all of them once the stock is out, piles 3–7 before the last deal of
  two cards) are interchangeable, so they are sorted in the state key and only
  one of the empty ones is tried as a target.
* **A transposition table** of every position seen (a position seen once
  never needs a second look: the search is a reachability search).
* **Safe foundation moves are played without branching**. A card c at
  position p of its foundation (p = 0 for the start rank) is *safe* when it is
  next on its foundation and the mate suit (same colour) is at least p high:
  then every card that could ever be built on c in the tableau — same colour,
  position below p — is already on a foundation. Proof sketch: (1) a winning
  line never needs to bring those cards down: deleting every move of them
  leaves a legal winning line (they can only ever lie on each other, nothing
  else can be built on them, a group never runs through them, and a
  foundation above them needs them in place); (2) in such a line c only ever
  covers the card below it and receives dealt cards, so deleting c's moves
  and keeping c on its foundation leaves a legal winning line too. Both steps
  only delete moves, so the search stays complete. For the same reason a
  foundation card that would be safe at once is never taken down.
* **Foundation cards are taken down only where they can be used** once the
  stock is out: a card taken down is only ever useful as a target, and any
  move that touches neither it nor its foundation commutes with taking it
  down, so some group already movable must fit on a foundation card of its
  colour (see ``_children``).
* **Best-first order**: cards on foundations, suited runs in the piles, empty
  piles, and how deep the next card of each foundation lies — with two
  weightings served alternately, so one weighting's blind spot (a deal it
  rates wrongly) costs at most half the work. Winning lines are
  short (about a hundred moves) as a side effect. Positions after the last
  deal are few per entry and mostly lost, so they are searched depth-first
  at once, without scoring, until more than ``ENDGAME_RUN`` wait; then they
  join the queue (nothing is dropped, the search stays complete).

Answers are exact: ``winnable`` with a line in the game's notation,
``not winnable`` when every position was expanded, ``unknown`` past a limit.
"""
from __future__ import annotations

import gc
import heapq
import itertools

from .base import Status
from .cards import SUITS
from .hamilton import CODE, MAX_CHOICES, Hamilton, _bases, next_rank
from .solver_common import (NOT_WINNABLE, UNKNOWN, WINNABLE, Budget, LimitReached, SolveResult,
                            game_for)

DEFAULT_MAX_STATES = 1_000_000        # about 700 MB of positions
MATE = {0: 3, 3: 0, 1: 2, 2: 1}          # the other suit of the same colour
# heuristic weights (tuned on deals 1–200: states until the first win)
W_FOUNDATION = 3.0        # per card on a foundation
W_BREAK = 1.0             # per card not on a card of its colour one higher
W_LOOSE = 0.8             # per card on its colour but not its suit
W_EMPTY = 1.0             # per empty pile
W_DEPTH = 1.0             # per card above the next card of each foundation
W_STOCK = 0.5             # per card still in the stock
W2_STOCK, W2_DEPTH = 0.3, 2.0   # the second weighting: dig for the next cards, deal sooner
ENDGAME_RUN = 8           # endgame positions waiting in a depth-first run before they join the queue


def solve(game_or_deck, max_states: int | None = DEFAULT_MAX_STATES,
          max_seconds: float | None = None, stop=None, safe_moves: bool = True) -> SolveResult:
    """Solve a deal (a deal number, a deck order) or a live game from its
    current position. The line replays with ``game.play`` from that position.
    ``safe_moves=False`` branches on every foundation move and takes no
    shortcut at all (slower; for checking the shortcuts)."""
    game = game_for(Hamilton, game_or_deck)
    budget = Budget(max_states, max_seconds, stop)
    if game.status is Status.WON:
        return budget.result(WINNABLE)
    if game.status is not Status.PLAYING:
        return budget.result(NOT_WINNABLE)
    choices = _choices(game, safe_moves)
    if not choices:
        return budget.result(NOT_WINNABLE)
    collecting = gc.isenabled()
    gc.disable()              # millions of small tuples: the cycle collector only slows us
    try:
        found = _search(choices, budget)
    except LimitReached as exc:
        return budget.result(UNKNOWN, reason=exc.reason)
    finally:
        if collecting:
            gc.enable()
    if found is None:
        return budget.result(NOT_WINNABLE)
    choice, moves = found
    return budget.result(WINNABLE, choice.prefix + _notation(moves, list(choice.slots)))


solve_position = solve


class _Choice:
    """One start card: the stock order it leaves, the rules on small ints,
    and the notation that chooses it."""

    def __init__(self, start: int, stock: list[int], tableau: tuple, heights: list[int],
                 prefix: list[str], slots: list, safe_moves: bool) -> None:
        self.start = start
        self.stock = stock
        self.tableau = tableau
        self.heights = heights
        self.prefix = prefix
        self.slots = slots                # foundation index → suit, for notation
        self.safe_moves = safe_moves
        self.on, self.in_suit = _bases(start)
        # the card each foundation height needs: need[suit][height]
        self.need = [[None if next_rank(start, h) is None else s * 16 + next_rank(start, h)
                      for h in range(14)] for s in range(4)]
        self.pile_scores = _PileScores(self.on, self.in_suit)
        self.runs = _Runs(self.on, self.in_suit)

    def safe(self, card: int, heights) -> bool:
        p = ((card & 15) - self.start) % 13
        return p == 0 or heights[MATE[card >> 4]] >= p

    def settle(self, piles: list[tuple], heights: list[int], check) -> list[tuple]:
        """Play the safe foundation moves from the pile tops (first those in
        ``check``, then all of them once a card went up)."""
        autos: list[tuple] = []
        if not self.safe_moves:
            return autos
        need = self.need
        while True:
            fired = False
            for i in check:
                pile = piles[i]
                while pile:
                    card = pile[-1]
                    suit = card >> 4
                    if need[suit][heights[suit]] == card and self.safe(card, heights):
                        pile = pile[:-1]
                        heights[suit] += 1
                        autos.append(("tf", i, suit))
                        fired = True
                    else:
                        break
                piles[i] = pile
            if not fired:
                return autos
            check = range(7)

    def score(self, piles: tuple, heights, dealt: int) -> tuple[float, float]:
        """The position's value under the two weightings (higher: sooner)."""
        base = W_FOUNDATION * sum(heights) + sum(map(self.pile_scores.__getitem__, piles))
        left = len(self.stock) - dealt
        need = self.need
        wanted = {need[suit][heights[suit]] for suit in range(4)}
        deep = 0
        for pile in piles:
            if not wanted.isdisjoint(pile):
                for depth, card in enumerate(reversed(pile)):
                    if card in wanted:
                        deep += depth
        return (base - W_STOCK * left - W_DEPTH * deep, base - W2_STOCK * left - W2_DEPTH * deep)


class _Runs(dict):
    """The groups a pile can move, memoised per pile (piles recur): for each
    size n of the top suited run's top part, (n, the cards its base may lie
    on, the pile left behind, the group)."""

    def __init__(self, on: dict, in_suit: dict) -> None:
        super().__init__()
        self.on, self.in_suit = on, in_suit

    def __missing__(self, pile: tuple) -> tuple:
        out = []
        length = len(pile)
        n = 0
        while n < length:
            n += 1
            base = pile[-n]
            out.append((n, self.on[base], pile[:-n], pile[-n:]))
            if n < length and pile[-n - 1] != self.in_suit[base]:
                break
        value = self[pile] = tuple(out)
        return value


class _PileScores(dict):
    """A pile's share of the heuristic, memoised (piles recur): an empty pile
    scores, a card not on its suited predecessor costs."""

    def __init__(self, on: dict, in_suit: dict) -> None:
        super().__init__()
        self.on, self.in_suit = on, in_suit

    def __missing__(self, pile: tuple) -> float:
        if not pile:
            value = W_EMPTY
        else:
            in_suit, on = self.in_suit, self.on
            value = 0.0
            below = pile[0]
            for card in pile[1:]:
                if in_suit[card] != below:
                    value -= W_LOOSE if below in on[card] else W_BREAK
                below = card
        self[pile] = value
        return value


def _choices(game: Hamilton, safe_moves: bool) -> list[_Choice]:
    """The start cards still possible: the chosen one, or each card the
    chooser can still show (declined cards go under the stock)."""
    stock = [CODE[c] for c, _ in reversed(game.piles()["stock"])]          # top first
    tableau = tuple(tuple(CODE[c] for c in pile) for pile in game.tableau)
    if game.start_rank is not None:
        heights = [0] * 4
        slots = [None] * 4
        for k, pile in enumerate(game.foundations):
            if pile:
                suit = SUITS.index(pile[0].suit)
                heights[suit], slots[k] = len(pile), suit
        return [_Choice(game.start_rank, stock, tableau, heights, [], slots, safe_moves)]
    choices = []
    prefix: list[str] = []
    chooser = CODE[game.chooser] if game.chooser is not None else None
    shown = game.shown
    while True:
        if chooser is not None:
            heights = [0] * 4
            heights[chooser >> 4] = 1
            choices.append(_Choice(chooser & 15, stock, tableau, heights, prefix + ["ch>f0"],
                                   [chooser >> 4, None, None, None], safe_moves))
        if shown >= MAX_CHOICES or not stock:
            return choices
        prefix = prefix + ["t"]
        stock, chooser = stock[1:] + ([chooser] if chooser is not None else []), stock[0]
        shown += 1


def _key(choice: int, dealt: int, stock_len: int, piles: tuple) -> tuple:
    """Piles a deal still reaches keep their place; the others are sorted."""
    m = min(7, stock_len - dealt)
    if m == 7:
        return (choice, dealt, piles)
    return (choice, dealt, piles[:m], tuple(sorted(piles[m:])))


def _search(choices: list[_Choice], budget: Budget):
    """Best-first search. Each start card has its own pair of queues (the
    two weightings of the heuristic, served alternately), and the start cards
    are served in turn. Every new position goes into both queues of its
    start card and is expanded once. Returns (choice, moves) for a win, None
    when every position is done."""
    queues: list[tuple[list, list]] = [([], []) for _ in choices]
    parent: dict[tuple, tuple] = {}           # key → (parent key, moves into it)
    counter = itertools.count()
    done: set[tuple] = set()                  # expanded positions
    heappush, heappop = heapq.heappush, heapq.heappop

    def enqueue(ci: int, dealt: int, heights, piles: tuple, key: tuple, back) -> None:
        first, second = choices[ci].score(piles, heights, dealt)
        entry = (dealt, tuple(heights), piles, key, back)
        heappush(queues[ci][0], (-first, -next(counter), entry))
        heappush(queues[ci][1], (-second, -next(counter), entry))

    def next_entry(ci: int, flip: int):
        """The best position not yet expanded, from one queue or else the other."""
        for heap in (queues[ci][flip], queues[ci][1 - flip]):
            while heap and heap[0][2][3] in done:
                heappop(heap)
            if heap:
                return heappop(heap)[2]
        return None

    for ci, ch in enumerate(choices):
        piles = list(ch.tableau)
        heights = list(ch.heights)
        autos = ch.settle(piles, heights, range(7))
        piles = tuple(piles)
        key = _key(ci, 0, len(ch.stock), piles)
        parent[key] = (None, tuple(autos))
        if sum(heights) == 52:
            return ch, _line(parent, key)
        enqueue(ci, 0, heights, piles, key, None)
    tick = budget.tick
    live = list(range(len(choices)))
    turn = flip = 0
    while live:
        turn = (turn + 1) % len(live)
        ci = live[turn]
        flip ^= 1
        entry = next_entry(ci, flip)
        if entry is None:
            live.remove(ci)
            continue
        dealt, heights, piles, pkey, back = entry
        done.add(pkey)
        ch = choices[ci]
        nstock = len(ch.stock)
        endgame = []          # positions with the stock out: searched depth-first at once
        while True:
            for move, child, child_heights, autos, d in _children(ch, piles, heights, dealt,
                                                                  back):
                child = tuple(child)
                key = _key(ci, d, nstock, child)
                if key in parent:
                    continue
                tick()
                parent[key] = (pkey, (move, *autos))
                if sum(child_heights) == 52:
                    return ch, _line(parent, key)
                child_back = None if autos else _reverse(move)
                if d == nstock:
                    endgame.append((d, child_heights, child, key, child_back))
                else:
                    enqueue(ci, d, child_heights, child, key, child_back)
            if not endgame:
                break
            if len(endgame) > ENDGAME_RUN:
                for waiting in endgame:
                    enqueue(ci, *waiting)
                break
            dealt, heights, piles, pkey, back = endgame.pop()
            done.add(pkey)
    return None


def _line(parent: dict, key: tuple) -> list[tuple]:
    parts = []
    while key is not None:
        key, moves = parent[key]
        parts.append(moves)
    return [move for moves in reversed(parts) for move in moves]


def _reverse(move: tuple):
    """The move that would undo ``move`` (its child is the parent: skipped)."""
    if move[0] == "tt":
        return (move[2], move[1], move[3])
    return None


def _children(ch: _Choice, piles: tuple, heights: tuple, dealt: int, back=None):
    """Every move from a position, as (move, piles, heights, safe moves that
    followed, cards dealt). Positions are tuples; each child is built by
    slicing, so nothing needs undoing. ``back`` (i, j, n) is the group move
    that would only return to the parent."""
    bi, bj, bn = back or (-1, -1, -1)
    stock = ch.stock
    m = min(7, len(stock) - dealt)                  # piles the next deal reaches
    need, on, in_suit = ch.need, ch.on, ch.in_suit
    # a card to its foundation (the unsafe ones: safe ones went up already)
    for i, pile in enumerate(piles):
        if pile:
            card = pile[-1]
            suit = card >> 4
            if need[suit][heights[suit]] == card:
                child = list(piles)
                child[i] = pile[:-1]
                h = list(heights)
                h[suit] += 1
                autos = ch.settle(child, h, range(7))
                yield ("tf", i, suit), child, h, autos, dealt
    tops = {pile[-1]: j for j, pile in enumerate(piles) if pile}
    empty_dealt = [j for j in range(m) if not piles[j]]
    empty_loose = next((j for j in range(m, 7) if not piles[j]), None)
    any_empty = empty_dealt + ([] if empty_loose is None else [empty_loose])
    # a group (a suited run, or its top part) onto a pile
    endgame = dealt == len(stock)
    runs = ch.runs
    for i, pile in enumerate(piles):
        if not pile:
            continue
        whole_ok = i < m                   # a whole loose pile to a loose one changes nothing
        for n, bases, rest, group in runs[pile]:
            targets = []
            for c in bases:
                j = tops.get(c)
                if j is not None:
                    targets.append(j)
            targets += any_empty if (rest or whole_ok) else empty_dealt
            if targets:
                exposed = rest[-1] if rest else None
                auto = exposed is not None and need[exposed >> 4][heights[exposed >> 4]] == exposed
                for j in targets:
                    if i == bi and j == bj and n == bn:
                        continue
                    child = list(piles)
                    child[i] = rest
                    child[j] = piles[j] + group
                    if auto:
                        h = list(heights)
                        autos = ch.settle(child, h, (i,))
                    else:
                        h, autos = heights, ()
                    yield ("tt", i, j, n), child, h, autos, dealt
    # a foundation card back down (never one that would be safe at once).
    # Once the stock is out, a card taken down is only ever useful as a
    # target: any other move commutes with taking it down (it touches neither
    # the card nor its foundation), so a winning line can be reordered to take
    # cards down just before use — a chain of them, each laid on the one
    # before or freeing the one under it, ending with a group from the piles
    # laid on the last. That group's base is movable already, so some
    # foundation card of this colour must fit under a movable group now.
    under_bases = None
    for suit in range(4):
        height = heights[suit]
        if not height:
            continue
        card = need[suit][height - 1]
        h = list(heights)
        h[suit] -= 1
        if ch.safe_moves and ch.safe(card, h):
            continue
        if endgame and ch.safe_moves:
            if under_bases is None:       # the cards some movable group could go on
                under_bases = set()
                for pile in piles:
                    for _, bases, _, _ in runs[pile]:
                        under_bases.update(bases)
            if not any(need[t][k] in under_bases for t in (suit, MATE[suit])
                       for k in range(heights[t])):
                continue                              # no group could ever be laid on it
        for j in [tops[c] for c in on[card] if c in tops] + any_empty:
            child = list(piles)
            child[j] = piles[j] + (card,)
            yield ("ft", suit, j, height - 1), child, h, (), dealt
    # the deal
    if dealt < len(stock):
        row = stock[dealt:dealt + 7]
        child = list(piles)
        for i, card in enumerate(row):
            child[i] = piles[i] + (card,)
        h = list(heights)
        autos = ch.settle(child, h, range(7))
        yield ("d",), child, h, autos, dealt + len(row)


def _notation(line: list[tuple], slots: list) -> list[str]:
    """Search moves → the game's notation; ``slots`` maps foundation → suit."""
    out = []
    for move in line:
        if move[0] == "d":
            out.append("d")
        elif move[0] == "tf":
            suit = move[2]
            k = slots.index(suit) if suit in slots else slots.index(None)
            slots[k] = suit
            out.append(f"t{move[1]}>f{k}")
        elif move[0] == "tt":
            _, i, j, n = move
            out.append(f"t{i}{f':{n}' if n != 1 else ''}>t{j}")
        else:                                            # ("ft", suit, j, height after)
            _, suit, j, height = move
            k = slots.index(suit)
            if height == 0:
                slots[k] = None
            out.append(f"f{k}>t{j}")
    return out
