"""Replaying a Camelot game record on the board (the list of kept games is
``replay_list``).

The replay is a board screen (``scenes.table.board_screen``): the board table,
the record playing both sides, and a toolbar of steps. It draws with the board
game's own pieces: a move
going forward travels its path square by square, captured pieces vanishing as
they are jumped; a step back travels the same path in reverse, the captured
pieces coming back as the mover passes over them again. A jump to a move
(Home, End, the move list) is at once. Controls:

- Right / Down / Enter, Ctrl+Y, gamepad D-pad right or left shoulder: next move;
- Left / Up, U / Ctrl+Z, gamepad D-pad left or Y: the move before;
- Home / End (R is the start too): the first or the last position;
- a click on a move in the list jumps there; the wheel or Tab steps;
- A (gamepad Back) plays the game through by itself; Escape / B leaves.

For each position the engine's view (``scenes.work.analysis``, a shallow
search in a worker process) is shown beside the board as a bar, and in the
panel as a score, the best move and the reply it expects.
"""
from __future__ import annotations

from game.camelot import record as camelot_record
from game.base import Status
from game.camelot.board import CamelotBoard
from game.camelot.record import BadRecordError
from game.errors import IllegalMoveError

from ..core.actions import Action
from ..store.terms import term
from ..core.sound import sound_for_events
from ..core.ui import FONTS, GOLD, fit_text
from ..table.board_analysis import line_words, score_words
from ..table.board_players import Pace, Player, RecordPlayer
from ..table.board_screen import BoardScreen, Command, Part
from ..work.analysis import Analyst
from ..store.words import N_, _, ngettext

RESULT_WORDS = {"1-0": N_("White won"), "0-1": N_("Black won"), "1/2-1/2": N_("Drawn"), "*": N_("Unfinished")}
AUTOPLAY_EVERY = 1.2      # s between moves when the replay plays itself (normal speed)


def result_words(record) -> str:
    """The record's result in words. An opening (Result ``*``, with the whole
    game's result in its GameResult tag, as the famous games have) says how
    the game it opened ended."""
    whole = record.tag("GameResult")
    if record.result == "*" and whole in RESULT_WORDS and whole != "*":
        ended = _("game drawn") if whole == "1/2-1/2" else term(RESULT_WORDS, whole)
        return _("Opening ({result})").format(result=ended)
    return term(RESULT_WORDS, record.result)


def moves_words(count: int) -> str:
    """'1 move', '12 moves' (as the move list counts them)."""
    return ngettext("{n} move", "{n} moves", count).format(n=count)


def load_game(record) -> CamelotBoard:
    """The record's whole game, wound back to its start (the moves wait in redo).
    IllegalMoveError names the first move the rules refuse."""
    game = record.to_game()
    while game.undo() is not None:
        pass
    return game


