"""Camelot, the two-player board game (Parker Brothers 1930, WCF rules).

The rules are docs/rules-camelot-board.md; this module is the :class:`Game`
protocol around :class:`~game.camelot.position.Position` (state, make/unmake,
end-of-game rules, position strings) and :func:`~game.camelot.moves.generate`.

- Squares are ints 0‥159 (``square_name``/``parse_square`` convert).
- ``legal_moves()`` gives one :class:`Move` per distinct (from, to, captured
  squares), with every path that plays it (``move.paths``, canonical first).
- To play the path the player picked: ``play(move.with_path(path))``.
- ``play(move_or_text)`` returns a MoveRecord whose ``move`` is the legal Move
  with the path actually played first (``record.move.path``, ``.steps``,
  ``.captures`` in jump order) and whose events are :class:`PieceMoved` (one per
  step of the path) and :class:`PieceCaptured` (right after the step that jumped
  it), for a step-by-step animation. ``last_move``/``moves_played`` give the
  same Moves later (after undo/redo too), so nobody re-parses notation.
- What a screen asks: ``moves_from(sq)``, ``move_for_path(path)`` (which move a
  path plays, and so what it captures), ``must_leave_castle()`` (the pieces
  that must come out of their own castle now), ``why_refused(move)`` and
  ``why_piece_cannot_move(sq)`` (a :class:`Refusal`: a code and a sentence),
  ``captured_by(color)`` (the pieces that side has taken this game).
- ``score`` is White's pieces minus Black's pieces (positive: White is ahead).
- A finished game has ``status`` WON (``winner`` is ``'white'``/``'black'``) or
  DRAW; ``status_reason`` says why.

Interpretations where the rules page is silent (tested): a piece in its own
castle that cannot move at all does not block the rest of the army (the
ordinary rules apply until it can move); a castle move does not reset the
50-move count (the piece was already in the castle).
"""
from __future__ import annotations

import random
import re
from array import array
from dataclasses import dataclass

from ..base import Game, Reason, Status
from .moves import (
    CASTLES, COLOR_NAMES, LETTER_PIECES, ON_BOARD, SHIFTS, SQUARE_NAMES, Move, MoveStep, Piece,
    generate, make_move, move_sort_key,
    parse_square, path_kind, path_steps, path_text, pieces_in_own_castle, square_name)
from .movekeys import CASTLE_BITS
from .position import WIN, Position
from ..errors import BadPositionError, IllegalMoveError, NotationError

START_POSITION = "2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2"


@dataclass(frozen=True)
class PieceMoved:
    """One step of a move: ``kind`` is plain, canter, jump or castle."""

    piece: Piece
    source: int
    target: int
    kind: str


@dataclass(frozen=True)
class PieceCaptured:
    """A piece jumped and removed (it vanishes at once, mid-move)."""

    square: int
    piece: Piece


