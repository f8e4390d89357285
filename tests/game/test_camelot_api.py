"""Camelot (board game): the answers a screen asks the engine for, so that no
scene restates a rule — what a path captures and in which order, which pieces
must leave their own castle, why a move or a piece is refused, and the moves
played with their paths. Each test states the position, the move and the result.
"""
from __future__ import annotations

import pytest

from game.camelot.board import (
    BLOCKED, GAME_OVER, MUST_CAPTURE, MUST_JUMP_ON, MUST_LEAVE_CASTLE, NO_PIECE, NOT_YOUR_TURN,
    OWN_CASTLE, WRONG_MARKS, CamelotBoard, Refusal, position_from_pieces)
from game.camelot.moves import CANTER, JUMP, PLAIN, Move, MoveStep, Piece, parse_square
from game.errors import IllegalMoveError, NotationError

S = parse_square
FAR_BLACK = {"K13": "m", "L13": "m"}
FAR_WHITE = {"A4": "M", "B4": "M"}


def game_of(pieces, turn="white", castle_moves=(2, 2)) -> CamelotBoard:
    return CamelotBoard(position_from_pieces(pieces, turn, castle_moves))


def squares(*names) -> tuple[int, ...]:
    return tuple(S(n) for n in names)


# --- what a path captures, in order ------------------------------------------------
def test_a_jump_chain_captures_its_squares_in_the_order_jumped():
    game = game_of({"E9": "M", "D8": "m", "D6": "m", **FAR_WHITE, **FAR_BLACK})
    move = game.move_for_path(squares("E9", "C7", "E5"))
    assert move.captures == squares("D8", "D6")
    assert move.steps == (MoveStep(S("E9"), S("C7"), JUMP, S("D8")),
                          MoveStep(S("C7"), S("E5"), JUMP, S("D6")))


def test_the_same_capture_set_by_another_path_lists_it_in_that_paths_order():
    # D4 takes D5, E6 and E5 either way round: two paths of one move.
    game = game_of({"D4": "M", "D5": "m", "E5": "m", "E6": "m", **FAR_WHITE, **FAR_BLACK})
    one = game.move_for_path(squares("D4", "D6", "F6", "D4"))
    other = game.move_for_path(squares("D4", "F6", "D6", "D4"))
    assert one == other
    assert one.captures == squares("D5", "E6", "E5")
    assert other.captures == squares("E5", "E6", "D5")


def test_a_charge_captures_only_on_its_jumps_and_a_canter_captures_nothing():
    game = game_of({"E5": "N", "E6": "M", "E8": "m", **FAR_BLACK})
    charge = game.move_for_path(squares("E5", "E7", "E9"))
    assert charge.captures == (S("E8"),)
    assert [step.kind for step in charge.steps] == [CANTER, JUMP]
    assert all(step.is_leap for step in charge.steps)
    game = game_of({"E5": "N", "E6": "M", **FAR_BLACK})
    canter = game.move_for_path(squares("E5", "E7"))
    assert canter.captures == () and canter.steps[0].captured is None


def test_a_path_that_is_not_a_legal_move_is_refused_with_the_reason():
    game = game_of({"F3": "M", "F2": "m", "G2": "m", **FAR_WHITE, **FAR_BLACK})
    with pytest.raises(IllegalMoveError, match="must go on"):
        game.move_for_path(squares("F3", "F1"))      # a jump into its castle must go on
    assert game.move_for_path(["F3", "F1", "H3"]).captures == squares("F2", "G2")


# --- the own-castle duty ---------------------------------------------------------------
def test_the_piece_in_its_own_castle_must_leave_and_nothing_else_may_move():
    game = game_of({"F1": "M", "B5": "M", "B6": "m", **FAR_BLACK})
    assert game.must_leave_castle() == (S("F1"),)
    refusal = game.why_piece_cannot_move("B5")     # B5 could jump B6, but F1 comes first
    assert refusal.code == MUST_LEAVE_CASTLE and "F1" in refusal.message
    assert game.why_refused("B5xB7").code == MUST_LEAVE_CASTLE
    assert game.why_piece_cannot_move("F1") is None


def test_no_duty_without_a_piece_in_the_castle_or_when_it_cannot_move():
    assert game_of({"B5": "M", "B6": "m", **FAR_BLACK}).must_leave_castle() == ()
    walls = {sq: "M" for sq in ("E2", "F2", "G2", "D3", "F3", "H3")}
    game = game_of({"F1": "M", **walls, **FAR_BLACK})
    assert game.must_leave_castle() == ()
    assert game.why_piece_cannot_move("F1").code == BLOCKED


