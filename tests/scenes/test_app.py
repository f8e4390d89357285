"""The app shell: launcher errors, window modes, menu, settings, input mapping."""
import subprocess
import sys
from types import SimpleNamespace

import pygame
import pytest

from scenes.core.actions import Action
from scenes.games.clock_scene import ClockScene
from scenes.core.input import InputMapper
from scenes.launcher import main
from scenes.screens.menu import MenuScene
from scenes.screens.settings import SettingsScene
from scenes.screens.navigation import open_menu

from .harness import click, key, make_app, pad, post, step


@pytest.mark.parametrize("args,words", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--game", "clock", "--seed", "three"], "deal number"),
    (["--demo", "nope"], "unknown game 'nope'"),
    (["--timedemo", "clock", "--size", "big"], "size must look like 1920x1080"),
    (["--size", "10x10"], "out of range"),
    (["--screenshot", "x.png"], "needs --frames"),
    (["--frames", "0"], "at least 1"),
    (["--windowed", "--fullscreen"], "not allowed with"),
    (["--bogus"], "unrecognized arguments"),
    (["--timing", "extra"], "unrecognized arguments: extra"),
    (["--game"], "expected one argument"),
    (["--size"], "expected one argument"),
    (["--game", "CLOCK"], "unknown game 'CLOCK'"),
    (["--timedemo", "nope"], "unknown game 'nope'"),
    (["--frames", "abc"], "--frames must be a whole number at least 1 and at most 1000000, not 'abc'"),
    (["--frames", "-3"], "at least 1"),
    (["--seed", "-5"], "deal number"),
    (["--game", "clock", "--seed", "1.5"], "deal number"),
    (["--size", "1920x1080x3"], "size must look like 1920x1080"),
    (["--size", "0x0"], "out of range"),
])
def test_bad_command_line_is_one_line_and_exit_2(capsys, args, words):
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert words in err and err.count("\n") == 1 and err.startswith("roundtable: error:")


