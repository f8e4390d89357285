"""Screenshots of the Camelot board scene, to look at it as a player would.

    python tools/camelot_board_shots.py --out /tmp/camelot [--sizes 1280x720,3840x2160]

Shots: the start (two players), a knight's charge previewed (piece selected,
pointer on the target: path numbered, captures crossed out), the computer's
move shown as a path before it plays, and the end of a computer-vs-computer
game with its result.
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
from game.camelot.board import CamelotBoard  # noqa: E402
from game.camelot.moves import parse_square  # noqa: E402
from scenes.core.app import App, AppOptions  # noqa: E402
from scenes.games.camelot_board_scene import CamelotBoardScene  # noqa: E402
from scenes.store.settings import Settings  # noqa: E402

DT = 1 / 60
# Mid-game, White to move: the knight on I7 can charge I7-I9xG11xE11xC11.
CHARGE = ("2/8/10/n11/1n7n2/3m1m1mm3/4mmmmn3/4m7/8N3/1NN2MMMN3/3M1M2M3/2M9/5M6/10/8/2 w 2 2")


def new_app(size):
    return App(AppOptions(size=size, save_settings=False),
               settings=Settings(fullscreen=False, animation_speed="normal", sound=False))


def frames(app, n):
    for _ in range(n):
        app.step(DT)


def post(kind, **attrs):
    pygame.event.post(pygame.event.Event(kind, **attrs))


def start(app, **kw):
    scene = CamelotBoardScene(app, **kw)
    app.scenes.reset(scene)
    frames(app, 20)
    return scene


def shot_start(app):
    start(app, mode="two")


def shot_charge(app):
    scene = start(app, game=CamelotBoard(CHARGE), mode="two")
    centre = scene.view.square_centre
    post(pygame.MOUSEMOTION, pos=centre(parse_square("I7")), rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=centre(parse_square("I7")), button=1)
    post(pygame.MOUSEBUTTONUP, pos=centre(parse_square("I7")), button=1)
    frames(app, 2)
    post(pygame.MOUSEMOTION, pos=centre(parse_square("C11")), rel=(0, 0), buttons=(0, 0, 0))
    frames(app, 3)


def shot_computer_path(app):
    scene = start(app, game=CamelotBoard(CHARGE), mode="computer", human="black")
    for _ in range(2000):  # wait (in real time) for the worker's answer
        frames(app, 1)
        if scene.travel is not None:
            break
        import time
        time.sleep(0.005)
    frames(app, 20)


def shot_demo_end(app):
    scene = start(app, demo=True, seed=4)
    scene._drive_computer = lambda dt: None   # quick moves here instead of the worker's
    scene.worker.cancel()
    game = scene.game
    while game.status is Status.PLAYING:
        from game.camelot.ai import choose_move
        scene.play(choose_move(game, "easy", seed=len(game.history), time_limit=0.05).move)
        frames(app, 1)
        scene.finish_animations()
    frames(app, 60)


def shot_setup(app):
    from scenes.screens.navigation import open_game
    open_game(app, "camelot-board")
    frames(app, 30)


def shot_game_over(app):
    scene = start(app, game=CamelotBoard("N1/4M3/10/12/12/12/12/12/12/12/5m6/12/12/1M8/8/2 w 2 2"),
                  mode="computer", human="white")
    scene.play(scene.game.parse_move("G15-G16"))
    frames(app, 120)


SHOTS = {"start": shot_start, "charge": shot_charge, "computer-path": shot_computer_path,
         "demo-end": shot_demo_end, "setup": shot_setup, "game-over": shot_game_over}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--out", default="/tmp/camelot")
    p.add_argument("--sizes", default="1280x720,3840x2160")
    p.add_argument("--only", default="")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for size_text in args.sizes.split(","):
        size = tuple(int(v) for v in size_text.split("x"))
        for name, shot in SHOTS.items():
            if args.only and name not in args.only.split(","):
                continue
            app = new_app(size)
            shot(app)
            path = out / f"camelot-{name}-{size_text}.png"
            pygame.image.save(app.screen, str(path))
            for scene in list(app.scenes.scenes):
                scene.leave()
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
