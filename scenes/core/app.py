"""The application: window, main loop, scene stack, global keys, toasts.

Time: normally the loop runs at up to 60 frames a second on the real clock.
With ``frames`` (screenshots, tests) or ``timedemo`` every frame advances game
time by exactly 1/60 s and nothing sleeps, so a run is the same on any machine
and a timedemo measures pure frame cost.

A still screen costs nothing: a frame that put nothing new on screen is not
presented, and after a few of them (no input, nothing drawn, no message) the
loop sleeps until an event comes or the top scene's next change is due
(``Scene.next_change_in``: Clock's emblem ticks once a second, a game's clock
too; a worker's or the network's answer is looked for every ``IDLE_WAKE`` s).
"""
from __future__ import annotations

import os
import sys
import threading
import time
import warnings
from typing import Callable

import pygame

from .actions import Action, InputEvent
from . import kept_pictures
from .announcer import Announcer, announce, install as install_announcer
from .input import InputMapper
from .navigator import Navigator
from .scene import Scene, SceneStack
from .sound import Sound
from .ui import (FONTS, INK, draw_text, message_band, rounded_panel, set_high_contrast,
                 set_text_scale, set_touch_mode, ui_scale)
from ..store.files import left_as_it_is, one_line
from ..store.settings import Settings, load_settings, prepare_folders, save_settings
from ..store.catalogs import load_language
from ..store.words import SYSTEM, _, language, preferred

FPS = 60
FIXED_DT = 1 / FPS
WINDOW_DEFAULT = (1280, 720)
MIN_WINDOW = (640, 360)
# Background threads that render with pygame: pygame.quit() must not free the
# fonts and surfaces under them (a rare crash at exit). Started by
# scenes.games.warm_scene_modules, the card art's prerender and ui.draw_felt_while.
DRAWING_THREADS = ("warm-scene-modules", "card-art-prerender", "felt")
CLOSE_SECONDS = 5.0     # at most, for them and the work service together
STILL_FRAMES = 3        # frames that showed nothing new before the loop may sleep
IDLE_POLL = 0.02        # s between looks at the events while still (about a frame at 60 Hz)
MAX_DT = 0.1            # s: the longest frame step (a stalled machine does not jump the animations)
WORK_AFTER = 0.1        # s after the first frame before the worker processes start (see App._step):
                        # before the menu loads the games behind it (menu.WARM_AFTER)
# Presenting through OpenGL (SDL's default where it can) is done in software on
# a machine with no GPU, and costs a still screen several times what X's own
# shared-memory path does (issue 20: 3.0 s of CPU in 5 s against 0.17 s under
# Xvfb); with a GPU the two are alike for the small areas we update. X11 only:
# elsewhere (Wayland, macOS) the window may have no other way to be shown.
FRAMEBUFFER_HINT = "SDL_FRAMEBUFFER_ACCELERATION"
M_MMAP_THRESHOLD = -3   # glibc's mallopt parameter


def _prefer_plain_framebuffer() -> bool:
    """Ask SDL for X's own framebuffer (see FRAMEBUFFER_HINT) unless the user
    chose: True when this set it."""
    if FRAMEBUFFER_HINT in os.environ or not sys.platform.startswith("linux"):
        return False
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver not in ("", "x11") or (not driver and not os.environ.get("DISPLAY")):
        return False            # Wayland alone, a console, the dummy driver: left to SDL
    os.environ[FRAMEBUFFER_HINT] = "0"
    return True


