"""Draw the app's icon into ``assets/icons/``: one SVG and a PNG at every size a
desktop asks for (16 … 512 px), from the game's own vector drawing: the suit
shapes of the card art (``scenes.table.card_art``), round a gold-rimmed table.
No downloaded art; the same files on every machine and every run.

    python tools/make_icons.py            # write the files
    python tools/make_icons.py --check    # exit 1 if a file differs from what would be drawn

The Flatpak manifest (packaging/) installs them under share/icons/hicolor.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from scenes.core.ui import FELT, FELT_DARK, GOLD  # noqa: E402
from scenes.table.card_art import GOLD_DARK, PANEL_FILL, SUIT_COLORS, suit_path_svg  # noqa: E402

OUT = ROOT / "assets" / "icons"
NAME = "roundtable"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
VIEW = 256
# The suits round the table, as the players sit: spades at the top, then clockwise.
SEATS = (("S", 0, -1), ("H", 1, 0), ("C", 0, 1), ("D", -1, 0))


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(int(v) for v in rgb[:3])


def icon_svg() -> str:
    """The icon: a rounded square of felt, a cream table in a gold rim, the
    four suits at its four sides."""
    c = VIEW / 2
    pip = 66                       # a suit's box, in icon units
    reach = 50                     # from the centre to a suit's centre
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{VIEW}" height="{VIEW}" '
             f'viewBox="0 0 {VIEW} {VIEW}">',
             '<defs><radialGradient id="felt" cx="50%" cy="45%" r="70%">'
             f'<stop offset="0" stop-color="{_hex(FELT)}"/>'
             f'<stop offset="1" stop-color="{_hex(FELT_DARK)}"/></radialGradient></defs>',
             f'<rect x="4" y="4" width="{VIEW - 8}" height="{VIEW - 8}" rx="52" fill="url(#felt)"/>',
             f'<circle cx="{c}" cy="{c}" r="106" fill="{_hex(GOLD_DARK)}"/>',
             f'<circle cx="{c}" cy="{c}" r="99" fill="{_hex(GOLD)}"/>',
             f'<circle cx="{c}" cy="{c}" r="90" fill="{_hex(PANEL_FILL)}"/>']
    for suit, dx, dy in SEATS:
        x, y = c + dx * reach - pip / 2, c + dy * reach - pip / 2
        parts.append(f'<path transform="translate({x:g} {y:g}) scale({pip / 100:g})" '
                     f'd="{suit_path_svg(suit)}" fill="{_hex(SUIT_COLORS[suit])}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def icon_png(svg: str, size: int) -> bytes:
    surface = pygame.image.load_sized_svg(io.BytesIO(svg.encode()), (size, size))
    out = io.BytesIO()
    pygame.image.save(surface, out, "icon.png")
    return out.getvalue()


def drawn_files() -> dict[Path, bytes]:
    """Every icon file and its bytes, as drawn now."""
    svg = icon_svg()
    files = {OUT / f"{NAME}.svg": svg.encode()}
    for size in SIZES:
        files[OUT / f"{NAME}-{size}.png"] = icon_png(svg, size)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the app's icon at every size.")
    parser.add_argument("--check", action="store_true", help="only compare with the files there")
    args = parser.parse_args(argv)
    files = drawn_files()
    if args.check:
        stale = [path.name for path, data in files.items()
                 if not path.is_file() or path.read_bytes() != data]
        print("icons up to date" if not stale else f"icons to redraw: {', '.join(stale)}")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for path, data in files.items():
        path.write_bytes(data)
    print(f"wrote {len(files)} files in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
