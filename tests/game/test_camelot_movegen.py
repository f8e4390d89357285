"""Camelot move generation checked against an independent, slow reference, perft
counts (tests/data/camelot_perft.txt), and property tests over random games:
make/undo is the identity, every move round-trips through its notation, illegal
moves are refused with the state unchanged.
"""
from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.base import Status
from game.camelot.board import START_POSITION, CamelotBoard, perft, position_from_pieces
from game.camelot.moves import (
    SQUARE_NAMES, capture_is_compulsory, colour_bits, generate, parse_square)
from game.camelot.position import Position
from game.errors import IllegalMoveError, NotationError

PERFT_FILE = Path(__file__).resolve().parent.parent / "data" / "camelot_perft.txt"

# --- the reference: coordinates, a dict board, generate every sequence then filter ---
FILES = "ABCDEFGHIJKL"
DIRS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
CASTLE = {"w": {(5, 1), (6, 1)}, "b": {(5, 16), (6, 16)}}


def on_board(f: int, r: int) -> bool:
    if r in (1, 16):
        return f in (5, 6)
    if r in (2, 15):
        return 2 <= f <= 9
    if r in (3, 14):
        return 1 <= f <= 10
    return 4 <= r <= 13 and 0 <= f <= 11


def name(sq) -> str:
    return f"{FILES[sq[0]]}{sq[1]}"


def ref_moves(board: dict, side: str, castle_left: int) -> dict:
    """{(from, to, frozenset(captured)): set of paths} by the rules page, slowly:
    list every canters-then-jumps sequence of every piece, then throw out what the
    rules forbid."""
    mine = str.isupper if side == "w" else str.islower
    own_castle, enemy_castle = CASTLE[side], CASTLE["b" if side == "w" else "w"]

    def friend(b, sq):
        return sq in b and mine(b[sq])

    def foe(b, sq):
        return sq in b and not mine(b[sq])

    def leaps(sq):
        for df, dr in DIRS:
            over, land = (sq[0] + df, sq[1] + dr), (sq[0] + 2 * df, sq[1] + 2 * dr)
            if on_board(*over) and on_board(*land):
                yield over, land

    def could_jump(b, sq):
        return sq not in enemy_castle and any(foe(b, o) and l not in b for o, l in leaps(sq))

    def sequences(start):
        """(path, captured, steps) for every canter chain followed by every jump chain
        (jump chains are followed to their end; canter chains may stop anywhere)."""
        b0 = dict(board)
        del b0[start]
        out = []

        def jump_on(b, path, caps):
            at = path[-1]
            options = [] if at in enemy_castle else [
                (o, l) for o, l in leaps(at) if foe(b, o) and l not in b]
            if not options:
                out.append((path, caps))
            for o, l in options:
                b2 = dict(b)
                del b2[o]
                jump_on(b2, path + [l], caps + [o])

        def canter_on(path):
            out.append((path, []))
            if len(path) > 1:
                jump_on(b0, path, []) if could_jump(b0, path[-1]) else None
            at = path[-1]
            if at in enemy_castle:
                return
            for o, l in leaps(at):
                if friend(b0, o) and l not in b0 and l not in path and l not in own_castle:
                    canter_on(path + [l])

        canter_on([start])
        if could_jump(b0, start):
            jump_on(b0, [start], [])
        return b0, out

    compulsory = any(could_jump({k: v for k, v in board.items() if k != sq}, sq)
                     for sq in board if mine(board[sq]))
    result = defaultdict(set)

    def add(path, caps):
        result[(path[0], path[-1], frozenset(caps))].add(tuple(path))

    def moves_of(sq, must_capture):
        knight = board[sq] in "Nn"
        if sq in enemy_castle:
            other = next(c for c in enemy_castle if c != sq)
            if not must_capture and castle_left > 0 and other not in board:
                add([sq, other], [])
            return
        if not must_capture:
            for df, dr in DIRS:
                to = (sq[0] + df, sq[1] + dr)
                if on_board(*to) and to not in board and to not in own_castle:
                    add([sq, to], [])
        b0, seqs = sequences(sq)
        for path, caps in seqs:
            canters = [p for p in path[1:len(path) - len(caps)]]
            if len(path) == 1:
                continue
            if caps and canters and not knight:
                continue  # only a knight charges
            if not caps:
                if must_capture:
                    continue
                if knight and any(could_jump(b0, p) for p in canters):
                    continue  # a knight must capture after landing where it could
            add(path, caps)

    stuck = [sq for sq in own_castle if friend(board, sq)]
    for sq in stuck:
        moves_of(sq, could_jump({k: v for k, v in board.items() if k != sq}, sq))
    if result:
        return dict(result)
    for sq in list(board):
        if mine(board[sq]):
            moves_of(sq, compulsory)
    return dict(result)


