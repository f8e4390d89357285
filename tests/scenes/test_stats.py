"""Statistics: recording and streaks, the file (damaged or from the future is
moved aside, the rest still loads), results recorded at game over, the screen."""
import json

import pygame
import pytest

from game.base import Status
from scenes.games.clock_scene import ClockScene
from scenes.screens.menu import MenuScene
from scenes.screens.navigation import open_menu
from scenes.store.settings import Settings, config_dir, data_dir, save_settings
from scenes.store.stats import HISTORY_CAP, STATS_VERSION, GameStats, Stats, load_stats
from scenes.screens.statistics import StatsScene, format_time

from .harness import click, key, make_app, pad, settle, step


def test_recording_and_streaks():
    g = GameStats()
    for won, score, seconds in [(True, 20, 100), (True, 30, 80), (False, 50, 300),
                                (True, 10, 120), (True, 40, 90), (True, 5, 200)]:
        g.record(won, score, seconds)
    assert (g.played, g.won, g.lost) == (6, 5, 1)
    assert g.current_streak == 3 and g.best_streak == 3
    assert g.best_score == 50                # the best score, won or not
    assert g.best_time == 80                 # the fastest win (the loss of 300 s does not count)
    assert g.average_time == (100 + 80 + 300 + 120 + 90 + 200) / 6
    assert abs(g.win_rate - 5 / 6) < 1e-9
    assert g.running_win_rate() == [1, 1, 2 / 3, 3 / 4, 4 / 5, 5 / 6]
    g.record(False)
    assert g.current_streak == 0 and g.best_streak == 3


def test_history_is_capped_and_levels_counted():
    g = GameStats()
    for k in range(HISTORY_CAP + 30):
        g.record(k % 2 == 0, k, 1)
    assert len(g.history) == HISTORY_CAP and g.history[-1]["score"] == HISTORY_CAP + 29
    assert g.played == HISTORY_CAP + 30      # the totals keep everything
    board = GameStats()
    board.record(True, None, 60, "won", "hard")
    board.record(False, None, 60, "drawn", "hard")
    board.record(False, None, 60, "lost", "easy")
    assert board.levels == {"hard": {"won": 1, "lost": 0, "drawn": 1},
                            "easy": {"won": 0, "lost": 1, "drawn": 0}}
    assert board.history[1]["result"] == "drawn" and board.best_score is None


def test_round_trip_through_the_file():
    stats, message = load_stats()
    assert message is None and stats.games == {}
    assert stats.record("clock", True, 12, 95.5) is None
    stats.record("camelot-board", False, None, 300, "drawn", "medium")
    data = json.loads((data_dir() / "stats.json").read_text())
    assert data["version"] == STATS_VERSION
    again, message = load_stats()
    assert message is None
    assert again.game("clock").to_json() == stats.game("clock").to_json()
    assert again.game("camelot-board").levels == {"medium": {"won": 0, "lost": 0, "drawn": 1}}


def _bad_stats_and_a_good_everything_else(text: str):
    save_settings(Settings(fullscreen=False, animation_speed="slow", sound=False))
    path = data_dir() / "stats.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_damaged_stats_file_is_moved_aside_and_the_rest_loads():
    path = _bad_stats_and_a_good_everything_else("{ not json")
    stats, message = load_stats()
    assert stats.games == {} and "\n" not in message
    assert message.startswith("Statistics file was unreadable") and "kept as stats.json.bad-" in message
    kept = list(path.parent.glob("stats.json.bad-*"))
    assert len(kept) == 1 and kept[0].read_text() == "{ not json"   # nothing lost
    assert not path.exists()


def test_bad_values_in_stats_are_rejected_not_half_loaded():
    good = Stats()
    good.games["clock"] = GameStats()
    good.games["clock"].record(True, 3, 10)
    data = good.to_json()
    data["games"]["clock"]["won"] = 7   # more won than played
    path = _bad_stats_and_a_good_everything_else(json.dumps(data))
    stats, message = load_stats()
    assert stats.games == {} and "do not add up" in message
    assert json.loads(next(path.parent.glob("stats.json.bad-*")).read_text()) == data


