"""Render scenes headless to PNG files, to look at them (and for the README).

    python tools/screenshots.py --out /tmp/shots [--sizes 1280x720,3840x2160] [--only menu,clock-mid]
    python tools/screenshots.py --readme      # the README's pictures: docs/screenshots/*.png

Each shot drives the real app through its scenes with fixed 1/60 s frames, with
its own empty settings folder (so no saved game or statistics leak in).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from game.base import Status  # noqa: E402
from scenes.core.app import App, AppOptions  # noqa: E402
from scenes.screens.navigation import open_game, open_menu  # noqa: E402
from scenes.store.settings import Settings  # noqa: E402

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


def shot_demo(app, game_id, seconds):
    open_game(app, game_id, seed=7, demo=True)
    frames(app, int(seconds * 60))


def shot_board_charge(app):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import camelot_board_shots
    camelot_board_shots.shot_charge(app)


def shot_statistics(app):
    import random
    from scenes.screens.statistics import StatsScene
    rng = random.Random(3)
    for i in range(60):
        won = rng.random() < 0.15 + i / 200
        app.stats.record("clock", won, 48 if won else rng.randrange(30, 47), rng.uniform(40, 200))
    open_menu(app)
    app.scenes.push(StatsScene(app))
    scene = app.scenes.top
    scene.index = scene.games.index("clock")
    scene.switch(0)
    frames(app, 10)


def shot_help(app):
    from scenes.screens.help import HelpScene
    open_menu(app)
    app.scenes.push(HelpScene(app, "hamilton"))
    frames(app, 10)


def shot_resume(app):
    open_game(app, "hamilton", seed=28)
    frames(app, 60)
    scene = app.scenes.top
    for _ in range(3):
        scene.play(scene.game.computer_move())
        frames(app, 30)
    app.options.save_settings = True
    from scenes.store.saves import save_game
    save_game(scene)
    from scenes.screens.menu import MenuScene
    app.scenes.reset(MenuScene(app))
    frames(app, 20)


def _replay_shot(name):
    def shot(app):
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import replay_shots
        getattr(replay_shots, name)(app)
    return shot


SHOTS = {
    "menu": shot_menu,
    "clock-mid": shot_clock_mid,
    "clock-won": lambda app: shot_clock_end(app, 8),
    "clock-lost": lambda app: shot_clock_end(app, 3),
    "camelot-solitaire": lambda app: shot_demo(app, "camelot-solitaire", 25),
    "hamilton": lambda app: shot_demo(app, "hamilton", 40),
    "camelot-board": shot_board_charge,
    "statistics": shot_statistics,
    "help": shot_help,
    "resume": shot_resume,
    "replay": _replay_shot("shot_replay"),
    "board-hint": _replay_shot("shot_board_hint"),
    "replay-list": _replay_shot("shot_replay_list"),
}
README_SHOTS = ["menu", "clock-mid", "camelot-solitaire", "hamilton", "camelot-board",
                "statistics", "help", "resume"]


def shoot(size, shot, path: Path, prepare=None) -> None:
    """One screenshot: a fresh app with its own empty settings folder
    (``prepare(app)`` first, e.g. a setting), ``shot(app)``, saved to ``path``."""
    with tempfile.TemporaryDirectory() as home:
        os.environ["ROUNDTABLE_HOME"] = home
        app = new_app(size)
        if prepare is not None:
            prepare(app)
        shot(app)
        app.options.frames = 1  # leaving: no save-on-quit
    pygame.image.save(app.screen, str(path))
    print(path)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--out", default="screenshots")
    p.add_argument("--sizes", default="1280x720,3840x2160")
    p.add_argument("--only", help="comma-separated shot names: " + ", ".join(SHOTS))
    p.add_argument("--readme", action="store_true", help="write the README's pictures")
    args = p.parse_args()
    if args.readme:
        args.out, args.sizes, args.only = "docs/screenshots", "1280x720", ",".join(README_SHOTS)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = args.only.split(",") if args.only else list(SHOTS)
    for size_text in args.sizes.split(","):
        size = tuple(int(v) for v in size_text.split("x"))
        for name in names:
            suffix = "" if args.readme else f"-{size_text}"
            shoot(size, SHOTS[name], out / f"{name}{suffix}.png")
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
