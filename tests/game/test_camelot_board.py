"""Camelot (board game): one test per clause of docs/rules-camelot-board.md.

Each test builds its position from a position string (most through
``position_from_pieces``, which writes one from a square → piece map: ``M``/``N``
White man/knight, ``m``/``n`` Black), then states the move and the result.
"""
from __future__ import annotations

import pytest

from game import game_class
from game.base import Status
from game.camelot.board import (
    START_POSITION, CamelotBoard, PieceCaptured, PieceMoved, parse_game_record,
    position_from_pieces)
from game.camelot.moves import (
    CANTER, CASTLE_MOVE, CHARGE, JUMP, PLAIN, SQUARE_NAMES, Piece, parse_square, square_name)
from game.camelot.position import Position
from game.errors import BadPositionError, IllegalMoveError, NotationError

S = parse_square
# Two Black men far from everything, so a test position is not already over.
FAR_BLACK = {"K13": "m", "L13": "m"}
FAR_WHITE = {"A4": "M", "B4": "M"}


def game_of(pieces: dict[str, str], turn: str = "white", castle_moves=(2, 2)) -> CamelotBoard:
    return CamelotBoard(position_from_pieces(pieces, turn, castle_moves))


def texts(moves) -> set[str]:
    return {str(m) for m in moves}


def targets(game: CamelotBoard, square: str) -> set[str]:
    return {square_name(m.to_square) for m in game.moves_from(S(square))}


def assert_rejected(game: CamelotBoard, text: str, error=IllegalMoveError) -> None:
    """The move is refused and nothing changes."""
    before = (game.position_text(), game.history, texts(game.legal_moves()))
    with pytest.raises(error):
        game.play(text)
    assert (game.position_text(), game.history, texts(game.legal_moves())) == before


# --- board and pieces -------------------------------------------------------------
def test_board_has_160_squares_on_the_stated_ranks():
    assert len(SQUARE_NAMES) == 160
    by_rank = {}
    for name in SQUARE_NAMES:
        by_rank.setdefault(int(name[1:]), []).append(name[0])
    assert by_rank[1] == by_rank[16] == ["F", "G"]
    assert by_rank[2] == by_rank[15] == list("CDEFGHIJ")
    assert by_rank[3] == by_rank[14] == list("BCDEFGHIJK")
    assert all(by_rank[r] == list("ABCDEFGHIJKL") for r in range(4, 14))


def test_squares_parse_in_lower_case_and_off_board_names_are_refused():
    assert parse_square("c6") == parse_square("C6")
    for bad in ("A1", "L16", "M5", "E17", "E0", "x"):
        with pytest.raises(NotationError):
            parse_square(bad)


def test_start_position_pieces_and_white_moves_first():
    game = CamelotBoard()
    expected = {
        "N": "C6 D7 I7 J6", "M": "D6 E6 F6 G6 H6 I6 E7 F7 G7 H7",
        "n": "C11 D10 I10 J11", "m": "D11 E11 F11 G11 H11 I11 E10 F10 G10 H10"}
    placed = {square_name(sq): p.symbol for sq, p in game.pieces().items()}
    assert placed == {sq: letter for letter, squares in expected.items()
                      for sq in squares.split()}
    assert game.turn == "white"
    assert game.status is Status.PLAYING
    assert game_class("camelot-board") is CamelotBoard
    assert CamelotBoard.title == "Camelot (board game)"


# --- moves ------------------------------------------------------------------------
def test_plain_move_to_any_adjacent_empty_square_backwards_too():
    game = game_of({"E8": "M", **FAR_WHITE, **FAR_BLACK})
    assert targets(game, "E8") == {"D7", "E7", "F7", "D8", "F8", "D9", "E9", "F9"}
    game.play("E8-E7")  # backwards for White
    assert game.piece_at("E7") == Piece("white", "man") and game.piece_at("E8") is None


def test_plain_move_only_to_an_empty_square():
    game = game_of({"E8": "M", "E9": "M", **FAR_WHITE, **FAR_BLACK})
    assert "E9" not in targets(game, "E8")
    assert "E10" in targets(game, "E8")  # a canter over it instead


