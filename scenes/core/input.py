"""Mouse, keyboard, touch and gamepad → :class:`Action` events.

Scenes never read a device: the app feeds every pygame event to
:class:`InputMapper`, which returns InputEvents. Gamepads are SDL game
controllers (``pygame._sdl2.controller``), opened when plugged in and closed
when unplugged; unplugging one emits DEVICE_LOST so a game can pause.

A pad SDL has no game-controller mapping for is still a joystick: its hat and
first two axes move like the D-pad and stick, its first buttons follow the
usual A, B, X, Y, LB, RB, Back, Start order. Joystick events of a pad that is
open as a game controller are ignored (SDL sends both kinds for it).

Fingers are read in :mod:`scenes.core.touch` (taps, drags, long presses,
two-finger taps), as the mouse's actions with ``device="touch"``; the mouse
events SDL makes of a finger (``touch`` true) are ignored, so a finger counts
once.
"""
from __future__ import annotations

import pygame

from .actions import DIRECTIONS, Action, InputEvent
from .touch import SLOP_SHARE, Touches


def _load_controller_api():
    """pygame-ce's SDL game-controller API (``pygame._sdl2.controller``), or
    None without it. Loaded when the first pad is seen, not at every launch:
    ``pygame._sdl2`` costs over a millisecond before the first frame (start-up)."""
    try:
        from pygame._sdl2 import controller
    except ImportError:  # pragma: no cover - every pygame-ce we support has it
        return None
    return controller

DOUBLE_CLICK_SECONDS = 0.4
DOUBLE_CLICK_SLOP = 8          # px the pointer may move between the two clicks
STICK_THRESHOLD = 16000        # of 32767: past this the stick is a direction
STICK_REPEAT_DELAY = 0.35      # s before a held stick repeats
STICK_REPEAT_EVERY = 0.12

KEYS = {
    pygame.K_UP: Action.UP, pygame.K_DOWN: Action.DOWN,
    pygame.K_LEFT: Action.LEFT, pygame.K_RIGHT: Action.RIGHT,
    pygame.K_RETURN: Action.SELECT, pygame.K_KP_ENTER: Action.SELECT,
    pygame.K_SPACE: Action.SELECT,
    pygame.K_ESCAPE: Action.BACK, pygame.K_BACKSPACE: Action.BACK,
    pygame.K_p: Action.PAUSE, pygame.K_h: Action.HINT, pygame.K_u: Action.UNDO,
    pygame.K_TAB: Action.CYCLE, pygame.K_n: Action.NEW_DEAL, pygame.K_r: Action.RESTART,
    pygame.K_a: Action.AUTOPLAY, pygame.K_F11: Action.FULLSCREEN,
    pygame.K_HOME: Action.FIRST, pygame.K_END: Action.LAST,
    pygame.K_F2: Action.READ_POSITION,
}
CTRL_KEYS = {pygame.K_z: Action.UNDO, pygame.K_y: Action.REDO, pygame.K_n: Action.NEW_DEAL,
             pygame.K_r: Action.RESTART}

PAD_BUTTONS = {
    pygame.CONTROLLER_BUTTON_DPAD_UP: Action.UP,
    pygame.CONTROLLER_BUTTON_DPAD_DOWN: Action.DOWN,
    pygame.CONTROLLER_BUTTON_DPAD_LEFT: Action.LEFT,
    pygame.CONTROLLER_BUTTON_DPAD_RIGHT: Action.RIGHT,
    pygame.CONTROLLER_BUTTON_A: Action.SELECT,
    pygame.CONTROLLER_BUTTON_B: Action.BACK,
    pygame.CONTROLLER_BUTTON_X: Action.HINT,
    pygame.CONTROLLER_BUTTON_Y: Action.UNDO,
    pygame.CONTROLLER_BUTTON_START: Action.PAUSE,
    pygame.CONTROLLER_BUTTON_BACK: Action.AUTOPLAY,
    pygame.CONTROLLER_BUTTON_LEFTSHOULDER: Action.REDO,
    pygame.CONTROLLER_BUTTON_RIGHTSHOULDER: Action.CYCLE,
    pygame.CONTROLLER_BUTTON_RIGHTSTICK: Action.READ_POSITION,
}

