"""What every patience scene shares: the engine, undo/redo, new deal/restart,
hints, automatic play, demo mode, pause and game over (the HUD, the toolbar and
the painting are :class:`~scenes.table.painted_scene.PaintedScene`'s).

A game scene subclasses :class:`GameScene`, names its ``engine`` class (whose
id, title and deals are the scene's) and writes the table: ``new_engine``,
``layout``, ``show_new_game``, ``show_record`` (animate a MoveRecord),
``show_state`` (after undo/redo), ``handle_table`` (pointer and focus input),
``draw_table`` and ``busy``. Every rule question goes to ``self.game``.
"""
from __future__ import annotations

import random

import pygame

from game import game_info
from game.base import MoveRecord, Status
from game.errors import IllegalMoveError, NotationError

from ..core.actions import Action, InputEvent
from ..core.anim import Timer, reduced_motion
from ..core.announcer import announce, announcing
from ..core.overlays import DealNumberDialog, DialogScene, FocusButtons
from ..core.sound import sound_for_events
from ..core.ui import GOLD, ILLEGAL, Button
from ..store.saves import clear_save
from . import saved_game
from ..store.terms import reason_words, refusal_text
from .painted_scene import (BLOCK, BLOCKS_KEPT, PaintedScene, blocks_over,  # noqa: F401 (used from here)
                            paint_areas, play_area_for)
from ..store.words import N_, _

AUTOPLAY_PAUSE = 0.45   # s between automatic moves, at normal speed
DEMO_NEXT_DEAL = 3.0    # s the demo shows a finished game
WIN_DIALOG_DELAY = 2.0  # s of celebration before the game-over dialog


