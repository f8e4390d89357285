"""Camelot (the board game) on screen, driven by posted mouse, keyboard and
gamepad events. Every wait on the computer player has a wall-clock limit, and
every worker process is closed after each test."""
import time

import pygame
import pytest

from game.base import Status
from game.camelot.board import CamelotBoard
from game.camelot.moves import parse_square, path_text, square_name
from scenes.work.service import Channel, WorkService, shutdown
from scenes.games.camelot_board_scene import CamelotBoardScene
from scenes.table.board_view import HOVER
from scenes.screens.menu import MenuScene
from scenes.screens.navigation import open_game
from scenes.core.overlays import DialogScene

from .harness import children_left, click, key, make_app, pad, post, settle, step

# White to move and must capture: only the man on E5 can. Two ways reach E7:
# E5xE3xC5xE7 and E5xC5xE7 (different capture sets).
CAPTURE = "2/8/10/11m/12/12/12/12/12/12/3m8/3mM7/MM1mm7/10/8/2 w 2 2"
# White holds F16 (Black's castle) and can step G15-G16: a castle win.
CASTLE_WIN = "N1/4M3/10/12/12/12/12/12/12/12/5m6/12/12/1M8/8/2 w 2 2"
WORKER_WAIT = 30.0  # s: generous for a loaded machine; a hang fails, never blocks


@pytest.fixture(autouse=True)
def _no_stray_workers():
    shutdown()      # the app's service an earlier test (another file) left running
    assert not children_left()
    yield
    shutdown()
    left = children_left()
    assert not left, [(p.name, p.pid, p.exitcode) for p in left]


def start(mode="two", position=None, size=(1280, 720), **kw):
    app = make_app(size)
    game = CamelotBoard(position) if position else None
    scene = CamelotBoardScene(app, game=game, mode=mode, **kw)
    app.scenes.reset(scene)
    step(app, 2)
    return app, scene


def sq(name):
    return parse_square(name)


def centre(scene, name):
    return scene.view.square_centre(sq(name))


def hover(app, scene, name):
    pos = centre(scene, name) if name else (2, 2)
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    step(app)


def kinds(scene, kind):
    return [k for k in scene._items if k[1] == kind]


def shown_path(scene):
    paths = [k[2] for k in kinds(scene, "path")]
    assert len(paths) == 1, paths
    return paths[0]


def wait_until(app, condition, seconds=WORKER_WAIT):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the computer player")
        step(app)
        time.sleep(0.002)


def focus_to(app, scene, name, device="keyboard"):
    target = sq(name)
    keys = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT, "right": pygame.K_RIGHT}
    buttons = {"up": pygame.CONTROLLER_BUTTON_DPAD_UP, "down": pygame.CONTROLLER_BUTTON_DPAD_DOWN,
               "left": pygame.CONTROLLER_BUTTON_DPAD_LEFT, "right": pygame.CONTROLLER_BUTTON_DPAD_RIGHT}
    for _ in range(40):
        if scene.focus_sq == target:
            return
        (fx, fy), (tx, ty) = scene.view.square_centre(scene.focus_sq), scene.view.square_centre(target)
        if abs(tx - fx) >= abs(ty - fy):
            way = "right" if tx > fx else "left"
        else:
            way = "down" if ty > fy else "up"
        if device == "keyboard":
            key(app, keys[way])
        else:
            pad(app, buttons[way])
    raise AssertionError(f"focus never reached {name}")


# --- hovering, selecting, paths -------------------------------------------------------
def test_hover_outlines_only_pieces_that_may_move():
    app, scene = start()
    hover(app, scene, "F7")
    assert (3, "ring", sq("F7"), HOVER) in scene._items
    for name in ("F11", "F9"):  # Black's piece (not its turn), an empty square
        hover(app, scene, name)
        assert not kinds(scene, "ring")


