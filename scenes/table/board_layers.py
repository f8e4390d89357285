"""The board table's pictures: a move travelling its path, and the drawing
layers (see ``PaintedScene``) filled from the table's state.

:class:`BoardPainter` belongs to one :class:`~scenes.table.board_table.BoardTable`:
it reads the table's ``shown`` pieces, ``travel``, selection, preview and hint,
lists them as *items* (``board_view``) and repaints only the items that changed
since the last frame. The side panel shows both sides and the move list: the
game's moves as they are played, or a whole record with the current move lit
(a replay), each move a place to click.
"""
from __future__ import annotations

import math
from contextlib import contextmanager

import pygame

from game.base import Status
from game.camelot.board import CamelotBoard
from game.camelot.moves import path_legs

from ..core.anim import ease_in_out_cubic
from ..store.terms import reason_words
from .board_analysis import bar_item
from .board_art import COORDINATE_SIZE, FRAME_EDGE
from .board_view import (
    CAPTURE, HOVER, LAST_FROM, LAST_TO, LAST_VIA, PATH_COMPUTER, PATH_HINT, PATH_PLAYER, SELECT_TINT, SELECTED,
    START_COUNTS, spinner_step)
from ..core.ui import FONTS, GOLD, INK, INK_DIM, draw_text, paint_felt
from ..store.words import N_, _

STEP_TIME = 0.2            # s per plain step of a travelling piece (normal speed)
LEAP_TIME = 0.27           # s per leap
VANISH_TIME = 0.3          # s a captured piece takes to vanish
COLORS = ("white", "black")


CAPTURE_NOTE = N_("Capturing is compulsory.")   # the panel's note, in its own colour

class Travel:
    """A move being shown: the path first (computer moves), then the piece
    travelling it step by step; captured pieces are taken as they are jumped."""

    def __init__(self, piece, steps, path, captured, color, preview: float, speed: float,
                 backward: bool = False) -> None:
        self.piece = piece
        self.backward = backward      # a move taken back (the replay): its captures come back
        self.steps = steps            # [(from, to, (square, piece) or None)]
        self.path = path
        self.captured = captured
        self.color = color            # of the path drawn meanwhile
        self.preview = preview
        # Canters and jumps leap, plain steps walk: the engine says which leg is which.
        self.leaps = [leg.is_leap for leg in path_legs(tuple(path), frozenset(captured))]
        self.times = [(LEAP_TIME if leap else STEP_TIME) / speed for leap in self.leaps]
        self.total = preview + sum(self.times)
        self.t = 0.0
        self.taken = 0                # steps whose capture is already shown

    @property
    def moving(self) -> bool:
        return self.t >= self.preview

    @property
    def done(self) -> bool:
        return self.t >= self.total

    def where(self) -> tuple[int, float, bool]:
        """(step index, progress 0‥1 within it, leap?)."""
        t = self.t - self.preview
        for i, d in enumerate(self.times):
            if t < d:
                return i, t / d if d > 0 else 1.0, self.leaps[i]
            t -= d
        return len(self.steps) - 1, 1.0, self.leaps[-1]


@contextmanager
def clipped(surface: pygame.Surface, area: pygame.Rect):
    """Drawing within ``area`` too (a magnified board's viewport), inside any clip already set."""
    before = surface.get_clip()
    surface.set_clip(before.clip(area))
    try:
        yield
    finally:
        surface.set_clip(before)


