"""Fingers → the pointer's actions (the same ones a mouse makes), in one place.

A touch screen sends FINGERDOWN / FINGERMOTION / FINGERUP with positions
normalised to the window (0 … 1); SDL also makes mouse events of them, which
:class:`~scenes.core.input.InputMapper` ignores (their ``touch`` is true), so
every finger is read once, here. What a finger means is known only once it
moves, lifts or stays:

- a **tap** (down and up without moving) is a click: POINTER_DOWN and
  POINTER_UP where it touched; two taps close in time and place are a double
  click;
- a **drag** (moved past ``slop``) presses where the finger came down and
  follows it: a mouse drag;
- a **long press** (held still ``LONG_PRESS_SECONDS``) is a right-click there,
  what a right-click would do (deselect; in a replay, a step back; in Help,
  back) — said at once, while the finger is still down;
- a **two-finger tap** (a second finger within ``TWO_FINGER_SECONDS``, both
  lifted soon, neither moved) is Undo.

After a finger lifts the pointer is nowhere (a move off the window): nothing
stays lit as if hovered, since no finger hovers.
"""
from __future__ import annotations

from .actions import Action, InputEvent

LONG_PRESS_SECONDS = 0.5
TWO_FINGER_SECONDS = 0.25     # the second finger comes down this soon after the first ...
TWO_FINGER_TAP_SECONDS = 0.6  # ... and both are lifted within this time of the first
SLOP_SHARE = 0.02             # of the window's shorter side: a finger wobbles this much
NOWHERE = (-1, -1)            # the pointer's place once no finger touches
Finger = tuple[int, int]      # (touch device, finger): SDL numbers fingers per device


class Touches:
    """The fingers down now and what they are taken to mean (one gesture at a
    time: a finger that comes down during a drag is ignored)."""

    def __init__(self) -> None:
        self.fingers: dict[Finger, list] = {}   # → [where it came down, where it is]
        self.gesture: str | None = None      # "pending", "drag", "held", "two", "none"
        self.started = 0.0                   # when the first finger came down (game time)
        self.first: Finger | None = None     # the finger the gesture follows

    @property
    def waiting(self) -> bool:
        """A finger is down and may become a long press: time must go on."""
        return self.gesture == "pending"

    def down(self, finger: Finger, pos: tuple[int, int], now: float) -> list[InputEvent]:
        if not self.fingers:
            self.fingers[finger] = [pos, pos]
            self.gesture, self.started, self.first = "pending", now, finger
            return []
        self.fingers[finger] = [pos, pos]
        soon = now - self.started <= TWO_FINGER_SECONDS
        if self.gesture == "pending" and len(self.fingers) == 2 and soon:
            self.gesture = "two"
        elif self.gesture != "drag":
            self.gesture = "none"            # three fingers, or a second one late: nothing
        return []

    def move(self, finger: Finger, pos: tuple[int, int], slop: float) -> list[InputEvent]:
        if finger not in self.fingers:
            return []
        start = self.fingers[finger][0]
        self.fingers[finger][1] = pos
        moved = abs(pos[0] - start[0]) > slop or abs(pos[1] - start[1]) > slop
        if self.gesture == "pending" and moved:
            self.gesture = "drag"
            return [InputEvent(Action.POINTER_MOVE, start, "touch"),
                    InputEvent(Action.POINTER_DOWN, start, "touch", 1),
                    InputEvent(Action.POINTER_MOVE, pos, "touch")]
        if self.gesture == "drag" and finger == self.first:
            return [InputEvent(Action.POINTER_MOVE, pos, "touch")]
        if self.gesture == "two" and moved:
            self.gesture = "none"            # a pinch or a swipe: no tap
        return []

    def up(self, finger: Finger, pos: tuple[int, int], now: float, double) -> list[InputEvent]:
        """``double(pos)`` says whether a tap here completes a double tap."""
        if finger not in self.fingers:
            return []
        self.fingers.pop(finger)
        gesture = self.gesture
        out: list[InputEvent] = []
        if gesture == "pending":
            out = [InputEvent(Action.POINTER_MOVE, pos, "touch"),
                   InputEvent(Action.POINTER_DOWN, pos, "touch", 1)]
            if double(pos):
                out.append(InputEvent(Action.DOUBLE_CLICK, pos, "touch"))
            out.append(InputEvent(Action.POINTER_UP, pos, "touch", 1))
        elif gesture == "drag" and finger == self.first:
            out = [InputEvent(Action.POINTER_MOVE, pos, "touch"),
                   InputEvent(Action.POINTER_UP, pos, "touch", 1)]
        elif gesture == "two" and not self.fingers and now - self.started <= TWO_FINGER_TAP_SECONDS:
            out = [InputEvent(Action.UNDO, device="touch")]
        if gesture in ("pending", "drag", "held") and finger == self.first:
            out.append(InputEvent(Action.POINTER_MOVE, NOWHERE, "touch"))
            self.gesture = "none"
        if not self.fingers:
            self.gesture, self.first = None, None
        return out

    def tick(self, now: float) -> list[InputEvent]:
        """A finger held still long enough: the long press, at once."""
        if self.gesture != "pending" or now - self.started < LONG_PRESS_SECONDS:
            return []
        self.gesture = "held"
        pos = self.fingers[self.first][1]
        return [InputEvent(Action.POINTER_MOVE, pos, "touch"),
                InputEvent(Action.POINTER_DOWN, pos, "touch", 3),
                InputEvent(Action.POINTER_UP, pos, "touch", 3)]

    def cancel(self) -> None:
        """The window lost the fingers (focus lost): forget them."""
        self.fingers.clear()
        self.gesture, self.first = None, None


class FingerScroll:
    """A list or page that scrolls under a finger drawn up or down (a wheel's
    steps): ``press``, then ``move`` gives the steps to scroll (whole ``step``
    px of the finger's travel each), ``release`` ends it."""

    def __init__(self) -> None:
        self.last_y: int | None = None
        self.moved = False

    def press(self, event: InputEvent) -> None:
        self.last_y = event.pos[1] if event.device == "touch" else None
        self.moved = False

    def move(self, event: InputEvent, step: int) -> int:
        """Steps to scroll by (positive: on, as the finger goes up)."""
        if self.last_y is None or event.device != "touch" or event.pos == NOWHERE or step <= 0:
            return 0
        steps = int((self.last_y - event.pos[1]) / step)
        if steps:
            self.last_y -= steps * step
            self.moved = True
        return steps

    def release(self) -> bool:
        """Ends the drag; True when it scrolled (the lift is no tap then)."""
        moved, self.last_y, self.moved = self.moved, None, False
        return moved
