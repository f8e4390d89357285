"""Camelot position: the state, fast push/pop for search, end-of-game rules,
Zobrist keys and position strings.

Position string (see docs/rules-camelot-board.md): ranks 16 down to 1 separated
by ``/``, each listing only its own squares (``M`` ``N`` White man/knight, ``m``
``n`` Black, a number for empty squares); then the side to move (``w``/``b``)
and the castle moves each side has left (White first). Two optional fields
follow: the repetition history — ``-`` or the comma-separated 16-hex-digit keys
of the earlier positions that can still repeat (those since the last capture or
castle entry), oldest first — and the count of plies since the last capture or
castle entry (the 50-move count).
"""
from __future__ import annotations

import random
import re

from .moves import (
    CASTLE_SQUARES, CASTLES, KNIGHT, LETTER_PIECES, NO_CAPTURES, PIECE_LETTERS, SQUARE_NAMES, WHITE,
    BIT, ON_BOARD, colour_bits, generate, leap_sources, rank_span, square)
from .geometry import bit_squares
from .movekeys import CASTLE_BITS, move_keys
from ..errors import BadPositionError
from ..parsing import parse_int

DRAW_PLIES = 100  # 50 moves by each side with no capture and no castle entry
REPETITIONS = 3

# Zobrist keys from a fixed seed, so keys (and saved histories) are stable.
_rng = random.Random(0xC0FFEE)
ZOBRIST_PIECE = {code: tuple(_rng.getrandbits(64) for _ in range(160)) for code in (1, 2, -1, -2)}
ZOBRIST_BLACK = _rng.getrandbits(64)
ZOBRIST_CASTLE_LEFT = tuple(tuple(_rng.getrandbits(64) for _ in range(3)) for _ in range(2))
del _rng
# The same piece keys in a list indexed by piece code (-2 and -1 count from the end).
_ZOBRIST = [None, ZOBRIST_PIECE[1], ZOBRIST_PIECE[2], ZOBRIST_PIECE[-2], ZOBRIST_PIECE[-1]]

# Outcomes: (winner side or None for a draw, reason).
WIN, DRAW = "win", "draw"


