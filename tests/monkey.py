"""The monkey: a long, seeded, random stream of input through the real app.

``run_monkey(seed, events)`` starts the app at the menu and posts pygame events
(mouse motion, clicks, drags, double-clicks, the wheel; fingers: taps, drags,
long presses, two-finger taps, with SDL's mouse copies; keys with and without
Ctrl/Alt; gamepad buttons, sticks, unplug and replug; window resizes, full-screen
toggles and focus loss), stepping 0 to many frames of 1/60 s in between, so
input lands mid-animation too. Where it clicks is sometimes anywhere and
sometimes aimed: the monkey may *look* at a scene (where its buttons, piles,
cards and squares are, and which moves the engine calls legal) but it only ever
acts through posted events. When it has stayed in one scene for long, or a
scene has not been visited yet, it walks there by input (pause menu, "Main
menu", the menu's tiles and buttons).

After every frame it watches the engine of the game on screen: moves played,
games finished; and it checks the engine's invariants when a game ends, when a
new game appears and every so often: a patience holds 52 cards and they are
the deal's deck; every legal move is accepted by a copy rebuilt from JSON; a
board position round-trips through its text. Any exception (or broken
invariant) stops the run and is reported with the seed, the event index and
the traceback.

    from tests.monkey import run_monkey
    report = run_monkey(seed=1, events=2000)
    assert report.ok, report.failure
"""
from __future__ import annotations

import importlib.util
import multiprocessing
import os
import random
import re
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.base import CardGame, Status  # noqa: E402
from scenes.core.app import App, AppOptions  # noqa: E402
from scenes.table.board_screen import BoardScreen  # noqa: E402
from scenes.table.game_scene import GameScene  # noqa: E402
from scenes.screens.menu import MenuScene  # noqa: E402
from scenes.screens.settings import SettingsScene  # noqa: E402
from scenes.screens.navigation import open_menu, playable_games  # noqa: E402
from scenes.core.overlays import DialogScene  # noqa: E402
from scenes.store.settings import Settings  # noqa: E402

DT = 1 / 60
STAY_LIMIT = 260          # events in one scene before the monkey walks away
CHECK_EVERY = 250         # events between routine invariant checks
# Every scene (by kind) a long enough run must have seen.
REQUIRED_SCENES = frozenset({"menu", "settings", "demo", "pause", "game-over", "board-setup",
                             *(f"game:{gid}" for gid in playable_games()),
                             *(["help"] if importlib.util.find_spec("scenes.screens.help") else []),
                             *(["stats"] if importlib.util.find_spec("scenes.screens.statistics") else [])})

KEYS = [pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN,
        pygame.K_SPACE, pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_TAB, pygame.K_p,
        pygame.K_h, pygame.K_u, pygame.K_n, pygame.K_r, pygame.K_a, pygame.K_F11,
        pygame.K_KP_ENTER, pygame.K_q, pygame.K_x, pygame.K_1, pygame.K_F1, pygame.K_DELETE]
PAD_BUTTONS = list(range(0, 21))
PAD_AXES = list(range(0, 6))
TOUCH_SHARE = 0.12        # of the mischief: fingers (taps, drags, long presses, two-finger taps)


@dataclass
class MonkeyReport:
    seed: int
    events: int = 0                  # input events posted (and window changes made)
    frames: int = 0
    scenes: Counter = field(default_factory=Counter)   # scene kind → events spent there
    games_finished: int = 0
    moves_played: int = 0
    checks: int = 0                  # invariant checks run
    relaunches: int = 0              # the app quit (Quit button) and was started again
    language_switches: int = 0       # the Settings language changed mid-run
    seconds: float = 0.0
    failure: str | None = None       # "seed S, event N: traceback"
    failed_at: int | None = None
    workers_left: list = field(default_factory=list)   # worker pids alive after the run

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def visited(self) -> set[str]:
        return set(self.scenes)

    def summary(self) -> str:
        return (f"seed {self.seed}: {self.events} events, {self.frames} frames, "
                f"{len(self.scenes)} scenes visited ({', '.join(sorted(self.scenes))}), "
                f"{self.games_finished} games finished, {self.moves_played} moves played, "
                f"{self.checks} invariant checks, {self.language_switches} language switches, "
                f"{self.seconds:.1f} s"
                + ("" if self.ok else f"\nFAILED at seed {self.seed}, event {self.failed_at}:\n"
                   f"{self.failure}"))


