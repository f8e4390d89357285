"""What the Camelot board table draws, and where: geometry, the layered
drawing of the board and its overlays, and the side panel.

The board table (``board_table``) keeps the state (what is shown, selected,
previewed, travelling); this module turns it into pictures. Things at rest are
*items*: small hashable tuples ``(layer, kind, …)``, each with the screen areas
it paints. Every frame the table lists the items that should be visible; only
the areas of items that appeared or went away are repainted (see
``PaintedScene``), so a frame costs almost nothing unless something changed.
"""
from __future__ import annotations

import math

import pygame

from game.camelot.moves import CANTER, SQUARE_COORDS, path_legs, rank_span

from .board_art import FILES, BoardArt, board_pixel_size, MARGIN_X, MARGIN_Y
from ..store.terms import SIDES, term
from ..core.ui import FONTS, GOLD, INK, INK_DIM, draw_text, for_reading, mirrored, TallPanel, wrap_text
from ..store.words import _, right_to_left


def canter_steps(path: tuple[int, ...], captured) -> frozenset[int]:
    """The steps of ``path`` (by index) that are canters, as the engine names its legs."""
    return frozenset(i for i, leg in enumerate(path_legs(tuple(path), frozenset(captured)))
                     if leg.kind == CANTER)


# Colours of the overlays (one meaning each, throughout).
HOVER = (255, 221, 87)           # a piece that may move, under the pointer/focus
SELECTED = (255, 244, 170)       # the selected piece
TARGET = (110, 230, 140)         # squares the selected piece can reach
PATH_PLAYER = (255, 214, 90)     # the path about to be played
PATH_COMPUTER = (255, 146, 72)   # the computer's move as it plays
PATH_HINT = (120, 190, 255)      # a hint
CAPTURE = (235, 80, 70)          # pieces a previewed jump takes
FOCUS_RING = (120, 220, 255)     # the keyboard / gamepad focus square
LAST_FROM = (255, 226, 120, 70)  # the last move: where it started …
LAST_TO = (255, 226, 120, 120)   # … and where it ended
LAST_VIA = (255, 226, 120, 40)   # … the squares it landed on on the way
SELECT_TINT = (255, 240, 160, 90)

SQUARE_INDEX = {coords: sq for sq, coords in enumerate(SQUARE_COORDS)}
START_COUNTS = {"knight": 4, "man": 10}


def panel_spacing(scale: float) -> tuple[int, int]:
    """The gap between the board and its side panel, and the panel's least width."""
    return int(22 * scale), int(290 * scale)


def board_cell(area: pygame.Rect, scale: float) -> int:
    """The side of a square, in px, for a board laid out in ``area`` beside
    its side panel."""
    gap, panel_min = panel_spacing(scale)
    cell_h = area.h / (16 + 2 * MARGIN_Y)
    cell_w = (area.w - panel_min - gap) / (12 + 2 * MARGIN_X)
    return max(8, int(min(cell_h, cell_w)))


_shared_art: dict[int, BoardArt] = {}


def shared_board_art(cell: int) -> BoardArt:
    """The board's pictures at this cell size, shared by every view (the
    latest two sizes only): a new game or a replay at the same size draws nothing
    again, and :func:`warm_board_art` can draw them before the board opens."""
    art = _shared_art.get(cell)
    if art is None:
        while len(_shared_art) >= 2:        # the whole board's and the magnified board's
            _shared_art.pop(next(iter(_shared_art)))
        art = _shared_art[cell] = BoardArt(cell)
    return art


def prerender_markers(art: BoardArt) -> None:
    """Draw the markers now: drawn on first sight they would cost a hitch
    mid-animation (a few ms each at 4K)."""
    for color in ("white", "black"):
        for kind in ("man", "knight"):
            art.piece(color, kind)
    for lift in (0.0, 0.25, 0.5, 0.75, 1.0):
        art.shadow(lift)
    for color in (HOVER, SELECTED, PATH_HINT):
        art.ring(color)
    art.target(TARGET)
    art.cross(CAPTURE)
    art.focus(FOCUS_RING)
    for color in (PATH_PLAYER, PATH_COMPUTER, PATH_HINT):
        for n in range(1, 5):
            art.badge(n, color)