class Position:
    """A Camelot position with make/unmake. ``side`` 0 = White, 1 = Black."""

    __slots__ = ("board", "side", "castle_left", "clock", "history", "key", "bits",
                 "knights", "_stack", "_capture")

    def __init__(self, board: list[int], side: int = WHITE, castle_left=(2, 2),
                 clock: int = 0, history=()) -> None:
        self.board = list(board)
        self.side = side
        self.castle_left = list(castle_left)
        self.clock = clock
        self.history: list[int] = list(history)
        # Bitboards, kept in step with board; they say where each side's pieces
        # are and how many (no sets to keep up to date as well).
        self.bits = list(colour_bits(self.board))
        # Each side's knights (a bitboard, kept in step too): a capture listing
        # looks at them alone for charges, never at every man that can canter.
        self.knights = [sum(BIT[sq] for sq, v in enumerate(self.board) if v == code)
                        for code in (KNIGHT, -KNIGHT)]
        self.key = self.compute_key()
        self._stack: list = []
        # (key, must_capture(), the squares a piece could jump from) until the
        # next push or pop.
        self._capture: tuple | None = None

    @property
    def pieces(self) -> tuple[set[int], set[int]]:
        """The squares of White's pieces and of Black's (read from the bitboards)."""
        return set(bit_squares(self.bits[0])), set(bit_squares(self.bits[1]))

    def count(self, side: int) -> int:
        """How many pieces ``side`` has."""
        return self.bits[side].bit_count()

    def compute_key(self) -> int:
        key = ZOBRIST_BLACK if self.side else 0
        for sq, v in enumerate(self.board):
            if v:
                key ^= ZOBRIST_PIECE[v][sq]
        return key ^ ZOBRIST_CASTLE_LEFT[0][self.castle_left[0]] ^ \
            ZOBRIST_CASTLE_LEFT[1][self.castle_left[1]]

    def copy(self) -> "Position":
        return Position(self.board, self.side, self.castle_left, self.clock, self.history)

    def state(self) -> tuple:
        """Everything that defines the position (for snapshots and equality)."""
        return (tuple(self.board), self.side, tuple(self.castle_left), self.clock,
                tuple(self.history))

    # --- moves ---------------------------------------------------------------
    def moves(self, want_paths: bool = False) -> dict:
        """Legal moves: ``{(from, to, captured): paths or None}`` (see generate)."""
        side = self.side
        if want_paths:
            return generate(self.board, side, self.castle_left[side],
                            list(bit_squares(self.bits[side])), True, bits=self.bits)
        self.must_capture()   # (its jump_from, kept, serves the listing)
        return move_keys(self.board, side, self.castle_left[side], self.bits, False, None,
                         knights=self.knights[side],
                         jump_from=self._capture[2])

    def must_capture(self) -> bool:
        """Whether some piece of the side to move can jump now (bitboards: fast).

        The answer is kept until the next push or pop (a search asks after its
        push, then again in the node it enters); it is tied to the key too, so
        flipping ``side`` and ``key`` by hand (a null move) asks afresh."""
        cached = self._capture
        key = self.key
        if cached is not None and cached[0] == key:
            return cached[1]
        side = self.side
        mine, theirs = self.bits[side], self.bits[1 - side]
        jump_from = leap_sources(theirs, ON_BOARD & ~(mine | theirs))
        found = bool(jump_from & mine & ~CASTLE_BITS[1 - side])
        self._capture = (key, found, jump_from)   # captures() reuses jump_from
        return found

    def captures(self, compulsory: bool | None = None) -> dict:
        """The capturing moves ``{key: None}`` for quiescence search: all the legal
        moves when capture is compulsory, else the knights' charges. Ignores the
        duty to leave one's own castle (check ``in_own_castle`` first)."""
        side = self.side
        found = self.must_capture()
        if compulsory is None:
            compulsory = found
        return move_keys(self.board, side, self.castle_left[side], self.bits, True, compulsory,
                         knights=self.knights[side], jump_from=self._capture[2])

    def in_own_castle(self) -> bool:
        """Whether a piece of the side to move stands in its own castle."""
        side = self.side
        return bool(self.bits[side] & CASTLE_BITS[side])

    def push(self, frm: int, to: int, caps=NO_CAPTURES) -> None:
        """Play a move known to be legal."""
        board, side = self.board, self.side
        piece = board[frm]
        bits = self.bits
        zobrist = _ZOBRIST
        key = self.key ^ zobrist[piece][frm] ^ zobrist[piece][to] ^ ZOBRIST_BLACK
        if caps:
            them = 1 - side
            their_bits = bits[them]
            taken = []
            for sq in caps:
                v = board[sq]
                taken.append((sq, v))
                board[sq] = 0
                their_bits ^= BIT[sq]
                key ^= zobrist[v][sq]
                if v == 2 or v == -2:
                    self.knights[them] ^= BIT[sq]
            bits[them] = their_bits
        else:
            taken = ()
        moved = BIT[frm] ^ BIT[to]   # (0 when a jump chain ends where it began)
        bits[side] ^= moved
        if piece == 2 or piece == -2:
            self.knights[side] ^= moved
        board[frm] = 0
        board[to] = piece
        castle_move = entered = False
        if to in CASTLE_SQUARES:
            enemy_castle = CASTLES[1 - side]
            castle_move = frm in enemy_castle and to in enemy_castle
            if castle_move:
                left = self.castle_left[side]
                key ^= ZOBRIST_CASTLE_LEFT[side][left] ^ ZOBRIST_CASTLE_LEFT[side][left - 1]
                self.castle_left[side] = left - 1
            else:
                entered = True  # into the enemy castle from outside, or into its own
        old_history = None
        old_clock = self.clock
        if taken or entered:
            # Nothing before a capture or castle entry can repeat; the 50-move count restarts.
            old_history, self.history = self.history, []
            self.clock = 0
        else:
            self.history.append(self.key)
            self.clock = old_clock + 1
        self._stack.append((frm, to, taken, old_clock, self.key, old_history, castle_move))
        self.key = key
        self.side = 1 - side
        self._capture = None

    def clear_undo(self) -> None:
        """Forget the moves ``pop`` could take back."""
        self._stack.clear()

    @property
    def ply_depth(self) -> int:
        """How many pushed moves ``pop`` can take back."""
        return len(self._stack)

    def pop(self) -> None:
        frm, to, taken, old_clock, old_key, old_history, castle_move = self._stack.pop()
        side = self.side = 1 - self.side
        board = self.board
        piece = board[to]
        board[to] = 0
        board[frm] = piece
        bits = self.bits
        moved = BIT[frm] ^ BIT[to]
        bits[side] ^= moved
        if piece == 2 or piece == -2:
            self.knights[side] ^= moved
        if taken:
            them = 1 - side
            their_bits = bits[them]
            for sq, v in taken:
                board[sq] = v
                their_bits ^= BIT[sq]
                if v == 2 or v == -2:
                    self.knights[them] ^= BIT[sq]
            bits[them] = their_bits
        if castle_move:
            self.castle_left[side] += 1
        if old_history is None:
            self.history.pop()
        else:
            self.history = old_history
        self.clock = old_clock
        self.key = old_key
        self._capture = None

    # --- end of the game -----------------------------------------------------
    def outcome_without_moves(self):
        """(WIN, winner side, reason) / (DRAW, None, reason) / None, for every rule
        but 'the side to move has no legal move' (which needs move generation)."""
        bits = self.bits
        for side, name, enemy in ((0, "White", "Black"), (1, "Black", "White")):
            castle = CASTLE_BITS[1 - side]
            if bits[side] & castle == castle:
                return WIN, side, f"{name} occupies {enemy}'s castle"
        counts = (bits[0].bit_count(), bits[1].bit_count())
        names = ("White", "Black")
        for side in (0, 1):
            if counts[1 - side] == 0:
                if counts[side] >= 2:
                    return WIN, side, f"{names[side]} captured all of {names[1 - side]}'s pieces"
                return DRAW, None, f"{names[1 - side]} has no pieces left and " \
                    f"{names[side]} has only {counts[side]}"
        if counts[0] == 1 and counts[1] == 1:
            return DRAW, None, "Both sides are down to one piece"
        if self.history.count(self.key) + 1 >= REPETITIONS:
            return DRAW, None, "The same position occurred for the third time"
        if self.clock >= DRAW_PLIES:
            return DRAW, None, "50 moves by each side with no capture and no castle entry"
        return None

    def outcome_no_moves(self):
        """The outcome when the side to move has no legal move."""
        names = ("White", "Black")
        winner = 1 - self.side
        if self.bits[winner].bit_count() >= 2:
            return WIN, winner, f"{names[self.side]} has no legal move"
        return DRAW, None, f"{names[self.side]} has no legal move and " \
            f"{names[winner]} has only one piece"

    def outcome(self):
        result = self.outcome_without_moves()
        if result is None and not self.moves():
            result = self.outcome_no_moves()
        return result

    # --- position strings ----------------------------------------------------
    def board_text(self) -> str:
        # One letter per square ('.' empty) in square order, cut into ranks (16
        # first), then each run of '.' written as its length, longest runs first:
        # the server writes this after every move, so no per-square calls.
        cells = "".join([_CELLS[v] for v in self.board])
        text = "/".join([cells[first:end] for first, end in _RANKS_DOWN])
        for dots, count in _EMPTY_RUNS:
            text = text.replace(dots, count)
        return text

    def text(self) -> str:
        fields = [self.board_text(), "wb"[self.side], str(self.castle_left[0]),
                  str(self.castle_left[1])]
        if self.history or self.clock:
            fields.append(",".join(f"{k:016x}" for k in self.history) or "-")
            fields.append(str(self.clock))
        return " ".join(fields)

    @classmethod
    def from_text(cls, text: str) -> "Position":
        """Parse a position string. Raises BadPositionError naming what is wrong."""
        if not isinstance(text, str):
            raise BadPositionError(f"a position string is text, not {type(text).__name__}")
        fields = text.split()
        if len(fields) not in (4, 6):
            raise BadPositionError(
                f"a position string has 4 fields (board, side to move, White's and Black's "
                f"castle moves left) or 6 (plus history and 50-move count); "
                f"this one has {len(fields)}")
        board = _parse_board(fields[0])
        if fields[1] not in ("w", "b"):
            raise BadPositionError(f"side to move must be 'w' or 'b', not {fields[1]!r}")
        castle_left = []
        for name, value in zip(("White", "Black"), fields[2:4]):
            if value not in ("0", "1", "2"):
                raise BadPositionError(
                    f"{name}'s castle moves left must be 0, 1 or 2, not {value!r}")
            castle_left.append(int(value))
        history: list[int] = []
        clock = 0
        if len(fields) == 6:
            if fields[4] != "-":
                for item in fields[4].split(","):
                    if not re.fullmatch(r"[0-9a-fA-F]{16}", item):
                        raise BadPositionError(
                            f"repetition history entry {item!r} is not 16 hex digits")
                    history.append(int(item, 16))
            clock = parse_int(fields[5], "the 50-move count", 0, DRAW_PLIES, BadPositionError)
            if len(history) > clock:
                raise BadPositionError(
                    f"repetition history has {len(history)} positions but only {clock} "
                    f"plies were played since the last capture or castle entry")
        return cls(board, 0 if fields[1] == "w" else 1, castle_left, clock, history)


