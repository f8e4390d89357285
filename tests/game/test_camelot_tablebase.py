"""The three-piece tablebase (game/camelot/tablebase.py) against the engine's
own rules: every sampled value is what the engine's legal moves give one ply
on (so the table agrees with the move generator position by position), won
positions are walked to the win within the stated distance against every
defence, and short wins agree with the plain search of bench/camelot_plain.py."""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from game.camelot.moves import SQUARE_NAMES
from game.camelot.position import Position
from game.camelot.tablebase import NAMES, PAIRS, Probe, Tablebase

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from camelot_plain import WIN, PlainSearch  # noqa: E402


@pytest.fixture(scope="module")
def tb():
    table = Tablebase()
    if not table.available:
        message = (f"the tablebase is not built ({table.problem}): "
                   f"python -m game.camelot.tablebase build")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return table


def random_position(rng: random.Random, near_castle: bool = False) -> Position:
    """Two pieces against one, anywhere (or near a castle), any castle counts."""
    while True:
        pool = list(range(160))
        if near_castle:
            pool = [sq for sq in pool if int(SQUARE_NAMES[sq][1:]) in (1, 2, 3, 14, 15, 16)]
        squares = rng.sample(pool, 3)
        pair_side = rng.randint(0, 1)
        sign = 1 if pair_side == 0 else -1
        board = [0] * 160
        board[squares[0]] = sign * rng.choice((1, 2))
        board[squares[1]] = sign * rng.choice((1, 2))
        board[squares[2]] = -sign * rng.choice((1, 2))
        pos = Position(board, rng.randint(0, 1), (rng.randint(0, 2), rng.randint(0, 2)))
        return pos


def value_one_ply_on(tb: Tablebase, pos: Position) -> Probe:
    """The value of ``pos`` for the side to move from the engine's rules: the game's
    end now, or the best of its legal moves' values (looked up one ply on)."""
    ended = pos.outcome_without_moves()
    if ended is not None:
        return Probe("draw", None) if ended[1] is None else \
            Probe("win" if ended[1] == pos.side else "loss", 0)
    moves = pos.moves()
    if not moves:
        ended = pos.outcome_no_moves()
        return Probe("draw", None) if ended[1] is None else \
            Probe("win" if ended[1] == pos.side else "loss", 0)
    children = []
    for key in moves:
        pos.push(*key)
        ended = pos.outcome_without_moves()
        if ended is not None:
            child = Probe("draw", None) if ended[1] is None else \
                Probe("win" if ended[1] == pos.side else "loss", 0)
        else:
            child = tb.probe(pos)
        pos.pop()
        children.append(child)
    wins = [c.plies for c in children if c.result == "loss"]   # the mover wins there
    if wins:
        return Probe("win", 1 + min(wins))
    if any(c.result == "draw" for c in children):
        return Probe("draw", None)
    return Probe("loss", 1 + max(c.plies for c in children))


def without_history(pos: Position) -> Position:
    """The same position with no repetition history (the table knows none)."""
    return Position(pos.board, pos.side, tuple(pos.castle_left))


@pytest.mark.parametrize("near_castle", [False, True])
def test_every_sampled_value_is_what_the_engines_moves_give(tb, near_castle):
    rng = random.Random(23 + near_castle)
    seen = {"win": 0, "loss": 0, "draw": 0}
    for _ in range(400):
        pos = random_position(rng, near_castle)
        stored = tb.probe(pos)
        assert stored == value_one_ply_on(tb, pos), pos.text()
        seen[stored.result] += 1
    assert all(seen.values()), seen   # wins, losses and draws all sampled


def best_move(tb: Tablebase, pos: Position):
    """The move keeping the table's promise: to the quickest win."""
    best = None
    for key in pos.moves():
        pos.push(*key)
        ended = pos.outcome_without_moves()
        if ended is not None:
            value = 0 if ended[1] == 1 - pos.side else None
        else:
            probe = tb.probe(pos)
            value = probe.plies if probe.result == "loss" else None
        pos.pop()
        if value is not None and (best is None or value < best[0]):
            best = (value, key)
    return best[1]


def test_won_positions_are_won_within_the_distance_against_every_defence(tb):
    rng = random.Random(5)
    walked = 0
    while walked < 25:
        pos = random_position(rng, near_castle=walked % 2 == 1)
        promise = tb.probe(pos)
        if promise.result != "win" or promise.plies < 3:
            continue
        walked += 1
        winner = pos.side
        for played in range(promise.plies + 1):
            ended = pos.outcome_without_moves()
            if ended is not None or not pos.moves():
                ended = ended or pos.outcome_no_moves()
                break
            left = promise.plies - played
            if pos.side == winner:
                pos.push(*best_move(tb, pos))
            else:
                # Every defence keeps the win within the distance left.
                for key in pos.moves():
                    pos.push(*key)
                    after = pos.outcome_without_moves()
                    if after is None:
                        probe = tb.probe(pos)
                        assert probe.result == "win" and probe.plies <= left - 1
                    else:
                        assert after[1] == winner
                    pos.pop()
                pos.push(*rng.choice(list(pos.moves())))
            pos = without_history(pos)
        assert ended is not None and ended[1] == winner and played <= promise.plies


def test_short_wins_and_no_wins_agree_with_the_plain_search(tb):
    rng = random.Random(11)
    checked = {"short": 0, "long": 0}
    while min(checked.values()) < 6:
        pos = random_position(rng, near_castle=True)
        if pos.outcome() is not None:
            continue
        probe = tb.probe(pos)
        plain = PlainSearch(4)
        score = max(plain.scores(pos).values())
        if probe.result == "win" and probe.plies <= 3:
            assert score == WIN - probe.plies
            checked["short"] += 1
        elif probe.result == "draw" or probe.plies > 4:
            assert score < WIN - 4   # no win within four plies
            checked["long"] += 1


def test_a_probe_outside_three_pieces_is_none(tb):
    assert tb.probe(Position.from_text(
        "2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2")) is None
    assert set(NAMES) == set(PAIRS)


def test_a_missing_table_is_reported_not_raised(tmp_path):
    table = Tablebase(tmp_path)
    assert not table.available and "camelot-3-mm" in table.problem
    assert table.probe(Position([0] * 160)) is None


def test_think_and_the_protocol_say_a_move_came_from_the_tablebase(tb, capsys):
    import io
    import json
    from game.camelot.board import CamelotBoard, position_from_pieces
    from game.camelot.engine import Engine
    from game.cli import main
    # Two White men against a Black man, far apart: a long win for White.
    text = position_from_pieces({"F8": "M", "G8": "M", "B13": "m"})
    pos = CamelotBoard(text).position
    promise = tb.probe(pos)
    assert promise.result == "win" and promise.plies > 5
    assert main(["think", "camelot-board", "--position", text, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["source"] == "tablebase" and answer["tablebase"] == f"win in {promise.plies}"
    game = CamelotBoard(text)
    game.play(answer["move"])     # the move keeps the promise: one ply nearer
    assert tb.probe(game.position) == type(promise)("loss", promise.plies - 1)
    out = io.StringIO()
    engine = Engine(out)
    engine.handle(f"position fen {text}")
    engine.handle("go depth 3")
    engine.wait(timeout=30)
    engine.stop()
    lines = out.getvalue().splitlines()
    assert lines[-2] == f"info string tablebase win in {promise.plies}"
    assert f"score win {promise.plies}" in lines[-3] and lines[-1] == f"bestmove {answer['move']}"
