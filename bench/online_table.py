"""Frame cost at an online table, and how long hosting holds the frame loop.

    python bench/online_table.py [--frames 600] [--size 3840x2160]

Alice hosts on 127.0.0.1 (an ephemeral port, the database in memory) and plays
Black against Bob, a scripted client; a move is sent every half second once the
last one has arrived and travelled, and Bob chats now and then. Frames run at
60 a second, as in the app. Printed: main-thread CPU per frame and wall time per
frame (median, p99, max), and how long "Host on this computer" held the frame
loop (the press only starts the server thread; the client starts once it listens).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The screenshot script sets up a headless, throw-away home and has the waits.
from tools.online_screenshots import DT, expect, new_app, until  # noqa: E402

from game.base import Status  # noqa: E402
from game.net.bridge import NetBridge  # noqa: E402
from scenes.games.camelot_online import CamelotOnlineScene  # noqa: E402
from scenes.screens.online import OnlineScene  # noqa: E402


def spread(values: list[float]) -> str:
    ordered = sorted(v * 1000 for v in values)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return f"median {statistics.median(ordered):.2f} ms, p99 {p99:.2f} ms, max {ordered[-1]:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--size", default="3840x2160")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x"))
    app = new_app(size, speed="normal")
    lobby = OnlineScene(app, name="Alice", bind="127.0.0.1", port=0, db=":memory:")
    app.scenes.reset(lobby)
    app.step(DT)
    started = time.perf_counter()
    lobby.host_here()                      # the server thread starts; the frames go on
    held = time.perf_counter() - started
    until(app, lambda: lobby.session is not None and lobby.session.online, "the connection")
    bob = NetBridge(lobby.session.url, "Bob")
    bob.start()
    try:
        expect(bob, "welcome")
        bob.send({"type": "create_table", "private": False, "time": {"base": 600, "increment": 5}})
        created = expect(bob, "table_created")["table"]
        bob.send({"type": "sit", "table": created, "color": "white"})
        lobby.sit(created, "black")
        until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the table")
        table = app.scenes.top
        until(app, lambda: table.info.status == "playing", "the start")
        chooser = random.Random(3)
        cpu, wall, moves = [], [], 0
        for frame in range(args.frames):
            for message in bob.poll():
                pass
            game = table.game
            if game.status is Status.PLAYING and not table.busy and frame % 30 == 0 \
                    and len(game.history) == moves:       # the last move sent has arrived
                text = game.move_text(chooser.choice(game.legal_moves()))
                token = lobby.session.token(created) if game.turn == "black" else bob.tokens[created][1]
                link = lobby.session if game.turn == "black" else bob
                link.send({"type": "move", "table": created, "token": token, "move": text})
                moves += 1
            if frame % 90 == 45:
                bob.send({"type": "chat", "table": created, "text": f"chat line {frame}"})
            t0, c0 = time.perf_counter(), time.thread_time()
            app.step(DT)
            cpu.append(time.thread_time() - c0)
            wall.append(time.perf_counter() - t0)
            time.sleep(max(0.0, DT - wall[-1]))     # 60 frames a second, as in the app
    finally:
        bob.close()
        lobby.session.close()
    print(f"online table at {size[0]}x{size[1]}, {args.frames} frames, {moves} moves sent, "
          f"{len(table.game.history)} played")
    print(f"  frame CPU (main thread): {spread(cpu)}")
    print(f"  frame wall time:         {spread(wall)}")
    print(f"  'Host on this computer' held the frame loop {held * 1000:.1f} ms "
          f"(the press: the server thread is started, not waited for)")


if __name__ == "__main__":
    main()
