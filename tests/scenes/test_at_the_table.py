"""Issue 13, "at the table": what a player noticed, each driven through posted
mouse, keyboard and gamepad events. Every wait on a worker has a wall-clock
limit, and every worker process is closed after each test."""
import pygame

from game.base import Status
from game.camelot_moves import parse_square, path_text
from game.hamilton import Hamilton
from scenes.core.overlays import DialogScene
from scenes.games.hamilton_scene import HamiltonScene
from scenes.screens.menu import MenuScene
from scenes.screens.navigation import open_game, open_menu

from .harness import click, key, make_app, pad, post, settle, step
from .patience_input import open_scene
from .test_camelot_board_scene import (CAPTURE, _no_stray_workers, centre,  # noqa: F401 (fixture)
                                       shown_path, start, wait_until)


def board(position=CAPTURE, mode="two"):
    return start(mode=mode, position=position)


def hover(app, pos):
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    step(app)


# --- 1. hovering does not steal the keyboard focus ------------------------------------
def test_tab_cycles_the_paths_of_the_target_under_the_mouse():
    app, scene = board()
    click(app, centre(scene, "E5"))
    hover(app, centre(scene, "E7"))
    first = shown_path(scene)
    assert first[-1] == parse_square("E7")
    key(app, pygame.K_TAB)
    second = shown_path(scene)
    assert second[-1] == parse_square("E7") and second != first
    assert "Path 2 of 2" in scene.status_line()
    key(app, pygame.K_TAB)
    assert shown_path(scene) == first


def test_enter_in_a_dialog_activates_the_focus_not_the_button_under_the_pointer():
    app = make_app()
    open_game(app, "camelot-board")
    scene, dialog = app.scenes.scenes[0], app.scenes.top
    two = next(b for b in dialog.focus.buttons if b.label.startswith("Two players"))
    hover(app, two.rect.center)                  # the pointer comes to rest there
    key(app, pygame.K_RETURN)                    # the focus is on "Play White …"
    assert app.scenes.top is scene
    assert scene.mode == "computer" and scene.human == "white"
    scene.worker.close()


def test_a_click_still_activates_the_button_under_the_pointer():
    app = make_app()
    open_game(app, "camelot-board")
    scene, dialog = app.scenes.scenes[0], app.scenes.top
    two = next(b for b in dialog.focus.buttons if b.label.startswith("Two players"))
    click(app, two.rect.center)
    assert app.scenes.top is scene and scene.mode == "two"


# --- 2. a travelling piece is not captured ----------------------------------------------
def test_a_piece_on_its_way_is_still_counted():
    app, scene = board()
    before = scene.score_line()
    white_before = int(before.split()[1])
    click(app, centre(scene, "E5"))
    click(app, centre(scene, "E7"))
    assert scene.busy
    frames = 0
    while scene.busy:
        frames += 1
        assert frames < 600
        step(app)
        if not scene.travel or not scene.travel.moving:
            continue
        assert int(scene.score_line().split()[1]) == white_before, scene.score_line()
        sides = {side[0]: dict(side[3]) for side in scene._panel_state()[0]}
        assert not any(sides["black"].values()), sides   # Black took nothing
    assert int(scene.score_line().split()[1]) == white_before


# --- 4. the hint moves the focus; a pad SDL does not know still navigates ---------------
def test_gamepad_hint_then_a_twice_plays_the_hint_in_hamilton():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=7), seed=7)
    pad(app, pygame.CONTROLLER_BUTTON_A)          # the focus starts on the stock: turn
    settle(app, scene)
    assert scene.game.chooser is not None
    pad(app, pygame.CONTROLLER_BUTTON_X)
    wait_until(app, lambda: scene.hint_move is not None)
    hinted = scene.hint_move
    assert scene.focus == hinted.source
    history = len(scene.game.history)
    pad(app, pygame.CONTROLLER_BUTTON_A)
    if len(scene.game.history) == history:       # picked up: A again puts it on the target
        assert scene.focus == hinted.target
        pad(app, pygame.CONTROLLER_BUTTON_A)
    settle(app, scene)
    assert scene.game.history[history:] == [scene.game.move_text(hinted)]


