"""The Camelot computer opponent: finds obvious wins, only plays legal moves, leaves
the board alone, is reproducible with a seed and stops when told to."""
from __future__ import annotations

import dataclasses
import random
import threading
import time

import pytest

from game.camelot.ai import LEVELS, SearchResult, choose_move, evaluate
from game.camelot.board import START_POSITION, CamelotBoard, position_from_pieces
from game.camelot.eval import TEMPO
from game.camelot.position import Position

FAR_BLACK = {"K13": "m", "L13": "m"}


def game_of(pieces, turn="white"):
    return CamelotBoard(position_from_pieces(pieces, turn))


@pytest.mark.parametrize("level", list(LEVELS))
def test_takes_the_capture_that_wins_the_game(level):
    # Not compulsory (only a knight's charge captures), but it takes Black's last piece.
    game = game_of({"E5": "N", "E6": "M", "A4": "M", "E8": "m"})
    result = choose_move(game, level, seed=1, time_limit=0.5)
    assert str(result.move) == "E5-E7xE9"


def test_chooses_the_jump_that_captures_everything():
    game = game_of({"E5": "M", "A4": "M", "E6": "m", "F8": "m", "D5": "m", "L13": "m"})
    # E5xE7xG9 leaves D5 and L13; E5xC5 leaves three. Neither ends the game, but
    # the double capture is plainly better.
    assert str(choose_move(game, "medium", seed=1).move) == "E5xE7xG9"


def test_steps_into_the_castle_to_win():
    game = game_of({"F16": "M", "H15": "M", "A4": "M", **FAR_BLACK})
    result = choose_move(game, "hard", seed=1, time_limit=0.5)
    assert str(result.move) == "H15-G16"
    assert result.score > 10_000


def test_black_steps_into_whites_castle_to_win():
    game = game_of({"F1": "m", "H2": "m", "A4": "M", "B4": "M"}, turn="black")
    assert str(choose_move(game, "easy", seed=2).move) == "H2-G1"


def test_never_returns_an_illegal_move_and_never_changes_the_board():
    rng = random.Random(11)
    for n in range(12):
        game = CamelotBoard()
        for _ in range(rng.randint(0, 60)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        before = (game.position_text(), game.history)
        for level in ("easy", "hard"):
            result = choose_move(game, level, seed=n, time_limit=0.05)
            if game.legal_moves():
                assert result.move in game.legal_moves()
                assert result.move.paths  # the UI can show its path
            else:
                assert result.move is None
            assert (game.position_text(), game.history) == before


def test_search_result_is_a_frozen_record():
    result = choose_move(CamelotBoard(), "easy", seed=1)
    assert isinstance(result, SearchResult)
    assert result.depth >= 1 and result.nodes > 0 and result.nps > 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.score = 3  # type: ignore[misc]


def test_same_seed_and_depth_give_the_same_move():
    game = CamelotBoard()
    first = choose_move(game, "hard", seed=5, time_limit=60, max_depth=2)
    second = choose_move(game, "hard", seed=5, time_limit=60, max_depth=2)
    assert (first.move, first.score, first.nodes) == (second.move, second.score, second.nodes)
    assert first.depth == 2


def test_a_set_stop_event_ends_the_search_with_a_legal_move():
    stop = threading.Event()
    stop.set()
    game = CamelotBoard()
    result = choose_move(game, "hard", seed=1, stop_event=stop)
    assert result.move in game.legal_moves()


def test_no_move_when_the_game_is_over():
    game = game_of({"F16": "M", "G16": "M", **FAR_BLACK}, turn="black")
    assert choose_move(game, "hard").move is None
    assert game.computer_move() is None


def test_computer_move_is_legal():
    game = CamelotBoard()
    assert game.computer_move(random.Random(3)) in game.legal_moves()


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        choose_move(CamelotBoard(), "grandmaster")


def test_works_on_a_bare_position_and_evaluation_is_symmetric():
    pos = Position.from_text(START_POSITION)
    assert evaluate(pos) == TEMPO  # the start is symmetric: only having the move counts
    assert evaluate(Position.from_text(START_POSITION.replace(" w ", " b "))) == TEMPO
    result = choose_move(pos, "easy", seed=1)
    assert result.move in CamelotBoard().legal_moves()
    assert pos.text() == START_POSITION


def test_a_table_kept_between_moves_is_filled_and_saves_work():
    # The sacrifice position: search it, play the expected line's first two
    # moves, then search again to the same depth with and without the kept table.
    game = CamelotBoard("2/8/10/12/12/2nmmmm1mn2/3nmmmmn3/12/6MN2N1/3NMMMMN3/3MMM1MM3/12/12"
                        "/10/8/2 b 2 2")
    table: dict = {}
    first = choose_move(game, "hard", seed=1, time_limit=60, max_depth=4, table=table)
    assert table and len(first.pv) >= 2
    game.play(first.pv[0])
    game.play(first.pv[1])
    fresh = choose_move(game, "hard", seed=1, time_limit=60, max_depth=4)
    kept = choose_move(game, "hard", seed=1, time_limit=60, max_depth=4, table=table)
    assert kept.move in game.legal_moves() and kept.depth == fresh.depth == 4
    assert kept.nodes < fresh.nodes


def test_a_table_kept_for_one_side_is_not_read_by_the_other():
    # A draw scores -CONTEMPT for the side a search plays for: a table Black's
    # search filled must not answer White's search of the position after Black's
    # move (a hint, the engine thinking for both). With the entries apart, that
    # search is the same as one with a fresh table, to the node.
    game = CamelotBoard("2/8/10/12/12/2nmmmm1mn2/3nmmmmn3/12/6MN2N1/3NMMMMN3/3MMM1MM3/12/12"
                        "/10/8/2 b 2 2")
    table: dict = {}
    black = choose_move(game, "hard", seed=1, time_limit=60, max_depth=4, table=table)
    game.play(black.move)
    fresh = choose_move(game, "hard", seed=1, time_limit=60, max_depth=3)
    kept = choose_move(game, "hard", seed=1, time_limit=60, max_depth=3, table=table)
    assert (kept.move, kept.score, kept.nodes) == (fresh.move, fresh.score, fresh.nodes)
    again = choose_move(game, "hard", seed=1, time_limit=60, max_depth=3, table=table)
    assert again.nodes < fresh.nodes          # its own entries, kept, do answer it


def test_the_cycle_collector_is_left_as_it_was():
    # The search pauses Python's cycle collector (its pauses would overrun the
    # time limit) and must give it back in the state it found it, even on error.
    import gc
    game = CamelotBoard()
    assert gc.isenabled()
    choose_move(game, "easy", seed=1, max_depth=1)
    assert gc.isenabled()
    gc.disable()
    try:
        choose_move(game, "easy", seed=1, max_depth=1)
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ValueError):
        choose_move(game, "no such level")
    assert gc.isenabled()


