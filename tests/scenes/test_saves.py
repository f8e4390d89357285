"""Save on quit, resume at the next launch exactly as it was; a damaged save is
moved aside with one line and nothing else is lost."""
import json

import pygame

from scenes.core.app import App, AppOptions
from scenes.games.camelot_board_scene import CamelotBoardScene
from scenes.games.clock_scene import ClockScene
from scenes.games.hamilton_scene import HamiltonScene
from scenes.screens.menu import MenuScene
from scenes.screens.navigation import open_game, open_menu
from scenes.core.overlays import DialogScene
from scenes.store.saves import SAVE_FILE_VERSION, load_save, save_game, save_path
from scenes.store.settings import Settings, config_dir, save_settings

from .harness import click, key, make_app, post, settle, step


def _play(scene, n):
    for _ in range(n):
        scene.play(scene.game.computer_move(scene.rng))
        settle(scene.app, scene)


def _clock_in_play(seed: int = 41, moves: int = 7):
    app = make_app()
    scene = ClockScene(app, seed=seed)
    app.scenes.reset(scene)
    settle(app, scene)
    _play(scene, moves)
    return app, scene


def _launch():
    """The next launch: a new App, the menu as the launcher opens it, and
    the frame after its first (the saved game is read once it is on screen)."""
    app = make_app()
    open_menu(app)
    step(app, 2)
    return app


def test_window_close_mid_game_saves_and_the_next_launch_resumes_exactly():
    app, scene = _clock_in_play()
    step(app, 30)
    piles, history = scene.game.piles(), scene.game.history
    post(pygame.QUIT)
    step(app)
    assert not app.running
    data = json.loads(save_path().read_text())
    assert data["version"] == SAVE_FILE_VERSION and data["game_id"] == "clock" and data["seed"] == 41
    assert data["seconds"] > 0

    app = _launch()
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene) and "Resume Clock (deal 41)?" in dialog.lines
    key(app, pygame.K_RETURN)                        # Resume has the focus
    resumed = app.scenes.top
    assert isinstance(resumed, ClockScene) and resumed.seed == 41
    assert resumed.game.piles() == piles and resumed.game.history == history
    assert data["seconds"] <= resumed.play_seconds < data["seconds"] + 0.1   # the clock goes on
    settle(app, resumed)
    _play(resumed, 1)                                 # and it plays on
    assert len(resumed.game.history) == len(history) + 1


def test_menu_quit_after_pause_keeps_a_patience_with_undo_history():
    app = make_app()
    open_game(app, "hamilton", seed=5)
    scene = app.scenes.top
    settle(app, scene)
    moves = scene.game.legal_moves()
    scene.play(moves[0])
    settle(app, scene)
    _play(scene, 3)
    scene.open_pause()
    step(app)
    piles, history = scene.game.piles(), scene.game.history
    app.quit()                                        # with the pause menu on top
    app = _launch()
    assert isinstance(app.scenes.top, DialogScene)
    click(app, app.scenes.top.focus.buttons[0].rect.center)
    resumed = app.scenes.top
    assert isinstance(resumed, HamiltonScene)
    assert resumed.game.piles() == piles and resumed.game.history == history
    assert app.settings.last_game == "hamilton"


def test_board_game_against_the_computer_resumes_with_its_players():
    app = make_app()
    scene = CamelotBoardScene(app, mode="two")
    app.scenes.reset(scene)
    step(app)
    scene.start_game("computer", "black", "hard")
    for _ in range(2):
        scene.play(scene.game.computer_move())
        settle(app, scene)
    scene.table.finish_animations()
    position, history = scene.game.position_text(), scene.game.history
    app.quit()
    data, message = load_save()
    assert message is None and data["extra"] == {"mode": "computer", "human": "black", "level": "hard"}
    app = _launch()
    assert "Resume Camelot (board game)?" in app.scenes.top.lines
    key(app, pygame.K_RETURN)
    resumed = app.scenes.top
    assert isinstance(resumed, CamelotBoardScene)
    assert (resumed.mode, resumed.human, resumed.level) == ("computer", "black", "hard")
    assert resumed.game.position_text() == position and resumed.game.history == history
    resumed.leave()


def test_nothing_saved_without_moves_or_for_a_demo_and_discard_clears():
    app = make_app()
    open_game(app, "clock", seed=3)
    app.quit()
    assert not save_path().exists()                   # not started: nothing to resume
    app = make_app()
    open_game(app, "clock", seed=3, demo=True)
    scene = app.scenes.top
    settle(app, scene)
    scene.game.play(scene.game.computer_move())
    app.quit()
    assert not save_path().exists()                   # demos are not the player's
    app = make_app()
    scene = ClockScene(app, seed=9)
    app.scenes.reset(scene)
    settle(app, scene)
    _play(scene, 2)
    app.quit()
    assert save_path().exists()
    app = _launch()
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)                         # Discard
    assert isinstance(app.scenes.top, MenuScene) and not save_path().exists()
    app.scenes.top.offer_game_left()                  # offered once a launch, and gone now
    assert isinstance(app.scenes.top, MenuScene)


