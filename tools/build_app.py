"""Build the installable app: a one-folder program made by PyInstaller, which
runs where no Python is installed.

    python tools/build_app.py                 # -> dist/roundtable/roundtable
    python tools/build_app.py --dist DIR      # -> DIR/roundtable/roundtable

Needs the ``app`` extra (``pip install '.[app]'``: PyInstaller). The program is
packaging/roundtable.py: the game with the same options as ``python main.py``,
and ``roundtable game …`` for the engine's commands (``python -m game …``: the
server, the solver). The folders the app reads (assets/, data/, locale/: the
translations, their .mo files compiled here) travel inside it, where
``scenes.store.files.shipped`` finds them. Building takes some
minutes; the build folder is kept under build/ so a second build is quicker.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "roundtable"
ENTRY = ROOT / "packaging" / "roundtable.py"
SHIPPED = ("assets", "data", "locale")   # next to the scenes package, as in a checkout
PACKAGE_DATA = ("game/server/pages", "game/camelot/book.txt")   # the web pages, the opening book
# Every module of these goes in: some are loaded by name at run time
# (scenes.games.descriptor, game.GAMES), so no import statement shows them to
# PyInstaller's analysis.
PACKAGES = ("game", "scenes")
# Installed here but never used by the game: left out (optional imports of the
# libraries would otherwise bring them: IPython and its editor
# by asyncio's and others' debugging hooks, cryptography by ssl helpers).
NOT_USED = ("tkinter", "PyInstaller", "pytest", "hypothesis", "setuptools", "IPython",
            "jedi", "parso", "cryptography", "cffi", "pycparser", "PIL", "matplotlib")


class BuildError(Exception):
    pass


def pyinstaller_arguments(dist: Path, work: Path) -> list[str]:
    args = [str(ENTRY), "--name", NAME, "--onedir", "--noconfirm", "--log-level", "WARN",
            "--distpath", str(dist), "--workpath", str(work / "work"), "--specpath", str(work),
            "--paths", str(ROOT)]
    for folder in SHIPPED:
        args += ["--add-data", f"{ROOT / folder}{os.pathsep}{folder}"]
    for folder in PACKAGE_DATA:           # files the packages read beside their modules
        args += ["--add-data", f"{ROOT / folder}{os.pathsep}{folder}"]
    for module in modules_of(PACKAGES):
        args += ["--hidden-import", module]
    for module in NOT_USED:
        args += ["--exclude-module", module]
    return args


def modules_of(packages) -> list[str]:
    """Every module of the packages, read from the files (PyInstaller's own
    collect_submodules imports them in a child Python, which may not see the
    checkout)."""
    names = []
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def compile_translations() -> None:
    """The languages' .mo files beside their .po (tools/translations.py), so the
    app reads them as shipped, with nothing to compile on a first run."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import translations
        translations.compile_all()
    except SystemExit as exc:            # no Babel: the app compiles them on first use
        print(f"build_app: {exc}", file=sys.stderr)
    finally:
        sys.path.remove(str(ROOT / "tools"))


def build(dist: Path, work: Path) -> Path:
    try:
        import PyInstaller.__main__ as pyinstaller
    except ImportError:
        raise BuildError("PyInstaller is not installed: pip install '.[app]'") from None
    compile_translations()
    # --noconfirm: an older dist/roundtable is replaced whole (no removed file stays).
    pyinstaller.run(pyinstaller_arguments(dist, work))
    program = dist / NAME / (NAME + (".exe" if sys.platform == "win32" else ""))
    if not program.is_file():
        raise BuildError(f"PyInstaller finished but made no {program}")
    return program


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the one-folder app with PyInstaller.")
    parser.add_argument("--dist", default=str(ROOT / "dist"), help="where the app folder goes")
    parser.add_argument("--work", default=str(ROOT / "build" / "app"),
                        help="PyInstaller's build folder")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        program = build(Path(args.dist).resolve(), Path(args.work).resolve())
    except BuildError as exc:
        print(f"build_app: error: {exc}", file=sys.stderr)
        return 1
    size = folder_size(program.parent) / 1e6
    print(f"built {program} ({size:.0f} MB) in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
