"""Dialog overlays: pause menu, game over, messages. Drawn over the scene below."""
from __future__ import annotations

from typing import Callable

import pygame

from .actions import Action, InputEvent
from .announcer import announce
from .scene import Scene
from ..store.words import _, N_, right_to_left
from .ui import (FOCUS, FONTS, GOLD, INK, INK_DIM, Button, draw_text, layout_column, TallPanel,
                 text_scale, touch_target, ui_scale, wrap_text)


class FocusButtons:
    """A list of buttons navigated by arrows/D-pad, pointer hover and click.

    The pointer only lights the button it is over (``hover``): the keyboard
    focus stays where the keys put it, so Enter never activates whatever an
    idle pointer happens to rest on. A click moves the focus too."""

    def __init__(self, buttons: list[Button]) -> None:
        self.buttons = buttons
        self.focus = next((i for i, b in enumerate(buttons) if b.enabled), 0)
        self.hover: int | None = None
        self._pressed: Button | None = None

    def _step(self, delta: int) -> None:
        n = len(self.buttons)
        for k in range(1, n + 1):
            i = (self.focus + delta * k) % n
            if self.buttons[i].enabled:
                self.focus = i
                self.say_focus()
                return

    def say_focus(self) -> None:
        """The focused button's words, for the announcer."""
        if self.buttons:
            announce(_("{label}, button").format(label=self.buttons[self.focus].label))

    def handle(self, event: InputEvent) -> bool:
        """True when the event was used."""
        a = event.action
        back, on = (Action.RIGHT, Action.LEFT) if right_to_left() else (Action.LEFT, Action.RIGHT)
        if a in (Action.UP, back):          # the previous button in reading order
            self._step(-1)
        elif a in (Action.DOWN, on):
            self._step(1)
        elif a == Action.SELECT:
            if self.buttons and self.buttons[self.focus].enabled:
                self.buttons[self.focus].action()
        elif a == Action.POINTER_MOVE:
            self.hover = next((i for i, b in enumerate(self.buttons)
                               if b.enabled and b.contains(event.pos)), None)
            return False
        elif a == Action.POINTER_DOWN and event.button == 1:
            self._pressed = next((b for b in self.buttons if b.enabled and b.contains(event.pos)), None)
            if self._pressed is not None:
                self.focus = self.buttons.index(self._pressed)
            return self._pressed is not None
        elif a == Action.POINTER_UP and event.button == 1:
            pressed, self._pressed = self._pressed, None
            if pressed is not None and pressed.contains(event.pos):
                pressed.action()
                return True
            return False
        else:
            return False
        return True

    def draw(self, surface: pygame.Surface, scale: float) -> None:
        for i, b in enumerate(self.buttons):
            b.hot = i == self.focus
            b.hovered = i == self.hover
            b.draw(surface, scale)