def test_canter_leaps_own_piece_which_stays():
    game = game_of({"E8": "M", "E9": "M", **FAR_BLACK})
    record = game.play("E8-E10")
    assert game.piece_at("E9") == Piece("white", "man")
    assert game.piece_at("E10") == Piece("white", "man")
    assert record.move.kind == CANTER and not record.move.captured


def test_canter_chain_may_change_direction_and_stop_after_any_canter():
    game = game_of({"E8": "M", "E9": "M", "F11": "M", **FAR_BLACK})
    legal = texts(game.moves_from(S("E8")))
    assert {"E8-E10", "E8-E10-G12"} <= legal


def test_canter_chain_never_ends_where_it_started_nor_repeats_a_square():
    # D4 with own men on D5, E5, E6: D4-D6-F6-D4 would close a loop.
    game = game_of({"D4": "M", "D5": "M", "E5": "M", "E6": "M", **FAR_BLACK})
    canters = [m for m in game.moves_from(S("D4")) if m.kind == CANTER]
    assert {square_name(m.to_square) for m in canters} == {"D6", "F6", "F4"}
    by_target = {square_name(m.to_square): {"-".join(map(square_name, p)) for p in m.paths}
                 for m in canters}
    assert by_target == {
        "D6": {"D4-D6", "D4-F6-D6"},
        "F6": {"D4-F6", "D4-D6-F6"},
        "F4": {"D4-D6-F4", "D4-F6-D6-F4"},
    }
    for move in canters:
        for path in move.paths:
            assert len(set(path)) == len(path)


def test_jump_removes_the_enemy_piece_at_once_and_must_go_on():
    # E9 jumps D8 to C7, then must jump D6 to E5.
    game = game_of({"E9": "M", "D8": "m", "D6": "m", **FAR_WHITE, **FAR_BLACK})
    assert texts(game.legal_moves()) == {"E9xC7xE5"}
    assert_rejected(game, "E9xC7")  # stopping while a jump is possible
    record = game.play("e9xc7xe5")
    assert game.piece_at("D8") is None and game.piece_at("D6") is None
    assert record.move.kind == JUMP
    assert record.move.captured == {S("D8"), S("D6")}


def test_any_jump_branch_may_be_chosen_no_capture_the_most_rule():
    game = game_of({"E5": "M", "E6": "m", "F8": "m", "D5": "m", **FAR_WHITE, **FAR_BLACK})
    assert texts(game.moves_from(S("E5"))) == {"E5xE7xG9", "E5xC5"}


def test_jump_chain_may_land_again_on_a_square_it_visited():
    # Captured pieces vanish, so D4 can jump round D5, E6, E5 and land on D4 again.
    game = game_of({"D4": "M", "D5": "m", "E5": "m", "E6": "m", **FAR_WHITE, **FAR_BLACK})
    moves = {str(m): m for m in game.legal_moves()}
    assert set(moves) == {"D4xD6xF6xD4", "D4xD6xF4"}
    loop = moves["D4xD6xF6xD4"]
    assert loop.from_square == loop.to_square == S("D4")
    assert {"".join(SQUARE_NAMES[s] for s in p) for p in loop.paths} == {
        "D4D6F6D4", "D4F6D6D4"}
    game.play("D4xF6xD6xD4")  # the other path is the same move
    assert game.pieces().keys() == {S(s) for s in ("D4", "A4", "B4", "K13", "L13")}


def test_knights_charge_is_canters_then_jumps():
    game = game_of({"E5": "N", "E6": "M", "E8": "m", **FAR_BLACK})
    record = game.play("E5-E7xE9")
    assert record.move.kind == CHARGE
    assert game.piece_at("E8") is None and game.piece_at("E9") == Piece("white", "knight")


def test_knights_charge_never_jumps_then_canters():
    game = game_of({"E5": "N", "E6": "M", "E8": "m", "E10": "M", **FAR_BLACK})
    assert "E5-E7xE9" in texts(game.legal_moves())
    assert_rejected(game, "E5-E7xE9-E11")