class InvariantError(AssertionError):
    pass


# --- the engines' invariants ----------------------------------------------------------
def check_engine(game, rng: random.Random | None = None, sample: int | None = None) -> None:
    """What must hold of any engine state (raises InvariantError). With ``sample``,
    only that many legal moves (chosen by ``rng``) are tried on the copy."""
    def require(cond, what):
        if not cond:
            raise InvariantError(f"{type(game).__name__}: {what}")

    data = game.to_json()
    copy = type(game).from_json(data)
    require(copy.to_json() == data, "to_json/from_json does not round-trip")
    if copy.status != game.status and not getattr(game, "dead_end_pending", False):
        # A status that comes of an end check kept out of play() (Hamilton's dead
        # ends) is derived: a copy has it once it runs the same check.
        copy.settle()
    require(copy.status == game.status, "a copy from JSON has another status")
    legal = game.legal_moves()
    if sample is not None and len(legal) > sample:
        legal = (rng or random).sample(legal, sample)
    for move in legal:
        try:
            copy.play(move)
        except Exception as exc:  # noqa: BLE001 - any refusal breaks the invariant
            raise InvariantError(f"{type(game).__name__}: legal move {move!r} refused by a copy: "
                                 f"{exc!r}") from exc
        copy.undo()
    require(copy.to_json() == data, "play+undo of every legal move is not the identity")
    if isinstance(game, CardGame):
        require(game.card_count() == 52, f"card_count() is {game.card_count()}")
        table = [card for pile in game.piles().values() for card, _ in pile]
        removed = list(getattr(game, "removed", []))
        deck = getattr(game, "deck", None)
        if deck is not None:
            require(sorted(map(str, table + removed)) == sorted(map(str, deck)),
                    "the cards on the table are not the deal's deck")
        require(len(set(map(str, table + removed))) == 52, "a card appears twice")
    if hasattr(game, "position_text"):
        text = game.position_text()
        again = type(game).from_position(text)
        require(again.position_text() == text, f"position {text!r} does not round-trip")
        require(copy.position_text() == text, "a copy from JSON is in another position")


GAME_SCENES = (GameScene, BoardScreen)   # a game on screen: a patience or the board

def scene_kind(app: App, scene) -> str:
    if isinstance(scene, MenuScene):
        return "menu"
    if isinstance(scene, SettingsScene):
        return "settings"
    if isinstance(scene, GAME_SCENES):
        return "demo" if scene.demo else f"game:{scene.game_id}"
    if isinstance(scene, DialogScene):
        below = app.scenes.scenes[-2] if len(app.scenes.scenes) > 1 else None
        if scene.title == "Paused":
            return "pause"
        if isinstance(below, GAME_SCENES) and below.game.status is not Status.PLAYING:
            return "game-over"
        if scene.title == "Camelot":
            return "board-setup"
        # A dialog by its kind: "Deal 101825" and "Deal 2308" are one kind of scene.
        return "dialog:" + re.sub(r"\d+", "N", scene.title)
    name = type(scene).__name__
    return name[:-len("Scene")].lower() if name.endswith("Scene") else name


def _point_in(rng: random.Random, rect: pygame.Rect) -> tuple[int, int]:
    return (rect.x + rng.randrange(max(1, rect.w)), rect.y + rng.randrange(max(1, rect.h)))