def test_a_draw_costs_the_searching_side_a_little():
    # Contempt: a draw inside the search is scored below even for the side the
    # search plays for and above even for its opponent, so it plays on.
    from game.camelot.search import CONTEMPT, Search
    pos = CamelotBoard().position
    search = Search(pos)
    assert search._draw() == -CONTEMPT < 0
    key = next(iter(search.pos.moves()))
    search.pos.push(*key)
    assert search._draw() == CONTEMPT > 0


def test_a_search_past_its_deadline_still_searches_the_first_ply_whole():
    # The start position, with the deadline already gone when the search begins
    # (as on a loaded machine, or a first search that paid for loading the
    # tablebase): the answer is a searched move at depth 1, not a guess at depth 0.
    from game.camelot.search import Search
    board = CamelotBoard()
    pos = board.position
    keys = list(pos.moves(want_paths=True))
    late = Search(pos, deadline=time.perf_counter() - 1.0)
    done = late.run(keys, max_depth=6)
    assert done is not None and done.depth == 1 and late.nodes > len(keys)
    assert done.best in keys
    # …but told to stop, it stops at its next look (every 32 nodes): no iteration whole.
    stopped = threading.Event()
    stopped.set()
    told = Search(pos, stop_event=stopped)
    partial = told.run(keys, max_depth=6)
    assert (partial is None or partial.depth == 0) and told.nodes <= 64


def test_the_first_ply_past_its_deadline_runs_for_the_moves_time_again_at_most(monkeypatch):
    # A first ply that would take long (here: any, with no grace at all) is cut
    # at the move's own time after the deadline, not searched for ever: the
    # search then gives its best root move so far, or none (the level plays the
    # first in its order).
    from game.camelot import search as search_module
    pos = CamelotBoard().position
    keys = list(pos.moves(want_paths=True))
    whole = search_module.Search(pos)
    whole.run(keys, max_depth=1)
    monkeypatch.setattr(search_module, "FIRST_PLY_GRACE", 0.0)
    late = search_module.Search(pos, deadline=time.perf_counter() - 1.0)
    done = late.run(keys, max_depth=6)
    assert (done is None or done.depth == 0) and late.nodes < whole.nodes


# Both sides at the enemy castle's door: White holds G16 with E15 beside F16, Black
# holds F1 with H2 beside G1. Nothing is forced, so the side to move steps in and wins.
BOTH_AT_THE_DOORS = {"G16": "M", "E15": "M", "K5": "M", "A8": "N", "C6": "M",
                     "F1": "m", "H2": "m", "L8": "m", "B10": "n", "J12": "m"}


@pytest.mark.parametrize("turn, win", [("white", "E15-F16"), ("black", "H2-G1")])
def test_a_step_into_the_enemy_castle_is_seen_at_once_when_both_sides_threaten_one(turn, win):
    # Each side's quiescence once answered the other's threat with every move
    # before trying its own step in: the first ply of this position took 859,000
    # nodes with Black to move, over 2 million with White (an engine that did not
    # answer for tens of seconds in a match). Now a handful of nodes.
    from game.camelot.search import MATE, Search
    pos = Position.from_text(position_from_pieces(BOTH_AT_THE_DOORS, turn))
    keys = sorted(pos.moves(), key=lambda k: k[1])   # the winning step far from first
    search = Search(pos, node_limit=5_000)
    done = search.run(keys, max_depth=1)
    assert done is not None and done.score == MATE - 1
    game = game_of(BOTH_AT_THE_DOORS, turn)
    assert str(next(m for m in game.legal_moves()
                    if (m.from_square, m.to_square, m.captured) == done.best)) == win
    assert search.nodes < 200


def test_an_iteration_is_begun_when_its_first_half_fits_the_budget():
    # The last best move is searched first and a cut-short iteration's best is
    # used, so a move with a fixed time searches on: at 0.4 s of 1 s, an
    # iteration expected to take 0.625 s is begun (the whole of it would not
    # fit: the rule that left 60 % of a second unused), one of 0.8 s at 0.7 s not.
    from game.camelot.search import worth_beginning
    assert worth_beginning(0.4, 0.625, 1.0)
    assert worth_beginning(0.5, 1.0, 1.0)
    assert not worth_beginning(0.7, 0.8, 1.0)
    assert not worth_beginning(0.97, 0.1, 1.0)
