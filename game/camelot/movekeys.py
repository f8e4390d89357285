"""Camelot move generation for search: move keys only, from bitboards.

The search wants ``{(from, to, captured frozenset): None}`` and no paths, as
cheaply as CPython allows, so this generator (used by
:meth:`Position.moves <game.camelot.position.Position.moves>` and
``captures``, and by :func:`~game.camelot.moves.generate` without paths) works
on the colour bitboards and per-square tables:

- one bitboard per call says which pieces can jump (``jumpers``) and which can
  canter at all (``canterers``); the other pieces are never looked at again for
  leaps, and a capture-only call visits only jumpers and cantering knights;
- canters end wherever a flood fill of leaps over friendly pieces reaches (the
  board does not change while cantering, so the squares where chains end are
  those the fill reaches); only jump chains, which remove pieces as they go,
  are walked square by square.

The keys are those of the path generator in :mod:`game.camelot.moves` (the
tests compare them). Their order is the search's tie-break and has not changed
since the search was tuned: piece by piece in square order, a piece's plain
moves (in direction order), then its jumps or charges, then the ends of its
canters in square order.
"""
from __future__ import annotations

from .geometry import (
    ADJACENT, BIT, CASTLES, KNIGHT, LEAPS, NO_CAPTURES, ON_BOARD, SQUARE_AT_BIT as SQUARE_AT,
    bit_squares, canter_fill, leap_sources)

CASTLE_BITS = tuple(BIT[a] | BIT[b] for a, b in CASTLES)
# Plain-move targets that are not the mover's own castle, per side.
STEPS = tuple(tuple(tuple(to for to in ADJACENT[sq] if to not in CASTLES[side])
                    for sq in range(160)) for side in (0, 1))
NEIGHBOURS = tuple(sum(BIT[n] for n in ADJACENT[sq]) for sq in range(160))
# BEYOND[sq][BIT[over]]: (over, landing square) of the leap from sq over a neighbour.
BEYOND = tuple({BIT[over]: (over, land) for over, land in LEAPS[sq]} for sq in range(160))
# A bit walk over the neighbours then meets the leaps in LEAPS' (direction) order.
assert all(sorted(LEAPS[sq], key=lambda leap: BIT[leap[0]]) == list(LEAPS[sq]) for sq in range(160))


def step_targets(bits, side: int) -> int:
    """Bitboard of the empty squares a piece of ``side`` could reach by a plain
    move (not from the enemy castle, which a piece never leaves, nor into its
    own): where no capture is compulsory and no piece stands in its own castle,
    each is at least one legal move."""
    mine, theirs = bits[side], bits[1 - side]
    movers = mine & ~CASTLE_BITS[1 - side]
    land = ON_BOARD & ~(mine | theirs) & ~CASTLE_BITS[side]
    return ((movers << 1) | (movers >> 1) | (movers << 15) | (movers >> 15) | (movers << 16)
            | (movers >> 16) | (movers << 17) | (movers >> 17)) & land


def _jump_keys(board: list[int], sign: int, origin: int, at: int, caps: list,
               theirs: int, stop: tuple, out: dict) -> bool:
    """Record the ends of every jump chain from ``at``; whether there was one.
    The piece must go on jumping while it can; the enemy castle, ``stop``, ends
    the move. ``theirs``: the enemy pieces not yet captured; a landing square
    with none of them next to it ends the chain without another call (most do)."""
    went_on = False
    near = theirs & NEIGHBOURS[at]
    beyond = BEYOND[at]
    while near:
        # The enemy neighbours in ascending bit order, which is LEAPS' direction order.
        low = near & -near
        near ^= low
        leap = beyond.get(low)
        if leap is None:
            continue   # the board ends behind it
        over, land = leap
        if board[land] == 0:
            went_on = True
            caps.append(over)
            left = theirs ^ low
            jumped = board[over]
            board[over] = 0  # captured pieces vanish at once
            if not (left & NEIGHBOURS[land] and land not in stop
                    and _jump_keys(board, sign, origin, land, caps, left, stop, out)):
                out[(origin, land, frozenset(caps))] = None
            board[over] = jumped
            caps.pop()
    return went_on


def _canter_keys(board: list[int], sign: int, origin: int, knight: bool, charges_only: bool,
                 mine: int, theirs: int, jump_from: int, land: int, stop_bits: int,
                 onward: int | None, stop: tuple, out: dict) -> None:
    """Record where ``origin``'s canters end (unless ``charges_only``) and, for a
    knight, the charges: a knight landing where it could jump must capture.
    ``jump_from``: the squares from which a jump is possible with the knight still
    on ``origin``; ``land``: the empty squares outside the mover's own castle;
    ``onward``: see :func:`canter_fill`. ``board[origin]`` is empty (vacated)
    when a knight calls this."""
    start = BIT[origin]
    over = mine & ~start
    reached = canter_fill(start, over, land, stop_bits, onward) & ~start
    threats = 0
    if knight and reached:
        if theirs & NEIGHBOURS[origin]:  # the vacated origin is a landing square too
            jump_from |= leap_sources(theirs, start)
        threats = reached & jump_from & ~stop_bits
        rest = threats
        while rest:
            low = rest & -rest
            rest ^= low
            _jump_keys(board, sign, origin, SQUARE_AT[low.bit_length() - 1], [], theirs, stop, out)
        if charges_only:
            return
        if threats:
            # It may stop only where it arrives without landing on such a square.
            reached = canter_fill(start, over, land & ~threats, stop_bits, onward) & ~start
    if charges_only:
        return
    while reached:
        low = reached & -reached
        reached ^= low
        out[(origin, SQUARE_AT[low.bit_length() - 1], NO_CAPTURES)] = None