def ref_board(pos: Position) -> dict:
    text = pos.board_text()
    board = {}
    from game.camelot.moves import PIECE_LETTERS, SQUARE_COORDS
    for sq, v in enumerate(pos.board):
        if v:
            board[SQUARE_COORDS[sq]] = PIECE_LETTERS[v]
    assert text  # (keeps the representation honest: from the engine's own string)
    return board


def engine_view(pos: Position) -> dict:
    """The engine's moves in the reference's terms."""
    from game.camelot.moves import SQUARE_COORDS
    c = SQUARE_COORDS
    return {(c[f], c[t], frozenset(c[x] for x in caps)): {tuple(c[s] for s in p) for p in paths}
            for (f, t, caps), paths in pos.moves(want_paths=True).items()}


def reference_view(pos: Position) -> dict:
    return ref_moves(ref_board(pos), "wb"[pos.side], pos.castle_left[pos.side])


def random_position(rng: random.Random) -> Position:
    """A random legal-looking position, often crowded so that jumps, charges and
    castles come up."""
    if rng.random() < 0.5:
        squares = list(SQUARE_NAMES)
    else:  # a crowded window, often at one end of the board
        rank = rng.choice([1, 2, 3, 6, 9, 12, 14, 16])
        squares = [n for n in SQUARE_NAMES if abs(int(n[1:]) - rank) <= 3
                   and abs(FILES.index(n[0]) - rng.choice([4, 5, 6, 7])) <= 4]
    pieces = {}
    for letters in ("N" * 4 + "M" * 10, "n" * 4 + "m" * 10):
        for letter in rng.sample(letters, rng.randint(1, 9)):
            free = [s for s in squares if s not in pieces] or \
                [s for s in SQUARE_NAMES if s not in pieces]
            pieces[rng.choice(free)] = letter
    text = position_from_pieces(pieces, rng.choice(["white", "black"]),
                                (rng.randint(0, 2), rng.randint(0, 2)))
    return Position.from_text(text)


def test_reference_agrees_on_the_start_position():
    pos = Position.from_text(START_POSITION)
    assert engine_view(pos) == reference_view(pos)
    assert len(reference_view(pos)) == 100


def test_reference_agrees_on_random_crowded_positions():
    rng = random.Random(2024)
    checked = kinds = 0
    seen_captures = seen_charges = seen_castle = 0
    while checked < 250:
        pos = random_position(rng)
        if pos.outcome_without_moves() is not None:
            continue
        engine, reference = engine_view(pos), reference_view(pos)
        assert engine == reference, pos.text()
        assert set(pos.moves()) == set(pos.moves(want_paths=True)), pos.text()  # fast path
        checked += 1
        kinds += len(engine)
        seen_captures += any(k[2] for k in engine)
        seen_charges += any(k[2] and len(p) > len(k[2]) + 1 for k, ps in engine.items() for p in ps)
        seen_castle += any(sq in CASTLE["w"] | CASTLE["b"] for k in engine for sq in k[:2])
    # The sample really exercised the hard rules.
    assert seen_captures > 50 and seen_charges > 10 and seen_castle > 20


def test_reference_agrees_along_random_games():
    rng = random.Random(7)
    for _ in range(6):
        pos = Position.from_text(START_POSITION)
        for _ in range(60):
            if pos.outcome_without_moves() is not None:
                break
            engine = engine_view(pos)
            assert engine == reference_view(pos), pos.text()
            if not engine:
                break
            keys = sorted(pos.moves(), key=lambda k: (k[0], k[1], sorted(k[2])))
            pos.push(*rng.choice(keys))


def test_quiescence_helpers_agree_with_full_generation():
    rng = random.Random(99)
    for _ in range(400):
        pos = random_position(rng)
        side, squares = pos.side, sorted(pos.pieces[pos.side])
        compulsory = capture_is_compulsory(pos.board, side, squares)
        assert pos.must_capture() == compulsory
        full = pos.moves() if not pos.in_own_castle() else None
        expected = generate(pos.board, side, pos.castle_left[side], squares,
                            captures_only=True, compulsory=compulsory)
        assert pos.captures() == expected, pos.text()
        if full is not None:
            assert set(expected) == {k for k in full if k[2]}, pos.text()


