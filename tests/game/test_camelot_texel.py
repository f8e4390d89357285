"""bench/camelot_texel.py: its linear model is the engine's evaluation (so the
weights it fits are the evaluation's own), and a tiny self-play run writes
quiet positions with the game's result."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import camelot_texel  # noqa: E402
from game.camelot.board import CamelotBoard, position_from_pieces  # noqa: E402
from game.camelot.eval import evaluate_from, pst_total  # noqa: E402

POSITIONS = [
    "2/8/10/12/12/2nmmmm1mn2/3nmmmmn3/12/6MN2N1/3NMMMMN3/3MMM1MM3/12/12/10/8/2 b 2 2",
    "2/8/10/12/12/5mmmm1n1/3nmmm1nm2/2m1nm6/6MN1M2/3NM1MMNM2/2NMMMM5/12/12/10/8/2 w 2 2",
]


def test_features_times_todays_weights_is_the_evaluation():
    weights = camelot_texel.current_weights()
    boards = [CamelotBoard(p) for p in POSITIONS] + [CamelotBoard()]
    game = CamelotBoard()
    for move in ("F7-F8", "G10-G9", "F8-F9"):   # a piece nearer Black's castle than the rest
        game.play(move)
    boards.append(game)
    for board in boards:
        pos = board.position
        model = sum(w * f for w, f in zip(weights, camelot_texel.features(pos)))
        score = evaluate_from(pst_total(pos.board), pos.bits, pos.side)
        # White's view; the race's percentage is rounded down in the evaluation
        assert abs(model - (score if pos.side == 0 else -score)) <= 1


def test_tiny_self_play_writes_quiet_positions_with_the_result(tmp_path):
    out = tmp_path / "positions.txt"
    camelot_texel.make_games(camelot_texel.main_parser().parse_args(
        ["games", "--out", str(out), "--games", "1", "--nodes", "50", "--cap", "30"]))
    lines = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert lines
    for line in lines:
        text, points, game = line.split("\t")
        assert points == "0.5" and game == "0"          # the cap ends the game undecided: a draw
        pos = CamelotBoard(text).position
        assert camelot_texel.quiet(pos)


def position_after(moves: list[str]) -> str:
    game = CamelotBoard()
    for move in moves:
        game.play(move)
    return game.position_text()


def test_a_random_opening_never_reaches_a_position_it_is_told_to_avoid():
    first = camelot_texel.random_opening(7, 2, 2, set())
    assert len(first) == 2
    again = camelot_texel.random_opening(7, 2, 2, {position_after(first)})
    assert position_after(again) != position_after(first)   # the same seed, another opening
    # every position on the way into a suite opening is avoided, not only its last
    suite = camelot_texel.suite_positions([first])
    assert position_after(first[:1]) in suite and position_after(first) in suite


def test_self_play_from_random_openings_two_at_once(tmp_path):
    out = tmp_path / "positions.txt"
    camelot_texel.make_games(camelot_texel.main_parser().parse_args(
        ["games", "--out", str(out), "--games", "2", "--nodes", "50", "--cap", "40",
         "--jobs", "2", "--random-plies", "3-5", "--seed", "4"]))
    header, *lines = out.read_text().splitlines()
    assert "2 self-play games" in header and "random plies" in header
    assert {line.split("\t")[2] for line in lines} <= {"0", "1"}
    for line in lines:
        assert camelot_texel.quiet(CamelotBoard(line.split("\t")[0]).position)


def test_square_columns_count_each_side_on_its_own_ranks_and_mirror_the_files():
    # White's man on F7 and Black's on F10 stand on the same square as each owner
    # sees it: they cancel; G7 is F7's mirror image across the centre.
    cancel = CamelotBoard(position_from({"F7": "M", "F10": "m", "K5": "M", "K12": "m"}))
    assert not any(camelot_texel.square_columns(cancel.position))
    mirrored = camelot_texel.square_columns(
        CamelotBoard(position_from({"F7": "M", "K5": "M", "K12": "m"})).position)
    assert mirrored == camelot_texel.square_columns(
        CamelotBoard(position_from({"G7": "M", "K5": "M", "K12": "m"})).position)
    assert sum(mirrored) == 1 and sum(abs(v) for v in mirrored) == 1   # K5 and K12 cancel


def position_from(pieces: dict[str, str]) -> str:
    return position_from_pieces(pieces, "white")
