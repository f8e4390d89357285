"""Screenshots of the replay screen and of the board game's hint (issue 12).

    python tools/screenshots.py --out docs/screenshots --only replay,board-hint \
        --sizes 1280x720,3840x2160

``replay``: a game the computer played against itself at the easy level (seeded,
so the picture is the same each time), kept as the app keeps a finished game,
chosen from the "Replay a game" list and stepped to its 27th move (of 63: White wins in the castle); the engine's
view (score, best move in blue, the bar) is waited for. ``board-hint``: the
board game after the Hint key, the best move and the expected reply drawn.
"""
from __future__ import annotations

import datetime
import functools
import time

import pygame

from game.camelot import record as camelot_record
from game.base import Status
from game.camelot.ai import choose_move
from game.camelot.board import CamelotBoard

PLIES = 300             # at most: the game is played to its end
SHOWN_PLY = 27


@functools.lru_cache(maxsize=None)
def computer_game(plies: int = PLIES) -> CamelotBoard:
    game = CamelotBoard()
    for ply in range(plies):
        if game.status is not Status.PLAYING:
            break
        # depth-bound, not time-bound: the same game on any machine
        result = choose_move(game, "easy", seed=ply, max_depth=2, time_limit=60.0)
        if result.move is None:
            break
        game.play(result.move)
    return game


def _frames(app, n):
    for _ in range(n):
        app.step(1 / 60)


def _until(app, condition, seconds=60.0):
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        _frames(app, 1)
        time.sleep(0.005)


def shot_replay(app):
    from scenes.screens.navigation import open_menu
    from scenes.store.records import keep_record
    game = computer_game()
    record = camelot_record.from_game(game, Event="Round Table", White="You",
                                      Black="Computer (hard)", Date="2026.11.25")
    keep_record(record, when=datetime.datetime(2026, 11, 25, 1, 30, 0))
    open_menu(app)
    _frames(app, 5)
    app.navigator.open_replay()
    _frames(app, 5)
    app.scenes.top.focus.buttons[0].action()       # the newest kept game
    scene = app.scenes.top
    _frames(app, 5)
    scene.jump(SHOWN_PLY)
    scene.analyst.wait(60)
    _frames(app, 10)


def shot_board_hint(app):
    from scenes.screens.navigation import open_game
    app.settings.eval_bar = True
    open_game(app, "camelot-board")
    scene = app.scenes.scenes[0]
    app.scenes.remove(app.scenes.scenes[1])     # the setup dialog: two players, chosen here
    scene.start_game("two")
    for move in computer_game(6).history:
        scene.play(move)
        _until(app, lambda: not scene.busy)
    app._toasts.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h",
                                         scancode=0))
    _until(app, lambda: scene.hint_move is not None and scene.analysis is not None)
    _frames(app, 20)


def shot_replay_list(app):
    """The list of kept games: a dozen quick games (random, captures first) and
    the computer's game, at made-up times."""
    import random
    from scenes.screens.navigation import open_menu
    from scenes.store.records import keep_record
    start = datetime.datetime(2026, 11, 20, 19, 0, 0)
    for n in range(12):
        rng = random.Random(n)
        game = CamelotBoard()
        while game.status is Status.PLAYING and len(game.history) < 400:
            moves = game.legal_moves()
            game.play(rng.choice([m for m in moves if m.captured] or moves))
        names = [("You", "Computer (hard)"), ("Player 1", "Player 2"),
                 ("Computer (medium)", "You")][n % 3]
        record = camelot_record.from_game(game, Event="Round Table", White=names[0],
                                          Black=names[1])
        keep_record(record, when=start + datetime.timedelta(hours=7 * n, minutes=13 * n))
    open_menu(app)
    _frames(app, 5)
    app.navigator.open_replay()
    _frames(app, 10)
