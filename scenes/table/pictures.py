"""Small pictures of the games, for the menu's tiles and the help's diagrams:
cards with their shadows, arrows, a fan of cards. Each game's descriptor
(``scenes.games``) draws its own pictures with these."""
from __future__ import annotations

import math

import pygame

from ..core.ui import draw_text

EMBLEM_INK = (235, 225, 200)


def emblem_frame(rect: pygame.Rect, scale: float) -> tuple[tuple[int, int], int, int]:
    """The centre, radius and line width of a menu tile's emblem in ``rect``."""
    return rect.center, int(min(rect.w, rect.h) * 0.38), max(1, int(3 * scale))


def fanned_cards(labels: str):
    """An emblem: three cards fanned, with a letter each (e.g. "KQJ")."""
    def draw(surface: pygame.Surface, rect: pygame.Rect, scale: float, age: float) -> None:
        c, r, _ = emblem_frame(rect, scale)
        cw, ch = int(r * 0.9), int(r * 1.26)
        for k in range(3):
            card = pygame.Rect(0, 0, cw, ch)
            card.center = (c[0] + (k - 1) * int(cw * 0.55), c[1] + abs(k - 1) * int(ch * 0.06))
            pygame.draw.rect(surface, (245, 242, 232), card, border_radius=max(3, cw // 10))
            pygame.draw.rect(surface, (60, 60, 60), card, 1, border_radius=max(3, cw // 10))
            pip = (200, 40, 40) if k != 1 else (30, 30, 40)
            # In the corner, as on a real card: the part the next card leaves uncovered.
            draw_text(surface, labels[k], ch * 0.36, (card.x + cw * 0.08, card.y + ch * 0.05), pip,
                      bold=True)
    return draw


def arrow(surface: pygame.Surface, color, a, b, width: int, head: float,
          shorten: float = 0.0) -> None:
    ax, ay = a
    bx, by = b
    d = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / d, (by - ay) / d
    ax, ay = ax + ux * shorten, ay + uy * shorten
    bx, by = bx - ux * shorten, by - uy * shorten
    base = (bx - ux * head, by - uy * head)
    dark = (20, 20, 16)
    for col, extra in ((dark, max(2, width // 2)), (color, 0)):
        pygame.draw.line(surface, col, (ax, ay), base, width + extra)
        pygame.draw.circle(surface, col, (ax, ay), (width + extra) / 2)
        half = head * 0.6 + extra * 0.6
        tip = (bx + ux * extra * 0.7, by + uy * extra * 0.7)
        pts = [tip, (base[0] - uy * half - ux * extra * 0.5, base[1] + ux * half - uy * extra * 0.5),
               (base[0] + uy * half - ux * extra * 0.5, base[1] - ux * half - uy * extra * 0.5)]
        pygame.draw.polygon(surface, col, pts)


def card(surface, art, code: str | None, pos, ring=None) -> pygame.Rect:
    """A card (``None``: its back) with its shadow at ``pos`` (top-left)."""
    x, y = int(pos[0]), int(pos[1])
    dx, dy = art.shadow_offset
    surface.blit(art.shadow(), (x + dx, y + dy))
    surface.blit(art.back() if code is None else art.face(code), (x, y))
    if ring is not None:
        ox, oy = art.outline_offset()
        surface.blit(art.outline(ring), (x + ox, y + oy))
    return pygame.Rect(x, y, *art.size)
