"""What a built wheel carries: every file the app reads from ``assets/`` and
``data/`` is matched by pyproject's package data (an installed game finds them
inside the ``scenes`` package: ``scenes.store.files.shipped``), so a file added
there is not left out of an install."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
tomllib = pytest.importorskip("tomllib")     # Python 3.11+; the check is the same on 3.10


def _shipped(package: str) -> tuple[Path, list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert package in config["packages"]
    return ROOT / config["package-dir"][package], config["package-data"][package]


def _glob_match(path: str, pattern: str) -> bool:
    """A glob as setuptools reads package data: ``*`` stays within a folder."""
    parts, wanted = path.split("/"), pattern.split("/")
    return len(parts) == len(wanted) and all(fnmatch(p, w) for p, w in zip(parts, wanted))


@pytest.mark.parametrize("package", ["scenes.assets", "scenes.data", "scenes.locale"])
def test_every_file_the_app_ships_is_in_the_package_data(package):
    folder, patterns = _shipped(package)
    files = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
             and "__pycache__" not in p.parts]
    assert files
    left_out = [f for f in files if not any(_glob_match(f, pattern) for pattern in patterns)]
    assert not left_out, f"not in the wheel: {left_out}"


def test_the_shipped_data_is_found_in_a_checkout():
    from scenes.store.files import shipped
    from scenes.work.deals import cached_winnable_deals
    assert shipped("data") == ROOT / "data"
    assert cached_winnable_deals("hamilton")


FIRST_FRAME = ("import sys\n"
               "sys.path.insert(0, sys.argv[1])\n"
               "import scenes\n"
               "print(scenes.__file__)\n"
               "from scenes.launcher import main\n"
               "sys.exit(main(['--frames', '1', '--size', '960x600', '--screenshot', sys.argv[2]]))\n")


def _first_frame(code_dir: Path, home: Path, shot: Path, cwd: Path) -> str:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               ROUNDTABLE_HOME=str(home), PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("PYTHONPATH", None)
    out = subprocess.run([sys.executable, "-c", FIRST_FRAME, str(code_dir), str(shot)], cwd=cwd,
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()[0]


def _tracked_copy(dest: Path) -> Path:
    """The checkout's files as they are now, but only those it tracks: a build
    in the checkout itself would take whatever an earlier build left in its
    ``build/`` folder (a module since deleted) and leave its own there."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60)
    if listed.returncode != 0:
        return ROOT                     # not a git checkout: built where it is
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def test_the_game_installed_from_its_wheel_draws_the_menu_as_the_checkout_does(tmp_path):
    """The README's play command installs a copy (a wheel), not the checkout:
    built and unpacked away from the checkout, it finds its fonts and data and
    its first frame is the checkout's, pixel for pixel."""
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels),
                            str(_tracked_copy(tmp_path / "source"))], capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, f"pip could not build the wheel: {built.stderr[-2000:]}"
    (wheel,) = wheels.glob("roundtable-*.whl")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    installed = _first_frame(site, tmp_path / "home1", tmp_path / "wheel.png", tmp_path)
    assert Path(installed).resolve().is_relative_to(site.resolve())     # the copy, not the checkout
    assert not (site / "main.py").exists()      # no top-level module of so common a name installed
    _first_frame(ROOT, tmp_path / "home2", tmp_path / "checkout.png", ROOT)
    assert (tmp_path / "wheel.png").read_bytes() == (tmp_path / "checkout.png").read_bytes()
