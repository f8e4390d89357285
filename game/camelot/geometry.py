"""Camelot (the board game): the squares, their geometry and bitboards.

Squares are small ints 0‥159 in the WCF's order (F1, G1, C2 … J15, F16, G16:
rank 1 first, left to right), like python-chess's square numbers. The board is a
plain list of 160 ints (``0`` empty, ``±1`` man, ``±2`` knight; White is
positive) and geometry is precomputed: ``ADJACENT[sq]`` (plain-move targets) and
``LEAPS[sq]`` ((jumped square, landing square) pairs), so move generation never
checks bounds. Bitboards (Python ints, ``BIT[sq]``) answer questions about many
squares at once: where a piece could jump from, where canters end.

Both move generators build on this module: :mod:`game.camelot.moves` (every
path, for play) and :mod:`game.camelot.movekeys` (keys only, for search).
"""
from __future__ import annotations

from ..errors import NotationError

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


MAN, KNIGHT = 1, 2
NO_CAPTURES: frozenset[int] = frozenset()