def test_screenshot_run(tmp_path):
    out = tmp_path / "shot.png"
    proc = subprocess.run([sys.executable, "main.py", "--game", "clock", "--seed", "3", "--frames", "90",
                           "--screenshot", str(out), "--size", "1280x720"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 720)


def test_timedemo_prints_frame_times():
    proc = subprocess.run([sys.executable, "main.py", "--timedemo", "clock", "--size", "1280x720",
                           "--frames", "60"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "timedemo clock at 1280x720: 59 frames" in proc.stdout and "p99" in proc.stdout


def test_menu_shows_games_and_starts_clock_by_keyboard():
    app = make_app()
    open_menu(app)
    menu = app.scenes.top
    assert isinstance(menu, MenuScene)
    enabled = [t.label for t in menu.tiles if t.enabled]
    assert "Clock" in enabled
    assert menu.tiles[menu.focus.focus].enabled  # the focus starts on a playable game
    for _ in range(len(menu.tiles)):
        if menu.focus.buttons[menu.focus.focus].label == "Clock":
            break
        key(app, pygame.K_RIGHT)
    assert menu.focus.buttons[menu.focus.focus].label == "Clock"
    key(app, pygame.K_RETURN)
    assert isinstance(app.scenes.top, ClockScene)


def test_menu_skips_games_not_built_yet():
    app = make_app()
    open_menu(app)
    menu = app.scenes.top
    disabled = [i for i, t in enumerate(menu.tiles) if not t.enabled]
    for _ in range(8):
        key(app, pygame.K_RIGHT)
        assert menu.focus.focus not in disabled


def test_menu_click_on_clock_tile_and_settings_scene():
    app = make_app()
    open_menu(app)
    menu = app.scenes.top
    settings_button = next(b for b in menu.buttons if b.label == "Settings")
    click(app, settings_button.rect.center)
    scene = app.scenes.top
    assert isinstance(scene, SettingsScene)
    before = app.settings.animation_speed
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # animation speed: next
    assert app.settings.animation_speed != before
    key(app, pygame.K_DOWN)
    was = app.settings.sound
    key(app, pygame.K_RETURN)
    assert app.settings.sound is not was
    pad(app, pygame.CONTROLLER_BUTTON_B)
    assert app.scenes.top is menu
    tile = next(t for t in menu.tiles if t.label == "Clock")
    click(app, tile.rect.center)
    assert isinstance(app.scenes.top, ClockScene)


def test_f11_and_alt_enter_toggle_fullscreen_and_relayout():
    app = make_app()
    open_menu(app)
    assert not app.fullscreen
    key(app, pygame.K_F11)
    assert app.fullscreen and app.size == app.desktop_size
    key(app, pygame.K_RETURN, pygame.KMOD_ALT)
    assert not app.fullscreen and app.size == (1280, 720)
    assert app.scenes.top.size == (1280, 720)


def test_quit_from_menu():
    app = make_app()
    open_menu(app)
    quit_button = next(b for b in app.scenes.top.buttons if b.label == "Quit")
    click(app, quit_button.rect.center)
    assert not app.running


def test_window_close_quits():
    app = make_app()
    open_menu(app)
    post(pygame.QUIT)
    step(app)
    assert not app.running


def test_first_frame_goes_up_at_once_then_the_clock_keeps_the_pace(monkeypatch):
    """On the real clock, the first frame neither waits for the frame rate
    nor counts time: the clock is ticked without a rate before it, with it after."""
    ticks, steps = [], []

    class Clock:
        def tick(self, framerate=0):
            ticks.append(framerate)
            return 16

    app = make_app()
    open_menu(app)
    monkeypatch.setattr(pygame.time, "Clock", Clock)

    def counted_step(dt):
        steps.append(dt)
        if len(steps) == 3:
            app.running = False
    monkeypatch.setattr(app, "step", counted_step)
    app.run()
    assert ticks == [0, 60, 60]
    assert steps == [0.0, 0.016, 0.016]


def test_input_mapper_gamepad_stick_and_double_click():
    mapper = InputMapper()
    stick = pygame.event.Event(pygame.CONTROLLERAXISMOTION, axis=pygame.CONTROLLER_AXIS_LEFTX, value=30000,
                               instance_id=0)
    assert [e.action for e in mapper.translate(stick)] == [Action.RIGHT]
    assert mapper.update(0.2) == []                      # not yet repeating
    assert [e.action for e in mapper.update(0.2)] == [Action.RIGHT]  # held: repeats
    centre = pygame.event.Event(pygame.CONTROLLERAXISMOTION, axis=pygame.CONTROLLER_AXIS_LEFTX, value=0,
                                instance_id=0)
    assert mapper.translate(centre) == [] and mapper.update(1.0) == []
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 10), button=1)
    assert [e.action for e in mapper.translate(down)] == [Action.POINTER_DOWN]
    mapper.update(0.1)
    assert [e.action for e in mapper.translate(down)] == [Action.POINTER_DOWN, Action.DOUBLE_CLICK]
    mapper.update(1.0)
    assert [e.action for e in mapper.translate(down)] == [Action.POINTER_DOWN]


@pytest.mark.parametrize("button,action", [
    (pygame.CONTROLLER_BUTTON_A, Action.SELECT), (pygame.CONTROLLER_BUTTON_B, Action.BACK),
    (pygame.CONTROLLER_BUTTON_X, Action.HINT), (pygame.CONTROLLER_BUTTON_Y, Action.UNDO),
    (pygame.CONTROLLER_BUTTON_START, Action.PAUSE), (pygame.CONTROLLER_BUTTON_DPAD_UP, Action.UP),
])
def test_gamepad_buttons(button, action):
    event = pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, button=button, instance_id=0)
    assert [e.action for e in InputMapper().translate(event)] == [action]


def test_gamepad_hotplug_events():
    mapper = InputMapper()
    added = pygame.event.Event(pygame.CONTROLLERDEVICEADDED, device_index=5)
    assert [e.action for e in mapper.translate(added)] == [Action.DEVICE_ADDED]  # no such pad: no crash
    removed = pygame.event.Event(pygame.CONTROLLERDEVICEREMOVED, instance_id=77)
    assert [e.action for e in mapper.translate(removed)] == [Action.DEVICE_LOST]