def _fix_the_mmap_threshold() -> None:
    """glibc raises its threshold for giving a block its own mapping each time
    such a block is freed (up to 32 MiB): after that, surfaces of a few
    hundred kB (card faces, background blocks at 4K) come from the heap, where
    a freed one seldom goes back to the system, and a long run's memory only
    grows. Fixed at its first value, each is a mapping returned when freed."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # start-up: after the first frame
        ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    except (OSError, AttributeError):
        pass            # not glibc (musl has no mallopt): its own ways


def save_screenshot(surface: pygame.Surface, path: str) -> str | None:
    """Save the frame; returns one line instead of raising (the launcher checked
    the folder, but it may have gone while the frames ran)."""
    try:
        pygame.image.save(surface, path)
    except (pygame.error, OSError) as exc:
        return one_line(f"could not save the screenshot to {path!r}: {exc}", 200)
    return None


_icon_set = False


def _set_pygame_icon() -> None:
    """The window's icon, pygame's own, set before the first window opens.
    pygame would load the same file itself through ``importlib.resources``,
    whose modules cost some ms of every launch (start-up); read directly, it
    is the same picture with the same transparent colour (pygame's
    ``icon_colorkey``, 0). On macOS pygame uses another file: left to it."""
    global _icon_set
    if sys.platform == "darwin" or _icon_set:
        return
    _icon_set = True
    try:
        icon = pygame.image.load_basic(os.path.join(os.path.dirname(pygame.__file__), "pygame_icon.bmp"))
        icon.set_colorkey(0)
        pygame.display.set_icon(icon)
    except (pygame.error, OSError, AttributeError):
        pass        # pygame then sets its icon as it always does


class AppOptions:
    """How this run goes (the launcher's command line; tests and tools set a
    few), given by name. A plain class, not a dataclass: it is made before the
    first frame, and a dataclass's generated methods cost most of a ms (start-up)."""

    game: str | None = None
    seed: int | None = None
    fullscreen: bool | None = None     # None: as the settings say
    demo: str | None = None
    frames: int | None = None
    screenshot: str | None = None
    timedemo: str | None = None
    size: tuple[int, int] | None = None
    save_settings: bool = True
    speech_log: str | None = None      # --speech-log: announcements on, each appended here
    lang: str | None = None            # --lang: this language for this run (else the settings')
    started_at: float          # when the process started (default: when the options were made)
    after_first_frame: Callable[[], None] | None = None   # once the first frame is on screen

    def __init__(self, **given) -> None:
        for name, value in given.items():
            if name not in AppOptions.__annotations__:
                raise TypeError(f"AppOptions has no option {name!r}")
            setattr(self, name, value)
        if "started_at" not in given:
            self.started_at = time.perf_counter()


