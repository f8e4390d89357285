"""Each game in German and in Hebrew (right to left), as the Language setting
shows them, as PNG files.

    python tools/language_shots.py                     # docs/screenshots/, 1280x720 and 1280x800
    python tools/language_shots.py --out /tmp/s --sizes 1280x720 --languages de

The games are played as tools/screenshots.py plays them (the demo a while, the
Clock part way, the board's knight's charge), each with its own empty settings
folder; the menu and the settings screen come too.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pygame  # noqa: E402

from screenshots import SHOTS, shoot  # noqa: E402  (sets up the headless display)

SHOWN = {"menu": "menu", "camelot-solitaire": "camelot-solitaire", "hamilton": "hamilton",
         "clock": "clock-mid", "camelot-board": "camelot-board", "settings": None}


def shot_settings(app) -> None:
    SHOTS["menu"](app)                                 # the screens' navigator comes with it
    app.navigator.open_settings()
    settings = app.scenes.top
    settings.focus.focus = len(settings.rows) - 2      # the Language row and what it says
    for _ in range(8):
        app.step(1 / 60)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="docs/screenshots")
    p.add_argument("--sizes", default="1280x720,1280x800")
    p.add_argument("--languages", default="de,he")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for size_text in args.sizes.split(","):
        size = tuple(int(v) for v in size_text.split("x"))
        for code in args.languages.split(","):
            def speak(app, code=code):
                app.settings.language = code
                app.save_settings()           # as the Settings screen does: every screen speaks it
            for name, shot in SHOWN.items():
                shoot(size, SHOTS[shot] if shot else shot_settings, out / f"{name}-{code}-{size_text}.png",
                      speak)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