def test_a_man_cannot_charge_but_may_canter_next_to_an_enemy_and_stop():
    game = game_of({"E5": "M", "E6": "M", "E8": "m", **FAR_BLACK})
    assert "E5-E7" in texts(game.legal_moves())
    assert_rejected(game, "E5-E7xE9")


def test_a_charge_is_never_compulsory():
    # Only a charge could capture: quiet moves stay legal.
    game = game_of({"E5": "N", "E6": "M", "E8": "m", **FAR_BLACK})
    assert not game.capture_is_compulsory
    assert {"E5-E7xE9", "E5-D4", "E6-E7"} <= texts(game.legal_moves())


def test_when_capture_is_compulsory_a_charge_may_replace_a_plain_jump():
    game = game_of({"B5": "M", "B6": "m", "E5": "N", "E6": "M", "E8": "m", **FAR_BLACK})
    assert game.capture_is_compulsory
    assert texts(game.legal_moves()) == {"B5xB7", "E5-E7xE9"}


def test_capturing_is_compulsory():
    game = game_of({"E5": "M", "E6": "m", "A4": "M", "B4": "M", **FAR_BLACK})
    assert texts(game.legal_moves()) == {"E5xE7"}
    assert_rejected(game, "A4-A5")
    with pytest.raises(IllegalMoveError, match="compulsory"):
        game.play("A4-A5")


def test_knight_canter_onto_a_jumping_square_must_capture_there_or_further_on():
    # From E7 the knight could jump E8; from C5 it could jump C4.
    game = game_of({"E5": "N", "E6": "M", "D6": "M", "E8": "m", "C4": "m", **FAR_BLACK})
    legal = texts(game.moves_from(S("E5")))
    assert {"E5-E7xE9", "E5-E7-C5xC3", "E5-C7"} <= legal
    assert_rejected(game, "E5-E7")       # may not stop where it could jump
    assert_rejected(game, "E5-E7-C5")    # nor stop later without capturing


def test_knight_that_cantered_past_a_jumping_square_may_not_end_without_capture():
    game = game_of({"E5": "N", "E6": "M", "D6": "M", "E8": "m", **FAR_BLACK})
    assert "C5" not in targets(game, "E5")  # only reachable through E7
    assert "E5-C7" in texts(game.legal_moves())


# --- castles ------------------------------------------------------------------------
def test_no_plain_move_into_own_castle():
    game = game_of({"F2": "M", **FAR_WHITE, **FAR_BLACK})
    assert targets(game, "F2") & {"F1", "G1"} == set()
    assert_rejected(game, "F2-F1")


def test_no_canter_into_or_through_own_castle():
    game = game_of({"F3": "M", "F2": "M", "D3": "M", "E2": "M", "G2": "M", **FAR_BLACK})
    landing = {sq for m in game.legal_moves() for p in m.paths for sq in p[1:]}
    assert S("F1") not in landing and S("G1") not in landing
    assert_rejected(game, "F3-F1")
    assert_rejected(game, "D3-F1-H3")


def test_a_jump_may_land_in_own_castle():
    game = game_of({"F3": "M", "F2": "m", **FAR_WHITE, **FAR_BLACK})
    game.play("F3xF1")
    assert game.piece_at("F1") == Piece("white", "man")


def test_a_jump_into_own_castle_must_go_on_if_it_can():
    game = game_of({"F3": "M", "F2": "m", "G2": "m", **FAR_WHITE, **FAR_BLACK})
    assert "F3xF1xH3" in texts(game.legal_moves())
    assert_rejected(game, "F3xF1")


def test_piece_in_own_castle_must_move_out_even_if_a_capture_is_elsewhere():
    game = game_of({"F1": "M", "B5": "M", "B6": "m", **FAR_BLACK})
    assert texts(game.legal_moves()) == {"F1-E2", "F1-F2", "F1-G2"}
    with pytest.raises(IllegalMoveError, match="castle"):
        game.play("B5xB7")


