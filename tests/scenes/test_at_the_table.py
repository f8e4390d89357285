"""Issue 13, "at the table": what a player noticed, each driven through posted
mouse, keyboard and gamepad events. Every wait on a worker has a wall-clock
limit, and every worker process is closed after each test."""
import pygame
import pytest

from game.base import Status
from game.camelot.moves import parse_square, path_text
from game.hamilton import Hamilton
from scenes.core.actions import Action
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
    scene.leave()


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


# --- 6, 7. messages have a band of their own; nothing touches the bars ---------------------
SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]


def _bars(scene):
    from scenes.core.ui import message_band
    w, h = scene.size
    return (pygame.Rect(0, 0, w, scene.hud_h), message_band(scene.size),
            pygame.Rect(0, scene.toolbar.buttons[0].rect.top, w, h))


def _card_rects(scene):
    return [scene.table.card_rect(card) for card in scene.table.sprites]


@pytest.mark.parametrize("size", SIZES)
def test_a_message_never_covers_the_cards(size):
    from game.camelot_solitaire import CamelotSolitaire
    from scenes.games.camelot_solitaire_scene import CamelotSolitaireScene
    app, scene = open_scene(CamelotSolitaireScene, CamelotSolitaire(seed=1), size=size, seed=1)
    for _ in range(16):                            # fill the grid: every cell holds a card
        key(app, pygame.K_RETURN)                  # turn (the focus stays on the stock)
        settle(app, scene)
        key(app, pygame.K_TAB)                     # the waste card's first legal cell
        key(app, pygame.K_RETURN)
        settle(app, scene)
        key(app, pygame.K_TAB, pygame.KMOD_SHIFT)  # back towards the stock
        while scene.focus != "stock":
            key(app, pygame.K_LEFT)
    picture = next(p for p, cards in scene.game.piles().items()
                   if p.startswith("cell:") and cards and cards[-1][0].is_picture)
    click(app, scene.table.top_rect(picture).center)   # refused: a message
    assert app._toasts and app._toast_rects
    hud, band, toolbar = _bars(scene)
    for rect in app._toast_rects:
        assert band.contains(rect)
        assert rect.collidelist(_card_rects(scene)) < 0
        assert not rect.colliderect(toolbar)


@pytest.mark.parametrize("size", SIZES)
def test_clock_deals_from_the_middle_and_its_piles_clear_the_bars(size):
    from game.clock import Clock, hour_pile
    from scenes.games.clock_scene import ClockScene
    app = make_app(size, speed="normal")
    scene = ClockScene(app, seed=3, game=Clock(seed=3))
    app.scenes.reset(scene)
    hud, band, toolbar = _bars(scene)
    for _ in range(600):                           # the deal: no card over a bar
        step(app)
        for rect in _card_rects(scene):
            assert not rect.colliderect(toolbar) and not rect.colliderect(band)
        if not scene.busy:
            break
    six, twelve = scene.table.top_rect(hour_pile(6)), scene.table.top_rect(hour_pile(12))
    gap = scene.table.card_size[1] * 0.05
    assert six.bottom + gap <= band.top and twelve.top - gap >= hud.bottom


@pytest.mark.parametrize("size", SIZES)
def test_hamilton_sits_clear_of_the_top_bar_and_fills_the_height(size):
    app, scene = open_scene(HamiltonScene, Hamilton(seed=7), size=size, seed=7)
    hud, band, _ = _bars(scene)
    ch = scene.table.card_size[1]
    slots = scene.table.slots
    top = min(slot.origin[1] for slot in slots.values())
    bottom = max(slot.origin[1] for slot in slots.values()) + ch
    assert top - hud.bottom >= ch * 0.05 and band.top - bottom >= ch * 0.05
    assert (bottom - top) >= (band.top - hud.bottom) * 0.8   # the foundations span the table


