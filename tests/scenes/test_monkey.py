"""The short monkey run (the long one is ``python bench/monkey.py --events 100000``):
seeded random mouse, keyboard, gamepad and window events through every scene,
mid-animation too. No exception, every scene visited, the engines' invariants
held after every game, no worker process left."""

import pytest

from tests.monkey import REQUIRED_SCENES, check_engine, run_monkey

SEEDS = (11, 12, 13)
EVENTS = 900
SIZE = (800, 450)   # small frames keep the run short; resizes still reach 1920x1080


@pytest.fixture(scope="module")
def reports():
    return [run_monkey(seed, EVENTS, SIZE) for seed in SEEDS]


def test_no_exception_and_invariants_held(reports):
    for report in reports:
        assert report.ok, report.summary()
        assert report.events >= EVENTS
        assert report.checks > 0


def test_every_scene_visited(reports):
    visited = set().union(*(r.visited for r in reports))
    assert REQUIRED_SCENES <= visited, sorted(REQUIRED_SCENES - visited)


def test_games_were_played_and_finished(reports):
    assert sum(r.moves_played for r in reports) > 0
    assert sum(r.games_finished for r in reports) > 0


def test_no_worker_left(reports):
    assert all(not r.workers_left for r in reports)


def test_check_engine_catches_a_broken_invariant():
    from game.clock import Clock
    game = Clock(seed=5)
    check_engine(game)
    game.piles = lambda: {"clock:1": []}       # cards vanish
    with pytest.raises(AssertionError):
        check_engine(game)


# --- what the monkey found ------------------------------------------------------------------
def test_a_window_shrunk_below_the_minimum_grows_back():
    """Resizing to a few pixels used to raise pygame.error (a zero-size panel)."""
    import pygame

    from scenes.core.app import MIN_WINDOW
    from scenes.screens.navigation import open_game, open_menu

    from .harness import make_app, step
    app = make_app((960, 540))
    for start in (lambda: open_menu(app), lambda: open_game(app, "clock", seed=3)):
        start()
        step(app, 2)
        for size in ((1, 1), (50, 30)):
            pygame.display.set_mode(size, pygame.RESIZABLE)
            app.on_window_resized()
            step(app, 3)
            assert app.size[0] >= MIN_WINDOW[0] and app.size[1] >= MIN_WINDOW[1]


def test_undo_and_redo_during_the_win_celebration():
    """An undo while the cards wheel round used to freeze the table (busy for
    ever: no game-over dialog after the redo); and undo + redo within the
    dialog's delay pushed the "You won!" dialog twice."""
    import pygame

    from game.base import Status
    from scenes.screens.navigation import open_game
    from scenes.core.overlays import DialogScene

    from .harness import key, make_app, step
    app = make_app((960, 540))
    open_game(app, "clock", seed=8)          # the computer's play of deal 8 wins
    scene = app.scenes.top
    step(app, 2)
    while scene.game.status is Status.PLAYING:
        scene.play(scene.game.computer_move())
        scene.finish_animations()
        step(app)
    step(app, 3)                              # celebrating, the dialog not yet shown
    key(app, pygame.K_u)
    step(app, 60)
    assert scene.game.status is Status.PLAYING and not scene.busy
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    step(app, 400)
    dialogs = [s for s in app.scenes.scenes if isinstance(s, DialogScene)]
    assert [d.title for d in dialogs] == ["You won!"]


def test_the_thinker_process_does_not_outlive_a_killed_app(tmp_path):
    """Found after killing a monkey run: Hamilton's thinking process stayed
    behind for ever (an orphan) when the app was killed or crashed."""
    import os
    import subprocess
    import sys
    import time
    script = tmp_path / "killed.py"
    script.write_text(
        "import os, signal, sys, time, multiprocessing\n"
        f"sys.path.insert(0, {os.getcwd()!r})\n"
        "if __name__ == '__main__':\n"
        "    from scenes.work.thinker import Thinker\n"
        "    from game.hamilton import Hamilton\n"
        "    t = Thinker(True)\n"
        "    t.ask(Hamilton(seed=1), 1)\n"
        "    end = time.monotonic() + 60\n"
        "    while not multiprocessing.active_children() and time.monotonic() < end:\n"
        "        time.sleep(0.05)\n"
        "    print(' '.join(str(p.pid) for p in multiprocessing.active_children()), flush=True)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    pids = [int(p) for p in proc.stdout.split()]
    assert pids, proc.stderr

    def alive(pid):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    end = time.monotonic() + 20
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.1)
    left = [p for p in pids if alive(p)]
    for p in left:
        os.kill(p, 9)
    assert not left, "the thinking process outlived the app"


def test_the_language_was_switched_mid_run(reports):
    """Settings' language changed under every screen (tests.monkey.switch_language)."""
    assert sum(r.language_switches for r in reports) > 0
