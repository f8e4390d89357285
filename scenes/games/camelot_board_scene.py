"""Camelot, the board game (1930), on screen.

Modes: against the computer (choose colour and level), two players at one
screen, and computer against computer (the demo). A small setup dialog asks
when the game opens without a mode; the choice is kept for the next game.

Input (the seed's interface, mouse first):

- Hovering a piece that may move outlines it in yellow (when capturing is
  compulsory only the pieces that can capture light up). A click selects it and
  every square it can reach is outlined in green. Hovering a green square shows
  the whole path, numbered step by step, with the pieces it would capture
  crossed out. Where several paths or capture sets reach that square, moving
  out and back in, the mouse wheel, Tab or the gamepad's right shoulder cycle
  through them. A click (or dropping the dragged piece there) plays the path
  shown. Right-click or Escape deselects.
- Keyboard / gamepad: arrows or D-pad move a focus square; Enter / A selects
  the piece under it, or plays the shown path when the focus is on a green
  square; Tab / RB cycles paths (or, with nothing to cycle, jumps to the next
  piece that may move or the next reachable square); Escape / B deselects.

Toolbar and keys: Hint (H, gamepad X) asks the computer at the easy level and
shows its path in blue; Auto (A, gamepad Back) lets the computer play for you;
Undo (U, Ctrl+Z, gamepad Y) against the computer takes back its reply and your
move; New game (N) opens the setup dialog, Restart (R) replays the same players.

The computer thinks in the work service's processes (``scenes.work.service``), so the frames
keep coming while it searches. Its move is shown as a path for a moment, then
the piece travels square by square and each captured piece vanishes as it is
jumped. Every rule question goes to ``game.camelot.board``.
"""
from __future__ import annotations

import pygame

from game.base import Status
from game.camelot.board import MUST_CAPTURE, MUST_LEAVE_CASTLE, CamelotBoard, PieceCaptured, PieceMoved
from game.errors import RoundTableError

from ..core.actions import DIRECTIONS, Action, InputEvent
from ..work.service import Channel, work_service
from ..core.anim import Timer
from .camelot_board_descriptor import LEVELS
from .camelot_computer import DEMO_LEVEL, ComputerTurns
from .camelot_famous_demo import FamousDemo
from .camelot_analysis import BoardAnalysis
from .camelot_keeping import keep_finished_game
from ..table.board_layers import COLORS, BoardLayers, Travel
from ..table.board_analysis import AnalysisView
from ..table.board_view import PATH_COMPUTER, PATH_PLAYER
from ..table.game_scene import DEMO_NEXT_DEAL, GameScene
from ..core.overlays import DialogScene
from ..core.ui import GOLD, ILLEGAL, Button
from ..store.saves import clear_save

PREVIEW_TIME = 0.8         # s the computer's path is shown before it moves
STUCK_WORDS = {            # a refused piece: the engine's Refusal.code → the toast
    MUST_LEAVE_CASTLE: "The piece in your own castle must move out first",
    MUST_CAPTURE: "Capturing is compulsory: choose a piece that can jump",
}


