"""What the patience scenes share: a table of piles played with the engine's
move objects (``game.base.PileMove``: ``source``, ``target``, ``card``, ``count``).

Input, the same for every patience:

* **Drag** a card (and the cards above it that move with it) onto a pile: the
  legal targets glow while it is in the air; dropped on a legal one it plays,
  anywhere else it slides back (over another pile, the engine says why not).
* **Click to move**: click a card to select it (its legal targets glow), then
  click where it should go. Clicking it again, or BACK, lets go.
* **Keyboard / gamepad**: the arrows (D-pad, stick) move a focus between piles,
  and up/down within a pile over the cards that can move together; SELECT
  picks up, SELECT again puts down; CYCLE (Tab, right shoulder) jumps to the
  next legal target of the selection, or with nothing selected to the next pile
  that has a move.
* **Double-click**: whatever the game makes of it (subclasses).

A subclass lays out the table and says what a double-click does. What a plain
click on a pile does, which cards may be picked up and why not, and which move
a drop means (legal or not, for the engine to explain) are the engine's
answers: ``click_move``, ``can_pick_up``/``why_not_pick_up``/``max_pick_up``
and ``move_between`` of ``game.base.CardGame``.

The computer player (demo, automatic play, hints) thinks in a :class:`Thinker`,
off the frame loop when the game says so (``think_in_background``); the solver
("still winnable?", solver hints, the demo's winning line) answers through the
work service (``scenes.work.service``), never on the frame loop.
"""
from __future__ import annotations

import math
import random

import pygame

from game.base import Status
from game.solver_common import NOT_WINNABLE, UNKNOWN, WINNABLE, SolveResult

from ..core.actions import DIRECTIONS, Action, InputEvent
from .card_table import CardTable
from ..core.focus import nearest_in_direction
from .spoken import focus_line, pile_line
from .game_scene import AUTOPLAY_PAUSE, DEMO_NEXT_DEAL, GameScene
from ..core.anim import Timer, shake
from ..work.deals import cached_winnable_deals, winnable_deal
from ..work.service import Answer, Channel
from ..work.thinker import Thinker, warm_up
from ..core.ui import FOCUS, FONTS, HINT, ILLEGAL, LEGAL, draw_text, glow_rect
from ..store.terms import card_name, reason_words
from ..store.words import N_, _, ngettext

DRAG_THRESHOLD = 6        # px the pointer travels before a press becomes a drag
HINT_SECONDS = 2.5
SELECTED = (255, 168, 64)  # the ring round picked-up cards


SOLVER_WORDS = {WINNABLE: N_("Winnable"), NOT_WINNABLE: N_("Not winnable")}
LOST_ON_THE_WAY = N_("No longer winnable")   # only said when this game was winnable earlier
_solver_owner: list = []   # the one scene whose solver runs (one game is played at a time)


