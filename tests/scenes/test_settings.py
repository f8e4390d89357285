"""Settings: saved atomically; a damaged or future file is kept aside, not lost."""
import json

from scenes.store.settings import SETTINGS_VERSION, Settings, config_dir, load_settings, save_settings


def test_defaults_when_no_file():
    settings, message = load_settings()
    assert settings == Settings() and message is None


def test_round_trip():
    save_settings(Settings(fullscreen=False, animation_speed="fast", sound=False))
    settings, message = load_settings()
    assert settings == Settings(fullscreen=False, animation_speed="fast", sound=False)
    assert message is None
    data = json.loads((config_dir() / "settings.json").read_text())
    assert data["version"] == SETTINGS_VERSION


def test_damaged_file_is_moved_aside_and_defaults_used():
    path = config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text("{ this is not json")
    settings, message = load_settings()
    assert settings == Settings()
    assert message.startswith("Settings file was unreadable") and "kept as settings.json.bad-" in message
    kept = list(path.parent.glob("settings.json.bad-*"))
    assert len(kept) == 1 and kept[0].read_text() == "{ this is not json"
    assert not path.exists()


def test_file_from_the_future_is_kept_aside():
    path = config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 99, "fullscreen": False}))
    settings, message = load_settings()
    assert settings == Settings() and "version 99" in message
    assert len(list(path.parent.glob("settings.json.bad-*"))) == 1


def test_bad_values_are_rejected():
    path = config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": SETTINGS_VERSION, "animation_speed": "warp"}))
    settings, message = load_settings()
    assert settings == Settings() and "warp" in message


def test_saving_never_leaves_a_half_written_file(monkeypatch):
    save_settings(Settings(sound=False))
    import scenes.store.files as module

    def broken_fsync(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(module.os, "fsync", broken_fsync)
        problem = save_settings(Settings(sound=True))
    assert problem == "Could not save settings: No space left on device"
    assert load_settings()[0] == Settings(sound=False)  # the old file is intact
    assert not list(config_dir().glob("*.tmp"))


def test_volume_card_back_and_last_game_round_trip_and_validation():
    save_settings(Settings(volume=0.3, card_back="red", last_game="hamilton"))
    assert load_settings() == (Settings(volume=0.3, card_back="red", last_game="hamilton"), None)
    for field, value in [("volume", 1.5), ("volume", True), ("volume", "loud"),
                         ("card_back", "tartan"), ("last_game", "chess")]:
        path = config_dir() / "settings.json"
        path.write_text(json.dumps({"version": SETTINGS_VERSION, field: value}))
        settings, message = load_settings()
        assert settings == Settings() and message.startswith("Settings file was unreadable")
    assert len(list(config_dir().glob("settings.json.bad-*"))) >= 1


def _app():
    from scenes.core.app import App, AppOptions
    return App(AppOptions(size=(1280, 720)))


def test_volume_card_back_and_last_game_persist_across_launches():
    import pygame

    from scenes.screens.menu import MenuScene
    from scenes.screens.settings import SettingsScene
    from scenes.screens.navigation import open_game, open_menu
    from scenes.table.card_art import shared_card_art

    from .harness import key, step
    app = _app()
    open_menu(app)
    app.scenes.push(SettingsScene(app))
    step(app)
    for _ in range(3):
        key(app, pygame.K_DOWN)           # to the volume row
    key(app, pygame.K_LEFT)
    key(app, pygame.K_LEFT)
    assert app.settings.volume == 0.6 and app.sound.volume == 0.6
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)              # card back: the next style
    assert app.settings.card_back == "red"
    open_game(app, "clock", seed=4)
    step(app)
    assert app.settings.last_game == "clock"
    assert shared_card_art(app, 60).back_style == "red"

    again = _app()
    assert (again.settings.volume, again.settings.card_back, again.settings.last_game) == (0.6, "red", "clock")
    assert again.sound.volume == 0.6
    open_menu(again)
    menu = again.scenes.top
    assert isinstance(menu, MenuScene) and menu.tile_ids[menu.focus.focus] == "clock"
    assert shared_card_art(again, 60).back_style == "red"
    again.settings.card_back = "green"
    assert shared_card_art(again, 60).back_style == "green"   # the cache keys on the back


def test_volume_by_click_wraps_and_arrows_stop_at_the_ends():
    from scenes.screens.settings import SettingsScene

    from .harness import make_app
    app = make_app()
    scene = SettingsScene(app)
    app.scenes.reset(scene)
    app.settings.volume = 0.9
    scene._change_volume(1)
    assert app.settings.volume == 1.0
    scene._change_volume(1, wrap=False)
    assert app.settings.volume == 1.0
    scene._change_volume(1)
    assert app.settings.volume == 0.0
    scene._change_volume(-1, wrap=False)
    assert app.settings.volume == 0.0