# --- 9. the win is seen; time and moves are told ----------------------------------------
def _clock_played_out(seed):
    from scenes.games.clock_scene import ClockScene
    from game.clock import Clock
    app = make_app(speed="instant")
    scene = ClockScene(app, seed=seed, game=Clock(seed=seed))
    app.scenes.reset(scene)
    settle(app, scene)
    for _ in range(200):                      # Enter on the centre card: the next move
        if scene.game.status is not Status.PLAYING:
            break
        key(app, pygame.K_RETURN)
        step(app, 12)                          # a fifth of a second of play time each
        settle(app, scene)
    step(app, 200)                             # the celebration, then the dialog
    return app, scene


def test_a_won_clock_wheels_round_the_dialog_which_tells_time_and_moves():
    app, scene = _clock_played_out(8)
    assert scene.game.status is Status.WON
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene) and dialog.title == "You won!"
    seconds = int(scene.play_seconds)
    n = len(scene.game.history)
    told = f"{seconds // 60}:{seconds % 60:02d}  ·  {n} moves"
    assert seconds >= 5 and any(told in line for line in dialog.lines)
    hud = [text for text, *_ in scene._hud_texts()["right"]]
    assert told in hud
    cards = _card_rects(scene)
    clear = [r for r in cards if not r.colliderect(dialog.panel_rect)]
    assert len(clear) >= len(cards) * 0.6     # most of the wheel is outside the dialog


def test_a_lost_clock_offers_no_undo():
    app, scene = _clock_played_out(3)
    assert scene.game.status is Status.LOST
    dialog = app.scenes.top
    assert [b.label for b in dialog.focus.buttons] == ["New deal", "Restart", "Main menu"]


def test_the_board_counts_moves_as_its_move_list_does():
    app, scene = board()
    click(app, centre(scene, "E5"))
    click(app, centre(scene, "E7"))
    settle(app, scene)
    assert len(scene.game.history) == 1 and scene.moves_made() == 1
    reply = scene.game.legal_moves()[0]                     # Black's reply: still move 1
    click(app, scene.view.square_centre(reply.from_square))
    click(app, scene.view.square_centre(reply.to_square))
    settle(app, scene)
    assert len(scene.game.history) == 2 and scene.moves_made() == 1
    hud = [text for text, *_ in scene._hud_texts()["right"]]
    assert any(text.endswith("  ·  1 move") for text in hud)


def test_a_drag_is_not_the_first_half_of_a_double_click():
    from scenes.core.input import InputMapper
    mapper = InputMapper()
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(100, 100), button=1)
    assert [e.action for e in mapper.translate(down)] == [Action.POINTER_DOWN]
    mapper.translate(pygame.event.Event(pygame.MOUSEMOTION, pos=(160, 100), rel=(60, 0),
                                        buttons=(1, 0, 0)))
    mapper.translate(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(160, 100), button=1))
    mapper.update(0.1)
    assert [e.action for e in mapper.translate(down)] == [Action.POINTER_DOWN]
    mapper.update(0.1)
    assert Action.DOUBLE_CLICK in [e.action for e in mapper.translate(down)]   # a real one


