"""Board art for Camelot: the board and its pieces drawn as vector shapes.

Nothing is a bitmap file. Pieces are drawn with ``pygame.draw`` at four times
their size and smooth-scaled down (anti-aliased, crisp at any size); the board
is pixel-aligned rectangles and the coordinates come from the default font.
Everything is rendered on first use and cached per cell size, so a window
resize re-renders at the new size (create a new :class:`BoardArt`).

One convention throughout: **White** pieces are ivory with a brown rim,
**Black** pieces are deep slate-blue with a light rim. Men are plain discs with
a groove; knights carry a gold crown.

    art = BoardArt(cell=48)
    board = art.board(flipped=False)       # the whole board with frame and labels
    art.piece("white", "knight")           # cell × cell, piece centred
    art.shadow(); art.ring(color); art.target(color); art.badge(3, color)
"""
from __future__ import annotations

import math
import threading

import pygame

from ..core.ui import FONTS

FILES = "ABCDEFGHIJKL"
SS = 4  # supersampling factor for round shapes

# Board
LIGHT = (226, 208, 170)
DARK = (180, 146, 102)
FRAME = (84, 54, 32)
FRAME_EDGE = (52, 32, 18)
LABEL = (236, 226, 200)
CASTLE_WHITE = (236, 228, 206)
CASTLE_BLACK = (92, 98, 122)

# Pieces: body, rim, groove, highlight
PIECE_COLORS = {
    "white": ((246, 240, 224), (112, 88, 62), (196, 182, 152), (255, 255, 250)),
    "black": ((40, 46, 66), (12, 14, 22), (84, 94, 124), (104, 116, 150)),
}
CROWN = (228, 184, 64)
CROWN_EDGE = (120, 84, 20)

# Off-board margins round the 12 × 16 squares, in cells: room for the
# coordinates, and above and below for the castles' battlements too.
MARGIN_X = 0.8
MARGIN_Y = 1.2
COORDINATE_SIZE = 0.55   # of a cell: the coordinates' text size


def board_margins(cell: int) -> tuple[int, int]:
    return int(round(MARGIN_X * cell)), int(round(MARGIN_Y * cell))


def board_pixel_size(cell: int) -> tuple[int, int]:
    """Size of :meth:`BoardArt.board` for a cell size."""
    mx, my = board_margins(cell)
    return (12 * cell + 2 * mx, 16 * cell + 2 * my)


def _converted(surface: pygame.Surface) -> pygame.Surface:
    if pygame.display.get_surface() is not None:
        return surface.convert_alpha()
    return surface


