"""What every game scene shares: the engine, the HUD and toolbar, undo/redo,
new deal/restart, hints, automatic play, demo mode, pause and game over.

A game scene subclasses :class:`GameScene`, names its ``engine`` class (whose
id, title and deals are the scene's) and writes the table: ``new_engine``,
``layout``, ``show_new_game``, ``show_record`` (animate a MoveRecord),
``show_state`` (after undo/redo), ``handle_table`` (pointer and focus input),
``draw_table`` and ``busy``. Every rule question goes to ``self.game``.
"""
from __future__ import annotations

import random
from collections import OrderedDict

import pygame

from game import game_info
from game.base import MoveRecord, Status
from game.errors import IllegalMoveError, NotationError

from ..core.actions import Action, InputEvent
from ..core.anim import Timer
from ..core.overlays import DealNumberDialog, DialogScene, FocusButtons
from ..core.scene import Scene
from ..core.sound import sound_for_events
from ..core.ui import (FONTS, GOLD, ILLEGAL, INK, INK_DIM, Button, draw_text, layout_row,
                 merge_rects, message_band, paint_felt, release_felt, ui_scale)
from ..store.saves import clear_save, in_progress, save_game
from .card_art import CardArt

AUTOPLAY_PAUSE = 0.45   # s between automatic moves, at normal speed
BLOCK = 256             # px: the background is kept in blocks this big, ...
BLOCKS_KEPT = 40        # ... the most recently painted (10 MiB at most): where cards move
DEMO_NEXT_DEAL = 3.0    # s the demo shows a finished game
WIN_DIALOG_DELAY = 2.0  # s of celebration before the game-over dialog


