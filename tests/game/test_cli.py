"""``python -m game``: output, --json, and one clear line + exit 2 on bad input."""
import json
import subprocess
import sys

import pytest

from game.cli import main, wilson_interval
from game.clock import Clock, play_out


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_ids(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    assert [g["id"] for g in json.loads(out)] == ["camelot-solitaire", "hamilton", "clock", "camelot-board"]


def test_moves_and_play_clock(capsys):
    code, out, _ = run(capsys, "moves", "clock", "--seed", "3")
    assert code == 0 and out.strip() == Clock(seed=3).move_text(Clock(seed=3).legal_moves()[0])
    game = play_out(Clock(seed=3))
    code, out, _ = run(capsys, "play", "clock", "--seed", "3", "--moves", " ".join(game.history), "--json")
    result = json.loads(out)
    assert code == 0 and result["status"] == game.status.value and result["score"] == game.score


def test_play_stops_at_first_illegal_move(capsys):
    first = Clock(seed=3).legal_moves()[0]
    code, _, err = run(capsys, "play", "clock", "--seed", "3", "--moves", f"{Clock(seed=3).move_text(first)} QS-4")
    assert code == 1
    assert err.startswith("error: move 2 (QS-4):") and err.count("\n") == 1


@pytest.mark.parametrize("args,words", [
    (["moves", "nope", "--seed", "1"], "unknown game 'nope'"),
    (["moves", "clock", "--seed", "abc"], "deal number"),
    (["moves", "clock", "--deck", "AS KS"], "52 cards"),
    (["moves", "clock", "--deck", " ".join(["AS"] * 52)], "appears twice"),
    (["moves", "clock", "--position", "x"], "takes --seed or --deck"),
    (["simulate", "clock", "--deals", "0"], "at least 1"),
    (["frobnicate"], "invalid choice"),
    ([], "required: command"),
    (["games", "--bogus"], "unrecognized arguments: --bogus"),
    (["moves", "clock", "--seed", "1", "--bogus"], "unrecognized arguments: --bogus"),
    (["moves"], "required: game"),
    (["play", "clock", "--seed", "1"], "required: --moves"),
    (["perft", "--depth", "x"], "--depth must be a whole number at least 0 and at most 4, not 'x'"),
    (["perft", "--depth", "-1"], "at least 0 and at most 4, not '-1'"),
    (["perft", "--position", "nonsense"], "a position string has 4 fields"),
    (["moves", "camelot-board", "--position", "xyz"], "a position string has 4 fields"),
    (["simulate", "clock", "--deals", "abc"], "--deals must be a whole number at least 1 and at most 100000, not 'abc'"),
    (["simulate", "nope", "--deals", "3"], "unknown game 'nope'"),
])
def test_bad_input_is_one_line_exit_2(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_simulate_clock(capsys):
    code, out, _ = run(capsys, "simulate", "clock", "--deals", "200", "--seed", "1", "--json")
    result = json.loads(out)
    wins = sum(play_out(Clock(seed=s)).status.value == "won" for s in range(1, 201))
    assert code == 0 and result["wins"] == wins and result["deals"] == 200
    low, high = result["ci95"]
    assert low <= result["win_rate"] <= high


def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


def test_module_entry_point_runs():
    proc = subprocess.run([sys.executable, "-m", "game", "moves", "clock", "--seed", "x"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.startswith("error: deal number")
