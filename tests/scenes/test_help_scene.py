"""The help screens: open, page and scroll by every device, close, fit the screen."""
from __future__ import annotations

import pygame
import pytest

from game import GAME_IDS
from scenes.core.actions import Action, InputEvent
from scenes.games import GAMES
from scenes.screens.help import PAGES, HelpScene, controls_for
from scenes.screens.menu import MenuScene
from tests.scenes.harness import click, key, make_app, pad, post, step


@pytest.fixture(scope="module")
def app():
    app = make_app((1280, 720))
    yield app


def open_help(app, game_id):
    app.scenes.reset(MenuScene(app))
    scene = HelpScene(app, game_id)
    app.scenes.push(scene)
    step(app, 2)
    return scene


def wheel(app, down: bool = True):
    post(pygame.MOUSEWHEEL, x=0, y=-1 if down else 1, flipped=False)
    step(app)


def test_every_game_has_help_text():
    for gid in GAME_IDS:
        text = GAMES[gid].help
        assert GAMES[gid].title and len(text.rules) >= 3 and text.caption
        for heading, para in text.rules:
            assert heading and len(para) > 40
        rows = controls_for(gid)
        assert all(len(r) == 4 for r in rows)
        assert any(r[0].startswith("Undo") for r in rows)


def test_rules_mention_the_key_facts():
    words = {gid: " ".join(p for _, p in GAMES[gid].help.rules) for gid in GAME_IDS}
    assert "fourth king" in words["clock"] and "48" in words["clock"]
    assert "corners" in words["camelot-solitaire"] and "add up to 10" in words["camelot-solitaire"]
    assert "start rank" in words["hamilton"] and "by colour" in words["hamilton"]
    assert "canter" in words["camelot-board"] and "must" in words["camelot-board"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_opens_and_back_pops(app, game_id):
    scene = open_help(app, game_id)
    assert app.scenes.top is scene
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scenes.top, MenuScene)
    scene = open_help(app, game_id)
    pad(app, pygame.CONTROLLER_BUTTON_B)
    assert isinstance(app.scenes.top, MenuScene)
    scene = open_help(app, game_id)
    click(app, scene.back_button.rect.center)
    assert isinstance(app.scenes.top, MenuScene)


def test_pages_by_keyboard_gamepad_and_tabs(app):
    scene = open_help(app, "hamilton")
    assert scene.page == 0
    key(app, pygame.K_RIGHT)
    assert scene.page == 1
    key(app, pygame.K_LEFT)
    assert scene.page == 0
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_RIGHT)
    assert scene.page == 1
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_LEFT)
    assert scene.page == 0
    pad(app, pygame.CONTROLLER_BUTTON_RIGHTSHOULDER)
    assert scene.page == 1
    key(app, pygame.K_TAB)
    assert scene.page == 0
    click(app, scene.tabs[1].rect.center)
    assert scene.page == 1
    click(app, scene.tabs[0].rect.center)
    assert scene.page == 0
    key(app, pygame.K_RETURN)           # SELECT: on to the next page…
    assert scene.page == 1 and app.scenes.top is scene
    key(app, pygame.K_RETURN)           # …and back from the last one
    assert app.scenes.top is not scene


def test_scrolls_by_keyboard_gamepad_and_wheel(app):
    scene = open_help(app, "camelot-board")
    assert scene.max_scroll > 0, "the board game's rules should need scrolling at 720p"
    key(app, pygame.K_DOWN)
    assert scene.scroll > 0
    key(app, pygame.K_UP)
    assert scene.scroll == 0
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    assert scene.scroll > 0
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_UP)
    assert scene.scroll == 0
    wheel(app, down=True)
    assert scene.scroll > 0
    wheel(app, down=False)
    assert scene.scroll == 0
    # Scrolling on past the end goes to the next page; back up returns.
    for _ in range(40):
        key(app, pygame.K_DOWN)
        if scene.page == 1:
            break
    assert scene.page == 1 and scene.scroll == 0
    for _ in range(40):
        key(app, pygame.K_UP)
        if scene.page == 0:
            break
    assert scene.page == 0 and scene.scroll == scene.max_scroll


def test_other_actions_do_not_crash(app):
    scene = open_help(app, "clock")
    for action in (Action.HINT, Action.UNDO, Action.REDO, Action.NEW_DEAL, Action.RESTART,
                   Action.AUTOPLAY, Action.DOUBLE_CLICK, Action.OTHER, Action.POINTER_MOVE):
        scene.handle(InputEvent(action, pos=(5, 5)))
    step(app)
    assert app.scenes.top is scene


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_layout_fits(size):
    app = make_app(size)
    screen = pygame.Rect((0, 0), size)
    for gid in GAME_IDS:
        scene = HelpScene(app, gid)
        app.scenes.reset(scene)
        for page in range(len(PAGES)):
            scene.set_page(page)
            for scroll in (0, scene.max_scroll):
                scene.scroll = scroll
                step(app)
                view = scene.view
                assert screen.contains(view) and screen.contains(scene.panel_rect)
                for rect in scene.visible_text_rects():
                    assert screen.contains(rect), (gid, page, rect)
                # every line of text fits the width of its column
                for text, px, _, y in scene.rules_lines:
                    from scenes.core.ui import FONTS
                    assert FONTS.font(px).size(text)[0] <= scene.rules_view.w, text
                for _, r in scene.controls_lines:
                    assert r.right <= scene.controls_view.w
                assert not view.colliderect(scene.back_button.rect)
                if page == 0:
                    assert not view.colliderect(scene.diagram_rect)
                    assert screen.contains(scene.diagram_rect)
        # the title and footer leave room for the tabs and the Back button
        assert not scene._title_rect().colliderect(scene.tabs[0].rect)
        assert not scene._footer_rect().colliderect(scene.back_button.rect)
