"""A short seeded monkey through the online screens: random clicks on what is
there (buttons, fields, squares, reachable squares), keys, typed text (control
and bidi characters too) and gamepad buttons, against a scripted opponent who
sits at every open table, moves at random and answers draw offers. No exception,
and a table at rest never stays out of step with the server's moves. How far the
games get depends on the timing; that play is right is tests/scenes/test_online_scene.py's
job. (The general monkey, tests/monkey.py, also wanders in; it rarely sits down.)"""
import random
import time

import pygame
import pytest

from game.camelot.board import CamelotBoard
from game.net.bridge import NetBridge
from scenes.games.camelot_online import CamelotOnlineScene
from scenes.screens.online import OnlineScene

from .harness import make_app, post, step

EVENTS = 400
OUT_OF_STEP = 60                # events a table at rest may lag the server, no more
KEYS = (pygame.K_a, pygame.K_h, pygame.K_RETURN, pygame.K_ESCAPE, pygame.K_BACKSPACE,
        pygame.K_TAB, pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_p,
        pygame.K_u, pygame.K_n, pygame.K_r, pygame.K_SPACE)
PADS = (pygame.CONTROLLER_BUTTON_A, pygame.CONTROLLER_BUTTON_B, pygame.CONTROLLER_BUTTON_X,
        pygame.CONTROLLER_BUTTON_Y, pygame.CONTROLLER_BUTTON_START,
        pygame.CONTROLLER_BUTTON_DPAD_DOWN, pygame.CONTROLLER_BUTTON_DPAD_UP)
TEXTS = ("a", "Hi!", "é", "\u202e", "T1-ABCD", " ", "x" * 40, "\x07")


class Opponent:
    """Bob: opens tables now and then, sits wherever a seat is free, plays random
    legal moves, answers draw offers."""

    def __init__(self, url: str, rng: random.Random) -> None:
        self.rng, self.seats = rng, {}
        self.link = NetBridge(url, "Bob")
        self.link.start()

    def act(self) -> None:
        send = self.link.send
        for m in self.link.poll():
            kind = m.get("type")
            if kind == "table_created":
                send({"type": "sit", "table": m["table"], "color": "white"})
            elif kind == "seated":
                self.seats[m["table"]] = (m["color"], m["token"])
            elif kind == "lobby":
                for t in m["tables"]:
                    if t["status"] == "waiting" and t["table"] not in self.seats \
                            and not (t.get("white") and t.get("black")):
                        color = "black" if t.get("white") else "white"
                        send({"type": "sit", "table": t["table"], "color": color})
            elif kind in ("table", "moved") and m["table"] in self.seats \
                    and m.get("status") == "playing" and m.get("turn") == self.seats[m["table"]][0]:
                game = CamelotBoard(m["position"])
                moves = game.legal_moves()
                if moves:
                    send({"type": "move", "table": m["table"], "token": self.seats[m["table"]][1],
                          "move": game.move_text(self.rng.choice(moves))})
            elif kind == "draw_offer" and m["table"] in self.seats:
                send({"type": self.rng.choice(["accept_draw", "decline_draw"]),
                      "table": m["table"], "token": self.seats[m["table"]][1]})
        if self.rng.random() < 0.02:
            send({"type": "lobby"})
        if self.rng.random() < 0.01:                  # a table of his own for Alice to join
            send({"type": "create_table", "private": False, "time": None})


# Pressed less often, so that games get going (Bob cannot join a private table).
RARELY = {"Disconnect", "Main menu", "Lobby", "Back to the lobby", "Resign", "Back",
          "Private table"}


def targets(top, rng: random.Random) -> list[pygame.Rect]:
    """What may be clicked (the RARELY ones now and then)."""
    buttons = list(getattr(getattr(top, "focus", None), "buttons", []))
    if isinstance(top, CamelotOnlineScene):
        buttons += top.toolbar.buttons
    rects = [b.rect for b in buttons if b.label not in RARELY or rng.random() < 0.15]
    if isinstance(top, CamelotOnlineScene):
        rects.append(top.chat_field.rect)
        rects += [top.table.view.square_rect(sq) for sq in list(top.table.shown)] * 2
        rects += [top.table.view.square_rect(m.to_square) for m in top.game.legal_moves()[:6]]
    return [r for r in rects if r is not None and r.w > 0 and r.h > 0]


def click(pos, button: int = 1) -> None:
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=1)


def mischief(app, rng: random.Random, top) -> None:
    r = rng.random()
    if isinstance(top, CamelotOnlineScene) and top.interactive and r < 0.5:
        move = rng.choice(top.game.legal_moves())    # a real move, by the same two clicks
        click(top.table.view.square_centre(move.from_square))
        step(app)
        click(top.table.view.square_centre(move.to_square))
    elif r < 0.55:
        rects = targets(top, rng)
        if rects:
            rect = rng.choice(rects)
            click((rect.x + rng.randrange(rect.w), rect.y + rng.randrange(rect.h)),
                  rng.choice((1, 1, 1, 3)))
    elif r < 0.75:
        post(pygame.KEYDOWN, key=rng.choice(KEYS), mod=0, unicode="", scancode=0)
    elif r < 0.85:
        post(pygame.TEXTINPUT, text=rng.choice(TEXTS))
    else:
        post(pygame.CONTROLLERBUTTONDOWN, button=rng.choice(PADS), instance_id=0)


def hosted(app, online: OnlineScene, rng: random.Random) -> Opponent:
    """Alice hosts (127.0.0.1, any free port; it starts while frames go on); Bob connects."""
    online.host_here()
    deadline = time.monotonic() + 5
    while online.session is None or not online.session.online:
        assert time.monotonic() < deadline, "the hosted server never answered"
        step(app)
        time.sleep(0.005)
    return Opponent(online.session.url, rng)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_input_at_the_lobby_and_the_tables(seed, monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_NET_LOOPBACK", "1")
    rng = random.Random(seed)
    app = make_app((960, 540))
    online = OnlineScene(app, name="Alice", db=":memory:")
    app.scenes.reset(online)
    step(app)
    bob = hosted(app, online, rng)
    behind: dict[int, int] = {}
    seen, plies = set(), {}
    try:
        for _ in range(EVENTS):
            top = app.scenes.top
            seen.add(type(top).__name__)
            mischief(app, rng, top)
            step(app, rng.randint(1, 3))
            bob.act()
            time.sleep(0.002)
            if app.scenes.scenes[0] is not online:
                app.scenes.reset(online)           # the menu (or help): back to the lobby
            if online.session is None:             # disconnected: host again
                bob.link.close()
                bob = hosted(app, online, rng)
            for scene in app.scenes.scenes:
                if isinstance(scene, CamelotOnlineScene):
                    apart = not scene.busy and scene.game.history != scene.info.moves
                    behind[id(scene)] = behind.get(id(scene), 0) + 1 if apart else 0
                    assert behind[id(scene)] < OUT_OF_STEP, \
                        f"out of step: {scene.game.history} v {scene.info.moves}"
                    plies[(scene.session.url, scene.table_id)] = len(scene.info.moves)
    finally:
        bob.link.close()
        while app.scenes.scenes:
            app.scenes.pop()
        assert not app.input.typing
    assert {"OnlineScene", "CamelotOnlineScene", "DialogScene"} <= seen
    assert plies, "no table was ever sat at"
