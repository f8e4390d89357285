"""Endgame tablebase for the board game: every position of three pieces (two
against one) solved exactly by retrograde analysis, with the distance to the win.

Why two against one is all there is to three pieces: one against one is a draw
at once, and the lone piece can never win (it cannot fill a castle, taking a
piece leaves one against one, and a side without a move only loses if the other
has two pieces). So a three-piece position is either a win for the side with two
pieces, in N plies, or a draw; the table stores N (0: the game is over, won).

The state is the two pieces' squares and kinds, the lone piece's square (its
kind never matters: a lone piece has nothing to canter over, so no charge),
the side to move, and both sides' castle moves left (0-2): 3 kinds of pair x
160^3 squares x 2 sides x 9 castle counts. The moves are the engine's rules
(game/camelot/movekeys.py), written here as array operations over all the
positions at once (tests/game/test_camelot_tablebase.py checks them position by
position against the engine's own move generator):

- the side with two pieces (White here; Black's positions are looked up
  mirrored) wins at once by any capture: so a position where it may capture is
  a win in 1; where the lone piece may (must) capture, it is a draw;
- a piece that ended its move in its own castle must come out first (if it can
  move at all), the capture duty elsewhere then yields to it;
- a piece in the enemy castle never leaves; it may step to the other castle
  square while its side has castle moves left;
- quiet moves: plain steps (never into one's own castle), and a canter over the
  partner piece (a single leap: there is no third piece to chain over);
- no move: the lone side loses, the pair draws; both castle squares taken: won.

What the table leaves out: the 50-move count and repetitions (it gives the
distance as if neither ran out; a search that probes it keeps its own
repetition rule). Built with numpy in about a minute a kind of pair on an idle
core (``build``), kept in a cache file (``load``), probed by ``probe``.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .geometry import CASTLES, DIRECTIONS, SQUARE_COORDS

N = 160          # squares
NONE = N         # "no square": the padding index of every table
UNKNOWN = 255    # not a win (a draw) in the finished table
MAN, KNIGHT = 1, 2
PAIRS = ((MAN, MAN), (MAN, KNIGHT), (KNIGHT, KNIGHT))   # the two pieces' kinds, in order
FORMAT = 1       # of the cache file

_INDEX = {c: i for i, c in enumerate(SQUARE_COORDS)}
WHITE_CASTLE, BLACK_CASTLE = CASTLES


def _geometry():
    """STEP[sq, d]: the adjacent square in direction d; LAND[sq, d]: the one
    beyond it (NONE where off the board)."""
    step = np.full((N + 1, 8), NONE, dtype=np.int64)
    land = np.full((N + 1, 8), NONE, dtype=np.int64)
    for sq, (f, r) in enumerate(SQUARE_COORDS):
        for d, (df, dr) in enumerate(DIRECTIONS):
            step[sq, d] = _INDEX.get((f + df, r + dr), NONE)
            if step[sq, d] != NONE:
                land[sq, d] = _INDEX.get((f + 2 * df, r + 2 * dr), NONE)
    return step, land


STEP, LAND = _geometry()


def _in(squares) -> np.ndarray:
    out = np.zeros(N + 1, dtype=bool)
    out[list(squares)] = True
    return out


IN_WHITE_CASTLE, IN_BLACK_CASTLE = _in(WHITE_CASTLE), _in(BLACK_CASTLE)
OTHER_CASTLE_SQUARE = np.full(N + 1, NONE, dtype=np.int64)
for _castle in CASTLES:
    OTHER_CASTLE_SQUARE[_castle[0]], OTHER_CASTLE_SQUARE[_castle[1]] = _castle[1], _castle[0]
del _castle

# Axes: a (first of the pair), b (second), w (the lone piece); each N + 1 long.
_A = np.arange(N + 1)[:, None, None]
_B = np.arange(N + 1)[None, :, None]
_W = np.arange(N + 1)[None, None, :]


class _Moves:
    """The static part of the rules for one kind of pair: who may capture, which
    moves exist (independent of the values being solved)."""

    def __init__(self, kinds: tuple[int, int]) -> None:
        real = (_A < N) & (_B < N) & (_W < N)
        self.valid = real & (_A != _B) & (_A != _W) & (_B != _W)
        a, b, w = np.broadcast_arrays(_A, _B, _W)
        self.pieces = []   # per piece of the pair: (its axis, partner axis) as arrays
        moves = []
        for own, partner, kind in ((a, b, kinds[0]), (b, a, kinds[1])):
            moves.append(self._piece(own, partner, w, kind))
        (cap_a, any_a), (cap_b, any_b) = moves
        duty_a = IN_WHITE_CASTLE[a] & any_a
        duty_b = IN_WHITE_CASTLE[b] & any_b
        duty = duty_a | duty_b
        # Which of the pair may move: both, unless one must leave its own castle.
        self.may_move = (~duty | duty_a, ~duty | duty_b)
        self.pair_wins_now = self.valid & np.where(duty, (cap_a & duty_a) | (cap_b & duty_b),
                                                  cap_a | cap_b)
        self.castle_full = self.valid & (IN_BLACK_CASTLE[a] & IN_BLACK_CASTLE[b])
        # The lone piece: it must capture where it can (outside the enemy castle).
        lone_captures = np.zeros_like(self.valid)
        for d in range(8):
            over, beyond = STEP[w, d], LAND[w, d]
            lone_captures |= (((over == a) | (over == b)) & (beyond != NONE)
                              & (beyond != a) & (beyond != b))
        self.lone_captures = self.valid & lone_captures & ~IN_WHITE_CASTLE[w]
        self.lone_steps = []
        lone_moves = np.zeros_like(self.valid)
        for d in range(8):
            to = STEP[w, d]
            ok = (self.valid & (to != NONE) & (to != a) & (to != b) & ~IN_BLACK_CASTLE[to]
                  & ~IN_WHITE_CASTLE[w])
            self.lone_steps.append((d, ok))
            lone_moves |= ok
        to = OTHER_CASTLE_SQUARE[w]
        self.lone_castle_move = (self.valid & IN_WHITE_CASTLE[w] & (to != a) & (to != b))
        self.lone_has_step = lone_moves

    @staticmethod
    def _piece(own, partner, w, kind):
        """(may capture, has any move) for one piece of the pair."""
        free = ~IN_BLACK_CASTLE[own]          # a piece in the enemy castle only steps across it
        capture = np.zeros(own.shape, dtype=bool)
        has_move = np.zeros(own.shape, dtype=bool)
        for d in range(8):
            over, beyond = STEP[own, d], LAND[own, d]
            capture |= free & (over == w) & (beyond != NONE) & (beyond != partner)
            has_move |= free & (over != NONE) & (over != partner) & (over != w) & \
                ~IN_WHITE_CASTLE[over]
            # A canter over the partner: onto an empty square outside our castle.
            canter = (free & (over == partner) & (beyond != NONE) & (beyond != w)
                      & ~IN_WHITE_CASTLE[beyond])
            has_move |= canter
            if kind == KNIGHT:
                # A charge: that canter, then a jump from where it landed (not
                # from the enemy castle, where a canter ends the move).
                stop = np.where(canter & ~IN_BLACK_CASTLE[beyond], beyond, NONE)
                for e in range(8):
                    over2, beyond2 = STEP[stop, e], LAND[stop, e]
                    capture |= ((stop != NONE) & (over2 == w) & (beyond2 != NONE)
                                & (beyond2 != partner))
        has_move |= IN_BLACK_CASTLE[own] & (OTHER_CASTLE_SQUARE[own] != partner) & \
            (OTHER_CASTLE_SQUARE[own] != w)   # a castle move (if any are left: see solve)
        return capture, has_move | capture


@dataclass
class Table:
    """One kind of pair, the pair White: ``pair_to_move`` and ``lone_to_move``
    indexed [White's castle moves left, Black's, a, b, w] (each square axis N + 1
    long); a value is the plies to the win, UNKNOWN where it is a draw."""

    kinds: tuple[int, int]
    pair_to_move: np.ndarray
    lone_to_move: np.ndarray


def solve(kinds: tuple[int, int], log=None) -> Table:
    """Retrograde analysis for one kind of pair (White the pair, Black the lone piece)."""
    m = _Moves(kinds)
    shape = (3, 3, N + 1, N + 1, N + 1)
    pair = np.full(shape, UNKNOWN, dtype=np.uint8)
    lone = np.full(shape, UNKNOWN, dtype=np.uint8)
    pair[:, :, m.castle_full] = 0
    lone[:, :, m.castle_full] = 0
    pair[:, :, m.pair_wins_now & ~m.castle_full] = 1
    # The lone side without a move loses at once; with a capture it draws.
    cw_left = np.arange(3)[None, :, None, None, None]
    lone_can_move = (m.lone_has_step | m.lone_captures)[None, None] | (
        m.lone_castle_move[None, None] & (cw_left > 0))
    stuck = m.valid[None, None] & ~lone_can_move & ~m.castle_full[None, None]
    lone[np.broadcast_to(stuck, shape)] = 0
    lone_open = np.broadcast_to(m.valid & ~m.lone_captures & ~m.castle_full, shape) & \
        lone_can_move
    pair_open = np.broadcast_to(m.valid & ~m.pair_wins_now & ~m.castle_full, shape)
    a_idx = np.arange(N + 1)
    may_a, may_b = m.may_move
    # The lone piece's steps, laid out with its square first (w, -, -, a, b).
    lone_steps = [(d, np.ascontiguousarray(np.moveaxis(ok, 2, 0))[:, None, None])
                  for d, ok in m.lone_steps]
    # Where each square's plain step in direction d goes (NONE: not allowed).
    pair_steps = [np.where(IN_WHITE_CASTLE[STEP[a_idx, d]] | IN_BLACK_CASTLE[a_idx], NONE,
                           STEP[a_idx, d]) for d in range(8)]
    # Ply n finds the positions won in n: the pair to move when n is odd (a move
    # to a position won in n - 1), the lone piece to move when n is even (every
    # move leads to a won position, the longest n - 1). A ply finding nothing
    # ends it: the next would need positions of this distance.
    for n in range(1, UNKNOWN):
        if n % 2 == 0:
            todo = lone_open & (lone == UNKNOWN)
            # Gathers along the lone piece's axis, moved first (contiguous blocks).
            resolved = np.ascontiguousarray(np.moveaxis(pair != UNKNOWN, 4, 0))
            ok_all = np.ones(resolved.shape, dtype=bool)
            for d, ok in lone_steps:
                ok_all &= ~ok | resolved[STEP[a_idx, d]]
            ok_all = np.moveaxis(ok_all, 0, 4)
            for w in WHITE_CASTLE:   # castle moves: one fewer left
                to = OTHER_CASTLE_SQUARE[w]
                ok = m.lone_castle_move[:, :, w]
                for cw in (1, 2):
                    ok_all[:, cw, :, :, w] &= ~ok | (pair[:, cw - 1, :, :, to] != UNKNOWN)
            new = todo & ok_all
            lone[new] = n
        else:
            todo = pair_open & (pair == UNKNOWN)
            won = lone == n - 1
            hit = np.zeros(shape, dtype=bool)
            # Gathers along b's axis, moved first (contiguous blocks).
            won_b = np.ascontiguousarray(np.moveaxis(won, 3, 0))
            hit_b = np.zeros(won_b.shape, dtype=bool)
            for to in pair_steps:
                hit |= won[:, :, to, :, :]
                hit_b |= won_b[to]
            hit &= may_a[None, None]
            hit |= np.moveaxis(hit_b, 0, 3) & may_b[None, None]
            # Canters over the partner: the partner next to it, a free square beyond.
            for d in range(8):
                for sq in range(N):
                    over, beyond = STEP[sq, d], LAND[sq, d]
                    if over == NONE or beyond == NONE or IN_WHITE_CASTLE[beyond] \
                            or IN_BLACK_CASTLE[sq]:
                        continue
                    hit[:, :, sq, over, :] |= won[:, :, beyond, over, :] & may_a[sq, over]
                    hit[:, :, over, sq, :] |= won[:, :, over, beyond, :] & may_b[over, sq]
            for sq in BLACK_CASTLE:   # castle moves: one fewer left
                to = OTHER_CASTLE_SQUARE[sq]
                for cs in (1, 2):
                    hit[cs, :, sq, :, :] |= won[cs - 1, :, to, :, :] & may_a[None, sq]
                    hit[cs, :, :, sq, :] |= won[cs - 1, :, :, to, :] & may_b[None, :, sq]
            new = todo & hit
            pair[new] = n
        found = int(np.count_nonzero(new))
        if log is not None:
            log(f"ply {n}: {found} positions")
        if not found and n >= 2:
            break
    return Table(kinds, pair, lone)


# --- files and probing -----------------------------------------------------------------
NAMES = {(MAN, MAN): "mm", (MAN, KNIGHT): "mn", (KNIGHT, KNIGHT): "nn"}


def tablebase_dir() -> Path:
    """Where the tables are kept: ``ROUNDTABLE_TABLEBASE``, else the user's cache."""
    folder = os.environ.get("ROUNDTABLE_TABLEBASE")
    if folder:
        return Path(folder)
    import platformdirs   # only when a table is first looked for
    return Path(platformdirs.user_cache_dir("roundtable", appauthor=False)) / "camelot-tablebase"


