"""The engine's evaluation on the board: a bar beside it and words for it.

:class:`AnalysisView` is the board view plus one more item, ``(8, "evalbar",
share)``: a thin bar in the gap between the board and the panel, White's share
from the bottom (Black's from the top when the board is turned round), ``share``
rounded so the bar is repainted only when it visibly changes. The score comes
from ``scenes.work.analysis`` (White's view, 100 ≈ a man).
"""
from __future__ import annotations

import math

import pygame

from game.camelot.ai import MATE, WIN_THRESHOLD

from .board_view import BoardView
from ..core.ui import GOLD
from ..store.words import _

BAR_STEPS = 100          # the bar's resolution: a repaint only when it moves a step
SCORE_SCALE = 500.0      # a score of about five men fills most of one side


def white_share(white_score: int) -> float:
    """0‥1: how much of the bar is White's (½ level, 1 White wins by force)."""
    if white_score >= WIN_THRESHOLD:
        return 1.0
    if white_score <= -WIN_THRESHOLD:
        return 0.0
    return 0.5 + 0.5 * math.tanh(white_score / SCORE_SCALE)


def score_words(answer: dict | None) -> str:
    """One line for an analysis answer: ``White +1.4 (depth 3)``, a forced win,
    or the static evaluation, labelled so."""
    if answer is None:
        return _("Engine: thinking…")
    score = answer["white_score"]
    if abs(score) >= WIN_THRESHOLD:
        side = _("White") if score > 0 else _("Black")
        plies = MATE - abs(score)
        return _("Engine: {side} wins by force in {n}").format(side=side, n=max(1, (plies + 1) // 2))
    leader = _("equal") if abs(score) < 10 else f"{_('White') if score > 0 else _('Black')} +{abs(score) / 100:.1f}"
    if answer.get("static"):
        return _("Static evaluation (no search): {leader}").format(leader=leader)
    return _("Engine (depth {depth}): {leader}").format(depth=answer["depth"], leader=leader)


def line_words(answer: dict | None, hint: bool = False) -> str:
    """The engine's best move and the reply it expects, or ''."""
    if not answer or not answer.get("move"):
        return ""
    pv = answer.get("pv") or [answer["move"]]
    if hint:
        return (_("Hint: {move}, expected reply {reply}").format(move=pv[0], reply=pv[1]) if len(pv) > 1
                else _("Hint: {move}").format(move=pv[0]))
    return (_("Best {move}, then {reply}").format(move=pv[0], reply=pv[1]) if len(pv) > 1
            else _("Best {move}").format(move=pv[0]))


def bar_item(answer: dict | None) -> tuple | None:
    if answer is None:
        return None
    return (8, "evalbar", round(white_share(answer["white_score"]) * BAR_STEPS))


class AnalysisView(BoardView):
    """A board view that can also draw the evaluation bar."""

    def bar_rect(self) -> pygame.Rect:
        s = self.scale
        seen = self.viewport                  # the board, or the part magnified
        if self.panel_rect.x < seen.x:        # a right-to-left language: the panel on the left
            gap, start = seen.x - self.panel_rect.right, self.panel_rect.right
        else:
            gap, start = self.panel_rect.x - seen.right, seen.right
        width = max(4, min(int(12 * s), gap - 4))
        x = start + (gap - width) // 2
        my = 0 if self.zoomed else self.art.my
        return pygame.Rect(x, seen.y + my, width, seen.h - 2 * my)

    def _item_rects(self, key: tuple) -> list[pygame.Rect]:
        if key[1] == "evalbar":
            return [self.bar_rect()]
        return super()._item_rects(key)

    def draw_item(self, surface: pygame.Surface, key: tuple, panel) -> None:
        if key[1] != "evalbar":
            super().draw_item(surface, key, panel)
            return
        rect = self.bar_rect()
        white_h = int(rect.h * key[2] / BAR_STEPS)
        radius = rect.w // 2
        pygame.draw.rect(surface, (28, 30, 34), rect, border_radius=radius)
        white = pygame.Rect(rect.x, rect.bottom - white_h, rect.w, white_h)
        if self.flipped:
            white.y = rect.y
        if white_h:
            pygame.draw.rect(surface, (238, 232, 214), white, border_radius=radius)
        mid = rect.centery
        pygame.draw.line(surface, GOLD, (rect.x - 2, mid), (rect.right + 1, mid), max(1, int(self.scale)))
