"""Camelot (the board game): squares, the Move value type and move generation.

Squares are small ints 0‥159 in the WCF's order (F1, G1, C2 … J15, F16, G16:
rank 1 first, left to right), like python-chess's square numbers. The board is a
plain list of 160 ints (``0`` empty, ``±1`` man, ``±2`` knight; White is
positive) and geometry is precomputed: ``ADJACENT[sq]`` (plain-move targets) and
``LEAPS[sq]`` ((jumped square, landing square) pairs), so move generation never
checks bounds.

:func:`generate` lists the legal moves of one side as a dict keyed by
``(from, to, captured squares)`` — one entry per distinct resulting position —
optionally with every path that reaches it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .errors import NotationError

FILES = "ABCDEFGHIJKL"
WHITE, BLACK = 0, 1
COLOR_NAMES = ("white", "black")

# Files (0-based, inclusive) present on each rank.
_RANK_SPAN = {1: (5, 6), 16: (5, 6), 2: (2, 9), 15: (2, 9), 3: (1, 10), 14: (1, 10)}


def rank_span(rank: int) -> tuple[int, int]:
    """First and last file index (0 = A) of a rank (1‥16)."""
    return _RANK_SPAN.get(rank, (0, 11))


SQUARE_COORDS: tuple[tuple[int, int], ...] = tuple(
    (f, r) for r in range(1, 17) for f in range(rank_span(r)[0], rank_span(r)[1] + 1))
SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[f]}{r}" for f, r in SQUARE_COORDS)
SQUARES = range(len(SQUARE_COORDS))
_INDEX = {c: i for i, c in enumerate(SQUARE_COORDS)}
_BY_NAME = {n: i for i, n in enumerate(SQUARE_NAMES)}
assert len(SQUARE_COORDS) == 160

# Castles, indexed by the colour that owns them.
CASTLES: tuple[tuple[int, int], tuple[int, int]] = (
    (_BY_NAME["F1"], _BY_NAME["G1"]), (_BY_NAME["F16"], _BY_NAME["G16"]))
CASTLE_SQUARES = frozenset(CASTLES[0] + CASTLES[1])

DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_INDEX[(f + df, r + dr)] for df, dr in DIRECTIONS if (f + df, r + dr) in _INDEX)
    for f, r in SQUARE_COORDS)
LEAPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((_INDEX[(f + df, r + dr)], _INDEX[(f + 2 * df, r + 2 * dr)])
          for df, dr in DIRECTIONS
          if (f + df, r + dr) in _INDEX and (f + 2 * df, r + 2 * dr) in _INDEX)
    for f, r in SQUARE_COORDS)
# (from, to) of a leap → the square leapt over.
MIDPOINT: dict[tuple[int, int], int] = {
    (a, land): over for a in SQUARES for over, land in LEAPS[a]}


# Bitboards (Python ints) on a padded 16 × 20 grid, two empty files/ranks round the
# board, so shifting by one or two steps never wraps onto a real square.
BIT: tuple[int, ...] = tuple(1 << ((r + 1) * 16 + f + 2) for f, r in SQUARE_COORDS)
ON_BOARD = sum(BIT)
SHIFTS = tuple(dr * 16 + df for df, dr in DIRECTIONS if dr * 16 + df > 0)
assert SHIFTS == (1, 15, 16, 17)  # written out below (twice these in canter_fill)


def leap_sources(over: int, land: int) -> int:
    """Bitboard of the squares ``s`` with an ``over`` square next to them and a
    ``land`` square beyond it, in any of 8 directions (not masked to the board)."""
    return ((((land >> 1) & over) >> 1) | (((land << 1) & over) << 1)
            | (((land >> 15) & over) >> 15) | (((land << 15) & over) << 15)
            | (((land >> 16) & over) >> 16) | (((land << 16) & over) << 16)
            | (((land >> 17) & over) >> 17) | (((land << 17) & over) << 17))


def jump_squares(mine: int, theirs: int) -> int:
    """Bitboard of the squares from which a piece of ``mine`` could jump now: an
    enemy piece next to it and an empty square beyond (in any of 8 directions)."""
    return leap_sources(theirs, ON_BOARD & ~(mine | theirs)) & ON_BOARD


# Bit position → square (None off the board), for walking a bitboard's squares.
SQUARE_AT_BIT: list[int | None] = [None] * max(BIT).bit_length()
for _sq, _bit in enumerate(BIT):
    SQUARE_AT_BIT[_bit.bit_length() - 1] = _sq
del _sq, _bit


def bit_squares(bits: int):
    """The squares of a bitboard, in ascending order."""
    while bits:
        low = bits & -bits
        yield SQUARE_AT_BIT[low.bit_length() - 1]
        bits ^= low


def canter_fill(start: int, over: int, land: int, stop: int, onward: int | None = None) -> int:
    """Bitboard of the squares reachable by canter chains from bit ``start``:
    leaps over ``over`` squares onto ``land`` squares; ``stop`` squares end a chain.
    ``onward`` (optional, a filter): squares outside ``stop`` that a chain may
    leap on from, a superset of those with an ``over`` square next to them and a
    ``land`` square beyond; the fill ends a round sooner when it says none can."""
    # ((f << d) & over) << d is (f << 2d) & (over << d): shift ``over`` once, not each round.
    o1, o1m, o15, o15m = over << 1, over >> 1, over << 15, over >> 15
    o16, o16m, o17, o17m = over << 16, over >> 16, over << 17, over >> 17
    if onward is None:
        onward = ~stop
    reached = frontier = start
    land &= ~start
    while frontier:
        f = frontier
        new = (((f << 2) & o1) | ((f >> 2) & o1m) | ((f << 30) & o15) | ((f >> 30) & o15m)
               | ((f << 32) & o16) | ((f >> 32) & o16m) | ((f << 34) & o17)
               | ((f >> 34) & o17m)) & land
        land ^= new
        reached |= new
        frontier = new & onward
    return reached


def colour_bits(board: list[int]) -> tuple[int, int]:
    """(White's, Black's) bitboards of a board."""
    white = black = 0
    for sq, v in enumerate(board):
        if v > 0:
            white |= BIT[sq]
        elif v < 0:
            black |= BIT[sq]
    return white, black


def square(file: int, rank: int) -> int:
    """Square at file index (0 = A) and rank (1‥16); ValueError off the board."""
    try:
        return _INDEX[(file, rank)]
    except KeyError:
        raise ValueError(f"no square at file {file}, rank {rank}") from None


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def square_file(sq: int) -> int:
    return SQUARE_COORDS[sq][0]


def square_rank(sq: int) -> int:
    return SQUARE_COORDS[sq][1]


def parse_square(text: str) -> int:
    """``'F7'`` or ``'f7'`` → square. Raises NotationError."""
    sq = _BY_NAME.get(text.strip().upper())
    if sq is None:
        raise NotationError(f"{text!r} is not a square of the Camelot board")
    return sq


def is_adjacent(a: int, b: int) -> bool:
    return b in ADJACENT[a]


# --- pieces ----------------------------------------------------------------
MAN, KNIGHT = 1, 2
PIECE_LETTERS = {1: "M", 2: "N", -1: "m", -2: "n"}
LETTER_PIECES = {v: k for k, v in PIECE_LETTERS.items()}


@dataclass(frozen=True)
class Piece:
    """A piece as the UI sees it: colour ``'white'``/``'black'``, kind ``'man'``/``'knight'``."""

    color: str
    kind: str

    @property
    def symbol(self) -> str:
        """Position-string letter: M N (White), m n (Black)."""
        letter = "N" if self.kind == "knight" else "M"
        return letter if self.color == "white" else letter.lower()

    @classmethod
    def from_code(cls, code: int) -> "Piece":
        return _PIECES[code]

    def __str__(self) -> str:
        return f"{self.color} {self.kind}"


_PIECES = {c: Piece("white" if c > 0 else "black", "knight" if abs(c) == 2 else "man")
           for c in (1, 2, -1, -2)}


# --- moves -------------------------------------------------------------------
PLAIN, CANTER, JUMP, CHARGE, CASTLE_MOVE = "plain", "canter", "jump", "charge", "castle"
NO_CAPTURES: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Move:
    """One legal move: a distinct (from, to, captured squares) — a distinct result.

    ``paths`` holds every way of playing it (tuples of squares, start first), the
    canonical one first; it and ``kind`` (the first path's kind) take no part in
    equality or hashing, so any path of a move names the same move.
    """

    from_square: int
    to_square: int
    captured: frozenset[int] = NO_CAPTURES
    kind: str = field(default=PLAIN, compare=False)
    paths: tuple[tuple[int, ...], ...] = field(default=(), compare=False)

    @property
    def path(self) -> tuple[int, ...]:
        """The path that is played and written: the first one."""
        return self.paths[0] if self.paths else (self.from_square, self.to_square)

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def steps(self) -> tuple["MoveStep", ...]:
        """The legs of the path played, in order (what an animation follows)."""
        return path_legs(self.path, self.captured)

    @property
    def captures(self) -> tuple[int, ...]:
        """The captured squares in the order the path jumps them."""
        return tuple(step.captured for step in self.steps if step.captured is not None)

    def with_path(self, path: tuple[int, ...]) -> "Move":
        """The same move, played along ``path`` (which must be one of its paths)."""
        path = tuple(path)
        if path not in self.paths:
            raise ValueError(f"{path_text(path, self.captured)} is not a path of this move")
        rest = tuple(p for p in self.paths if p != path)
        return replace(self, kind=path_kind(path, self.captured), paths=(path,) + rest)

    def __str__(self) -> str:
        return path_text(self.path, self.captured)

    def __repr__(self) -> str:
        return f"Move({self})"


@dataclass(frozen=True)
class MoveStep:
    """One leg of a path: ``kind`` is plain, canter, jump or castle; ``captured``
    the square it jumped and emptied (None unless a jump)."""

    source: int
    target: int
    kind: str
    captured: int | None = None

    @property
    def is_leap(self) -> bool:
        """Whether the piece leaps (canter or jump) rather than steps."""
        return self.kind in (CANTER, JUMP)


def path_legs(path: tuple[int, ...], captured: frozenset[int] = NO_CAPTURES
              ) -> tuple[MoveStep, ...]:
    """The legs of ``path`` as :class:`MoveStep` records."""
    legs = []
    for a, b, took in path_steps(path, captured):
        kind = path_kind((a, b), frozenset([took]) if took is not None else NO_CAPTURES)
        legs.append(MoveStep(a, b, kind, took))
    return tuple(legs)


def path_steps(path: tuple[int, ...], captured: frozenset[int] = NO_CAPTURES):
    """Each step of a path as (from, to, square captured or None)."""
    for a, b in zip(path, path[1:]):
        over = MIDPOINT.get((a, b))
        yield a, b, (over if over in captured else None)


def path_text(path: tuple[int, ...], captured: frozenset[int] = NO_CAPTURES) -> str:
    """WCF notation: ``-`` before a square reached by a plain move or canter, ``x``
    before one reached by a jump."""
    parts = [SQUARE_NAMES[path[0]]]
    for _, b, took in path_steps(path, captured):
        parts.append(("x" if took is not None else "-") + SQUARE_NAMES[b])
    return "".join(parts)


def path_kind(path: tuple[int, ...], captured: frozenset[int]) -> str:
    if len(path) == 2 and is_adjacent(path[0], path[1]):
        in_castle = path[0] in CASTLE_SQUARES and path[1] in CASTLE_SQUARES
        return CASTLE_MOVE if in_castle else PLAIN
    jumps = sum(1 for *_, took in path_steps(path, captured) if took is not None)
    if jumps == 0:
        return CANTER
    return JUMP if jumps == len(path) - 1 else CHARGE


def _path_order(path: tuple[int, ...], captured: frozenset[int]):
    # Canonical path: fewest canters (a pure jump before a charge), then shortest.
    canters = sum(1 for *_, took in path_steps(path, captured) if took is None)
    return canters, len(path), path


def make_move(key: tuple[int, int, frozenset[int]], paths) -> Move:
    frm, to, caps = key
    ordered = tuple(sorted(set(paths), key=lambda p: _path_order(p, caps)))
    return Move(frm, to, caps, path_kind(ordered[0], caps), ordered)


def move_sort_key(move: Move):
    return move.from_square, move.to_square, sorted(move.captured)


# --- generation -------------------------------------------------------------
def can_jump(board: list[int], sq: int, sign: int) -> bool:
    """Whether a piece of colour ``sign`` standing on ``sq`` could jump now."""
    for over, land in LEAPS[sq]:
        if board[over] * sign < 0 and board[land] == 0:
            return True
    return False


def pieces_in_own_castle(board: list[int], side: int) -> list[int]:
    sign = 1 if side == WHITE else -1
    return [sq for sq in CASTLES[side] if board[sq] * sign > 0]


def capture_is_compulsory(board: list[int], side: int, squares) -> bool:
    """Whether some piece of ``side`` (on ``squares``) can jump an enemy piece."""
    sign = 1 if side == WHITE else -1
    enemy_castle = CASTLES[1 - side]
    return any(sq not in enemy_castle and can_jump(board, sq, sign) for sq in squares)


def generate(board: list[int], side: int, castle_moves_left: int, squares,
             want_paths: bool = False, captures_only: bool = False,
             compulsory: bool | None = None, bits: tuple[int, int] | None = None) -> dict:
    """The legal moves of ``side`` whose pieces stand on ``squares``.

    Returns ``{(from, to, captured frozenset): [paths] or None}``. The board is
    used as scratch space and is exactly as before on return. ``captures_only``
    (for quiescence search) lists just the capturing moves — all the legal moves
    when capture is compulsory — and ignores the duty to leave one's own castle.
    ``compulsory`` may pass on what :func:`capture_is_compulsory` already said,
    ``bits`` the (White, Black) bitboards of ``board``. Without paths, the
    bitboard generator :func:`~game.camelot_movekeys.move_keys` answers (same
    keys, same order); this one walks every path.
    """
    if not want_paths:
        from .camelot_movekeys import move_keys  # it builds on this module's tables
        squares = sorted(squares)
        within = 0
        for sq in squares:
            within |= BIT[sq]
        if bits is None:
            bits = colour_bits(board)
        return move_keys(board, side, castle_moves_left, bits, captures_only, compulsory,
                         squares, within)
    sign = 1 if side == WHITE else -1
    own_castle = CASTLES[side]
    enemy_castle = CASTLES[1 - side]
    out: dict = {}

    def record(origin, path, caps):
        out.setdefault((origin, path[-1], frozenset(caps) if caps else NO_CAPTURES),
                       []).append(tuple(path))

    def jumps(origin, at, path, caps):
        # Must go on jumping while it can; the opponent's castle ends the move.
        went_on = False
        if at not in enemy_castle:
            for over, land in LEAPS[at]:
                jumped = board[over]
                if jumped * sign < 0 and board[land] == 0:
                    went_on = True
                    board[over] = 0  # captured pieces vanish at once
                    path.append(land)
                    caps.append(over)
                    jumps(origin, land, path, caps)
                    caps.pop()
                    path.pop()
                    board[over] = jumped
        if not went_on:
            record(origin, path, caps)

    def canters(origin, at, path, visited, knight, compulsory, must_capture):
        for over, land in LEAPS[at]:
            if (board[land] != 0 or board[over] * sign <= 0 or land in visited
                    or land in own_castle):
                continue
            path.append(land)
            if land in enemy_castle:
                # The move ends here; a canter chain there captures nothing.
                if not compulsory and not must_capture:
                    record(origin, path, ())
            else:
                visited.add(land)
                # A knight landing where it could jump must capture in this move.
                threat = knight and can_jump(board, land, sign)
                if threat:
                    jumps(origin, land, path, [])
                elif not compulsory and not must_capture:
                    record(origin, path, ())
                canters(origin, land, path, visited, knight, compulsory, must_capture or threat)
                visited.discard(land)
            path.pop()

    def piece_moves(sq, compulsory):
        code = board[sq]
        if sq in enemy_castle:
            # Never leaves; may step to the other castle square (a castle move).
            other = enemy_castle[0] if sq == enemy_castle[1] else enemy_castle[1]
            if not compulsory and castle_moves_left > 0 and board[other] == 0:
                record(sq, [sq, other], ())
            return
        knight = code * sign == KNIGHT
        board[sq] = 0  # vacated: a jump chain may land on its own start square
        if compulsory:
            if can_jump(board, sq, sign):
                jumps(sq, sq, [sq], [])
        else:
            for to in ADJACENT[sq]:
                if board[to] == 0 and to not in own_castle:
                    record(sq, [sq, to], ())
        if knight or not compulsory:
            canters(sq, sq, [sq], {sq}, knight, compulsory, False)
        board[sq] = code

    if not captures_only:
        # A piece that ended its move in its own castle must come out now (this
        # overrides compulsory capture elsewhere); if it can jump out it must.
        for sq in CASTLES[side]:
            if board[sq] * sign > 0:
                piece_moves(sq, can_jump(board, sq, sign))
        if out:
            return out

    squares = list(squares)
    if compulsory is None:
        compulsory = any(sq not in enemy_castle and can_jump(board, sq, sign) for sq in squares)
    if captures_only and not compulsory:
        # Only a knight's charge can capture now.
        for sq in squares:
            code = board[sq]
            if code * sign == KNIGHT and sq not in enemy_castle:
                board[sq] = 0
                canters(sq, sq, [sq], {sq}, True, True, False)
                board[sq] = code
        return out
    for sq in squares:
        piece_moves(sq, compulsory)
    return out
