"""The column beside the board at a network table: the table's name and invite
code, both clocks, who is watching, and the table chat with its text field.

:class:`TableColumn` is a part of the online board screen
(:class:`~scenes.table.board_screen.Part`): it takes its strip of the play
area, owns the chat field's input and repaints itself only when what it shows
changed. What it shows comes from the table's view (``game.net.view``), folded
from the server's messages by the session.
"""
from __future__ import annotations

import pygame

from ..core.text_field import TextField
from ..core.ui import GOLD, INK, INK_DIM, draw_text, rounded_panel, wrap_text
from ..store.terms import SIDES, term
from ..table.board_layers import COLORS
from ..table.board_screen import Part
from ..store.words import N_, _

CHAT_SHOWN = 40                    # the last chat lines there may be room for
CHAT_LIMIT = 500                   # characters, as the server allows


def clock_text(ms: float) -> str:
    seconds = max(0, int(ms + 999) // 1000)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class TableColumn(Part):
    """Clocks, watchers and chat of one network table (``screen``: its online
    board screen: the table's view, the seats' names, the result)."""

    def __init__(self, app, screen, say) -> None:
        self.screen = screen
        self.chat_field = TextField(app, N_("Chat: click here or press H"), CHAT_LIMIT, say)
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.scale = 1.0
        self._drawn = None

    def layout(self, area: pygame.Rect, scale: float) -> pygame.Rect:
        s = self.scale = scale
        side_w = int(min(320 * s, area.w * 0.26))
        gap = int(18 * s)
        self.rect = pygame.Rect(area.right - side_w, area.y + int(6 * s), side_w, area.h - int(12 * s))
        field_h = int(36 * s)
        pad = int(12 * s)
        self.chat_field.rect = pygame.Rect(self.rect.x + pad, self.rect.bottom - pad - field_h,
                                           self.rect.w - 2 * pad, field_h)
        self._drawn = None
        return pygame.Rect(area.x, area.y, area.w - side_w - gap, area.h)

    def handle(self, event) -> bool:
        return self.chat_field.handle(event)

    def state(self) -> tuple:
        screen = self.screen
        info = screen.info
        clocks = tuple(None if (ms := screen.clock_ms(c)) is None else clock_text(ms) for c in COLORS)
        running = (info.clocks or {}).get("running") if screen.result is None else None
        return (clocks, running, tuple(info.spectators), tuple(info.chat)[-CHAT_SHOWN:],
                self.chat_field.text, self.chat_field.active,
                tuple(screen.side_label(c) for c in COLORS), info.invite)

    def resting_changes(self) -> list[pygame.Rect]:
        state = self.state()
        if state == self._drawn:
            return []
        self._drawn = state
        return [self.rect.inflate(4, 4)]

    def resting_rebuilt(self) -> None:
        self._drawn = self.state()

    def draw_resting(self, surface: pygame.Surface, clip) -> None:
        if clip is None or clip.colliderect(self.rect):
            self._draw(surface)

    def _draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        rect = self.rect
        surface.blit(rounded_panel(rect.size, radius=int(14 * s)), rect)
        pad = int(14 * s)
        x, y, width = rect.x + pad, rect.y + pad, rect.w - 2 * pad
        (clocks, running, watchers, chat, _unused, _unused2, names, invite) = self.state()
        table_id = self.screen.table_id
        draw_text(surface, _("Table {table}").format(table=table_id)
                  + (_(" · invite code {code}").format(code=f"{table_id}-{invite}") if invite else ""),
                  22 * s, (x, y), INK_DIM)
        y += int(30 * s)
        for color, name, clock in zip(COLORS, names, clocks):
            live = running == color
            draw_text(surface, f"{term(SIDES, color)}: {name}", 21 * s, (x, y),
                      GOLD if live else INK)
            draw_text(surface, clock if clock else _("no clock"), (30 if clock else 19) * s,
                      (rect.right - pad, y + int(10 * s)), GOLD if live else INK_DIM, anchor="midright")
            y += int(34 * s)
        who = ", ".join(watchers) if watchers else _("nobody")
        for line in wrap_text(_("Watching: {names}").format(names=who), int(19 * s), width)[:2]:
            draw_text(surface, line, 19 * s, (x, y), INK_DIM)
            y += int(22 * s)
        y += int(6 * s)
        pygame.draw.line(surface, (90, 120, 100), (x, y), (rect.right - pad, y), max(1, int(s)))
        y += int(8 * s)
        draw_text(surface, _("Chat"), 21 * s, (x, y), INK_DIM)
        y += int(26 * s)
        px = int(19 * s)
        line_h = int(22 * s)
        lines: list[tuple[str, tuple]] = []
        for who, text in chat:
            said = f"{who}: {text}" if who else text
            lines += [(line, INK if who else GOLD) for line in wrap_text(said, px, width)]
        room = max(0, (self.chat_field.rect.y - int(8 * s) - y) // line_h)
        for line, color in lines[-room:] if room else []:
            draw_text(surface, line, px, (x, y), color)
            y += line_h
        self.chat_field.draw(surface, s)


__all__ = ["TableColumn", "clock_text", "CHAT_LIMIT", "CHAT_SHOWN"]