class GameScene(PaintedScene):
    engine: type | None = None  # the game's engine class (a subclass names it)
    game_id = ""       # these three come from the engine's descriptor (game.GAMES)
    title = ""
    has_deals = True   # a patience has deal numbers; the board game does not
    has_hints = True
    holds_game = True
    demo_cycle = False  # attract mode: after a demo game, the next game's demo
    undo_at_the_end = True  # a lost game's dialog offers "Undo last move" (not Clock's: no choices)
    has_choices = True      # False (Clock): every move is forced, so Auto and hints are no help
    abandoned_is_lost = False  # a patience thrown away after moves counts as lost (see abandon)

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
        self.toolbar = FocusButtons(self._make_buttons())
        self.play_seconds = 0.0          # time spent on this game (statistics, saves)
        self.assisted = False            # automatic play or a hint was used in this game
        self.recorded_game = None        # the game whose result is in the statistics
        self._focus_said = None          # the focus last announced (focus_spot)

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
        return _("Score {score}").format(score=self.game.score)

    def button_enabled(self, label: str) -> bool:
        return {"Undo": self.game.can_undo, "Redo": self.game.can_redo}.get(label, True)

    def button_lit(self, label: str) -> bool:
        return label == "Auto" and self.autoplay

    # --- lifecycle ---------------------------------------------------------
    def enter(self) -> None:
        super().enter()
        self.show_new_game()
        self.sound_of_deal()

    # --- commands (toolbar, keys, gamepad) ----------------------------------
    def _make_buttons(self) -> list[Button]:
        buttons = [Button(N_("Menu"), self.open_pause), Button(N_("New deal"), self.ask_new_deal),
                   Button(N_("Restart"), self.ask_restart), Button(N_("Undo"), self.undo),
                   Button(N_("Redo"), self.redo)]
        if self.has_hints:
            buttons.append(Button(N_("Hint"), self.hint))
        buttons.append(Button(N_("Auto"), self.toggle_autoplay))
        return buttons

    def pile_words(self, pile: str) -> str:
        """A pile named as the player sees it (subclasses name theirs)."""
        return _("the {pile}").format(pile=pile)

    def play(self, move) -> MoveRecord | None:
        """Ask the engine to play ``move``; an illegal one is explained, not fatal."""
        words = self.move_words(move) if announcing() and not self.demo else ""
        try:
            record = self.game.play(move)
        except (IllegalMoveError, NotationError) as exc:
            self.app.toast(reason_words(refusal_text(exc), full_stop=False, places=self.pile_words))
            self.app.sound.play("invalid")
            self.on_illegal(move)
            return None
        self.sound_of(record)
        if words:
            announce(words[:1].upper() + words[1:] + ".")
            announce(self.after_move_words(move))
        self.hint_move = None
        self._fresh_deal = False
        self.show_record(record)
        return record

    def on_illegal(self, move) -> None: ...

    # --- in words, for the announcer (scenes.core.announcer) ------------------
    def focus_spot(self):
        """Where the focus is (any value; None: no focus): a new one is announced."""
        return None

    def focus_words(self) -> str:
        """What is under the focus, named as the player sees it."""
        return ""

    def after_move_words(self, move) -> str:
        """What a move brought to light that the player needs next ('' for nothing)."""
        return ""

    def position_words(self) -> list[str]:
        """The whole position, a line each (F2 / the right stick's click)."""
        return []

    def _say_focus(self) -> None:
        if self.demo or self.app.scenes.top is not self or not announcing():
            return
        spot = self.focus_spot()
        if spot is not None and spot != self._focus_said:
            self._focus_said = spot
            announce(self.focus_words())

    def read_position(self) -> None:
        for line in [self.status_line(), self.score_line(), *self.position_words()]:
            announce(line)
        self._focus_said = None          # and the focus again, after the piles

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
            self.app.toast(_("Nothing to undo"))
            return
        announce(_("Move undone."))
        self._after_history()

    def redo(self) -> None:
        self.finish_animations()
        if self.game.redo() is None:
            self.app.toast(_("Nothing to redo"))
            return
        announce(_("Move redone."))
        self._after_history()

    def _after_history(self) -> None:
        self.over_shown = False
        self.hint_move = None
        self.show_state()

    def restart(self) -> None:
        self.abandon()
        self.game.restart()
        self._new_game_started()
        self.over_shown = False
        self.hint_move = None
        self._fresh_deal = True
        self.show_new_game()
        self.sound_of_deal()

    def new_deal(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else self.rng.randrange(1, 1_000_000)
        self.abandon()
        self.game = self.new_engine(self.seed)
        self._new_game_started()
        self.over_shown = False
        self.hint_move = None
        self._fresh_deal = True
        self.show_new_game()
        self.sound_of_deal()

    def hint(self) -> None:
        self.assisted = self.has_choices
        move = self.game.computer_move()
        if move is None:
            self.app.toast(_("No moves left"))
            return
        self.give_hint(move)

    def give_hint(self, move, seconds: float = 2.5) -> None:
        """Show the hinted move on the table, and say it in words."""
        self.hint_move = move
        self.hint_time = seconds
        self.show_hint(move)
        words = self.move_words(move)
        if words:
            self.app.toast(_("Hint: {move}").format(move=words), seconds + 2)

    def move_words(self, move) -> str:
        """A move in words, the places named as the player sees them (the hint's
        message); '' where a game has none."""
        return ""

    def toggle_autoplay(self) -> None:
        self.autoplay = not self.autoplay
        self.assisted = self.assisted or (self.autoplay and self.has_choices)
        self._autoplay_wait = 0.0
        self.app.toast(_("Automatic play on") if self.autoplay else _("Automatic play off"), 1.5)

    def open_pause(self, reason: str = "") -> None:
        self.autoplay = False if not self.demo else self.autoplay

        def resume():
            self.app.scenes.pop()

        def restart():
            self.app.scenes.pop()
            self.ask_restart()

        def new_deal():
            self.app.scenes.pop()
            self.ask_new_deal()

        def choose_deal():
            self.app.scenes.pop()
            self.choose_deal()

        lines = [reason] if reason else []
        lines.append(_("{game} — deal {number}").format(game=_(self.title), number=self.seed)
                     if self.has_deals else _(self.title))
        self.app.scenes.push(DialogScene(self.app, N_("Paused"), lines, [
            (N_("Resume"), resume), (N_("Restart"), restart), (N_("New deal"), new_deal)]
            + ([(N_("Choose a deal…"), choose_deal)] if self.has_deals else []) + [
            (N_("How to play"), self.open_help), (N_("Settings"), self.app.navigator.open_settings),
            (N_("Main menu"), self.leave_to_menu)],
            on_back=resume))

    def choose_deal(self) -> None:
        """A deal by its number (the one a friend played, or a statistic's)."""
        warning = self._losing_line() if self.game_in_progress else ""
        self.app.scenes.push(DealNumberDialog(self.app, self.seed, self.new_deal, warning))

    @property
    def game_in_progress(self) -> bool:
        """Moves were made in a game still being played: a new deal would lose them."""
        return not self.demo and self.game.status is Status.PLAYING and bool(self.game.history)

    def ask_new_deal(self) -> None:
        """A new deal (toolbar, N, the pause menu), after asking when it would
        throw away a game in progress."""
        self._ask_before_losing(N_("New deal?"), N_("Deal again"), self.new_deal)

    def ask_restart(self) -> None:
        """Restart (toolbar, R, the pause menu), after asking as a new deal
        does: redo cannot bring the game back."""
        self._ask_before_losing(N_("Restart?"), N_("Restart"), self.restart)

    def _ask_before_losing(self, title: str, go: str, action) -> None:
        if not self.game_in_progress:
            action()
            return

        def confirmed():
            self.app.scenes.remove(dialog)
            action()

        def keep():
            self.app.scenes.remove(dialog)

        dialog = DialogScene(self.app, title, [self._losing_line(self.time_and_moves())],
            [(N_("Keep playing"), keep), (go, confirmed)], on_back=keep)
        self.app.scenes.push(dialog)

    def _losing_line(self, detail: str = "") -> str:
        if detail:
            line = (_("The game in progress ({detail}) will be lost and counted as lost.")
                    if self.abandoned_is_lost else _("The game in progress ({detail}) will be lost."))
        else:
            line = (_("The game in progress will be lost and counted as lost.")
                    if self.abandoned_is_lost else _("The game in progress will be lost."))
        return line.format(detail=detail)

    def abandon(self) -> None:
        """The game in progress is thrown away (a new deal, a restart, the main
        menu): a patience counts it as lost, as Aisleriot and PySolFC do. A game
        kept for later (quitting saves it) is not abandoned."""
        if self.abandoned_is_lost and self.game_in_progress:
            self.record_result(False, abandoned=True)

    def leave_to_menu(self) -> None:
        self.abandon()
        self.app.navigator.open_menu()

    def open_help(self) -> None:
        self.app.navigator.open_help(self.game_id)

    # --- statistics and the saved game --------------------------------------
    def saved_options(self) -> dict:
        """The options this game was started with, kept with a saved game and
        given back to the scene's constructor when it is resumed."""
        return {}

    save_on_quit = saved_game.save_on_quit
    _new_game_started = saved_game.new_game_started      # a fresh deal or a restart

    def count_time(self, dt: float) -> None:
        """Time played: while this game is on top and not over."""
        if not self.demo and self.app.scenes.top is self and self.game.status is Status.PLAYING:
            self.play_seconds += dt

    def record_result(self, won: bool, result: str | None = None, level: str | None = None,
                      abandoned: bool = False) -> None:
        """The game ended: into the statistics (once per game), and no save."""
        if self.demo:
            return
        clear_save()
        if self.recorded_game is self.game:
            return
        self.recorded_game = self.game
        score = None if not self.has_deals else self.game.score
        problem = self.app.stats.record(self.game_id, won, score, self.play_seconds, result, level,
                                        assisted=self.assisted, abandoned=abandoned)
        if problem:
            self.app.toast(problem)

    def show_game_over(self) -> None:
        self.over_shown = True
        self.sound_of_end()
        won = self.game.status is Status.WON
        self.record_result(won)
        if won and not reduced_motion(self.app):
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
            delay = 0.0 if reduced_motion(self.app) else WIN_DIALOG_DELAY   # no wheel to watch
            self._timers.append(Timer(delay, lambda: self._game_over_dialog()
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

        buttons = [(N_("New deal"), then(self.new_deal)), (N_("Restart"), then(self.restart))]
        if not won and self.game.can_undo and self.undo_at_the_end:
            buttons.append((N_("Undo last move"), then(self.undo)))
        buttons.append((N_("Main menu"), lambda: self.app.navigator.open_menu()))
        title = {Status.WON: N_("You won!"), Status.LOST: N_("Game over"),
                 Status.DRAW: N_("Draw")}.get(self.game.status, N_("Game over"))
        lines = [reason_words(self.game.status_reason, places=self.pile_words) if self.game.status_reason else "",
                 f"{self.score_line()}  ·  {self.time_and_moves()}", self.assisted_line(won)]
        dialog = DialogScene(self.app, title, [line for line in lines if line], buttons,
                             accent=GOLD if won else ILLEGAL, update_below=True,
                             dim=40 if won else 110)
        self.app.scenes.push(dialog)
        if won:
            self.celebrate_round(dialog.panel_rect)

    def celebrate_round(self, keep_out: pygame.Rect) -> None:
        """The win's wheel keeps out of the dialog now over it (card tables)."""
        table = getattr(self, "table", None)
        if table is not None:
            table.celebrate_round(keep_out)

    def assisted_line(self, won: bool) -> str:
        """Said at the end of a game won with help ('' otherwise)."""
        if not (won and self.assisted) or self.demo:
            return ""
        return _("Won with help (automatic play or hints): kept as assisted, not as a win.")

    # --- input ------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        if self.screen_input(event):
            return
        a = event.action
        commands = {Action.UNDO: self.undo, Action.REDO: self.redo,
                    Action.NEW_DEAL: self.ask_new_deal, Action.RESTART: self.ask_restart,
                    Action.AUTOPLAY: self.toggle_autoplay, Action.PAUSE: self.open_pause,
                    Action.READ_POSITION: self.read_position}
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
        self._say_focus()
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
