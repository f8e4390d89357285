"""Every still screen sleeps (issue 20): over simulated still time (fixed steps
of 1/60 s) each screen presents no frame, or one a second for a clock, and
tells the loop it may sleep (``next_change_in``); what waits for a worker or
the network looks for it every ``IDLE_WAKE`` s. Counted in frames, not time:
the same on any machine. What this costs in CPU on the real clock is measured
by ``bench/still_screens.py``."""
from __future__ import annotations

import pygame
import pytest

from game.server.host import ServerThread
from scenes.core.scene import IDLE_WAKE
from scenes.games.camelot_board_scene import CamelotBoardScene
from scenes.screens.navigation import open_game, open_menu
from scenes.screens.online import OnlineScene
from scenes.screens.replay_list import open_replay
from scenes.screens.statistics import StatsScene
from scenes.store.famous import list_famous
from scenes.table.board_players import Player
from tests.net.test_bridge import of, wait_for

from .harness import key, make_app, step
from .test_online_scene import until

STILL = 120          # frames of still time counted: two seconds


def presented(app, frames: int = STILL) -> int:
    before = app.frames_presented
    step(app, frames)
    return app.frames_presented - before


def sleeps(app, at_least: float = IDLE_WAKE) -> bool:
    """The loop on the real clock would sleep: the updating scenes' next
    change is ``at_least`` s away (a screen waiting for an answer looks for
    it every IDLE_WAKE s, no more often)."""
    return min(s.next_change_in() for s in app.scenes.updating()) >= at_least - 1e-9


def board(app, **options) -> CamelotBoardScene:
    scene = CamelotBoardScene(app, seed=3, **options)
    app.scenes.reset(scene)
    return scene


def opened(what: str):
    """The app with ``what`` on top, past its first moments."""
    app = make_app()
    if what == "help":
        app.navigator.open_help("clock")
    elif what == "settings":
        open_menu(app)
        app.navigator.open_settings()
    elif what == "statistics":
        open_menu(app)
        app.scenes.push(StatsScene(app))
    elif what == "replay list":
        open_menu(app)
        open_replay(app)
        app.scenes.top.wait_until_read(10)
    elif what == "replay paused":
        open_menu(app)
        open_replay(app, list_famous()[0][0].path)
    elif what == "board setup dialog":
        open_game(app, "camelot-board")
    elif what == "board pause dialog":
        board(app, mode="two").open_pause()
    elif what == "patience pause dialog":
        open_game(app, "clock", seed=4)
        step(app, 60)
        app.scenes.top.open_pause()
    elif what == "online connect":
        app.scenes.reset(OnlineScene(app, name="Ann", address="127.0.0.1:9"))
    step(app, 60)
    return app


@pytest.mark.parametrize("what", ["help", "settings", "statistics", "replay list", "replay paused",
                                  "board setup dialog", "board pause dialog",
                                  "patience pause dialog", "online connect"])
def test_a_still_screen_presents_nothing_and_sleeps_until_input(what):
    app = opened(what)
    top = app.scenes.top
    assert presented(app) == 0
    assert app.still_frames >= STILL and sleeps(app)
    key(app, pygame.K_DOWN)                    # input: drawn again at once
    if app.scenes.top is top:
        assert app.still_frames == 0


@pytest.mark.parametrize("mode", ["two", "computer"])
def test_the_board_game_waiting_for_the_player_presents_only_its_clocks_seconds(mode):
    app = make_app()
    scene = board(app, mode=mode, human="white")
    step(app, 60)
    assert scene.person_to_move() and not scene.busy
    assert presented(app) <= 2                  # the time played, once a second
    assert sleeps(app)


class Pondering(Player):
    """A side that is thinking and has not answered yet (the computer on a slow
    machine): the screen shows the spinner while it waits."""

    automatic = True

    @property
    def thinking(self) -> bool:
        return True


def test_a_board_waiting_for_the_computers_answer_turns_its_spinner_ten_times_a_second():
    app = make_app()
    scene = board(app, mode="two")
    scene.players["white"] = Pondering("Computer")
    step(app, 60)
    assert scene.table.view.spinner_centre is not None
    assert 18 <= presented(app) <= 21          # 2 s: 20 steps of the spinner, not 120 frames
    assert 0 < min(s.next_change_in() for s in app.scenes.updating()) <= IDLE_WAKE


@pytest.fixture
def server(tmp_path):
    host = ServerThread(str(tmp_path / "host.sqlite3"))
    host.start()
    yield host
    host.stop()


def test_the_online_lobby_waiting_sleeps_and_a_message_draws_it_again(server):
    from game.net.bridge import NetBridge
    app = make_app()
    lobby = OnlineScene(app, name="Ann", address=f"127.0.0.1:{server.port}")
    app.scenes.reset(lobby)
    step(app)
    lobby.connect()
    until(app, lambda: lobby.session.online and lobby.session.users == ["Ann"], "the lobby")
    step(app, 30)
    assert presented(app) == 0 and sleeps(app)   # the network looked at every IDLE_WAKE s
    bob = NetBridge(server.url, "Bob")
    bob.start()
    try:
        wait_for(bob, of("welcome"))
        before = app.frames_presented
        until(app, lambda: "Bob" in lobby.session.users, "Bob in the lobby")
        step(app, 2)
        assert app.frames_presented > before     # the message changed what it shows
    finally:
        bob.close()
