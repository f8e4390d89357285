"""A board game screen, put together from parts: a :class:`BoardTable`, a
player per side (``board_players``), a toolbar of :class:`Command` s, and any
more parts beside the board (the online table's chat column).

How a move travels: a person's choice on the table goes to the screen's
``on_move`` (the local screen plays it, the online screen sends it to the
server); an automatic player's move (the computer's, a record's) is asked for
every frame of its turn (:meth:`BoardScreen.automatic_moves`) and played with
:meth:`BoardScreen.play`; a remote player's arrives through the online session,
which the online screen plays the same way. Whatever is played, the engine
board (``self.game``, the table's too) takes it and the table shows its record.

The screens (``scenes.games.camelot_board_scene`` for a game at this screen,
``camelot_online`` at a network table, ``scenes.screens.replay`` for a record)
fill the hooks: ``status_line``, ``score_line``, ``side_label``,
``show_game_over``, ``open_pause`` and ``tick`` (their own business each frame).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pygame

from game import game_info
from game.base import Status
from game.camelot.board import CamelotBoard
from game.errors import RoundTableError

from ..store.terms import SIDES, reason_words, refusal_text, term
from ..core.actions import Action, InputEvent
from ..core.announcer import announce, announcing
from ..core.overlays import FocusButtons
from ..core.sound import sound_for_events
from ..core.ui import Button
from .board_players import Pace
from .board_table import BoardTable
from .board_view import PATH_COMPUTER
from .painted_scene import PaintedScene
from .spoken import board_position_lines, square_words
from ..store.words import _

BOARD_GAME = game_info(CamelotBoard.game_id)


@dataclass
class Command:
    """One thing the toolbar and the keys do: a button (``label``; none when only
    keys do it), the actions (keys, pad) that do it too, and when it is
    available (``enabled``) or lit (``lit``: a mode switched on)."""

    label: str
    run: Callable[[], None]
    actions: tuple = ()
    enabled: Callable[[], bool] = field(default=lambda: True)
    lit: Callable[[], bool] = field(default=lambda: False)


class Part:
    """Something beside the board that owns its input and its drawing (the online
    table's chat column, the replay's wheel): the screen asks each in turn."""

    def layout(self, area: pygame.Rect, scale: float) -> pygame.Rect:
        """Take a strip of ``area``; return what is left for the board."""
        return area

    def handle(self, event: InputEvent) -> bool:
        """True when the event was this part's."""
        return False

    def draw_resting(self, surface: pygame.Surface, clip) -> None: ...

    def resting_changes(self) -> list[pygame.Rect]:
        return []

    def resting_rebuilt(self) -> None: ...


