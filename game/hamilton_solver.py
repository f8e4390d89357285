"""An exact solver for Hamilton, knowing the stock order.

* **The start card is part of the search**: each of the (up to three) cards the
  chooser can show is tried as start card; the declined ones go under the
  stock, so each choice fixes the order of the 23 cards dealt later.
* **Deals are forced moves** of known cards (7, 7, 7, 2), tried as one more
  move in each position.
* **Canonical pile order where it is safe**: piles that no deal will reach any
  more (all of them once the stock is out, piles 2–6 before the last deal of
  two cards) are interchangeable, so they are kept sorted in the state key and
  only one of them is tried as an empty target.
* **A transposition table** of every state seen (the search is a depth-first
  reachability search, so a state seen once never needs a second look).
* **Safe foundation moves are played without branching**: a start-rank card
  (nothing may ever lie on it in the tableau), and a card whose two
  same-colour predecessors are already on the foundations (nothing that could
  be built on it is left in the tableau).
"""
from __future__ import annotations

from .base import Status
from .cards import SUITS
from .hamilton import CODE, MAX_CHOICES, Hamilton, _bases, group_len, next_rank
from .solver_common import NOT_WINNABLE, UNKNOWN, WINNABLE, Budget, LimitReached, SolveResult

DEFAULT_MAX_STATES = 2_000_000
DEAL_FIRST = False                        # move ordering: try the deal before other moves
MATE = {0: 3, 3: 0, 1: 2, 2: 1}          # the other suit of the same colour


def _game_of(game_or_deck) -> Hamilton:
    if isinstance(game_or_deck, Hamilton):
        return game_or_deck
    if isinstance(game_or_deck, int) and not isinstance(game_or_deck, bool):
        return Hamilton(seed=game_or_deck)
    return Hamilton(deck=game_or_deck)


def solve(game_or_deck, max_states: int | None = DEFAULT_MAX_STATES,
          max_seconds: float | None = None, stop=None, safe_moves: bool = True) -> SolveResult:
    """Solve a deal (a deal number, a deck order) or a live game from its
    current position. The line replays with ``game.play`` from that position.
    ``safe_moves=False`` branches on every foundation move too (slower; for
    checking the safe-move rule)."""
    game = _game_of(game_or_deck)
    budget = Budget(max_states, max_seconds, stop)
    if game.status is Status.WON:
        return budget.result(WINNABLE)
    if game.status is not Status.PLAYING:
        return budget.result(NOT_WINNABLE)
    stock = [CODE[c] for c, _ in reversed(game.piles()["stock"])]          # top first
    tableau = tuple(tuple(CODE[c] for c in pile) for pile in game.tableau)
    try:
        if game.start_rank is not None:
            heights = [0] * 4
            slots = [None] * 4
            for k, pile in enumerate(game.foundations):
                if pile:
                    suit = SUITS.index(pile[0].suit)
                    heights[suit], slots[k] = len(pile), suit
            line = _Search(game.start_rank, stock, budget, safe_moves).run(tableau, tuple(heights))
            return budget.result(WINNABLE, _notation(line, slots)) if line is not None \
                else budget.result(NOT_WINNABLE)
        # choose the start card: the one shown now, or one of the next ones
        prefix: list[str] = []
        chooser = CODE[game.chooser] if game.chooser is not None else None
        shown = game.shown
        while True:
            if chooser is not None:
                heights = [0] * 4
                heights[chooser >> 4] = 1
                line = _Search(chooser & 15, stock, budget, safe_moves).run(tableau, tuple(heights))
                if line is not None:
                    slots = [chooser >> 4, None, None, None]
                    return budget.result(WINNABLE, prefix + ["ch>f0"] + _notation(line, slots))
            if shown >= MAX_CHOICES or not stock:
                return budget.result(NOT_WINNABLE)
            prefix.append("t")
            stock, chooser = stock[1:] + ([chooser] if chooser is not None else []), stock[0]
            shown += 1
    except LimitReached as exc:
        return budget.result(UNKNOWN, reason=exc.reason)


solve_position = solve


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