def test_a_new_deal_or_the_end_of_the_game_clears_the_save():
    app = make_app()
    scene = ClockScene(app, seed=9)
    app.scenes.reset(scene)
    settle(app, scene)
    _play(scene, 2)
    save_game(scene)
    scene.new_deal()
    assert not save_path().exists()
    _play(scene, 2)
    save_game(scene)
    while scene.game.legal_moves():
        scene.game.play(scene.game.computer_move())
    scene.show_state()
    settle(app, scene)
    step(app, 2)
    # the game thrown away by the new deal is counted too, as lost (issue 24)
    record = app.stats.game("clock")
    assert not save_path().exists() and (record.played, record.abandoned) == (2, 1)


def _bad_save(text):
    save_settings(Settings(fullscreen=False, animation_speed="slow", sound=False))
    app = make_app()
    if not app.stats.games:
        app.stats.record("clock", True, 3, 10)
    path = save_path()
    path.write_text(text)
    return path


def _check_moved_aside(path, text, words):
    app = App(AppOptions(size=(1280, 720)))           # the next launch, settings from the file
    open_menu(app)
    step(app, 2)                                      # the save is read with the menu on screen
    assert isinstance(app.scenes.top, MenuScene)      # no resume offered
    toasts = [t[0] for t in app._toasts]
    assert len(toasts) == 1 and toasts[0].startswith("Saved game was unreadable") and words in toasts[0]
    assert "kept as save.json.bad-" in toasts[0] and "\n" not in toasts[0]
    kept = list(path.parent.glob("save.json.bad-*"))
    assert len(kept) == 1 and kept[0].read_text() == text and not path.exists()
    assert app.settings.animation_speed == "slow"     # settings and statistics still load
    assert app.stats.game("clock").played == 1
    assert (config_dir() / "settings.json").exists()


def test_damaged_save_is_moved_aside_with_a_message():
    path = _bad_save('{"version": 1, "game_id": "clock", "se')
    _check_moved_aside(path, '{"version": 1, "game_id": "clock", "se', "line 1 column")


def test_save_with_an_illegal_move_or_from_the_future_is_moved_aside():
    app = make_app()
    scene = ClockScene(app, seed=12)
    app.scenes.reset(scene)
    settle(app, scene)
    _play(scene, 3)
    save_game(scene)
    data = json.loads(save_path().read_text())
    data["engine"]["moves"].append("nonsense")
    text = json.dumps(data)
    path = _bad_save(text)
    _check_moved_aside(path, text, "damaged save")
    for f in path.parent.glob("save.json.bad-*"):
        f.unlink()
    data["version"] = 99
    text = json.dumps(data)
    path = _bad_save(text)
    _check_moved_aside(path, text, "version 99")


def test_a_game_played_with_help_is_still_assisted_after_resume():
    app, scene = _clock_in_play(moves=3)
    scene.assisted = True                              # a hint or automatic play was used
    post(pygame.QUIT)
    step(app)
    assert json.loads(save_path().read_text())["assisted"] is True

    app = _launch()
    key(app, pygame.K_RETURN)                          # Resume
    resumed = app.scenes.top
    assert isinstance(resumed, ClockScene) and resumed.assisted


def test_a_save_whose_assisted_is_not_true_or_false_is_set_aside():
    app, scene = _clock_in_play(moves=3)
    assert save_game(scene) is None
    data = json.loads(save_path().read_text())
    data["assisted"] = "yes"
    save_path().write_text(json.dumps(data))
    loaded, message = load_save()
    assert loaded is None and message.startswith("Saved game was unreadable (assisted")


def test_the_patience_games_and_the_board_game_keep_their_games_through_one_helper():
    from scenes.table import saved_game
    for scene_class in (ClockScene, HamiltonScene, CamelotBoardScene):
        assert scene_class.save_on_quit is saved_game.save_on_quit
        assert scene_class._new_game_started is saved_game.new_game_started
    app = make_app()
    open_game(app, "camelot-board")
    scene = CamelotBoardScene(app, mode="two")
    app.scenes.reset(scene)
    scene.play(scene.game.legal_moves()[0])
    scene.play_seconds, scene.assisted = 12.0, True
    assert app.scenes.top.save_on_quit() is None and load_save()[0]["engine"]
    scene.restart()                            # a fresh game: the old save is stale
    assert (scene.play_seconds, scene.assisted, scene.recorded_game) == (0.0, False, None)
    assert load_save()[0] is None
