"""The app on a real X server (Xvfb): a full-screen launch shows its first frame
before SDL's wait for the window manager, then goes full screen keeping its picture.

SDL 2 going full screen on X waits up to 0.1 s for the window manager to move the
window, and a window already the desktop's size at its origin never moves, so
every full-screen launch paid the whole wait before its first frame
(``App._set_mode``).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.services import missing, start_xvfb

ROOT = Path(__file__).resolve().parents[2]

# Run in a process of its own: the test process has SDL's dummy driver.
LAUNCH = """if __name__ == "__main__":
    import json, os, sys, pygame
    sys.path.insert(0, {root!r})
    import scenes.core.app as app_module
    from scenes.launcher import main
    seen = {{}}
    from tests.services import X
    POINTS = ((0.01, 0.01), (0.5, 0.3), (0.99, 0.99))
    def pixels(surface):
        w, h = surface.get_size()
        return [list(surface.get_at((int(w * x), int(h * y)))) for x, y in POINTS]
    def shown(surface):
        # What the X server shows in the window: what a player sees.
        x11, w, h = X(os.environ["DISPLAY"]), *surface.get_size()
        win = pygame.display.get_wm_info()["window"]
        return [x11.pixel(win, int(w * x), int(h * y)) for x, y in POINTS]
    def packed(rgb):
        return [(r << 16) | (g << 8) | b for r, g, b, _ in rgb]
    first_frame = app_module.App._after_first_frame
    def watched(app):
        seen["first frame full screen"] = pygame.display.is_fullscreen()
        seen["first frame size"] = list(app.screen.get_size())
        seen["first frame pixels"] = pixels(app.screen)
        first_frame(app)
        seen["then full screen"] = pygame.display.is_fullscreen()
        seen["then size"] = list(app.screen.get_size())
        seen["then pixels"] = pixels(app.screen)
        seen["then shown"] = shown(app.screen)
        seen["first frame packed"] = packed(seen["first frame pixels"])
    app_module.App._after_first_frame = watched
    main([*sys.argv[1:], "--frames", "6"])
    print(json.dumps(seen))
"""


@pytest.fixture
def x_display():
    if not shutil.which("Xvfb"):
        missing("Xvfb", "Debian's xvfb package (an X server with no GPU)")
    proc, display = start_xvfb("1920x1080")
    yield display
    proc.terminate()
    proc.wait(10)


def launch(display: str, *args: str) -> dict:
    env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", LAUNCH.format(root=str(ROOT)), *args],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_full_screen_launch_shows_the_first_frame_first_and_keeps_it(x_display):
    seen = launch(x_display, "--fullscreen")
    assert seen["first frame full screen"] is False      # borderless, not yet full screen
    assert seen["first frame size"] == [1920, 1080]      # ... and the desktop's size
    assert seen["then full screen"] is True
    assert seen["then size"] == [1920, 1080]
    assert seen["then pixels"] == seen["first frame pixels"]   # the menu, not a blank window
    # ... on the screen too, at once: not black until the next frame comes
    assert seen["then shown"] == seen["first frame packed"]


def test_a_windowed_launch_stays_a_window(x_display):
    seen = launch(x_display, "--windowed")
    assert seen["first frame full screen"] is False
    assert seen["then full screen"] is False
