"""Replaying a Camelot game record on the board (the list of kept games is
``replay_list``).

The replay draws with the board game's own pieces (``BoardLayers``): a move
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

import pygame

from game.camelot import record as camelot_record
from game.base import Status
from game.camelot.board import CamelotBoard
from game.camelot.record import BadRecordError
from game.errors import IllegalMoveError

from ..core.actions import Action, InputEvent
from ..core.ui import FONTS, GOLD, INK, INK_DIM, Button, draw_text, fit_text
from ..table.board_analysis import AnalysisView, bar_item, line_words, score_words
from ..table.board_layers import COLORS, VANISH_TIME, BoardLayers, Travel
from ..table.board_view import PATH_COMPUTER, PATH_HINT
from ..table.game_scene import GameScene
from ..work.analysis import Analyst

RESULT_WORDS = {"1-0": "White won", "0-1": "Black won", "1/2-1/2": "Drawn", "*": "Unfinished"}
AUTOPLAY_EVERY = 1.2      # s between moves when the replay plays itself (normal speed)


def load_game(record) -> CamelotBoard:
    """The record's whole game, wound back to its start (the moves wait in redo).
    IllegalMoveError names the first move the rules refuse."""
    game = record.to_game()
    while game.undo() is not None:
        pass
    return game


class ReplayScene(BoardLayers, GameScene):
    """One record on the board, step by step."""

    engine = CamelotBoard
    has_hints = False
    holds_game = False            # nothing to keep on quitting (a game below still is)

    def __init__(self, app, record, name: str = "") -> None:
        self.record = record
        self.name = name
        self.view = AnalysisView()
        self.mode = None              # nobody plays: no focus square, no selection
        self.shown: dict = {}
        self.travel: Travel | None = None
        self.vanishing: list[list] = []
        self.appearing: list[list] = []   # [piece, square, seconds]: captured pieces coming back
        self._appeared = 0                # steps of a backward travel whose capture came back
        self.last_move = None
        self.selected = None
        self.focus_sq = 0
        self._ready = None
        self._items: list[tuple] = []
        self._drawn: set[tuple] = set()
        self._move_rects: list[tuple[pygame.Rect, int]] = []
        self.clock_time = 0.0
        self.analyst = Analyst()
        self.analysis = None
        super().__init__(app, game=load_game(record))

    # --- GameScene's parts ----------------------------------------------------------
    def new_engine(self, seed: int) -> CamelotBoard:
        return load_game(self.record)

    @property
    def ply(self) -> int:
        return len(self.game.history)

    @property
    def plies(self) -> int:
        return len(self.record.moves)

    @property
    def flipped(self) -> bool:
        return False

    @property
    def interactive(self) -> bool:
        return False

    computer_to_move = False

    def _pointer_mode(self) -> bool:
        return True

    def _side_name(self, color: str) -> str:
        return self.record.tag(color.capitalize(), "?") or "?"

    def _make_buttons(self) -> list[Button]:
        return [Button("Back", self.leave_replay), Button("|<", self.to_start),
                Button("<", self.undo), Button(">", self.redo), Button(">|", self.to_end),
                Button("Play", self.toggle_autoplay)]

    def layout(self, area: pygame.Rect) -> None:
        self.view.layout(area, self.scale, False)

    def count_time(self, dt: float) -> None:
        pass

    def show_game_over(self) -> None:
        self.over_shown = True     # the end of the record: nothing to record, no dialog
        self.autoplay = False

    def leave(self) -> None:
        self.analyst.forget()

    # --- where we are -------------------------------------------------------------------
    def show_new_game(self) -> None:
        self.show_state()

    def show_state(self) -> None:
        self.travel = None
        self.vanishing.clear()
        self.appearing = []
        self.shown = self.game.pieces()
        move = self.game.last_move
        self.last_move = None if move is None else (move.path, frozenset(move.captures))
        self._ask_analysis()

    def _ask_analysis(self) -> None:
        self.analysis = None
        self.analyst.ask(self.game.position_text())

    def finish_animations(self) -> None:
        if self.travel is not None or self.appearing:
            self.show_state()

    @property
    def busy(self) -> bool:
        return self.travel is not None or bool(self.appearing)

    def redo(self) -> None:
        """The next move, travelling its path."""
        self.finish_animations()
        before = self.game.pieces()
        record = self.game.redo()
        if record is None:
            self.app.toast("That was the last move", 1.2)
            self.autoplay = False
            return
        move = self.game.last_move
        steps = [[step.source, step.target, None if step.captured is None
                  else (step.captured, before[step.captured])] for step in move.steps]
        self.sound_of(record)
        self.travel = Travel(before[move.path[0]], [tuple(s) for s in steps], move.path,
                             frozenset(move.captures), PATH_COMPUTER, 0.0,
                             self.app.settings.speed_factor)
        self._ask_analysis()
        if self.travel.total <= 0:
            self.finish_animations()

    def undo(self) -> None:
        """The move before: the piece travels its path back to where it started,
        and what it captured comes back as it passes over it again."""
        self.finish_animations()
        move, after = self.game.last_move, self.game.pieces()
        if self.game.undo() is None:
            self.app.toast("That was the first move", 1.2)
            return
        self.over_shown = False
        before = self.game.pieces()
        steps = [(step.target, step.source, None if step.captured is None
                  else (step.captured, before[step.captured])) for step in reversed(move.steps)]
        self.last_move = None
        self.travel = Travel(after[move.path[-1]], steps, tuple(reversed(move.path)),
                             frozenset(move.captures), PATH_COMPUTER, 0.0,
                             self.app.settings.speed_factor, backward=True)
        self._appeared = 0
        self._ask_analysis()
        if self.travel.total <= 0:
            self.finish_animations()

    def update_travel(self, dt: float) -> None:
        """As the board's (the mover lifted, carried step by step), and going
        back, each captured piece fades in as the mover passes over its square;
        one still fading when the move has arrived finishes fading."""
        speed = self.app.settings.speed_factor
        for coming in self.appearing:
            coming[2] += dt * speed
        travel, coming_back = self.travel, self.appearing
        super().update_travel(dt)
        if travel is not None and travel.backward:
            for _, _, took in travel.steps[self._appeared:travel.taken]:
                if took is not None:
                    coming_back.append([took[1], took[0], 0.0])
            self._appeared = travel.taken
            if self.travel is None:            # arrived: the position is whole, the fades go on
                self.appearing = coming_back
        for piece, square, t in self.appearing:
            if t < VANISH_TIME:
                self.shown.pop(square, None)  # drawn fading in, not at rest, until it is whole
            else:
                self.shown[square] = piece
        self.appearing = [c for c in self.appearing if c[2] < VANISH_TIME]

    def on_board(self) -> list:
        """Captured pieces coming back count as on the board (the panel's "took")."""
        return super().on_board() + [piece for piece, _, _ in self.appearing]

    def draw_animated(self, surface: pygame.Surface) -> list[pygame.Rect]:
        rects = super().draw_animated(surface)
        for piece, square, t in self.appearing:
            k = min(1.0, t / VANISH_TIME)      # a vanishing piece's fade, played backwards
            sprite = pygame.transform.smoothscale_by(
                self.view.art.piece(piece.color, piece.kind), 1.35 - 0.35 * k)
            sprite.set_alpha(int(255 * k))
            rects.append(surface.blit(sprite, sprite.get_rect(center=self.view.square_centre(square))))
        return rects

    def jump(self, ply: int) -> None:
        """To the position after ``ply`` moves, at once."""
        self.finish_animations()
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

    restart = to_start

    def new_deal(self, seed=None) -> None:
        self.to_start()

    def toggle_autoplay(self) -> None:
        self.autoplay = not self.autoplay
        self._autoplay_wait = AUTOPLAY_EVERY   # the first move at once
        if self.autoplay and self.ply >= self.plies:
            self.jump(0)

    def leave_replay(self) -> None:
        self.app.scenes.pop() if len(self.app.scenes.scenes) > 1 else self.app.navigator.open_menu()

    def open_pause(self, reason: str = "") -> None:
        self.leave_replay()

    def back_pressed(self) -> None:
        self.leave_replay()

    # --- input ---------------------------------------------------------------------------
    def handle_table(self, event: InputEvent) -> None:
        a = event.action
        if a in (Action.RIGHT, Action.SELECT):
            self.redo()
        elif a == Action.LEFT:
            self.undo()
        elif a == Action.DOWN:
            self.jump(self.ply + 2)
        elif a == Action.UP:
            self.jump(self.ply - 2)
        elif a == Action.FIRST:
            self.to_start()
        elif a == Action.LAST:
            self.to_end()
        elif a == Action.CYCLE:
            self.undo() if event.amount < 0 else self.redo()
        elif a == Action.BACK:
            self.leave_replay()
        elif a == Action.POINTER_DOWN and event.button == 1:
            for rect, ply in self._move_rects:
                if rect.collidepoint(event.pos):
                    self.jump(ply)
                    return
            if self.busy:
                self.finish_animations()
        elif a == Action.POINTER_DOWN and event.button == 3:
            self.undo()

    # --- time ------------------------------------------------------------------------------
    def play_automatically(self, dt: float) -> None:
        if self.autoplay and not self.busy:
            self._autoplay_wait += dt
            if self._autoplay_wait >= AUTOPLAY_EVERY / self.app.settings.speed_factor:
                self._autoplay_wait = 0.0
                self.redo()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.autoplay and self.game.status is not Status.PLAYING:
            self.autoplay = False

    def update_table(self, dt: float) -> None:
        self.clock_time += dt
        answer = self.analyst.poll()
        if answer is not None and self.analyst.position == self.game.position_text():
            self.analysis = answer
        self.update_travel(dt)

    # --- what is drawn ---------------------------------------------------------------------
    def status_line(self) -> str:
        if self.ply == 0:
            return (f"Start · {self.record.full_moves} moves · Right arrow: next move, Home/End, "
                    f"or click a move")
        return f"Move {self.ply} of {self.plies}: {self.game.history[-1]}"

    def score_line(self) -> str:
        return RESULT_WORDS.get(self.record.result, self.record.result)

    def _hud_texts(self) -> dict[str, list[tuple]]:
        texts = super()._hud_texts()
        s = self.scale
        title = "Replay" + (f" · {self.name}" if self.name else "")
        # a record's name (a file's, say) can be long: cut to end before the status line
        left, px = int(20 * s), int(30 * s)
        centre = self._texts_rect(texts["centre"])
        room = (centre.left if centre is not None else self.size[0] // 2) - left - int(16 * s)
        title = fit_text(title, FONTS.font(px, bold=True), max(room, px))
        texts["left"] = [(title, px, (left, self.hud_h // 2), GOLD, "midleft", True)]
        texts["right"] = texts["right"][:1]    # the result; no time played, no move count
        return texts

    def _update_toolbar(self) -> None:
        mouse = self.app.input.last_device == "mouse"
        enabled = {"|<": self.ply > 0, "<": self.ply > 0, ">": self.ply < self.plies,
                   ">|": self.ply < self.plies}
        for b in self.toolbar.buttons:
            b.enabled = enabled.get(b.label, True)
            b.hot = mouse and b.contains(self.pointer) or (b.label == "Play" and self.autoplay)

    def _compute_items(self) -> list[tuple]:
        items = super()._compute_items()
        bar = bar_item(self.analysis)
        if bar is not None:
            items.append(bar)
        best = self._best_move()
        if best is not None and self.travel is None:
            self._add_path(items.append, best.path, frozenset(best.captured), PATH_HINT,
                           show_captures=False)
        items.sort(key=lambda k: k[0])
        return items

    def _best_move(self):
        answer = self.analysis
        if not answer or not answer.get("move") or self.game.status is not Status.PLAYING:
            return None
        try:
            return self.game.parse_move(answer["move"])
        except (IllegalMoveError, ValueError):
            return None

    def _panel_state(self) -> tuple:
        sides, _, first_side, note = super()._panel_state()
        words = score_words(self.analysis)
        if self.analysis is None and self.analyst.error:
            words = f"Engine: no answer ({self.analyst.error})"
        analysis = (words, line_words(self.analysis))
        return (sides, self.ply, first_side, note, analysis)

    def _draw_panel(self, surface: pygame.Surface, state: tuple) -> None:
        sides, ply, first_side, note, (score, line) = state
        lines = [text for text in (note, score, line) if text]
        info = {"sides": [{"color": c, "name": name, "castle_left": castle, "taken": dict(taken),
                           "enemy": COLORS[1 - COLORS.index(c)], "to_move": to_move,
                           "thinking": False}
                          for c, name, castle, taken, to_move, _ in sides],
                "history": [], "first_side": first_side, "note": " · ".join(lines),
                "note_color": GOLD if note else INK}
        top = self.view.draw_panel(surface, info)
        self._draw_move_list(surface, top, ply, first_side)

    def _draw_move_list(self, surface, top: int, ply: int, first_side: str) -> None:
        """Every move of the record, the current one lit, the list scrolled to it."""
        s = self.scale
        rect = self.view.panel_rect
        pad = int(16 * s)
        x, width = rect.x + pad, rect.w - 2 * pad
        px = int(19 * s)
        line_h = int(px * 1.25)
        rows = max(1, (rect.bottom - pad - top) // line_h)
        offset = 1 if first_side == "black" else 0
        total_rows = (self.plies + offset + 1) // 2
        current_row = (ply - 1 + offset) // 2 if ply else 0
        first_row = max(0, min(current_row - rows // 2, total_rows - rows))
        num_w = int(px * 1.9)
        col_w = (width - num_w) // 2
        self._move_rects = []
        for row in range(first_row, min(total_rows, first_row + rows)):
            y = top + (row - first_row) * line_h
            draw_text(surface, f"{row + 1}.", px, (x, y), INK_DIM)
            for col in range(2):
                index = row * 2 + col - offset     # 0-based ply index
                if not 0 <= index < self.plies:
                    continue
                text = self.record.moves[index]
                cell = pygame.Rect(x + num_w + col * col_w, y - int(2 * s), col_w - int(4 * s), line_h)
                if index == ply - 1:
                    pygame.draw.rect(surface, GOLD, cell, width=max(1, int(2 * s)),
                                     border_radius=int(5 * s))
                size = px
                while size > px * 0.6 and FONTS.font(size).size(text)[0] > col_w - int(10 * s):
                    size -= 1
                draw_text(surface, text, size, (cell.x + int(4 * s), y + (px - size) // 2),
                          GOLD if index == ply - 1 else INK if index < ply else INK_DIM)
                self._move_rects.append((cell, index + 1))


def read_record(path) -> tuple[object | None, str]:
    """(record, '') or (None, one line): the file read and its moves checked."""
    try:
        record = camelot_record.read(path)
        load_game(record)
    except (BadRecordError, IllegalMoveError) as exc:
        return None, f"{path}: {exc}" if str(path) not in str(exc) else str(exc)
    return record, ""


__all__ = ["ReplayScene", "read_record", "load_game", "RESULT_WORDS"]