class _Search:
    def __init__(self, start: int, stock: list[int], budget: Budget,
                 safe_moves: bool = True) -> None:
        self.safe_moves = safe_moves
        self.start = start
        self.on, self.in_suit = _bases(start)
        self.stock = stock
        self.budget = budget
        self.seen: set = set()
        self.line: list[tuple] = []
        # cards with the rank each foundation height needs: need[suit][height]
        self.need = [[None if next_rank(start, h) is None else s * 16 + next_rank(start, h)
                      for h in range(14)] for s in range(4)]

    def run(self, tableau: tuple, heights: tuple) -> list | None:
        """Iterative depth-first search (the move graph is deep): each stack
        frame is a generator that plays its node's moves one by one."""
        piles = [list(p) for p in tableau]
        h = list(heights)
        state = [0]                                       # cards dealt so far
        entered = self.enter(piles, h, state[0])
        if entered is True:
            return self.line
        if entered is None:
            return None
        stack = [(self.moves(piles, h, state), entered)]
        while stack:
            gen, mark = stack[-1]
            if next(gen, None) is None:
                stack.pop()
                self.leave(piles, h, mark)
                continue
            entered = self.enter(piles, h, state[0])
            if entered is True:
                return self.line
            if entered is not None:
                stack.append((self.moves(piles, h, state), entered))
        return None

    def enter(self, piles, heights, dealt):
        """Arrive at a node: safe moves, win check, table. True: won; None:
        seen before (nothing to do); else the line mark to undo to."""
        self.budget.tick()
        mark = len(self.line)
        self.auto(piles, heights)
        if sum(heights) == 52:
            return True
        left = len(self.stock) - dealt
        m = min(7, left)                                  # piles a deal still reaches
        key = (dealt, tuple(heights), tuple(map(tuple, piles[:m])),
               tuple(sorted(map(tuple, piles[m:]))))
        if key in self.seen:
            self.leave(piles, heights, mark)
            return None
        self.seen.add(key)
        return mark

    def leave(self, piles, heights, mark) -> None:
        """Undo the safe moves played on arrival."""
        line = self.line
        while len(line) > mark:
            _, i, suit = line.pop()
            heights[suit] -= 1
            piles[i].append(self.need[suit][heights[suit]])

    def position(self, card: int) -> int:
        return ((card & 15) - self.start) % 13

    def safe(self, card: int, heights: list[int]) -> bool:
        p = self.position(card)
        return p == 0 or heights[MATE[card >> 4]] >= p

    def auto(self, piles: list[list[int]], heights: list[int]) -> int:
        """Play the safe foundation moves; returns how many were played."""
        count = 0
        again = self.safe_moves
        while again:
            again = False
            for i, pile in enumerate(piles):
                while pile:
                    card = pile[-1]
                    suit = card >> 4
                    if self.need[suit][heights[suit]] == card and self.safe(card, heights):
                        pile.pop()
                        heights[suit] += 1
                        self.line.append(("tf", i, suit))
                        count += 1
                        again = True
                    else:
                        break
        return count

    def targets_empty(self, piles, m: int, exclude: int) -> list[int]:
        out = []
        loose = False
        for j, pile in enumerate(piles):
            if not pile and j != exclude:
                if j < m:
                    out.append(j)
                elif not loose:
                    loose = True
                    out.append(j)
        return out

    def deal_row(self, piles, state):
        """Deal the next row as a move (yield), then take it back."""
        dealt = state[0]
        row = self.stock[dealt:dealt + 7]
        for i, card in enumerate(row):
            piles[i].append(card)
        self.line.append(("d",))
        state[0] = dealt + len(row)
        yield True
        state[0] = dealt
        self.line.pop()
        for i in range(len(row)):
            piles[i].pop()

    def moves(self, piles, heights, state):
        """Play each move in turn (yield after each, undo on resume)."""
        line = self.line
        dealt = state[0]
        m = min(7, len(self.stock) - dealt)
        need = self.need
        # 0. deal first (move ordering only)
        if DEAL_FIRST and dealt < len(self.stock):
            yield from self.deal_row(piles, state)
        # 1. a card to its foundation
        for i, pile in enumerate(piles):
            if pile:
                card = pile[-1]
                suit = card >> 4
                if need[suit][heights[suit]] == card:
                    pile.pop()
                    heights[suit] += 1
                    line.append(("tf", i, suit))
                    yield True
                    line.pop()
                    heights[suit] -= 1
                    pile.append(card)
        tops = None
        # 2. a group onto another pile
        tops = {}
        for j, pile in enumerate(piles):
            if pile:
                tops[pile[-1]] = j
        on = self.on
        for i, pile in enumerate(piles):
            if not pile:
                continue
            size = group_len(pile, self.start)
            for n in range(1, size + 1):
                base = pile[-n]
                targets = [tops[c] for c in on[base] if c in tops]
                targets += self.targets_empty(piles, m, i)
                for j in targets:
                    if j == i or (not piles[j] and n == len(pile) and (j >= m and i >= m)):
                        continue
                    group = pile[-n:]
                    del pile[-n:]
                    piles[j].extend(group)
                    line.append(("tt", i, j, n))
                    yield True
                    line.pop()
                    del piles[j][-n:]
                    pile.extend(group)
        # 3. a foundation card back down
        for suit in range(4):
            h = heights[suit]
            if not h:
                continue
            card = need[suit][h - 1]
            heights[suit] -= 1
            if self.safe_moves and self.safe(card, heights):   # would go straight back up
                heights[suit] += 1
                continue
            targets = [tops[c] for c in on[card] if c in tops] + self.targets_empty(piles, m, -1)
            for j in targets:
                piles[j].append(card)
                line.append(("ft", suit, j, heights[suit]))
                yield True
                line.pop()
                piles[j].pop()
            heights[suit] += 1
        # 4. deal
        if not DEAL_FIRST and dealt < len(self.stock):
            yield from self.deal_row(piles, state)
