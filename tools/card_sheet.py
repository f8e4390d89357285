"""Render a sheet of every card face, the backs and the extras to a PNG.

    python tools/card_sheet.py --width 160 --out /tmp/sheet.png

Rows: the four suits (A … K); then the backs, a card with its shadow, outlines
and placeholders; then a solitaire-style cascade and a hand fan, to judge how
readable the corner indices are when cards overlap. Prints render timings.
Runs headless (no window is opened).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pygame  # noqa: E402

from game.cards import FULL_DECK, SUITS, Card  # noqa: E402
from scenes.table.card_art import BACK_STYLES, CardArt, pip_surface  # noqa: E402

FELT = (31, 94, 58)


def build_sheet(width: int, back_style: str = "blue") -> tuple[pygame.Surface, dict]:
    t0 = time.perf_counter()
    art = CardArt(width, back_style)
    t1 = time.perf_counter()
    for card in FULL_DECK:
        art.face(card)
    t2 = time.perf_counter()
    art.back()
    t3 = time.perf_counter()
    art.shadow()
    t4 = time.perf_counter()
    timings = {"init_ms": (t1 - t0) * 1e3, "faces_ms": (t2 - t1) * 1e3,
               "per_face_ms": (t2 - t1) * 1e3 / 52, "back_ms": (t3 - t2) * 1e3,
               "shadow_ms": (t4 - t3) * 1e3}

    w, h = art.size
    gap = max(6, w // 8)
    cols = 13
    sheet_w = gap + cols * (w + gap)
    sheet_h = 5 * (h + gap) + gap + round(h * 2.9) + gap
    sheet = pygame.Surface((sheet_w, sheet_h))
    sheet.fill(FELT)

    # the deck, one suit per row, in the order spades, hearts, clubs, diamonds
    for row, suit in enumerate("SHCD"):
        for col, rank in enumerate(range(1, 14)):
            x, y = gap + col * (w + gap), gap + row * (h + gap)
            sheet.blit(art.face(Card(rank, suit)), (x, y))

    # backs, shadow demo, outlines, placeholders
    y = gap + 4 * (h + gap)
    x = gap
    for style in BACK_STYLES:
        other = art if style == back_style else CardArt(width, style)
        sheet.blit(other.back(), (x, y))
        x += w + gap
    sx, sy = art.shadow_offset
    sheet.blit(art.shadow(), (x + sx, y + sy))
    sheet.blit(art.face(Card(13, "H")), (x, y))
    x += w + gap
    sheet.blit(art.shadow(), (x + sx, y + sy))
    sheet.blit(art.face(Card(12, "S")), (x, y))
    ox, oy = art.outline_offset()
    sheet.blit(art.outline((255, 214, 64)), (x + ox, y + oy))
    x += w + gap
    sheet.blit(art.face(Card(10, "D")), (x, y))
    sheet.blit(art.outline((90, 200, 255, 200)), (x + ox, y + oy))
    x += w + gap
    for label in (None, "K", "A", "H", "S"):
        sheet.blit(art.placeholder(label), (x, y))
        x += w + gap
    ox, oy = art.outline_offset(2)
    sheet.blit(art.outline((120, 255, 140), 2), (x - w - gap + ox, y + oy))

    # a cascade (cards 22% apart) and two fans
    y = gap + 5 * (h + gap)
    x = gap
    cascades = [[Card(13, "S"), Card(12, "H"), Card(11, "C"), Card(10, "D"), Card(9, "S"),
                 Card(8, "H"), Card(7, "C"), Card(6, "D")],
                [Card(1, "H"), Card(2, "C"), Card(3, "D"), Card(4, "S"), Card(5, "H"),
                 Card(10, "C"), Card(12, "D"), Card(1, "S")]]
    step = round(h * 0.22)
    for cascade in cascades:
        sheet.blit(art.back(), (x, y))
        for i, card in enumerate(cascade):
            cy = y + step // 3 + i * step
            sheet.blit(art.shadow(), (x + sx // 2, cy + sy // 2))
            sheet.blit(art.face(card), (x, cy))
        x += w + gap
    hand = [Card(r, s) for s, r in (("S", 1), ("S", 13), ("H", 12), ("H", 10), ("C", 11),
                                     ("C", 9), ("D", 8), ("D", 7), ("S", 4), ("H", 2))]
    fan_step = round(w * 0.28)
    for i, card in enumerate(hand):
        sheet.blit(art.face(card), (x + i * fan_step, y))
    # a rotated fan around a pivot below the hand, as a hand is often shown
    import math
    cx, cy = x + (len(hand) * fan_step + w) // 2, y + h + int(h * 0.6) + h * 2
    radius = h * 2
    for i, card in enumerate(hand):
        angle = (len(hand) / 2 - i - 0.5) * 5
        img = pygame.transform.rotozoom(art.face(card), angle, 1)
        a = math.radians(angle)
        px, py = cx - radius * math.sin(a), cy - radius * math.cos(a)
        sheet.blit(img, img.get_rect(center=(round(px), round(py))))
    # pips as text helpers
    x = x + len(hand) * fan_step + w + 2 * gap
    y = gap + 5 * (h + gap)
    for suit in SUITS:
        for size in (12, 18, 24, 36):
            s = pip_surface(suit, size)
            sheet.blit(s, (x, y))
            x += size + 6
    return sheet, timings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=160, help="card width in pixels")
    ap.add_argument("--back", default="blue", choices=sorted(BACK_STYLES))
    ap.add_argument("--out", default="card_sheet.png", help="PNG file to write")
    args = ap.parse_args(argv)
    pygame.init()
    sheet, timings = build_sheet(args.width, args.back)
    pygame.image.save(sheet, args.out)
    print(f"wrote {args.out} ({sheet.get_width()}×{sheet.get_height()}), card width "
          f"{args.width}: " + ", ".join(f"{k} {v:.1f}" for k, v in timings.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
