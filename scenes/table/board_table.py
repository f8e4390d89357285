"""The board table: what a person does at the Camelot board, and what it shows.

:class:`BoardTable` is a part a board screen owns (compare Arcade's Sections:
a part that owns its input and its drawing). It knows the engine board it
shows and nothing of who plays: a screen tells it, through a few callables,
whether a person here may choose a move now (``may_choose``), what to call each
side (``side_label``), whether the side to move plays by itself here
(``plays_itself``) and whether it is thinking (``thinking``). A move a person
chooses is handed to ``on_move``; the screen decides what becomes of it (play
it, send it to a server).

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

What it shows: the pieces at rest, a move travelling its path (the path first
when it is not the person's own), captured pieces fading as they are jumped
(and fading back in when a replay steps back), the last move, the hint and
the reply it expects, the evaluation bar, and the side panel with the move
list (the game's, or a whole record with the current move lit: a click on a
move goes to ``on_pick_ply``).
"""
from __future__ import annotations

from game.base import Status
from game.camelot.board import MUST_CAPTURE, MUST_LEAVE_CASTLE, PieceCaptured, PieceMoved

from ..core.actions import DIRECTIONS, Action, InputEvent
from ..core.announcer import announce
from ..core.touch import NOWHERE
from ..core.ui import touch_target
from .board_analysis import AnalysisView
from .board_layers import VANISH_TIME, BoardPainter, Travel
from .board_view import PATH_COMPUTER, PATH_PLAYER, spinner_next
from ..store.terms import reason_words
from ..store.words import N_, _

PREVIEW_TIME = 0.8         # s a move not made here is shown as a path before it travels
STUCK_WORDS = {            # a refused piece: the engine's Refusal.code → the toast
    MUST_LEAVE_CASTLE: N_("The piece in your own castle must move out first"),
    MUST_CAPTURE: N_("Capturing is compulsory: choose a piece that can jump"),
}


def _never() -> bool:
    return False


def _nothing() -> None:
    pass