class Monkey:
    def __init__(self, seed: int, events: int, size=(1280, 720), progress=None) -> None:
        self.progress = progress      # called with the report every 5,000 events
        self._next_progress = 5000
        self.rng = random.Random(seed)
        self.limit = events
        self.stay_limit = max(40, min(STAY_LIMIT, events // 12))
        self.report = MonkeyReport(seed)
        settings = Settings(fullscreen=False, animation_speed=self.rng.choice(["fast", "normal"]),
                            sound=False)
        self.app = App(AppOptions(size=size, save_settings=False), settings=settings)
        open_menu(self.app)
        self.app.step(DT)
        self.pads = 1                 # gamepads "plugged in" (as far as events tell)
        self.pressed = False          # a mouse button is held
        self.pos = (size[0] // 2, size[1] // 2)
        self.here = None              # the scene on top, and for how many events
        self.stay = 0
        self.goal: str | None = None  # a scene kind the monkey is walking to
        self._games: dict[int, list] = {}   # id(scene) → [game, len(history), status]
        self._since_check = 0

    # --- posting -------------------------------------------------------------------------
    def post(self, kind: int, **attrs) -> None:
        pygame.event.post(pygame.event.Event(kind, **attrs))
        self.report.events += 1
        if "pos" in attrs:
            self.pos = attrs["pos"]

    def frames(self, n: int) -> None:
        for _ in range(n):
            self.app.step(DT)
            self.report.frames += 1
            if not self.app.running or not self.app.scenes.scenes:
                # The Quit button (or an emptied stack): start the app again.
                self.report.relaunches += 1
                self.app.running = True
                open_menu(self.app)
            self.watch()

    def some_frames(self) -> None:
        r = self.rng.random()
        if r < 0.40:
            return            # the next event lands in the same frame
        self.frames(1 if r < 0.80 else self.rng.randint(2, 4) if r < 0.96 else
                    self.rng.randint(8, 30))

    @property
    def size(self) -> tuple[int, int]:
        return self.app.size

    def random_pos(self) -> tuple[int, int]:
        w, h = self.size
        if self.rng.random() < 0.05:   # now and then just outside the window
            return (self.rng.randint(-20, w + 20), self.rng.randint(-20, h + 20))
        return (self.rng.randrange(w), self.rng.randrange(h))

    # --- looking (never acting) ------------------------------------------------------------
    def interesting_rects(self, scene) -> list[pygame.Rect]:
        rects: list[pygame.Rect] = []
        if isinstance(scene, MenuScene):
            rects += [b.rect for b in scene.tiles + scene.buttons]
        elif isinstance(scene, SettingsScene):
            rects += [b.rect for b in scene.rows]
        elif isinstance(scene, DialogScene):
            rects += [b.rect for b in scene.focus.buttons]
        elif isinstance(scene, GAME_SCENES):
            rects += [b.rect for b in scene.toolbar.buttons]
            table = scene.table
            if isinstance(scene, GameScene):
                for pile in list(table.slots):
                    rects.append(table.top_rect(pile))
                    rects.append(table.slot_rect(pile))
            elif table.view.art is not None:
                rects += [table.view.square_rect(sq) for sq in list(table.shown)]
        return [r for r in rects if r is not None and r.w > 0 and r.h > 0]

    def aim(self) -> tuple[int, int]:
        rects = self.interesting_rects(self.app.scenes.top)
        if rects and self.rng.random() < 0.7:
            return _point_in(self.rng, self.rng.choice(rects))
        return self.random_pos()

    def legal_drag(self, scene) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """A from → to pair of points for a legal move of the game on screen."""
        try:
            moves = scene.game.legal_moves()
        except Exception:  # noqa: BLE001 - looking only; the check reports engine errors
            return None
        if not moves:
            return None
        move = self.rng.choice(moves)
        table = scene.table
        if isinstance(scene, GameScene):
            source, target = getattr(move, "source", None), getattr(move, "target", None)
            if source not in table.slots:
                return None
            card = getattr(move, "card", None)
            start = table.card_rect(card) if card in table.sprites else table.top_rect(source)
            end = table.top_rect(target) if target in table.slots else start
            return _point_in(self.rng, start.inflate(-start.w // 3, -start.h // 3)), end.center
        view = table.view
        if hasattr(move, "from_square") and view.art is not None:
            return view.square_centre(move.from_square), view.square_centre(move.to_square)
        return None

    # --- watching the engines -----------------------------------------------------------
    def watch(self) -> None:
        top = self.app.scenes.top
        for scene in self.app.scenes.scenes:
            if isinstance(scene, GAME_SCENES):
                self._watch_game(scene)
        # A stay is counted per place: a question asked over a game (Restart?, New
        # deal?) and answered is still the same place, or a random R could keep the
        # walk from ever starting.
        place = next((s for s in reversed(self.app.scenes.scenes)
                      if not isinstance(s, DialogScene)), top)
        if place is not self.here:
            self.here = place
            self.stay = 0

    def _watch_game(self, scene: GameScene) -> None:
        game = scene.game
        seen = self._games.get(id(scene))
        length = len(game.history)
        if seen is None or seen[0] is not game:
            self._games[id(scene)] = seen = [game, length, game.status]
            self.check(game)
        if length > seen[1]:
            self.report.moves_played += length - seen[1]
        seen[1] = length
        if game.status is not Status.PLAYING and seen[2] is Status.PLAYING:
            self.report.games_finished += 1
            self.check(game, full=True)
        seen[2] = game.status

    def check(self, game, full: bool = False) -> None:
        self.report.checks += 1
        check_engine(game, self.rng, None if full else 6)

    # --- one step of mischief ----------------------------------------------------------------
    def mischief(self) -> None:
        rng = self.rng
        if rng.random() < TOUCH_SHARE:
            self.touch()
            return
        r = rng.random()
        if r < 0.22:
            self.post(pygame.MOUSEMOTION, pos=self.aim() if rng.random() < 0.6 else self.random_pos(),
                      rel=(0, 0), buttons=(1 if self.pressed else 0, 0, 0))
        elif r < 0.40:
            self.click(self.aim(), button=1 if rng.random() < 0.85 else rng.choice([2, 3]))
        elif r < 0.48:
            scene = self.app.scenes.top
            pair = self.legal_drag(scene) if isinstance(scene, GAME_SCENES) and rng.random() < 0.7 else None
            self.drag(*(pair or (self.aim(), self.aim())))
        elif r < 0.52:
            pos = self.aim()
            self.click(pos)
            if rng.random() < 0.6:
                self.frames(rng.randint(0, 3))
            self.click(pos)
        elif r < 0.55:
            self.post(pygame.MOUSEWHEEL, x=0, y=rng.choice([-1, 1, 0, 2]), flipped=False)
        elif r < 0.73:
            self.keypress()
        elif r < 0.84:
            self.post(pygame.CONTROLLERBUTTONDOWN, button=rng.choice(PAD_BUTTONS), instance_id=0)
            if rng.random() < 0.5:
                self.post(pygame.CONTROLLERBUTTONUP, button=rng.choice(PAD_BUTTONS), instance_id=0)
        elif r < 0.90:
            axis = rng.choice(PAD_AXES)
            value = rng.choice([0, 32767, -32768, rng.randint(-32768, 32767)])
            self.post(pygame.CONTROLLERAXISMOTION, axis=axis, value=value, instance_id=0)
        elif r < 0.925:
            if self.pads and rng.random() < 0.6:
                self.post(pygame.CONTROLLERDEVICEREMOVED, instance_id=rng.choice([0, 1, 7]))
                self.pads -= 1
            else:
                self.post(pygame.CONTROLLERDEVICEADDED, device_index=rng.choice([0, 1, 5]))
                self.pads += 1
        elif r < 0.95:
            self.resize()
        elif r < 0.958:
            self.post(pygame.WINDOWFOCUSLOST)
            if rng.random() < 0.7:
                self.post(pygame.WINDOWFOCUSGAINED)
        elif r < 0.968:
            self.switch_language()
        elif r < 0.975:
            self.post(pygame.KEYDOWN, key=pygame.K_F11 if rng.random() < 0.5 else pygame.K_RETURN,
                      mod=0 if rng.random() < 0.5 else pygame.KMOD_LALT, unicode="", scancode=0)
        else:
            self.post(pygame.KEYDOWN, key=rng.choice([pygame.K_z, pygame.K_y, pygame.K_n, pygame.K_r]),
                      mod=pygame.KMOD_LCTRL | (pygame.KMOD_LSHIFT if rng.random() < 0.3 else 0),
                      unicode="", scancode=0)

    # --- fingers ----------------------------------------------------------------------------
    def finger(self, kind: int, pos, finger_id: int = 0, mouse_copy: bool = True) -> None:
        """A finger event as SDL sends it (0 … 1 of the window), and now and then
        the mouse event SDL makes of it (``touch`` true: to be ignored)."""
        w, h = self.size
        self.post(kind, touch_id=1, finger_id=finger_id, x=pos[0] / max(1, w - 1),
                  y=pos[1] / max(1, h - 1), dx=0.0, dy=0.0, pressure=1.0)
        if mouse_copy and self.rng.random() < 0.5:
            copy = {pygame.FINGERDOWN: pygame.MOUSEBUTTONDOWN, pygame.FINGERUP: pygame.MOUSEBUTTONUP}
            if kind in copy:
                self.post(copy[kind], pos=pos, button=1, touch=True)
            else:
                self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0), touch=True)

    def touch(self) -> None:
        """Taps, finger drags (legal moves often), long presses, two-finger
        taps, and stray fingers (lifted unseen, a third finger, a gesture)."""
        rng = self.rng
        r = rng.random()
        if r < 0.40:
            pos = self.aim()
            self.finger(pygame.FINGERDOWN, pos)
            self.frames(rng.randint(0, 3))
            self.finger(pygame.FINGERUP, pos)
        elif r < 0.65:
            scene = self.app.scenes.top
            pair = self.legal_drag(scene) if isinstance(scene, GAME_SCENES) and rng.random() < 0.7 else None
            start, end = pair or (self.aim(), self.aim())
            self.finger(pygame.FINGERDOWN, start)
            steps = rng.randint(1, 8)
            for k in range(1, steps + 1):
                self.finger(pygame.FINGERMOTION, (start[0] + (end[0] - start[0]) * k // steps,
                                                  start[1] + (end[1] - start[1]) * k // steps))
                if rng.random() < 0.5:
                    self.frames(1)
            self.finger(pygame.FINGERUP, end)
        elif r < 0.80:
            pos = self.aim()
            self.finger(pygame.FINGERDOWN, pos)
            self.frames(rng.randint(25, 45))          # past the long press
            self.finger(pygame.FINGERUP, pos)
        elif r < 0.92:
            pos = self.aim()
            self.finger(pygame.FINGERDOWN, pos, 0)
            self.finger(pygame.FINGERDOWN, (pos[0] + 50, pos[1]), 1)
            self.frames(rng.randint(0, 6))
            self.finger(pygame.FINGERUP, pos, 0)
            self.finger(pygame.FINGERUP, (pos[0] + 50, pos[1]), 1)
        else:
            kind = rng.choice([pygame.FINGERDOWN, pygame.FINGERMOTION, pygame.FINGERUP, pygame.MULTIGESTURE])
            if kind == pygame.MULTIGESTURE:
                self.post(kind, touch_id=1, x=rng.random(), y=rng.random(), rotated=rng.uniform(-1, 1),
                          pinched=rng.uniform(-1, 1), num_fingers=rng.choice([2, 3]))
            else:
                self.finger(kind, self.random_pos(), rng.randint(0, 3), mouse_copy=False)

    def switch_language(self) -> None:
        """The player picks another language in Settings, wherever the app is:
        every screen speaks it at once (scenes.store.words)."""
        self.app.settings.language = self.rng.choice(["system", "en", "fr", "de", "es", "he"])
        self.app.save_settings()
        self.report.language_switches += 1
        self.report.events += 1

    def click(self, pos, button: int = 1) -> None:
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
        if self.rng.random() < 0.3:
            self.frames(self.rng.randint(0, 2))
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button)

    def drag(self, start, end) -> None:
        self.post(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
        self.pressed = True
        self.some_frames()
        steps = self.rng.randint(1, 8)
        for k in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * k // steps
            y = start[1] + (end[1] - start[1]) * k // steps
            self.post(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(1, 0, 0))
            if self.rng.random() < 0.5:
                self.frames(1)
            if self.rng.random() < 0.03:   # something else happens mid-drag
                self.mischief()
        self.post(pygame.MOUSEBUTTONUP, pos=end, button=1)
        self.pressed = False

    def keypress(self) -> None:
        rng = self.rng
        k = rng.choice(KEYS)
        self.post(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)
        if rng.random() < 0.3:
            self.post(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0)

    def resize(self) -> None:
        rng = self.rng
        if self.app.fullscreen:
            self.post(pygame.KEYDOWN, key=pygame.K_F11, mod=0, unicode="", scancode=0)
            return
        size = rng.choice([(640, 360), (800, 600), (1280, 720), (1920, 1080), (1024, 1366),
                           (rng.randint(640, 2000), rng.randint(360, 1400))])
        pygame.display.set_mode(size, pygame.RESIZABLE)
        self.report.events += 1
        if rng.random() < 0.5:
            self.app.on_window_resized()
        else:   # the way SDL tells it
            self.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])

    # --- walking somewhere on purpose --------------------------------------------------------
    def choose_goal(self) -> None:
        seen = self.report.scenes
        missing = [k for k in sorted(REQUIRED_SCENES) if k not in seen]
        if missing and self.rng.random() < 0.8:
            self.goal = self.rng.choice(missing)
        else:
            kinds = sorted(REQUIRED_SCENES)
            self.goal = min(kinds, key=lambda k: (seen[k], self.rng.random()))

    def walk(self) -> None:
        """One input towards ``self.goal`` (the goal is dropped once reached)."""
        app, rng = self.app, self.rng
        top = app.scenes.top
        kind = scene_kind(app, top)
        goal = self.goal
        if kind == goal:
            self.goal = None
            return
        if isinstance(top, MenuScene):
            if goal and goal.startswith("game:"):
                gid = goal[5:]
                tile = top.tiles[top.tile_ids.index(gid)]
                self.click(_point_in(rng, tile.rect))
            elif goal in ("settings", "demo", "help", "stats"):
                label = {"settings": "Settings", "demo": "Watch a demo", "help": "How to play",
                         "stats": "Statistics"}[goal]
                button = next((b for b in top.buttons if b.label == label), None)
                if button is None:
                    self.goal = None
                    return
                tile = rng.choice(top.tiles)     # the game the demo or help is about
                self.post(pygame.MOUSEMOTION, pos=_point_in(rng, tile.rect), rel=(0, 0),
                          buttons=(0, 0, 0))
                if rng.random() < 0.5:
                    self.frames(1)
                self.click(_point_in(rng, button.rect))
            elif goal == "board-setup":
                self.goal = "game:camelot-board"
            else:   # pause, game-over: first a game (a patience ends soonest)
                gid = rng.choice(["clock", "clock", "hamilton", "camelot-solitaire"])
                self.click(_point_in(rng, top.tiles[top.tile_ids.index(gid)].rect))
            return
        if isinstance(top, SettingsScene):
            self.post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
            return
        if isinstance(top, DialogScene):
            labels = [b.label for b in top.focus.buttons]
            if goal == "game:camelot-board" and kind == "board-setup":
                want = rng.choice(["Two players at this screen", "Play White against the computer",
                                   "Play Black against the computer"])
            elif goal == "game-over" and kind == "pause" and isinstance(app.scenes.scenes[-2], GAME_SCENES) \
                    and app.scenes.scenes[-2].game_id != "camelot-board":
                want = "Resume"
            else:
                want = "Main menu"
            button = top.focus.buttons[labels.index(want)] if want in labels else None
            if button is not None and button.enabled:
                self.click(_point_in(rng, button.rect))
            else:
                self.post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
            return
        if isinstance(top, GAME_SCENES):
            if top.demo:
                self.keypress()
                return
            if goal == "game-over" and top.game_id != "camelot-board":
                self.watch_autoplay(top)
                return
            if rng.random() < 0.5:
                self.post(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="", scancode=0)
            else:
                menu = top.toolbar.buttons[0]
                self.click(_point_in(rng, menu.rect))
            return
        self.post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)

    def watch_autoplay(self, scene: GameScene) -> None:
        """Switch automatic play on and let the game play out (pointer moves only)."""
        if not scene.autoplay:
            self.post(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="", scancode=0)
        self.frames(2)
        for _ in range(300):
            if self.report.events >= self.limit or self.app.scenes.top is not scene \
                    or scene.game.status is not Status.PLAYING:
                break
            if not scene.autoplay:    # the scene gave up (no useful move): walk on
                self.goal = None
                return
            self.frames(self.rng.randint(5, 20))
            if self.rng.random() < 0.2:
                self.post(pygame.MOUSEMOTION, pos=self.random_pos(), rel=(0, 0), buttons=(0, 0, 0))
        self.frames(150)   # the celebration, then the dialog

    # --- the run -------------------------------------------------------------------------------------
    def run(self) -> MonkeyReport:
        started = time.perf_counter()
        try:
            while self.report.events < self.limit:
                top = self.app.scenes.top
                kind = scene_kind(self.app, top)
                before = self.report.events
                if self.goal is None and (self.stay > self.stay_limit or (
                        self.rng.random() < 0.01)):
                    self.choose_goal()
                if self.goal is not None and self.rng.random() < 0.85:
                    self.walk()
                    self.frames(self.rng.randint(1, 4))
                    if self.stay > self.stay_limit * 3:
                        self.goal = None      # stuck: give the chaos a turn
                        self.stay = 0
                else:
                    self.mischief()
                    self.some_frames()
                if self.progress is not None and self.report.events >= self._next_progress:
                    self._next_progress += 5000
                    self.progress(self.report)
                spent = max(1, self.report.events - before)
                self.report.scenes[kind] += spent
                self.stay += spent
                self._since_check += spent
                if self._since_check >= CHECK_EVERY:
                    self._since_check = 0
                    for scene in self.app.scenes.scenes:
                        if isinstance(scene, GAME_SCENES):
                            self.check(scene.game)
            self.frames(2)
            for scene in self.app.scenes.scenes:
                if isinstance(scene, GAME_SCENES):
                    self.check(scene.game, full=True)
        except Exception:  # noqa: BLE001 - the point: any exception is the finding
            self.report.failure = traceback.format_exc()
            self.report.failed_at = self.report.events
        finally:
            self.close()
            self.report.seconds = time.perf_counter() - started
        return self.report

    def close(self) -> None:
        """Leave every scene (workers closed), then make sure no process is left."""
        from scenes.store.words import set_language
        from scenes.work.service import shutdown
        try:
            while self.app.scenes.scenes:
                self.app.scenes.pop()
        finally:
            shutdown()
            set_language("en")        # the process's next app starts in English again
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            left = multiprocessing.active_children()
            self.report.workers_left = [p.pid for p in left]
            if not left:
                break
            time.sleep(0.05)
        else:
            if self.report.failure is None:
                self.report.failure = f"worker processes left running: {left}"
                self.report.failed_at = self.report.events


def run_monkey(seed: int, events: int, size=(1280, 720), progress=None) -> MonkeyReport:
    """A seeded random stream of ``events`` input events through the real app.
    Settings, statistics and saves go to a folder of its own (``ROUNDTABLE_HOME``),
    never the player's. "Play online" hosts on 127.0.0.1 only, on an ephemeral port."""
    before = os.environ.get("ROUNDTABLE_NET_LOOPBACK")
    os.environ["ROUNDTABLE_NET_LOOPBACK"] = "1"
    try:
        if os.environ.get("ROUNDTABLE_HOME"):
            return Monkey(seed, events, size, progress).run()
        with tempfile.TemporaryDirectory(prefix="roundtable-monkey-") as home:
            os.environ["ROUNDTABLE_HOME"] = home
            try:
                return Monkey(seed, events, size, progress).run()
            finally:
                del os.environ["ROUNDTABLE_HOME"]
    finally:
        if before is None:
            del os.environ["ROUNDTABLE_NET_LOOPBACK"]
        else:
            os.environ["ROUNDTABLE_NET_LOOPBACK"] = before


__all__ = ["MonkeyReport", "REQUIRED_SCENES", "check_engine", "run_monkey", "scene_kind"]