JOY_BUTTONS = [Action.SELECT, Action.BACK, Action.HINT, Action.UNDO, Action.REDO,
               Action.CYCLE, Action.AUTOPLAY, Action.PAUSE]
JOY_THRESHOLD = STICK_THRESHOLD / 32767   # joystick axes come as -1.0 … 1.0
MOUSE_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)


class InputMapper:
    def __init__(self) -> None:
        self.controllers: dict[int, object] = {}  # instance id → Controller
        self.joysticks: dict[int, object] = {}    # instance id → Joystick (no mapping)
        self._last_click: tuple[float, tuple[int, int]] | None = None  # (time, pos)
        self.now = 0.0  # game time, advanced by update(): double-clicks are
        # measured in it, so a test (or a slow frame) sees the same thing
        self._stick: tuple[int, int] = (0, 0)
        self._stick_held = 0.0
        self._stick_next = 0.0
        self.last_device = "mouse"      # "mouse", "touch", "keyboard" or "gamepad"
        self.touches = Touches()
        self.touch_used = False         # a finger touched the window this run (touch mode)
        # While a text field has the keyboard, letters are text (TEXTINPUT), not
        # commands: "a" types an a instead of switching on automatic play.
        self.typing = False
        self._pads = None        # the game-controller API, once started (_controller_api)
        self.start_pads()

    def start_pads(self) -> None:
        """Open the pads plugged in, if any, once the joystick subsystem is up
        (the app starts it after its first frame); else the game-controller API
        starts with the first pad plugged in."""
        try:
            plugged = pygame.joystick.get_init() and pygame.joystick.get_count() > 0
        except pygame.error:
            plugged = False
        if plugged:
            self._controller_api()

    def _controller_api(self):
        """The game-controller API, started (once) with every pad there opened;
        None without it."""
        if self._pads is None:
            self._pads = _load_controller_api() or False
            if self._pads:
                try:
                    self._pads.init()
                    for index in range(self._pads.get_count()):
                        self._open(index)
                except pygame.error:
                    pass
        return self._pads or None

    @property
    def pointing(self) -> bool:
        """The last input pointed (mouse or finger): no keyboard focus shown."""
        return self.last_device in ("mouse", "touch")

    @property
    def gamepad_connected(self) -> bool:
        return bool(self.controllers or self.joysticks)

    def _open(self, device_index: int) -> None:
        pads = self._controller_api()
        if pads is None:
            return
        try:
            pad = pads.Controller(device_index)
        except (pygame.error, IndexError):
            return
        joystick = pad.as_joystick()
        self.controllers[joystick.get_instance_id()] = pad

    def translate(self, event: pygame.event.Event) -> list[InputEvent]:
        """One pygame event → the actions it means (often none)."""
        kind = event.type
        if kind == pygame.QUIT:
            return [InputEvent(Action.QUIT)]
        if kind == pygame.WINDOWFOCUSLOST:
            self.touches.cancel()
            return [InputEvent(Action.FOCUS_LOST)]
        if kind == pygame.KEYDOWN:
            return self._key(event)
        if kind == pygame.TEXTINPUT:
            return [InputEvent(Action.TEXT, text=event.text)] if self.typing else []
        if kind in (pygame.FINGERDOWN, pygame.FINGERMOTION, pygame.FINGERUP):
            return self._finger(event)
        if kind in MOUSE_EVENTS and getattr(event, "touch", False):
            return []       # SDL's mouse copy of a finger: the finger itself is read
        if kind == pygame.MOUSEMOTION:
            self.last_device = "mouse"
            last = self._last_click
            if last is not None and getattr(event, "buttons", (0,))[0] and (
                    abs(event.pos[0] - last[1][0]) > DOUBLE_CLICK_SLOP
                    or abs(event.pos[1] - last[1][1]) > DOUBLE_CLICK_SLOP):
                self._last_click = None   # that press began a drag: not half a double-click
            return [InputEvent(Action.POINTER_MOVE, event.pos, "mouse")]
        if kind == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.last_device = "mouse"
            out = [InputEvent(Action.POINTER_DOWN, event.pos, "mouse", event.button)]
            if event.button == 1 and self._is_double(event.pos):
                out.append(InputEvent(Action.DOUBLE_CLICK, event.pos, "mouse"))
            return out
        if kind == pygame.MOUSEBUTTONDOWN:
            return [InputEvent(Action.OTHER, event.pos, "mouse", event.button)]
        if kind == pygame.MOUSEBUTTONUP and event.button in (1, 3):
            return [InputEvent(Action.POINTER_UP, event.pos, "mouse", event.button)]
        if kind == pygame.MOUSEWHEEL:
            if event.y:
                return [InputEvent(Action.CYCLE, pygame.mouse.get_pos(), "mouse",
                                   amount=-1 if event.y > 0 else 1)]
            return []
        if kind == pygame.CONTROLLERDEVICEADDED:
            self._open(event.device_index)
            return [InputEvent(Action.DEVICE_ADDED, device="gamepad")]
        if kind == pygame.CONTROLLERDEVICEREMOVED:
            pad = self.controllers.pop(getattr(event, "instance_id", -1), None)
            if pad is not None:
                try:
                    pad.quit()
                except pygame.error:
                    pass
            # Fake (test) events or a pad we never opened still mean "a pad went".
            return [InputEvent(Action.DEVICE_LOST, device="gamepad")]
        if kind == pygame.CONTROLLERBUTTONDOWN:
            self.last_device = "gamepad"
            return [InputEvent(PAD_BUTTONS.get(event.button, Action.OTHER), device="gamepad")]
        if kind == pygame.CONTROLLERAXISMOTION:
            return self._axis(event)
        if kind in (pygame.JOYHATMOTION, pygame.JOYAXISMOTION, pygame.JOYBUTTONDOWN):
            return self._joystick(event)
        if kind == pygame.JOYDEVICEADDED:
            self._open_joystick(event.device_index)
        elif kind == pygame.JOYDEVICEREMOVED and \
                self.joysticks.pop(getattr(event, "instance_id", -1), None) is not None:
            return [InputEvent(Action.DEVICE_LOST, device="gamepad")]
        return []

    def _open_joystick(self, device_index: int) -> None:
        """Open a pad that is no game controller, so its events come at all."""
        try:
            pads = self._controller_api()
            if pads is not None and pads.is_controller(device_index):
                return
            stick = pygame.joystick.Joystick(device_index)
            stick.init()
        except (pygame.error, IndexError):
            return
        self.joysticks[stick.get_instance_id()] = stick

    def _joystick(self, event) -> list[InputEvent]:
        if getattr(event, "instance_id", None) in self.controllers:
            return []   # a game controller: its CONTROLLER* events carry the meaning
        if event.type == pygame.JOYBUTTONDOWN:
            self.last_device = "gamepad"
            action = JOY_BUTTONS[event.button] if 0 <= event.button < len(JOY_BUTTONS) else Action.OTHER
            return [InputEvent(action, device="gamepad")]
        if event.type == pygame.JOYHATMOTION:
            if event.hat != 0:
                return []
            hx, hy = event.value
            return self._direction(hx, -hy)          # a hat's up is +1, the screen's −1
        if event.axis not in (0, 1):
            return []
        value = -1 if event.value < -JOY_THRESHOLD else 1 if event.value > JOY_THRESHOLD else 0
        x, y = self._stick
        return self._direction(value, y) if event.axis == 0 else self._direction(x, value)

    def _key(self, event) -> list[InputEvent]:
        self.last_device = "keyboard"
        mods = event.mod
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and mods & pygame.KMOD_ALT:
            return [InputEvent(Action.FULLSCREEN)]
        if self.typing and not mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            if event.key == pygame.K_BACKSPACE:
                return [InputEvent(Action.ERASE)]
            if event.key == pygame.K_SPACE:
                return []                      # a space is text (TEXTINPUT)
            action = KEYS.get(event.key)
            navigation = (Action.SELECT, Action.BACK, Action.CYCLE, Action.FULLSCREEN, *DIRECTIONS)
            return [InputEvent(action)] if action in navigation else []
        if mods & pygame.KMOD_CTRL:
            if event.key == pygame.K_z and mods & pygame.KMOD_SHIFT:
                return [InputEvent(Action.REDO)]
            action = CTRL_KEYS.get(event.key)
            return [InputEvent(action or Action.OTHER)]
        typed = getattr(event, "unicode", "") or ""
        text = typed if len(typed) == 1 and typed.isdigit() else \
            "\b" if event.key == pygame.K_BACKSPACE else ""
        return [InputEvent(KEYS.get(event.key, Action.OTHER), text=text)]

    def _finger(self, event) -> list[InputEvent]:
        try:
            width, height = pygame.display.get_window_size()
        except pygame.error:
            return []                           # no window: nowhere to touch
        pos = (round(min(max(event.x, 0.0), 1.0) * (width - 1)),
               round(min(max(event.y, 0.0), 1.0) * (height - 1)))
        finger = (getattr(event, "touch_id", 0), event.finger_id)
        self.last_device = "touch"
        self.touch_used = True
        if event.type == pygame.FINGERDOWN:
            return self.touches.down(finger, pos, self.now)
        if event.type == pygame.FINGERMOTION:
            return self.touches.move(finger, pos, SLOP_SHARE * min(width, height))
        slop = SLOP_SHARE * min(width, height)
        return self.touches.up(finger, pos, self.now, lambda at: self._is_double(at, slop))

    def _is_double(self, pos: tuple[int, int], slop: float = DOUBLE_CLICK_SLOP) -> bool:
        now = self.now
        last = self._last_click
        self._last_click = (now, pos)
        if last is None:
            return False
        then, where = last
        if now - then <= DOUBLE_CLICK_SECONDS and abs(pos[0] - where[0]) <= slop \
                and abs(pos[1] - where[1]) <= slop:
            self._last_click = None  # a third click starts afresh
            return True
        return False

    def _axis(self, event) -> list[InputEvent]:
        x, y = self._stick
        if event.axis == pygame.CONTROLLER_AXIS_LEFTX:
            x = -1 if event.value < -STICK_THRESHOLD else 1 if event.value > STICK_THRESHOLD else 0
        elif event.axis == pygame.CONTROLLER_AXIS_LEFTY:
            y = -1 if event.value < -STICK_THRESHOLD else 1 if event.value > STICK_THRESHOLD else 0
        else:
            return []
        return self._direction(x, y)

    def _direction(self, x: int, y: int) -> list[InputEvent]:
        """The stick (or hat) now points (x, y): the actions of a new direction."""
        changed = (x, y) != self._stick
        self._stick = (x, y)
        if not changed or (x, y) == (0, 0):
            return []
        self.last_device = "gamepad"
        self._stick_held = 0.0
        self._stick_next = STICK_REPEAT_DELAY
        return self._stick_actions()

    def _stick_actions(self) -> list[InputEvent]:
        x, y = self._stick
        out = []
        if x:
            out.append(InputEvent(Action.LEFT if x < 0 else Action.RIGHT, device="gamepad"))
        if y:
            out.append(InputEvent(Action.UP if y < 0 else Action.DOWN, device="gamepad"))
        return out

    @property
    def holding(self) -> bool:
        """A stick is held (its repeats come from the frames, which must go
        on), or a finger that may become a long press."""
        return self._stick != (0, 0) or self.touches.waiting

    def update(self, dt: float) -> list[InputEvent]:
        """Advance time; repeats of a held stick (keyboard repeat comes from SDL)."""
        self.now += dt
        out = self.touches.tick(self.now) if self.touches.waiting else []
        if self._stick == (0, 0):
            return out
        self._stick_held += dt
        if self._stick_held < self._stick_next:
            return out
        self._stick_next += STICK_REPEAT_EVERY
        return out + self._stick_actions()