def _file(folder: Path, kinds, side: str) -> Path:
    return folder / f"camelot-3-{NAMES[kinds]}-{side}-v{FORMAT}.npy"


def save(table: Table, folder: Path) -> None:
    """Both halves of one table as .npy files (each written whole, then renamed)."""
    folder.mkdir(parents=True, exist_ok=True)
    for side, array in (("pair", table.pair_to_move), ("lone", table.lone_to_move)):
        target = _file(folder, table.kinds, side)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                np.save(out, array)
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


class Tablebase:
    """The three tables, memory-mapped from ``folder`` (only the pages probed
    are read). ``available`` is False when a file is missing or damaged."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else tablebase_dir()
        self.tables: dict = {}
        self.problem = ""
        shape = (3, 3, N + 1, N + 1, N + 1)
        for kinds in PAIRS:
            halves = []
            for side in ("pair", "lone"):
                path = _file(self.folder, kinds, side)
                try:
                    array = np.load(path, mmap_mode="r")
                except (OSError, ValueError) as exc:
                    self.problem = f"{path.name}: {exc}"
                    break
                if array.shape != shape or array.dtype != np.uint8:
                    self.problem = f"{path.name}: not a table of this format"
                    break
                halves.append(array)
            else:
                self.tables[kinds] = Table(kinds, *halves)
                continue
            self.tables.clear()
            break

    @property
    def available(self) -> bool:
        return len(self.tables) == len(PAIRS)

    def probe(self, pos) -> "Probe | None":
        """The exact value of a three-piece position (two against one) for the
        side to move, or None (more pieces, or no table)."""
        white, black = pos.bits
        if (white | black).bit_count() != 3 or not white or not black or not self.tables:
            return None
        board = pos.board
        pair_side = 0 if white.bit_count() == 2 else 1
        sides = pos.pieces
        pair, (lone,) = sorted(sides[pair_side], key=lambda sq: (abs(board[sq]), sq)), \
            sides[1 - pair_side]
        kinds = (abs(board[pair[0]]), abs(board[pair[1]]))
        a, b, w = pair[0], pair[1], lone
        castles = pos.castle_left
        cs, cw = castles[pair_side], castles[1 - pair_side]
        if pair_side == 1:   # Black's pair: looked up in White's table, the board turned over
            a, b, w = MIRROR[a], MIRROR[b], MIRROR[w]
        table = self.tables[kinds]
        if pos.side == pair_side:
            value = int(table.pair_to_move[cs, cw, a, b, w])
            return Probe("draw", None) if value == UNKNOWN else Probe("win", value)
        value = int(table.lone_to_move[cs, cw, a, b, w])
        return Probe("draw", None) if value == UNKNOWN else Probe("loss", value)


@dataclass(frozen=True)
class Probe:
    """A tablebase answer for the side to move: ``result`` win, loss or draw,
    ``plies`` to the end of the game with best play (None for a draw)."""

    result: str
    plies: int | None

    def __str__(self) -> str:
        if self.result == "draw":
            return "draw"
        return f"{self.result} in {self.plies}"


# A square turned over (rank r <-> 17 - r): Black's castle becomes White's.
MIRROR = np.array([_INDEX[(f, 17 - r)] for f, r in SQUARE_COORDS] + [NONE], dtype=np.int64)

_shared: Tablebase | None = None


def shared() -> Tablebase:
    """The process's tablebase, opened on first use."""
    global _shared
    if _shared is None:
        _shared = Tablebase()
    return _shared