class BoardScreen(PaintedScene):
    """A board, two players and a toolbar (see the module's words)."""

    engine = CamelotBoard                       # the engine class of the board it shows
    autoplay = False                            # the board plays the person's side too (Auto, Play)
    game_id, title = BOARD_GAME.id, BOARD_GAME.title

    def __init__(self, app, game, players: dict, commands: list[Command], on_move=None,
                 parts: tuple = ()) -> None:
        super().__init__(app)
        self.table = BoardTable(app, on_move)
        self.game = game
        self.players = players                   # color → Player
        self.commands = commands
        self.parts = parts                       # more parts beside the board (layout, drawing, input)
        self.toolbar = FocusButtons([Button(c.label, c.run) for c in commands if c.label])
        self.table.may_choose = self.person_to_move
        self.table.side_label = self.side_label
        self.table.plays_itself = self.plays_itself
        self.table.thinking = lambda: self.plays_itself() and self.players[self.game.turn].thinking
        self.table.relaid = self.repaint_whole       # the board magnified or moved under a finger
        self.timers: list = []
        self.over_shown = False
        self.fresh = True                        # no move yet in this game
        self._focus_said = None                  # (focus square, selected) last announced

    @property
    def game(self):
        """The one engine board of this game: the table shows it."""
        return self.table.game

    @game.setter
    def game(self, game) -> None:
        self.table.game = game

    # --- for the screens -----------------------------------------------------------------
    @property
    def flipped(self) -> bool:
        return False

    def side_label(self, color: str) -> str:
        return self.players[color].label()

    def tick(self, dt: float) -> None: ...

    def leave(self) -> None:
        """Left for good (popped or replaced): what the players were working out is
        dropped, and the parts let go of the screen (the table's questions, the
        toolbar's commands and the players' callbacks are its methods), so it is
        freed when it is left, not at the next full collection."""
        super().leave()
        self.forget_moves()
        self.table.release()
        self.players, self.commands, self.parts, self.timers = {}, [], (), []
        self.toolbar = FocusButtons([])
    def show_game_over(self) -> None: ...

    # --- who plays ---------------------------------------------------------------------
    def person_to_move(self) -> bool:
        """A person at this screen may choose the move now."""
        player = self.players[self.game.turn]
        return player.at_screen and player.may_choose()

    def plays_itself(self) -> bool:
        """The side to move plays by itself here (the computer, a record)."""
        return self.game.status is Status.PLAYING and self.players[self.game.turn].automatic

    def distinct_players(self) -> list:
        """Each player once (one computer may play both sides)."""
        return list({id(p): p for p in self.players.values()}.values())

    def forget_moves(self) -> None:
        """The game changed: what the players were about to play is stale."""
        for player in self.distinct_players():
            player.forget()

    def automatic_moves(self, dt: float) -> None:
        """The side to move, when no person here plays it, may have its move ready."""
        if self.game.status is not Status.PLAYING:
            return
        player = self.players[self.game.turn]
        if player.at_screen:
            for other in self.distinct_players():
                other.stop_asking()
            return
        move = player.next_move(self.game, dt, Pace(self.app.settings.speed_factor, self.fresh,
                                                    self.table.busy))
        if move is not None:
            self.play(move, from_afar=True)

    def play(self, move, from_afar: bool = False):
        """The engine board plays ``move`` (any animation finished first); the
        table shows it travel. An illegal move is said in one line. Its record or None."""
        self.table.finish_animations()
        self.forget_moves()
        mover = self.game.turn
        try:
            record = self.game.play(move)
        except RoundTableError as exc:
            self.app.toast(reason_words(refusal_text(exc), full_stop=False))
            self.app.sound.play("invalid")
            return None
        if not self.demo:
            self.app.sound.play_all(sound_for_events(record.events))
        self.fresh = False
        self.table.show_record(record, from_afar)
        if not self.demo and self.game.history:
            announce(_("{side} played {move}.").format(side=self.side_label(mover), move=self.game.history[-1]))
            if self.game.status is Status.PLAYING:
                announce(_("{side} to move.").format(side=self.side_label(self.game.turn)))
        return record

    def _say_focus(self) -> None:
        """A new focus square (or piece picked up) is said: the square and its piece."""
        table = self.table
        if self.demo or self.app.scenes.top is not self or not announcing() or table.game is None:
            return
        spot = (table.focus_sq, table.selected)
        if spot != self._focus_said:
            self._focus_said = spot
            pieces = self.game.pieces()          # the engine's, not the pieces still travelling
            words = square_words(table.focus_sq, pieces.get(table.focus_sq))
            if table.selected == table.focus_sq:
                words = _("{square}, picked up").format(square=words)
            elif table.selected is not None:
                words = _("{square}; holding {held}").format(
                    square=words, held=square_words(table.selected, pieces.get(table.selected)))
            announce(words)

    def read_position(self) -> None:
        """Whose move and every piece on the board (F2 / the right stick's click)."""
        announce(self.status_line())
        for line in board_position_lines(self.game.pieces(), self.side_label):
            announce(line)
        self._focus_said = None

    def show_state(self) -> None:
        """After an undo or a jump: the position at once, nothing pending."""
        self.forget_moves()
        self.table.show_state()

    @property
    def busy(self) -> bool:
        return self.table.busy

    # --- the status line's common words ------------------------------------------------
    def arriving_line(self) -> str | None:
        """A move not made here travelling: who plays what (a click skips it)."""
        travel, game = self.table.travel, self.game
        if travel is None or travel.color != PATH_COMPUTER or self.demo:
            return None
        return _("{side} plays {move}: click to skip").format(
            side=term(SIDES, travel.piece.color), move=game.history[-1]) if game.history else ""

    def turn_line(self, head: str) -> str:
        """``head`` ("Your move") with what the person to move must know: the path
        shown of several, or what the rules ask of them."""
        choice = self.table.path_choice()
        if choice is not None:
            if self.app.touch_mode:     # the words a finger can follow (as its toast says)
                return _("Path {n} of {count}: tap again to play it, hold for the next").format(
                    n=choice[0], count=choice[1])
            return _("Path {n} of {count}: Tab, wheel or RB for the next").format(n=choice[0], count=choice[1])
        if self.game.must_leave_castle():
            return _("{head}: the piece in your own castle must come out").format(head=head)
        if self.game.capture_is_compulsory:
            return _("{head}: capturing is compulsory").format(head=head)
        return head

    # --- the scene ---------------------------------------------------------------------
    def layout(self, area: pygame.Rect) -> None:
        for part in self.parts:
            area = part.layout(area, self.scale)
        self.table.layout(area, self.scale, self.flipped)

    def handle(self, event: InputEvent) -> None:
        if event.pos is not None:
            self.pointer = event.pos
        if any(part.handle(event) for part in self.parts) or self.screen_input(event):
            return
        if event.action == Action.READ_POSITION:
            self.read_position()
            return
        for command in self.commands:
            if event.action in command.actions:
                command.run()
                return
        if not self.table.handle(event):
            self.open_pause()

    def update(self, dt: float) -> None:
        for timer in list(self.timers):
            if timer.advance(dt):
                self.timers.remove(timer)
        for player in self.distinct_players():
            player.poll(self.game)
        self.table.update(dt)
        self.tick(dt)
        self._say_focus()
        if self.app.scenes.top is not self and not self.over_shown:
            return
        if self.game.status is not Status.PLAYING:
            if not self.over_shown and not self.busy:
                self.show_game_over()
            return
        self.automatic_moves(dt)

    def button_enabled(self, label: str) -> bool:
        return next((c.enabled() for c in self.commands if c.label == label), True)

    def button_lit(self, label: str) -> bool:
        return next((c.lit() for c in self.commands if c.label == label), False)

    # --- drawing: the table's, then the parts' beside it ---------------------------------
    def draw_background(self, surface: pygame.Surface) -> None:
        self.table.draw_background(surface)

    def draw_resting(self, surface: pygame.Surface, clip) -> None:
        self.table.draw_resting(surface, clip)
        for part in self.parts:
            part.draw_resting(surface, clip)

    def resting_changes(self) -> list[pygame.Rect]:
        rects = self.table.resting_changes()
        for part in self.parts:
            rects += part.resting_changes()
        return rects

    def resting_rebuilt(self) -> None:
        self.table.resting_rebuilt()
        for part in self.parts:
            part.resting_rebuilt()

    def draw_animated(self, surface: pygame.Surface) -> list[pygame.Rect]:
        return self.table.draw_animated(surface)

    def animated_look(self):
        return self.table.animated_look()

    def next_change_in(self) -> float:
        """0 while something moves, the board plays itself (a demo, Auto, a
        replay's Play) or a move found waits out its pause: each move is due
        on time; the spinner's next step while the computer thinks; else the
        default wake (the worker's answer, a message, the clock's next second
        are looked for that often)."""
        if self.busy or self.demo or self.autoplay or (
                self.plays_itself() and not self.players[self.game.turn].thinking):
            return 0.0
        spinner = self.table.next_change_in()
        wait = super().next_change_in()
        return wait if spinner is None else min(wait, spinner)


__all__ = ["BoardScreen", "Command", "Part"]
