"""The board-game engine's static evaluation (100 ≈ a man).

Three parts, their weights fitted to the engine's own games (Texel's method,
``bench/camelot_texel.py``; the run that produced them is named below):

- **Piece-square values** (``PST[code][square]``, White's view): material plus
  progress toward the enemy castle, a bonus for being one to five steps from it
  (at its door most; a lone piece inside less, as it can hardly move again),
  a bonus for a defender within two steps of its own castle,
  a small cost on the four outer files. The search keeps their sum up to date
  move by move (:func:`pst_delta`), so a leaf costs no loop over the pieces.
- **The castle race** (:func:`race`): for each side, how many king steps its
  two nearest pieces need, together, to reach the enemy castle (two there win),
  against the defenders that stand near that castle and how soon the nearest one
  could be back. A race the defence cannot stop in time scores like most of a
  piece, growing as the attackers close in, so the search sees it coming many
  moves before the castle falls and does not walk its last defenders away.
  Computed from bitboards with precomputed distance rings: a few microseconds.
- **The tempo**: the side to move is worth a little more.
"""
from __future__ import annotations

from .moves import ADJACENT, BIT, CASTLES, SQUARE_COORDS
from .movekeys import CASTLE_BITS

# Fitted by Texel's method (bench/camelot_texel.py), third round: 107,470 quiet
# positions of 2,500 self-play games at 300 nodes a move with the second round's
# weights, from random openings (4-8 plies) that reach no position of the match
# suite; ridge 1e-8 toward those weights. The error of the predicted result on
# the half of the games not fitted (two folds, by game) fell 0.0991 -> 0.0985.
# A lone piece inside the enemy castle is worth less than one at its door: it
# can hardly move again, and the castle race counts what it threatens.
# Matched against the second round at 3,000 nodes a move on the suite: 129 pairs,
# +52.9 ± 40.6 Elo (95 %: +13 … +94), unfinished SPRT (LLR +2.68 of 2.94).
# The second round (3,000 games from such openings; 0.1038 -> 0.1011; +81.5 ±
# 50.2 Elo at 3,000 nodes a move against the first): knight 134, a step 7,
# castle approach 101, 172, 106, 30, 54, 34, home guard 54, outer file -42,
# race 90 %, tempo 29. The first round (800 games from the suite's openings,
# +49.5 ± 50.5 Elo against the hand-set weights): knight 134, a step 4, castle
# approach 245, 238, 223, 180, 164, 88, home guard 112, outer file -34, tempo 37.
MAN_VALUE, KNIGHT_VALUE = 100, 186
PROGRESS_STEP = 7          # a step nearer the enemy castle
# Added at 0 (inside), 1, 2 … 5 steps from the enemy castle.
CASTLE_APPROACH = (-98, 170, 117, 23, 50, 23)
HOME_GUARD = 37            # a piece within two steps of its own castle
OUTER_FILE = -52           # a piece on file A, B, K or L
RACE_SCALE = 82            # percent: the castle race's weight in the whole
TEMPO = 31                 # the side to move's

# Value of a race whose two nearest attackers are, together, this many king
# steps from the castle (they need that many moves to win, at best).
RACE_TOTAL = (0, 620, 480, 370, 280, 210, 150, 105, 70, 45, 26, 12, 5)
RACE_HORIZON = 12
UNSTOPPABLE = 220        # extra when no defender can be back before the attackers
GUARD_FACTOR = (16, 9, 5, 3)    # tenths: 0, 1, 2, 3+ defenders within two steps
OUTNUMBERED = 70         # per attacker within two steps beyond the defenders there


def castle_distance(sq: int, castle: tuple[int, int]) -> int:
    """King steps from ``sq`` to the nearer square of ``castle`` (0 inside it)."""
    f, r = SQUARE_COORDS[sq]
    return min(max(abs(f - SQUARE_COORDS[c][0]), abs(r - SQUARE_COORDS[c][1])) for c in castle)


# DISTANCE[c][sq]: steps from sq to the castle owned by colour c; RINGS[c][d]: the
# bitboard of the squares exactly d steps from it.
DISTANCE = tuple(tuple(castle_distance(sq, CASTLES[c]) for sq in range(160)) for c in (0, 1))
RINGS = tuple(tuple(sum(BIT[sq] for sq in range(160) if DISTANCE[c][sq] == d) for d in range(16))
              for c in (0, 1))
