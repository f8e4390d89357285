"""Settings: saved atomically; a damaged or future file is kept aside, not lost."""
import json

from scenes.settings import SETTINGS_VERSION, Settings, config_dir, load_settings, save_settings


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
    import scenes.settings as module

    def broken_dump(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(module.json, "dump", broken_dump)
        problem = save_settings(Settings(sound=True))
    assert problem == "Could not save settings: No space left on device"
    assert load_settings()[0] == Settings(sound=False)  # the old file is intact
    assert not list(config_dir().glob("*.tmp"))
