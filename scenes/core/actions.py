"""Virtual buttons: what every device is mapped to before any scene sees it."""
from __future__ import annotations

from enum import Enum, auto
from typing import NamedTuple


class Action(Enum):
    # focus and choice (keyboard arrows, D-pad, left stick)
    UP = auto()
    DOWN = auto()
    LEFT = auto()
    RIGHT = auto()
    SELECT = auto()       # Enter/Space, gamepad A
    BACK = auto()         # Escape/Backspace, gamepad B: deselect, or leave
    PAUSE = auto()        # P, gamepad Start: the pause menu
    HINT = auto()         # H, gamepad X
    UNDO = auto()         # Ctrl+Z, U, gamepad Y
    REDO = auto()         # Ctrl+Y, Ctrl+Shift+Z, gamepad left shoulder
    CYCLE = auto()        # Tab, mouse wheel, gamepad right shoulder: next alternative
    NEW_DEAL = auto()     # N, Ctrl+N
    RESTART = auto()      # R
    AUTOPLAY = auto()     # A, gamepad Back: toggle automatic play
    FULLSCREEN = auto()   # F11, Alt+Enter
    FIRST = auto()        # Home: to the start (a replay's first move)
    LAST = auto()         # End: to the end
    READ_POSITION = auto()  # F2, the right stick's click: say the whole position (speech)
    # pointer (mouse, or a finger: scenes.core.touch); these carry ``pos``
    POINTER_MOVE = auto()
    POINTER_DOWN = auto()
    POINTER_UP = auto()
    DOUBLE_CLICK = auto()
    # devices and window
    DEVICE_LOST = auto()  # a gamepad was unplugged
    DEVICE_ADDED = auto()
    FOCUS_LOST = auto()   # the window lost focus
    QUIT = auto()
    OTHER = auto()        # a key or button with no meaning (ends a demo)
    # a text field has the keyboard (InputMapper.typing): chat, addresses
    TEXT = auto()         # typed characters, in ``text``
    ERASE = auto()        # Backspace: the character before the cursor


DIRECTIONS = {Action.UP: (0, -1), Action.DOWN: (0, 1), Action.LEFT: (-1, 0), Action.RIGHT: (1, 0)}


class InputEvent(NamedTuple):
    """One action, with where the pointer was and which device produced it.
    A frozen record: a named tuple, which start-up makes in a fraction of a
    dataclass's time."""

    action: Action
    pos: tuple[int, int] | None = None
    device: str = "keyboard"  # "keyboard", "mouse", "touch" or "gamepad"
    button: int = 1           # mouse button for POINTER_DOWN/UP
    amount: int = 0           # wheel steps for CYCLE from a wheel
    text: str = ""            # what was typed (TEXT), or a digit "0"‥"9" / "\b" for number entry

    @property
    def is_pointer(self) -> bool:
        return self.action in (Action.POINTER_MOVE, Action.POINTER_DOWN,
                               Action.POINTER_UP, Action.DOUBLE_CLICK)