# --- perft ----------------------------------------------------------------------------
def perft_table() -> dict[int, int]:
    table = {}
    for line in PERFT_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#") and not line.startswith("position"):
            depth, count = line.split()
            table[int(depth)] = int(count)
    return table


def test_perft_data_file_is_for_the_start_position():
    lines = [ln for ln in PERFT_FILE.read_text().splitlines() if ln.startswith("position")]
    assert lines == [f"position {START_POSITION}"]


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_counts(depth):
    assert perft(CamelotBoard(), depth) == perft_table()[depth]


def test_perft_1_is_100():
    assert perft(CamelotBoard(), 1) == 100


def test_perft_2_by_the_reference():
    pos = Position.from_text(START_POSITION)
    total = 0
    for key in pos.moves():
        pos.push(*key)
        total += len(reference_view(pos))
        pos.pop()
    assert total == perft_table()[2]


# --- property tests over random games -------------------------------------------------
def random_game(seed: int, plies: int) -> CamelotBoard:
    rng = random.Random(seed)
    game = CamelotBoard()
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        game.play(move.with_path(rng.choice(move.paths)))
    return game


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 20))
def test_undo_is_the_exact_inverse_of_play(seed, plies):
    rng = random.Random(seed)
    game = CamelotBoard()
    states = []
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        states.append((game.position_text(), [str(m) for m in moves], game.status))
        game.play(rng.choice(moves))
    while states:
        game.undo()
        assert (game.position_text(), [str(m) for m in game.legal_moves()],
                game.status) == states.pop()
    assert game.position_text() == START_POSITION


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 60))
def test_push_pop_restores_everything_and_keys_stay_exact(seed, plies):
    rng = random.Random(seed)
    pos = Position.from_text(START_POSITION)
    before = []
    for _ in range(plies):
        moves = sorted(pos.moves(), key=lambda k: (k[0], k[1], sorted(k[2])))
        if not moves or pos.outcome_without_moves() is not None:
            break
        before.append((pos.state(), pos.key, [set(p) for p in pos.pieces]))
        pos.push(*rng.choice(moves))
        assert pos.key == pos.compute_key()
        assert pos.pieces[0] == {s for s, v in enumerate(pos.board) if v > 0}
        assert pos.pieces[1] == {s for s, v in enumerate(pos.board) if v < 0}
        assert pos.bits == list(colour_bits(pos.board))
    while before:
        pos.pop()
        assert (pos.state(), pos.key, [set(p) for p in pos.pieces]) == before.pop()
        assert pos.bits == list(colour_bits(pos.board))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 50))
def test_every_path_of_every_legal_move_round_trips_through_notation(seed, plies):
    game = random_game(seed, plies)
    for move in game.legal_moves():
        assert game.parse_move(game.move_text(move)) == move
        for path in move.paths:
            text = game.move_text(move.with_path(path))
            parsed = game.parse_move(text)
            assert parsed == move and parsed.path == path
            assert game.parse_move(text.lower()) == move


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30),
       a=st.sampled_from(SQUARE_NAMES), b=st.sampled_from(SQUARE_NAMES),
       mark=st.sampled_from("-x"))
def test_illegal_moves_are_refused_and_change_nothing(seed, plies, a, b, mark):
    game = random_game(seed, plies)
    legal_paths = {game.move_text(m.with_path(p)) for m in game.legal_moves() for p in m.paths}
    text = f"{a}{mark}{b}"
    before = (game.position_text(), game.history, game.status)
    if text in legal_paths:
        return
    with pytest.raises((IllegalMoveError, NotationError)):
        game.play(text)
    assert (game.position_text(), game.history, game.status) == before


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_end_properly_or_go_on(seed):
    game = random_game(seed, 150)
    assert game.status in (Status.PLAYING, Status.WON, Status.DRAW)
    assert (game.status is Status.PLAYING) == bool(game.legal_moves())
    assert (game.winner is not None) == (game.status is Status.WON)
    assert CamelotBoard.from_json(game.to_json()).position_text() == game.position_text()


def test_parse_square_matches_reference_names():
    for f in range(12):
        for r in range(1, 17):
            sq = f"{FILES[f]}{r}"
            if on_board(f, r):
                assert SQUARE_NAMES[parse_square(sq)] == sq
            else:
                with pytest.raises(NotationError):
                    parse_square(sq)