class CamelotBoardScene(FamousDemo, BoardAnalysis, ComputerTurns, BoardLayers, GameScene):
    engine = CamelotBoard

    def __init__(self, app, seed=None, demo=False, game=None, mode: str | None = None,
                 human: str = "white", level: str = "medium") -> None:
        self.view = AnalysisView()             # the board, and the evaluation bar
        self.mode = "demo" if demo else mode     # "computer", "two", "demo" or None
        self.human = human
        self.level = level
        self.shown: dict = {}                    # square → Piece, as drawn at rest
        self.travel: Travel | None = None
        self.vanishing: list[list] = []          # [piece, square, seconds]
        self.selected: int | None = None
        self.hover: int | None = None
        self.focus_sq = 0
        self.alt_index: dict[int, int] = {}      # target square → alternative shown
        self._entered: set[int] = set()          # targets the pointer has been on
        self._press: int | None = None           # square a left press selected on
        self.last_move: tuple | None = None      # (path, captured squares)
        self.worker = Channel("camelot-move")   # the board AI, off the frame loop
        if demo or mode == "computer":
            work_service()      # started in the background while the board is drawn
        self._task: tuple | None = None          # ("move" | "hint", position) asked
        self._ready = None                       # the computer's move, waiting to play
        self._wait = 0.0
        self._items: list[tuple] = []
        self._drawn: set[tuple] = set()
        self.clock_time = 0.0
        self._version = 0                        # bumped whenever the game changes
        super().__init__(app, seed, demo, game)

    def new_engine(self, seed: int) -> CamelotBoard:
        # the demo replays a famous game every other game (camelot_famous_demo)
        if self.mode == "demo":
            return self.new_demo_game()
        self.famous = None
        return CamelotBoard()

    # --- modes and lifecycle -------------------------------------------------------
    def saved_options(self) -> dict:
        return {"mode": self.mode, "human": self.human, "level": self.level}

    @property
    def flipped(self) -> bool:
        return self.mode == "computer" and self.human == "black"

    def enter(self) -> None:
        super().enter()
        if self.mode in ("demo", "computer"):
            work_service()  # started in the background while the player looks
        if self.mode is None:
            self.open_setup(first=True)

    def leave(self) -> None:
        self.worker.cancel()

    def _make_buttons(self) -> list[Button]:
        return [Button("Menu", self.open_pause), Button("New game", self.new_deal),
                Button("Undo", self.undo), Button("Redo", self.redo),
                Button("Hint", self.hint), Button("Auto", self.toggle_autoplay)]

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
            level_button.label = f"Computer level: {level_cell[0].capitalize()}"

        def back():
            if first or self.mode is None:
                self.app.navigator.open_menu()
            else:
                self.app.scenes.remove(dialog)

        buttons = [("Play White against the computer", choose("computer", "white")),
                   ("Play Black against the computer", choose("computer", "black")),
                   (f"Computer level: {self.level.capitalize()}", cycle_level),
                   ("Two players at this screen", choose("two")),
                   ("Play online", lambda: self.app.navigator.open_online()),
                   ("Main menu" if first or self.mode is None else "Cancel", back)]
        dialog = DialogScene(self.app, "Camelot", ["Who plays? White moves first."], buttons,
                             on_back=back)
        level_button = dialog.focus.buttons[2]
        dialog.focus.focus = 3 if self.mode == "two" else 1 if self.human == "black" else 0
        self.app.scenes.push(dialog)

    def start_game(self, mode: str, human: str = "white", level: str | None = None) -> None:
        """A fresh game with these players (the choice is kept)."""
        self.mode, self.human = mode, human
        if level:
            self.level = level
        self.autoplay = self.demo
        self.game = self.new_engine(self.seed)
        self._new_game_started()
        self.over_shown = False
        self._fresh_deal = True
        self._full_next = True       # the board may have turned round
        self.layout(self.play_area)
        self.show_new_game()
        if mode in ("demo", "computer"):
            work_service()

    def new_deal(self, seed: int | None = None) -> None:
        if self.demo or self.mode is None:
            self.start_game(self.mode or "two", self.human)
        else:
            self.open_setup()

    def ask_new_deal(self) -> None:
        """The setup dialog asks already (and can be cancelled)."""
        self.new_deal()

    def restart(self) -> None:
        self.start_game(self.mode or "two", self.human)

    def open_pause(self, reason: str = "") -> None:
        def resume():
            self.app.scenes.pop()

        def then(action):
            def run():
                self.app.scenes.pop()
                action()
            return run

        lines = ([reason] if reason else []) + [self._players_line()]
        self.app.scenes.push(DialogScene(self.app, "Paused", lines, [
            ("Resume", resume), ("New game", then(self.open_setup)),
            ("Restart", then(self.restart)), ("How to play", self.open_help),
            ("Settings", self.app.navigator.open_settings),
            ("Main menu", lambda: self.app.navigator.open_menu())],
            on_back=resume))

    def show_game_over(self) -> None:
        self.over_shown = True
        if self.demo:
            self._timers.append(Timer(DEMO_NEXT_DEAL, lambda: self.start_game("demo")))
            return
        self.autoplay = False
        winner = self.game.winner
        if self.game.status is Status.DRAW or winner is None:
            title, good = "Draw", False
        elif self.mode == "computer":
            good = winner == self.human
            title = "You won!" if good else "The computer won"
        else:
            title, good = f"{winner.capitalize()} wins!", True
        self.sound_of_end(good)
        if self.mode == "computer":  # two players at one screen: no one's record
            result = "drawn" if title == "Draw" else "won" if good else "lost"
            self.record_result(good, result, self.level)
        else:
            clear_save()
        kept = keep_finished_game(self)

        def then(action):
            def run():
                self.app.scenes.remove(dialog)
                action()
            return run

        buttons = [("Play again", then(self.restart)), ("New game…", then(self.open_setup))]
        if self.game.can_undo:
            buttons.append(("Undo last move", then(self.undo)))
        if kept is not None:
            buttons.append(("Replay this game", then(lambda: self.app.navigator.open_replay(kept))))
        buttons.append(("Main menu", lambda: self.app.navigator.open_menu()))
        reason = self.game.status_reason
        lines = [reason[:1].upper() + reason[1:] + "." if reason else "",
                 self.time_and_moves(),
                 self.assisted_line(good and self.mode == "computer")]
        dialog = DialogScene(self.app, title, [line for line in lines if line], buttons,
                             accent=GOLD if good else ILLEGAL, update_below=True,
                             dim=40 if good else 100)
        self.app.scenes.push(dialog)

    # --- who plays --------------------------------------------------------------------
    def _computer_side(self, color: str) -> bool:
        return self.demo or self.autoplay or (self.mode == "computer" and color != self.human)

    @property
    def computer_to_move(self) -> bool:
        return (self.mode is not None and self.game.status is Status.PLAYING
                and self._computer_side(self.game.turn))

    @property
    def interactive(self) -> bool:
        """The player at the screen may pick a move now."""
        return (self.mode is not None and self.game.status is Status.PLAYING and not self.busy
                and not self.computer_to_move)

    def _players_line(self) -> str:
        if self.mode == "computer":
            return f"You play {self.human.capitalize()} against the computer ({self.level})."
        if self.mode == "demo":
            return self.famous.title if self.famous else "The computer plays both sides."
        return "Two players at one screen."

    def _side_name(self, color: str) -> str:
        if self.mode == "demo" and self.famous is not None:
            return self.famous.record.tag(color.capitalize()) or "?"
        if self.mode == "demo" or (self.mode == "computer" and color != self.human):
            level = DEMO_LEVEL if self.mode == "demo" else self.level
            return f"Computer ({level})"
        if self.mode == "computer":
            return "You" + (" (auto)" if self.autoplay else "")
        return "Player" + (" (auto)" if self.autoplay else "")

    # --- layout -------------------------------------------------------------------------
    def layout(self, area: pygame.Rect) -> None:
        self.view.layout(area, self.scale, self.flipped)

    # --- showing the engine's state ---------------------------------------------------
    def show_new_game(self) -> None:
        self.show_state()
        self._wait = 0.0
        self.focus_sq = self._initial_focus()

    def _initial_focus(self) -> int:
        movable = self._movable()
        if not movable:
            return next(iter(self.shown), 0)
        if self.view.art is None:
            return min(movable)
        cx, cy = self.view.board_rect.center

        def distance(sq):
            x, y = self.view.square_centre(sq)
            return abs(x - cx) + abs(y - cy)
        return min(sorted(movable), key=distance)

    def show_state(self) -> None:
        """After undo/redo: everything at once, nothing pending."""
        self._version += 1
        self._cancel_ai()
        self.travel = None
        self.vanishing.clear()
        self.shown = self.game.pieces()
        self.last_move = self._last_from_history()
        self._deselect()
        self.hint_move = None

    def _last_from_history(self):
        move = self.game.last_move
        return None if move is None else (move.path, frozenset(move.captures))

    def show_record(self, record, by_computer: bool = False) -> None:
        steps, piece = [], None
        for event in record.events:
            if isinstance(event, PieceMoved):
                piece = piece or event.piece
                steps.append([event.source, event.target, None])
            elif isinstance(event, PieceCaptured) and steps:
                steps[-1][2] = (event.square, event.piece)
        if not steps:
            self.show_state()
            return
        path = tuple([steps[0][0]] + [b for _, b, _ in steps])
        captured = frozenset(took[0] for *_, took in steps if took is not None)
        speed = self.app.settings.speed_factor
        color = PATH_COMPUTER if by_computer else PATH_PLAYER
        preview = PREVIEW_TIME / speed if by_computer else 0.0
        self.travel = Travel(piece, [tuple(s) for s in steps], path, captured, color, preview, speed)
        self._deselect()
        self.hint_move = None
        if self.travel.total <= 0:
            self.finish_animations()

    def finish_animations(self) -> None:
        travel = self.travel
        if travel is None:
            return
        self.travel = None
        self.vanishing.clear()
        self.shown = self.game.pieces()
        self.last_move = (travel.path, travel.captured)

    @property
    def busy(self) -> bool:
        return self.travel is not None

    def status_line(self) -> str:
        game = self.game
        if self.mode is None:
            return ""
        if game.status is not Status.PLAYING:
            return game.status_reason[:1].upper() + game.status_reason[1:]
        turn = game.turn.capitalize()
        if self.travel is not None and self.travel.color == PATH_COMPUTER and not self.demo:
            mover = self.travel.piece.color.capitalize()
            return f"{mover} plays {game.history[-1]}: click to skip" if game.history else ""
        if self.computer_to_move:
            return "" if self.demo else f"{turn} to move: the computer is thinking"
        preview = self._preview()
        if preview is not None:
            target, alts, index = preview
            if len(alts) > 1:
                return f"Path {index % len(alts) + 1} of {len(alts)}: Tab, wheel or RB for the next"
        head = "Your move" if self.mode == "computer" else f"{turn} to move"
        if game.must_leave_castle():
            return f"{head}: the piece in your own castle must come out"
        if game.capture_is_compulsory:
            return f"{head}: capturing is compulsory"
        return head

    def moves_made(self) -> int:
        """Numbered as the move list numbers them: White's move and Black's reply are one."""
        return (len(self.game.history) + 1) // 2

    def score_line(self) -> str:
        counts = {c: 0 for c in COLORS}
        for piece in self.on_board():
            counts[piece.color] += 1
        return f"White {counts['white']} · Black {counts['black']}"

    # --- the player's choices ----------------------------------------------------------
    def _movable(self) -> set[int]:
        return {m.from_square for m in self.game.legal_moves()}

    def _targets(self) -> set[int]:
        if self.selected is None:
            return set()
        return {m.to_square for m in self.game.moves_from(self.selected)}

    def _alternatives(self, target: int) -> list:
        """Every (move, path) from the selected piece to ``target``."""
        if self.selected is None or target is None:
            return []
        return [(m, p) for m in self.game.moves_from(self.selected) if m.to_square == target
                for p in m.paths]

    def _pointer_mode(self) -> bool:
        """The pointer, not the focus square, says which target is previewed.
        Only the pointer itself and the focus keys (arrows, SELECT) switch: Tab,
        H or U pressed with the mouse over a target leave the preview there."""
        pointing = getattr(self, "_pointing", None)
        return self.app.input.last_device == "mouse" if pointing is None else pointing

    def _preview(self):
        """(target, alternatives, index) of the path shown now, or None."""
        if self.selected is None or not self.interactive:
            return None
        target = self.hover if self._pointer_mode() else self.focus_sq
        alts = self._alternatives(target)
        if not alts:
            return None
        return target, alts, self.alt_index.get(target, 0) % len(alts)

    def _select(self, sq: int) -> None:
        self.selected = sq
        self.alt_index.clear()
        self._entered.clear()
        if self.hover is not None and self.hover in self._targets():
            self._entered.add(self.hover)

    def _deselect(self) -> None:
        self.selected = None
        self.alt_index.clear()
        self._entered.clear()

    def _play_alternative(self, alt) -> None:
        move, path = alt
        target = move.to_square
        record = self.play(move.with_path(path))
        if record is not None:
            self.focus_sq = target

    def toggle_autoplay(self) -> None:
        super().toggle_autoplay()
        self._deselect()
        if not self.computer_to_move:
            self._cancel_ai()

    def undo(self) -> None:
        self._step_history(self.game.undo, "Nothing to undo")

    def redo(self) -> None:
        self._step_history(self.game.redo, "Nothing to redo")

    def _step_history(self, step, nothing: str) -> None:
        """Undo/redo one move; against the computer, back to the player's turn."""
        self.finish_animations()
        self._cancel_ai()
        if step() is None:
            self.app.toast(nothing)
            return
        if self.mode == "computer" and not self.autoplay:
            while self.game.turn != self.human and step() is not None:
                pass
        self._after_history()

    # --- input ---------------------------------------------------------------------------
    def handle_table(self, event: InputEvent) -> None:
        a = event.action
        if event.is_pointer:
            self._pointing = True
        elif a in DIRECTIONS or a == Action.SELECT:
            self._pointing = False
        if a == Action.POINTER_MOVE:
            self._set_hover(self.view.square_at(event.pos))
        elif a == Action.POINTER_DOWN:
            if self.busy:
                self.finish_animations()    # a click makes the move take effect
                self._press = None
                return
            if event.button == 3:
                self._deselect()
                return
            if event.button == 1:
                sq = self.view.square_at(event.pos)
                self._set_hover(sq)
                self._press = sq if self._activate(sq) == "selected" else None
        elif a == Action.POINTER_UP and event.button == 1:
            sq = self.view.square_at(event.pos)
            press, self._press = self._press, None
            if press is not None and sq != press and self.selected == press and self.interactive:
                # Dropped on a reachable square after dragging: play it.
                self._set_hover(sq)
                preview = self._preview()
                if preview is not None:
                    target, alts, index = preview
                    self._play_alternative(alts[index])
        elif a == Action.CYCLE:
            self._cycle(-1 if event.amount < 0 else 1)
        elif a in DIRECTIONS:
            self.focus_sq = self.view.step_focus(self.focus_sq, DIRECTIONS[a])
        elif a == Action.SELECT:
            if self.busy:
                self.finish_animations()
                return
            self._activate(self.focus_sq)
        elif a == Action.BACK:
            if self.selected is not None:
                self._deselect()
            else:
                self.back_pressed()

    def _set_hover(self, sq) -> None:
        if sq == self.hover:
            return
        self.hover = sq
        if sq is not None and self.selected is not None and sq in self._targets():
            # Moving out of a green square and back in shows the next path.
            if sq in self._entered:
                self.alt_index[sq] = self.alt_index.get(sq, 0) + 1
            self._entered.add(sq)

    def _activate(self, sq) -> str:
        """A click or SELECT on a square. Returns what it did."""
        if not self.interactive:
            return "nothing"
        if sq is not None and self.selected is not None and sq in self._targets():
            alts = self._alternatives(sq)
            self._play_alternative(alts[self.alt_index.get(sq, 0) % len(alts)])
            return "played"
        movable = self._movable()
        if sq in movable:
            if sq == self.selected and not self._pointer_mode():
                self._deselect()
                return "deselected"
            self._select(sq)
            self._follow_hint(sq)
            return "selected"
        piece = self.shown.get(sq) if sq is not None else None
        if piece is not None and piece.color == self.game.turn:
            self.app.toast(self._why_stuck(sq), 2.5)
        self._deselect()
        return "nothing"

    def _follow_hint(self, sq: int) -> None:
        """The hinted piece picked up with the keys or pad: the focus goes on to
        the hinted square with the hinted path shown, so SELECT plays the hint."""
        hint = self.hint_move
        if hint is None or hint.from_square != sq or self._pointer_mode():
            return
        alts = self._alternatives(hint.to_square)
        index = next((i for i, (_, path) in enumerate(alts) if tuple(path) == tuple(hint.path)), None)
        if index is not None:
            self.focus_sq = hint.to_square
            self.alt_index[hint.to_square] = index

    def _why_stuck(self, sq: int) -> str:
        """The engine's reason the piece on ``sq`` may not move, in the table's words."""
        refusal = self.game.why_piece_cannot_move(sq)
        return STUCK_WORDS.get(refusal.code if refusal else None, "That piece cannot move now")

    def _cycle(self, step: int) -> None:
        preview = self._preview()
        if preview is not None:
            target, alts, index = preview
            if len(alts) > 1:
                self.alt_index[target] = index + step
            else:
                self.app.toast("Only one way to get there", 1.2)
            return
        if self._pointer_mode() or not self.interactive:
            return
        # Nothing to cycle: the focus jumps to the next reachable square, or
        # (nothing selected) the next piece that may move.
        choices = sorted(self._targets() if self.selected is not None else self._movable())
        if not choices:
            return
        later = [sq for sq in choices if sq > self.focus_sq] if step > 0 else \
            [sq for sq in choices if sq < self.focus_sq]
        self.focus_sq = (later[0] if step > 0 else later[-1]) if later else \
            (choices[0] if step > 0 else choices[-1])

    def play(self, move, by_computer: bool = False):
        """Ask the engine to play ``move`` (finishing any animation first)."""
        self.finish_animations()
        self._cancel_ai()
        try:
            record = self.game.play(move)
        except RoundTableError as exc:
            text = str(exc)
            self.app.toast(text[:1].upper() + text[1:])
            self.app.sound.play("invalid")
            return None
        self.sound_of(record)
        self.hint_move = None
        self._fresh_deal = False
        self._version += 1
        self.show_record(record, by_computer)
        return record

    # --- time ------------------------------------------------------------------------------
    def play_automatically(self, dt: float) -> None:
        """The computer's turns (and Auto, and the demo), from the worker."""
        self._drive_computer(dt)

    def update_table(self, dt: float) -> None:
        self.clock_time += dt
        self._poll_ai()
        self.update_travel(dt)
