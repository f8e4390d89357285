"""The installable app (``python tools/build_app.py`` → ``dist/roundtable/``),
launched as a player would, with no Python of its own to lean on: no PYTHONPATH,
no Python on PATH, run from another folder. Building takes minutes, so these
tests use the build that CI makes before the tests (.ci/run); without one they
fail under CI and skip elsewhere."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "dist" / "roundtable" / ("roundtable.exe" if sys.platform == "win32" else "roundtable")
RUN_SECONDS = 120


@pytest.fixture
def app(tmp_path) -> Path:
    if not APP.is_file():
        reason = f"no built app at {APP}: python tools/build_app.py makes it"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (.ci/run builds it before the tests)")
        pytest.skip(reason)
    return APP


def bare_env(home: Path) -> dict:
    """A headless environment with nothing of this checkout's Python in it."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("PYTHON", "VIRTUAL_ENV", "CONDA"))}
    return {**env, "PATH": str(home / "no-python-here"), "HOME": str(home),
            "ROUNDTABLE_HOME": str(home / "kept"), "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy"}


def run(app: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(app), *args], cwd=tmp_path, env=bare_env(tmp_path),
                          capture_output=True, text=True, timeout=RUN_SECONDS)


def test_the_built_app_draws_its_menu_headless(app, tmp_path):
    shot = tmp_path / "menu.png"
    done = run(app, tmp_path, "--frames", "3", "--size", "640x360", "--screenshot", str(shot))
    assert done.returncode == 0, done.stderr
    assert pygame.image.load(str(shot)).get_size() == (640, 360)


def test_the_built_app_takes_the_same_options_and_answers_a_bad_one_in_one_line(app, tmp_path):
    done = run(app, tmp_path, "--size", "12x9", "--frames", "1")
    assert done.returncode == 2
    assert done.stderr == "roundtable: error: size '12x9' is out of range (320x240 … 16384x16384)\n"
    helped = run(app, tmp_path, "--help")
    assert helped.returncode == 0 and "--screenshot" in helped.stdout


def test_everything_the_app_reads_is_inside_it(app):
    inside = [p for p in app.parent.rglob("*") if p.is_file()]
    names = {p.relative_to(app.parent).as_posix() for p in inside}     # each ends with its shipped path
    for folder in ("assets", "data", "locale"):
        shipped = [p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*") if p.is_file()]
        assert shipped and not [f for f in shipped
                                if not any(name.endswith(f) for name in names)], folder
    for code in ("de", "es", "fr", "he"):       # compiled when built: nothing to do on a first run
        assert f"{code}/LC_MESSAGES/roundtable.mo" in {"/".join(n.split("/")[-3:]) for n in names}


def _children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``, with their command lines (Linux)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue    # gone while we looked
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_game_in_the_built_app_starts_its_worker_processes_and_ends_them(app, tmp_path):
    # Hamilton's solver ("Winnable" in the top bar) answers from a worker
    # process: the frozen program started again as a multiprocessing child.
    shot = tmp_path / "hamilton.png"
    proc = subprocess.Popen([str(app), "--game", "hamilton", "--seed", "28", "--frames", "900",
                             "--size", "640x360", "--screenshot", str(shot)],
                            cwd=tmp_path, env=bare_env(tmp_path), stderr=subprocess.PIPE, text=True)
    workers: dict[int, str] = {}
    deadline = time.monotonic() + RUN_SECONDS
    while proc.poll() is None and time.monotonic() < deadline:
        workers.update({pid: cmd for pid, cmd in _children(proc.pid).items()
                        if "--multiprocessing-fork" in cmd})
        time.sleep(0.05)
    if proc.poll() is None:
        proc.kill()
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert workers, "no worker process was started"
    assert all(cmd.startswith(str(app)) for cmd in workers.values())
    time.sleep(0.5)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()
                and "zombie" not in _state(pid)], "a worker outlived the app"
    assert pygame.image.load(str(shot)).get_size() == (640, 360)


def _state(pid: int) -> str:
    try:
        return (Path(f"/proc/{pid}") / "status").read_text().lower()
    except OSError:
        return "zombie"


def test_the_built_app_runs_the_engines_commands(app, tmp_path):
    listed = run(app, tmp_path, "game", "games")
    assert listed.returncode == 0 and "(not yet)" not in listed.stdout
    assert [line.split()[0] for line in listed.stdout.splitlines()] == [
        "camelot-solitaire", "hamilton", "clock", "camelot-board"]
    solved = run(app, tmp_path, "game", "solve", "clock", "--seed", "8")
    assert solved.returncode == 0 and solved.stdout.startswith("clock deal 8: winnable\n")


def test_the_built_app_serves_the_online_game(app, tmp_path):
    from game.net.client import Client

    from .net.helpers import ServerProcess
    server = ServerProcess(str(tmp_path / "tables.db"), 60.0, engine=[str(app), "game"])

    async def visit():
        client = await Client.connect(server.url, "Ada")
        try:
            return await client.lobby()
        finally:
            await client.close()
    try:
        lobby = asyncio.run(asyncio.wait_for(visit(), 30))
    finally:
        err = server.stop()
    assert lobby["type"] == "lobby" and "Traceback" not in err