def test_piece_in_own_castle_that_can_jump_out_must_jump():
    game = game_of({"F1": "M", "F2": "m", "B5": "M", **FAR_BLACK})
    assert texts(game.legal_moves()) == {"F1xF3"}


def test_piece_moved_into_own_castle_must_leave_on_the_next_turn():
    game = game_of({"F3": "M", "F2": "m", "B5": "M", "B6": "m", "K13": "m", "L13": "m",
                    "K4": "M"}, turn="black")
    game.play("B6xB4")          # Black captures B5 ...
    game.play("F3xF1")          # ... White must capture too, landing in its castle
    game.play("K13-K12")
    assert {m.from_square for m in game.legal_moves()} == {S("F1")}


def test_blocked_piece_in_own_castle_lets_the_others_move():
    # Interpretation: a piece that cannot get out does not freeze the whole army.
    walls = {sq: "M" for sq in ("E2", "F2", "G2", "D3", "F3", "H3")}
    game = game_of({"F1": "M", **walls, **FAR_BLACK})
    legal = game.legal_moves()
    assert legal and not game.moves_from(S("F1"))


def test_a_jump_into_the_opponents_castle_ends_the_move():
    # From F16 the man could jump E15 to D14, but the castle ends its move.
    game = game_of({"F14": "M", "F15": "m", "E15": "m", **FAR_WHITE, **FAR_BLACK})
    assert texts(game.moves_from(S("F14"))) == {"F14xF16"}
    assert_rejected(game, "F14xF16xD14")


def test_a_canter_into_the_opponents_castle_ends_the_move():
    game = game_of({"H14": "M", "G15": "M", "E15": "M", **FAR_BLACK})
    assert "H14-F16" in texts(game.legal_moves())
    assert_rejected(game, "H14-F16-D14")


def test_a_plain_move_may_enter_the_opponents_castle():
    game = game_of({"F15": "M", **FAR_WHITE, **FAR_BLACK})
    assert {"F16", "G16"} <= targets(game, "F15")


def test_a_piece_in_the_opponents_castle_never_leaves():
    game = game_of({"F16": "M", "F15": "M", **FAR_WHITE, **FAR_BLACK})
    assert texts(game.moves_from(S("F16"))) == {"F16-G16"}
    assert game.moves_from(S("F16"))[0].kind == CASTLE_MOVE


def test_at_most_two_castle_moves_per_side():
    game = game_of({"F16": "M", **FAR_WHITE, "K13": "m", "L13": "m"})
    game.play("F16-G16")
    game.play("K13-K12")
    assert game.castle_moves_left("white") == 1
    game.play("G16-F16")
    game.play("K12-K13")
    assert game.castle_moves_left("white") == 0
    assert game.position_text().split()[2:4] == ["0", "2"]
    assert game.moves_from(S("F16")) == []
    assert_rejected(game, "F16-G16")


def test_no_castle_move_while_capture_is_compulsory():
    game = game_of({"F16": "M", "B5": "M", "B6": "m", **FAR_BLACK})
    assert texts(game.legal_moves()) == {"B5xB7"}
    assert_rejected(game, "F16-G16")


# --- end of the game ------------------------------------------------------------------
def test_win_by_occupying_both_castle_squares():
    game = game_of({"F16": "M", "H15": "M", **FAR_BLACK})
    record = game.play("H15-G16")
    assert record.status is Status.WON and game.winner == "white"
    assert game.status_reason == "White occupies Black's castle"
    assert game.legal_moves() == []


def test_black_wins_by_occupying_whites_castle():
    game = game_of({"F1": "m", "H2": "m", **FAR_WHITE}, turn="black")
    game.play("H2-G1")
    assert game.status is Status.WON and game.winner == "black"
    assert game.status_reason == "Black occupies White's castle"


def test_win_by_capturing_every_enemy_piece_with_two_left():
    game = game_of({"E5": "M", "A4": "M", "E6": "m"})
    game.play("E5xE7")
    assert game.status is Status.WON and game.winner == "white"
    assert game.status_reason == "White captured all of Black's pieces"