def _downsample(big: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    return _converted(pygame.transform.smoothscale(big, size))


# One thread draws board pictures at a time: the menu's background thread
# draws the board ahead (scenes.table.board_view.warm_board_art) while the
# frame loop may want the same picture now; pygame lets go of the
# interpreter's lock while it blits, and two blits of one source at once fail.
_DRAWING = threading.RLock()


class BoardArt:
    """Surfaces for one cell size; every one is cached and shared (don't draw on them)."""

    def __init__(self, cell: int) -> None:
        self.cell = max(8, int(cell))
        self.mx, self.my = board_margins(self.cell)
        self._cache: dict[tuple, pygame.Surface] = {}

    def _cached(self, key: tuple, make) -> pygame.Surface:
        surf = self._cache.get(key)
        if surf is None:
            with _DRAWING:          # drawn once, by one thread at a time (see _DRAWING)
                surf = self._cache.get(key)
                if surf is None:
                    surf = self._cache[key] = make()
        return surf

    # --- pieces ---------------------------------------------------------------
    @property
    def piece_radius(self) -> float:
        return self.cell * 0.41

    def piece(self, color: str, kind: str) -> pygame.Surface:
        return self._cached(("piece", color, kind), lambda: self._draw_piece(color, kind))

    def _draw_piece(self, color: str, kind: str) -> pygame.Surface:
        c = self.cell
        big = pygame.Surface((c * SS, c * SS), pygame.SRCALPHA)
        body, rim, groove, light = PIECE_COLORS[color]
        cx = cy = c * SS / 2
        r = self.piece_radius * SS
        pygame.draw.circle(big, rim, (cx, cy), r)
        pygame.draw.circle(big, body, (cx, cy), r * 0.90)
        # A soft highlight towards the top left, then the body again: a rounded edge.
        pygame.draw.circle(big, light, (cx - r * 0.06, cy - r * 0.08), r * 0.82)
        pygame.draw.circle(big, body, (cx + r * 0.02, cy + r * 0.02), r * 0.80)
        pygame.draw.circle(big, groove, (cx, cy), r * 0.62, max(1, int(r * 0.07)))
        if kind == "knight":
            self._draw_crown(big, cx, cy + r * 0.02, r * 0.52)
        else:
            pygame.draw.circle(big, groove, (cx, cy), r * 0.16)
        return _downsample(big, (c, c))

    @staticmethod
    def _draw_crown(surf: pygame.Surface, cx: float, cy: float, r: float) -> None:
        pts = [(-0.82, 0.46), (-0.94, -0.48), (-0.44, -0.02), (0.0, -0.74), (0.44, -0.02),
               (0.94, -0.48), (0.82, 0.46)]
        poly = [(cx + x * r, cy + y * r) for x, y in pts]
        pygame.draw.polygon(surf, CROWN, poly)
        band = pygame.Rect(0, 0, int(1.70 * r), int(0.34 * r))
        band.midtop = (int(cx), int(cy + 0.40 * r))
        pygame.draw.rect(surf, CROWN, band, border_radius=int(0.08 * r))
        edge = max(1, int(r * 0.09))
        pygame.draw.polygon(surf, CROWN_EDGE, poly, edge)
        pygame.draw.rect(surf, CROWN_EDGE, band, edge, border_radius=int(0.08 * r))
        for x, y in ((-0.94, -0.48), (0.0, -0.74), (0.94, -0.48)):
            pygame.draw.circle(surf, CROWN, (cx + x * r, cy + y * r - 0.10 * r), 0.16 * r)
            pygame.draw.circle(surf, CROWN_EDGE, (cx + x * r, cy + y * r - 0.10 * r), 0.16 * r, edge)
        for x in (-0.45, 0.0, 0.45):  # jewels on the band
            pygame.draw.circle(surf, (170, 40, 48), (cx + x * r, cy + 0.57 * r), 0.09 * r)

    def shadow(self, lift: float = 0.0) -> pygame.Surface:
        """A soft shadow for a piece (``lift`` 0‥1: higher pieces cast a wider one)."""
        step = round(lift * 4) / 4
        return self._cached(("shadow", step), lambda: self._draw_shadow(step))

    def _draw_shadow(self, lift: float) -> pygame.Surface:
        c = self.cell
        small = max(8, c // 3)
        surf = pygame.Surface((small, small), pygame.SRCALPHA)
        r = small * (0.40 + 0.05 * lift)
        pygame.draw.circle(surf, (0, 0, 0, int(110 - 50 * lift)), (small / 2, small / 2), r)
        return _downsample(surf, (c, c))

    @property
    def shadow_offset(self) -> tuple[int, int]:
        return (max(1, self.cell // 28), max(1, self.cell // 16))

    # --- markers ------------------------------------------------------------------
    def ring(self, color, width: float = 0.075) -> pygame.Surface:
        """An outline round a piece (hover, selection)."""
        return self._cached(("ring", tuple(color), width), lambda: self._draw_ring(color, width))

    def _draw_ring(self, color, width: float) -> pygame.Surface:
        c = self.cell
        big = pygame.Surface((c * SS, c * SS), pygame.SRCALPHA)
        r = (self.piece_radius + c * 0.055) * SS
        w = max(SS, int(c * width * SS))
        glow = (*color[:3], 70)
        pygame.draw.circle(big, glow, (c * SS / 2, c * SS / 2), r + w * 0.9, int(w * 0.9))
        pygame.draw.circle(big, color, (c * SS / 2, c * SS / 2), r, w)
        return _downsample(big, (c, c))

    def tint(self, color) -> pygame.Surface:
        """A translucent fill for a whole square (last move, selection)."""
        def make():
            surf = pygame.Surface((self.cell, self.cell), pygame.SRCALPHA)
            surf.fill(color)
            return _converted(surf)
        return self._cached(("tint", tuple(color)), make)

    def target(self, color) -> pygame.Surface:
        """A square the selected piece can reach: outlined, with a faint fill."""
        return self._cached(("target", tuple(color)), lambda: self._draw_target(color))

    def _draw_target(self, color) -> pygame.Surface:
        c = self.cell
        big = pygame.Surface((c * SS, c * SS), pygame.SRCALPHA)
        inset = int(c * 0.07 * SS)
        rect = big.get_rect().inflate(-2 * inset, -2 * inset)
        pygame.draw.rect(big, (*color[:3], 60), rect, border_radius=int(c * 0.14 * SS))
        pygame.draw.rect(big, color, rect, max(SS, int(c * 0.085 * SS)), border_radius=int(c * 0.14 * SS))
        pygame.draw.circle(big, (*color[:3], 150), big.get_rect().center, c * 0.09 * SS)
        return _downsample(big, (c, c))

    def focus(self, color) -> pygame.Surface:
        """The keyboard / gamepad focus: a bracketed square, a little larger than a cell."""
        return self._cached(("focus", tuple(color)), lambda: self._draw_focus(color))

    @property
    def focus_pad(self) -> int:
        return max(2, self.cell // 10)

    def _draw_focus(self, color) -> pygame.Surface:
        c, pad = self.cell, self.focus_pad
        size = c + 2 * pad
        big = pygame.Surface((size * SS, size * SS), pygame.SRCALPHA)
        w = max(SS, int(c * 0.08 * SS))
        rect = big.get_rect().inflate(-w, -w)
        pygame.draw.rect(big, (*color[:3], 90), rect, w * 2, border_radius=int(c * 0.16 * SS))
        pygame.draw.rect(big, color, rect, w, border_radius=int(c * 0.16 * SS))
        return _downsample(big, (size, size))

    def badge(self, number: int, color) -> pygame.Surface:
        """A numbered disc for a step of a path."""
        return self._cached(("badge", number, tuple(color)), lambda: self._draw_badge(number, color))

    @property
    def badge_size(self) -> int:
        return max(12, int(self.cell * 0.5))

    def _draw_badge(self, number: int, color) -> pygame.Surface:
        size = self.badge_size
        big = pygame.Surface((size * SS, size * SS), pygame.SRCALPHA)
        centre = (size * SS / 2, size * SS / 2)
        pygame.draw.circle(big, (20, 20, 24), centre, size * SS / 2)
        pygame.draw.circle(big, color, centre, size * SS / 2 - max(SS, size * SS * 0.08))
        surf = _downsample(big, (size, size))
        ink = (20, 20, 24) if sum(color[:3]) > 380 else (250, 250, 250)
        text = FONTS.text(str(number), int(size * (0.78 if number < 10 else 0.62)), ink)
        surf.blit(text, text.get_rect(center=(size / 2, size / 2 + size * 0.04)))
        return surf

    def cross(self, color) -> pygame.Surface:
        """The mark on a piece a previewed jump would capture."""
        return self._cached(("cross", tuple(color)), lambda: self._draw_cross(color))

    def _draw_cross(self, color) -> pygame.Surface:
        c = self.cell
        big = pygame.Surface((c * SS, c * SS), pygame.SRCALPHA)
        k = c * SS
        w = max(SS, int(c * 0.09 * SS))
        a, b = k * 0.28, k * 0.72
        for p, q in (((a, a), (b, b)), ((a, b), (b, a))):
            pygame.draw.line(big, (20, 10, 10), p, q, w + 2 * SS)
            pygame.draw.line(big, color, p, q, w)
        pygame.draw.circle(big, color, (k / 2, k / 2), (self.piece_radius + c * 0.03) * SS, w)
        return _downsample(big, (c, c))

    # --- the board ------------------------------------------------------------------
    def board(self, flipped: bool = False) -> pygame.Surface:
        """The 160 squares, castles, frame and coordinates, with a margin of
        ``self.mx`` / ``self.my`` px round the 12 × 16 grid (:func:`board_pixel_size`)."""
        return self._cached(("board", flipped), lambda: self._draw_board(flipped))

    def square_topleft(self, file: int, rank: int, flipped: bool) -> tuple[int, int]:
        """Top-left of a square inside :meth:`board` (file 0 = A, rank 1‥16)."""
        col = 11 - file if flipped else file
        row = rank - 1 if flipped else 16 - rank
        return (self.mx + col * self.cell, self.my + row * self.cell)

    def _draw_board(self, flipped: bool) -> pygame.Surface:
        # start-up: the menu imports this module (the board game's emblem and help
        # diagram); the board's geometry loads when a board is first drawn.
        from game.camelot.moves import CASTLES, SQUARE_COORDS
        c = self.cell
        surf = pygame.Surface(board_pixel_size(c), pygame.SRCALPHA)
        rects = {}
        for sq, (f, r) in enumerate(SQUARE_COORDS):
            rects[sq] = pygame.Rect(*self.square_topleft(f, r, flipped), c, c)
        border = max(2, int(c * 0.16))
        # Drop shadow, frame and an inner edge, following the board's outline.
        from game.camelot.moves import rank_span  # start-up: as above
        rows = []   # one rect per rank: the board's outline, drawn in a few rects
        for r in range(1, 17):
            lo, hi = rank_span(r)
            rows.append(rects[SQUARE_COORDS.index((lo, r))].union(rects[SQUARE_COORDS.index((hi, r))]))
        small_size = (max(1, surf.get_width() // 8), max(1, surf.get_height() // 8))
        shade = pygame.Surface(small_size, pygame.SRCALPHA)
        off = max(2, c // 8)
        for row in rows:
            grown = row.inflate(2 * border, 2 * border).move(off, off)
            pygame.draw.rect(shade, (0, 0, 0, 90), pygame.Rect(grown.x // 8, grown.y // 8,
                                                               grown.w // 8 + 1, grown.h // 8 + 1))
        surf.blit(pygame.transform.smoothscale(shade, surf.get_size()), (0, 0))
        for color, grow in ((FRAME_EDGE, 2 * border + 2), (FRAME, 2 * border),
                            (FRAME_EDGE, max(2, border // 3))):
            for row in rows:
                pygame.draw.rect(surf, color, row.inflate(grow, grow))
        castle_of = {sq: side for side, pair in enumerate(CASTLES) for sq in pair}
        for sq, rect in rects.items():
            f, r = SQUARE_COORDS[sq]
            color = LIGHT if (f + r) % 2 else DARK
            if sq in castle_of:
                color = CASTLE_WHITE if castle_of[sq] == 0 else CASTLE_BLACK
            pygame.draw.rect(surf, color, rect)
        for side, pair in enumerate(CASTLES):
            self._draw_castle(surf, [rects[sq] for sq in pair], side, flipped)
        for text, px, center in self.coordinates(flipped):
            label = FONTS.text(text, px, LABEL)
            surf.blit(label, label.get_rect(center=center))
        return _converted(surf)

    def coordinates(self, flipped: bool) -> list[tuple[str, int, tuple[int, int]]]:
        """The coordinates as the board draws them: (text, px, centre), files
        along the top and bottom, ranks down both sides. COORDINATE_SIZE of a
        cell: 16 px at 1280×720 (a third smaller was hard to read)."""
        from game.camelot.moves import rank_span  # start-up: see _draw_board
        c = self.cell
        px = max(8, int(c * COORDINATE_SIZE))
        height = board_pixel_size(c)[1]
        out = []
        for f in range(12):
            x = self.square_topleft(f, 5, flipped)[0] + c // 2
            out += [(FILES[f], px, (x, y)) for y in (int(c * 0.36), height - int(c * 0.36))]
        gap = max(2, int(c * 0.16)) + int(c * 0.34)      # the frame, then room for two digits
        for r in range(1, 17):
            first, last = rank_span(r)
            y = self.square_topleft(first, r, flipped)[1] + c // 2
            xs = [self.square_topleft(f, r, flipped)[0] for f in (first, last)]
            out += [(str(r), px, (x, y)) for x in (min(xs) - gap, max(xs) + c + gap)]
        return out

    def _draw_castle(self, surf: pygame.Surface, rects: list[pygame.Rect], side: int,
                     flipped: bool) -> None:
        """Battlements along the castle's outer edge, in its owner's colour."""
        c = self.cell
        box = rects[0].union(rects[1])
        outward = -1 if (side == 1) != flipped else 1   # towards the board's edge
        tooth = max(2, int(c * 0.18))
        wall_color = CASTLE_WHITE if side == 0 else CASTLE_BLACK
        edge = (60, 40, 24)
        y_edge = box.bottom if outward > 0 else box.top
        wall = pygame.Rect(box.x - tooth, 0, box.w + 2 * tooth, tooth)
        wall.top = y_edge if outward > 0 else y_edge - tooth
        pygame.draw.rect(surf, wall_color, wall)
        pygame.draw.rect(surf, edge, wall, max(1, c // 32))
        n = 7
        step = wall.w / n
        for k in range(0, n, 2):
            merlon = pygame.Rect(int(wall.x + k * step), 0, int(step) + 1, tooth)
            merlon.top = wall.bottom if outward > 0 else wall.top - tooth
            pygame.draw.rect(surf, wall_color, merlon)
            pygame.draw.rect(surf, edge, merlon, max(1, c // 32))
        pygame.draw.rect(surf, edge, box, max(1, c // 20))
        pygame.draw.line(surf, edge, rects[0].topright, rects[0].bottomright, max(1, c // 40))

    # --- a path ---------------------------------------------------------------------
    def path_surface(self, points: list[tuple[float, float]], color, origin: tuple[int, int],
                     size: tuple[int, int], canters=frozenset()) -> pygame.Surface:
        """A line through ``points`` (screen coordinates) with round joints and an
        arrowhead ending at the edge of the last step's badge, on a surface of
        ``size`` placed at ``origin``. It starts at the edge of the moving piece
        (its crown stays in sight), and the steps numbered in ``canters`` (leaps
        over the mover's own side) are dashed, so they read apart from jumps.
        Not cached here: the caller keeps it while the path is shown."""
        w, h = size
        k = 2  # supersampling
        big = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
        ox, oy = origin
        pts = [((x - ox) * k, (y - oy) * k) for x, y in points]
        width = max(4, int(self.cell * 0.14 * k))
        dark = (24, 20, 16)
        head = self.cell * 0.34 * k
        if len(pts) >= 2:
            (ax, ay), (bx, by) = pts[-2], pts[-1]
            d = math.hypot(bx - ax, by - ay) or 1
            ux, uy = (bx - ax) / d, (by - ay) / d
            tip = (bx - ux * self.badge_size * k * 0.5, by - uy * self.badge_size * k * 0.5)
            base = (tip[0] - ux * head, tip[1] - uy * head)
            half = head * 0.62
            arrow = [tip, (base[0] - uy * half, base[1] + ux * half),
                     (base[0] + uy * half, base[1] - ux * half)]
            line = pts[:-1] + [(base[0] + ux * 2, base[1] + uy * 2)]
        else:
            arrow, line = None, pts
        if len(line) >= 2:   # start at the piece's edge, not over its middle
            (ax, ay), (bx, by) = line[0], line[1]
            d = math.hypot(bx - ax, by - ay) or 1
            gap = min(self.cell * 0.42 * k, d * 0.5)
            line[0] = (ax + (bx - ax) / d * gap, ay + (by - ay) / d * gap)
        outline = max(3, width // 2)
        dash = self.cell * 0.22 * k
        for layer, extra in ((dark, outline), (color, 0)):
            lw = width + extra
            for i, (a, b) in enumerate(zip(line, line[1:])):
                if i in canters:
                    _dashed_line(big, layer, a, b, lw, dash)
                else:
                    _thick_line(big, layer, a, b, lw)
            for p in line[:-1]:
                pygame.draw.circle(big, layer, p, lw / 2)
            if arrow:
                if extra:
                    pygame.draw.polygon(big, layer, arrow, outline)
                pygame.draw.polygon(big, layer, arrow)
        surf = pygame.transform.smoothscale(big, (w, h))
        surf.set_alpha(235)
        return surf


def _dashed_line(surface, color, a, b, width: float, dash: float) -> None:
    """Dashes of length ``dash`` with gaps as long, round-ended, from a to b."""
    (ax, ay), (bx, by) = a, b
    d = math.hypot(bx - ax, by - ay)
    if d <= 0:
        return
    ux, uy = (bx - ax) / d, (by - ay) / d
    t = 0.0
    while t < d:
        end = min(d, t + dash)
        p, q = (ax + ux * t, ay + uy * t), (ax + ux * end, ay + uy * end)
        _thick_line(surface, color, p, q, width)
        pygame.draw.circle(surface, color, p, width / 2)
        pygame.draw.circle(surface, color, q, width / 2)
        t += 2 * dash


def _thick_line(surf: pygame.Surface, color, a, b, width: float) -> None:
    (ax, ay), (bx, by) = a, b
    d = math.hypot(bx - ax, by - ay)
    if d == 0:
        return
    nx, ny = -(by - ay) / d * width / 2, (bx - ax) / d * width / 2
    pygame.draw.polygon(surf, color, [(ax + nx, ay + ny), (bx + nx, by + ny),
                                      (bx - nx, by - ny), (ax - nx, ay - ny)])