# --- 12. no sound device: no native chatter on the terminal ---------------------------------
def test_no_alsa_lines_on_the_terminal_without_a_sound_device(tmp_path):
    import os
    import subprocess
    import sys
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="alsa",
               ROUNDTABLE_HOME=str(tmp_path), PYGAME_HIDE_SUPPORT_PROMPT="1")
    run = subprocess.run([sys.executable, "main.py", "--game", "clock", "--seed", "3",
                          "--size", "1280x720", "--frames", "5"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert not [line for line in run.stderr.splitlines() if line.startswith("ALSA lib")], run.stderr
    assert len(run.stderr.splitlines()) <= 1      # at most one line: "no audio, playing silently"


# --- 8, 10. a real text face; canters read apart from jumps -----------------------------
def test_the_text_face_is_the_shipped_dejavu_with_its_licence():
    from scenes.core.ui import FACE_FILES, FONTS, font_dir
    pygame.font.init()
    for bold, name in FACE_FILES.items():
        assert (font_dir() / name).is_file()
        regular_w = FONTS.font(40).size("Hamilton")[0]
        assert FONTS.font(40, bold).size("Hamilton")[0] >= regular_w
    assert FONTS.font(40, True).size("Hamilton")[0] > FONTS.font(40).size("Hamilton")[0]  # two weights
    assert "Bitstream Vera" in (font_dir() / "LICENSE-DejaVu.txt").read_text()


def test_a_canter_step_is_drawn_dashed_and_a_jump_solid():
    from scenes.table.board_view import canter_steps
    app, scene = board()
    click(app, centre(scene, "E5"))
    hover(app, centre(scene, "E7"))
    item = next(k for k in scene._items if k[1] == "path")
    path, captured = item[2], item[4]
    assert captured                                     # the jumps capture
    assert canter_steps(path, captured) == frozenset()  # no canter in a pure capture
    i7, i8, i9 = (parse_square(n) for n in ("I7", "I8", "I9"))
    assert canter_steps((i7, i9), frozenset()) == {0}          # over a piece that stays
    assert canter_steps((i7, i9), frozenset({i8})) == frozenset()  # over a piece taken


# --- 13. settings from the pause menu; a new deal asks first; Clock's end ------------------
def test_settings_from_the_pause_menu_and_back():
    from scenes.screens.menu import SettingsScene
    app, scene = open_scene(HamiltonScene, Hamilton(seed=7), seed=7)
    key(app, pygame.K_p)
    pause = app.scenes.top
    assert isinstance(pause, DialogScene) and pause.title == "Paused"
    while pause.focus.buttons[pause.focus.focus].label != "Settings":
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    settings = app.scenes.top
    assert isinstance(settings, SettingsScene)
    while not settings.rows[settings.focus.focus].label.startswith("Card back"):
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)                                 # another back
    back = app.settings.card_back
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is pause
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is scene and scene.art.back_style == back


def test_a_new_deal_asks_before_throwing_a_game_away():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=7), seed=7)
    key(app, pygame.K_n)                     # nothing played yet: no question
    settle(app, scene)
    assert app.scenes.top is scene and scene.seed != 7
    seed = scene.seed
    key(app, pygame.K_RETURN)                # the stock: a move
    settle(app, scene)
    key(app, pygame.K_n)
    ask = app.scenes.top
    assert isinstance(ask, DialogScene) and ask.title == "New deal?"
    key(app, pygame.K_RETURN)                # the focus is on "Keep playing"
    assert app.scenes.top is scene and scene.seed == seed and scene.game.history
    click(app, next(b for b in scene.toolbar.buttons if b.label == "New deal").rect.center)
    ask = app.scenes.top
    assert ask.title == "New deal?"
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)                # "Deal again"
    assert app.scenes.top is scene and scene.seed != seed and not scene.game.history


def _type(app, char):
    post(pygame.KEYDOWN, key=ord(char), mod=0, unicode=char, scancode=0)
    step(app)


def test_choose_a_deal_by_number_from_the_pause_menu():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=7), seed=7)
    key(app, pygame.K_p)
    pause = app.scenes.top
    while pause.focus.buttons[pause.focus.focus].label != "Choose a deal…":
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    dialog = app.scenes.top
    assert dialog.title == "Deal 7"
    _type(app, "4")                           # the first digit replaces the number
    _type(app, "2")
    assert dialog.title == "Deal 42"
    key(app, pygame.K_RIGHT)
    assert dialog.title == "Deal 43"
    key(app, pygame.K_BACKSPACE)              # one digit back, not "cancel"
    assert app.scenes.top is dialog and dialog.title == "Deal 4"
    _type(app, "1")
    key(app, pygame.K_RETURN)                 # the focus is on "Deal"
    assert app.scenes.top is scene and scene.seed == 41
    assert scene.game.piles() == Hamilton(seed=41).piles()


def test_f11_fills_the_screen_from_the_desktop_origin():
    import warnings
    app = make_app()
    open_menu(app)
    app._place_window((100, 50))
    key(app, pygame.K_F11)
    assert app.fullscreen and app.size == app.desktop_size
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    assert tuple(window.position) == (0, 0)
    key(app, pygame.K_F11)
    assert not app.fullscreen