def test_only_capturing_pieces_light_up_when_capture_is_compulsory():
    app, scene = start(position=CAPTURE)
    assert scene.game.capture_is_compulsory
    hover(app, scene, "A4")
    assert not kinds(scene, "ring")
    hover(app, scene, "E5")
    assert kinds(scene, "ring") == [(3, "ring", sq("E5"), HOVER)]
    click(app, centre(scene, "A4"))   # it cannot move: nothing is selected
    assert scene.selected is None
    assert "compulsory" in scene.status_line()


def test_click_selects_and_marks_every_reachable_square():
    app, scene = start()
    click(app, centre(scene, "F7"))
    step(app)
    assert scene.selected == sq("F7")
    targets = {k[2] for k in kinds(scene, "target")}
    assert targets == {m.to_square for m in scene.game.moves_from(sq("F7"))}
    assert len(targets) > 3
    click(app, centre(scene, "E7"))   # another piece: selects that one instead
    step(app)
    assert scene.selected == sq("E7")
    post(pygame.MOUSEBUTTONDOWN, pos=(3, 3), button=3)  # right click: deselect
    step(app, 2)
    assert scene.selected is None and not kinds(scene, "target")


def test_hovering_a_target_shows_the_whole_path_numbered():
    app, scene = start(position=CAPTURE)
    click(app, centre(scene, "E5"))
    hover(app, scene, "E7")
    path = shown_path(scene)
    assert path[0] == sq("E5") and path[-1] == sq("E7")
    badges = {k[2]: k[3] for k in kinds(scene, "badge")}
    assert badges == {s: n for n, s in enumerate(path[1:], 1)}
    crosses = {k[2] for k in kinds(scene, "cross")}
    move = next(m for m in scene.game.moves_from(sq("E5")) if path in m.paths)
    assert crosses == set(move.captured)


def test_cycle_paths_by_moving_out_and_in_wheel_tab_and_shoulder():
    app, scene = start(position=CAPTURE)
    alts = [(m, p) for m in scene.game.moves_from(sq("E5"))
            if m.to_square == sq("E7") for p in m.paths]
    assert len(alts) == 2
    paths = [p for _, p in alts]
    click(app, centre(scene, "E5"))
    hover(app, scene, "E7")
    first = shown_path(scene)
    assert first == paths[0]
    assert "Path 1 of 2" in scene.status_line()
    # Out of the green square and back in: the other path.
    hover(app, scene, "F6")
    hover(app, scene, "E7")
    assert shown_path(scene) == paths[1]
    # The mouse wheel.
    post(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0, touch=False)
    step(app)
    assert shown_path(scene) == paths[0]
    # Tab with the keyboard focus on the target.
    focus_to(app, scene, "E7")
    before = shown_path(scene)
    key(app, pygame.K_TAB)
    assert shown_path(scene) != before
    # The gamepad's right shoulder.
    before = shown_path(scene)
    pad(app, pygame.CONTROLLER_BUTTON_RIGHTSHOULDER)
    assert shown_path(scene) != before


def test_a_click_plays_the_path_shown_and_pieces_vanish_as_jumped():
    app, scene = start(position=CAPTURE)
    click(app, centre(scene, "E5"))
    hover(app, scene, "E7")
    hover(app, scene, "F6")
    hover(app, scene, "E7")
    chosen = shown_path(scene)
    move = next(m for m in scene.game.moves_from(sq("E5")) if chosen in m.paths)
    click(app, centre(scene, "E7"))
    assert scene.game.history == [path_text(chosen, move.captured)]
    assert scene.busy
    # The captured pieces leave the board one by one, while the piece travels.
    seen = []
    while scene.busy:
        step(app)
        seen.append(len([s for s in move.captured if s in scene.shown]))
    assert len(move.captured) >= 2 and seen[-1] == 0
    assert any(0 < n < len(move.captured) for n in seen)
    step(app)
    assert scene.shown == scene.game.pieces()
    assert kinds(scene, "tint")  # the last move is marked


def test_drag_and_drop_plays_too():
    app, scene = start()
    from .harness import drag
    drag(app, centre(scene, "F7"), centre(scene, "F8"))
    assert scene.game.history == ["F7-F8"]