def test_capturing_every_enemy_piece_with_one_left_is_a_draw():
    game = game_of({"E5": "M", "E6": "m", "E8": "m"})
    game.play("E5xE7xE9")
    assert game.status is Status.DRAW and game.winner is None


def test_win_when_the_opponent_has_no_legal_move():
    # Black's only piece sits in White's castle with no castle moves left.
    game = game_of({"F1": "m", **FAR_WHITE}, turn="white", castle_moves=(2, 0))
    game.play("A4-A5")
    assert game.status is Status.WON and game.winner == "white"
    assert game.status_reason == "Black has no legal move"


def test_no_legal_move_against_a_single_piece_is_a_draw():
    # Direct check of the rule (such a position hardly arises in play).
    pos = Position.from_text(position_from_pieces(
        {"F1": "m", "G1": "M", "E2": "m"}, turn="black", castle_moves=(2, 0)))
    kind, winner, reason = pos.outcome_no_moves()
    assert kind == "draw" and winner is None and "only one piece" in reason


def test_draw_when_both_sides_are_down_to_one_piece():
    game = game_of({"E5": "M", "E6": "m", "L13": "m"})
    game.play("E5xE7")
    assert game.status is Status.DRAW
    assert game.status_reason == "Both sides are down to one piece"


SHUFFLE = ["A4-A5", "L13-L12", "A5-A4", "L12-L13"]


def test_draw_by_threefold_repetition():
    game = game_of({"A4": "M", "B4": "M", "K13": "m", "L13": "m"})
    for text in SHUFFLE + SHUFFLE[:3]:
        game.play(text)
        assert game.status is Status.PLAYING
    game.play(SHUFFLE[3])  # the start position for the third time
    assert game.status is Status.DRAW
    assert "third time" in game.status_reason


def test_repetition_counts_castle_moves_left():
    game = game_of({"F16": "M", "A4": "M", "K13": "m", "L13": "m"})
    for text in ["F16-G16", "L13-L12", "G16-F16", "L12-L13"] + SHUFFLE:
        game.play(text)
    # The same pieces stood here three times, but twice with no castle moves left.
    assert game.status is Status.PLAYING


def test_draw_after_100_plies_without_capture_or_castle_entry():
    text = position_from_pieces({"A4": "M", "B4": "M", "K13": "m", "L13": "m"})
    game = CamelotBoard(text.replace(" w 2 2", " w 2 2 - 98"))
    game.play("A4-A5")
    assert game.status is Status.PLAYING and game.plies_without_progress == 99
    game.play("L13-L12")
    assert game.status is Status.DRAW
    assert game.status_reason == "50 moves by each side with no capture and no castle entry"


def test_a_capture_or_castle_entry_restarts_the_50_move_count():
    text = position_from_pieces({"A4": "M", "B4": "M", "F15": "M", "K13": "m", "L13": "m",
                                 "B6": "m"})
    game = CamelotBoard(text.replace(" w 2 2", " w 2 2 - 98"))
    game.play("F15-F16")  # entering a castle
    assert game.plies_without_progress == 0
    game.play("B6-B5")
    game.play("B4xB6")  # compulsory, and a capture
    assert game.plies_without_progress == 0


def test_a_castle_move_does_not_restart_the_50_move_count():
    text = position_from_pieces({"F16": "M", "A4": "M", "K13": "m", "L13": "m"})
    game = CamelotBoard(text.replace(" w 2 2", " w 2 2 - 10"))
    game.play("F16-G16")
    assert game.plies_without_progress == 11


# --- what counts as one move --------------------------------------------------------
def test_start_position_has_100_moves_52_plain_and_48_canters():
    moves = CamelotBoard().legal_moves()
    assert len(moves) == 100
    assert sum(m.kind == PLAIN for m in moves) == 52
    assert sum(m.kind == CANTER for m in moves) == 48


