"""Camelot, the board game (1930), at this computer.

Modes: against the computer (choose colour and level), two players at one
screen, and computer against computer (the demo). A small setup dialog asks
when the game opens without a mode; the choice is kept for the next game.

The screen is a composition (``scenes.table.board_screen``): the board table
(what a person does at the board: ``scenes.table.board_table``), a player per
side chosen by the mode (a person here, the computer through the work service,
a famous game's record in the demo), and the toolbar: Menu, New game, Undo,
Redo, Hint (H, gamepad X: asks the engine and shows its path in blue), Auto
(A, gamepad Back: the computer plays the person's side). Undo (U, Ctrl+Z,
gamepad Y) against the computer takes back its reply and your move; New game
(N) opens the setup dialog, Restart (R) replays the same players.

The computer's move is shown as a path for a moment, then the piece travels
square by square and each captured piece vanishes as it is jumped. Every rule
question goes to ``game.camelot.board``.
"""
from __future__ import annotations

import random

from game.base import Status
from game.camelot.board import CamelotBoard

from ..core.actions import Action
from ..core.anim import Timer
from ..core.overlays import DialogScene
from ..core.ui import GOLD, ILLEGAL
from ..store.saves import clear_save
from ..table import saved_game
from ..store.terms import LEVELS as LEVELS_SHOWN, SIDES, reason_words, term
from ..table.board_players import Person, RecordPlayer
from ..table.board_screen import BoardScreen, Command
from ..table.game_scene import DEMO_NEXT_DEAL
from ..work.service import work_service
from .camelot_analysis import BoardAnalysis
from .camelot_board_descriptor import LEVELS
from .camelot_computer import DEMO_LEVEL, ComputerPlayer
from .camelot_famous_demo import FAMOUS_PAUSE, FamousDemos, famous_line
from .camelot_keeping import keep_finished_game
from ..store.words import N_, _


def _nobody() -> bool:
    return False


