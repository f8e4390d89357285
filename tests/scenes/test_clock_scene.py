"""Clock played end to end through input actions: mouse, keyboard, gamepad."""
from pathlib import Path

import pygame
import pytest

from game.base import Status
from game.clock import CENTRE, Clock, hour_pile, play_out
from scenes.games.clock_scene import ClockScene
from scenes.screens.menu import MenuScene
from scenes.screens.navigation import open_game
from scenes.core.overlays import DialogScene

from .harness import click, drag, image_difference, key, make_app, pad, post, settle, step

REFERENCE = Path(__file__).parent / "reference"


def start_clock(seed=3, size=(1280, 720), demo=False):
    app = make_app(size)
    open_game(app, "clock", seed=seed, demo=demo)
    scene = app.scenes.top
    assert isinstance(scene, ClockScene)
    settle(app, scene)
    return app, scene


def expected_end(seed):
    return play_out(Clock(seed=seed))


def finish_check(app, scene, seed):
    expected = expected_end(seed)
    assert scene.game.history == expected.history
    assert scene.game.status is expected.status and scene.game.score == expected.score
    step(app, 200)  # a win celebrates for 2 s before the dialog
    top = app.scenes.top
    assert isinstance(top, DialogScene)
    assert top.title == ("You won!" if expected.status is Status.WON else "Game over")


@pytest.mark.parametrize("seed", [3, 5])
def test_whole_game_by_mouse(seed):
    app, scene = start_clock(seed)
    n = 0
    while scene.game.status is Status.PLAYING:
        move = scene.game.legal_moves()[0]
        before = len(scene.game.history)
        centre_card = scene.table.top_rect(CENTRE).center
        target = scene.table.top_rect(move.target).center
        if move.target == CENTRE or n % 3 == 0:
            # Kings: click the centre card; otherwise sometimes too.
            click(app, centre_card)
        elif n % 3 == 1:
            drag(app, centre_card, target)
        else:
            # Double-click the pile: the first click moves, the second is swallowed.
            post(pygame.MOUSEBUTTONDOWN, pos=target, button=1)
            post(pygame.MOUSEBUTTONUP, pos=target, button=1)
            post(pygame.MOUSEBUTTONDOWN, pos=target, button=1)
            post(pygame.MOUSEBUTTONUP, pos=target, button=1)
            step(app)
        assert len(scene.game.history) == before + 1, f"move {n} ({move}) did not play"
        settle(app, scene)
        n += 1
    finish_check(app, scene, seed)


def test_whole_game_by_keyboard():
    app, scene = start_clock(7)
    while scene.game.status is Status.PLAYING:
        before = len(scene.game.history)
        key(app, pygame.K_SPACE)
        assert len(scene.game.history) == before + 1
        settle(app, scene)
    finish_check(app, scene, 7)


def test_whole_game_by_gamepad():
    app, scene = start_clock(8)
    while scene.game.status is Status.PLAYING:
        pad(app, pygame.CONTROLLER_BUTTON_A)
        settle(app, scene)
    finish_check(app, scene, 8)


def test_focus_reaches_every_pile_and_select_plays_there():
    app, scene = start_clock(3)
    assert scene.focus == CENTRE
    key(app, pygame.K_RIGHT)
    assert scene.focus == "clock:3"
    seen = {scene.focus}
    for _ in range(11):
        key(app, pygame.K_RIGHT)  # clockwise round the face
        seen.add(scene.focus)
    assert seen == {hour_pile(h) for h in range(1, 13)} and scene.focus == "clock:2"
    key(app, pygame.K_LEFT)
    assert scene.focus == "clock:1"
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)  # towards the middle
    assert scene.focus in ("centre", "clock:2", "clock:3")
    # Walk the focus to the move's pile, then select.
    target = scene.game.legal_moves()[0].target
    scene.focus = target
    key(app, pygame.K_RETURN)
    assert len(scene.game.history) == 1


def test_wrong_pile_click_is_refused_with_a_message():
    app, scene = start_clock(3)
    move = scene.game.legal_moves()[0]
    wrong = hour_pile(1 if move.target != "clock:1" else 2)
    click(app, scene.table.top_rect(wrong).center)
    assert scene.game.history == []
    assert any("not to" in text for text, _ in app._toasts)
    assert scene.flash is not None and scene.flash[0] == wrong


def test_illegal_drag_slides_back():
    app, scene = start_clock(3)
    card = scene.game.centre_card
    home = scene.table.card_rect(card).topleft
    move = scene.game.legal_moves()[0]
    wrong = hour_pile(1 if move.target != "clock:1" else 2)
    drag(app, scene.table.top_rect(CENTRE).center, scene.table.top_rect(wrong).center)
    settle(app, scene)
    assert scene.game.history == [] and scene.table.card_rect(card).topleft == home


def test_autoplay_plays_the_game_out():
    app, scene = start_clock(3)
    key(app, pygame.K_a)
    for _ in range(60 * 200):
        step(app)
        if scene.game.status is not Status.PLAYING:
            break
    assert scene.game.status is expected_end(3).status


def test_gamepad_unplugged_pauses():
    app, scene = start_clock(3)
    post(pygame.CONTROLLERDEVICEREMOVED, instance_id=0)
    step(app)
    top = app.scenes.top
    assert isinstance(top, DialogScene) and top.title == "Paused"
    assert any("disconnected" in line for line in top.lines)
    pad(app, pygame.CONTROLLER_BUTTON_B)  # B resumes
    assert app.scenes.top is scene


def test_pause_menu_and_back_to_menu():
    app, scene = start_clock(3)
    pad(app, pygame.CONTROLLER_BUTTON_START)
    assert isinstance(app.scenes.top, DialogScene)
    dialog = app.scenes.top
    while dialog.focus.buttons[dialog.focus.focus].label != "Main menu":
        pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    pad(app, pygame.CONTROLLER_BUTTON_A)
    assert isinstance(app.scenes.top, MenuScene)


def test_resize_relayouts():
    app, scene = start_clock(3)
    small = scene.table.card_size
    pygame.display.set_mode((1920, 1080), pygame.RESIZABLE)
    app.on_window_resized()
    assert scene.table.card_size[0] > small[0]
    step(app)


def test_screenshot_matches_reference(request):
    app, scene = start_clock(3)
    for _ in range(4):
        key(app, pygame.K_SPACE)
        settle(app, scene)
    step(app, 2)
    shot = app.screen.copy()
    ref = REFERENCE / "clock-seed3-4moves-1280x720.png"
    if request.config.getoption("--regen-screenshots") or not ref.exists():
        pygame.image.save(shot, str(ref))
        if not request.config.getoption("--regen-screenshots"):
            pytest.fail(f"no reference image; wrote {ref}: look at it, then commit it")
    reference = pygame.image.load(str(ref))
    assert image_difference(shot, reference) < 0.01
