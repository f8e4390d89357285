"""The README's pictures of online play: the connect screen (also with a sign-in kept),
the lobby (and its ignore dialog) and a table, at 1280×720 and 3840×2160.

    python tools/online_screenshots.py [--out docs/screenshots]

Alice hosts on this computer (the server on a thread, 127.0.0.1 only, a database
in memory) and plays as a guest; Bob, Dave and Erin are scripted clients signed in
to accounts (their ratings show), Carol a scripted guest (NetBridge). Every
wait is bounded; the frames keep coming while the script waits.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("ROUNDTABLE_HOME", tempfile.mkdtemp(prefix="roundtable-shots-"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from game.net.bridge import NetBridge  # noqa: E402
from scenes.core.app import App, AppOptions  # noqa: E402
from scenes.games.camelot_online import CamelotOnlineScene  # noqa: E402
from scenes.screens.online import OnlineScene  # noqa: E402
from scenes.store.accounts import forget_account, keep_account, load_accounts  # noqa: E402
from scenes.store.settings import Settings  # noqa: E402

DT = 1 / 60
WAIT = 10.0


def until(app, condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        app.step(DT)
        time.sleep(0.005)


def expect(link, kind: str, **fields) -> dict:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        message = link.get(timeout=0.1)
        if message and message.get("type") == kind and all(message.get(k) == v for k, v in fields.items()):
            return message
    raise SystemExit(f"no {kind} for the scripted client")


def scripted(url: str, name: str) -> NetBridge:
    account = {} if name == "Carol" else {"password": f"{name}'s password", "register": True}
    link = NetBridge(url, name, **account)
    link.start()
    expect(link, "welcome")
    return link


def seat(link, table: str, color: str) -> str:
    link.send({"type": "sit", "table": table, "color": color})
    return expect(link, "seated", table=table)["token"]


def new_app(size, speed: str = "fast") -> App:
    return App(AppOptions(size=size, save_settings=False),
               settings=Settings(fullscreen=False, animation_speed=speed, sound=False))


def shoot(size, out: Path) -> None:
    app = new_app(size)
    lobby = OnlineScene(app, name="Alice", bind="127.0.0.1", port=8765, db=":memory:")
    app.scenes.reset(lobby)
    app.step(DT)
    lobby.password_field.text = "secret password"
    lobby.problem = "Wrong name or password"        # how a refusal reads
    for _ in range(5):
        app.step(DT)
    pygame.image.save(app.screen, str(out / f"online-connect-{size[0]}x{size[1]}.png"))
    lobby.password_field.text = lobby.problem = ""
    # A sign-in kept on this computer: "Continue as Alice" and "Sign out here".
    keep_account("ws://127.0.0.1:8765", "Alice", "k" * 43)
    lobby.kept = load_accounts()[0]
    lobby._build_focus()
    for _ in range(5):
        app.step(DT)
    pygame.image.save(app.screen, str(out / f"online-connect-kept-{size[0]}x{size[1]}.png"))
    forget_account("ws://127.0.0.1:8765")
    lobby.kept = {}
    lobby.host_here()
    until(app, lambda: lobby.session is not None and lobby.session.online, "Alice's connection")
    url = lobby.session.url
    bob, carol, dave, erin = (scripted(url, n) for n in ("Bob", "Carol", "Dave", "Erin"))
    links = [bob, carol, dave, erin]
    try:
        bob.send({"type": "create_table", "private": False, "time": {"base": 600, "increment": 5}})
        bob_table = expect(bob, "table_created")["table"]
        bob_token = seat(bob, bob_table, "white")
        dave.send({"type": "create_table", "private": False, "time": {"base": 300, "increment": 3},
                   "rated": True})
        dave_table = expect(dave, "table_created")["table"]
        dave_token = seat(dave, dave_table, "white")
        erin_token = seat(erin, dave_table, "black")
        dave.send({"type": "start", "table": dave_table, "token": dave_token})
        expect(dave, "table", status="playing")
        for mover, token, move in ((dave, dave_token, "F7-F8"), (erin, erin_token, "F10-F9")):
            mover.send({"type": "move", "table": dave_table, "token": token, "move": move})
            expect(mover, "moved", move=move)
        carol.send({"type": "lobby"})
        carol.send({"type": "lobby_chat", "text": "Evening, all. Anyone for a timed game?"})
        bob.send({"type": "lobby"})
        bob.send({"type": "lobby_chat", "text": "Table T1 is open: ten minutes, five seconds a move."})
        until(app, lambda: len(lobby.session.tables) == 2 and len(lobby.session.lobby_chat) >= 2
              and any(t["moves"] == 2 for t in lobby.session.tables), "the lobby")
        lobby.session.send({"type": "lobby_chat", "text": "I'll take it. Good luck, Bob!"})
        until(app, lambda: len(lobby.session.lobby_chat) >= 3, "Alice's chat")
        for _ in range(20):
            app.step(DT)
        pygame.image.save(app.screen, str(out / f"online-lobby-{size[0]}x{size[1]}.png"))
        lobby.ignore_someone()                   # the "Ignore…" button beside the chat
        for _ in range(30):
            app.step(DT)
        pygame.image.save(app.screen, str(out / f"online-ignore-{size[0]}x{size[1]}.png"))
        app.scenes.remove(app.scenes.top)

        lobby.sit(bob_table, "black")
        until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the table")
        table = app.scenes.top
        carol.send({"type": "watch", "table": bob_table})
        until(app, lambda: table.info.status == "playing", "the start")
        chooser = random.Random(5)
        for ply in range(8):
            game = table.game
            moves = game.legal_moves()
            move = game.move_text(chooser.choice(moves))
            if game.turn == "black":
                table.session.send({"type": "move", "table": bob_table,
                                    "token": table.session.token(bob_table), "move": move})
            else:
                bob.send({"type": "move", "table": bob_table, "token": bob_token, "move": move})
            until(app, lambda: len(table.game.history) == ply + 1 and not table.busy, move)
        bob.send({"type": "chat", "table": bob_table, "text": "Good luck!"})
        table.session.send({"type": "chat", "table": bob_table, "text": "You too. Nice opening."})
        carol.send({"type": "chat", "table": bob_table, "text": "Nice canter, Bob."})
        until(app, lambda: len(table.info.chat) >= 3, "the table chat")
        bob.send({"type": "move", "table": bob_table, "token": bob_token,
                  "move": table.game.move_text(chooser.choice(table.game.legal_moves()))})
        until(app, lambda: table.table.travel is not None, "Bob's move")
        for _ in range(14):            # the path shown, the piece about to travel
            app.step(DT)
        pygame.image.save(app.screen, str(out / f"online-table-{size[0]}x{size[1]}.png"))
    finally:
        for link in links:
            link.close()
        lobby.session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "screenshots"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for size in ((1280, 720), (3840, 2160)):
        shoot(size, out)
        print(f"wrote the lobby and a table at {size[0]}x{size[1]} to {out}")


if __name__ == "__main__":
    main()
