"""What each still screen costs on the real clock: the CPU the app's process
uses while nothing happens, screen by screen, under a real X server with no
GPU (Xvfb) when there is one (else SDL's dummy driver, said in the header).

    python bench/still_screens.py [--size 1920x1080] [--settle 3] [--still 4] [--runs 1]

Each screen is opened in this process as a player would reach it (the board
game against the computer waiting for the player's move, two players, a
dialog over a game, the replay paused, the online lobby of a server started
apart, waiting), then the app's own loop runs on the real clock: ``--settle``
seconds, then ``--still`` seconds counted. Printed per screen: the process's
CPU time in those seconds as a share of one core (goal, issue 20: at most 2 %),
the frames presented and the loop's wakes a second. The test counterpart,
in frames over simulated time, is tests/scenes/test_still_screens.py.
"""
from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOME = tempfile.mkdtemp(prefix="still-screens-")
os.environ.update(HOME=HOME, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
for _key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "SDL_FRAMEBUFFER_ACCELERATION"):
    os.environ.pop(_key, None)
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The game server in a process of its own (its CPU is not the app's)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "game", "serve", "--port", str(self.port),
             "--db", os.path.join(HOME, "server.sqlite3")],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise SystemExit("the game server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def _board(app, **options):
    from scenes.games.camelot_board_scene import CamelotBoardScene
    scene = CamelotBoardScene(app, seed=3, **options)
    app.scenes.reset(scene)
    return scene


def _open(what: str, app, server: Server | None) -> None:
    from scenes.screens.navigation import open_game, open_menu
    from scenes.screens.online import OnlineScene
    from scenes.screens.replay_list import open_replay
    from scenes.screens.statistics import StatsScene
    from scenes.store.famous import list_famous
    if what != "online lobby":
        open_menu(app)
    if what == "help":
        app.navigator.open_help("clock")
    elif what == "settings":
        app.navigator.open_settings()
    elif what == "statistics":
        app.scenes.push(StatsScene(app))
    elif what == "replay list":
        open_replay(app)
    elif what == "replay paused":
        open_replay(app, list_famous()[0][0].path)
    elif what == "board two players":
        _board(app, mode="two")
    elif what == "board vs computer your move":
        _board(app, mode="computer", human="white")
    elif what == "board pause dialog":
        _board(app, mode="two").open_pause()
    elif what == "clock patience at rest":
        open_game(app, "clock", seed=4)
    elif what == "online lobby":
        lobby = OnlineScene(app, name="Ann", address=f"127.0.0.1:{server.port}")
        app.scenes.reset(lobby)
        lobby.connect()


SCREENS = ["menu", "help", "settings", "statistics", "replay list", "replay paused",
           "board two players", "board vs computer your move", "board pause dialog",
           "clock patience at rest", "online lobby"]


def measure(what: str, size: tuple[int, int], settle: float, still: float,
            server: Server | None) -> dict:
    from scenes.core.app import App, AppOptions
    from scenes.screens.navigation import install
    from scenes.store.settings import Settings
    app = App(AppOptions(size=size, save_settings=False),
              settings=Settings(fullscreen=False, sound=False))
    install(app)
    _open(what, app, server)
    seen: dict = {}

    def watch() -> None:
        time.sleep(settle)
        seen["start"] = (time.process_time(), app.frames_presented, app.frame_count)
        time.sleep(still)
        seen["end"] = (time.process_time(), app.frames_presented, app.frame_count)
        seen["top"] = type(app.scenes.top).__name__
        app.running = False

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    app.run()
    watcher.join()
    (c0, p0, f0), (c1, p1, f1) = seen["start"], seen["end"]
    online = getattr(app.scenes.top, "session", None)
    if what == "online lobby" and not (online and online.online):
        raise SystemExit("the lobby never came online")
    while app.scenes.scenes:          # each screen left (a lobby disconnects)
        app.scenes.pop()
    return {"cpu": (c1 - c0) / still, "presented": (p1 - p0) / still, "wakes": (f1 - f0) / still,
            "top": seen["top"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--settle", type=float, default=3.0, help="s on the screen before counting")
    parser.add_argument("--still", type=float, default=4.0, help="s counted")
    parser.add_argument("--runs", type=int, default=1, help="each screen this many times (medians)")
    parser.add_argument("--screens", default=",".join(SCREENS), help="a comma-separated choice")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x"))
    xvfb = None
    if shutil.which("Xvfb") and not os.environ.get("SDL_VIDEODRIVER"):
        from idle_compare import start_xvfb       # bench/ is this script's folder
        xvfb, display = start_xvfb(f"{size[0]}x{size[1]}")
        os.environ.update(DISPLAY=display, SDL_VIDEODRIVER="x11")
        where = f"Xvfb {display}"
    else:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        where = f"SDL video driver {os.environ['SDL_VIDEODRIVER']} (no Xvfb)"
    screens = [s.strip() for s in args.screens.split(",") if s.strip()]
    server = Server() if "online lobby" in screens else None
    import pygame
    print(f"{where}, window {size[0]}x{size[1]}, {args.still:g} s counted after {args.settle:g} s, "
          f"{args.runs} run(s) each; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    worst = 0.0
    try:
        for what in screens:
            runs = [measure(what, size, args.settle, args.still, server) for _ in range(args.runs)]
            cpu = statistics.median(r["cpu"] for r in runs)
            worst = max(worst, cpu)
            print(f"{what:30} {100 * cpu:5.2f} % of a core   "
                  f"{statistics.median(r['presented'] for r in runs):5.1f} frames presented/s   "
                  f"{statistics.median(r['wakes'] for r in runs):5.1f} wakes/s   ({runs[0]['top']})")
    finally:
        if server is not None:
            server.stop()
        pygame.quit()
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(10)
        shutil.rmtree(HOME, ignore_errors=True)
    print(f"worst {100 * worst:.2f} % of a core (goal 2 %); load at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