# board_text's tables: the letter of each piece code ('.' empty; -1 and -2 count
# from the end), each rank's squares as a slice of the square order (rank 16 first).
_CELLS = (".", PIECE_LETTERS[1], PIECE_LETTERS[2], PIECE_LETTERS[-2], PIECE_LETTERS[-1])
_RANKS_DOWN = tuple((square(rank_span(r)[0], r), square(rank_span(r)[1], r) + 1)
                    for r in range(16, 0, -1))
_EMPTY_RUNS = tuple(("." * n, str(n)) for n in range(12, 0, -1))   # no rank is longer


def _parse_board(text: str) -> list[int]:
    ranks = text.split("/")
    if len(ranks) != 16:
        raise BadPositionError(
            f"the board has {len(ranks)} ranks; it needs 16 (rank 16 first, separated by '/')")
    board = [0] * 160
    for rank, row in zip(range(16, 0, -1), ranks):
        first, last = rank_span(rank)
        width = last - first + 1
        f = 0
        # ASCII digits only: "²" or "١" is not a number of squares (str.isdigit says it is).
        for token in re.findall(r"[0-9]+|.", row):
            if token[0] in "0123456789":
                if token.startswith("0"):
                    raise BadPositionError(
                        f"rank {rank}: {token!r} is not a number of empty squares")
                f += parse_int(token, f"rank {rank}: the number of empty squares", 1, 12,
                               BadPositionError)
            elif token in LETTER_PIECES:
                if f < width:
                    board[square(first + f, rank)] = LETTER_PIECES[token]
                f += 1
            else:
                raise BadPositionError(
                    f"rank {rank}: unexpected {token!r} (use M N m n or a number)")
        if f != width:
            raise BadPositionError(
                f"rank {rank} has {width} squares but {row!r} describes {f}")
    for sign, name in ((1, "White"), (-1, "Black")):
        knights = sum(1 for v in board if v == sign * KNIGHT)
        men = sum(1 for v in board if v == sign)
        if knights > 4:
            raise BadPositionError(f"{name} has {knights} knights; a side has at most 4")
        if men > 10:
            raise BadPositionError(f"{name} has {men} men; a side has at most 10")
    if not any(board):
        raise BadPositionError("the board is empty")
    return board


__all__ = ["Position", "WIN", "DRAW", "DRAW_PLIES", "SQUARE_NAMES"]