class DialogScene(Scene):
    """A panel with a title, a few lines and buttons, over a dimmed scene."""

    opaque = False

    def __init__(self, app, title: str, lines: list[str],
                 buttons: list[tuple[str, Callable[[], None]]],
                 on_back: Callable[[], None] | None = None, accent=GOLD,
                 update_below: bool = False, dim: int = 120) -> None:
        super().__init__(app)
        self.title = title
        self.lines = lines
        self.accent = accent
        self.on_back = on_back
        self.update_below = update_below
        self.dim = dim
        self.focus = FocusButtons([Button(label, action) for label, action in buttons])
        self.age = 1.0 if app.settings.reduced_motion else 0.0   # reduced motion: no rise-in
        title, lines = _(title), [_(line) for line in lines]
        announce(" ".join([title if title.endswith(("!", "?", ".")) else f"{title}.", *lines]))
        self.focus.say_focus()

    def resize(self, size) -> None:
        super().resize(size)
        s = ui_scale(size)
        self.scale = s
        k = self.grow = text_scale()      # the text size: the panel grows with its text
        # as wide as the longest button's label needs (a language longer than English)
        label_px = int(46 * s * 0.5)
        widest = max((FONTS.font(label_px, bold=True).size(b.label)[0] for b in self.focus.buttons), default=0)
        self.panel_w = int(min(size[0] * 0.9, max(560 * s * k, (widest + 46 * s * k) / 0.7)))
        self.text_px = int(26 * s)
        self.wrapped = [w for line in self.lines for w in wrap_text(_(line), self.text_px, self.panel_w - int(60 * s))]
        # touch mode: buttons a finger can hit (layout_column grows them by k)
        bh, gap = max(int(46 * s), -(-touch_target(size) // k)), int(12 * s)
        title_h = int(70 * s * k)
        text_h = len(self.wrapped) * int(self.text_px * k * 1.25) + int(20 * s)
        n = len(self.focus.buttons)
        self.panel_h = title_h + text_h + n * int((bh + gap) * k) + int(30 * s)
        self.panel_rect = pygame.Rect(0, 0, self.panel_w, self.panel_h)
        self.panel_rect.center = (size[0] // 2, size[1] // 2)
        layout_column(self.focus.buttons, self.panel_rect.centerx,
                      self.panel_rect.y + title_h + text_h, int(self.panel_w * 0.7 / k), bh, gap)
        self.panel = TallPanel(self.panel_rect.size, radius=int(18 * s))   # no surface its size

    def handle(self, event: InputEvent) -> None:
        if self.focus.handle(event):
            return
        if event.action in (Action.BACK, Action.PAUSE) and self.on_back:
            self.on_back()

    def update(self, dt: float) -> None:
        self.age += dt

    RISE = 0.2       # s: the panel's rise-in
    SETTLED = 0.3    # s: by then it is drawn at rest (a few frames after the rise)

    def still_look(self) -> object:
        return True if self.age >= self.SETTLED else None

    def next_change_in(self) -> float:
        return super().next_change_in() if self.age >= self.SETTLED else 0.0

    def draw(self, surface: pygame.Surface) -> None:
        # Dim what is below: black at alpha ``dim``, as a multiply (no
        # full-screen shade surface to keep).
        keep = 255 - self.dim
        surface.fill((keep, keep, keep), special_flags=pygame.BLEND_RGB_MULT)
        # A short rise-in: the panel eases up from below over 0.2 s.
        t = min(1.0, self.age / self.RISE)
        offset = int((1 - (1 - (1 - t) ** 3) if t < 1 else 0) * 40 * self.scale)
        rect = self.panel_rect.move(0, offset)
        self.panel.blit_to(surface, rect.topleft)
        s = self.scale
        draw_text(surface, _(self.title), 48 * s, (rect.centerx, rect.y + int(38 * s * self.grow)),
                  self.accent, anchor="center", shadow=True)
        y = rect.y + int(78 * s * self.grow)
        for line in self.wrapped:
            draw_text(surface, line, self.text_px, (rect.centerx, y), INK, anchor="midtop")
            y += int(self.text_px * self.grow * 1.25)
        for b in self.focus.buttons:
            b.rect.y += offset
        self.focus.draw(surface, s)
        for b in self.focus.buttons:
            b.rect.y -= offset


MAX_DEAL = 999_999


class DealNumberDialog(DialogScene):
    """Choose a deal by its number: type the digits (Backspace takes one back),
    or left / right (D-pad) for one less or one more; then Deal."""

    def __init__(self, app, number: int, on_deal: Callable[[int], None], warning: str = "") -> None:
        self.number = max(1, min(MAX_DEAL, int(number)))
        self._typed = False          # the first digit typed replaces the number shown
        self.on_deal = on_deal
        lines = [N_("Type its number, or left / right for the one before or after.")]
        super().__init__(app, self._title(), lines + ([warning] if warning else []),
                         [(N_("Deal"), self._deal), (N_("Cancel"), self._cancel)], on_back=self._cancel)

    def _title(self) -> str:
        return _("Deal {number}").format(number=self.number)

    def _deal(self) -> None:
        self.app.scenes.remove(self)
        self.on_deal(self.number)

    def _cancel(self) -> None:
        self.app.scenes.remove(self)

    def handle(self, event: InputEvent) -> None:
        a = event.action
        if event.text.isdigit():
            digits = (str(self.number) if self._typed else "") + event.text
            self._typed = True
            self.number = max(1, min(MAX_DEAL, int(digits[-6:])))
        elif event.text == "\b":
            digits = str(self.number)[:-1]
            self._typed = True
            self.number = int(digits) if digits else 1
        elif a in (Action.LEFT, Action.RIGHT):
            self.number = max(1, min(MAX_DEAL, self.number + (1 if a == Action.RIGHT else -1)))
        else:
            super().handle(event)
            return
        self.title = self._title()


__all__ = ["DealNumberDialog", "DialogScene", "FocusButtons", "FOCUS", "INK_DIM"]