class FakePads:
    """The game-controller API as InputMapper uses it, with one pad (instance 7)."""

    def __init__(self):
        self.started = 0

    def init(self):
        self.started += 1

    def get_count(self):
        return 1

    def is_controller(self, device_index):
        return True

    def Controller(self, device_index):   # noqa: N802 - pygame's name
        stick = SimpleNamespace(get_instance_id=lambda: 7)
        return SimpleNamespace(as_joystick=lambda: stick, device_index=device_index)


@pytest.mark.parametrize("pads_at_start", [0, 1])
def test_the_controller_api_starts_with_the_first_pad(monkeypatch, pads_at_start):
    """No pad at launch: the game-controller API is neither loaded nor started
    (start-up) until one is plugged in, and that pad is then opened as a game
    controller, not as a plain joystick. A pad there at launch is opened at once."""
    import scenes.core.input as input_module
    pads = FakePads()
    monkeypatch.setattr(input_module, "_load_controller_api", lambda: pads)
    monkeypatch.setattr(pygame.joystick, "get_init", lambda: True)
    monkeypatch.setattr(pygame.joystick, "get_count", lambda: pads_at_start)
    mapper = InputMapper()
    assert pads.started == pads_at_start and len(mapper.controllers) == pads_at_start
    mapper.translate(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=0))
    assert pads.started == 1 and list(mapper.controllers) == [7] and not mapper.joysticks
    assert mapper.gamepad_connected


def test_the_pads_and_the_statistics_wait_for_the_first_frame_and_a_pad_there_is_opened(monkeypatch):
    """Start-up: the joystick subsystem starts, and the statistics are read,
    once the first frame is on screen; a pad plugged in before the launch is
    then opened as a game controller."""
    import scenes.core.input as input_module
    from scenes.core.app import App, AppOptions
    real_api = input_module._load_controller_api()
    if real_api is not None:
        real_api.quit()               # an earlier test's: it holds the joystick subsystem up
    pygame.joystick.quit()
    pads = FakePads()
    monkeypatch.setattr(input_module, "_load_controller_api", lambda: pads)
    monkeypatch.setattr(pygame.joystick, "get_count", lambda: 1)
    app = App(AppOptions(size=(1280, 720), save_settings=False))
    open_menu(app)
    assert not pygame.joystick.get_init() and app._stats is None and not app.input.controllers
    step(app)
    assert pygame.joystick.get_init() and app._stats is not None
    assert pads.started == 1 and list(app.input.controllers) == [7] and app.input.gamepad_connected


def test_the_statistics_are_read_when_asked_for_before_the_first_frame():
    from scenes.core.app import App, AppOptions
    from scenes.store.settings import data_dir
    data_dir().mkdir(parents=True, exist_ok=True)
    (data_dir() / "stats.json").write_text("garbage")
    app = App(AppOptions(size=(1280, 720), save_settings=False))
    assert app.stats.game("clock").played == 0
    assert [text for text, _ in app._toasts if text.startswith("Statistics file was unreadable")]


def test_corrupt_settings_file_gives_a_toast_and_the_game_still_starts():
    from scenes.core.app import App, AppOptions
    from scenes.store.settings import config_dir
    path = config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text("garbage")
    app = App(AppOptions(size=(1280, 720), save_settings=False))
    assert any("unreadable" in text for text, _ in app._toasts)
    open_menu(app)
    step(app, 3)
    assert list(path.parent.glob("settings.json.bad-*"))


def test_moves_make_sounds_and_refusals_buzz():
    from scenes.screens.navigation import open_game
    from game.clock import hour_pile
    app = make_app()
    open_game(app, "clock", seed=3)
    scene = app.scenes.top
    played = []
    app.sound.play = lambda name: played.append(name) or True
    app.sound.play_all = lambda names: [app.sound.play(n) for n in names]
    step(app, 60)
    key(app, pygame.K_SPACE)
    assert played == ["place", "flip"]
    move = scene.game.legal_moves()[0]
    wrong = hour_pile(1 if move.target != "clock:1" else 2)
    scene.play(type(move)(move.card, wrong))
    assert played[-1] == "invalid"


