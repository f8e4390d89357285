"""The Camelot board scene's pictures: a move travelling its path, and the
three drawing layers (see ``GameScene``) filled from the scene's state.

:class:`BoardLayers` is a mixin for :class:`~scenes.games.camelot_board_scene.CamelotBoardScene`:
it reads the scene's ``shown`` pieces, ``travel``, selection, preview and hint,
lists them as *items* (``camelot_view``) and repaints only the items that
changed since the last frame.
"""
from __future__ import annotations

import math

import pygame

from game.base import Status
from game.camelot.board import CamelotBoard
from game.camelot.moves import path_legs

from ..core.anim import ease_in_out_cubic
from .board_view import (
    CAPTURE, HOVER, LAST_FROM, LAST_TO, LAST_VIA, PATH_HINT, PATH_PLAYER, SELECT_TINT, SELECTED,
    START_COUNTS)
from ..core.ui import GOLD, INK, paint_felt

STEP_TIME = 0.2            # s per plain step of a travelling piece (normal speed)
LEAP_TIME = 0.27           # s per leap
VANISH_TIME = 0.3          # s a captured piece takes to vanish
COLORS = ("white", "black")


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




class BoardLayers:
    """Drawing for the Camelot board scene (a mixin; the state is the scene's)."""

    def on_board(self) -> list:
        """The pieces still in play as shown: those at rest, and the one
        travelling its path (it is lifted off its square, not captured)."""
        pieces = list(self.shown.values())
        travel = self.travel
        if travel is not None and travel.path[0] not in self.shown:
            pieces.append(travel.piece)
        return pieces

    def update_travel(self, dt: float) -> None:
        """Advance the move being shown; captured pieces go as they are jumped."""
        speed = self.app.settings.speed_factor
        for v in self.vanishing:
            v[2] += dt * speed
        self.vanishing = [v for v in self.vanishing if v[2] < VANISH_TIME]
        travel = self.travel
        if travel is None:
            return
        travel.t += dt
        if travel.moving:
            self.shown.pop(travel.path[0], None)
            index, progress, _ = travel.where()
            # A captured piece goes as the mover passes over it.
            while travel.taken < len(travel.steps) and (
                    travel.taken < index or (travel.taken == index and progress >= 0.5)):
                took = travel.steps[travel.taken][2]
                travel.taken += 1
                if took is not None and took[0] in self.shown:
                    self.shown.pop(took[0])
                    self.vanishing.append([took[1], took[0], 0.0])
        if travel.done:
            self.finish_animations()

    def draw_background(self, surface: pygame.Surface) -> None:
        paint_felt(surface)
        surface.blit(self.view.art.board(self.flipped), self.view.board_pos)
        self.view.panel_background().blit_to(surface, self.view.panel_rect.topleft)

    def _compute_items(self) -> list[tuple]:
        items: list[tuple] = []
        add = items.append
        travel = self.travel
        if self.last_move is not None and (travel is None or not travel.moving):
            path, _ = self.last_move
            for sq in path[1:-1]:
                add((0, "tint", sq, LAST_VIA))
            add((0, "tint", path[0], LAST_FROM))
            add((0, "tint", path[-1], LAST_TO))
        for sq, piece in self.shown.items():
            add((2, "piece", sq, piece.color, piece.kind))
        keyboard = not self._pointer_mode() and not self.demo and self.mode is not None
        if self.interactive:
            movable = self._movable()
            if self.selected is not None:
                add((0, "tint", self.selected, SELECT_TINT))
                add((3, "ring", self.selected, SELECTED))
                for sq in sorted(self._targets()):
                    add((1, "target", sq))
            pointed = self.hover if self._pointer_mode() else self.focus_sq
            if pointed in movable and pointed != self.selected:
                add((3, "ring", pointed, HOVER))
            preview = self._preview()
            if preview is not None:
                target, alts, index = preview
                move, path = alts[index]
                self._add_path(add, path, move.captured, PATH_PLAYER, show_captures=True)
            elif self.hint_move is not None:
                move = self.hint_move
                add((3, "ring", move.from_square, PATH_HINT))
                self._add_path(add, move.path, move.captured, PATH_HINT, show_captures=True)
        if travel is not None:
            self._add_path(add, travel.path, travel.captured, travel.color,
                           show_captures=not travel.moving)
        if keyboard:
            add((7, "focus", self.focus_sq))
        add((8, "panel", self._panel_state()))
        items.sort(key=lambda k: k[0])
        return items

    def _add_path(self, add, path, captured, color, show_captures: bool) -> None:
        add((4, "path", tuple(path), color, frozenset(captured)))
        if show_captures:
            for sq in sorted(captured):
                if sq in self.shown:
                    add((5, "cross", sq))
        seen = {}
        for n, sq in enumerate(path[1:], 1):
            seen[sq] = n  # a square landed on twice shows its later step
        for sq, n in seen.items():
            add((6, "badge", sq, n, color))

    def _panel_state(self) -> tuple:
        counts = {(c, k): 0 for c in COLORS for k in START_COUNTS}
        for piece in self.on_board():
            counts[(piece.color, piece.kind)] += 1
        start, first_side = self._start_info()
        sides = []
        thinking = self.computer_to_move and self._ready is None and not self.busy \
            and self.game.status is Status.PLAYING
        for color in COLORS:
            enemy = COLORS[1 - COLORS.index(color)]
            taken = tuple((k, max(0, start[(enemy, k)] - counts[(enemy, k)])) for k in START_COUNTS)
            to_move = self.game.status is Status.PLAYING and self.game.turn == color
            sides.append((color, self._side_name(color), self.game.castle_moves_left(color),
                          taken, to_move, to_move and thinking))
        note = ""
        if self.game.status is not Status.PLAYING:
            reason = self.game.status_reason
            note = reason[:1].upper() + reason[1:] + "."
        elif self.game.capture_is_compulsory and not self.computer_to_move and not self.busy:
            note = "Capturing is compulsory."
        return (tuple(sides), tuple(self.game.history), first_side, note)

    def _start_info(self) -> tuple[dict, str]:
        """Piece counts and the side to move of this game's start (asked once a game)."""
        cached = getattr(self, "_start_cache", None)
        if cached is None or cached[0] is not self.game:
            start = CamelotBoard(self.game.start_json()["position"])
            counts = {(c, k): 0 for c in COLORS for k in START_COUNTS}
            for piece in start.pieces().values():
                counts[(piece.color, piece.kind)] += 1
            cached = self._start_cache = (self.game, counts, start.turn)
        return cached[1], cached[2]

    def _draw_panel(self, surface: pygame.Surface, state: tuple) -> None:
        sides, history, first_side, note = state
        info = {"sides": [{"color": c, "name": name, "castle_left": castle, "taken": dict(taken),
                           "enemy": COLORS[1 - COLORS.index(c)], "to_move": to_move,
                           "thinking": thinking}
                          for c, name, castle, taken, to_move, thinking in sides],
                "history": list(history), "first_side": first_side, "note": note,
                "note_color": INK if self.game.status is Status.PLAYING else GOLD}
        if note == "Capturing is compulsory.":
            info["note_color"] = CAPTURE
        self.view.draw_panel(surface, info)

    def draw_resting(self, surface: pygame.Surface, clip) -> None:
        if clip is None:
            self._items = self._compute_items()
        rects = self.view.item_rects
        for key in self._items:
            if clip is not None and clip.collidelist(rects(key)) < 0:
                continue
            if key[1] == "panel":
                self.view.draw_item(surface, key, lambda s, state=key[2]: self._draw_panel(s, state))
            else:
                self.view.draw_item(surface, key, None)

    def resting_changes(self) -> list[pygame.Rect]:
        self._items = self._compute_items()
        new = set(self._items)
        changed = new ^ self._drawn
        self._drawn = new
        return merge_rects([r for key in changed for r in self.view.item_rects(key)])

    def resting_rebuilt(self) -> None:
        self._drawn = set(self._items)

    def draw_animated(self, surface: pygame.Surface) -> list[pygame.Rect]:
        rects: list[pygame.Rect] = []
        view, art = self.view, self.view.art
        for piece, sq, t in self.vanishing:
            k = min(1.0, t / VANISH_TIME)
            sprite = pygame.transform.smoothscale_by(art.piece(piece.color, piece.kind), 1 + 0.35 * k)
            sprite.set_alpha(int(255 * (1 - k)))
            rects.append(surface.blit(sprite, sprite.get_rect(center=view.square_centre(sq))))
        travel = self.travel
        if travel is not None and travel.moving:
            index, progress, leap = travel.where()
            a, b, _ = travel.steps[index]
            (ax, ay), (bx, by) = view.square_centre(a), view.square_centre(b)
            t = ease_in_out_cubic(progress)
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            lift = math.sin(math.pi * progress) * view.cell * (0.32 if leap else 0.1)
            c = view.cell
            dx, dy = art.shadow_offset
            shadow = art.shadow(min(1.0, lift / (c * 0.32)))
            rects.append(surface.blit(shadow, (int(x - c / 2 + dx + lift * 0.3),
                                               int(y - c / 2 + dy + lift * 0.5))))
            rects.append(surface.blit(art.piece(travel.piece.color, travel.piece.kind),
                                      (int(x - c / 2), int(y - c / 2 - lift))))
        rects += view.draw_spinner(surface, self.clock_time)
        return rects
