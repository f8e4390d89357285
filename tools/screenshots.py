"""Render scenes headless to PNG files, to look at them (and for the README).

    python tools/screenshots.py --out screenshots/ [--sizes 1280x720,3840x2160]

Each shot drives the real app through its scenes with fixed 1/60 s frames.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from game.base import Status  # noqa: E402
from scenes.app import App, AppOptions  # noqa: E402
from scenes.navigation import open_game, open_menu  # noqa: E402
from scenes.settings import Settings  # noqa: E402

DT = 1 / 60


def new_app(size):
    return App(AppOptions(size=size, save_settings=False),
               settings=Settings(fullscreen=False, animation_speed="fast", sound=False))


def frames(app, n):
    for _ in range(n):
        app.step(DT)


def shot_menu(app):
    open_menu(app)
    frames(app, 30)


def shot_clock_mid(app):
    open_game(app, "clock", seed=3)
    scene = app.scenes.top
    frames(app, 120)
    for _ in range(20):
        scene.play(scene.game.legal_moves()[0])
        frames(app, 40)


def shot_clock_end(app, seed):
    open_game(app, "clock", seed=seed)
    scene = app.scenes.top
    frames(app, 120)
    while scene.game.status is Status.PLAYING:
        scene.play(scene.game.legal_moves()[0])
        frames(app, 30)
    frames(app, 150)


SHOTS = {
    "menu": shot_menu,
    "clock-mid": shot_clock_mid,
    "clock-won": lambda app: shot_clock_end(app, 8),
    "clock-lost": lambda app: shot_clock_end(app, 3),
}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--out", default="screenshots")
    p.add_argument("--sizes", default="1280x720,3840x2160")
    p.add_argument("--only", help="comma-separated shot names: " + ", ".join(SHOTS))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = args.only.split(",") if args.only else list(SHOTS)
    for size_text in args.sizes.split(","):
        size = tuple(int(v) for v in size_text.split("x"))
        for name in names:
            app = new_app(size)
            SHOTS[name](app)
            path = out / f"{name}-{size_text}.png"
            pygame.image.save(app.screen, str(path))
            print(path)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
