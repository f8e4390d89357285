"""Playing a patience scene by input only: engine moves → mouse drags, clicks,
finger taps and drags, keys and gamepad buttons (shared by the Camelot and Hamilton scene tests)."""
from __future__ import annotations

import pygame

from scenes.core.actions import Action

from scenes.core.overlays import DialogScene

from .harness import click, drag, finger_drag, key, make_app, pad, settle, step, tap

KEYS = {Action.UP: pygame.K_UP, Action.DOWN: pygame.K_DOWN, Action.LEFT: pygame.K_LEFT,
        Action.RIGHT: pygame.K_RIGHT, Action.SELECT: pygame.K_RETURN}
PAD = {Action.UP: pygame.CONTROLLER_BUTTON_DPAD_UP, Action.DOWN: pygame.CONTROLLER_BUTTON_DPAD_DOWN,
       Action.LEFT: pygame.CONTROLLER_BUTTON_DPAD_LEFT,
       Action.RIGHT: pygame.CONTROLLER_BUTTON_DPAD_RIGHT, Action.SELECT: pygame.CONTROLLER_BUTTON_A}


def open_scene(scene_class, game, size=(1280, 720), seed=0, demo=False):
    """The app showing ``scene_class`` playing ``game`` (an engine), dealt and settled."""
    app = make_app(size)
    scene = scene_class(app, seed=seed, demo=demo, game=game)
    app.scenes.reset(scene)
    settle(app, scene)
    return app, scene


def over_dialog(app):
    """The game-over dialog, once it is up (a win celebrates a moment first)."""
    step(app, 150)
    top = app.scenes.top
    assert isinstance(top, DialogScene)
    return top


def card_point(scene, pile: str, index: int | None) -> tuple[int, int]:
    """A point on the visible part of card ``index`` of ``pile`` (its empty place: None)."""
    table = scene.table
    cards = table.pile_cards(pile)
    if index is None or not cards:
        return table.top_rect(pile).center
    x, y = table.card_pos(pile, index, cards)
    w, h = table.card_size
    if index < len(cards) - 1:
        nx, ny = table.card_pos(pile, index + 1, cards)
        return (int(x + w / 2), int(y + max(2, min(ny - y, h) / 2)))
    return (int(x + w / 2), int(y + h / 2))


def press(app, action: Action, device: str) -> None:
    if device == "pad":
        pad(app, PAD[action])
    else:
        key(app, KEYS[action])


def focus_to(app, scene, pile: str, depth: int = 1, device: str = "keys") -> None:
    """Walk the focus to ``pile`` (``depth`` cards from its top) with arrows / D-pad."""
    points = scene._focus_points()
    for _ in range(40):
        if scene.focus == pile:
            break
        fx, fy = points[scene.focus]
        tx, ty = points[pile]
        dx, dy = tx - fx, ty - fy
        options = []
        if abs(dx) > 1:
            options.append(Action.RIGHT if dx > 0 else Action.LEFT)
        if abs(dy) > 1:
            options.append(Action.DOWN if dy > 0 else Action.UP)
        if abs(dy) > abs(dx):
            options.reverse()
        before = scene.focus
        for action in options:
            press(app, action, device)
            if scene.focus != before:
                break
        else:
            raise AssertionError(f"focus stuck on {scene.focus} on the way to {pile}")
    assert scene.focus == pile, f"focus never reached {pile}"
    for _ in range(30):
        if scene.focus_depth == depth:
            return
        press(app, Action.UP if scene.focus_depth < depth else Action.DOWN, device)
    assert scene.focus_depth == depth


def perform(app, scene, move, how: str) -> None:
    """Play engine ``move`` by input: ``how`` is drag, click, keys, pad, or by
    a finger tap or finger-drag."""
    click_at, drag_to = (tap, finger_drag) if how in ("tap", "finger-drag") else (click, drag)
    how = {"tap": "click", "finger-drag": "drag"}.get(how, how)
    table = scene.table
    source, target = move.source, move.target
    cards = table.pile_cards(source)
    count = move.count
    index = len(cards) - count if cards else None
    activate = source == "stock" or target is None
    if how in ("keys", "pad"):
        focus_to(app, scene, source, count if not activate and cards else 1, how)
        press(app, Action.SELECT, how)
        if not activate:
            focus_to(app, scene, target, 1, how)
            press(app, Action.SELECT, how)
        return
    start = card_point(scene, source, index)
    if activate:
        click_at(app, start)
    elif how == "drag":
        x, y = table.card_pos(source, index, cards)
        grab = (start[0] - x, start[1] - y)
        goal = table.top_rect(target)
        drag_to(app, start, (goal.x + grab[0], goal.y + grab[1]))
    else:
        if scene.current_selection() != (source, index):
            click_at(app, start)
        click_at(app, card_point(scene, target, None if not table.pile_cards(target) else
                                 len(table.pile_cards(target)) - 1))
    step(app)


def play_line(app, scene, notations, hows=("drag", "click", "keys", "pad")) -> None:
    """Play moves written in notation, rotating through the input methods, each
    checked to have been played."""
    for n, text in enumerate(notations):
        move = scene.game.parse_move(text)
        before = len(scene.game.history)
        perform(app, scene, move, hows[n % len(hows)])
        assert len(scene.game.history) == before + 1, \
            f"move {n} ({text}) by {hows[n % len(hows)]} was not played"
        assert scene.game.history[-1] == scene.game.move_text(move)
        settle(app, scene)