def merge_rects(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Fewer, non-repeating areas: a rect inside another goes, and two rects
    whose union is hardly bigger than both become one."""
    out: list[pygame.Rect] = []
    for rect in sorted({tuple(r) for r in rects}, key=lambda r: -r[2] * r[3]):
        rect = pygame.Rect(rect)
        merged = True
        while merged:
            merged = False
            for i, other in enumerate(out):
                union = rect.union(other)
                if other.contains(rect) or union.w * union.h <= 1.25 * (rect.w * rect.h + other.w * other.h):
                    rect = union
                    out.pop(i)
                    merged = True
                    break
        out.append(rect)
    return out


class BoardPainter:
    """Drawing for one board table (the state is the table's)."""

    def __init__(self, table) -> None:
        self.table = table
        self.items: list[tuple] = []
        self.drawn: set[tuple] = set()
        self.move_rects: list[tuple[pygame.Rect, int]] = []   # a record's moves: (cell, ply)

    def draw_background(self, surface: pygame.Surface) -> None:
        view = self.table.view
        paint_felt(surface)
        with clipped(surface, view.viewport):
            surface.blit(view.art.board(self.table.flipped), view.board_pos)
            px = view.cell * COORDINATE_SIZE * 0.6
            for text, pos, anchor in view.zoom_coordinates():
                draw_text(surface, text, px, pos, FRAME_EDGE, anchor=anchor)
        view.panel_background().blit_to(surface, view.panel_rect.topleft)

    def compute_items(self) -> list[tuple]:
        t = self.table
        items: list[tuple] = []
        add = items.append
        travel = t.travel
        if t.last_move is not None and (travel is None or not travel.moving):
            path, _ = t.last_move
            for sq in path[1:-1]:
                add((0, "tint", sq, LAST_VIA))
            add((0, "tint", path[0], LAST_FROM))
            add((0, "tint", path[-1], LAST_TO))
        for sq, piece in t.shown.items():
            add((2, "piece", sq, piece.color, piece.kind))
        interactive = t.interactive
        keyboard = not t.pointer_mode() and t.shows_focus
        if interactive:
            movable = t.movable()
            if t.selected is not None:
                add((0, "tint", t.selected, SELECT_TINT))
                add((3, "ring", t.selected, SELECTED))
                for sq in sorted(t.targets()):
                    add((1, "target", sq))
            pointed = t.hover if t.pointer_mode() else t.focus_sq
            if pointed in movable and pointed != t.selected:
                add((3, "ring", pointed, HOVER))
            preview = t.preview()
            if preview is not None:
                target, alts, index = preview
                move, path = alts[index]
                self.add_path(add, path, move.captured, PATH_PLAYER, show_captures=True)
            elif t.hint_move is not None:
                move = t.hint_move
                add((3, "ring", move.from_square, PATH_HINT))
                self.add_path(add, move.path, move.captured, PATH_HINT, show_captures=True)
        if travel is not None:
            self.add_path(add, travel.path, travel.captured, travel.color,
                          show_captures=not travel.moving)
        if keyboard:
            add((7, "focus", t.focus_sq))
        add((8, "panel", self.panel_state()))
        reply = t.hint_reply
        if reply is not None and (t.hint_move is None or reply[0] != t.hint_move):
            reply = t.hint_reply = None
        if reply is not None and interactive and t.selected is None:
            self.add_path(add, reply[1], reply[2], PATH_COMPUTER, show_captures=False)
        if t.eval_bar:
            bar = bar_item(t.analysis)
            if bar is not None:
                add(bar)
        best = t.best_move() if t.shows_best else None
        if best is not None and travel is None:
            self.add_path(add, best.path, frozenset(best.captured), PATH_HINT, show_captures=False)
        items.sort(key=lambda k: k[0])
        return items

    def add_path(self, add, path, captured, color, show_captures: bool) -> None:
        add((4, "path", tuple(path), color, frozenset(captured)))
        if show_captures:
            for sq in sorted(captured):
                if sq in self.table.shown:
                    add((5, "cross", sq))
        seen = {}
        for n, sq in enumerate(path[1:], 1):
            seen[sq] = n  # a square landed on twice shows its later step
        for sq, n in seen.items():
            add((6, "badge", sq, n, color))

    def panel_state(self) -> tuple:
        t = self.table
        game = t.game
        counts = {(c, k): 0 for c in COLORS for k in START_COUNTS}
        for piece in t.on_board():
            counts[(piece.color, piece.kind)] += 1
        start, first_side = self._start_info()
        sides = []
        thinking = t.thinking() and not t.busy and game.status is Status.PLAYING
        for color in COLORS:
            enemy = COLORS[1 - COLORS.index(color)]
            taken = tuple((k, max(0, start[(enemy, k)] - counts[(enemy, k)])) for k in START_COUNTS)
            to_move = game.status is Status.PLAYING and game.turn == color
            sides.append((color, t.side_label(color), game.castle_moves_left(color),
                          taken, to_move, to_move and thinking))
        note = ""
        if game.status is not Status.PLAYING:
            reason = game.status_reason
            note = reason_words(reason)
        elif game.capture_is_compulsory and not t.plays_itself() and not t.busy:
            note = _(CAPTURE_NOTE)
        if t.record_moves is not None:     # a record: the current move, and the engine's words
            return (tuple(sides), len(game.history), first_side, note, t.panel_lines())
        return (tuple(sides), tuple(game.history), first_side, note)

    def _start_info(self) -> tuple[dict, str]:
        """Piece counts and the side to move of this game's start (asked once a game)."""
        game = self.table.game
        cached = getattr(self, "_start_cache", None)
        if cached is None or cached[0] is not game:
            start = CamelotBoard(game.start_json()["position"])
            counts = {(c, k): 0 for c in COLORS for k in START_COUNTS}
            for piece in start.pieces().values():
                counts[(piece.color, piece.kind)] += 1
            cached = self._start_cache = (game, counts, start.turn)
        return cached[1], cached[2]

    def draw_panel(self, surface: pygame.Surface, state: tuple) -> None:
        sides, history, first_side, note = state[:4]
        record = len(state) > 4
        info = {"sides": [{"color": c, "name": name, "castle_left": castle, "taken": dict(taken),
                           "enemy": COLORS[1 - COLORS.index(c)], "to_move": to_move,
                           "thinking": thinking and not record}
                          for c, name, castle, taken, to_move, thinking in sides],
                "history": [] if record else list(history), "first_side": first_side, "note": note,
                "note_color": INK if self.table.game.status is Status.PLAYING else GOLD}
        if note == _(CAPTURE_NOTE):
            info["note_color"] = CAPTURE
        if record:
            lines = [text for text in (note,) + tuple(state[4]) if text]
            info.update(note=" · ".join(lines), note_color=GOLD if note else INK)
        top = self.table.view.draw_panel(surface, info)
        if record:
            self._draw_record(surface, top, history, first_side)

    def _draw_record(self, surface, top: int, ply: int, first_side: str) -> None:
        """Every move of the record, the current one lit, the list scrolled to it."""
        view, moves = self.table.view, self.table.record_moves
        s = view.scale
        rect = view.panel_rect
        pad = int(16 * s)
        x, width = rect.x + pad, rect.w - 2 * pad
        px = int(19 * s)
        line_h = int(px * 1.25)
        rows = max(1, (rect.bottom - pad - top) // line_h)
        offset = 1 if first_side == "black" else 0
        total_rows = (len(moves) + offset + 1) // 2
        current_row = (ply - 1 + offset) // 2 if ply else 0
        first_row = max(0, min(current_row - rows // 2, total_rows - rows))
        num_w = int(px * 1.9)
        col_w = (width - num_w) // 2
        self.move_rects = []
        for row in range(first_row, min(total_rows, first_row + rows)):
            y = top + (row - first_row) * line_h
            view.panel_text(surface, f"{row + 1}.", px, (x, y), INK_DIM)
            for col in range(2):
                index = row * 2 + col - offset     # 0-based ply index
                if not 0 <= index < len(moves):
                    continue
                text = moves[index]
                laid = pygame.Rect(x + num_w + col * col_w, y - int(2 * s), col_w - int(4 * s), line_h)
                cell = view.panel_place(laid)        # mirrored for a right-to-left language
                if index == ply - 1:
                    pygame.draw.rect(surface, GOLD, cell, width=max(1, int(2 * s)),
                                     border_radius=int(5 * s))
                size = px
                while size > px * 0.6 and FONTS.font(size).size(text)[0] > col_w - int(10 * s):
                    size -= 1
                view.panel_text(surface, text, size, (laid.x + int(4 * s), y + (px - size) // 2),
                                GOLD if index == ply - 1 else INK if index < ply else INK_DIM)
                self.move_rects.append((cell, index + 1))

    def draw_resting(self, surface: pygame.Surface, clip) -> None:
        view = self.table.view
        if clip is None:
            self.items = self.compute_items()
        rects = view.item_rects
        for key in self.items:
            if clip is not None and clip.collidelist(rects(key)) < 0:
                continue
            if key[1] == "panel":
                view.draw_item(surface, key, lambda s, state=key[2]: self.draw_panel(s, state))
            elif key[1] == "evalbar":
                view.draw_item(surface, key, None)
            else:
                with clipped(surface, view.viewport):
                    view.draw_item(surface, key, None)

    def resting_changes(self) -> list[pygame.Rect]:
        self.items = self.compute_items()
        new = set(self.items)
        changed = new ^ self.drawn
        self.drawn = new
        return merge_rects([r for key in changed for r in self.table.view.item_rects(key)])

    def resting_rebuilt(self) -> None:
        self.drawn = set(self.items)

    def animated_look(self):
        """What ``draw_animated`` shows while nothing travels or fades: the
        spinner's step (None when no spinner); None while something moves."""
        t = self.table
        if t.vanishing or t.appearing or (t.travel is not None and t.travel.moving):
            return None
        centre = t.view.spinner_centre
        return (centre, spinner_step(t.clock_time) if centre is not None else None)

    def draw_animated(self, surface: pygame.Surface) -> list[pygame.Rect]:
        view = self.table.view
        with clipped(surface, view.viewport):
            rects = [r.clip(view.viewport) for r in self._draw_moving(surface)]
        return [r for r in rects if r.w and r.h] + view.draw_spinner(surface, self.table.clock_time)

    def _draw_moving(self, surface: pygame.Surface) -> list[pygame.Rect]:
        t = self.table
        rects: list[pygame.Rect] = []
        view, art = t.view, t.view.art
        for piece, sq, age in t.vanishing:
            k = min(1.0, age / VANISH_TIME)
            sprite = pygame.transform.smoothscale_by(art.piece(piece.color, piece.kind), 1 + 0.35 * k)
            sprite.set_alpha(int(255 * (1 - k)))
            rects.append(surface.blit(sprite, sprite.get_rect(center=view.square_centre(sq))))
        travel = t.travel
        if travel is not None and travel.moving:
            index, progress, leap = travel.where()
            a, b, _ = travel.steps[index]
            (ax, ay), (bx, by) = view.square_centre(a), view.square_centre(b)
            e = ease_in_out_cubic(progress)
            x, y = ax + (bx - ax) * e, ay + (by - ay) * e
            lift = math.sin(math.pi * progress) * view.cell * (0.32 if leap else 0.1)
            c = view.cell
            dx, dy = art.shadow_offset
            shadow = art.shadow(min(1.0, lift / (c * 0.32)))
            rects.append(surface.blit(shadow, (int(x - c / 2 + dx + lift * 0.3),
                                               int(y - c / 2 + dy + lift * 0.5))))
            rects.append(surface.blit(art.piece(travel.piece.color, travel.piece.kind),
                                      (int(x - c / 2), int(y - c / 2 - lift))))
        for piece, square, age in t.appearing:
            k = min(1.0, age / VANISH_TIME)      # a vanishing piece's fade, played backwards
            sprite = pygame.transform.smoothscale_by(art.piece(piece.color, piece.kind), 1.35 - 0.35 * k)
            sprite.set_alpha(int(255 * k))
            rects.append(surface.blit(sprite, sprite.get_rect(center=view.square_centre(square))))
        return rects
