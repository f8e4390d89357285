"""What a built wheel carries: every file the app reads from ``assets/`` and
``data/`` is matched by pyproject's package data (an installed game finds them
inside the ``scenes`` package: ``scenes.store.files.shipped``), so a file added
there is not left out of an install."""
from __future__ import annotations

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
