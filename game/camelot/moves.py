"""Camelot (the board game): the Move value type, notation and move generation.

The squares, their geometry tables and bitboards are in
:mod:`game.camelot.geometry` (and importable from here too).

:func:`generate` lists the legal moves of one side as a dict keyed by
``(from, to, captured squares)`` — one entry per distinct resulting position —
optionally with every path that reaches it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .geometry import (  # the geometry was here first: its names stay importable
    ADJACENT, BIT, BLACK, CASTLES, CASTLE_SQUARES, COLOR_NAMES, DIRECTIONS, FILES, KNIGHT,
    LEAPS, MAN, MIDPOINT, NO_CAPTURES, ON_BOARD, SHIFTS, SQUARES, SQUARE_AT_BIT, SQUARE_COORDS,
    SQUARE_NAMES, WHITE, bit_squares, canter_fill, colour_bits, is_adjacent, jump_squares,
    leap_sources, parse_square, rank_span, square, square_file, square_name, square_rank)
from .movekeys import move_keys

# --- pieces ----------------------------------------------------------------
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
    if not captured:
        return CANTER                   # no step can be a jump
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
    unique = set(paths)
    # Most moves have one path: nothing to order (the game server's main cost per move).
    ordered = (tuple(unique) if len(unique) == 1
               else tuple(sorted(unique, key=lambda p: _path_order(p, caps))))
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
    bitboard generator :func:`~game.camelot.movekeys.move_keys` answers (same
    keys, same order); this one walks every path.
    """
    if not want_paths:
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