def draw_arrow(surface: pygame.Surface, start, end, color, width: int) -> pygame.Rect:
    """A straight arrow from ``start`` to ``end`` (its head there); the area drawn."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = width * 4
    base = (x1 - ux * head, y1 - uy * head)
    shaft = pygame.draw.line(surface, color, start, base, width)
    wing = (-uy * head * 0.6, ux * head * 0.6)
    tip = pygame.draw.polygon(surface, color, [end, (base[0] + wing[0], base[1] + wing[1]),
                                               (base[0] - wing[0], base[1] - wing[1])])
    return shaft.union(tip)


def solve_result(answer: Answer) -> SolveResult:
    """The solver's answer from the work service's JSON (a failure: unknown)."""
    if not answer.ok:
        return SolveResult(UNKNOWN, reason=f"error: {answer.error}")
    data = answer.data
    return SolveResult(data.get("answer", UNKNOWN), tuple(data.get("line", ())),
                       data.get("states", 0), data.get("seconds", 0.0), data.get("reason", ""))


def pick_winnable_deal(game_id: str, rng) -> int | None:
    """A deal number from the proven-winnable cache list (None if there is none).
    Only the cache: solving deals to find one would block the frame loop."""
    if not cached_winnable_deals(game_id):
        return None
    return winnable_deal(game_id, rng)


class PatienceScene(GameScene):
    abandoned_is_lost = True
    think_in_background = False   # True: the computer player runs in a worker process
    solver_seconds: float | None = None
    """Budget of the background "still winnable?" solve after every move (None:
    no solver indicator and no solver hints for this game)."""

    def __init__(self, app, seed=None, demo=False, game=None) -> None:
        if seed is None and game is None and (demo or app.settings.winnable_only):
            # Demos deal proven-winnable deals too, so they can show wins.
            seed = pick_winnable_deal(self.game_id, random.Random())
        self._solver = None          # Channel to the solver, made at the first request
        self._solve_version = None   # the position (self._version) last asked about
        self._solve_result = None    # (version, SolveResult) of the latest answer
        self.table = CardTable(app.settings)
        self.art = None
        self.focus: str | None = None
        self.focus_depth = 1                 # cards from the top the focus covers
        self.selection: tuple[str, int] | None = None   # (pile, index of its lowest card)
        self.flash: tuple[str, float] | None = None     # (pile, seconds left): refused
        self._press = None       # (pos, pile, index) of a mouse press
        self._drag = None        # dict while cards are dragged
        self._swallow_up = False  # the release that ends a double-click
        self._queue: list = []   # moves to play one after another (double-click)
        self._piles: dict = {}
        self._legal: list = []
        self._version = 0        # bumped at every change of the game state
        self._targets_cache = None
        self._labels_drawn: list[tuple[tuple, pygame.Rect]] = []
        self._resting_key = None
        self.thinker = Thinker(self.think_in_background)
        if self.think_in_background or self.solver_enabled:
            warm_up()   # the workers start in the background: the game opens at once
        self._hint_wanted = False
        self._stuck_noted = None
        super().__init__(app, seed, demo, game)

    # --- what the engine says input means ----------------------------------------
    def _count_from(self, pile: str, index: int | None) -> int:
        """How many cards lie from ``index`` to the top of ``pile`` (1 for None)."""
        return 1 if index is None else len(self._piles.get(pile, [])) - index

    def can_grab(self, pile: str, index: int) -> bool:
        """May the player pick up the cards of ``pile`` from ``index`` up?"""
        count = self._count_from(pile, index)
        return 0 <= index and count >= 1 and self.game.can_pick_up(pile, count)

    def why_not_grab(self, pile: str, index: int | None) -> str:
        """A line for the player who tried to pick up what cannot move ('' for none)."""
        if index is None:
            return ""
        reason = self.game.why_not_pick_up(pile, self._count_from(pile, index))
        return reason_words(reason, full_stop=False, places=self.pile_words) if reason else ""

    def click_pile(self, pile: str, index: int | None) -> bool:
        """A plain click (or SELECT) with nothing selected: True if it meant a
        move (turn the stock, remove a ten …), played or refused with a reason."""
        move = self.game.click_move(pile)
        if move is None:
            return False
        self.play(move)
        return True

    def explain(self, pile: str, index: int, target: str):
        """The move meant by putting the cards at ``pile[index:]`` on ``target``,
        for the engine to refuse with its reason; None when it means no move."""
        if index is None or index < 0:
            return None
        return self.game.move_between(pile, self._count_from(pile, index), target)

    # --- for subclasses ---------------------------------------------------
    def double_click(self, pile: str, index: int | None) -> None: ...

    def default_selection(self) -> tuple[str, int] | None:
        """What is in hand when the player selected nothing (Camelot: the waste)."""
        return None

    def focus_depth_limit(self, pile: str) -> int:
        """How many cards from the top the focus may cover in ``pile``."""
        return max(1, self.game.max_pick_up(pile))

    def table_labels(self) -> list[tuple[str, float, tuple[float, float], str, tuple]]:
        """Text lying on the table: (text, px, pos, anchor, colour)."""
        return []

    resting_slots: tuple[str, ...] = ()
    """Piles whose empty place changes its letter during play: drawn with the
    cards (repainted where it changed), not into the background."""

    def update_slot_labels(self) -> None:
        """Set ``Slot.label`` of the ``resting_slots`` from the game's state."""

    def draw_decorations(self, surface: pygame.Surface) -> None: ...

    def deal_animation(self) -> None:
        """Show the opening of a new game (default: every card flies to its place)."""
        self.table.deal(self._piles, [], (self.play_area.centerx, self.play_area.bottom))

    def first_focus(self) -> str:
        return next(iter(self.table.slots), "")

    def record_order(self, record) -> list:
        return [event.card for event in record.events if hasattr(event, "card")]

    record_stagger = 0.08

    # --- the engine's state -------------------------------------------------
    def _refresh(self) -> None:
        self._piles = self.game.piles()
        self._legal = self.game.legal_moves()
        self._version += 1
        self._targets_cache = None
        self.flash = None
        self._stuck_noted = None
        if self.selection is not None and not self._selection_valid(self.selection):
            self.selection = None
        if self.focus not in self.table.slots:
            self.focus = self.first_focus()
        self._clamp_focus()
        self.update_slot_labels()

    def _selection_valid(self, sel) -> bool:
        pile, index = sel
        return 0 <= index < len(self._piles.get(pile, [])) and self.can_grab(pile, index)

    def _clamp_focus(self) -> None:
        limit = max(1, min(self.focus_depth_limit(self.focus), len(self._piles.get(self.focus, []))))
        self.focus_depth = max(1, min(self.focus_depth, limit))

    def cards_of(self, pile: str, index: int) -> list:
        return [card for card, _ in self._piles.get(pile, [])[index:]]

    def moves_for(self, pile: str, index: int) -> list:
        """The legal moves of the cards at ``pile[index:]`` (those with a target)."""
        cards = self._piles.get(pile, [])
        if not 0 <= index < len(cards):
            return []
        card, n = cards[index][0], len(cards) - index
        return [m for m in self._legal if m.source == pile and m.card == card
                and m.target is not None and m.count == n]

    def targets_of(self, sel: tuple[str, int] | None) -> dict:
        """Legal target pile → move, for a selection."""
        if sel is None:
            return {}
        cache = self._targets_cache
        if cache is not None and cache[0] == (sel, self._version):
            return cache[1]
        targets = {}
        for move in self.moves_for(*sel):
            targets.setdefault(move.target, move)
        self._targets_cache = ((sel, self._version), targets)
        return targets

    def current_selection(self) -> tuple[str, int] | None:
        if self.selection is not None:
            return self.selection
        if self.game.status is not Status.PLAYING:
            return None
        return self.default_selection()


    # --- showing it ---------------------------------------------------------
    def show_new_game(self) -> None:
        self.selection = None
        self._queue = []
        self._drag = None
        self.thinker.forget()
        self._hint_wanted = False
        self._refresh()
        self.focus = self.first_focus()
        self.focus_depth = 1
        self.deal_animation()

    def show_record(self, record) -> None:
        self.selection = None
        self._refresh()
        self.table.sync(self._piles, order=self.record_order(record), stagger=self.record_stagger)

    def show_state(self) -> None:
        self.selection = None
        self._queue = []
        self._refresh()
        self.table.sync(self._piles, duration=0.22)

    def finish_animations(self) -> None:
        self._flush_queue()
        self.table.finish()

    @property
    def busy(self) -> bool:
        return self.table.busy or self._drag is not None or bool(self._queue)

    def celebrate(self) -> None:
        self.table.celebrate(*self.celebration_ring())

    def show_hint(self, move) -> None:
        # The focus goes to what the hint shows (whichever device asked, and
        # however late the answer comes), so SELECT (A) acts on the hint.
        if move.source in self.table.slots:
            self.focus = move.source
            self.focus_depth = move.count
            self._clamp_focus()

    def focus_spot(self):
        return (self.focus, self.focus_depth, self.selection) if self.focus in self.table.slots else None

    def focus_words(self) -> str:
        held = self.cards_of(*self.selection) if self.selection is not None else []
        holding = (ngettext("{card} and {n} more", "{card} and {n} more", len(held) - 1).format(
            card=card_name(held[0]), n=len(held) - 1) if len(held) > 1 else card_name(held[0])) if held else None
        return focus_line(self.pile_words(self.focus), self._piles.get(self.focus, []),
                          self.focus_depth, holding)

    def position_words(self) -> list[str]:
        return [pile_line(self.pile_words(pile), self._piles.get(pile, [])) for pile in self.table.slots]

    def move_words(self, move) -> str:
        """The cards moved and where they go: 'the seven of clubs and the 2
        cards on it from the third pile onto the eight of clubs'."""
        card = getattr(move, "card", None)
        what = (_("the {card}").format(card=card_name(card)) if card is not None
                else _("the top card of {pile}").format(pile=self.pile_words(move.source)))
        if move.count > 1:
            what = ngettext("{cards} and the {n} card on it", "{cards} and the {n} cards on it",
                            move.count - 1).format(cards=what, n=move.count - 1)
        what = _("{cards} from {pile}").format(cards=what, pile=self.pile_words(move.source))
        if move.target is None:
            return what
        under = self._piles.get(move.target)
        return (_("{cards} onto the {card}").format(cards=what, card=card_name(under[-1][0])) if under
                else _("{cards} to {pile} (empty)").format(cards=what, pile=self.pile_words(move.target)))

    def _follow_hint(self) -> None:
        """The hinted cards picked up with the keys or pad: the focus goes on to
        the hinted target, so a second SELECT plays the hint."""
        move, sel = self.hint_move, self.selection
        target = getattr(move, "target", None)
        if move is None or sel is None or sel[0] != move.source or target not in self.table.slots:
            return
        if target in self.targets_of(sel):
            self.focus, self.focus_depth = target, 1

    def on_illegal(self, move) -> None:
        pile = move.target if move.target in self.table.slots else move.source
        if pile in self.table.slots:
            self.flash = (pile, 0.6)

    # --- playing moves --------------------------------------------------------
    def play_sequence(self, moves: list) -> None:
        """Play ``moves`` one after another, each when the last has landed."""
        if moves:
            self._queue = list(moves[1:])
            self.play(moves[0])

    def _flush_queue(self) -> None:
        while self._queue:
            move = self._queue.pop(0)
            if self.game.status is not Status.PLAYING or self.play(move) is None:
                self._queue = []

    def _play_queued(self) -> None:
        if self._queue and not self.table.busy:
            move = self._queue.pop(0)
            if self.game.status is not Status.PLAYING or self.play(move) is None:
                self._queue = []

    def new_deal(self, seed: int | None = None) -> None:
        if seed is None and (self.demo or self.app.settings.winnable_only):
            seed = pick_winnable_deal(self.game_id, self.rng)
        super().new_deal(seed)

    # --- the background solver ("still winnable?", solver hints) ------------------
    @property
    def solver_enabled(self) -> bool:
        """The solver runs for the indicator and hints, and in demos for the
        winning line they follow."""
        return self.solver_seconds is not None

    def solver_tick(self) -> None:
        """Every frame: ask about a new position, pick up an answer. Never blocks."""
        if not self.solver_enabled:
            return
        if (self._solve_version != self._version and self.game.status is Status.PLAYING
                and self.app.scenes.top is self):
            if self._solver is None:
                for other in list(_solver_owner):     # a scene dropped without leave()
                    other.stop_solver()
                self._solver = Channel("solve")
                _solver_owner.append(self)
            self._solver.ask({"game": self.game.to_json(), "max_seconds": self.solver_seconds})
            self._solve_version = self._version
        if self._solver is not None:
            answer = self._solver.poll()
            if answer is not None and self._solve_version is not None:
                result = solve_result(answer)
                self._solve_result = (self._solve_version, result)
                if result.answer == WINNABLE:
                    self._was_winnable = self.game

    def was_winnable(self) -> bool:
        """This game could be won at some point: its deal is on the proven list,
        or the solver said so of a position on the way."""
        if getattr(self, "_was_winnable", None) is self.game:
            return True
        known = getattr(self, "_proven_deal", None)
        if known is None or known[0] != self.seed:
            known = self._proven_deal = (self.seed, self.seed in set(cached_winnable_deals(self.game_id)))
        return known[1]

    def solver_result(self) -> SolveResult | None:
        """The solver's answer for the position on the table (None: not in yet)."""
        if self._solve_result is None or self._solve_result[0] != self._version:
            return None
        return self._solve_result[1]

    def solver_status(self) -> str:
        """Words for the HUD: is the position on the table still winnable? "Not
        winnable" when it never was in this game, "No longer winnable" when a
        move lost it; nothing when the player switched the indicator off."""
        if (not self.solver_enabled or self.demo or self.game.status is not Status.PLAYING
                or not self.app.settings.winnable_indicator):
            return ""
        result = self.solver_result()
        if result is None:
            return _("Thinking…") if self._solve_version == self._version else ""
        if result.answer == NOT_WINNABLE and self.was_winnable():
            return _(LOST_ON_THE_WAY)
        return _(SOLVER_WORDS.get(result.answer, N_("Unknown")))

    def with_solver_status(self, line: str) -> str:
        words = self.solver_status()
        return f"{line}  ·  {words}" if line and words else (line or words)

    def play(self, move):
        """Play, and when the move was the first of the known winning line, the
        rest of the line still wins: no need to ask the solver again."""
        result = self.solver_result() if self.solver_enabled else None
        first = None
        if result is not None and result.winnable and result.line:
            try:
                first = self.game.parse_move(result.line[0])   # before the move changes things
            except Exception:  # noqa: BLE001 - a notation the engine cannot read
                first = None
        record = super().play(move)
        if record is not None and first is not None and first == move:
            self._solve_result = (self._version, SolveResult(WINNABLE, result.line[1:]))
            self._solve_version = self._version
            if self._solver is not None:
                self._solver.cancel()
        return record

    def leave(self) -> None:
        self.stop_solver()
        self.thinker.forget()
        super().leave()

    def stop_solver(self) -> None:
        if self in _solver_owner:
            _solver_owner.remove(self)
        if self._solver is not None:
            self._solver.cancel()
            self._solver = None

    # --- the computer player ----------------------------------------------------
    def hint(self) -> None:
        if self.game.status is not Status.PLAYING:
            self.app.toast(_("The game is over"))
            return
        self.assisted = True
        result = self.solver_result() if self.solver_enabled else None
        if result is not None and result.winnable and result.line:
            try:
                move = self.game.parse_move(result.line[0])
            except Exception:  # noqa: BLE001 - fall back to the heuristic hint
                move = None
            if move is not None:
                self._hint_wanted = False
                self.give_hint(move, HINT_SECONDS)
                return
        if result is not None and result.answer == NOT_WINNABLE:
            self.app.toast(_("This deal can no longer be won"))
        self._hint_wanted = True
        self._ask()
        self._deliver_hint()

    def _ask(self) -> None:
        if not self.thinker.asked(self.game):
            self.thinker.ask(self.game, self.rng.randrange(1 << 30))

    def _deliver_hint(self) -> None:
        ready, move = self.thinker.answer(self.game)
        if not ready:
            return
        self._hint_wanted = False
        if move is None:
            self.app.toast(_("No move can help any more: undo, restart or deal again"))
            return
        self.give_hint(move, HINT_SECONDS)

    def play_automatically(self, dt: float) -> None:
        """Hints and automatic play from the Thinker, off the frame loop."""
        if self._hint_wanted:
            self._deliver_hint()
        if not self.autoplay or self.app.scenes.top is not self:
            return
        self._ask()   # start thinking now, while the last move still flies
        if self.busy:
            return
        self._autoplay_wait += dt
        pause = AUTOPLAY_PAUSE / self.app.settings.speed_factor
        if self._fresh_deal:
            pause *= 2  # let the player see the deal
        if self._autoplay_wait < pause:
            return
        if self.solver_enabled:
            # Automatic play (and the demo) follows the solver's winning line
            # where there is one; it waits for the answer (at most the solver's
            # budget), else the computer player plays on.
            result = self.solver_result()
            if result is None and self._solve_version == self._version:
                return
            if result is not None and result.winnable and result.line:
                self._autoplay_wait = 0.0
                self.play(self.game.parse_move(result.line[0]))
                return
        ready, move = self.thinker.answer(self.game)
        if not ready:
            return
        self._autoplay_wait = 0.0
        if move is not None:
            self.play(move)
        elif self._stuck_noted != self._version:
            self._stuck_noted = self._version
            self.no_useful_move()

    def no_useful_move(self) -> None:
        """The computer sees nothing that helps, though the engine has not called
        the game lost (its search gave up): say so rather than sit silent."""
        if self.demo:   # deal again (or, showing every game, go on to the next)
            self._timers.append(Timer(DEMO_NEXT_DEAL, getattr(self, "_next_demo", self.new_deal)))
            return
        self.autoplay = False
        self.app.toast(_("The computer sees no move that helps: undo, restart or deal again"), 5)

    # --- input ------------------------------------------------------------
    def handle_table(self, event: InputEvent) -> None:
        a = event.action
        if a != Action.POINTER_MOVE:
            self._flush_queue()
        if a in DIRECTIONS:
            self._move_focus(a)
        elif a == Action.SELECT:
            pile = self.focus
            cards = self._piles.get(pile, [])
            self.table.finish()
            self._click(pile, len(cards) - self.focus_depth if cards else None)
            self._follow_hint()
        elif a == Action.BACK:
            if self.selection is not None:
                self.selection = None
            else:
                self.back_pressed()
        elif a == Action.CYCLE:
            self._cycle(-1 if event.amount < 0 else 1)
        elif a == Action.POINTER_DOWN and event.button == 1:
            spot = self.table.hit(event.pos)
            self._press = (event.pos, *spot) if spot else (event.pos, None, None)
        elif a == Action.POINTER_DOWN and event.button == 3:
            self.selection = None
        elif a == Action.POINTER_MOVE:
            self._pointer_move(event.pos)
        elif a == Action.POINTER_UP and event.button == 1:
            self._pointer_up(event.pos)
        elif a == Action.DOUBLE_CLICK:
            self._swallow_up = True
            spot = self.table.hit(event.pos)
            if spot is not None and self.game.status is Status.PLAYING and self._drag is None:
                self.selection = None
                self.table.finish()
                self.double_click(*spot)

    def _click(self, pile: str | None, index: int | None) -> None:
        """A click on ``pile`` (card ``index``; None: its empty place), or SELECT on
        the focus: put the selection there, pick something up, or act."""
        if pile is None or self.game.status is not Status.PLAYING:
            self.selection = None
            return
        sel = self.current_selection()
        if sel is not None:
            if sel == (pile, index):
                self.selection = None
                return
            targets = self.targets_of(sel)
            if pile in targets:
                self.selection = None
                self.play(targets[pile])
                return
            if index is not None and self.can_grab(pile, index):
                self.selection = (pile, index)
                return
            move = self.explain(sel[0], sel[1], pile) if pile != sel[0] else None
            if move is not None:
                self.play(move)   # refused: the engine says why; the selection stays
                return
            self.selection = None
        if self.click_pile(pile, index):
            return
        if index is not None and self.can_grab(pile, index):
            self.selection = (pile, index)
            return
        reason = self.why_not_grab(pile, index)
        if reason:
            self.app.toast(reason)

    def _pointer_move(self, pos) -> None:
        if self._drag is not None:
            gx, gy = self._drag["grab"]
            self.table.drag_to(self._drag["cards"], (pos[0] - gx, pos[1] - gy))
            return
        if self._press is None:
            return
        start, pile, index = self._press
        if pile is None or index is None:
            return
        if abs(pos[0] - start[0]) + abs(pos[1] - start[1]) <= DRAG_THRESHOLD:
            return
        if self.game.status is not Status.PLAYING or not self.can_grab(pile, index):
            reason = self.why_not_grab(pile, index)
            if reason:
                self.app.toast(reason)
            self._press = None
            return
        self.finish_animations()
        cards = self.cards_of(pile, index)
        rect = self.table.card_rect(cards[0])
        self._drag = {"pile": pile, "index": index, "cards": cards,
                      "grab": (start[0] - rect.x, start[1] - rect.y),
                      "targets": self.targets_of((pile, index))}
        self.selection = None
        self.table.lift(cards)
        self.table.drag_to(cards, (pos[0] - self._drag["grab"][0], pos[1] - self._drag["grab"][1]))

    def _pointer_up(self, pos) -> None:
        swallow, self._swallow_up = self._swallow_up, False
        pressed, self._press = self._press, None
        if self._drag is not None:
            drag, self._drag = self._drag, None
            cards, targets = drag["cards"], drag["targets"]
            rect = self.table.card_rect(cards[0])
            target = self.table.nearest_pile(rect, list(targets))
            self.table.drop(cards)
            if target is not None:
                self.play(targets[target])
                return
            others = [p for p in self.table.slots if p != drag["pile"]]
            other = self.table.nearest_pile(rect, others)
            if other is not None:
                move = self.explain(drag["pile"], drag["index"], other)
                if move is not None:
                    self.play(move)   # refused, with the engine's reason
            return
        if swallow or pressed is None:
            return
        _, pile, index = pressed
        if pile is None:
            self.selection = None
            return
        self._click(pile, index)

    # --- focus ---------------------------------------------------------------
    def _focus_points(self) -> dict:
        w, h = self.table.card_size
        return {pile: (slot.origin[0] + w / 2, slot.origin[1] + h / 2)
                for pile, slot in self.table.slots.items()}

    def _move_focus(self, action: Action) -> None:
        pile = self.focus
        depth_limit = min(self.focus_depth_limit(pile), len(self._piles.get(pile, [])))
        if action == Action.UP and self.focus_depth < depth_limit:
            self.focus_depth += 1
            return
        if action == Action.DOWN and self.focus_depth > 1:
            self.focus_depth -= 1
            return
        new = nearest_in_direction(self._focus_points(), pile, DIRECTIONS[action])
        if new != pile:
            self.focus, self.focus_depth = new, 1

    def _cycle(self, step: int) -> None:
        """Jump the focus to the next legal target of the selection, or with
        nothing selected to the next pile with a move."""
        order = list(self.table.slots)
        sel = self.current_selection()
        targets = self.targets_of(sel)
        if targets:
            choices = {pile: 1 for pile in targets}
        elif self.selection is not None:
            self.app.toast(_("Nothing can take that: BACK to put it down"))
            return
        else:
            choices = {}
            for move in self._legal:
                if move.source in self.table.slots:
                    choices.setdefault(move.source, move.count)
        if not choices:
            self.app.toast(_("Nothing to move"))
            return
        ranked = [p for p in order if p in choices]
        here = order.index(self.focus) if self.focus in order else -1
        after = [p for p in ranked if (order.index(p) - here) * step > 0]
        pile = (after[0] if step > 0 else after[-1]) if after else (ranked[0] if step > 0 else ranked[-1])
        self.focus, self.focus_depth = pile, choices[pile]
        self._clamp_focus()

    # --- time and drawing -----------------------------------------------------
    def update_table(self, dt: float) -> None:
        if getattr(self, "_painted_size", None) is not None:
            self.art.prerender_in_background()   # the first frame is up: the other faces now
        self.table.update(dt)
        self._play_queued()
        self.solver_tick()
        if self.flash:
            pile, left = self.flash
            self.flash = (pile, left - dt) if left - dt > 0 else None

    def draw_background(self, surface: pygame.Surface) -> None:
        super().draw_background(surface)
        for pile, slot in self.table.slots.items():
            if pile not in self.resting_slots:
                self.art.draw_placeholder(surface, (int(slot.origin[0]), int(slot.origin[1])), slot.label)
        self.draw_decorations(surface)

    def _resting_slot_key(self) -> tuple:
        return tuple(self.table.slots[p].label for p in self.resting_slots if p in self.table.slots)

    def _label_rect(self, spec) -> pygame.Rect:
        text, px, pos, anchor, color = spec
        surf = FONTS.text(text, int(px), color)
        return surf.get_rect(**{anchor: (int(pos[0]), int(pos[1]))}).inflate(4, 4)

    def draw_resting(self, surface: pygame.Surface, clip) -> None:
        for pile in self.resting_slots:
            slot = self.table.slots[pile]
            self.art.draw_placeholder(surface, (int(slot.origin[0]), int(slot.origin[1])), slot.label)
        for spec, _ in self._labels_drawn:
            text, px, pos, anchor, color = spec
            draw_text(surface, text, px, pos, color, anchor=anchor)
        self.table.draw_static(surface, self.art, clip)

    def resting_changes(self) -> list[pygame.Rect]:
        dirty = self.table.static_changes()
        key = self._resting_slot_key()
        if key != self._resting_key:
            self._resting_key = key
            w, h = self.table.card_size
            dirty += [pygame.Rect(int(self.table.slots[p].origin[0]), int(self.table.slots[p].origin[1]),
                                  w, h) for p in self.resting_slots]
        labels = self.table_labels()
        if [spec for spec, _ in self._labels_drawn] != labels:
            dirty += [rect for _, rect in self._labels_drawn]
            self._labels_drawn = [(spec, self._label_rect(spec)) for spec in labels]
            dirty += [rect for _, rect in self._labels_drawn]
        return dirty

    def resting_rebuilt(self) -> None:
        self.table.forget_static()

    def busy_areas(self) -> list[pygame.Rect]:
        return self.table.busy_areas()

    def before_full_repaint(self) -> None:
        # a whole repaint: the labels drawn are the ones current now
        self._labels_drawn = [(spec, self._label_rect(spec)) for spec in self.table_labels()]
        self._resting_key = self._resting_slot_key()

    def _ring(self, surface, rect: pygame.Rect, color, rects: list) -> None:
        ring = max(2, int(3 * self.scale)) * (2 if self.app.settings.high_contrast else 1)
        rects.append(glow_rect(surface, rect, color, ring, self.art.corner_radius))

    def _draw_hint(self, surface, move, rects: list) -> None:
        """The hint stands out from the other glows: rings three times as thick
        round the cards and their target, and an arrow from one to the other."""
        ring = max(4, int(8 * self.scale))
        ends = []
        if move.source in self.table.slots:
            cards = self._piles.get(move.source, [])
            ends.append(self._sel_rect(move.source, len(cards) - move.count))
        if move.target in self.table.slots:
            ends.append(self.table.top_rect(move.target))
        for rect in ends:
            rects.append(glow_rect(surface, rect, HINT, ring, self.art.corner_radius))
        if len(ends) == 2 and not ends[0].colliderect(ends[1]):
            rects.append(draw_arrow(surface, ends[0].center, ends[1].center, HINT,
                                    max(3, int(5 * self.scale))))

    def _sel_rect(self, pile: str, index: int | None) -> pygame.Rect:
        if index is None or not self._piles.get(pile):
            return self.table.top_rect(pile)
        return self.table.cards_rect(pile, index)

    def animated_look(self):
        if self.table.celebrating or self.table.busy or self._drag is not None or self.flash:
            return None
        return (self._version, self.game.status, self.current_selection(), self.hint_move,
                self._hover_spot(), self.app.input.last_device, self.focus, self.focus_depth)

    def _hover_spot(self) -> tuple[str, int] | None:
        """The card under the mouse, if a click on it would do something."""
        if not self.app.input.pointing:
            return None
        spot = self.table.hit(self.pointer)
        if spot is None or spot[1] is None:
            return None
        pile, index = spot
        if self.can_grab(pile, index):
            return spot
        acts = any(m.source == pile and (m.target is None or pile == "stock") for m in self._legal)
        return spot if acts and index == len(self._piles.get(pile, [])) - 1 else None

    def draw_animated(self, surface: pygame.Surface) -> list[pygame.Rect]:
        rects: list[pygame.Rect] = []
        if self.table.celebrating:
            return self.table.draw_animated(surface, self.art)
        playing = self.game.status is Status.PLAYING
        if self._drag is not None:
            for pile in self._drag["targets"]:
                self._ring(surface, self.table.top_rect(pile), LEGAL, rects)
        elif playing and not self.demo:
            sel = self.current_selection()
            if sel is not None:
                for pile in self.targets_of(sel):
                    self._ring(surface, self.table.top_rect(pile), LEGAL, rects)
                self._ring(surface, self._sel_rect(*sel), SELECTED, rects)
        if self.hint_move is not None and playing:
            self._draw_hint(surface, self.hint_move, rects)
        if self.flash:
            pile, left = self.flash
            self._ring(surface, self.table.top_rect(pile).move(shake(self.app, left, 4 * self.scale), 0),
                       ILLEGAL, rects)
        hover = self._hover_spot() if self._drag is None and playing and not self.demo else None
        if hover is not None:
            ring = max(1, int(1.5 * self.scale))
            rects.append(glow_rect(surface, self._sel_rect(*hover), FOCUS, ring, self.art.corner_radius))
        if not self.app.input.pointing and not self.demo and self.focus in self.table.slots:
            cards = self._piles.get(self.focus, [])
            rect = self._sel_rect(self.focus, len(cards) - self.focus_depth if cards else None)
            grow = max(4, int(8 * self.scale))    # outside the other rings: all stay visible
            self._ring(surface, rect.inflate(grow, grow), FOCUS, rects)
        rects += self.table.draw_animated(surface, self.art)
        return rects