def test_black_piece_in_its_own_castle_after_a_jump_there_must_leave():
    game = game_of({"F14": "m", "F15": "M", "B5": "M", "K4": "M", **FAR_BLACK}, turn="black")
    game.play("F14xF16")
    game.play("K4-K5")
    assert game.must_leave_castle() == (S("F16"),)


# --- why a move or a piece is refused ----------------------------------------------------
@pytest.mark.parametrize("move, code", [
    ("C5-C6", NO_PIECE),               # nothing on C5
    ("K13-K12", NOT_YOUR_TURN),        # a Black man, White to move
    ("A4-A5", MUST_CAPTURE),           # E9 can jump D8: a plain move is refused
    ("E9xC7", MUST_JUMP_ON),           # and the jump must go on over D6
    ("E9-C7-E5", WRONG_MARKS),         # the right squares, but those are jumps
])
def test_why_refused_names_the_rule(move, code):
    game = game_of({"E9": "M", "D8": "m", "D6": "m", **FAR_WHITE, **FAR_BLACK})
    refusal = game.why_refused(move)
    assert isinstance(refusal, Refusal) and refusal.code == code
    assert str(refusal) == refusal.message and refusal.message


def test_why_refused_is_none_for_a_legal_move_in_any_form():
    game = game_of({"E9": "M", "D8": "m", "D6": "m", **FAR_WHITE, **FAR_BLACK})
    move = game.legal_moves()[0]
    assert game.why_refused("E9xC7xE5") is None
    assert game.why_refused(move) is None
    assert game.why_refused(squares("E9", "C7", "E5")) is None


def test_own_castle_by_a_plain_move_is_refused():
    game = game_of({"F2": "M", **FAR_WHITE, **FAR_BLACK})
    assert game.why_refused("F2-F1").code == OWN_CASTLE


def test_bad_notation_is_a_notation_error_not_a_refusal():
    game = CamelotBoard()
    with pytest.raises(NotationError):
        game.why_refused("F7F8")


def test_why_piece_cannot_move_when_capture_is_compulsory_elsewhere():
    game = game_of({"E9": "M", "D8": "m", "A4": "M", **FAR_BLACK})
    assert game.why_piece_cannot_move("A4").code == MUST_CAPTURE
    assert game.why_piece_cannot_move("E9") is None
    assert game.why_piece_cannot_move("K13").code == NOT_YOUR_TURN


def test_after_the_end_every_move_is_refused_as_game_over():
    game = game_of({"F15": "M", "G16": "M", **FAR_WHITE, **FAR_BLACK})
    game.play("F15-F16")                   # both Black castle squares: White wins
    assert game.why_refused("A4-A5").code == GAME_OVER
    assert game.why_piece_cannot_move("A4").code == GAME_OVER


# --- the moves played, with their paths -----------------------------------------------
def test_the_record_and_last_move_carry_the_path_played():
    game = game_of({"D4": "M", "D5": "m", "E5": "m", "E6": "m", **FAR_WHITE, **FAR_BLACK})
    move = game.move_for_path(squares("D4", "F6", "D6", "D4"))
    record = game.play(move)
    assert record.move.path == squares("D4", "F6", "D6", "D4")
    assert record.move.captures == squares("E5", "E6", "D5")
    assert game.last_move.path == record.move.path


def test_a_move_given_as_text_or_as_a_bare_move_records_a_full_path():
    game = CamelotBoard()
    record = game.play("f7-f8")
    assert record.move.path == squares("F7", "F8") and record.move.steps[0].kind == PLAIN
    game = game_of({"E9": "M", "D8": "m", "D6": "m", **FAR_WHITE, **FAR_BLACK})
    legal = game.legal_moves()[0]
    record = game.play(Move(legal.from_square, legal.to_square, legal.captured))
    assert record.move.path == squares("E9", "C7", "E5")


def test_moves_played_follow_undo_and_redo():
    game = CamelotBoard()
    game.play("F7-F8")
    game.play("F11-F9")
    assert [m.path for m in game.moves_played] == [squares("F7", "F8"), squares("F11", "F9")]
    game.undo()
    assert game.last_move.path == squares("F7", "F8")
    game.redo()
    assert game.last_move.path == squares("F11", "F9")
    game.restart()
    assert game.last_move is None and game.moves_played == ()


def test_captured_by_lists_what_each_side_took():
    game = game_of({"E9": "M", "D8": "m", "D6": "n", "B4": "M", "L13": "m", "K13": "m"})
    game.play("E9xC7xE5")
    assert game.captured_by("white") == (Piece("black", "man"), Piece("black", "knight"))
    assert game.captured_by("black") == ()
