"""The Flatpak's files (packaging/) and the app's icon (assets/icons/): they
cannot be built here (no flatpak-builder, no network), so each is read and
checked against the project: the manifest, the desktop file, the AppStream
metadata (and the platform's validators, where installed), and the icon drawn
by tools/make_icons.py at every size."""
from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

ROOT = Path(__file__).resolve().parents[1]
APP_ID = "io.github.roundtable.RoundTable"
PACKAGING = ROOT / "packaging"
sys.path.insert(0, str(ROOT / "tools"))

import make_icons  # noqa: E402


def _manifest() -> dict:
    return json.loads((PACKAGING / f"{APP_ID}.json").read_text())


def _pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")     # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _validator(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed (CI installs it)")
        pytest.skip(f"{name} is not installed")
    return found


# --- the manifest -------------------------------------------------------------
def test_the_manifest_runs_the_programme_pip_installs():
    manifest = _manifest()
    assert manifest["id"] == APP_ID
    assert manifest["command"] in _pyproject()["project"]["scripts"]
    assert manifest["runtime"] == "org.freedesktop.Platform" and manifest["sdk"] == "org.freedesktop.Sdk"
    assert {"--socket=wayland", "--socket=fallback-x11", "--socket=pulseaudio", "--device=all",
            "--share=network"} <= set(manifest["finish-args"])


def test_the_manifest_pins_every_library_the_app_needs_by_its_hash():
    deps, app = _manifest()["modules"]
    wheels = [s for s in deps["sources"] if s["type"] == "file"]
    assert all(s["url"].startswith("https://files.pythonhosted.org/") and
               re.fullmatch(r"[0-9a-f]{64}", s["sha256"]) and s["url"].endswith(".whl")
               for s in wheels)
    needed = {re.split(r"[<>=]", d)[0] for d in _pyproject()["project"]["dependencies"]}
    for arch in ("x86_64", "aarch64"):
        there = {Path(s["url"]).name.split("-")[0].replace("_", "-") for s in wheels
                 if arch in s.get("only-arches", [arch])}
        assert there == needed, arch
        assert all("cp312" in Path(s["url"]).name or "py3-none" in Path(s["url"]).name
                   for s in wheels)     # the 24.08 runtime's Python
    assert app["sources"] == [{"type": "dir", "path": "..", "skip": [".venv", "build", "dist"]}]


def test_the_manifest_installs_the_desktop_file_the_metadata_and_every_icon():
    commands = " ".join(_manifest()["modules"][1]["build-commands"])
    for name in (f"packaging/${{FLATPAK_ID}}.desktop", f"packaging/${{FLATPAK_ID}}.metainfo.xml",
                 "assets/icons/roundtable.svg"):
        assert name in commands
        assert (ROOT / name.replace("${FLATPAK_ID}", APP_ID)).is_file()
    sizes = re.search(r"for size in ([\d ]+);", commands).group(1).split()
    assert tuple(int(s) for s in sizes) == make_icons.SIZES


# --- the desktop file ------------------------------------------------------------
def test_the_desktop_file_starts_the_app_with_its_icon():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(PACKAGING / f"{APP_ID}.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application" and desktop["Icon"] == APP_ID
    assert desktop["Exec"] == _manifest()["command"]
    assert "Game" in desktop["Categories"].split(";") and desktop["Terminal"] == "false"


def test_the_desktop_file_passes_desktop_file_validate():
    done = subprocess.run([_validator("desktop-file-validate"), str(PACKAGING / f"{APP_ID}.desktop")],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


# --- the AppStream metadata ----------------------------------------------------
def _metainfo() -> ET.Element:
    return ET.parse(PACKAGING / f"{APP_ID}.metainfo.xml").getroot()


def test_the_metadata_names_the_app_its_launcher_and_its_release():
    root = _metainfo()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").text == f"{APP_ID}.desktop"
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.find("provides/binary").text == _manifest()["command"]
    versions = [r.get("version") for r in root.iter("release")]
    assert versions[0] == _pyproject()["project"]["version"]
    assert root.find("content_rating").get("type") == "oars-1.1"
    assert {c.text for c in root.iter("control")} == {"pointing", "keyboard", "gamepad"}


def test_every_screenshot_of_the_metadata_is_one_of_the_readmes():
    images = [i.text for i in _metainfo().iter("image")]
    assert len(images) >= 4
    assert sum(s.get("type") == "default" for s in _metainfo().iter("screenshot")) == 1
    for url in images:
        assert url.startswith("https://") and "/docs/screenshots/" in url
        shot = ROOT / "docs" / "screenshots" / url.rsplit("/", 1)[1]
        assert shot.is_file(), shot.name
        assert pygame.image.load(str(shot)).get_width() >= 1280


def test_the_metadata_passes_appstreamcli_validate():
    done = subprocess.run([_validator("appstreamcli"), "validate", "--no-net",
                           str(PACKAGING / f"{APP_ID}.metainfo.xml")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


# --- the icon ----------------------------------------------------------------------
def test_the_icon_svg_is_the_one_the_tool_draws():
    assert (ROOT / "assets" / "icons" / "roundtable.svg").read_text() == make_icons.icon_svg()


@pytest.mark.parametrize("size", make_icons.SIZES)
def test_the_icon_is_drawn_at_every_size(size):
    kept = pygame.image.load(str(ROOT / "assets" / "icons" / f"roundtable-{size}.png"))
    assert kept.get_size() == (size, size)
    drawn = pygame.image.load(str(ROOT / "assets" / "icons" / "roundtable.svg"))
    drawn = pygame.transform.smoothscale(drawn.convert_alpha() if pygame.display.get_surface()
                                         else drawn, (size, size))
    # The kept picture is the SVG's: the middle (the table's cream top) and a
    # corner (transparent, outside the rounded square) agree.
    middle = kept.get_at((size // 2, size // 2))
    assert middle.a == 255 and min(middle[:3]) > 200
    assert kept.get_at((0, 0)).a == 0
    assert abs(drawn.get_at((size // 2, size // 2))[0] - middle[0]) < 40