def test_stats_from_the_future_and_the_app_still_starts(monkeypatch):
    path = _bad_stats_and_a_good_everything_else(json.dumps({"version": 99, "games": {}}))
    from scenes.core.app import App, AppOptions
    app = App(AppOptions(size=(1280, 720)))
    assert app.settings.animation_speed == "slow" and not app.settings.sound   # settings loaded
    assert app.stats.games == {}
    toasts = [t[0] for t in app._toasts]
    assert len(toasts) == 1 and "version 99" in toasts[0] and "kept as stats.json.bad-" in toasts[0]
    assert len(list(path.parent.glob("stats.json.bad-*"))) == 1 and not path.exists()
    assert (config_dir() / "settings.json").exists()
    open_menu(app)
    step(app, 2)
    assert isinstance(app.scenes.top, MenuScene)


def _finish(app, scene):
    game = scene.game
    while game.status is Status.PLAYING:
        game.play(game.computer_move())
    scene.show_state()


def test_game_over_records_once_and_demos_do_not():
    app = make_app()
    scene = ClockScene(app, seed=7)
    app.scenes.reset(scene)
    step(app, 30)
    _finish(app, scene)
    settle(app, scene)
    step(app, 2)
    g = app.stats.game("clock")
    assert g.played == 1 and g.won == (scene.game.status is Status.WON)
    assert g.history[0]["seconds"] > 0 and g.history[0]["score"] == scene.game.score
    step(app, 200)                          # the dialog; nothing recorded twice
    assert app.stats.game("clock").played == 1
    assert load_stats()[0].game("clock").played == 1   # saved
    demo = ClockScene(app, seed=8, demo=True)
    app.scenes.reset(demo)
    _finish(app, demo)
    settle(app, demo)
    step(app, 5)
    assert app.stats.game("clock").played == 1


def test_stats_scene_by_keyboard_gamepad_and_mouse():
    app = make_app()
    app.stats.record("clock", True, 10, 60)
    app.stats.record("clock", False, 4, 30)
    app.stats.record("camelot-board", True, None, 60, "won", "easy")
    open_menu(app)
    menu = app.scenes.top
    button = next(b for b in menu.buttons if b.label == "Statistics")
    click(app, button.rect.center)
    scene = app.scenes.top
    assert isinstance(scene, StatsScene)
    first = scene.game_id
    key(app, pygame.K_RIGHT)
    assert scene.game_id != first
    key(app, pygame.K_LEFT)
    assert scene.game_id == first
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is menu
    menu.statistics()
    step(app)
    scene = app.scenes.top
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_RIGHT)
    assert scene.game_id != first
    pad(app, pygame.CONTROLLER_BUTTON_B)
    assert app.scenes.top is menu
    menu.statistics()
    step(app)
    scene = app.scenes.top
    click(app, scene.next_button.rect.center)
    assert scene.game_id != first
    click(app, scene.back_button.rect.center)
    assert app.scenes.top is menu
    menu.statistics()
    step(app)
    key(app, pygame.K_RETURN)                # Back has the focus
    assert app.scenes.top is menu


def test_stats_scene_draws_every_game_at_720p_and_4k():
    for size in ((1280, 720), (3840, 2160)):
        app = make_app(size=size)
        for k in range(30):
            app.stats.record("clock", k % 3 == 0, k, 50 + k)
            app.stats.record("camelot-board", k % 2 == 0, None, 500, ("won", "lost", "drawn")[k % 3],
                             ("easy", "medium", "hard")[k % 3])
        scene = StatsScene(app, "clock")
        app.scenes.reset(scene)
        for _ in scene.games:
            step(app)
            assert app.screen.get_at((size[0] // 2, size[1] // 2)) != app.screen.get_at((5, 5))
            scene.switch(1)


def test_format_time():
    assert format_time(None) == "—" and format_time(65) == "1:05" and format_time(3725) == "1:02:05"


def test_an_assisted_win_is_kept_apart_and_survives_the_file(tmp_path):
    stats = Stats(path=tmp_path / "stats.json")
    stats.record("hamilton", True, 52, 300.0)
    stats.record("hamilton", True, 52, 100.0, assisted=True)
    g = stats.game("hamilton")
    assert (g.played, g.won, g.assisted, g.lost) == (2, 1, 1, 0)
    assert g.best_time == 300.0 and g.current_streak == 1   # the help neither counts nor breaks
    assert g.history[-1]["assisted"] is True and g.history[-1]["won"] is False
    assert stats.save() is None
    loaded, message = load_stats(tmp_path / "stats.json")
    assert message is None and loaded.game("hamilton").assisted == 1
    with pytest.raises(ValueError):      # more wins and assisted games than games played
        GameStats.from_json(g.to_json() | {"assisted": 5})