class CamelotBoardScene(BoardScreen):
    """The board game at this computer: the table, the players the mode chooses,
    the hint and evaluation bar (``BoardAnalysis``), the statistics and the save."""

    holds_game = True

    def __init__(self, app, seed=None, demo=False, game=None, mode: str | None = None,
                 human: str = "white", level: str = "medium") -> None:
        self.demo = self.autoplay = demo
        self.mode = "demo" if demo else mode     # "computer", "two", "demo" or None
        self.human, self.level = human, level
        self.rng = random.Random(seed)
        self.seed = seed if seed is not None else random.randrange(1, 1_000_000)
        self.demos = FamousDemos(self.rng)
        self.famous = None                       # the famous game on show in the demo
        self.record_over = False                 # ... and its record has run out
        if game is None:
            game = self._new_game()
        commands = [
            Command(N_("Menu"), self.open_pause, (Action.PAUSE,)),
            Command(N_("New game"), self.new_game, (Action.NEW_DEAL,)),
            Command(N_("Undo"), self.undo, (Action.UNDO,), enabled=lambda: self.game.can_undo),
            Command(N_("Redo"), self.redo, (Action.REDO,), enabled=lambda: self.game.can_redo),
            Command(N_("Hint"), self.hint, (Action.HINT,)),
            Command(N_("Auto"), self.toggle_autoplay, (Action.AUTOPLAY,), lit=lambda: self.autoplay),
            Command("", self.restart, (Action.RESTART,))]
        super().__init__(app, game, {}, commands, on_move=self.play)
        self.table.shows_focus = not demo and mode is not None
        self.analysis = BoardAnalysis(app, self.table)
        self.play_seconds = 0.0          # time spent on this game (statistics, saves)
        self.assisted = False            # automatic play or a hint was used in this game
        self.recorded_game = None        # the game whose result is in the statistics
        self._computers: dict = {}
        self.players = self._seat_players()
        self._eval_bar_setting()
        if demo or mode == "computer":
            work_service()      # started in the background while the board is drawn

    # --- the players ---------------------------------------------------------------
    def _new_game(self) -> CamelotBoard:
        """A fresh board (the demo's next: a famous game every other game)."""
        self.famous, self.record_over = None, False
        if self.mode != "demo":
            return CamelotBoard()
        game, self.famous = self.demos.next_game()
        return game

    def _computer(self, name: str | None = None) -> ComputerPlayer:
        """The computer under ``name`` (its level's name if None), the same one all game:
        a search under way goes on when Auto is switched."""
        level = DEMO_LEVEL if self.demo else self.level
        key = (name, level)
        if key not in self._computers:
            computer = self._computers[key] = ComputerPlayer(level, self.rng, self.app.toast)
            computer.name = name or computer.name
        return self._computers[key]

    def _reseat(self) -> None:
        """The players for the mode now; one who has left the table drops its search."""
        before = list(self.players.values())
        self.players = self._seat_players()
        for player in before:
            if all(player is not seated for seated in self.players.values()):
                player.forget()

    def _seat_players(self) -> dict:
        """Who plays each side in this mode (Auto hands a person's side to the computer)."""
        if self.mode == "demo" and self.famous is not None:
            record = self.famous.record
            return {c: RecordPlayer(record.tag(c.capitalize()) or "?", record.moves, FAMOUS_PAUSE,
                                    on_end=self._end_record) for c in ("white", "black")}
        if self.mode == "demo":
            computer = self._computer()
            return {"white": computer, "black": computer}
        if self.mode is None:
            nobody = Person(_("Player"), may_choose=_nobody)
            return {"white": nobody, "black": nobody}
        players = {}
        for color in ("white", "black"):
            if self.mode == "computer" and color != self.human:
                players[color] = self._computer()
            elif self.autoplay:
                players[color] = self._computer(_("You (auto)") if self.mode == "computer"
                                                else _("Player (auto)"))
            else:
                players[color] = Person(_("You") if self.mode == "computer" else _("Player"))
        return players

    def _end_record(self) -> None:
        """The famous record stops with the game still on: say how it ended, then move on."""
        self.record_over = True
        self.timers.append(Timer(DEMO_NEXT_DEAL, lambda: self.start_game("demo")))

    @property
    def computer_to_move(self) -> bool:
        return self.mode is not None and self.plays_itself()

    @property
    def interactive(self) -> bool:
        return self.table.interactive

    @property
    def flipped(self) -> bool:
        return self.mode == "computer" and self.human == "black"

    def saved_options(self) -> dict:
        return {"mode": self.mode, "human": self.human, "level": self.level}

    # --- lifecycle -------------------------------------------------------------------
    def enter(self) -> None:
        super().enter()             # the card faces of a patience played before go
        self.show_new_game()
        if not self.demo:
            self.app.sound.play("deal")
        if self.mode in ("demo", "computer"):
            work_service()  # started in the background while the player looks
        if self.mode is None:
            self.open_setup(first=True)

    def leave(self) -> None:
        super().leave()

    def show_new_game(self) -> None:
        self.forget_moves()
        self.table.show_game(self.game)

    def open_setup(self, first: bool = False) -> None:
        """The small dialog: against the computer (colour, level) or two players."""
        level_cell = [self.level]

        def choose(mode, human="white"):
            def run():
                self.app.scenes.remove(dialog)
                self.start_game(mode, human, level_cell[0])
            return run

        def cycle_level():
            level_cell[0] = LEVELS[(LEVELS.index(level_cell[0]) + 1) % len(LEVELS)]
            level_button.label = _("Computer level: {level}").format(level=term(LEVELS_SHOWN, level_cell[0]))

        def back():
            if first or self.mode is None:
                self.app.navigator.open_menu()
            else:
                self.app.scenes.remove(dialog)

        buttons = [(N_("Play White against the computer"), choose("computer", "white")),
                   (N_("Play Black against the computer"), choose("computer", "black")),
                   (_("Computer level: {level}").format(level=term(LEVELS_SHOWN, self.level)), cycle_level),
                   (N_("Two players at this screen"), choose("two")),
                   (N_("Play online"), lambda: self.app.navigator.open_online()),
                   (N_("Main menu") if first or self.mode is None else N_("Cancel"), back)]
        dialog = DialogScene(self.app, N_("Camelot"), [N_("Who plays? White moves first.")], buttons,
                             on_back=back)
        level_button = dialog.focus.buttons[2]
        dialog.focus.focus = 3 if self.mode == "two" else 1 if self.human == "black" else 0
        self.app.scenes.push(dialog)

    def start_game(self, mode: str, human: str = "white", level: str | None = None) -> None:
        """A fresh game with these players (the choice is kept)."""
        self.forget_moves()
        self.mode, self.human = mode, human
        if level:
            self.level = level
        self.autoplay = self.demo
        self.game = self._new_game()
        self._computers = {}
        self.players = self._seat_players()
        self.table.shows_focus = not self.demo
        self._eval_bar_setting()
        self._new_game_started()
        self.over_shown = False
        self.fresh = True
        self._full_next = True       # the board may have turned round
        self.layout(self.play_area)
        self.show_new_game()
        if mode in ("demo", "computer"):
            work_service()

    def new_game(self) -> None:
        if self.demo or self.mode is None:
            self.start_game(self.mode or "two", self.human)
        else:
            self.open_setup()

    def restart(self) -> None:
        self.start_game(self.mode or "two", self.human)

    def open_help(self) -> None:
        self.app.navigator.open_help(self.game_id)

    def open_pause(self, reason: str = "") -> None:
        def resume():
            self.app.scenes.pop()

        def then(action):
            def run():
                self.app.scenes.pop()
                action()
            return run

        lines = ([reason] if reason else []) + [self._players_line()]
        self.app.scenes.push(DialogScene(self.app, N_("Paused"), lines, [
            (N_("Resume"), resume), (N_("New game"), then(self.open_setup)),
            (N_("Restart"), then(self.restart)), (N_("How to play"), self.open_help),
            (N_("Settings"), self.app.navigator.open_settings),
            (N_("Main menu"), lambda: self.app.navigator.open_menu())],
            on_back=resume))

    # --- statistics and the saved game -----------------------------------------------
    save_on_quit = saved_game.save_on_quit
    _new_game_started = saved_game.new_game_started

    def _record_result(self, won: bool, result: str) -> None:
        """The game ended: into the statistics (once per game), and no save."""
        clear_save()
        if self.recorded_game is self.game:
            return
        self.recorded_game = self.game
        problem = self.app.stats.record(self.game_id, won, None, self.play_seconds, result,
                                        self.level, assisted=self.assisted)
        if problem:
            self.app.toast(problem)

    def show_game_over(self) -> None:
        self.over_shown = True
        if self.demo:
            self.timers.append(Timer(DEMO_NEXT_DEAL, lambda: self.start_game("demo")))
            return
        self._autoplay_off()
        winner = self.game.winner
        if self.game.status is Status.DRAW or winner is None:
            title, good = N_("Draw"), False
        elif self.mode == "computer":
            good = winner == self.human
            title = N_("You won!") if good else N_("The computer won")
        else:
            title, good = _("{side} wins!").format(side=term(SIDES, winner)), True
        if self.game.status is not Status.DRAW:
            self.app.sound.play("win" if good else "loss")
        if self.mode == "computer":  # two players at one screen: no one's record
            self._record_result(good, "drawn" if title == "Draw" else "won" if good else "lost")
        else:
            clear_save()
        kept = keep_finished_game(self)

        def then(action):
            def run():
                self.app.scenes.remove(dialog)
                action()
            return run

        buttons = [(N_("Play again"), then(self.restart)), (N_("New game…"), then(self.open_setup))]
        if self.game.can_undo:
            buttons.append((N_("Undo last move"), then(self.undo)))
        if kept is not None:
            buttons.append((N_("Replay this game"), then(lambda: self.app.navigator.open_replay(kept))))
        buttons.append((N_("Main menu"), lambda: self.app.navigator.open_menu()))
        reason = self.game.status_reason
        won_with_help = good and self.mode == "computer" and self.assisted
        lines = [reason_words(reason) if reason else "",
                 self.time_and_moves(),
                 _("Won with help (automatic play or hints): kept as assisted, not as a win.")
                 if won_with_help else ""]
        dialog = DialogScene(self.app, title, [line for line in lines if line], buttons,
                             accent=GOLD if good else ILLEGAL, update_below=True,
                             dim=40 if good else 100)
        self.app.scenes.push(dialog)

    # --- commands ----------------------------------------------------------------------
    def hint(self) -> None:
        if not self.interactive:
            self.app.toast(_("Wait for your turn") if self.game.status is Status.PLAYING
                           else _("The game is over"))
            return
        self.assisted = True              # a game won after a hint is kept as won with help
        self.analysis.ask_hint(self._position())

    def _position(self) -> str:
        """The position string, computed once per position."""
        key = (self.game, tuple(self.game.history))
        if getattr(self, "_position_key", None) != key:
            self._position_key, self._position_text = key, self.game.position_text()
        return self._position_text

    def toggle_autoplay(self) -> None:
        self.autoplay = not self.autoplay
        self.assisted = self.assisted or self.autoplay
        self.app.toast(_("Automatic play on") if self.autoplay else _("Automatic play off"), 1.5)
        self.table.deselect()
        self._reseat()

    def _autoplay_off(self) -> None:
        if self.autoplay:
            self.autoplay = False
            self._reseat()

    def undo(self) -> None:
        self._step_history(self.game.undo, _("Nothing to undo"))

    def redo(self) -> None:
        self._step_history(self.game.redo, _("Nothing to redo"))

    def _step_history(self, step, nothing: str) -> None:
        """Undo/redo one move; against the computer, back to the player's turn."""
        self.table.finish_animations()
        self.forget_moves()
        if step() is None:
            self.app.toast(nothing)
            return
        if self.mode == "computer" and not self.autoplay:
            while self.game.turn != self.human and step() is not None:
                pass
        self.over_shown = False
        self.show_state()

    # --- each frame ----------------------------------------------------------------------
    def tick(self, dt: float) -> None:
        if self.app.scenes.top is self and self.game.status is Status.PLAYING and not self.demo:
            self.play_seconds += dt
        position = self._position() if self.mode is not None else None
        # Not while the computer thinks: the two searches would share the cores and
        # the computer would play weaker in its time. The bar keeps the last answer.
        self._eval_bar_setting()
        bar_wanted = self.table.eval_bar and not self.busy \
            and self.game.status is Status.PLAYING and not self.computer_to_move
        self.analysis.poll(position, bar_wanted)

    def _eval_bar_setting(self) -> None:
        self.table.eval_bar = bool(getattr(self.app.settings, "eval_bar", False)) \
            and self.mode is not None

    # --- the words on screen ------------------------------------------------------------
    def _players_line(self) -> str:
        if self.mode == "computer":
            return _("You play {side} against the computer ({level}).").format(
                side=term(SIDES, self.human), level=term(LEVELS_SHOWN, self.level))
        if self.mode == "demo":
            return self.famous.title if self.famous else _("The computer plays both sides.")
        return _("Two players at one screen.")

    def status_line(self) -> str:
        game = self.game
        if self.mode is None:
            return ""
        if game.status is not Status.PLAYING:
            return reason_words(game.status_reason, full_stop=False)
        arriving = self.arriving_line()
        if arriving is not None:
            return arriving
        if self.computer_to_move:
            return "" if self.demo else _("{side} to move: the computer is thinking").format(
                side=term(SIDES, game.turn))
        return self.turn_line(_("Your move") if self.mode == "computer"
                              else _("{side} to move").format(side=term(SIDES, game.turn)))

    def moves_made(self) -> int:
        """Numbered as the move list numbers them: White's move and Black's reply are one."""
        return (len(self.game.history) + 1) // 2

    def score_line(self) -> str:
        counts = {"white": 0, "black": 0}
        for piece in self.table.on_board():
            counts[piece.color] += 1
        return _("White {white} · Black {black}").format(white=counts["white"], black=counts["black"])

    def _hud_texts(self) -> dict[str, list[tuple]]:
        texts = super()._hud_texts()
        if self.famous is not None and self.demo:
            s = self.scale
            w, h = self.size
            texts["famous"] = [(famous_line(self.famous, self.record_over), int(26 * s),
                                (w // 2, h - int(30 * s)), GOLD, "center", True)]
        return texts