def test_moves_are_distinct_results_with_all_their_paths():
    for pieces in ({"D4": "M", "D5": "M", "E5": "M", "E6": "M", **FAR_BLACK},
                   {"D4": "M", "D5": "m", "E5": "m", "E6": "m", **FAR_WHITE, **FAR_BLACK}):
        game = game_of(pieces)
        keys = [(m.from_square, m.to_square, m.captured) for m in game.legal_moves()]
        assert len(keys) == len(set(keys))
        assert any(len(m.paths) > 1 for m in game.legal_moves())


# --- notation -------------------------------------------------------------------------
@pytest.mark.parametrize("pieces, text, kind", [
    ({"F7": "M", **FAR_WHITE, **FAR_BLACK}, "F7-F8", PLAIN),
    ({"D7": "N", "E6": "M", "G6": "M", **FAR_BLACK}, "D7-F5-H7", CANTER),
    ({"E9": "M", "D8": "m", "D6": "m", **FAR_WHITE, **FAR_BLACK}, "E9xC7xE5", JUMP),
    ({"C6": "N", "D6": "M", "F7": "M", "H8": "M", "H9": "m", "G11": "m", **FAR_BLACK},
     "C6-E6-G8-I8xG10xG12", CHARGE),
    ({"F16": "M", **FAR_WHITE, **FAR_BLACK}, "F16-G16", CASTLE_MOVE),
])
def test_wcf_notation_examples(pieces, text, kind):
    game = game_of(pieces)
    move = game.parse_move(text)
    assert move.kind == kind
    assert game.move_text(move) == text
    assert game.parse_move(text.lower()) == move
    assert game.play(text).notation == text


def test_every_path_of_a_move_parses_to_that_move():
    game = game_of({"D4": "M", "D5": "m", "E5": "m", "E6": "m", **FAR_WHITE, **FAR_BLACK})
    first, second = game.parse_move("D4xD6xF6xD4"), game.parse_move("D4xF6xD6xD4")
    assert first == second and hash(first) == hash(second)
    assert game.move_text(first) == "D4xD6xF6xD4" and game.move_text(second) == "D4xF6xD6xD4"
    canonical = next(m for m in game.legal_moves() if m == first)
    assert game.move_text(canonical) == "D4xD6xF6xD4"


@pytest.mark.parametrize("text", ["", "F7", "F7F8", "F7-", "Z9-F8", "A1-A2", "F7--F8",
                                  "F7 F8", "1.F7-F8", "F7-F8!"])
def test_malformed_notation_raises_notation_error(text):
    assert_rejected(CamelotBoard(), text, NotationError)


@pytest.mark.parametrize("text", ["F7-F9", "F7xF8", "F7-F8-F9", "F10-F9", "C6-C4", "F6-F5-F4"])
def test_well_formed_illegal_moves_raise_and_change_nothing(text):
    assert_rejected(CamelotBoard(), text, IllegalMoveError)


def test_illegal_move_objects_are_rejected_too():
    game = CamelotBoard()
    bogus = next(m for m in game.legal_moves() if m.kind == PLAIN)
    from game.camelot.moves import Move
    with pytest.raises(IllegalMoveError):
        game.play(Move(bogus.from_square, S("F12")))
    assert game.position_text() == START_POSITION


def test_parse_game_record():
    record = "1.F7-F8 F11-F9 2.D7-F7 2...I11-I9 3.e6-d7 1-0"
    assert parse_game_record(record) == ["F7-F8", "F11-F9", "D7-F7", "I11-I9", "e6-d7"]
    game = CamelotBoard()
    for text in parse_game_record(record):
        game.play(text)
    assert game.history == ["F7-F8", "F11-F9", "D7-F7", "I11-I9", "E6-D7"]
    with pytest.raises(NotationError):
        parse_game_record("1.F7-F8 hello")


# --- position strings -------------------------------------------------------------------
def test_start_position_string_round_trips():
    game = CamelotBoard.from_position(START_POSITION)
    assert game.position_text() == START_POSITION
    assert CamelotBoard().position_text() == START_POSITION


