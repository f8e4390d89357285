"""Hamilton's dead-end search runs apart from ``play`` (issue 10, item 3):
``play`` decides only what it can at once; ``check_dead_end`` / ``settle`` run
the search here, ``dead_end_verdict`` runs it as a JSON job for a worker, and
``apply_dead_end_verdict`` takes the answer back."""
from __future__ import annotations

import json
import random

from game.base import Status
from game.cli import main
from game.errors import BadSaveError
from game.hamilton import Hamilton, dead_end_verdict

import pytest

# deal 0, played into a dead end: the last move leaves no way to another
# foundation card (the stock is empty after the fourth "d")
DEAL_0 = ("t t ch>f0 t1>f1 t5>f2 t3>t2 t3>t2 t3>f3 d d t3>f1 d d t0:2>f0 t1>f3 t0>t6 t1>t2 "
          "t1>t6 t0>t1 t0>t3 t2:2>t0 t2>f0").split()
REASON = "no sequence of moves can put another card on the foundations"


def played(moves) -> Hamilton:
    game = Hamilton(seed=0)
    for move in moves:
        game.play(move)
    return game


def test_play_does_not_search_it_marks_the_position_pending():
    game = played(DEAL_0)
    assert game.stock_count == 0
    assert game.status is Status.PLAYING and game.dead_end_pending
    assert game.legal_moves() != []               # only moves that cannot help
    assert game.settle() is Status.LOST and game.status_reason == REASON
    assert not game.dead_end_pending


def test_no_dead_end_while_the_stock_holds_cards():
    game = played(DEAL_0[:3])
    assert game.stock_count == 23 and not game.dead_end_pending
    assert game.check_dead_end() is False and game.status is Status.PLAYING


def test_the_verdict_is_a_json_job_and_goes_back_to_the_game():
    game = played(DEAL_0)
    job = json.loads(json.dumps(game.to_json()))        # what crosses to a worker
    verdict = json.loads(json.dumps(dead_end_verdict(job)))
    assert verdict == {"position": game.position_key(), "dead_end": True, "reason": REASON}
    assert game.status is Status.PLAYING                # the worker's game, not this one
    assert game.apply_dead_end_verdict(verdict) is True
    assert game.status is Status.LOST and game.dead_end_reason == REASON
    game.undo()                                          # undo is still offered
    assert game.status is Status.PLAYING and game.dead_end_pending   # asked again


def test_a_position_with_a_way_on_is_not_a_dead_end_and_is_not_asked_again():
    game = played(DEAL_0[:-1])
    assert game.dead_end_pending
    verdict = dead_end_verdict(game.to_json())
    assert verdict["dead_end"] is False and verdict["reason"] == ""
    assert game.apply_dead_end_verdict(verdict) is False
    assert game.status is Status.PLAYING and not game.dead_end_pending


def test_a_verdict_about_another_position_changes_nothing():
    game = played(DEAL_0)
    stale = dead_end_verdict(played(DEAL_0[:-1]).to_json())
    assert game.apply_dead_end_verdict(stale) is False
    assert game.apply_dead_end_verdict({"dead_end": True}) is False
    assert game.apply_dead_end_verdict("lost") is False
    assert game.status is Status.PLAYING and game.dead_end_pending


def test_a_search_that_gives_up_claims_nothing():
    game = played(DEAL_0)
    verdict = dead_end_verdict(game.to_json(), limit=1)
    assert verdict["dead_end"] is None
    assert game.apply_dead_end_verdict(verdict) is False
    assert game.status is Status.PLAYING and not game.dead_end_pending


def test_dead_end_verdict_refuses_what_is_not_a_hamilton_game():
    with pytest.raises(BadSaveError):
        dead_end_verdict({"version": 1, "game": "clock", "start": {"seed": 1}, "moves": []})
    with pytest.raises(BadSaveError):
        dead_end_verdict({"version": 1, "game": "hamilton", "start": {"seed": 0}, "moves": ["zz"]})


def test_the_command_line_reports_the_dead_end(capsys):
    code = main(["play", "hamilton", "--seed", "0", "--moves", " ".join(DEAL_0), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["status"] == "lost" and result["reason"] == REASON


def test_a_copy_from_json_of_a_dead_end_is_lost_once_it_runs_the_same_check():
    # Deal 1, random legal moves (seed 1), each settled: the game ends in a dead end.
    game, rng = Hamilton(seed=1), random.Random(1)
    while game.legal_moves():
        game.play(rng.choice(game.legal_moves()))
        game.settle()
    assert game.status is Status.LOST and game.dead_end_reason
    copy = Hamilton.from_json(game.to_json())
    assert copy.status is Status.PLAYING and copy.dead_end_pending   # derived, not stored
    copy.settle()
    assert (copy.status, copy.status_reason) == (game.status, game.status_reason)