def blocks_over(area: pygame.Rect, screen: pygame.Rect) -> list[pygame.Rect]:
    """The background blocks (``BLOCK`` px on the screen's grid) ``area`` lies
    on, each clipped to the screen; none for an empty area."""
    if not (area.w and area.h):
        return []
    return [pygame.Rect(bx * BLOCK, by * BLOCK, BLOCK, BLOCK).clip(screen)
            for by in range(area.top // BLOCK, (area.bottom - 1) // BLOCK + 1)
            for bx in range(area.left // BLOCK, (area.right - 1) // BLOCK + 1)]


def paint_areas(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """The areas to paint for ``rects``: two that overlap become one where
    their union is hardly larger (a card and where it was a frame ago), and stay
    two where it would take in much empty table (a stream of cards from the
    stock across the screen): painting an area is painting the felt and every
    card in it, so the table between them is not painted for nothing. Painting
    is the same wherever it is done, so an overlap painted twice looks the same."""
    out: list[pygame.Rect] = []
    for rect in rects:
        rect = pygame.Rect(rect)
        joined = True
        while joined:
            joined = False
            for i, other in enumerate(out):
                if rect.colliderect(other):
                    union, both = rect.union(other), rect.clip(other)
                    if union.w * union.h * 4 <= (rect.w * rect.h + other.w * other.h
                                                 - both.w * both.h) * 5:
                        rect = union
                        out.pop(i)
                        joined = True
                        break
        out.append(rect)
    return out


def play_area_for(size: tuple[int, int]) -> pygame.Rect:
    """Where a game lays out its table in a window of ``size``: below the top
    bar, above the band kept for messages (and the toolbar under it)."""
    s = ui_scale(size)
    top = int(54 * s)                     # the top bar (GameScene.hud_h)
    bottom = message_band(size).top
    return pygame.Rect(int(16 * s), top, size[0] - int(32 * s), bottom - top)


class GameScene(Scene):
    engine: type | None = None  # the game's engine class (a subclass names it)
    game_id = ""       # these three come from the engine's descriptor (game.GAMES)
    title = ""
    has_deals = True   # a patience has deal numbers; the board game does not
    has_hints = True
    holds_game = True
    demo_cycle = False  # attract mode: after a demo game, the next game's demo
    undo_at_the_end = True  # a lost game's dialog offers "Undo last move" (not Clock's: no choices)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.engine is not None:
            info = game_info(cls.engine.game_id)
            cls.game_id, cls.title, cls.has_deals = info.id, info.title, info.dealt

    def __init__(self, app, seed: int | None = None, demo: bool = False, game=None) -> None:
        super().__init__(app)
        self.demo = demo
        self.autoplay = demo
        self.rng = random.Random(seed)
        self.seed = seed if seed is not None else random.randrange(1, 1_000_000)
        self.game = game or self.new_engine(self.seed)
        self._autoplay_wait = 0.0
        self._timers: list[Timer] = []
        self.over_shown = False
        self.hint_move = None
        self.hint_time = 0.0
        self.message = ""
        self._fresh_deal = True
        self.scale = 1.0
        self.pointer = (-1, -1)
        self.toolbar = FocusButtons(self._make_buttons())
        self.play_seconds = 0.0          # time spent on this game (statistics, saves)
        self.assisted = False            # automatic play or a hint was used in this game
        self._recorded = None            # the game whose result is in the statistics

    # --- for subclasses ----------------------------------------------------
    def new_engine(self, seed: int):
        raise NotImplementedError

    def layout(self, play_area: pygame.Rect) -> None: ...
    def show_new_game(self) -> None: ...
    def show_record(self, record: MoveRecord) -> None: ...
    def show_state(self) -> None: ...
    def handle_table(self, event: InputEvent) -> None: ...
    def draw_table(self, surface: pygame.Surface) -> None: ...
    def show_hint(self, move) -> None: ...
    def celebrate(self) -> None: ...

    @property
    def busy(self) -> bool:
        return False

    def finish_animations(self) -> None: ...

    def status_line(self) -> str:
        return ""

    def score_line(self) -> str:
        return f"Score {self.game.score}"

    # --- lifecycle ---------------------------------------------------------
    def enter(self) -> None:
        self._let_other_art_go()
        self.show_new_game()
        self.sound_of_deal()

    def _let_other_art_go(self) -> None:
        """A game without cards lets the faces kept for the last card game go
        (at 4K some 25 MiB); a card game keeps them (its own, or a new size)."""
        if not isinstance(getattr(self, "art", None), CardArt):
            self.app.art_cache.pop("cards", None)

    def resize(self, size) -> None:
        super().resize(size)
        self._full_next = True  # painted whole at the new size
        self._back_shown = self.app.settings.card_back
        s = self.scale = ui_scale(size)
        w, h = size
        self.hud_h = int(54 * s)
        self.bar_h = int(40 * s)
        layout_row(self.toolbar.buttons, (w // 2, h - int(30 * s)), self.bar_h, int(10 * s), int(20 * s))
        self.play_area = play_area_for(size)
        self.layout(self.play_area)

    # --- commands (toolbar, keys, gamepad) ----------------------------------
    def _make_buttons(self) -> list[Button]:
        buttons = [Button("Menu", self.open_pause), Button("New deal", self.ask_new_deal),
                   Button("Restart", self.restart), Button("Undo", self.undo),
                   Button("Redo", self.redo)]
        if self.has_hints:
            buttons.append(Button("Hint", self.hint))
        buttons.append(Button("Auto", self.toggle_autoplay))
        return buttons

    def play(self, move) -> MoveRecord | None:
        """Ask the engine to play ``move``; an illegal one is explained, not fatal."""
        try:
            record = self.game.play(move)
        except (IllegalMoveError, NotationError) as exc:
            self.app.toast(str(exc)[:1].upper() + str(exc)[1:])
            self.app.sound.play("invalid")
            self.on_illegal(move)
            return None
        self.sound_of(record)
        self.hint_move = None
        self._fresh_deal = False
        self.show_record(record)
        return record

    def on_illegal(self, move) -> None: ...

    def sound_of(self, record: MoveRecord) -> None:
        """The effects for what a move did (demos play silently)."""
        if not self.demo:
            self.app.sound.play_all(sound_for_events(record.events))

    def sound_of_end(self, good: bool | None = None) -> None:
        """A win or a loss; ``good`` overrides for two-player games."""
        if good is None:
            good = self.game.status is Status.WON
        if not self.demo and self.game.status is not Status.DRAW:
            self.app.sound.play("win" if good else "loss")

    def sound_of_deal(self) -> None:
        if not self.demo:
            self.app.sound.play("deal")

    def undo(self) -> None:
        self.finish_animations()
        if self.game.undo() is None:
            self.app.toast("Nothing to undo")
            return
        self._after_history()

    def redo(self) -> None:
        self.finish_animations()
        if self.game.redo() is None:
            self.app.toast("Nothing to redo")
            return
        self._after_history()

    def _after_history(self) -> None:
        self.over_shown = False
        self.hint_move = None
        self.show_state()

    def restart(self) -> None:
        self.game.restart()
        self._new_game_started()
        self.over_shown = False
        self.hint_move = None
        self._fresh_deal = True
        self.show_new_game()
        self.sound_of_deal()

    def new_deal(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else self.rng.randrange(1, 1_000_000)
        self.game = self.new_engine(self.seed)
        self._new_game_started()
        self.over_shown = False
        self.hint_move = None
        self._fresh_deal = True
        self.show_new_game()
        self.sound_of_deal()

    def hint(self) -> None:
        self.assisted = True
        move = self.game.computer_move()
        if move is None:
            self.app.toast("No moves left")
            return
        self.hint_move = move
        self.hint_time = 2.5
        self.show_hint(move)

    def toggle_autoplay(self) -> None:
        self.autoplay = not self.autoplay
        self.assisted = self.assisted or self.autoplay
        self._autoplay_wait = 0.0
        self.app.toast("Automatic play on" if self.autoplay else "Automatic play off", 1.5)

    def open_pause(self, reason: str = "") -> None:
        self.autoplay = False if not self.demo else self.autoplay

        def resume():
            self.app.scenes.pop()

        def restart():
            self.app.scenes.pop()
            self.restart()

        def new_deal():
            self.app.scenes.pop()
            self.ask_new_deal()

        def choose_deal():
            self.app.scenes.pop()
            self.choose_deal()

        lines = [reason] if reason else []
        lines.append(f"{self.title} — deal {self.seed}" if self.has_deals else self.title)
        self.app.scenes.push(DialogScene(self.app, "Paused", lines, [
            ("Resume", resume), ("Restart", restart), ("New deal", new_deal)]
            + ([("Choose a deal…", choose_deal)] if self.has_deals else []) + [
            ("How to play", self.open_help), ("Settings", self.app.navigator.open_settings),
            ("Main menu", lambda: self.app.navigator.open_menu())],
            on_back=resume))

    def choose_deal(self) -> None:
        """A deal by its number (the one a friend played, or a statistic's)."""
        warning = "The game in progress will be lost." if self.game_in_progress else ""
        self.app.scenes.push(DealNumberDialog(self.app, self.seed, self.new_deal, warning))

    @property
    def game_in_progress(self) -> bool:
        """Moves were made in a game still being played: a new deal would lose them."""
        return not self.demo and self.game.status is Status.PLAYING and bool(self.game.history)

    def ask_new_deal(self) -> None:
        """A new deal (toolbar, N, the pause menu), after asking when it would
        throw away a game in progress."""
        if not self.game_in_progress:
            self.new_deal()
            return

        def deal():
            self.app.scenes.remove(dialog)
            self.new_deal()

        def keep():
            self.app.scenes.remove(dialog)

        dialog = DialogScene(self.app, "New deal?", [
            f"The game in progress ({self.time_and_moves()}) will be lost."],
            [("Keep playing", keep), ("Deal again", deal)], on_back=keep)
        self.app.scenes.push(dialog)

    def open_help(self) -> None:
        self.app.navigator.open_help(self.game_id)

    # --- statistics and the saved game --------------------------------------
    def saved_options(self) -> dict:
        """The options this game was started with, kept with a saved game and
        given back to the scene's constructor when it is resumed."""
        return {}

    def save_on_quit(self) -> str | None:
        return save_game(self) if in_progress(self) else None

    def _new_game_started(self) -> None:
        """A fresh deal or a restart: a new time, and an old save is stale."""
        self.play_seconds = 0.0
        self._recorded = None
        self.assisted = False
        if not self.demo:
            clear_save()

    def count_time(self, dt: float) -> None:
        """Time played: while this game is on top and not over."""
        if not self.demo and self.app.scenes.top is self and self.game.status is Status.PLAYING:
            self.play_seconds += dt

    def record_result(self, won: bool, result: str | None = None, level: str | None = None) -> None:
        """The game ended: into the statistics (once per game), and no save."""
        if self.demo:
            return
        clear_save()
        if self._recorded is self.game:
            return
        self._recorded = self.game
        score = None if not self.has_deals else self.game.score
        problem = self.app.stats.record(self.game_id, won, score, self.play_seconds, result, level,
                                        assisted=self.assisted)
        if problem:
            self.app.toast(problem)

    def show_game_over(self) -> None:
        self.over_shown = True
        self.sound_of_end()
        won = self.game.status is Status.WON
        self.record_result(won)
        if won:
            self.celebrate()
        if self.demo:
            self._timers.append(Timer(DEMO_NEXT_DEAL, self._next_demo))
            return
        self.autoplay = False
        if won:
            # Let the celebration play a moment before the dialog covers it. Only
            # the latest ending shows it: an undo and redo within the delay ends
            # the game twice, and two timers must not push two dialogs.
            game = self.game
            ending = self._ending = getattr(self, "_ending", 0) + 1
            self._timers.append(Timer(WIN_DIALOG_DELAY, lambda: self._game_over_dialog()
                                      if self.game is game and self.over_shown
                                      and self._ending == ending else None))
        else:
            self._game_over_dialog()

    def celebration_ring(self) -> tuple[tuple[int, int], float, float]:
        """(centre, radius, squash) of the cards' wheel after a win: wide enough
        to go round the game-over dialog, not under it."""
        area = self.play_area
        radius = area.w * 0.4
        return area.center, radius, min(0.72, area.h * 0.38 / radius)

    def moves_made(self) -> int:
        """Moves so far, counted as the game's move list counts them."""
        return len(self.game.history)

    def time_and_moves(self) -> str:
        """'3:05 · 48 moves': the HUD's clock and the game-over dialog's line."""
        seconds = int(self.play_seconds)
        n = self.moves_made()
        return f"{seconds // 60}:{seconds % 60:02d}  ·  {n} move{'' if n == 1 else 's'}"

    def _next_demo(self) -> None:
        """A demo deals again, or (``--demo`` with no game) moves to the next game."""
        if not (self.demo_cycle or self.app.options.demo == "all"):
            self.new_deal()
            return
        following = self.app.navigator.next_game(after=self.game_id)
        if following == self.game_id:
            self.new_deal()
        else:
            self.app.navigator.open_game(following, demo=True, cycle=True)

    def _game_over_dialog(self) -> None:
        won = self.game.status is Status.WON

        def then(action):
            def run():
                self.app.scenes.remove(dialog)
                action()
            return run

        buttons = [("New deal", then(self.new_deal)), ("Restart", then(self.restart))]
        if not won and self.game.can_undo and self.undo_at_the_end:
            buttons.append(("Undo last move", then(self.undo)))
        buttons.append(("Main menu", lambda: self.app.navigator.open_menu()))
        title = {Status.WON: "You won!", Status.LOST: "Game over",
                 Status.DRAW: "Draw"}.get(self.game.status, "Game over")
        lines = [self.game.status_reason.capitalize() + "." if self.game.status_reason else "",
                 f"{self.score_line()}  ·  {self.time_and_moves()}", self.assisted_line(won)]
        dialog = DialogScene(self.app, title, [line for line in lines if line], buttons,
                             accent=GOLD if won else ILLEGAL, update_below=True,
                             dim=40 if won else 110)
        self.app.scenes.push(dialog)

    def assisted_line(self, won: bool) -> str:
        """Said at the end of a game won with help ('' otherwise)."""
        if not (won and self.assisted) or self.demo:
            return ""
        return "Won with help (automatic play or hints): kept as assisted, not as a win."

    # --- input ------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        a = event.action
        if event.pos is not None:
            self.pointer = event.pos
        if self.demo:
            if a not in (Action.POINTER_MOVE, Action.POINTER_UP, Action.FOCUS_LOST,
                         Action.DEVICE_ADDED):
                self.app.navigator.open_menu()
            return
        if a == Action.DEVICE_LOST:
            self.open_pause("The gamepad was disconnected.")
            return
        if self.toolbar.handle(event) if event.is_pointer else False:
            return
        if event.is_pointer and any(b.contains(event.pos) for b in self.toolbar.buttons):
            return
        commands = {Action.UNDO: self.undo, Action.REDO: self.redo,
                    Action.NEW_DEAL: self.ask_new_deal, Action.RESTART: self.restart,
                    Action.AUTOPLAY: self.toggle_autoplay, Action.PAUSE: self.open_pause}
        if self.has_hints:
            commands[Action.HINT] = self.hint
        if a in commands:
            commands[a]()
            return
        self.handle_table(event)

    def back_pressed(self) -> None:
        """BACK with nothing selected on the table opens the pause menu."""
        self.open_pause()

    # --- time -------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.count_time(dt)
        for timer in list(self._timers):
            if timer.advance(dt):
                self._timers.remove(timer)
        if self.hint_time > 0:
            self.hint_time -= dt
            if self.hint_time <= 0:
                self.hint_move = None
        self.update_table(dt)
        if self.app.scenes.top is not self and not self.over_shown:
            return
        status = self.game.status
        if status is not Status.PLAYING:
            if not self.over_shown and not self.busy:
                self.show_game_over()
            return
        self.play_automatically(dt)

    def next_change_in(self) -> float:
        """0 while the computer plays or something moves (the next move or frame
        is due at once); else the default wake, or sooner the next second of
        the game's clock (the HUD shows whole seconds)."""
        if self.demo or self.autoplay or self.busy:
            return 0.0
        wait = super().next_change_in()
        if not self.demo and self.app.scenes.top is self and self.game.status is Status.PLAYING:
            wait = min(wait, 1.0 - self.play_seconds % 1.0)
        return wait

    def play_automatically(self, dt: float) -> None:
        """Automatic play and demos: a computer move every so often, on the
        frame loop. Scenes whose computer thinks in a worker override this."""
        if self.autoplay and not self.busy:
            self._autoplay_wait += dt
            pause = AUTOPLAY_PAUSE / self.app.settings.speed_factor
            if self._fresh_deal:
                pause *= 2  # let the player see the deal
            if self._autoplay_wait >= pause:
                self._autoplay_wait = 0.0
                move = self.game.computer_move(self.rng)
                if move is not None:
                    self.play(move)

    def update_table(self, dt: float) -> None: ...

    # --- drawing ----------------------------------------------------------
    # The screen is the only full-screen surface a game keeps. A frame paints
    # only where something changed: what is at rest (the felt and decorations:
    # draw_background; cards, HUD: draw_resting, draw_hud) is painted from
    # scratch within those areas, clipped, then what moves (draw_animated) on
    # top; where a card was in the air last frame is such an area. Everything
    # drawn at rest honours the surface's clip.
    def draw_background(self, surface: pygame.Surface) -> None:
        paint_felt(surface)

    def draw_resting(self, surface: pygame.Surface, clip: pygame.Rect | None) -> None: ...

    def resting_changes(self) -> list[pygame.Rect]:
        """Areas where things at rest changed since the last call."""
        return []

    def resting_rebuilt(self) -> None:
        """The static layer was painted whole."""

    def draw_animated(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """Paint what moves this frame onto the screen; return its areas."""
        return []

    def _update_toolbar(self) -> None:
        mouse = self.app.input.last_device == "mouse"
        for b in self.toolbar.buttons:
            b.enabled = {"Undo": self.game.can_undo, "Redo": self.game.can_redo}.get(b.label, True)
            b.hot = mouse and b.contains(self.pointer) or (b.label == "Auto" and self.autoplay)

    def _hud_texts(self) -> dict[str, list[tuple]]:
        """The HUD's lines of text by part: (text, px, pos, colour, anchor, shadow)."""
        s = self.scale
        w, _ = self.size
        mid = self.hud_h // 2
        left = [(self.title, int(34 * s), (int(20 * s), mid), GOLD, "midleft", True)]
        if self.has_deals:
            title_w = FONTS.font(int(34 * s), bold=True).size(self.title)[0]
            left.append((f"Deal {self.seed}", int(26 * s), (int(20 * s) + title_w + int(24 * s), mid),
                         INK_DIM, "midleft", False))
        centre = "DEMO — press any key or button" if self.demo else self.status_line()
        score = self.score_line()
        right = [(score, int(30 * s), (w - int(20 * s), mid), INK, "midright", True)]
        if not self.demo:   # the time played and the moves, left of the score
            score_w = FONTS.font(int(30 * s), bold=True).size(score)[0]
            right.append((self.time_and_moves(), int(24 * s),
                          (w - int(20 * s) - score_w - int(28 * s), mid), INK_DIM, "midright", False))
        return {"left": left,
                "centre": [(centre, int(26 * s), (w // 2, mid), INK, "center", False)] if centre else [],
                "right": right}

    @staticmethod
    def _texts_rect(texts: list[tuple]) -> pygame.Rect | None:
        rect = None
        for text, px, pos, _, anchor, shadow in texts:
            r = pygame.Rect((0, 0), FONTS.font(px, bold=shadow).size(text))
            setattr(r, anchor, pos)
            r.inflate_ip(px // 6, px // 6)  # room for the shadow
            rect = r if rect is None else rect.union(r)
        return rect

    def _hud_parts(self) -> dict[str, tuple]:
        """What each part of the HUD shows; a part is repainted where it was
        and where it will be when it changes."""
        self._update_toolbar()
        parts = {name: tuple(texts) for name, texts in self._hud_texts().items()}
        if not self.demo:
            parts["toolbar"] = tuple((b.label, b.enabled, b.hot) for b in self.toolbar.buttons)
        return parts

    def _hud_part_rect(self, name: str, value: tuple) -> pygame.Rect | None:
        if name == "toolbar":
            bar = int(60 * self.scale)
            return pygame.Rect(0, self.size[1] - bar, self.size[0], bar)
        return self._texts_rect(list(value))

    def _changes(self) -> list[pygame.Rect]:
        """Areas where what is at rest (table, HUD) changed since the last frame."""
        dirty = self.resting_changes()
        parts = self._hud_parts()
        if parts != self._hud_drawn:
            for name in set(parts) | set(self._hud_drawn):
                old, new = self._hud_drawn.get(name), parts.get(name)
                if old != new:
                    dirty += [r for r in (self._hud_part_rect(name, old or ()),
                                          self._hud_part_rect(name, new or ())) if r is not None]
            self._hud_drawn = parts
        return dirty

    def before_full_repaint(self) -> None:
        """The whole screen is about to be painted (subclasses note what is drawn)."""

    def busy_areas(self) -> list[pygame.Rect]:
        """Where things will move and be repainted first (the cards and their
        piles): the background there is kept in blocks when the screen is
        painted whole, so the first moves (a deal) do not draw it."""
        return []

    def _keep_background_blocks(self, surface: pygame.Surface) -> OrderedDict:
        """The background just painted whole, kept in blocks under the busy
        areas (as many as are kept at all): each a copy of what is on screen."""
        blocks: OrderedDict = OrderedDict()
        screen = surface.get_rect()
        for area in self.busy_areas():
            for block in blocks_over(area.clip(screen), screen):
                if block.topleft not in blocks:
                    if len(blocks) >= BLOCKS_KEPT:
                        return blocks
                    blocks[block.topleft] = surface.subsurface(block).copy()
        return blocks

    def _paint_all(self, surface: pygame.Surface) -> None:
        """Everything at rest, the whole screen."""
        release_felt()        # the menu's felt, if any: a game paints its own
        self.__dict__.pop("_blocks", None)   # the background may have changed
        self.before_full_repaint()
        surface.set_clip(None)
        self.draw_background(surface)
        self._blocks = self._keep_background_blocks(surface)
        self.draw_resting(surface, None)
        self.resting_changes()          # all of it is painted now
        self.resting_rebuilt()
        self._hud_drawn = self._hud_parts()
        self.draw_hud(surface)
        self._painted_size = surface.get_size()

    def _paint_area(self, surface: pygame.Surface, rect: pygame.Rect) -> pygame.Rect:
        """What is at rest within ``rect``, painted from scratch: the
        background from kept blocks, then the cards and the HUD there, in
        order. No copy of the whole screen is kept. Returns the area painted:
        ``rect``, grown to whole blocks where a block had to be drawn first."""
        blocks = self.__dict__.setdefault("_blocks", OrderedDict())
        screen = surface.get_rect()
        grid = blocks_over(rect, screen)
        for block in grid:
            key = block.topleft
            if key in blocks:
                blocks.move_to_end(key)
                continue
            # Drawn on the screen (the cards there are painted again below) and kept.
            surface.set_clip(block)
            self.draw_background(surface)
            blocks[key] = surface.subsurface(block).copy()
            rect = rect.union(block)
            while len(blocks) > BLOCKS_KEPT:
                blocks.popitem(last=False)
        surface.set_clip(rect)
        for block in grid:
            kept = blocks.get(block.topleft)
            if kept is not None:
                surface.blit(kept, block)
            else:       # more blocks in this area than are kept: drawn here
                self.draw_background(surface)
                break
        self.draw_resting(surface, rect)
        if rect.top < self.hud_h or rect.bottom > self.size[1] - int(60 * self.scale):
            self.draw_hud(surface)
        surface.set_clip(None)
        return rect

    def resume(self) -> None:
        self._full_next = True
        if getattr(self, "_back_shown", None) != self.app.settings.card_back:
            self.resize(self.size)       # the card back was changed in Settings

    def draw(self, surface: pygame.Surface) -> None:
        """The whole frame (something else is drawn over it, e.g. a dialog)."""
        self._paint_all(surface)
        self._last_animated = self.draw_animated(surface)
        self._full_next = True

    def draw_incremental(self, surface: pygame.Surface, restore: list[pygame.Rect]) -> list[pygame.Rect] | None:
        """Repaint only what changed; the areas changed, or None for all.

        The screen is the only full-screen surface: where something changed at
        rest, where a card was in the air last frame and where a toast was, the
        area is painted from scratch; then what moves is drawn on top."""
        look = self.animated_look()
        if getattr(self, "_full_next", True) or getattr(self, "_painted_size", None) != surface.get_size():
            self._full_next = False
            self._paint_all(surface)
            self._last_animated = self.draw_animated(surface)
            self._drawn_look = look
            return None
        changes = self._changes() + list(restore)
        if not changes and look is not None and look == self._drawn_look:
            return []          # nothing moved and the rings are as drawn: the screen is right
        self._drawn_look = look
        screen = surface.get_rect()
        areas = [r.clip(screen) for r in paint_areas(changes + self._last_animated)]
        areas = [self._paint_area(surface, r) for r in areas if r.w and r.h]
        self._last_animated = self.draw_animated(surface)
        return areas + self._last_animated

    def animated_look(self):
        """All that ``draw_animated`` shows, as a value to compare, while it
        shows the same from frame to frame (rings, no card in the air); None
        when unknown or moving (it is drawn every frame then)."""
        return None

    def draw_hud(self, surface: pygame.Surface) -> None:
        s = self.scale
        w, _ = self.size
        band = getattr(self, "_band", None)
        if band is None or band.get_size() != (w, self.hud_h):
            band = self._band = pygame.Surface((w, self.hud_h), pygame.SRCALPHA)
            band.fill((0, 0, 0, 70))
        surface.blit(band, (0, 0))
        for texts in self._hud_texts().values():
            for text, px, pos, color, anchor, shadow in texts:
                draw_text(surface, text, px, pos, color, anchor=anchor, shadow=shadow)
        if not self.demo:
            for b in self.toolbar.buttons:
                b.draw(surface, s)