# --- keyboard and gamepad ----------------------------------------------------------------
def test_full_play_with_keyboard_and_gamepad():
    app, scene = start()
    moves = [("F7", "F8", "keyboard"), ("C11", "C12", "gamepad"), ("J6", "J5", "gamepad"),
             ("J11", "J12", "keyboard")]
    for frm, to, device in moves:
        focus_to(app, scene, frm, device)
        if device == "keyboard":
            key(app, pygame.K_RETURN)
        else:
            pad(app, pygame.CONTROLLER_BUTTON_A)
        assert scene.selected == sq(frm)
        assert (7, "focus", sq(frm)) in scene._items
        focus_to(app, scene, to, device)
        assert shown_path(scene) == (sq(frm), sq(to))
        if device == "keyboard":
            key(app, pygame.K_SPACE)
        else:
            pad(app, pygame.CONTROLLER_BUTTON_A)
        settle(app, scene)
    assert scene.game.history == [f"{a}-{b}" for a, b, _ in moves]
    # Escape deselects; B with nothing selected opens the pause menu.
    focus_to(app, scene, "D7")
    key(app, pygame.K_RETURN)
    assert scene.selected == sq("D7")
    key(app, pygame.K_ESCAPE)
    assert scene.selected is None
    pad(app, pygame.CONTROLLER_BUTTON_B)
    assert isinstance(app.scenes.top, DialogScene) and app.scenes.top.title == "Paused"


def test_tab_with_nothing_to_cycle_jumps_between_pieces_that_may_move():
    app, scene = start(position=CAPTURE)
    key(app, pygame.K_TAB)
    assert scene.focus_sq == sq("E5")  # the only piece that may move
    key(app, pygame.K_RETURN)
    key(app, pygame.K_TAB)
    assert scene.focus_sq in {m.to_square for m in scene.game.moves_from(sq("E5"))}


# --- modes --------------------------------------------------------------------------------
def test_two_players_take_turns_and_undo_one_move():
    app, scene = start()
    for frm, to in (("F7", "F8"), ("F11", "F12"), ("G7", "G8")):
        click(app, centre(scene, frm))
        click(app, centre(scene, to))
        settle(app, scene)
    assert scene.game.history == ["F7-F8", "F11-F12", "G7-G8"]
    assert scene.worker.requests == 0   # nobody asked the computer
    key(app, pygame.K_u)
    assert scene.game.history == ["F7-F8", "F11-F12"] and scene.game.turn == "white"
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert len(scene.game.history) == 3


def test_against_the_computer_the_worker_replies():
    app, scene = start(mode="computer", human="white", level="easy")
    click(app, centre(scene, "F7"))
    click(app, centre(scene, "F8"))
    assert scene.game.history == ["F7-F8"]
    assert scene.computer_to_move
    wait_until(app, lambda: len(scene.game.history) == 2)
    after = CamelotBoard()
    after.play("F7-F8")
    after.play(scene.game.history[1])   # the reply is a legal move, in WCF notation
    assert scene.travel is not None and scene.travel.preview > 0  # its path is shown first
    click(app, (5, 300))          # a click makes it take effect at once
    assert not scene.busy and scene.interactive
    # Undo takes back both moves: it is the player's turn again.
    key(app, pygame.K_u)
    assert scene.game.history == [] and scene.interactive


def test_playing_black_turns_the_board_and_the_computer_opens():
    app, scene = start(mode="computer", human="black", level="easy")
    assert scene.flipped
    assert scene.view.square_centre(sq("F16"))[1] > scene.view.square_centre(sq("F1"))[1]
    for s in range(160):
        assert scene.view.square_at(scene.view.square_centre(s)) == s
    wait_until(app, lambda: len(scene.game.history) == 1)
    settle(app, scene)
    assert scene.game.turn == "black" and scene.interactive


def test_hint_asks_the_worker_and_shows_a_path():
    app, scene = start(position=CAPTURE)
    key(app, pygame.K_h)
    wait_until(app, lambda: scene.hint_move is not None)
    assert scene.hint_move.from_square == sq("E5")
    assert kinds(scene, "path")
    assert scene.assisted                       # a win after this is kept as won with help