class BoardTable:
    """One board on screen: its pieces, what a person points at and picks, and
    the moves travelling on it."""

    def __init__(self, app, on_move=None) -> None:
        self.app = app
        self.release()
        self.on_move = on_move                   # a person here chose a move (with its path)
        self.view = AnalysisView()               # the board, and the evaluation bar
        self.painter = BoardPainter(self)
        self.game = None                         # the engine board shown
        self.flipped = False
        self.shows_focus = True                  # the keys' focus square may be drawn
        self.shows_best = False                  # the analysis's best move drawn (a replay)
        self.eval_bar = False
        self.analysis = None                     # the latest answer for the position shown
        self.record_moves: tuple | None = None   # a whole record in the panel (a replay)
        self.shown: dict = {}                    # square → Piece, as drawn at rest
        self.travel: Travel | None = None
        self.vanishing: list[list] = []          # [piece, square, seconds]
        self.appearing: list[list] = []          # captured pieces coming back (a step back)
        self._appeared = 0                       # steps of a backward travel whose capture came back
        self.last_move: tuple | None = None      # (path, captured squares)
        self.hint_move = None
        self.hint_time = 0.0                     # s the hint stays
        self.hint_reply = None                   # (hinted move, path, captured) of the reply expected
        self.selected: int | None = None
        self.hover: int | None = None
        self.focus_sq = 0
        self.alt_index: dict[int, int] = {}      # target square → alternative shown
        self._entered: set[int] = set()          # targets the pointer has been on
        self._press: int | None = None           # square a left press selected on
        self._pointing: bool | None = None
        # A finger has no hover: the first tap on a square that several paths
        # reach shows the first path; a tap there again plays it, a long press
        # shows the next.
        self._tapped_target: int | None = None
        # A finger down on the magnified board, not on a piece it may pick up:
        # [where it came down, where it is, the event] — a drag moves the board,
        # a tap is a tap there.
        self._panning: list | None = None
        self._swallow_up = False                 # the lift of the tap that magnified the board
        self.clock_time = 0.0

    # --- what is shown ----------------------------------------------------------------

    def release(self) -> None:
        """No one to call: the screen's questions and callbacks (its methods) are
        let go, so a screen that is left is freed at once."""
        self.on_move = None                      # a person here chose a move (with its path)
        self.may_choose = _never                 # a person here may choose a move now
        self.side_label = str.capitalize         # what to call a side
        self.plays_itself = _never               # the side to move plays by itself here
        self.thinking = _never                   # ... and is thinking (the panel's spinner)
        self.on_pick_ply = None                  # a record's move clicked in the panel
        self.on_settled = None                   # a move has finished travelling
        self.panel_lines = tuple                 # more words for a record's panel
        self.relaid = _nothing                   # the board was magnified, moved or shown whole

    def layout(self, area, scale: float, flipped: bool) -> None:
        self.flipped = flipped
        self.view.layout(area, scale, flipped, touch_target(self.app.size))

    @property
    def interactive(self) -> bool:
        """A person here may pick a move now."""
        return (self.game is not None and self.game.status is Status.PLAYING and not self.busy
                and self.may_choose())

    @property
    def busy(self) -> bool:
        return self.travel is not None or bool(self.appearing)

    def show_game(self, game) -> None:
        """A game from its position: at rest, the focus on a piece that may move."""
        self.game = game
        self.show_state()
        self.focus_sq = self._initial_focus()

    def _initial_focus(self) -> int:
        movable = self.movable()
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
        """The game as it stands, at once, nothing pending (after undo, a jump)."""
        self.travel = None
        self.vanishing.clear()
        self.appearing = []
        self.shown = self.game.pieces()
        self.last_move = self._last_from_history()
        self.deselect()
        self.show_whole()
        self.hint_move = None

    def _last_from_history(self):
        move = self.game.last_move
        return None if move is None else (move.path, frozenset(move.captures))

    def show_record(self, record, from_afar: bool = False, path_first: bool | None = None) -> None:
        """A move just played travels the path its record holds; one not chosen
        here (``from_afar``: the computer's, the opponent's, a record's) is drawn
        in their colour and, unless ``path_first`` is False, shown as a path for a
        moment first."""
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
        color = PATH_COMPUTER if from_afar else PATH_PLAYER
        preview = PREVIEW_TIME / speed if (from_afar if path_first is None else path_first) else 0.0
        self.travel = Travel(piece, [tuple(s) for s in steps], path, captured, color, preview, speed)
        self.deselect()
        self.hint_move = None
        if self.travel.total <= 0:
            self.finish_animations()

    def show_step_back(self, move, before: dict) -> None:
        """A move taken back (a replay) travels its path in reverse to ``before``
        (the pieces before it), what it took coming back as the piece passes over
        it again. The engine's steps of the move say where it goes."""
        steps = [(step.target, step.source, None if step.captured is None
                  else (step.captured, before[step.captured])) for step in reversed(move.steps)]
        self.last_move = None
        self._appeared = 0
        self.travel = Travel(before[move.path[0]], steps, tuple(reversed(move.path)),
                             frozenset(move.captures), PATH_COMPUTER, 0.0,
                             self.app.settings.speed_factor, backward=True)
        if self.travel.total <= 0:
            self.finish_animations()

    def finish_animations(self) -> None:
        """Whatever travels or fades arrives at once."""
        travel = self.travel
        if travel is None and not self.appearing:
            return
        self.travel = None
        self.vanishing.clear()
        self.appearing = []
        self.shown = self.game.pieces()
        self.last_move = ((travel.path, travel.captured) if travel is not None and not travel.backward
                          else self._last_from_history())
        if self.on_settled is not None:
            self.on_settled()

    def on_board(self) -> list:
        """The pieces in play as shown: those at rest, the one travelling its path
        (lifted off its square, not captured) and those coming back."""
        pieces = list(self.shown.values())
        travel = self.travel
        if travel is not None and travel.path[0] not in self.shown:
            pieces.append(travel.piece)
        return pieces + [piece for piece, _, _ in self.appearing]

    def show_hint(self, move, seconds: float, reply=None) -> None:
        """The hinted move for ``seconds`` (and the reply expected: a path and its
        captures); the focus goes to the hinted piece, so SELECT (A) picks up what
        the hint shows (for a pointer player the focus is not drawn)."""
        self.hint_move, self.hint_time = move, seconds
        self.hint_reply = None if reply is None else (move, *reply)
        self.focus_sq = move.from_square
        announce(_("Hint: {move}").format(move=move))           # in the notation the board's edges show

    def best_move(self):
        """The analysis's best move in the position shown, or None."""
        answer = self.analysis
        if not answer or not answer.get("move") or self.game.status is not Status.PLAYING:
            return None
        try:
            return self.game.parse_move(answer["move"])
        except ValueError:
            return None

    # --- time ---------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance the move being shown; captured pieces go as they are jumped (and,
        going back, fade in as the mover passes over them again)."""
        if self.hint_time > 0:
            self.hint_time -= dt
            if self.hint_time <= 0:
                self.hint_move = None
        self.clock_time += dt
        speed = self.app.settings.speed_factor
        for fading in self.vanishing:
            fading[2] += dt * speed
        self.vanishing = [v for v in self.vanishing if v[2] < VANISH_TIME]
        for coming in self.appearing:
            coming[2] += dt * speed
        travel, coming_back = self.travel, self.appearing
        if travel is not None:
            self._advance(travel, dt)
        if travel is not None and travel.backward:
            for _, _, took in travel.steps[self._appeared:travel.taken]:
                if took is not None:
                    coming_back.append([took[1], took[0], 0.0])
            self._appeared = travel.taken
            if self.travel is None:            # arrived: the position is whole, the fades go on
                self.appearing = coming_back
        for piece, square, age in self.appearing:
            if age < VANISH_TIME:
                self.shown.pop(square, None)  # drawn fading in, not at rest, until it is whole
            else:
                self.shown[square] = piece
        self.appearing = [c for c in self.appearing if c[2] < VANISH_TIME]

    def _advance(self, travel: Travel, dt: float) -> None:
        travel.t += dt
        if travel.moving:
            self.shown.pop(travel.path[0], None)
            index, progress, _ = travel.where()
            # A captured piece goes as the mover passes over it.
            while travel.taken < len(travel.steps) and (
                    travel.taken < index or (travel.taken == index and progress >= 0.5)):
                took = travel.steps[travel.taken][2]
                travel.taken += 1
                if took is not None and took[0] in self.shown:
                    self.shown.pop(took[0])
                    self.vanishing.append([took[1], took[0], 0.0])
        if travel.done:
            self.finish_animations()

    # --- what a person may choose -------------------------------------------------------
    def movable(self) -> set[int]:
        return {m.from_square for m in self.game.legal_moves()}

    def targets(self) -> set[int]:
        if self.selected is None:
            return set()
        return {m.to_square for m in self.game.moves_from(self.selected)}

    def _alternatives(self, target: int) -> list:
        """Every (move, path) from the selected piece to ``target``."""
        if self.selected is None or target is None:
            return []
        return [(m, p) for m in self.game.moves_from(self.selected) if m.to_square == target
                for p in m.paths]

    def pointer_mode(self) -> bool:
        """The pointer, not the focus square, says which target is previewed.
        Only the pointer itself and the focus keys (arrows, SELECT) switch: Tab,
        H or U pressed with the mouse over a target leave the preview there."""
        pointing = self._pointing
        return self.app.input.pointing if pointing is None else pointing

    def preview(self):
        """(target, alternatives, index) of the path shown now, or None."""
        if self.selected is None or not self.interactive:
            return None
        target = self.hover if self.pointer_mode() else self.focus_sq
        alts = self._alternatives(target)
        if not alts:
            return None
        return target, alts, self.alt_index.get(target, 0) % len(alts)

    def path_choice(self) -> tuple[int, int] | None:
        """(path number, of how many) where more than one path reaches the square shown."""
        preview = self.preview()
        if preview is None or len(preview[1]) < 2:
            return None
        _, alts, index = preview
        return index % len(alts) + 1, len(alts)

    def _select(self, sq: int) -> None:
        self.selected = sq
        self.alt_index.clear()
        self._entered.clear()
        if self.hover is not None and self.hover in self.targets():
            self._entered.add(self.hover)

    def deselect(self) -> None:
        self.selected = None
        self.alt_index.clear()
        self._entered.clear()

    def _choose(self, alt) -> None:
        move, path = alt
        self.focus_sq = move.to_square
        self.deselect()
        self.show_whole()                        # the move is seen on the whole board
        self.on_move(move.with_path(path))

    # --- input ----------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> bool:
        """A pointer, key or pad event at the board; False when it was not the
        table's (BACK with nothing selected: the screen's)."""
        a = event.action
        if event.is_pointer:
            self._pointing = True
        elif a in DIRECTIONS or a == Action.SELECT:
            self._pointing = False
            self.show_whole()                    # the keys play on the whole board
        if a == Action.FOCUS_LOST:
            self._fingers_lost()
        if event.device == "touch" and self._magnifier(event):
            return True
        if a == Action.POINTER_MOVE:
            if event.device == "touch" and event.pos == NOWHERE:
                return True       # a finger lifted: the path tapped stays shown
            self._set_hover(self.view.square_at(event.pos))
        elif a == Action.POINTER_DOWN:
            self._pointer_down(event)
        elif a == Action.POINTER_UP and event.button == 1:
            sq = self.view.square_at(event.pos)
            press, self._press = self._press, None
            if press is not None and sq != press and self.selected == press and self.interactive:
                # Dropped on a reachable square after dragging: play it.
                self._set_hover(sq)
                preview = self.preview()
                if preview is not None:
                    target, alts, index = preview
                    self._choose(alts[index])
        elif a == Action.CYCLE:
            self._cycle(-1 if event.amount < 0 else 1)
        elif a in DIRECTIONS:
            self.focus_sq = self.view.step_focus(self.focus_sq, DIRECTIONS[a])
        elif a == Action.SELECT:
            if self.busy:
                self.finish_animations()
                return True
            self._activate(self.focus_sq)
        elif a == Action.BACK:
            if self.selected is None:
                return False
            self.deselect()
        return True

    def _pointer_down(self, event: InputEvent) -> None:
        if event.button == 1 and self.on_pick_ply is not None:
            for rect, ply in self.painter.move_rects:
                if rect.collidepoint(event.pos):
                    self.on_pick_ply(ply)
                    return
        if self.busy:
            self.finish_animations()    # a click makes the move take effect
            self._press = None
            return
        sq = self.view.square_at(event.pos)
        if event.device == "touch" and self._touch_choice(sq, event.button):
            self._press = None
            return
        if event.button == 3:
            self.deselect()
            return
        if event.button == 1:
            self._set_hover(sq)
            self._press = sq if self._activate(sq) == "selected" else None

    # --- the board magnified for a finger -------------------------------------------------
    def _magnifier(self, event: InputEvent) -> bool:
        """A finger where the squares are smaller than a finger (touch mode on
        a small screen): a tap on the whole board magnifies the part round it
        to squares a finger can hit; there a drag that does not start on a
        piece to pick up moves the board under it, and a long press with
        nothing picked up shows the whole board again. True when the event
        was the magnifier's."""
        view, a = self.view, event.action
        if a == Action.POINTER_DOWN:             # a new press: one the window lost the lift of is over
            self._panning, self._swallow_up = None, False
        if a == Action.POINTER_UP and self._swallow_up:
            self._swallow_up = False
            return True
        if self._panning is not None:
            return self._pan(event)
        if a != Action.POINTER_DOWN or not view.magnifies or self.busy or not self.interactive:
            return False
        if not view.zoomed:
            if event.button != 1 or not view.board_rect.collidepoint(event.pos):
                return False
            view.magnify_at(event.pos)
            self._swallow_up = True
            self._after_relayout()
            self.app.toast(_("Tap a square; drag to see more of the board; hold for the whole board"), 3)
            return True
        sq = view.square_at(event.pos)
        if event.button == 3 and self.selected is None and self._tapped_target is None:
            self.show_whole()
            return True
        if event.button == 1 and sq is not None and sq != self.selected and sq not in self.movable():
            self._panning = [event.pos, event.pos, event]
            return True
        return False

    def _pan(self, event: InputEvent) -> bool:
        """The finger on the magnified board: it moves the board, or was a tap."""
        start, last, down = self._panning
        if event.action == Action.POINTER_MOVE and event.pos != NOWHERE:
            self.view.pan(event.pos[0] - last[0], event.pos[1] - last[1])
            self._panning[1] = event.pos
            self._after_relayout()
        elif event.action == Action.POINTER_UP:
            self._panning = None
            if last == start:
                self._pointer_down(down)         # no drag: the tap the finger made
            else:
                self.view.pan(0, 0, settle=True)
                self._after_relayout()
        return True

    def _fingers_lost(self) -> None:
        """The window lost the fingers (no lift will come): a drag of the board ends where it is."""
        if self._panning is not None:
            self._panning = None
            self.view.pan(0, 0, settle=True)
            self._after_relayout()
        self._swallow_up = False

    def show_whole(self) -> None:
        """The whole board again, where it was magnified."""
        self._panning = None
        if self.view.zoom is not None:
            self.view.show_whole()
            self._after_relayout()

    def _after_relayout(self) -> None:
        """The squares moved under the finger: where it was is forgotten (not
        a way out of a square and back in, which shows the next path)."""
        self._set_hover(None)
        self._entered.clear()
        self.relaid()

    def _touch_choice(self, sq, button: int) -> bool:
        """A finger on a square several paths reach: True when it only showed
        a path (the first tap; a long press shows the next)."""
        several = sq is not None and self.selected is not None and len(self._alternatives(sq)) > 1
        tapped, self._tapped_target = self._tapped_target, (sq if several else None)
        if not several or (button == 1 and tapped == sq):
            return False            # one path, or the second tap: played as a click plays
        if button == 3 and tapped == sq:
            self._cycle(1)
        choice = self.path_choice()
        if choice is None:
            return False
        number, count = choice
        self.app.toast(_("Path {n} of {count}: tap again to play it, hold for the next").format(
            n=number, count=count), 2.5)
        return True

    def _set_hover(self, sq) -> None:
        if sq == self.hover:
            return
        self.hover = sq
        if sq is not None and self.selected is not None and sq in self.targets():
            # Moving out of a green square and back in shows the next path.
            if sq in self._entered:
                self.alt_index[sq] = self.alt_index.get(sq, 0) + 1
            self._entered.add(sq)

    def _activate(self, sq) -> str:
        """A click or SELECT on a square. Returns what it did."""
        if not self.interactive:
            return "nothing"
        if sq is not None and self.selected is not None and sq in self.targets():
            alts = self._alternatives(sq)
            self._choose(alts[self.alt_index.get(sq, 0) % len(alts)])
            return "played"
        if sq in self.movable():
            if sq == self.selected and not self.pointer_mode():
                self.deselect()
                return "deselected"
            self._select(sq)
            self._follow_hint(sq)
            return "selected"
        piece = self.shown.get(sq) if sq is not None else None
        if piece is not None and piece.color == self.game.turn:
            self.app.toast(self._why_stuck(sq), 2.5)
        self.deselect()
        return "nothing"

    def _follow_hint(self, sq: int) -> None:
        """The hinted piece picked up with the keys or pad: the focus goes on to
        the hinted square with the hinted path shown, so SELECT plays the hint."""
        hint = self.hint_move
        if hint is None or hint.from_square != sq or self.pointer_mode():
            return
        alts = self._alternatives(hint.to_square)
        index = next((i for i, (_, path) in enumerate(alts) if tuple(path) == tuple(hint.path)), None)
        if index is not None:
            self.focus_sq = hint.to_square
            self.alt_index[hint.to_square] = index

    def _why_stuck(self, sq: int) -> str:
        """The engine's reason the piece on ``sq`` may not move, in the table's words."""
        refusal = self.game.why_piece_cannot_move(sq)
        if refusal is None:
            return _("That piece cannot move now")
        if refusal.code in STUCK_WORDS:
            return _(STUCK_WORDS[refusal.code])
        return reason_words(refusal.reason, full_stop=False)      # the square named, in the player's words

    def _cycle(self, step: int) -> None:
        preview = self.preview()
        if preview is not None:
            target, alts, index = preview
            if len(alts) > 1:
                self.alt_index[target] = index + step
            else:
                self.app.toast(_("Only one way to get there"), 1.2)
            return
        if self.pointer_mode() or not self.interactive:
            return
        # Nothing to cycle: the focus jumps to the next reachable square, or
        # (nothing selected) the next piece that may move.
        choices = sorted(self.targets() if self.selected is not None else self.movable())
        if not choices:
            return
        later = [sq for sq in choices if sq > self.focus_sq] if step > 0 else \
            [sq for sq in choices if sq < self.focus_sq]
        self.focus_sq = (later[0] if step > 0 else later[-1]) if later else \
            (choices[0] if step > 0 else choices[-1])

    # --- drawing (the painter's) -----------------------------------------------------------
    def draw_background(self, surface) -> None:
        self.painter.draw_background(surface)

    def draw_resting(self, surface, clip) -> None:
        self.painter.draw_resting(surface, clip)

    def resting_changes(self) -> list:
        return self.painter.resting_changes()

    def resting_rebuilt(self) -> None:
        self.painter.resting_rebuilt()

    def draw_animated(self, surface) -> list:
        return self.painter.draw_animated(surface)

    def animated_look(self):
        return self.painter.animated_look()

    def next_change_in(self) -> float | None:
        """Seconds to the spinner's next step while it turns, else None."""
        return spinner_next(self.clock_time) if self.view.spinner_centre is not None else None


__all__ = ["BoardTable", "PREVIEW_TIME", "STUCK_WORDS"]