class ReplayScene(BoardScreen):
    """One record on the board, step by step: the board table, the record as
    the player of both sides (its Play), and the steps in the toolbar."""

    def __init__(self, app, record, name: str = "") -> None:
        self.record = record
        self.name = name
        self.autoplay = False
        self.analyst = Analyst()
        # The record plays itself on Play: a move every AUTOPLAY_EVERY s, stepped forward
        # through the game's own redo (the moves are the record's, already checked).
        self.reader = RecordPlayer("", record.moves, AUTOPLAY_EVERY)
        side = {c: Player(record.tag(c.capitalize(), "?") or "?") for c in ("white", "black")}
        commands = [
            Command(N_("Back"), self.leave_replay, (Action.PAUSE, Action.BACK)),
            Command("|<", self.to_start, (Action.RESTART, Action.NEW_DEAL, Action.FIRST),
                    enabled=lambda: self.ply > 0),
            Command("<", self.step_back, (Action.UNDO, Action.LEFT), enabled=lambda: self.ply > 0),
            Command(">", self.step_forward, (Action.REDO, Action.RIGHT, Action.SELECT),
                    enabled=lambda: self.ply < self.plies),
            Command(">|", self.to_end, (Action.LAST,), enabled=lambda: self.ply < self.plies),
            Command(N_("Play"), self.toggle_play, (Action.AUTOPLAY,), lit=lambda: self.autoplay),
            Command("", lambda: self.jump(self.ply + 2), (Action.DOWN,)),
            Command("", lambda: self.jump(self.ply - 2), (Action.UP,))]
        super().__init__(app, load_game(record), side, commands, parts=(StepsByWheel(self),))
        table = self.table
        table.shows_focus, table.shows_best, table.eval_bar = False, True, True
        table.record_moves = tuple(record.moves)
        table.on_pick_ply = self.jump
        table.on_settled = self._ask_analysis
        table.panel_lines = self._engine_words

    @property
    def ply(self) -> int:
        return len(self.game.history)

    @property
    def plies(self) -> int:
        return len(self.record.moves)

    def enter(self) -> None:
        super().enter()             # the card faces of a patience played before go
        self.show_state()
        self.app.sound.play("deal")

    def leave(self) -> None:
        self.analyst.forget()
        super().leave()

    def show_game_over(self) -> None:
        self.over_shown = True     # the end of the record: nothing to record, no dialog
        self.autoplay = False

    # --- where we are -------------------------------------------------------------------
    def show_state(self) -> None:
        super().show_state()
        self._ask_analysis()

    def _ask_analysis(self) -> None:
        self.table.analysis = None
        self.analyst.ask(self.game.position_text())

    def step_forward(self) -> None:
        """The next move, travelling the path its record holds."""
        self.table.finish_animations()
        record = self.game.redo()
        if record is None:
            self.app.toast(_("That was the last move"), 1.2)
            self.autoplay = False
            return
        self.app.sound.play_all(sound_for_events(record.events))
        self.table.show_record(record, from_afar=True, path_first=False)
        self._ask_analysis()

    def step_back(self) -> None:
        """The move before: the piece travels its path back to where it started,
        and what it captured comes back as it passes over it again."""
        self.table.finish_animations()
        move = self.game.last_move
        if self.game.undo() is None:
            self.app.toast(_("That was the first move"), 1.2)
            return
        self.over_shown = False
        self.table.show_step_back(move, self.game.pieces())
        self._ask_analysis()

    def jump(self, ply: int) -> None:
        """To the position after ``ply`` moves, at once."""
        self.table.finish_animations()
        ply = max(0, min(self.plies, ply))
        while self.ply > ply and self.game.undo() is not None:
            pass
        while self.ply < ply and self.game.redo() is not None:
            pass
        self.over_shown = self.ply == self.plies and self.game.status is not Status.PLAYING
        self.show_state()

    def to_start(self) -> None:
        self.autoplay = False
        self.jump(0)

    def to_end(self) -> None:
        self.autoplay = False
        self.jump(self.plies)

    def toggle_play(self) -> None:
        """Play the record through by itself (or stop)."""
        self.autoplay = not self.autoplay
        self.reader.restart()
        self.reader.hurry()                 # the first move at once
        if self.autoplay and self.ply >= self.plies:
            self.jump(0)

    def leave_replay(self) -> None:
        self.app.scenes.pop() if len(self.app.scenes.scenes) > 1 else self.app.navigator.open_menu()

    def open_pause(self, reason: str = "") -> None:
        self.leave_replay()

    # --- each frame --------------------------------------------------------------------------
    def tick(self, dt: float) -> None:
        answer = self.analyst.poll()
        if answer is not None and self.analyst.position == self.game.position_text():
            self.table.analysis = answer
        if not self.autoplay:
            return
        if self.game.status is not Status.PLAYING:
            self.autoplay = False
        elif self.app.scenes.top is self:
            move = self.reader.next_move(self.game, dt, Pace(self.app.settings.speed_factor, False,
                                                             self.busy))
            if move is not None or self.reader.ended:    # ended: "That was the last move"
                self.step_forward()

    # --- what is drawn ---------------------------------------------------------------------
    def status_line(self) -> str:
        """Where the replay is, counted as the move list numbers the moves (a
        White move and Black's reply are one move)."""
        record = self.record
        if self.ply == 0:
            return ngettext("Start · {n} move · Right arrow: next move, Home/End, or click a move",
                            "Start · {n} moves · Right arrow: next move, Home/End, or click a move",
                            record.full_moves).format(n=record.full_moves)
        return _("Move {n} of {count}, {side}: {move}").format(
            n=record.move_number(self.ply), count=record.full_moves,
            side=_(record.mover(self.ply).capitalize()), move=self.game.history[-1])

    def score_line(self) -> str:
        return result_words(self.record)

    def _engine_words(self) -> tuple[str, str]:
        words = score_words(self.table.analysis)
        if self.table.analysis is None and self.analyst.error:
            words = _("Engine: no answer ({problem})").format(problem=self.analyst.error)
        return words, line_words(self.table.analysis)

    def _hud_texts(self) -> dict[str, list[tuple]]:
        texts = super()._hud_texts()
        s = self.scale
        title = _("Replay") + (f" · {self.name}" if self.name else "")
        # a record's name (a file's, say) can be long: cut to end before the status line
        left, px = int(20 * s), int(30 * s)
        centre = self._texts_rect(texts["centre"])
        room = (centre.left if centre is not None else self.size[0] // 2) - left - int(16 * s)
        title = fit_text(title, FONTS.font(px, bold=True), max(room, px))
        texts["left"] = [(title, px, (left, self.hud_h // 2), GOLD, "midleft", True)]
        texts["right"] = texts["right"][:1]    # the result; no time played, no move count
        return texts


class StepsByWheel(Part):
    """The wheel (Tab, RB) steps through the record; a right-click steps back."""

    def __init__(self, replay: ReplayScene) -> None:
        self.replay = replay

    def handle(self, event) -> bool:
        replay = self.replay
        if event.action == Action.CYCLE:
            replay.step_back() if event.amount < 0 else replay.step_forward()
            return True
        if event.action == Action.POINTER_DOWN and event.button == 3 and not any(
                b.contains(event.pos) for b in replay.toolbar.buttons):
            replay.step_back()
            return True
        return False


def read_record(path) -> tuple[object | None, str]:
    """(record, '') or (None, one line): the file read and its moves checked."""
    try:
        record = camelot_record.read(path)
        load_game(record)
    except (BadRecordError, IllegalMoveError) as exc:
        return None, f"{path}: {exc}" if str(path) not in str(exc) else str(exc)
    return record, ""


__all__ = ["ReplayScene", "read_record", "load_game", "RESULT_WORDS"]
