"""A one-line text field: chat, a server's address, a name, an invite code.

The field takes the keyboard while it is active (``InputMapper.typing``): typed
characters arrive as Action.TEXT, Backspace as Action.ERASE, Enter submits and
Escape gives the keyboard back. A click on the field activates it.
"""
from __future__ import annotations

import unicodedata
from typing import Callable

import pygame

from .actions import Action, InputEvent
from .ui import FOCUS, FONTS, INK, INK_DIM, draw_text, held_weakly
from ..store.words import _

# What may not be typed: control and invisible format characters (the server
# refuses them too, docs/protocol.md).
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn"}


def clean(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) not in _REFUSED)


class TextField:
    def __init__(self, app, placeholder: str, limit: int,
                 on_submit: Callable[[str], None] | None = None, text: str = "") -> None:
        self.app = app
        self.placeholder = placeholder
        self.limit = limit
        self.on_submit = held_weakly(on_submit)     # the screen's method: no cycle through it
        self.text = text
        self.active = False
        self.rect: pygame.Rect | None = None

    def activate(self) -> None:
        if not self.active:
            self.active = True
            self.app.input.typing = True
            pygame.key.start_text_input()

    def deactivate(self) -> None:
        if self.active:
            self.active = False
            self.app.input.typing = False
            pygame.key.stop_text_input()

    def contains(self, pos) -> bool:
        return self.rect is not None and pos is not None and self.rect.collidepoint(pos)

    def handle(self, event: InputEvent) -> bool:
        """True when the field used the event."""
        a = event.action
        if a == Action.POINTER_DOWN and event.button == 1:
            if self.contains(event.pos):
                self.activate()
                return True
            self.deactivate()
            return False
        if not self.active:
            return False
        if a == Action.TEXT:
            self.text = (self.text + clean(event.text))[:self.limit]
        elif a == Action.ERASE:
            self.text = self.text[:-1]
        elif a == Action.SELECT:
            text = " ".join(self.text.split())
            if text and self.on_submit is not None:
                self.on_submit(text)
        elif a == Action.BACK:
            self.deactivate()
        else:
            return a in (Action.UP, Action.DOWN, Action.LEFT, Action.RIGHT, Action.CYCLE)
        return True

    def draw(self, surface: pygame.Surface, scale: float, blink: bool = True) -> None:
        rect = self.rect
        radius = max(3, int(8 * scale))
        pygame.draw.rect(surface, (10, 24, 18), rect, border_radius=radius)
        edge = FOCUS if self.active else (90, 120, 100)
        pygame.draw.rect(surface, edge, rect, width=max(1, int(2 * scale)), border_radius=radius)
        px = int(rect.h * 0.55)
        pad = int(10 * scale)
        if self.text:
            shown = self.text
            while shown and FONTS.font(px).size(shown)[0] > rect.w - 3 * pad:
                shown = shown[1:]                 # the end of a long line stays in view
            label = shown + ("|" if self.active and blink else "")
            draw_text(surface, label, px, (rect.x + pad, rect.centery), INK, anchor="midleft")
        else:
            hint = "|" if self.active and blink else _(self.placeholder)
            draw_text(surface, hint, px, (rect.x + pad, rect.centery), INK_DIM, anchor="midleft")