def move_keys(board: list[int], side: int, castle_left: int, bits, captures_only: bool = False,
              compulsory: bool | None = None, squares=None, within: int | None = None,
              knights: int | None = None, jump_from: int | None = None) -> dict:
    """The legal moves of ``side`` as ``{(from, to, captured frozenset): None}``.

    ``bits`` are the (White, Black) bitboards of ``board``; the board is used as
    scratch space and is as before on return. ``captures_only`` (quiescence)
    lists just the capturing moves — all the legal moves when capture is
    compulsory, else the knights' charges — and ignores the duty to leave one's
    own castle. ``compulsory`` may pass on whether capture is compulsory.
    ``squares``: the squares of the side's pieces in ascending order (None: read
    from ``bits``); ``within`` limits the pieces that move (and that make capture
    compulsory) to a bitboard's squares. ``knights`` may pass on the bitboard of
    the side's knights (a capture listing then looks at no other piece for
    charges), ``jump_from`` what ``leap_sources(theirs, empty)`` is here.
    """
    sign = 1 if side == 0 else -1
    mine, theirs = (bits[0], bits[1]) if side == 0 else (bits[1], bits[0])
    pieces = mine if within is None else mine & within
    own_bits, enemy_bits = CASTLE_BITS[side], CASTLE_BITS[1 - side]
    enemy_castle = CASTLES[1 - side]
    empty = ON_BOARD & ~(mine | theirs)
    land = empty & ~own_bits
    knight_code = KNIGHT * sign
    out: dict = {}
    if jump_from is None:
        jump_from = leap_sources(theirs, empty)  # squares from which a piece could jump

    if not captures_only and mine & own_bits:
        # A piece that ended its move in its own castle must come out now (this
        # overrides compulsory capture elsewhere); if it can jump out it must.
        for sq in CASTLES[side]:
            if BIT[sq] & mine:
                _piece_keys(board, sign, sq, bool(BIT[sq] & jump_from),
                            mine, theirs, jump_from, land, side, out)
        if out:
            return out

    jumpers = jump_from & pieces & ~enemy_bits
    if compulsory is None:
        compulsory = bool(jumpers)
    if (compulsory or captures_only) and knights is not None:
        # Only knights charge: the men that could canter are not visited, and
        # without a knight no canter is looked at.
        knights &= pieces
        leapers = leap_sources(mine, land) if knights else 0
        canterers = leapers & knights
    else:
        leapers = leap_sources(mine, land)  # squares a canter could go on from
        canterers = leapers & pieces
    onward = leapers & ~enemy_bits
    if compulsory or captures_only:
        # Only jumps and knights' charges: visit just the pieces that could make one.
        if not compulsory:
            jumpers = 0
        canterers &= ~enemy_bits
        # A charge ends its canters on an empty square from which it jumps, or on
        # one from which it jumps onto the knight's vacated square.
        charge_from = jump_from & land
        # Only the pieces that could jump or canter, in ascending square order
        # (as ``squares``): a bit walk, not a look at every piece.
        candidates = jumpers | canterers
        while candidates:
            b = candidates & -candidates
            candidates ^= b
            sq = SQUARE_AT[b.bit_length() - 1]
            code = board[sq]
            knight = (code == knight_code and b & canterers
                      and (charge_from or theirs & NEIGHBOURS[sq]))
            if not knight and not b & jumpers:
                continue
            board[sq] = 0  # vacated: a jump chain may land on its own start square
            if b & jumpers:
                _jump_keys(board, sign, sq, sq, [], theirs, enemy_castle, out)
            if knight:
                _canter_keys(board, sign, sq, True, True, mine, theirs, jump_from, land,
                             enemy_bits, onward, enemy_castle, out)
            board[sq] = code
        return out

    steps = STEPS[side]
    if squares is None:
        squares = bit_squares(pieces)
    for sq in squares:
        b = BIT[sq]
        if b & enemy_bits:
            # Never leaves; may step to the other castle square (a castle move).
            other = enemy_castle[0] if sq == enemy_castle[1] else enemy_castle[1]
            if castle_left > 0 and board[other] == 0:
                out[(sq, other, NO_CAPTURES)] = None
            continue
        for to in steps[sq]:
            if board[to] == 0:
                out[(sq, to, NO_CAPTURES)] = None
        if b & canterers:
            code = board[sq]
            if code == knight_code:
                board[sq] = 0
                _canter_keys(board, sign, sq, True, False, mine, theirs, jump_from, land,
                             enemy_bits, onward, enemy_castle, out)
                board[sq] = code
            else:  # a man: where its canters end (the common case, written out)
                reached = canter_fill(b, mine ^ b, land, enemy_bits, onward) & ~b
                while reached:
                    low = reached & -reached
                    reached ^= low
                    out[(sq, SQUARE_AT[low.bit_length() - 1], NO_CAPTURES)] = None
    return out


def _piece_keys(board: list[int], sign: int, sq: int, compulsory: bool,
                mine: int, theirs: int, jump_from: int, land: int, side: int,
                out: dict) -> None:
    """The moves of a piece in its own castle, which must leave it (by a jump
    when ``compulsory``)."""
    enemy_castle = CASTLES[1 - side]
    code = board[sq]
    knight = code * sign == KNIGHT
    board[sq] = 0
    if compulsory:
        _jump_keys(board, sign, sq, sq, [], theirs, enemy_castle, out)
    else:
        for to in STEPS[side][sq]:
            if board[to] == 0:
                out[(sq, to, NO_CAPTURES)] = None
    if knight or not compulsory:
        _canter_keys(board, sign, sq, knight, compulsory, mine, theirs, jump_from, land,
                     CASTLE_BITS[1 - side], None, enemy_castle, out)
    board[sq] = code

