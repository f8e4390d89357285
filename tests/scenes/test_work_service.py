"""The background-work service, headless (no pygame): answers come back as
JSON, a newer request cancels the older, a bad request is an error answer, and
no worker process is left after shutdown. Every wait is bounded."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time

import pytest

import scenes.work.deals as deals_module
from game.base import Status
from game.camelot_solitaire import CamelotSolitaire
from game.hamilton import Hamilton
from game.solver_common import NOT_WINNABLE, WINNABLE
from scenes.work import tasks
from scenes.work.deals import cached_winnable_deals, winnable_deal
from scenes.work.service import Channel, WorkService
from scenes.work.thinker import Thinker
from .harness import children_left

WAIT = 30.0   # s: generous for a loaded machine; a hang fails, never blocks


def test_no_pygame_needed():
    code = ("import sys, scenes.work.service, scenes.work.thinker, scenes.work.deals; "
            "print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


@pytest.fixture(scope="module")
def service():
    """One process pool for the module (starting one takes a moment)."""
    s = WorkService()
    assert s.wait_ready(WAIT)
    yield s
    s.shutdown()


@pytest.fixture
def threads():
    s = WorkService(use_processes=False)
    yield s
    s.shutdown()


def test_a_request_is_kept_until_the_pool_is_up_and_then_answered():
    s = WorkService()
    gate = threading.Event()
    start_pool = s._start_pool
    s._start_pool = lambda: (gate.wait(WAIT), start_pool())   # the pool cannot start yet ...
    try:
        channel = Channel("solve", s)
        channel.ask({"game": CamelotSolitaire(seed=1).to_json()})
        # ... and asking did not wait for it: the request is kept, unanswered
        assert not s.ready and s.pending == 1 and channel.busy and channel.poll() is None
        gate.set()
        answer = channel.wait(WAIT)
        assert answer is not None and answer.ok and answer.data["answer"] == WINNABLE
        assert s.use_processes and s.ready
    finally:
        pids = s.worker_pids()
        s.shutdown()
    assert pids and not set(pids) & {p.pid for p in children_left()}


def test_a_hint_is_the_next_move_of_a_winning_line(service):
    game = CamelotSolitaire(seed=1)
    game.play("t")
    channel = Channel("solve", service)
    rid = channel.ask({"game": game.to_json()})
    answer = channel.wait(WAIT)
    assert answer.rid == rid and answer.data["answer"] == WINNABLE
    game.play(answer.data["line"][0])               # the hint is a legal move here
    assert channel.poll() is None                   # an answer is given once


def test_the_game_is_copied_and_the_scene_may_play_on(service):
    game = Hamilton(seed=9)
    channel = Channel("solve", service)
    channel.ask({"game": game.to_json()})
    game.play("t")                                  # the scene's game moves on
    answer = channel.wait(WAIT)
    assert answer.data["answer"] == WINNABLE
    fresh = Hamilton(seed=9)
    for move in answer.data["line"]:
        fresh.play(move)
    assert fresh.status is Status.WON


def test_a_newer_request_cancels_the_older_and_stops_its_search(service):
    channel = Channel("solve", service)
    slow = channel.ask({"game": Hamilton(seed=11).to_json(), "max_states": 10_000_000,
                        "max_seconds": 60})
    end = time.monotonic() + WAIT                   # until the slow search is running
    while not (service.ready and slow in service._futures and service._futures[slow].running()):
        assert time.monotonic() < end, "the slow search never started"
        service.poll(slow)                          # sends what waited for the pool
        time.sleep(0.02)
    rid = channel.ask({"game": CamelotSolitaire(seed=1).to_json()})
    answer = channel.wait(WAIT)
    assert answer.rid == rid and answer.data["answer"] == WINNABLE
    assert service.poll(slow) is None               # the cancelled answer is never given
    assert service._flags[slow % len(service._flags)] == slow   # its search was told to stop


def test_a_cancel_flag_stops_a_running_search():
    import threading
    flags = [0] * 8
    out = []
    request = json.dumps({"id": 13, "task": "solve", "args": {
        "game": Hamilton(seed=11).to_json(), "max_states": 10_000_000, "max_seconds": 60}})
    worker = threading.Thread(target=lambda: out.append(tasks.run(request, flags)))
    worker.start()
    time.sleep(0.3)
    flags[13 % 8] = 13
    worker.join(10)
    assert not worker.is_alive()
    answer = json.loads(out[0])
    assert answer["ok"] and answer["answer"]["answer"] == "unknown"
    assert answer["answer"]["reason"] == "stopped"


def test_a_lost_position_says_so(service):
    game = Hamilton(seed=9)
    for _ in range(4):
        game.play("t")
    channel = Channel("solve", service)
    channel.ask({"game": game.to_json()})
    assert channel.wait(WAIT).data["answer"] == NOT_WINNABLE


@pytest.mark.parametrize("task, args", [
    ("solve", {"game": {"game": "no-such-game"}}),
    ("solve", {"game": {"game": "hamilton", "version": 1, "moves": ["zz"]}}),
    ("camelot-move", {"position": "not a position"}),
    ("no-such-task", {}),
    ("computer-move", {}),
])
def test_a_bad_request_is_an_error_answer(service, task, args):
    channel = Channel(task, service)
    channel.ask(args)
    answer = channel.wait(WAIT)
    assert answer is not None and not answer.ok and answer.error
    assert "\n" not in answer.error
    # and the service goes on serving
    good = Channel("camelot-move", service)
    from game.camelot.board import START_POSITION
    good.ask({"position": START_POSITION, "level": "easy", "seed": 1, "time_limit": 0.05})
    assert good.wait(WAIT).ok


def test_the_wire_is_json_text():
    out = json.loads(tasks.run(json.dumps({"id": 7, "task": "computer-move",
                                            "args": {"game": Hamilton(seed=3).to_json(), "seed": 1}})))
    assert out["id"] == 7 and out["ok"] and Hamilton(seed=3).parse_move(out["answer"]["move"])
    assert not json.loads(tasks.run("{not json"))["ok"]


def test_poll_never_blocks(service):
    channel = Channel("solve", service)
    channel.ask({"game": Hamilton(seed=11).to_json(), "max_states": 10_000_000})
    # A long search is running: every poll comes back at once, empty (one that
    # waited for the answer would return it).
    assert all(channel.poll() is None for _ in range(100)) and channel.busy
    channel.cancel()


def test_threads_where_no_process_can_start(threads):
    channel = Channel("solve", threads)
    channel.ask({"game": CamelotSolitaire(seed=1).to_json()})
    answer = channel.wait(WAIT)
    assert answer.ok and answer.data["answer"] == WINNABLE
    assert not threads.use_processes


def test_the_thinker_answers_with_the_engines_move(service):
    game = Hamilton(seed=9)
    thinker = Thinker(background=True)
    thinker._channel = Channel("computer-move", service)
    thinker.ask(game, 5)
    end = time.monotonic() + WAIT
    ready, move = thinker.answer(game)
    while not ready and time.monotonic() < end:
        time.sleep(0.01)
        ready, move = thinker.answer(game)
    assert ready and move == Hamilton(seed=9).computer_move(random.Random(5))
    game.play(move)
    assert thinker.answer(game) == (False, None)     # the game moved on


def test_shutdown_cancels_a_running_search_and_leaves_no_process():
    s = WorkService()
    assert s.wait_ready(WAIT)
    pids = s.worker_pids()
    assert pids
    Channel("solve", s).ask({"game": Hamilton(seed=11).to_json(),
                             "max_states": 10_000_000, "max_seconds": 60})
    time.sleep(0.2)
    started = time.monotonic()
    s.shutdown()
    assert time.monotonic() - started < 5
    assert not set(pids) & {p.pid for p in children_left()}
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}") or _zombie_or_gone(pid)
    rid = s.submit("solve", {})
    assert not s.poll(rid).ok                       # after shutdown: an error answer


def _zombie_or_gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] in ("Z", "X")
    except OSError:
        return True


# --- winnable deals ----------------------------------------------------------------
def test_winnable_deal_from_the_cache(tmp_path, monkeypatch):
    (tmp_path / "winnable-hamilton.txt").write_text("# proven\n9 159\n", encoding="utf-8")
    monkeypatch.setattr(deals_module, "DATA_DIR", tmp_path)
    assert cached_winnable_deals("hamilton") == [9, 159]
    assert winnable_deal("hamilton", random.Random(1)) in (9, 159)


def test_winnable_deal_without_a_cache_solves_deals(tmp_path, monkeypatch):
    monkeypatch.setattr(deals_module, "DATA_DIR", tmp_path)
    seed = winnable_deal("clock", random.Random(3))
    from game.clock import Clock, play_out
    assert play_out(Clock(seed=seed)).status is Status.WON


def test_the_repo_cache_lists_hold_proven_deals():
    for game_id in ("camelot-solitaire", "hamilton"):
        deals = cached_winnable_deals(game_id)
        if deals:
            from game.solver_common import solver_for
            assert solver_for(game_id)(deals[0]).answer == WINNABLE


@pytest.mark.parametrize("args", [
    ["--frames", "1", "--size", "640x360"],                  # quits while the pool starts
    ["--frames", "30", "--size", "640x360"],                 # quits with the pool up, mostly
    ["--game", "hamilton", "--frames", "3", "--size", "640x360"],
    ["--timedemo", "clock", "--frames", "60", "--size", "640x360"],
])
def test_a_short_run_ends_without_a_word_on_stderr(args):
    """No worker, semaphore or queue is left for the standard library to
    complain of at exit (multiprocessing's resource tracker would)."""
    main = os.path.join(os.path.dirname(__file__), "..", "..", "main.py")
    proc = subprocess.run([sys.executable, main, *args], capture_output=True, text=True,
                          timeout=120)
    assert (proc.returncode, proc.stderr) == (0, "")