class App:
    def __init__(self, options: AppOptions | None = None, settings: Settings | None = None) -> None:
        self.options = options or AppOptions()
        self._stats = None
        settings, messages = self._load_kept_files(settings)
        self.settings = settings
        set_high_contrast(settings.high_contrast)
        set_touch_mode(settings.touch_controls)
        set_text_scale(settings.text_scale)
        # Only what the game uses: pygame.init() would also open the audio device
        # at once (and ALSA complains on the terminal when there is none); the
        # mixer starts quietly with the first sound (``Sound``).
        # The joystick subsystem starts after the first frame (``_after_first_frame``):
        # it scans the devices, which costs about a ms of every launch, and a pad
        # there already is announced then as if just plugged in (JOYDEVICEADDED).
        self._framebuffer_hint_set = _prefer_plain_framebuffer()
        pygame.display.init()
        pygame.font.init()
        problem = self.apply_language()
        if problem:
            messages.append(problem)
        pygame.display.set_caption(_("Round Table"))
        pygame.key.set_repeat(300, 60)
        desktop = pygame.display.get_desktop_sizes()
        self.desktop_size = tuple(desktop[0]) if desktop else WINDOW_DEFAULT
        opt = self.options
        if opt.timedemo or opt.size:
            self.fullscreen = False
        elif opt.fullscreen is not None:
            self.fullscreen = opt.fullscreen
        else:
            self.fullscreen = settings.fullscreen
        self.window_size = opt.size or WINDOW_DEFAULT
        self.first_frame_seconds: float | None = None
        self._full_screen_pending = False   # full screen after the first frame (_set_mode)
        self.screen = self._set_mode()
        self.input = InputMapper()
        self.sound = Sound(enabled=settings.sound, volume=settings.volume)
        self.announcer = Announcer(lambda: self.settings.speech, opt.speech_log)
        install_announcer(self.announcer)
        self.scenes = SceneStack()
        self.navigator = Navigator()     # the screens layer puts in its own
        self.art_cache: dict = {}        # shared art kept across scenes (the table layer's)
        self.running = True
        self.exit_code = 0
        self.frame_count = 0
        self.frame_times: list[float] = []
        self.frame_cpu_times: list[float] = []  # main-thread CPU time per frame
        self.game_time = 0.0
        self._start_work: Callable | None = None     # the work service, once the first frame is up
        self._start_work_at = 0.0
        self._toasts: list[list] = []  # [text, seconds left]
        self._toast_rects: list[pygame.Rect] = []
        self.still_frames = 0            # frames in a row that showed nothing new
        self._drawn_changes = -1         # the scene stack's changes when last drawn whole
        self._drawn_looks: tuple | None = None   # ... and what its scenes showed (still_look)
        self._exposed = False            # the window was uncovered: present it whole
        self.frames_presented = 0        # frames sent to the window (a still one is not)
        self.idle_seconds = 0.0          # slept waiting for something to happen
        for message in messages:
            self.report(message)

    def _load_kept_files(self, settings: Settings | None) -> tuple[Settings, list[str]]:
        """The settings (unless given) and statistics, and one line for each
        file that could not be used. A folder that cannot be written is said
        once, and nothing is written there this run; a file that is there but
        could not be read is never overwritten."""
        folder_problem = prepare_folders()
        self.keep_files = folder_problem is None
        self.keep_settings = self.keep_files
        messages = [folder_problem]
        if settings is None:
            settings, message = load_settings()
            messages.append(message)
            if left_as_it_is(message):
                self.keep_settings = False
        return settings, [m for m in messages if m]

    @property
    def stats(self):
        """The statistics: read after the first frame (start-up: no screen of the
        menu shows them), or as soon as something asks for them."""
        if self._stats is None:
            from ..store.stats import load_stats  # start-up: see above
            self._stats, message = load_stats()
            if not self.keep_files or left_as_it_is(message):
                self._stats.keep = False
            if message:
                self.report(message)
        return self._stats

    @stats.setter
    def stats(self, stats) -> None:
        self._stats = stats

    # --- window -----------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    @property
    def fixed_step(self) -> bool:
        return self.options.frames is not None or self.options.timedemo is not None

    def _set_mode(self) -> pygame.Surface:
        _set_pygame_icon()
        if self.fullscreen and self.first_frame_seconds is None and pygame.display.get_driver() == "x11":
            # On X, SDL 2 going full screen waits up to 0.1 s for the window
            # manager to move the window (SDL_x11window.c), and a window that is
            # already the desktop's size at its origin never moves: every launch
            # paid the whole wait before its first frame. The first frame goes
            # to a borderless window of the desktop's size instead, which looks
            # the same; full screen follows it (_go_full_screen).
            self._full_screen_pending = True
            surface = pygame.display.set_mode(self.desktop_size, pygame.NOFRAME)
            self._place_window((0, 0))
            return surface
        if self.fullscreen:
            surface = pygame.display.set_mode(self.desktop_size, pygame.FULLSCREEN)
            # Without a window manager (or with one that keeps the window where
            # it was) a full-screen window can stay at its windowed position,
            # half off the screen: put it at the desktop's origin.
            self._place_window((0, 0))
            return surface
        size = (max(MIN_WINDOW[0], self.window_size[0]), max(MIN_WINDOW[1], self.window_size[1]))
        try:
            return pygame.display.set_mode(size, pygame.RESIZABLE)
        except pygame.error:
            if not self._framebuffer_hint_set:
                raise
            # The plain framebuffer could not be had after all: SDL's default
            # (the hint is read once per display start).
            self._framebuffer_hint_set = False
            os.environ.pop(FRAMEBUFFER_HINT, None)
            pygame.display.quit()
            pygame.display.init()
            return pygame.display.set_mode(size, pygame.RESIZABLE)

    def _go_full_screen(self) -> None:
        """The borderless first window (see _set_mode) made full screen, its
        picture kept: the same pixels, unless the window manager resized it."""
        self._full_screen_pending = False
        if not self.fullscreen:
            return                  # the player left full screen in the meantime
        shown = self.screen.copy()
        self.screen = self._set_mode()
        if self.screen.get_size() == shown.get_size():
            # Presented now: SDL leaves the window black once full screen, and
            # the next frame comes after the rest of start-up's first steps
            # (stats, pads, the sound): a black flash of 0.1-0.3 s on X.
            self.screen.blit(shown, (0, 0))
            pygame.display.flip()
        else:
            self.scenes.resize(self.size)

    @staticmethod
    def _place_window(position: tuple[int, int]) -> None:
        try:
            with warnings.catch_warnings():   # pygame-ce 2.5 warns of the display-module window
                warnings.simplefilter("ignore", DeprecationWarning)
                window = pygame.Window.from_display_module()
            if tuple(window.position) != tuple(position):
                window.position = position
        except (AttributeError, pygame.error):
            pass   # an older pygame or a driver with no window to move

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def set_fullscreen(self, on: bool) -> None:
        if on == self.fullscreen:
            return
        self.fullscreen = on
        self.screen = self._set_mode()
        self.scenes.resize(self.size)
        self.settings.fullscreen = on
        self.save_settings()

    def on_window_resized(self) -> None:
        surface = pygame.display.get_surface()
        if surface is not None and (
                surface.get_width() < MIN_WINDOW[0] or surface.get_height() < MIN_WINDOW[1]):
            # Shrunk below the smallest layout (nothing stops a window manager,
            # and one may take a full-screen window out of full screen): the
            # scenes cannot lay out in a few pixels, so it grows back, as a window.
            self.fullscreen = False
            self.window_size = surface.get_size()
            surface = self._set_mode()
        if surface is not None:
            self.screen = surface
            if not self.fullscreen:
                self.window_size = surface.get_size()
            self.scenes.resize(self.size)

    @property
    def touch_mode(self) -> bool:
        """Controls a finger can hit: a finger was used this run, or Settings says so."""
        return self.settings.touch_controls or self.input.touch_used

    def _lay_out_for_touch(self) -> None:
        """The text size, and touch mode on or off: every screen laid out again
        when either changed. Touch mode begins once the first finger is lifted,
        so that tap lands on what the player saw."""
        changed = set_touch_mode(self.touch_mode)
        if set_text_scale(self.settings.text_scale) or changed:
            self.scenes.resize(self.size)

    def apply_language(self) -> str | None:
        """The language of --lang, else the one chosen in Settings, else the
        system's preferred one; None, or one line saying it could not be read."""
        code = self.options.lang or self.settings.language
        if code == SYSTEM:
            try:
                code = preferred(pygame.system.get_pref_locales())
            except (pygame.error, AttributeError):
                code = "en"
        return None if code == language() else load_language(code)

    def save_settings(self) -> None:
        set_high_contrast(self.settings.high_contrast)     # a change in Settings shows at once
        before = language()
        problem = self.apply_language()
        if problem:
            self.toast(problem)
        if language() != before:
            pygame.display.set_caption(_("Round Table"))    # the window's title too
            self.scenes.resize(self.size)                   # every screen laid out in its words
        self._lay_out_for_touch()                           # text size and touch mode
        if not self.options.save_settings or not self.keep_settings:
            return
        problem = save_settings(self.settings)
        if problem:
            self.toast(problem)

    # --- messages -----------------------------------------------------------
    def toast(self, text: str, seconds: float = 3.0) -> None:
        """A one-line message at the bottom of the screen for a few seconds."""
        self._toasts = [t for t in self._toasts if t[0] != text][-2:]
        self._toasts.append([text, seconds])
        announce(text)          # what is shown in words is said (refusals, hints, notes)

    def report(self, text: str) -> None:
        """A problem with a kept file: on screen, and for whoever started us from
        a terminal. A file that could not be opened in a folder already said to
        be out of reach is not said again."""
        if not self.keep_files and left_as_it_is(text):
            return
        self.toast(text, 6)
        print(f"roundtable: {text}", file=sys.stderr)

    def _draw_toasts(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """The newest message, in the message band above the toolbar (a game
        keeps its play area out of that band); a newer one replaces it."""
        if not self._toasts:
            return []
        text, left = self._toasts[-1]
        band = message_band(self.size)
        s = ui_scale(self.size)
        px = int(band.h * 0.6)
        while px > 8 and FONTS.font(px).size(text)[0] > self.size[0] - int(60 * s):
            px -= 1                                  # a long message: smaller, still one line
        w = min(self.size[0] - int(20 * s), FONTS.font(px).size(text)[0] + int(40 * s))
        panel = rounded_panel((w, band.h - int(4 * s)), (10, 20, 16, 230), radius=int(10 * s))
        if not self.settings.reduced_motion:
            panel.set_alpha(int(255 * min(1.0, left / 0.3)))    # fades out in its last 0.3 s
        rect = panel.get_rect(center=band.center)
        surface.blit(panel, rect)
        draw_text(surface, text, px, rect.center, INK, anchor="center")
        return [rect]

    # --- loop ---------------------------------------------------------------
    def quit(self, code: int = 0) -> None:
        if self.running:
            self.save_game_in_progress()
        self.running = False
        self.exit_code = code

    def save_game_in_progress(self) -> None:
        """Quitting in the middle of a game keeps it for the next launch."""
        if self.fixed_step or not self.keep_files:
            return  # screenshots, timedemos: nothing of the player's; or nowhere to keep it
        scene = next((s for s in reversed(self.scenes.scenes) if s.holds_game), None)
        problem = scene.save_on_quit() if scene is not None else None
        if problem:
            print(f"roundtable: {problem}")

    def dispatch(self, event: InputEvent) -> None:
        if event.action == Action.QUIT:
            self.quit()
        elif event.action == Action.FULLSCREEN:
            self.toggle_fullscreen()
        else:
            self.scenes.handle(event)

    def pump(self) -> int:
        """Read pending pygame events and hand their actions to the top scene;
        returns how many there were."""
        events = pygame.event.get()
        for event in events:
            if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self.on_window_resized()
                continue
            if event.type == pygame.WINDOWEXPOSED:
                # Uncovered: the window's picture must be sent again, whole
                # (a still screen would otherwise send nothing).
                self._exposed = True
                continue
            for action in self.input.translate(event):
                self.dispatch(action)
            if event.type == pygame.FINGERUP and not self.input.touches.fingers:
                self._lay_out_for_touch()
        return len(events)

    def step(self, dt: float) -> None:
        """One frame: input, update, draw, and present what changed. Pictures
        drawn for the first time are written to the cache once it is shown."""
        kept_pictures.hold_writes()
        try:
            self._step(dt)
        finally:
            kept_pictures.write_held()

    def _step(self, dt: float) -> None:
        happened = self.pump()
        for action in self.input.update(dt):
            self.dispatch(action)
            happened += 1
        self.game_time += dt
        self.scenes.update(dt)
        for t in self._toasts:
            t[1] -= dt
        self._toasts = [t for t in self._toasts if t[1] > 0]
        if not self.scenes.scenes:
            self.quit()
            return
        top = self.scenes.top
        if top.opaque and hasattr(top, "draw_incremental"):
            # Only what changed is repainted and sent to the window.
            areas = top.draw_incremental(self.screen, self._toast_rects)
            self._toast_rects = self._draw_toasts(self.screen)
            if self._toast_rects:
                kept_pictures.drop_frame()      # a screen kept for the next launch shows no message
            if areas is None:
                pygame.display.flip()
            elif areas or self._toast_rects:
                pygame.display.update(areas + self._toast_rects)
            still = areas == [] and not self._toast_rects
        elif (not happened and not self._toasts and not self._toast_rects
              and self._drawn_changes == self.scenes.changes
              and self._drawn_looks is not None and self._drawn_looks == self._still_looks()):
            still = True        # a screen or a dialog at rest: as it was drawn
        else:
            self.scenes.draw(self.screen)
            self._toast_rects = self._draw_toasts(self.screen)
            pygame.display.flip()
            self._drawn_changes = self.scenes.changes
            self._drawn_looks = self._still_looks()
            still = False
        if self._exposed:
            self._exposed = False
            pygame.display.flip()
            still = False
        if not still:
            self.frames_presented += 1
        self.still_frames = self.still_frames + 1 if still and not happened else 0
        if self.first_frame_seconds is None:
            # On screen now: the worker warm-up below comes after the first frame.
            self._note_first_frame()
            self._after_first_frame()
            # start-up: the process pool's modules load after the first frame
            from ..work.service import work_service
            self._start_work, self._start_work_at = work_service, self.game_time + WORK_AFTER
        if self._start_work is not None and self.game_time >= self._start_work_at:
            # A moment after the first frame the worker processes start in the
            # background: a game opened later asks them without waiting, and
            # one opened at once (or asked from the command line) has the
            # cores to itself while it opens. A screen that needs them sooner
            # starts them itself (work_service() is started on first use).
            self._start_work()
            self._start_work = None

    def _still_looks(self) -> tuple | None:
        """What the scenes that update show while at rest (``Scene.still_look``),
        or None when one of them may move by itself."""
        looks = tuple(scene.still_look() for scene in self.scenes.updating())
        return None if any(look is None for look in looks) else looks

    def _after_first_frame(self) -> None:
        """What start-up leaves until the window shows the first frame."""
        if self._full_screen_pending:
            self._go_full_screen()
        if self.options.after_first_frame is not None:
            self.options.after_first_frame()
        _fix_the_mmap_threshold()
        self.stats                      # read now, so a damaged file is said at once
        try:
            pygame.joystick.init()
        except pygame.error:
            pass                        # no joystick subsystem: keyboard and mouse
        self.input.start_pads()

    def _note_first_frame(self) -> None:
        """When the first frame went up: since start, wall clock, and the
        process's CPU time (start-up included), for --timing and the benches."""
        self.first_frame_seconds = time.perf_counter() - self.options.started_at
        self.first_frame_wall = time.time()
        self.first_frame_cpu = time.process_time()

    def run(self, first_scene: Scene | None = None) -> int:
        """The main loop, until quit (or ``frames`` frames); returns the exit code."""
        if first_scene is not None:
            self.scenes.push(first_scene)
        clock = pygame.time.Clock()
        limit = self.options.frames
        first = True
        while self.running:
            started = time.perf_counter()
            cpu_started = time.thread_time()
            if self.fixed_step:
                dt = FIXED_DT
            elif first:
                # The first frame goes up at once, as game time 0: ticking at
                # FPS would sleep out the 1/60 s counted from the clock's
                # creation. Its plain tick starts the count for the next frame.
                clock.tick()
                dt = 0.0
            else:
                slept = self._sleep_while_still()
                dt = min(clock.tick(FPS) / 1000.0, MAX_DT + slept)
            first = False
            self.step(dt)
            self.frame_count += 1
            self.frame_times.append(time.perf_counter() - started)
            self.frame_cpu_times.append(time.thread_time() - cpu_started)
            if self.first_frame_seconds is None:   # a first step that drew nothing (quit)
                self._note_first_frame()
            if limit is not None and self.frame_count >= limit:
                self.running = False
        if self.options.screenshot:
            problem = save_screenshot(self.screen, self.options.screenshot)
            if problem:
                print(f"roundtable: error: {problem}", file=sys.stderr)
                self.exit_code = 2
        return self.exit_code

    def _sleep_while_still(self) -> float:
        """After a few frames that showed nothing new: wait for an event (left
        in the queue for the next frame), at most until the next change the
        scenes that update expect; returns the seconds slept (the next frame's
        step covers them: a game's clock counts them)."""
        if self.still_frames < STILL_FRAMES or self.input.holding:
            return 0.0
        wait = min((scene.next_change_in() for scene in self.scenes.updating()), default=0.0)
        if wait < 0.002:
            return 0.0
        started = time.perf_counter()
        end = started + wait
        # Not pygame.event.wait: it polls every millisecond (some 2 % of a core).
        # The events are looked at every IDLE_POLL s: a key is answered within
        # a frame's time, and a sleep between costs nothing.
        while not pygame.event.peek():
            left = end - time.perf_counter()
            if left <= 0:
                break
            time.sleep(min(IDLE_POLL, left))
        slept = time.perf_counter() - started
        self.idle_seconds += slept
        return slept

    def close(self) -> None:
        """Before ``pygame.quit()``: end the background work (its threads and
        worker processes) and wait for the threads that draw."""
        end = time.monotonic() + CLOSE_SECONDS
        self.announcer.close()
        service = sys.modules.get(__name__.rsplit(".", 2)[0] + ".work.service")
        if service is not None:          # loaded after the first frame, if at all
            service.shutdown()
        for thread in threading.enumerate():
            if (thread.name in DRAWING_THREADS + (kept_pictures.WRITER_THREAD,)
                    and thread is not threading.current_thread()):
                thread.join(max(0.0, end - time.monotonic()))

    def frame_report(self) -> dict:
        """Frame-time distribution in ms (the first frame, which builds the
        caches, is reported on its own). ``cpu`` is the same for the main
        thread's CPU time: on a busy machine wall-clock time also counts the
        waits for a core, CPU time only the frame's own work."""
        import statistics  # start-up: only timedemos report, and they ask after the run

        def spread(values: list[float]) -> dict:
            ordered = sorted(v * 1000 for v in values) or [0.0]
            p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
            return {"min": ordered[0], "median": statistics.median(ordered), "p99": p99,
                    "max": ordered[-1]}
        times = self.frame_times[1:]
        total = sum(times)
        return {"frames": len(times), "fps": len(times) / total if total else 0.0,
                **spread(times), "cpu": spread(self.frame_cpu_times[1:]),
                "first_frame_ms": self.frame_times[0] * 1000 if self.frame_times else 0.0,
                "size": self.size}
