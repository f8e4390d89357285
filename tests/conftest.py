"""Every test runs headless, with its own settings folder."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Speed is measured in bench/, never in tests: no per-example deadline, which
# would only make a loaded machine fail a correct example.
settings.register_profile("roundtable", deadline=None)
settings.load_profile("roundtable")


def pytest_addoption(parser):
    parser.addoption("--regen-screenshots", action="store_true",
                     help="rewrite the reference images of the screenshot tests")


@pytest.fixture(autouse=True)
def _settings_home(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path / "home"))


# The app speaks the system's preferred language: the tests read its words in
# English wherever they run (tests/scenes/test_words.py tries the others).
os.environ["SDL_PREFERRED_LOCALES"] = "en"