GUARD_ZONE = tuple(RINGS[c][0] | RINGS[c][1] | RINGS[c][2] for c in (0, 1))
# A race counts only while its two nearest attackers are together fewer than
# len(RACE_TOTAL) steps away, so the nearer within half of that: the squares there.
RACE_REACH = tuple(sum(RINGS[c][d] for d in range((len(RACE_TOTAL) - 1) // 2 + 1))
                   for c in (0, 1))


# For each square of the enemy castle held, per side: the other one's bit and the
# bits of the squares next to that other one (not the held one).
_STEP_IN = tuple(tuple((BIT[held], BIT[free], sum(BIT[n] for n in ADJACENT[free] if n != held))
                       for held, free in (CASTLES[1 - side], CASTLES[1 - side][::-1]))
                 for side in (0, 1))
_REACH_WHITE, _REACH_BLACK = RACE_REACH   # near White's castle, near Black's


def _square_value(side: int, sq: int) -> int:
    """A piece's piece-square value without its material (White's view of White)."""
    d = DISTANCE[1 - side][sq]
    value = (15 - d) * PROGRESS_STEP
    if d < len(CASTLE_APPROACH):
        value += CASTLE_APPROACH[d]
    if DISTANCE[side][sq] <= 2:
        value += HOME_GUARD
    if SQUARE_COORDS[sq][0] in (0, 1, 10, 11):
        value += OUTER_FILE
    return round(value)


def _piece_tables() -> dict[int, tuple[int, ...]]:
    tables = {}
    for code in (1, 2, -1, -2):
        side = 0 if code > 0 else 1
        base = KNIGHT_VALUE if abs(code) == 2 else MAN_VALUE
        values = []
        for sq in range(160):
            v = base + _square_value(side, sq)
            values.append(v if side == 0 else -v)
        tables[code] = tuple(values)
    return tables


PST = _piece_tables()


def pst_total(board: list[int]) -> int:
    """The piece-square sum of a board, White's view (the search then updates it)."""
    return sum(PST[v][sq] for sq, v in enumerate(board) if v)


def pst_delta(board: list[int], frm: int, to: int, caps) -> int:
    """How the piece-square sum changes when the move is played (before push)."""
    table = PST[board[frm]]
    delta = table[to] - table[frm]
    for sq in caps:
        delta -= PST[board[sq]][sq]
    return delta


def race(attackers: int, defenders: int, castle: int) -> int:
    """The castle race for one attacking side (bitboards) against the castle of
    colour ``castle``: 0 when far, up to several hundred when close and open.
    Both pieces must arrive, one move a turn, so the race is measured by the sum
    of the two nearest attackers' distances."""
    if not attackers & RACE_REACH[castle]:
        return 0   # the nearest is too far for any race (the common case)
    rings = RINGS[castle]
    first = second = -1
    for d in range(RACE_HORIZON):
        count = (attackers & rings[d]).bit_count()
        if count:
            if first < 0:
                first = d
                if count >= 2:
                    second = d
                    break
            else:
                second = d
                break
    if second < 0 or first + second >= len(RACE_TOTAL):
        return 0
    value = RACE_TOTAL[first + second]
    zone = GUARD_ZONE[castle]
    guards = (defenders & zone).bit_count()
    value = value * GUARD_FACTOR[min(guards, 3)] // 10
    near = (attackers & zone).bit_count()
    if near > guards:
        value += OUTNUMBERED * (near - guards)
    if not guards:
        back = 16
        for d in range(3, second + 2):
            if defenders & rings[d]:
                back = d
                break
        if back > second:  # no defender can be back before the second attacker arrives
            value += UNSTOPPABLE + value
    return value


def race_score(bits: list[int] | tuple[int, int]) -> int:
    """White's race minus Black's (White's view)."""
    white, black = bits
    # Most positions have no attacker near enough for a race: two bit tests
    # then, not two calls.
    score = race(white, black, 1) if white & _REACH_BLACK else 0
    if black & _REACH_WHITE:
        score -= race(black, white, 0)
    return score * RACE_SCALE // 100


def evaluate_from(pst: int, bits: list[int] | tuple[int, int], side: int) -> int:
    """The static score, side to move's view, from the piece-square sum ``pst``."""
    score = pst + race_score(bits)
    return (score if side == 0 else -score) + TEMPO


def castle_step_threat(bits: list[int] | tuple[int, int], side: int) -> bool:
    """Whether ``side`` holds one square of the enemy castle and a piece of its own
    could step into the other, empty one: a win next move if nothing is forced.
    ``bits``: the (White, Black) bitboards."""
    mine = bits[side]
    if not mine & CASTLE_BITS[1 - side]:
        return False   # (nearly always)
    occupied = bits[0] | bits[1]
    for held, free, beside in _STEP_IN[side]:
        if mine & held and not occupied & free and mine & beside:
            return True
    return False


__all__ = ["PST", "pst_total", "pst_delta", "race", "race_score", "evaluate_from",
           "castle_step_threat", "DISTANCE", "MAN_VALUE", "KNIGHT_VALUE", "TEMPO"]