def test_setup_dialog_when_opened_from_the_menu():
    app = make_app()
    open_game(app, "camelot-board")
    scene = app.scenes.scenes[0]
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene) and scene.mode is None
    key(app, pygame.K_DOWN)        # "Play Black against the computer"
    key(app, pygame.K_RETURN)
    assert app.scenes.top is scene
    assert scene.mode == "computer" and scene.human == "black" and scene.flipped
    scene.leave()


def test_demo_plays_and_any_key_returns_to_the_menu():
    app = make_app((1920, 1080))
    open_game(app, "camelot-board", demo=True)
    scene = app.scenes.top
    assert scene.demo and scene.computer_to_move
    wait_until(app, lambda: len(scene.game.history) >= 1)
    worker = scene.worker
    key(app, pygame.K_x)
    assert isinstance(app.scenes.top, MenuScene)
    assert not worker.busy      # its request was cancelled when the scene was left


def test_game_over_overlay_with_the_reason():
    app, scene = start(position=CASTLE_WIN)
    click(app, centre(scene, "G15"))
    click(app, centre(scene, "G16"))
    settle(app, scene)
    step(app, 3)
    assert scene.game.status is Status.WON
    top = app.scenes.top
    assert isinstance(top, DialogScene) and top.title == "White wins!"
    assert any("castle" in line.lower() for line in top.lines)


# --- layout and the worker ------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_layout_fits(size):
    app, scene = start(size=size)
    view = scene.view
    screen = pygame.Rect((0, 0), size)
    toolbar_top = min(b.rect.top for b in scene.toolbar.buttons)
    for rect in (view.board_rect, view.panel_rect):
        assert screen.contains(rect)
        assert rect.top >= scene.hud_h and rect.bottom <= toolbar_top
    assert not view.board_rect.colliderect(view.panel_rect)
    assert view.cell >= 30 * min(size[0] / 1280, size[1] / 720)
    for s in range(160):
        rect = view.square_rect(s)
        assert view.board_rect.contains(rect)
        assert view.square_at(rect.center) == s
    assert square_name(view.square_at(view.square_centre(sq("A4")))) == "A4"


def test_worker_cancel_and_close_leave_no_process():
    service = WorkService()
    worker = Channel("camelot-move", service)
    from game.camelot.board import START_POSITION
    worker.ask({"position": START_POSITION, "level": "hard"})
    worker.cancel()
    rid = worker.ask({"position": START_POSITION, "level": "easy", "seed": 1, "time_limit": 0.1})
    reply = worker.wait(WORKER_WAIT)
    assert reply is not None and reply.rid == rid and reply.ok and reply.data["move"]
    CamelotBoard().play(reply.data["move"])
    service.shutdown()
    service.shutdown()
    assert not worker.busy
    assert not children_left()


def test_worker_falls_back_to_a_thread():
    from game.camelot.board import START_POSITION
    service = WorkService(use_processes=False)
    worker = Channel("camelot-move", service)
    rid = worker.ask({"position": START_POSITION, "level": "easy", "seed": 2, "time_limit": 0.05})
    reply = worker.wait(WORKER_WAIT)
    assert reply is not None and reply.rid == rid
    CamelotBoard().play(reply.data["move"])
    service.shutdown()


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_the_board_drawn_ahead_from_the_menu_is_the_one_the_game_shows(size):
    """The descriptor's warm-up (run by the menu in the background) draws the
    board and its markers at the size the scene then lays it out at: opening
    the game draws neither again."""
    from scenes.games import descriptor
    from scenes.table import board_view
    app = make_app(size=size)
    board_view._shared_art.clear()
    descriptor("camelot-board").warm(app.size)
    (warmed,) = board_view._shared_art.values()
    drawn = dict(warmed._cache)
    assert ("board", False) in drawn and ("piece", "white", "knight") in drawn
    open_game(app, "camelot-board", seed=1, demo=True)
    scene = app.scenes.top
    assert scene.view.art is warmed
    step(app, 2)
    assert all(warmed._cache[key] is surface for key, surface in drawn.items())
