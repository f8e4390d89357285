"""The patience games in the looks Settings offers for seeing them (issue 24):
the four-colour deck, then in high contrast too, then with text and controls at
200 % as well, as PNG files.

    python tools/seeing_shots.py                       # docs/screenshots/, 1280x720
    python tools/seeing_shots.py --out /tmp/s --sizes 1280x720,3840x2160

The games are played as tools/screenshots.py plays them (the demo a while, the
Clock part way), each with its own empty settings folder.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pygame  # noqa: E402

from screenshots import SHOTS, new_app  # noqa: E402  (sets up the headless display)

GAMES = {"camelot-solitaire": "camelot-solitaire", "hamilton": "hamilton", "clock": "clock-mid"}
LOOKS = {"four-colour": {"four_colour": True},
         "four-colour-high-contrast": {"four_colour": True, "high_contrast": True},
         "high-contrast-200": {"four_colour": True, "high_contrast": True, "text_scale": 200}}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="docs/screenshots")
    p.add_argument("--sizes", default="1280x720")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for size_text in args.sizes.split(","):
        size = tuple(int(v) for v in size_text.split("x"))
        for game, shot in GAMES.items():
            for look, settings in LOOKS.items():
                with tempfile.TemporaryDirectory() as home:
                    os.environ["ROUNDTABLE_HOME"] = home
                    app = new_app(size)
                    for name, value in settings.items():
                        setattr(app.settings, name, value)
                    app.save_settings()       # as the Settings screen does: the felt follows
                    SHOTS[shot](app)
                    app.options.frames = 1    # leaving: no save-on-quit
                path = out / f"{game}-{look}-{size_text}.png"
                pygame.image.save(app.screen, str(path))
                app.settings.high_contrast, app.settings.text_scale = False, 100
                app.save_settings()           # the next shot starts from the usual felt and text
                print(path)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
