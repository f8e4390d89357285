"""The background solver service, headless (no pygame)."""
from __future__ import annotations

import random
import sys

import pytest

import scenes.work.solver_service as service_module
from game.base import Status
from game.camelot_solitaire import CamelotSolitaire
from game.hamilton import Hamilton
from scenes.work.solver_service import SolverService, cached_winnable_deals, winnable_deal
from game.solver_common import NOT_WINNABLE, WINNABLE


def test_no_pygame_needed():
    import subprocess
    code = "import sys, scenes.work.solver_service; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


@pytest.fixture
def service():
    s = SolverService("thread").start()
    yield s
    s.shutdown()


def test_a_hint_is_the_next_move_of_a_winning_line(service):
    game = CamelotSolitaire(seed=1)
    game.play("t")
    rid = service.request(game, "hint")
    result = service.wait(20)
    assert result.answer == WINNABLE and service.last_purpose == "hint"
    assert service.last_reply.rid == rid
    game.play(result.line[0])                       # the hint is a legal move here
    assert service.poll() is None                   # an answer is given once


def test_the_game_is_copied_and_the_scene_may_play_on(service):
    game = Hamilton(seed=9)
    service.request(game, "indicator")
    game.play("t")                                  # the scene's game moves on
    result = service.wait(20)
    assert result.answer == WINNABLE
    fresh = Hamilton(seed=9)
    for move in result.line:
        fresh.play(move)
    assert fresh.status is Status.WON


def test_a_newer_request_cancels_the_older(service):
    slow = CamelotSolitaire(seed=11)                # a long search
    service.request(slow, "indicator", max_states=10_000_000)
    quick = CamelotSolitaire(seed=1)
    rid = service.request(quick, "hint")
    result = service.wait(30)
    assert service.last_reply.rid == rid and result.answer == WINNABLE


def test_a_lost_position_says_so(service):
    game = Hamilton(seed=9)
    for _ in range(4):
        game.play("t")
    service.request(game, "hint")
    assert service.wait(10).answer == NOT_WINNABLE


def test_poll_never_blocks(service):
    service.request(CamelotSolitaire(seed=11), "indicator", max_states=10_000_000)
    import time
    started = time.perf_counter()
    for _ in range(100):
        service.poll()
    assert time.perf_counter() - started < 0.5
    service.cancel()


def test_a_worker_process():
    s = SolverService("process").start()
    try:
        s.request(CamelotSolitaire(seed=1), "demo")
        result = s.wait(60)
        assert result is not None and result.answer == WINNABLE
        assert s.last_purpose == "demo"
    finally:
        s.shutdown()
    assert not s.running


def test_winnable_deal_from_the_cache(tmp_path, monkeypatch):
    (tmp_path / "winnable-hamilton.txt").write_text("# proven\n9 159\n", encoding="utf-8")
    monkeypatch.setattr(service_module, "DATA_DIR", tmp_path)
    assert cached_winnable_deals("hamilton") == [9, 159]
    assert winnable_deal("hamilton", random.Random(1)) in (9, 159)


def test_winnable_deal_without_a_cache_solves_deals(tmp_path, monkeypatch):
    monkeypatch.setattr(service_module, "DATA_DIR", tmp_path)
    seed = winnable_deal("clock", random.Random(3))
    from game.clock import Clock, play_out
    assert play_out(Clock(seed=seed)).status is Status.WON


def test_the_repo_cache_lists_hold_proven_deals():
    for game_id in ("camelot-solitaire", "hamilton"):
        deals = cached_winnable_deals(game_id)
        if deals:
            from game.solver_common import solver_for
            assert solver_for(game_id)(deals[0]).answer == WINNABLE
