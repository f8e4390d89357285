"""How fast a game opens and how lean it lives (issue 10, item 5).

    python bench/open_game.py [--frames 600] [--games clock,hamilton] [--runs 3]

Every measurement runs in a fresh child process (headless: SDL's dummy video
and audio drivers), so one does not warm the caches of the next:

* **open → first frame**: the app is up and its menu on screen for
  ``--menu-seconds`` (a player choosing; meanwhile the app loads the games'
  modules and starts its workers in the background, and the menu's slowest
  frame is reported); then the clock starts, the game is opened as a player
  opens it (``open_game``) and one frame is drawn and sent to the window. At
  3840×2160 and 1920×1080; median of ``--runs`` children. Target ≤ 100 ms.
* **peak memory**: the largest resident set (``ru_maxrss`` of the app's own
  process, RUSAGE_SELF: Python, pygame, every surface; the worker processes are
  separate processes and reported apart) of a 4K timedemo of each game, next
  to a bare pygame window at 4K that blits the same 52 cards. Target ≤ 120 MiB.
* **frame CPU p99 at 4K**: the main thread's CPU time per frame of that
  timedemo, as a ratio to a bare loop in the same process that fills the 4K
  window, blits the game's own 52 card faces (rendered before, untimed) and
  flips; a frame of the one and a frame of the other in turn, so both see the
  same machine. Target ≤ 1.0×.

Launch to the first menu frame against a bare window is ``bench/startup.py``.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("camelot-solitaire", "hamilton", "clock", "camelot-board")
SIZES = ((3840, 2160), (1920, 1080))
MIB = 1024 * 1024
BARE_CARD_WIDTH = 310    # Hamilton's cards at 4K, the largest of the games


def _maxrss_mib(who=resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss * 1024 / MIB   # Linux: KiB


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]


# --- in the child ---------------------------------------------------------------
def _app(size, frames=None, timedemo=None):
    from scenes.core.app import App, AppOptions
    from scenes.store.settings import Settings
    return App(AppOptions(size=size, frames=frames, timedemo=timedemo, save_settings=False),
               settings=Settings())


def child_open(game_id: str, size, menu_seconds: float) -> dict:
    """Menu up for ``menu_seconds`` at 60 frames a second (a player reading
    it; what the app does in the background meanwhile shows in the menu's
    frame times), then open the game and draw its first frame."""
    from scenes.core.app import FIXED_DT
    from scenes.screens.navigation import open_game, open_menu
    app = _app(size, frames=10_000)
    open_menu(app)
    menu_frames = []
    end = time.perf_counter() + menu_seconds
    while True:
        started = time.perf_counter()
        app.step(FIXED_DT)
        menu_frames.append(time.perf_counter() - started)
        if len(menu_frames) >= 3 and started >= end:
            break
        time.sleep(max(0.0, FIXED_DT - (time.perf_counter() - started)))
    menu_frames = sorted(t * 1000 for t in menu_frames[1:])    # the first builds the menu
    import scenes.games as games
    warming = games._warming is not None and games._warming.is_alive()   # still loading behind
    started, cpu = time.perf_counter(), time.thread_time()
    open_game(app, game_id, seed=1)
    app.step(FIXED_DT)
    opened, cpu = time.perf_counter() - started, time.thread_time() - cpu
    _close(app)
    return {"open_ms": opened * 1000, "cpu_ms": cpu * 1000, "menu_max_ms": menu_frames[-1],
            "menu_p99_ms": _p99(menu_frames), "still_warming": warming}


def _close(app) -> None:
    """Leave the scenes, end the worker processes (so their peak is counted
    among the children's) and pygame."""
    import pygame
    for scene in list(app.scenes.scenes):
        scene.leave()
    import importlib
    for module, name in (("scenes.work.service", "shutdown"),
                         ("scenes.work.ai_worker", "close_all")):   # the last: trees before it
        try:
            getattr(importlib.import_module(module), name)()
        except (ImportError, AttributeError):
            pass
    pygame.quit()


def bare_frame(screen, cards: list, spots: list) -> float:
    """One frame of a bare table: fill the window, blit 52 cards, flip. Its
    main-thread CPU time."""
    import pygame
    cpu = time.thread_time()
    pygame.event.pump()
    screen.fill((20, 90, 50))
    for card, spot in zip(cards, spots):
        screen.blit(card, spot)
    pygame.display.flip()
    return time.thread_time() - cpu


def card_spots(screen, cards: list) -> list[tuple[int, int]]:
    w, h = screen.get_size()
    cw, ch = cards[0].get_size()
    return [((i % 13) * (w - cw) // 12, (i // 13) * (h - ch) // 3) for i in range(52)]


def bare_loop(screen, cards: list, frames: int) -> list[float]:
    """The bare table's frame CPU, ``frames`` times."""
    spots = card_spots(screen, cards)
    return [bare_frame(screen, cards, spots) for _ in range(frames)]


def the_cards(art) -> list:
    """The 52 faces of ``art`` (a CardArt), rendered now (untimed)."""
    from game.cards import FULL_DECK
    return [art.face(card) for card in FULL_DECK]


def child_timedemo(game_id: str, frames: int) -> dict:
    """The game's 4K timedemo as the app runs it: the peak memory."""
    from scenes.screens.navigation import open_game
    app = _app((3840, 2160), frames=frames, timedemo=game_id)
    open_game(app, game_id, seed=1, demo=True)
    app.run()
    peak = _maxrss_mib()
    _close(app)
    return {"peak_mib": peak, "children_peak_mib": _maxrss_mib(resource.RUSAGE_CHILDREN)}


def child_frames(game_id: str, frames: int) -> dict:
    """The game's timedemo and the bare table, a frame of each in turn in this
    process: both see the same machine at the same moments (a busy spell on a
    shared machine lands on both), and each is timed by the main thread's CPU.
    (Its memory is not the app's: the bare table's cards are kept too.)"""
    from scenes.core.app import FIXED_DT
    from scenes.screens.navigation import open_game
    app = _app((3840, 2160), frames=frames, timedemo=game_id)
    open_game(app, game_id, seed=1, demo=True)
    scene = app.scenes.top
    app.step(FIXED_DT)                  # the first frame builds the caches: not counted
    art = getattr(scene, "art", None)
    if art is None:                      # the board game: cards the size of Hamilton's at 4K
        from scenes.table.card_art import CardArt
        art = CardArt(BARE_CARD_WIDTH)
    cards = the_cards(art)
    spots = card_spots(app.screen, cards)
    game, bare = [], []
    for _ in range(frames):
        cpu = time.thread_time()
        app.step(FIXED_DT)
        game.append(time.thread_time() - cpu)
        bare.append(bare_frame(app.screen, cards, spots))
    _close(app)
    return {"cpu_p99_ms": _p99(game) * 1000, "bare_cpu_p99_ms": _p99(bare) * 1000,
            "cpu_median_ms": statistics.median(game) * 1000,
            "bare_cpu_median_ms": statistics.median(bare) * 1000}


def child_bare(frames: int) -> dict:
    import pygame
    from scenes.table.card_art import CardArt
    pygame.init()
    screen = pygame.display.set_mode((3840, 2160))
    bare = bare_loop(screen, the_cards(CardArt(BARE_CARD_WIDTH)), frames)
    pygame.quit()
    return {"peak_mib": _maxrss_mib(), "bare_cpu_p99_ms": _p99(bare) * 1000}


# --- the parent -----------------------------------------------------------------
def run_child(*args: str) -> dict:
    env = bench_env()
    proc = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"child {args} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench_env() -> dict:
    """Headless, and with compiled modules cached (in a folder of their own, as an
    installed app has them): a measurement never counts compiling the source."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONPYCACHEPREFIX=str(Path(tempfile.gettempdir()) / "roundtable-bench-pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--frames", type=int, default=600, help="timedemo frames per game")
    p.add_argument("--runs", type=int, default=3, help="children per open measurement")
    p.add_argument("--games", default=",".join(GAMES))
    p.add_argument("--menu-seconds", type=float, default=1.0,
                   help="the menu is up this long before a game is opened (a player choosing)")
    p.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        sys.path.insert(0, str(ROOT))
        kind, *rest = args.child
        if kind == "open":
            w, h = map(int, rest[1].split("x"))
            out = child_open(rest[0], (w, h), float(rest[2]))
        elif kind == "timedemo":
            out = child_timedemo(rest[0], int(rest[1]))
        elif kind == "frames":
            out = child_frames(rest[0], int(rest[1]))
        else:
            out = child_bare(int(rest[0]))
        print(json.dumps(out))
        return 0

    games = args.games.split(",")
    menu = str(args.menu_seconds)
    for game_id in games:          # compile every module once, untimed
        run_child("open", game_id, "1280x720", "0")
    worst_open = worst_menu = 0.0
    still_warming = 0
    print(f"open -> first frame, wall clock (main-thread CPU), median of {args.runs} runs, "
          f"after {args.menu_seconds:g} s on the menu; target <= 100 ms")
    for game_id in games:
        cells = []
        for w, h in SIZES:
            runs = [run_child("open", game_id, f"{w}x{h}", menu) for _ in range(args.runs)]
            wall = statistics.median(r["open_ms"] for r in runs)
            cpu = statistics.median(r["cpu_ms"] for r in runs)
            worst_open = max(worst_open, wall)
            worst_menu = max([worst_menu] + [r["menu_max_ms"] for r in runs])
            still_warming += sum(r["still_warming"] for r in runs)
            cells.append(f"{w}x{h} {wall:6.1f} ms ({cpu:5.1f})")
        print(f"  {game_id:18} " + "   ".join(cells))
    print(f"  the menu meanwhile (modules and workers warming): slowest frame {worst_menu:.1f} ms; "
          f"games opened while the menu was still loading them: {still_warming}")
    bare = run_child("bare", str(args.frames))
    print(f"4K timedemo, {args.frames} frames (peak = ru_maxrss of the app process; "
          f"targets <= 120 MiB, CPU p99 ratio <= 1.0)")
    print(f"  {'bare window':18} peak {bare['peak_mib']:6.1f} MiB   "
          f"fill+blit 52 cards CPU p99 {bare['bare_cpu_p99_ms']:.2f} ms")
    worst_peak = worst_ratio = 0.0
    for game_id in games:
        r = {**run_child("timedemo", game_id, str(args.frames)),
             **run_child("frames", game_id, str(args.frames))}
        ratio = r["cpu_p99_ms"] / r["bare_cpu_p99_ms"]
        worst_peak, worst_ratio = max(worst_peak, r["peak_mib"]), max(worst_ratio, ratio)
        print(f"  {game_id:18} peak {r['peak_mib']:6.1f} MiB (workers {r['children_peak_mib']:5.1f})   "
              f"frame CPU p99 {r['cpu_p99_ms']:.2f} ms vs bare {r['bare_cpu_p99_ms']:.2f} ms "
              f"= {ratio:.2f}x (medians {r['cpu_median_ms']:.2f} vs {r['bare_cpu_median_ms']:.2f})")
    print(f"worst: open {worst_open:.1f} ms, peak {worst_peak:.1f} MiB, CPU p99 ratio {worst_ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