def test_how_to_play_from_menu_and_pause():
    from scenes.screens.help import HelpScene
    from scenes.screens.navigation import open_game
    app = make_app()
    open_menu(app)
    menu = app.scenes.top
    button = next(b for b in menu.buttons if b.label == "How to play")
    click(app, button.rect.center)
    assert isinstance(app.scenes.top, HelpScene)
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is menu
    open_game(app, "clock", seed=3)
    key(app, pygame.K_p)
    dialog = app.scenes.top
    while dialog.focus.buttons[dialog.focus.focus].label != "How to play":
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    assert isinstance(app.scenes.top, HelpScene) and app.scenes.top.game_id == "clock"
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is dialog


def test_attract_mode_after_a_minute_alone_cycles_games_and_any_input_returns():
    from scenes.table.game_scene import GameScene
    from scenes.screens.menu import ATTRACT_AFTER
    from scenes.screens.navigation import playable_games
    app = make_app()
    open_menu(app)
    menu = app.scenes.top
    step(app, 30)
    post(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1), buttons=(0, 0, 0))
    step(app)
    assert menu.idle < 1.0  # input resets the idle clock
    menu.idle = ATTRACT_AFTER - 0.05
    step(app, 5)
    demo = app.scenes.top
    assert isinstance(demo, GameScene) and demo.demo and demo.demo_cycle
    first = demo.game_id
    demo._next_demo()  # what the demo does after each game
    following = app.scenes.top
    games = playable_games()
    assert following.game_id == games[(games.index(first) + 1) % len(games)] and following.demo
    key(app, pygame.K_SPACE)
    assert isinstance(app.scenes.top, MenuScene)


@pytest.mark.parametrize("size", [(1280, 720), (1366, 768)])
def test_the_menu_paints_only_what_moves_and_looks_as_if_painted_whole(size):
    """Between changes only Clock's moving emblem (and where a message was) is
    painted again; every frame is still the menu painted whole: through a move
    of the focus, the pointer over a tile, a message coming and going, and a
    dialog over the menu and gone (1366 is no multiple of 4: the felt's other way)."""
    app = make_app(size)
    open_menu(app)
    menu = app.scenes.top
    painted = []
    draw_incremental = menu.draw_incremental
    menu.draw_incremental = lambda surface, restore: painted.append(draw_incremental(surface, restore)) \
        or painted[-1]
    whole = pygame.Surface(app.screen.get_size(), 0, app.screen)
    for frame in range(60):
        if frame == 10:
            key(app, pygame.K_RIGHT)
        elif frame == 20:
            post(pygame.MOUSEMOTION, pos=menu.tiles[2].rect.center, rel=(0, 0), buttons=(0, 0, 0))
        elif frame == 25:
            app.toast("Settings saved", 0.2)
        elif frame == 40:
            menu.settings()
        elif frame == 45:
            key(app, pygame.K_ESCAPE)              # the settings screen closes
        step(app)
        if app.scenes.top is not menu:
            continue
        menu.draw(whole)
        app._draw_toasts(whole)
        assert pygame.image.tobytes(app.screen, "RGB") == pygame.image.tobytes(whole, "RGB"), frame
    still = [areas for areas in painted[-8:]]
    assert all(areas is not None for areas in still)
    area = sum(r.w * r.h for areas in still for r in areas) / len(still)
    assert area < 0.1 * size[0] * size[1]       # a still menu: a tenth of the screen at most


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_settings_rows_stay_readable_when_there_are_many(size):
    """Sixteen rows in one column squeezed their words to a few pixels at 1280×720:
    where one column would make a row shorter than its words need, the rows go in
    columns, each as tall as at full size, and none leaves the screen."""
    app = make_app(size=size)
    app.navigator.open_settings()
    scene = app.scenes.top
    assert isinstance(scene, SettingsScene)
    step(app)
    rows = [row.rect for row in scene.rows]
    assert min(r.h for r in rows) >= int(36 * scene.scale)
    screen = pygame.Rect((0, 0), size)
    assert all(screen.contains(r) for r in rows)
    assert not any(a.colliderect(b) for i, a in enumerate(rows) for b in rows[i + 1:])
