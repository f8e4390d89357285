"""What each term of the board engine's evaluation says about a position: one
piece moved between two squares that differ in that term only, everything else
far from both castles (so no castle race counts)."""
from __future__ import annotations

from game.camelot import eval as ev
from game.camelot.ai import evaluate
from game.camelot.board import position_from_pieces
from game.camelot.geometry import parse_square
from game.camelot.position import Position

# The rest of the board, far from both castles: Black's men on the eighth rank,
# White's on the fifth, on the wing.
REST = {"K5": "M", "K8": "m", "L8": "m"}


def white_view(pieces: dict[str, str], turn: str = "white") -> int:
    pos = Position.from_text(position_from_pieces({**REST, **pieces}, turn))
    assert ev.race_score(pos.bits) == 0
    score = evaluate(pos)
    return score if turn == "white" else -score


def test_a_man_three_to_five_steps_from_the_enemy_castle_gains_the_approach_bonus():
    # G13 is three king steps from Black's castle (F16, G16), G11 five, G10 six
    g10, g11, g13 = white_view({"G10": "M"}), white_view({"G11": "M"}), white_view({"G13": "M"})
    assert g11 - g10 == ev.PROGRESS_STEP + ev.CASTLE_APPROACH[5]
    assert g13 - g11 == 2 * ev.PROGRESS_STEP + ev.CASTLE_APPROACH[3] - ev.CASTLE_APPROACH[5]
    assert ev.CASTLE_APPROACH[5] > 0 and ev.CASTLE_APPROACH[3] > 0


def test_a_man_two_steps_from_its_own_castle_is_a_home_guard():
    # F3 is two steps from White's castle (F1, G1), F4 three; both far from Black's
    f3, f4 = white_view({"F3": "M"}), white_view({"F4": "M"})
    assert f3 - f4 == ev.HOME_GUARD - ev.PROGRESS_STEP
    assert f3 > f4        # the guard is worth more than the step forward


def test_a_man_on_an_outer_file_is_worth_less():
    # A6 and C6: the same steps from both castles, A an outer file
    a6, c6 = white_view({"A6": "M"}), white_view({"C6": "M"})
    assert ev.DISTANCE[1][parse_square("A6")] == ev.DISTANCE[1][parse_square("C6")]
    assert a6 - c6 == ev.OUTER_FILE < 0


def test_the_side_to_move_has_the_tempo():
    # the same position with either side to move: the mover's view gains the tempo
    white_to_move = white_view({"E6": "M"}, "white")
    black_to_move = white_view({"E6": "M"}, "black")
    assert white_to_move - black_to_move == 2 * ev.TEMPO > 0


def test_a_knight_is_worth_more_than_a_man_on_the_same_square():
    assert white_view({"E6": "N"}) - white_view({"E6": "M"}) == ev.KNIGHT_VALUE - ev.MAN_VALUE > 0



def threat(pieces: dict[str, str], side: int) -> bool:
    return ev.castle_step_threat(Position.from_text(position_from_pieces({**REST, **pieces})).bits,
                                 side)


def test_a_castle_step_threat_needs_a_castle_square_held_and_a_piece_beside_the_empty_one():
    # White holds G16, E15 is next to the empty F16: one step into it wins
    assert threat({"G16": "M", "E15": "M"}, 0)
    # Nobody beside F16 but the piece on G16 itself: no threat
    assert not threat({"G16": "M", "H15": "M"}, 0)
    # F16 is occupied (by Black): no step into it
    assert not threat({"G16": "M", "E15": "M", "F16": "m"}, 0)
    # Only beside the castle, nothing in it: no threat
    assert not threat({"E15": "M", "F15": "N"}, 0)
    # The same shape for Black at White's castle (F1 held, H2 beside G1)
    assert threat({"F1": "n", "H2": "m"}, 1)
    assert not threat({"F1": "n", "H2": "m"}, 0)
