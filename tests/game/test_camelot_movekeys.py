"""The search's fast paths (game/camelot/movekeys.py and Position's must_capture,
captures, push/pop) agree with the path generator, which walks every canter and
jump chain square by square (and is itself checked against an independent
reference in test_camelot_movegen.py), in positions reached by random play.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.camelot.board import START_POSITION
from game.camelot.moves import (
    ADJACENT, BIT, CASTLES, KNIGHT, SQUARE_NAMES, capture_is_compulsory, colour_bits, generate)
from game.camelot.movekeys import CASTLE_BITS, move_keys, step_targets
from game.camelot.position import ZOBRIST_BLACK, Position

from .test_camelot_movegen import random_position


def path_keys(pos: Position, squares=None, captures_only: bool = False) -> set:
    """The move keys of the path generator (no bitboards, no flood fill)."""
    side = pos.side
    squares = sorted(pos.pieces[side]) if squares is None else squares
    return set(generate(pos.board, side, pos.castle_left[side], squares, want_paths=True,
                        captures_only=captures_only))


def check_fast_paths(pos: Position) -> None:
    """Every fast answer about ``pos`` against the slow one; the position unchanged."""
    # The knights' bitboards that push and pop keep (the capture listings look
    # at no other piece for charges) are those of the board.
    assert pos.knights == [sum(BIT[sq] for sq, v in enumerate(pos.board) if v == code)
                           for code in (KNIGHT, -KNIGHT)], pos.text()
    before = (pos.state(), list(pos.bits), pos.key)
    side = pos.side
    squares = sorted(pos.pieces[side])
    compulsory = capture_is_compulsory(pos.board, side, squares)  # square-by-square test
    assert pos.must_capture() == compulsory, pos.text()
    assert pos.must_capture() == compulsory, pos.text()  # (the kept answer)
    full = pos.moves()
    assert set(full) == path_keys(pos), pos.text()
    assert all(paths is None for paths in full.values())
    slow_captures = path_keys(pos, captures_only=True)
    assert set(pos.captures()) == slow_captures, pos.text()
    assert set(pos.captures(compulsory)) == slow_captures, pos.text()
    if not pos.in_own_castle():
        assert slow_captures == {k for k in full if k[2]}, pos.text()
        if compulsory:
            assert set(full) == slow_captures  # capturing is compulsory: nothing else
        else:
            check_staged_lists(pos, full)
    else:
        assert any(pos.board[sq] * (1 - 2 * side) > 0 for sq in CASTLES[side])
    assert (pos.state(), list(pos.bits), pos.key) == before


def check_staged_lists(pos: Position, full: dict) -> None:
    """What the search lists before (or instead of) every move where nothing
    is forced: the charges in the full list's order, one piece's moves in its
    order there, and plain-move targets that are each some quiet move's end."""
    side = pos.side
    assert list(pos.captures(False)) == [k for k in full if k[2]], pos.text()
    for sq in pos.pieces[side]:
        own = move_keys(pos.board, side, pos.castle_left[side], pos.bits, False, False,
                        None, BIT[sq])
        assert list(own) == [k for k in full if k[0] == sq], pos.text()
    targets = step_targets(pos.bits, side)
    quiet_ends = {k[1] for k in full if not k[2]}
    assert all(sq in quiet_ends for sq in range(160) if BIT[sq] & targets), pos.text()
    plain = {k[1] for k in full if not k[2] and k[1] in ADJACENT[k[0]]
             and not BIT[k[0]] & CASTLE_BITS[1 - side]}
    assert all(BIT[sq] & targets for sq in plain), pos.text()


def play_randomly(seed: int, plies: int, greed: float):
    """Positions along a random game from the start; ``greed``: how often a
    capture is preferred (captures make the tactical positions)."""
    rng = random.Random(seed)
    pos = Position.from_text(START_POSITION)
    for _ in range(plies):
        if pos.outcome_without_moves() is not None:
            return
        yield pos
        keys = sorted(pos.moves(), key=lambda k: (k[0], k[1], sorted(k[2])))
        if not keys:
            return
        captures = [k for k in keys if k[2]]
        pos.push(*rng.choice(captures if captures and rng.random() < greed else keys))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 80),
       greed=st.sampled_from([0.0, 0.5, 1.0]))
def test_fast_paths_agree_with_the_path_generator_along_random_games(seed, plies, greed):
    for pos in play_randomly(seed, plies, greed):
        check_fast_paths(pos)


def test_fast_paths_agree_on_many_random_game_positions():
    seen = {"positions": 0, "compulsory": 0, "charge": 0, "castle": 0, "multi": 0}
    for seed in range(40):
        for pos in play_randomly(seed, 120, 0.5):
            check_fast_paths(pos)
            seen["positions"] += 1
            keys = pos.moves()
            seen["compulsory"] += pos.must_capture()
            seen["multi"] += any(len(k[2]) > 1 for k in keys)
            seen["charge"] += any(k[2] and pos.board[k[0]] in (KNIGHT, -KNIGHT)
                                  and not pos.must_capture() for k in keys)
            seen["castle"] += any(pos.board[sq] for sq in CASTLES[0] + CASTLES[1])
    # The games really went through the hard cases.
    assert seen["compulsory"] > 200 and seen["multi"] > 20 and seen["charge"] > 10, seen
    assert seen["castle"] > 0, seen


def test_fast_paths_agree_on_random_crowded_positions():
    rng = random.Random(4242)
    checked = 0
    while checked < 300:
        pos = random_position(rng)
        if pos.outcome_without_moves() is None:
            check_fast_paths(pos)
            checked += 1


def test_generate_without_paths_honours_a_subset_of_squares():
    rng = random.Random(11)
    for _ in range(200):
        pos = random_position(rng)
        side = pos.side
        squares = sorted(rng.sample(sorted(pos.pieces[side]),
                                    rng.randint(1, len(pos.pieces[side]))))
        fast = generate(pos.board, side, pos.castle_left[side], squares)
        assert set(fast) == path_keys(pos, squares), pos.text()


def test_must_capture_answers_afresh_after_a_null_move_and_after_push_pop():
    # White men on G7, G6 and A4, Black men on G8 and L13, G9 empty: White must
    # jump G7xG9; Black, to move in the same position, has nothing to jump.
    pos = Position.from_text("2/8/10/11m/12/12/12/12/6m5/6M5/6M5/12/M11/10/8/2 w 2 2")
    g7, g8 = SQUARE_NAMES.index("G7"), SQUARE_NAMES.index("G8")
    assert pos.board[g7] == 1 and pos.board[g8] == -1
    assert pos.must_capture()
    pos.side ^= 1            # a null move, as the search makes it
    pos.key ^= ZOBRIST_BLACK
    assert not pos.must_capture()
    pos.side ^= 1
    pos.key ^= ZOBRIST_BLACK
    assert pos.must_capture()
    (key,) = pos.moves()
    pos.push(*key)           # G7xG9: now Black has nothing to take either
    assert not pos.must_capture()
    pos.pop()
    assert pos.must_capture()
    assert pos.bits == list(colour_bits(pos.board)) and BIT[g8] & pos.bits[1]
