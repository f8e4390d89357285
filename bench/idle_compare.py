"""Round Table beside GNOME Aisleriot under a real X server with no GPU (Xvfb):
the time to a painted window, the CPU a still screen costs, the peak memory.

    python bench/idle_compare.py [--screen 1920x1080] [--runs 3] [--still 5] [--app-args "--game clock"]

Needs Xvfb and Aisleriot (Debian: ``apt-get install xvfb aisleriot``; its
program is ``/usr/games/sol``). Each is launched as a player would launch it,
with an empty home (first launch: Round Table fills the screen with its menu,
Aisleriot opens Klondike in its window), in turn, ``--runs`` times:

- **painted**: from just before the process is spawned until its window on the
  X server shows a picture (read back from the server: at least three colours
  among a grid of points of the window, where an unpainted one shows one);
- **still CPU**: the CPU time (user + system, the process and its children) in
  ``--still`` seconds, after ``--settle`` seconds of nothing happening;
- **peak**: the process's high-water resident memory (``VmHWM``); Round
  Table's worker processes (its computer players) are added apart.

Round Table runs as it is, and with SDL's default presentation
(``SDL_FRAMEBUFFER_ACCELERATION=1``: the window's picture through OpenGL, in
software here) to show what the choice saves; and, where it has been built
(``python tools/build_app.py``), as the installed app ``dist/roundtable/roundtable``
that a player without Python launches; and with ``--venv DIR``, as the README's
first command installs it (``python3 -m venv DIR && DIR/bin/pip install .``: the
environment made there if it is missing, the checkout installed into it anew each
run, so it is the code of now), launched as ``DIR/bin/roundtable``,
beside a bare pygame window from the same environment. A virtual environment
reads only its own ``.pth`` files, while ``main.py`` under the machine's Python
pays for whatever the installation's import at start-up (on the development
machine one imports ``certifi``: 67 ms of every Python start). Goals (issue 20): still CPU at
most 2 % of a core, painted within Aisleriot's time, peak within 1.5× Aisleriot's.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.startup import _env as compiled_env  # noqa: E402  bytecode cached, as installed
from tests.services import X, ServiceError, process_tree, start_xvfb  # noqa: E402
AISLERIOT = shutil.which("sol") or "/usr/games/sol"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- one launch -------------------------------------------------------------------------------------
def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / CLOCK_TICKS


def peak_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return 0


# The first frame as the app shows it: a borderless window of the desktop's
# size (full screen follows after it, see App._go_full_screen).
BARE_WINDOW = """if 1:
    import time, pygame
    pygame.display.init()
    screen = pygame.display.set_mode(pygame.display.get_desktop_sizes()[0], pygame.NOFRAME)
    screen.fill((20, 90, 50))
    for i, colour in enumerate(((200, 40, 40), (40, 40, 200), (230, 230, 230))):
        screen.fill(colour, (100 + 400 * i, 100, 300, 300))
    pygame.display.flip()
    while not pygame.event.get(pygame.QUIT):
        time.sleep(0.1)