# Why a move or a piece is refused (Refusal.code).
GAME_OVER, NO_PIECE, NOT_YOUR_TURN = "game-over", "no-piece", "not-your-turn"
MUST_LEAVE_CASTLE, MUST_CAPTURE, MUST_JUMP_ON = "must-leave-castle", "must-capture", "must-jump-on"
OWN_CASTLE, WRONG_MARKS, BLOCKED, NOT_A_MOVE = "own-castle", "wrong-marks", "blocked", "not-a-move"


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse a move or a piece: a stable ``code`` (one of the
    constants above, for a screen that words it its own way) and a sentence."""

    code: str
    message: str
    parts: tuple = ()        # (name, value) pairs: the squares, side and move the sentence names

    def __str__(self) -> str:
        return self.message

    @property
    def reason(self) -> Reason:
        """The sentence with its code and parts, as the other games give theirs."""
        return Reason(self.code, self.message, dict(self.parts))


class CamelotBoard(Game[Move]):
    game_id = "camelot-board"
    title = "Camelot (board game)"

    def __init__(self, position: str = START_POSITION) -> None:
        super().__init__()
        self._start = Position.from_text(position)
        self._pos = self._start.copy()
        self._refresh()

    @classmethod
    def from_position(cls, text: str) -> "CamelotBoard":
        """A game starting from a position string. Raises BadPositionError."""
        return cls(text)

    def position_text(self) -> str:
        return self._pos.text()

    @property
    def position(self) -> Position:
        """A copy of the current position (for search; changing it changes nothing here)."""
        return self._pos.copy()

    # --- what the UI asks ------------------------------------------------------
    @property
    def turn(self) -> str:
        return COLOR_NAMES[self._pos.side]

    @property
    def winner(self) -> str | None:
        if self._result is not None and self._result[0] == WIN:
            return COLOR_NAMES[self._result[1]]
        return None

    def piece_at(self, sq: int | str) -> Piece | None:
        if isinstance(sq, str):
            sq = parse_square(sq)
        code = self._pos.board[sq]
        return Piece.from_code(code) if code else None

    def pieces(self) -> dict[int, Piece]:
        return {sq: Piece.from_code(v) for sq, v in enumerate(self._pos.board) if v}

    def castle_moves_left(self, color: str) -> int:
        return self._pos.castle_left[COLOR_NAMES.index(color)]

    @property
    def capture_is_compulsory(self) -> bool:
        """Whether the side to move must capture (every legal move captures)."""
        return bool(self._keys) and all(key[2] for key in self._keys)

    def moves_from(self, sq: int | str) -> list[Move]:
        if isinstance(sq, str):
            sq = parse_square(sq)
        return list(self._origin_moves(sq))

    def must_leave_castle(self) -> tuple[int, ...]:
        """The squares of the side to move's pieces that stand in its own castle
        and must move out now (every legal move is theirs); () when none must.
        A piece there that cannot move at all does not count (it blocks nothing)."""
        stuck = pieces_in_own_castle(self._pos.board, self._pos.side)
        return tuple(sq for sq in stuck if any(key[0] == sq for key in self._keys))

    def move_for_path(self, path) -> Move:
        """The legal move played along ``path`` (squares, start first), with that
        path first: its ``captures`` say what the path takes. IllegalMoveError
        (with the reason) when the path is not a legal move here."""
        squares = tuple(parse_square(s) if isinstance(s, str) else s for s in path)
        move = self._find_path(squares)
        if move is not None:
            return move.with_path(squares)
        raise IllegalMoveError(self._explain(squares).reason)

    def why_refused(self, move: "Move | str | tuple[int, ...]") -> Refusal | None:
        """None if ``move`` (a Move, WCF text or a path) is legal here, else why not."""
        if isinstance(move, str):
            try:
                self.parse_move(move)  # NotationError for text that is not a move
            except IllegalMoveError as exc:
                squares, _ = parse_path_text(move)
                if self._find_path(squares) is not None:
                    return Refusal(WRONG_MARKS, str(exc))
                return self._explain(squares)
            return None
        if isinstance(move, Move):
            return None if self._legal_twin(move) is not None else self._explain(move.path)
        squares = tuple(parse_square(s) if isinstance(s, str) else s for s in move)
        return None if self._find_path(squares) is not None else self._explain(squares)

    def why_piece_cannot_move(self, sq: int | str) -> Refusal | None:
        """None if the piece on ``sq`` has a legal move, else why it may not move."""
        if isinstance(sq, str):
            sq = parse_square(sq)
        if self._result is None and self.moves_from(sq):
            return None
        refusal = self._explain_origin(sq)
        if refusal is not None:
            return refusal
        return Refusal(BLOCKED, f"the piece on {square_name(sq)} has no legal move: "
                                f"every square it could reach is taken or forbidden",
                       (("square", square_name(sq)),))

    @property
    def last_move(self) -> Move | None:
        """The last move played (path as played first), None at the start."""
        played = self.moves_played
        return played[-1] if played else None

    @property
    def moves_played(self) -> tuple[Move, ...]:
        """Every move played since the start, each with the path played first."""
        return tuple(record.move for _, record in self._undo)

    def captured_by(self, color: str) -> tuple[Piece, ...]:
        """The pieces ``color`` ('white'/'black') has captured in this game, in order."""
        return tuple(event.piece for _, record in self._undo
                     if record.events[0].piece.color == color  # the mover
                     for event in record.events if isinstance(event, PieceCaptured))

    @property
    def plies_without_progress(self) -> int:
        """Plies since the last capture or castle entry (a draw at 100)."""
        return self._pos.clock

    # --- protocol ---------------------------------------------------------------
    # After a move nothing is listed: whether the game goes on is seen at a glance
    # (_surely_has_a_move) nearly always. The move keys (the bitboard generator) and
    # the Moves with their paths are made when asked: all of them, or one piece's.
    # A game server checks each move against the moving piece's moves alone;
    # building and sorting every Move of every position was most of its work.
    def _refresh(self) -> None:
        pos = self._pos
        result = pos.outcome_without_moves()
        keys = None
        if result is None and not _surely_has_a_move(pos):
            keys = pos.moves()
            if not keys:
                result = pos.outcome_no_moves()
        self._result = result
        self._made_keys: dict | None = keys if result is None else {}
        self._all_moves: list[Move] | None = [] if result is not None else None
        self._paths_by_origin: dict[int, dict] = {}     # square -> {key: paths}
        self._moves_by_key: dict = {}                   # key -> its Move
        self._moves_by_origin: dict[int, list[Move]] = {}

    @property
    def _keys(self) -> dict:
        """The legal moves' keys ``(from, to, captured)`` (the generator's order)."""
        if self._made_keys is None:
            self._made_keys = self._pos.moves()
        return self._made_keys

    @property
    def _moves(self) -> list[Move]:
        """Every legal Move in move_sort_key order, paths included (made once per position)."""
        if self._all_moves is None:
            self._all_moves = sorted((make_move(k, paths) for k, paths
                                      in self._pos.moves(True).items()), key=move_sort_key)
        return self._all_moves

    def _paths_from(self, sq) -> dict:
        """``{key: paths}`` of the legal moves of the piece on ``sq`` (a square
        number, or anything equal to one), generated for that piece alone."""
        index = _square_index(sq)
        if index is None or self._result is not None:
            return {}
        found = self._paths_by_origin.get(index)
        if found is None:
            pos = self._pos
            side = pos.side
            found = {}
            if pos.board[index] * (1 if side == 0 else -1) > 0:
                # generate applies the duty to leave one's own castle whatever the
                # squares asked about; compulsory capture is the whole side's: passed.
                found = {k: paths for k, paths in generate(
                    pos.board, side, pos.castle_left[side], [index], True,
                    compulsory=pos.must_capture(), bits=pos.bits).items() if k[0] == index}
            self._paths_by_origin[index] = found
        return found

    def _move_of(self, key, paths) -> Move:
        move = self._moves_by_key.get(key)
        if move is None:
            move = self._moves_by_key[key] = make_move(key, paths)
        return move

    def _origin_moves(self, sq) -> list[Move]:
        """The legal Moves of the piece on ``sq``: those of ``_moves`` from there, in
        its order (made for that piece alone while the whole list is not made)."""
        if self._all_moves is not None:
            return [m for m in self._all_moves if m.from_square == sq]
        index = _square_index(sq)
        moves = self._moves_by_origin.get(index)
        if moves is None:
            found = self._paths_from(index)
            moves = sorted((self._move_of(k, paths) for k, paths in found.items()),
                           key=move_sort_key)
            self._moves_by_origin[index] = moves
        return moves

    def _legal_moves(self) -> list[Move]:
        return list(self._moves)

    def _legal_twin(self, move: Move) -> Move | None:
        """The legal Move equal to ``move`` (the same from, to and captures), or None."""
        if not isinstance(move, Move):
            return None
        if self._all_moves is not None:
            return next((legal for legal in self._all_moves if legal == move), None)
        wanted = (move.from_square, move.to_square, move.captured)   # what Move's == compares
        for key, paths in self._paths_from(move.from_square).items():
            if key == wanted:
                return self._move_of(key, paths)
        return None

    def _find_path(self, squares: tuple[int, ...]) -> Move | None:
        if not squares:
            return None
        if self._all_moves is not None:
            return next((move for move in self._all_moves if squares in move.paths), None)
        for key, paths in self._paths_from(squares[0]).items():
            if squares in paths:
                return self._move_of(key, paths)
        return None

    def _refusal(self, move):
        # A legal move is recognised among its piece's moves alone; anything else
        # goes the general way (which words the refusal).
        if isinstance(move, str):
            move = self.parse_move(move)
        if self._result is None and self._legal_twin(move) is not None:
            return move, ""
        return super()._refusal(move)

    def _play(self, move):
        # The record keeps the legal Move with the path actually played first.
        if isinstance(move, str):
            move = self.parse_move(move)
        legal = self._legal_twin(move) if self._result is None else None
        if legal is not None:
            move = legal.with_path(self._played_path(move))
        return super()._play(move)

    def _played_path(self, move: Move) -> tuple[int, ...]:
        legal = self._legal_twin(move)
        if legal is None:
            return move.path
        if move.paths and move.paths[0] in legal.paths:
            return move.paths[0]  # the path the player chose
        return legal.paths[0]

    def _apply(self, move: Move) -> tuple:
        path = self._played_path(move)
        events: list = []
        board = self._pos.board
        piece = Piece.from_code(board[move.from_square])
        for a, b, took in path_steps(path, move.captured):
            kind = path_kind((a, b), frozenset([took]) if took is not None else frozenset())
            events.append(PieceMoved(piece, a, b, kind))
            if took is not None:
                events.append(PieceCaptured(took, Piece.from_code(board[took])))
        self._pos.push(move.from_square, move.to_square, move.captured)
        self._pos.clear_undo()  # the game keeps snapshots; the undo stack is for search
        self._refresh()
        return tuple(events)

    def _snapshot(self):
        # The board as 160 bytes, not a tuple of 160 ints (1.3 KB): a game keeps one
        # snapshot per ply, and a server keeps every game it referees.
        pos = self._pos
        return (array("b", pos.board).tobytes(), pos.side, tuple(pos.castle_left), pos.clock,
                tuple(pos.history))

    def _restore(self, snapshot) -> None:
        board, side, castle_left, clock, history = snapshot
        self._pos = Position(list(array("b", board)), side, castle_left, clock, history)
        self._refresh()

    @property
    def status(self) -> Status:
        if self._result is None:
            return Status.PLAYING
        return Status.WON if self._result[0] == WIN else Status.DRAW

    @property
    def status_reason(self) -> str:
        return "" if self._result is None else self._result[2]

    @property
    def score(self) -> int:
        return self._pos.count(0) - self._pos.count(1)

    def start_json(self) -> dict:
        return {"position": self._start.text()}

    @classmethod
    def from_start_json(cls, data: dict) -> "CamelotBoard":
        if not isinstance(data, dict) or not isinstance(data.get("position"), str):
            raise BadPositionError("the start of a Camelot game is {'position': <string>}")
        return cls(data["position"])

    def restart(self) -> None:
        self._pos = self._start.copy()
        self._clear_history()
        self._refresh()

    def computer_move(self, rng: random.Random | None = None) -> Move | None:
        if not self.legal_moves():
            return None
        from .ai import choose_move
        seed = rng.getrandbits(32) if rng is not None else None
        return choose_move(self, level="easy", seed=seed).move

    # --- notation ---------------------------------------------------------------
    def move_text(self, move: Move) -> str:
        return path_text(self._played_path(move), move.captured)

    def parse_move(self, text: str) -> Move:
        """Any path of any legal move, in WCF notation (``E9xC7xE5``, lower case
        too) → that move, with the written path first. NotationError for text that
        is not a move; IllegalMoveError for a well-formed move the rules forbid."""
        squares, marks = parse_path_text(text)
        move = self._find_path(squares)
        if move is None:
            raise IllegalMoveError(self._explain(squares).reason)
        written = path_text(squares, move.captured)
        if "".join(c for c in written if c in "-x") != marks:
            raise IllegalMoveError(self._wrong_marks(text, squares, move))
        return move.with_path(squares)

    @staticmethod
    def _wrong_marks(text: str, squares: tuple[int, ...], move: Move) -> str:
        return (f"{text.strip()} is written wrong: '-' marks a plain move or canter, "
                f"'x' a jump; the move is {path_text(squares, move.captured)}")

    def _why_illegal(self, move: Move) -> str:
        return self._explain(move.path).reason

    def _explain_origin(self, origin: int) -> Refusal | None:
        """Why no move may start on ``origin`` whatever its path, or None."""
        name = square_name(origin)
        if self._result is not None:
            return Refusal(GAME_OVER, f"the game is over: {self._result[2]}", (("why", self._result[2]),))
        side = self._pos.side
        us = COLOR_NAMES[side].capitalize()
        code = self._pos.board[origin]
        if code == 0:
            return Refusal(NO_PIECE, f"there is no piece on {name}", (("square", name),))
        if (code > 0) != (side == 0):
            return Refusal(NOT_YOUR_TURN, f"the piece on {name} is not {us}'s; "
                                          f"it is {us}'s turn", (("square", name), ("side", COLOR_NAMES[side])))
        stuck = self.must_leave_castle()
        if stuck and origin not in stuck:
            return Refusal(MUST_LEAVE_CASTLE,
                           f"{us}'s piece on {square_name(stuck[0])} ended its move in its "
                           f"own castle and must move out now",
                           (("side", COLOR_NAMES[side]), ("square", square_name(stuck[0]))))
        if self.capture_is_compulsory and not self.moves_from(origin):
            return Refusal(MUST_CAPTURE, f"capturing is compulsory; {us} must capture "
                                         f"(for example {self._moves[0]})",
                           (("side", COLOR_NAMES[side]), ("move", str(self._moves[0]))))
        return None

    def _explain(self, squares: tuple[int, ...]) -> Refusal:
        """Why the path ``squares`` is not a legal move here."""
        shown = "-".join(SQUARE_NAMES[s] for s in squares)
        refusal = self._explain_origin(squares[0])
        if refusal is not None:
            if refusal.code == GAME_OVER:
                return refusal
            return Refusal(refusal.code, f"{shown}: {refusal.message}", (("path", shown),) + refusal.parts)
        side = self._pos.side
        us = COLOR_NAMES[side].capitalize()
        # A path that stops where the piece could (so must) go on capturing.
        longer = [m for m in self.moves_from(squares[0]) if m.captured and any(
            len(p) > len(squares) and p[:len(squares)] == squares for p in m.paths)]
        if longer and len(squares) > 1:
            return Refusal(MUST_JUMP_ON, f"{shown}: the piece may not stop there; it must go on "
                                         f"and capture (for example {longer[0]})",
                           (("path", shown), ("move", str(longer[0]))))
        if self.capture_is_compulsory:
            return Refusal(MUST_CAPTURE, f"{shown}: capturing is compulsory; {us} must "
                                         f"capture (for example {self._moves[0]})",
                           (("path", shown), ("side", COLOR_NAMES[side]), ("move", str(self._moves[0]))))
        if squares[-1] in CASTLES[side]:
            return Refusal(OWN_CASTLE, f"{shown}: a piece may enter its own castle only by a jump",
                           (("path", shown),))
        return Refusal(NOT_A_MOVE, f"{shown} is not a legal move here", (("path", shown),))


def _square_index(sq) -> int | None:
    """``sq`` as a square number when it equals one (as ``==`` compares: ``1.0`` is
    square 1), else None."""
    try:
        index = int(sq)
    except (TypeError, ValueError, OverflowError):
        return None
    return index if index == sq and 0 <= index < len(SQUARE_NAMES) else None


def _surely_has_a_move(pos: Position) -> bool:
    """True when the side to move surely has a legal move (False: look at them).

    A compulsory capture is a jump there to play. Otherwise a piece outside the
    enemy castle next to an empty square outside its own castle has a plain move,
    legal unless a piece must leave its own castle first, which then has moves."""
    if pos.must_capture():
        return True
    side = pos.side
    mine, theirs = pos.bits[side], pos.bits[1 - side]
    land = ON_BOARD & ~(mine | theirs) & ~CASTLE_BITS[side]
    near = 0
    for shift in SHIFTS:                 # the padded grid: no shift wraps onto the board
        near |= (land << shift) | (land >> shift)
    return bool(near & mine & ~CASTLE_BITS[1 - side])


_PATH_RE = re.compile(r"([a-lA-L])(\d{1,2})")


def parse_path_text(text: str) -> tuple[tuple[int, ...], str]:
    """``'E9xC7-E5'`` → (squares, ``'x-'``). Raises NotationError."""
    if not isinstance(text, str):
        raise NotationError(f"a move is text, not {type(text).__name__}")
    t = text.strip()
    if not re.fullmatch(r"[a-lA-L]\d{1,2}([-xX][a-lA-L]\d{1,2})+", t):
        raise NotationError(
            f"{text!r} is not a Camelot move (write squares joined by '-' or 'x', "
            f"e.g. F7-F8, E9xC7xE5)")
    squares = tuple(parse_square(f + r) for f, r in _PATH_RE.findall(t))
    marks = "".join(c for c in t.lower() if c in "-x")
    return squares, marks


def parse_game_record(text: str) -> list[str]:
    """``'1.F7-F8 F11-F9 2.D7-F7 …'`` → ``['F7-F8', 'F11-F9', 'D7-F7', …]``.

    Move numbers (``12.`` or ``12...``) and a final result (``1-0``, ``0-1``,
    ``1/2-1/2``, ``*``) are dropped. Raises NotationError for anything else that
    is not a move.
    """
    moves = []
    for token in re.sub(r"\b\d+\.+", " ", text).split():
        if token in ("1-0", "0-1", "1/2-1/2", "½-½", "*"):
            continue
        parse_path_text(token)
        moves.append(token)
    return moves


def position_from_pieces(pieces: dict[str, str], turn: str = "white",
                         castle_moves: tuple[int, int] = (2, 2)) -> str:
    """A position string from ``{'E9': 'M', 'D8': 'm', …}`` (letters M N m n).
    Raises BadPositionError (bad letter or square, too many pieces, empty board)."""
    board = [0] * 160
    for name, letter in pieces.items():
        if letter not in LETTER_PIECES:
            raise BadPositionError(f"{letter!r} is not a piece (use M N m n)")
        try:
            board[parse_square(name)] = LETTER_PIECES[letter]
        except NotationError as exc:
            raise BadPositionError(str(exc)) from None
    side = COLOR_NAMES.index(turn) if turn in COLOR_NAMES else -1
    if side < 0:
        raise BadPositionError(f"turn must be 'white' or 'black', not {turn!r}")
    text = Position(board, side, castle_moves).text()
    Position.from_text(text)  # the same checks as any position string
    return text


def perft(board: "CamelotBoard | Position", depth: int) -> int:
    """Number of move sequences of length ``depth`` (leaf positions), counting a
    finished game as a leaf with no moves."""
    pos = board.position if isinstance(board, CamelotBoard) else board.copy()

    def count(d: int) -> int:
        if pos.outcome_without_moves() is not None:
            return 0
        moves = pos.moves()
        if d == 1:
            return len(moves)
        total = 0
        for key in moves:
            pos.push(*key)
            total += count(d - 1)
            pos.pop()
        return total

    return 1 if depth == 0 else count(depth)


__all__ = ["CamelotBoard", "Move", "MoveStep", "Piece", "PieceMoved", "PieceCaptured", "Refusal",
           "START_POSITION",
           "parse_game_record", "parse_path_text", "perft", "position_from_pieces"]