def test_position_string_with_history_round_trips_and_keeps_repetitions():
    game = game_of({"A4": "M", "B4": "M", "K13": "m", "L13": "m"})
    for text in SHUFFLE + SHUFFLE[:3]:
        game.play(text)
    text = game.position_text()
    assert len(text.split()) == 6 and text.split()[5] == "7"
    copy = CamelotBoard.from_position(text)
    assert copy.position_text() == text
    copy.play(SHUFFLE[3])
    assert copy.status is Status.DRAW


@pytest.mark.parametrize("text, words", [
    ("2/8/10/12 w 2 2", "16"),
    (START_POSITION.replace("2nmmmmmmn2", "2nmmmmmmn3"), "rank 11"),
    (START_POSITION.replace("3NMMMMN3", "3NMMXMN3"), "'X'"),
    (START_POSITION.replace(" w ", " x "), "side to move"),
    (START_POSITION.replace(" 2 2", " 3 2"), "castle moves"),
    (START_POSITION + " -", "fields"),
    (START_POSITION.replace("3NMMMMN3", "3NNNNNN3"), "knights"),
    ("2/8/10/12/12/12/12/12/12/12/12/12/12/10/8/2 w 2 2", "empty"),
    (START_POSITION + " zz 3", "hex"),
    (START_POSITION + " - 101", "50-move"),
    (START_POSITION.replace("12/12/10/8/2", "12/12/10/8/02"), "'02' is not a number"),
    (START_POSITION.replace("12/12/10/8/2", "12/12/10/8/0M1"), "'0' is not a number"),
])
def test_bad_position_strings_raise_bad_position_error_naming_the_fault(text, words):
    with pytest.raises(BadPositionError, match=words):
        CamelotBoard.from_position(text)


# --- the protocol: events, undo, saves ------------------------------------------------
def test_events_follow_the_path_step_by_step():
    game = game_of({"E9": "M", "D8": "m", "D6": "m", **FAR_WHITE, **FAR_BLACK})
    man, black = Piece("white", "man"), Piece("black", "man")
    assert game.play("E9xC7xE5").events == (
        PieceMoved(man, S("E9"), S("C7"), JUMP), PieceCaptured(S("D8"), black),
        PieceMoved(man, S("C7"), S("E5"), JUMP), PieceCaptured(S("D6"), black))


def test_events_of_a_charge_and_of_a_chosen_path():
    game = game_of({"E5": "N", "E6": "M", "E8": "m", **FAR_BLACK})
    knight = Piece("white", "knight")
    assert game.play("E5-E7xE9").events == (
        PieceMoved(knight, S("E5"), S("E7"), CANTER), PieceMoved(knight, S("E7"), S("E9"), JUMP),
        PieceCaptured(S("E8"), Piece("black", "man")))
    game = game_of({"D4": "M", "D5": "m", "E5": "m", "E6": "m", **FAR_WHITE, **FAR_BLACK})
    move = next(m for m in game.legal_moves() if len(m.captured) == 3)
    chosen = move.with_path(move.paths[1])
    record = game.play(chosen)
    assert [e.target for e in record.events if isinstance(e, PieceMoved)] == list(chosen.path[1:])
    assert record.notation == "D4xF6xD6xD4"


def test_undo_redo_restart_and_json_round_trip():
    game = CamelotBoard()
    for text in ["F7-F8", "F11-F9", "D7-F7"]:
        game.play(text)
    after = game.position_text()
    game.undo()
    game.undo()
    assert game.history == ["F7-F8"]
    game.redo()
    game.redo()
    assert game.position_text() == after
    copy = CamelotBoard.from_json(game.to_json())
    assert copy.position_text() == after and copy.history == game.history
    game.restart()
    assert game.position_text() == START_POSITION and not game.can_undo
    assert game.start_json() == {"position": START_POSITION}


def test_score_is_white_pieces_minus_black_pieces():
    game = game_of({"E9": "M", "D8": "m", "D6": "m", **FAR_WHITE, **FAR_BLACK})
    assert game.score == 3 - 4
    assert game.play("E9xC7xE5").score == 3 - 2