"""


def launch(name: str, command: list[str], env: dict, x: X, settle: float, still: float,
           home: str | None = None) -> dict:
    """One launch; ``home`` kept (a player's second launch) or a fresh empty one."""
    kept = home is not None
    home = home or tempfile.mkdtemp(prefix="idle-compare-")
    env = {**env, "HOME": home}
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env.pop(key, None)
    before = set(x.windows())
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    painted = None
    try:
        while painted is None and time.perf_counter() - started < 30:
            for win, size in x.windows().items():
                if win not in before and size[0] >= 300 and size[1] >= 300 and x.colours(win, size) >= 3:
                    painted = time.perf_counter() - started
                    break
            else:
                time.sleep(0.003)
        if painted is None:
            raise SystemExit(f"{name}: no painted window within 30 s")
        time.sleep(settle)
        pids = process_tree(proc.pid)
        cpu_before = cpu_seconds(pids)
        time.sleep(still)
        pids = process_tree(proc.pid)
        cpu = cpu_seconds(pids) - cpu_before
        main_peak = peak_kib(proc.pid)
        workers_peak = sum(peak_kib(p) for p in pids if p != proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM if command[0] == AISLERIOT else signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        if not kept:
            shutil.rmtree(home, ignore_errors=True)
    return {"painted": painted, "cpu": cpu, "peak": main_peak / 1024, "workers": workers_peak / 1024}


def readme_venv(venv: Path, python: str) -> Path:
    """The README's install in ``venv`` (made with ``python`` if missing), its
    commands to the letter: the checkout installed anew (a copy, not a link)."""
    if not (venv / "bin" / "pip").exists():
        print(f"making {venv} as the README does ({python} -m venv)", flush=True)
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
    print(f"installing the checkout into {venv} as the README does (pip install .)", flush=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(ROOT)], check=True)
    return venv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--screen", default="1920x1080", help="Xvfb's screen size")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--settle", type=float, default=2.0, help="s after the paint before counting")
    parser.add_argument("--still", type=float, default=5.0, help="s of still screen counted")
    parser.add_argument("--app-args", default="",
                        help='more for main.py, e.g. "--game clock" (a game at rest, not the menu)')
    parser.add_argument("--kept-home", action="store_true",
                        help="each program launched once untimed first, then timed in the home "
                             "that launch filled (a player's usual launch, not the first)")
    parser.add_argument("--built", default=str(ROOT / "dist" / "roundtable" / "roundtable"),
                        help="the installed app, run too where it exists")
    parser.add_argument("--venv", help="also launch Round Table as the README installs it, "
                                       "from this virtual environment (made there if missing)")
    parser.add_argument("--venv-python", default=sys.executable,
                        help="the interpreter the virtual environment is made with, if it is "
                             "made (a player's: the system's python3, e.g. /usr/bin/python3)")
    args = parser.parse_args()
    if not shutil.which("Xvfb"):
        raise SystemExit("needs Xvfb (apt-get install xvfb)")
    if not os.path.exists(AISLERIOT):
        raise SystemExit("needs GNOME Aisleriot (apt-get install aisleriot)")
    try:
        xvfb, display = start_xvfb(args.screen)
    except ServiceError as error:
        raise SystemExit(str(error))
    try:
        x = X(display)
        # main.py with its bytecode cached as an installed copy has it (never
        # counting compiling the source, which PYTHONDONTWRITEBYTECODE would force).
        env = {**compiled_env(), "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"}
        env.pop("SDL_VIDEODRIVER", None)
        env.pop("SDL_FRAMEBUFFER_ACCELERATION", None)
        app = [sys.executable, "main.py", *args.app_args.split()]
        runs = {"Round Table": (app, env),
                "Round Table, OpenGL": (app,
                                        {**env, "SDL_FRAMEBUFFER_ACCELERATION": "1"}),
                "Aisleriot": ([AISLERIOT], env)}
        if os.access(args.built, os.X_OK):
            runs["Round Table, the app"] = ([args.built, *args.app_args.split()], env)
        # The floor pygame itself sets: a bare window, presented as the app presents.
        plain = {**env, "SDL_FRAMEBUFFER_ACCELERATION": "0"}
        runs["a bare pygame window"] = ([sys.executable, "-c", BARE_WINDOW], plain)
        if args.venv:
            venv = readme_venv(Path(args.venv), args.venv_python)
            runs["Round Table, README's venv"] = ([str(venv / "bin" / "roundtable"),
                                                   *args.app_args.split()], env)
            runs["bare window, same venv"] = ([str(venv / "bin" / "python"), "-c", BARE_WINDOW], plain)
        homes = {name: None for name in runs}
        if args.kept_home:
            for name, (command, run_env) in runs.items():
                homes[name] = tempfile.mkdtemp(prefix="idle-compare-kept-")
                launch(name, command, run_env, x, 0.5, 0.1, homes[name])
        found: dict[str, list[dict]] = {name: [] for name in runs}
        print(f"Xvfb {args.screen}, {args.runs} runs each; load {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} cores")
        for _ in range(args.runs):
            for name, (command, run_env) in runs.items():
                found[name].append(launch(name, command, run_env, x, args.settle, args.still,
                                          homes[name]))
        med = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in found.items()}
        ref = med["Aisleriot"]
        for name, m in med.items():
            print(f"{name:26} painted {m['painted']:.3f} s ({m['painted'] / ref['painted']:.2f}x)   "
                  f"still CPU {m['cpu']:.2f} s in {args.still:g} s "
                  f"({100 * m['cpu'] / args.still:.1f} % of a core)   "
                  f"peak {m['peak']:.0f} MiB ({m['peak'] / ref['peak']:.2f}x)"
                  + (f" + workers {m['workers']:.0f} MiB" if m["workers"] else ""))
        for home in homes.values():
            if home:
                shutil.rmtree(home, ignore_errors=True)
        print(f"medians of {args.runs}; homes {'kept from a first launch' if args.kept_home else 'empty'}; load at the end {os.getloadavg()[0]:.1f}")
    finally:
        xvfb.terminate()
        xvfb.wait(10)


if __name__ == "__main__":
    main()