def build(folder: Path | None = None, log=print) -> None:
    """Solve and save the three tables."""
    folder = Path(folder) if folder is not None else tablebase_dir()
    for kinds in PAIRS:
        log(f"solving {NAMES[kinds]} against one")
        save(solve(kinds), folder)
    log(f"written to {folder}")


__all__ = ["Table", "Tablebase", "Probe", "solve", "save", "build", "shared", "tablebase_dir",
           "PAIRS", "UNKNOWN", "MAN", "KNIGHT"]


def main(argv=None) -> int:
    """``python -m game.camelot.tablebase build [--dir D]``: solve and save the tables."""
    import argparse
    import time
    ap = argparse.ArgumentParser(prog="python -m game.camelot.tablebase",
                                 description="the board game's three-piece endgame tablebase")
    ap.add_argument("command", choices=["build", "check"])
    ap.add_argument("--dir", help=f"the tables' folder (default: {tablebase_dir()})")
    args = ap.parse_args(argv)
    folder = Path(args.dir) if args.dir else tablebase_dir()
    if args.command == "check":
        table = Tablebase(folder)
        print(f"{folder}: " + ("complete" if table.available else f"not usable: {table.problem}"))
        return 0 if table.available else 1
    started = time.monotonic()
    build(folder)
    print(f"built in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