def warm_board_art(area: pygame.Rect, scale: float) -> None:
    """Draw the board and its markers for a board laid out in ``area`` (a
    background thread does, while the menu is up): opening the board game
    then finds them drawn (some tens of ms at 4K)."""
    art = shared_board_art(board_cell(area, scale))
    art.board(False)
    prerender_markers(art)


SPINNER_STEPS = 10     # the thinking spinner's steps a second (8 dots round)


def spinner_step(t: float) -> int:
    """The spinner's lit dot at time ``t``: it moves 10 times a second, and is
    drawn again only then."""
    return int(t * SPINNER_STEPS) % 8


def spinner_next(t: float) -> float:
    """Seconds from ``t`` to the spinner's next step."""
    return (1 - (t * SPINNER_STEPS) % 1) / SPINNER_STEPS


class BoardView:
    """Geometry and drawing for one window size."""

    def __init__(self) -> None:
        self.art: BoardArt | None = None
        self.icons: BoardArt | None = None
        self.flipped = False
        self.cell = 0
        self.board_pos = (0, 0)
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        self.scale = 1.0
        self._paths: dict[tuple, tuple[pygame.Surface, tuple[int, int]]] = {}
        self._rects: dict[tuple, list[pygame.Rect]] = {}
        self.spinner_centre = (0, 0)
        # Magnified for a finger (touch mode, squares smaller than a finger):
        # the squares scrolled past (columns, rows as the screen shows them)
        # at the viewport's top left; None shows the whole board.
        self.zoom: list[float] | None = None
        self.viewport = pygame.Rect(0, 0, 0, 0)   # where the board is seen (all of it, or a part)
        self.finger_cell = 0                      # a square a finger can hit, in px (0: no touch)
        self.whole_cell = 0                       # the squares' side with the whole board shown

    @property
    def zoomed(self) -> bool:
        return self.zoom is not None and self.magnifies

    @property
    def magnifies(self) -> bool:
        """Touch mode with squares smaller than a finger: a tap magnifies the board."""
        return self.finger_cell > self.whole_cell

    # --- layout ---------------------------------------------------------------
    def layout(self, area: pygame.Rect, scale: float, flipped: bool, finger_cell: int = 0) -> None:
        s = self.scale = scale
        self.flipped = flipped
        self.area, self.finger_cell = pygame.Rect(area), finger_cell
        gap, panel_min = panel_spacing(s)
        cell = self.whole_cell = board_cell(area, scale)
        if self.zoomed:
            cell = finger_cell
        if self.art is None or self.art.cell != cell:
            self.art = shared_board_art(cell)
            self._paths.clear()
            prerender_markers(self.art)
        self.cell = cell
        icon = max(10, int(24 * s))
        if self.icons is None or self.icons.cell != icon:
            self.icons = BoardArt(icon)
        bw, bh = board_pixel_size(cell)
        top = area.y + int(6 * s)
        if self.zoomed:
            self._lay_out_magnified(area, panel_min, gap)
        else:
            panel_w = max(panel_min, min(int(400 * s), area.w - bw - gap))
            total = bw + gap + panel_w
            x0 = area.x + max(0, (area.w - total) // 2)
            self.board_pos = (x0, area.y + (area.h - bh) // 2)
            self.board_rect = self.viewport = pygame.Rect(self.board_pos, (bw, bh))
            self.panel_rect = pygame.Rect(x0 + bw + gap, top, panel_w, area.bottom - top - int(6 * s))
        if right_to_left():
            self._mirror_layout(area)
        self._paths.clear()
        self._rects.clear()

    def _mirror_layout(self, area: pygame.Rect) -> None:
        """A right-to-left language reads the side panel first: the panel on
        the left, the board on its right (the board itself is never mirrored:
        its files run A to L as the rules name them)."""
        self.panel_rect = for_reading(self.panel_rect, area.left, area.right)
        viewport = for_reading(self.viewport, area.left, area.right)
        shift = viewport.x - self.viewport.x
        self.board_pos = (self.board_pos[0] + shift, self.board_pos[1])
        self.board_rect = self.board_rect.move(shift, 0)
        self.viewport = self.board_rect if not self.zoomed else viewport

    def _lay_out_magnified(self, area: pygame.Rect, panel_w: int, gap: int) -> None:
        """The board at a finger's size, seen through a viewport of whole
        squares beside the narrowest panel; ``zoom`` (whole squares once a
        finger lets go) says which part."""
        cell = self.cell
        room_w = area.w - panel_w - gap
        cols, rows = self.zoom_span(room_w, area.h)
        self.viewport = pygame.Rect(area.x + (room_w - cols * cell) // 2,
                                    area.y + (area.h - rows * cell) // 2, cols * cell, rows * cell)
        self.zoom = [max(0.0, min(float(12 - cols), self.zoom[0])),
                     max(0.0, min(float(16 - rows), self.zoom[1]))]
        mx, my = self.art.mx, self.art.my
        self.board_pos = (self.viewport.x - round(self.zoom[0] * cell) - mx,
                          self.viewport.y - round(self.zoom[1] * cell) - my)
        self.board_rect = pygame.Rect(self.board_pos, board_pixel_size(cell))
        top = area.y + int(6 * self.scale)
        self.panel_rect = pygame.Rect(self.viewport.right + gap, top, area.right - self.viewport.right - gap,
                                      area.bottom - top - int(6 * self.scale))

    def zoom_span(self, width: int, height: int) -> tuple[int, int]:
        """The whole squares a magnified viewport shows across and down."""
        return min(12, max(1, width // self.cell)), min(16, max(1, height // self.cell))

    def magnify_at(self, pos) -> None:
        """Magnify the board round ``pos`` (a point of the whole board): that
        square comes to the viewport's middle, or as near as the board allows."""
        x0, y0 = self.board_pos[0] + self.art.mx, self.board_pos[1] + self.art.my
        col, row = (pos[0] - x0) / self.cell, (pos[1] - y0) / self.cell
        self.zoom = [0.0, 0.0]
        self.layout(self.area, self.scale, self.flipped, self.finger_cell)   # the viewport's span
        cols, rows = self.viewport.w // self.cell, self.viewport.h // self.cell
        self.zoom = [round(col - cols / 2), round(row - rows / 2)]
        self.layout(self.area, self.scale, self.flipped, self.finger_cell)

    def pan(self, dx: int, dy: int, settle: bool = False) -> None:
        """The magnified board follows a finger by (dx, dy) px; ``settle``: it
        comes to rest on whole squares."""
        if not self.zoomed:
            return
        zoom = [self.zoom[0] - dx / self.cell, self.zoom[1] - dy / self.cell]
        self.zoom = [float(round(z)) for z in zoom] if settle else zoom
        self.layout(self.area, self.scale, self.flipped, self.finger_cell)

    def show_whole(self) -> None:
        """The whole board again (no longer magnified)."""
        if self.zoom is not None:
            self.zoom = None
            self.layout(self.area, self.scale, self.flipped, self.finger_cell)

    def shows_square(self, sq: int) -> bool:
        return self.viewport.contains(self.square_rect(sq))

    def zoom_coordinates(self) -> list[tuple[str, tuple[int, int], str]]:
        """The magnified board's coordinates (its edges, where the whole board
        has them, are out of sight): each rank's number in the corner of its
        first square seen, each file's letter in its lowest square seen, as
        (text, position, anchor)."""
        if not self.zoomed:
            return []
        seen = [sq for sq in range(len(SQUARE_COORDS)) if self.shows_square(sq)]
        inset = max(2, self.cell // 16)
        out = []
        for rank in {SQUARE_COORDS[sq][1] for sq in seen}:
            rect = min((self.square_rect(sq) for sq in seen if SQUARE_COORDS[sq][1] == rank),
                       key=lambda r: r.x)
            out.append((str(rank), (rect.x + inset, rect.y + inset), "topleft"))
        for file in {SQUARE_COORDS[sq][0] for sq in seen}:
            rect = max((self.square_rect(sq) for sq in seen if SQUARE_COORDS[sq][0] == file),
                       key=lambda r: r.y)
            out.append((FILES[file], (rect.right - inset, rect.bottom - inset), "bottomright"))
        return out

    def square_rect(self, sq: int) -> pygame.Rect:
        f, r = SQUARE_COORDS[sq]
        x, y = self.art.square_topleft(f, r, self.flipped)
        return pygame.Rect(self.board_pos[0] + x, self.board_pos[1] + y, self.cell, self.cell)

    def square_centre(self, sq: int) -> tuple[int, int]:
        return self.square_rect(sq).center

    def square_at(self, pos) -> int | None:
        if pos is None or self.art is None or not self.viewport.collidepoint(pos):
            return None
        x = pos[0] - self.board_pos[0] - self.art.mx
        y = pos[1] - self.board_pos[1] - self.art.my
        if x < 0 or y < 0:
            return None
        col, row = int(x // self.cell), int(y // self.cell)
        if col >= 12 or row >= 16:
            return None
        f = 11 - col if self.flipped else col
        r = row + 1 if self.flipped else 16 - row
        return SQUARE_INDEX.get((f, r))

    def step_focus(self, sq: int, direction: tuple[int, int]) -> int:
        """The square next to ``sq`` on the screen in ``direction`` (dx, dy):
        along a rank it skips to the next square there is; up or down onto a
        shorter rank it takes the nearest square of that rank."""
        dx, dy = direction
        if self.flipped:
            dx, dy = -dx, -dy
        f, r = SQUARE_COORDS[sq]
        if dy == 0:
            f2 = f + dx
            while 0 <= f2 < 12:
                if (f2, r) in SQUARE_INDEX:
                    return SQUARE_INDEX[(f2, r)]
                f2 += dx
            return sq
        r2 = r - dy
        if not 1 <= r2 <= 16:
            return sq
        lo, hi = rank_span(r2)
        return SQUARE_INDEX[(min(hi, max(lo, f)), r2)]

    # --- items -------------------------------------------------------------------
    def item_rects(self, key: tuple) -> list[pygame.Rect]:
        """The screen areas an item paints (cached for this layout)."""
        rects = self._rects.get(key)
        if rects is None:
            if len(self._rects) > 4000:
                self._rects.clear()
            rects = self._rects[key] = self._item_rects(key)
        return rects

    def _item_rects(self, key: tuple) -> list[pygame.Rect]:
        if key[1] in ("panel", "evalbar"):
            return self._board_item_rects(key)
        seen = [r.clip(self.viewport) for r in self._board_item_rects(key)]
        return [r for r in seen if r.w and r.h]      # magnified: only what the viewport shows

    def _board_item_rects(self, key: tuple) -> list[pygame.Rect]:
        kind = key[1]
        if kind in ("tint", "target", "ring", "cross"):
            return [self.square_rect(key[2])]
        if kind == "piece":
            dx, dy = self.art.shadow_offset
            rect = self.square_rect(key[2])
            return [pygame.Rect(rect.x, rect.y, rect.w + dx, rect.h + dy)]
        if kind == "badge":
            size = self.art.badge_size
            return [pygame.Rect(0, 0, size, size).move(self._badge_pos(key[2]))]
        if kind == "focus":
            pad = self.art.focus_pad
            return [self.square_rect(key[2]).inflate(2 * pad, 2 * pad)]
        if kind == "path":
            out = []
            path = key[2]
            for a, b in zip(path, path[1:]):
                out.append(self.square_rect(a).union(self.square_rect(b)))
            return out
        if kind == "panel":
            return [self.panel_rect]
        return []

    def _badge_pos(self, sq: int) -> tuple[int, int]:
        x, y = self.square_rect(sq).center
        size = self.art.badge_size
        return (x - size // 2, y - size // 2)

    def draw_item(self, surface: pygame.Surface, key: tuple, panel) -> None:
        kind = key[1]
        art = self.art
        if kind == "piece":
            rect = self.square_rect(key[2])
            dx, dy = art.shadow_offset
            surface.blit(art.shadow(), (rect.x + dx, rect.y + dy))
            surface.blit(art.piece(key[3], key[4]), rect)
        elif kind == "tint":
            surface.blit(art.tint(key[3]), self.square_rect(key[2]))
        elif kind == "target":
            surface.blit(art.target(TARGET), self.square_rect(key[2]))
        elif kind == "ring":
            surface.blit(art.ring(key[3]), self.square_rect(key[2]))
        elif kind == "cross":
            surface.blit(art.cross(CAPTURE), self.square_rect(key[2]))
        elif kind == "badge":
            surface.blit(art.badge(key[3], key[4]), self._badge_pos(key[2]))
        elif kind == "focus":
            pad = art.focus_pad
            surface.blit(art.focus(FOCUS_RING), self.square_rect(key[2]).move(-pad, -pad))
        elif kind == "path":
            surf, origin = self._path_surface(key[2], key[3], key[4] if len(key) > 4 else frozenset())
            surface.blit(surf, origin)
        elif kind == "panel":
            panel(surface)

    def _path_surface(self, path: tuple[int, ...], color,
                      captured: frozenset = frozenset()) -> tuple[pygame.Surface, tuple[int, int]]:
        cached = self._paths.get((path, color, captured))
        if cached is None:
            rects = [self.square_rect(sq) for sq in path]
            box = rects[0].unionall(rects[1:])
            points = [r.center for r in rects]
            surf = self.art.path_surface(points, color, box.topleft, box.size,
                                         canters=canter_steps(path, captured))
            cached = (surf, box.topleft)
            if len(self._paths) > 24:
                self._paths.clear()
            self._paths[(path, color, captured)] = cached
        return cached

    # --- the side panel -----------------------------------------------------------
    def panel_background(self) -> TallPanel:
        """The panel's rounded background, drawn once per size (as a
        :class:`TallPanel`: no surface the panel's size, some 7 MB at 4K)."""
        key = (self.panel_rect.size, int(16 * self.scale))
        cached = getattr(self, "_panel_background", None)
        if cached is None or cached[0] != key:
            cached = self._panel_background = (key, TallPanel(key[0], radius=key[1]))
        return cached[1]

    def panel_text(self, surface: pygame.Surface, text: str, px: float, pos, color,
                    anchor: str = "topleft") -> pygame.Rect:
        """draw_text in the side panel at a place laid out left to right:
        mirrored in the panel for a right-to-left language."""
        if right_to_left():
            rect = self.panel_rect
            pos, anchor = (rect.left + rect.right - pos[0], pos[1]), mirrored(anchor)
        return draw_text(surface, text, px, pos, color, anchor=anchor)

    def panel_place(self, rect: pygame.Rect) -> pygame.Rect:
        """A rect of the side panel laid out left to right, where the reader's language puts it."""
        return for_reading(rect, self.panel_rect.left, self.panel_rect.right)

    def draw_panel(self, surface: pygame.Surface, info: dict) -> None:
        """``info``: sides (list of two dicts: color, name, castle_left, lost,
        to_move, thinking), history, first_side, status, note."""
        s = self.scale
        rect = self.panel_rect
        pad = int(16 * s)
        x = rect.x + pad
        y = rect.y + pad
        width = rect.w - 2 * pad
        icon = self.icons
        self.spinner_centre = None
        for side in info["sides"]:
            row_h = int(icon.cell * 1.1)
            if side["to_move"]:
                mark = pygame.Rect(rect.x + int(4 * s), y - int(2 * s), int(5 * s), row_h + int(26 * s))
                pygame.draw.rect(surface, GOLD, self.panel_place(mark), border_radius=max(1, int(2 * s)))
            piece = icon.piece(side["color"], "man")
            surface.blit(piece, self.panel_place(piece.get_rect(topleft=(x, y + (row_h - icon.cell) // 2))))
            name = f"{term(SIDES, side['color'])} · {side['name']}"
            label = self.panel_text(surface, name, 23 * s, (x + icon.cell + int(8 * s), y + row_h // 2),
                                     GOLD if side["to_move"] else INK, anchor="midleft")
            if side["thinking"]:
                beyond = label.left - int(16 * s) if right_to_left() else label.right + int(16 * s)
                self.spinner_centre = (beyond, label.centery)
            y += row_h + int(2 * s)
            castle = side["castle_left"]
            self.panel_text(surface, _("Castle moves left: {n}").format(n=castle), 18 * s,
                             (x + int(2 * s), y), INK_DIM)
            y += int(22 * s)
            lost = side["taken"]   # enemy pieces this side has captured
            if any(lost.values()):
                mini = self._mini(side["enemy"])
                took = self.panel_text(surface, _("Took:"), 18 * s, (x + int(2 * s), y + int(2 * s)), INK_DIM)
                mx = x + max(int(50 * s), took.w + int(10 * s))
                for kind in ("knight", "man"):
                    for _k in range(lost.get(kind, 0)):
                        if mx + mini[kind].get_width() > rect.right - pad:
                            break
                        surface.blit(mini[kind], self.panel_place(mini[kind].get_rect(topleft=(mx, y - int(2 * s)))))
                        mx += int(mini[kind].get_width() * 0.86)
            y += int(26 * s)
        y += int(4 * s)
        pygame.draw.line(surface, (255, 255, 255, 40), (x, y), (rect.right - pad, y), max(1, int(s)))
        y += int(8 * s)
        if info.get("note"):
            for line in wrap_text(info["note"], int(19 * s), width):
                self.panel_text(surface, line, 19 * s, (x, y), info.get("note_color", INK))
                y += int(22 * s)
            y += int(6 * s)
        self.panel_text(surface, _("Moves"), 21 * s, (x, y), INK_DIM)
        y += int(26 * s)
        self._draw_moves(surface, info["history"], info["first_side"], x, y, width,
                         rect.bottom - pad - y)
        return y   # where the move list starts (a replay draws its own there)

    def _mini(self, color: str) -> dict:
        size = max(8, int(22 * self.scale))
        key = ("mini", color, size)
        cached = self._paths.get(key)
        if cached is None:
            art = BoardArt(size)
            cached = {k: art.piece(color, k) for k in ("man", "knight")}
            self._paths[key] = cached
        return cached

    def _draw_moves(self, surface, history: list[str], first_side: str, x: int, y: int,
                    width: int, height: int) -> None:
        s = self.scale
        px = int(19 * s)
        line_h = int(px * 1.12)
        rows = max(1, height // line_h)
        plies = (["…"] if first_side == "black" else []) + list(history)
        pairs = [plies[i:i + 2] for i in range(0, len(plies), 2)]
        shown = pairs[-rows:]
        first_number = len(pairs) - len(shown) + 1
        num_w = int(px * 1.7)
        col_w = (width - num_w) // 2
        last_index = len(plies) - 1
        for k, pair in enumerate(shown):
            number = first_number + k
            row_y = y + k * line_h
            self.panel_text(surface, f"{number}.", px, (x, row_y), INK_DIM)
            for j, text in enumerate(pair):
                ply = (number - 1) * 2 + j
                color = GOLD if ply == last_index and text != "…" else INK
                size = px
                while size > px * 0.6 and FONTS.font(size).size(text)[0] > col_w - int(6 * s):
                    size -= 1
                self.panel_text(surface, text, size, (x + num_w + j * col_w, row_y + (px - size) // 2), color)

    def draw_spinner(self, surface: pygame.Surface, t: float) -> list[pygame.Rect]:
        if self.spinner_centre is None:
            return []
        s = self.scale
        cx, cy = self.spinner_centre
        radius = 8 * s
        dot = max(2, int(2.4 * s))
        lead = spinner_step(t)
        for k in range(8):
            a = k * math.pi / 4
            fade = (k - lead) % 8
            shade = 255 - fade * 26
            pygame.draw.circle(surface, (shade, int(shade * 0.85), int(shade * 0.4)),
                               (cx + radius * math.cos(a), cy + radius * math.sin(a)), dot)
        r = int(radius + dot + 2)
        return [pygame.Rect(int(cx) - r, int(cy) - r, 2 * r, 2 * r)]