def test_gamepad_hint_then_a_twice_plays_the_hint_on_the_board():
    app, scene = board()
    pad(app, pygame.CONTROLLER_BUTTON_X)
    wait_until(app, lambda: scene.hint_move is not None)
    hinted = scene.hint_move
    assert scene.focus_sq == hinted.from_square
    pad(app, pygame.CONTROLLER_BUTTON_A)
    assert scene.selected == hinted.from_square and scene.focus_sq == hinted.to_square
    pad(app, pygame.CONTROLLER_BUTTON_A)
    settle(app, scene)
    assert scene.game.history == [path_text(hinted.path, hinted.captured)]


def test_a_joystick_without_a_mapping_navigates_with_hat_axes_and_buttons():
    app = make_app()
    open_menu(app)
    menu = app.scenes.top
    assert isinstance(menu, MenuScene)
    first = menu.focus.focus
    post(pygame.JOYHATMOTION, instance_id=7, joy=7, hat=0, value=(1, 0))
    step(app)
    assert menu.focus.focus == first + 1
    post(pygame.JOYHATMOTION, instance_id=7, joy=7, hat=0, value=(0, 0))
    post(pygame.JOYAXISMOTION, instance_id=7, joy=7, axis=0, value=-0.9)
    step(app)
    assert menu.focus.focus == first
    post(pygame.JOYAXISMOTION, instance_id=7, joy=7, axis=0, value=0.0)
    post(pygame.JOYAXISMOTION, instance_id=7, joy=7, axis=1, value=0.95)   # down: the buttons
    step(app)
    assert menu.focus.focus >= len(menu.tiles)
    post(pygame.JOYAXISMOTION, instance_id=7, joy=7, axis=1, value=0.0)
    post(pygame.JOYHATMOTION, instance_id=7, joy=7, hat=0, value=(0, 1))   # hat up: the games
    step(app)
    assert menu.focus.focus < len(menu.tiles)
    post(pygame.JOYBUTTONDOWN, instance_id=7, joy=7, button=0)             # A: play it
    step(app)
    assert not isinstance(app.scenes.top, MenuScene)
    assert app.input.last_device == "gamepad"


# --- 5. Auto follows the solver's line; help is kept as assisted in the statistics ---------
def test_auto_in_hamilton_follows_the_solver_and_the_win_is_assisted():
    app = make_app(speed="instant")
    app.stats.games.clear()
    scene = HamiltonScene(app, seed=2, game=Hamilton(seed=2))   # the computer player alone loses it
    app.scenes.reset(scene)
    settle(app, scene)
    key(app, pygame.K_a)
    assert scene.autoplay
    wait_until(app, lambda: scene.game.status is not Status.PLAYING, seconds=120)
    assert scene.game.status is Status.WON
    wait_until(app, lambda: isinstance(app.scenes.top, DialogScene))
    record = app.stats.game("hamilton")
    assert (record.played, record.won, record.assisted) == (1, 0, 1)
    assert record.best_time is None and record.best_score is None and record.current_streak == 0
    assert any("Won with help" in line for line in app.scenes.top.lines)


def test_a_win_after_a_hint_is_assisted_and_one_without_is_a_win():
    from .test_hamilton_scene import WIN_28
    from .patience_input import play_line
    for hinted in (True, False):
        app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28)
        app.stats.games.clear()
        if hinted:
            key(app, pygame.K_h)
            wait_until(app, lambda: scene.hint_move is not None)
        play_line(app, scene, WIN_28, hows=("click",))
        settle(app, scene)
        step(app, 3)
        assert scene.game.status is Status.WON
        record = app.stats.game("hamilton")
        assert (record.won, record.assisted) == ((0, 1) if hinted else (1, 0))
        assert (record.best_time is None) == hinted
