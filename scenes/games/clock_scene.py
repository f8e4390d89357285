"""Clock on screen: twelve piles round a clock face and the centre pile.

Click the centre card, or click / double-click / drag it to its hour, or press
select (Enter, Space, gamepad A) with the focus on the centre. ``A`` (gamepad
Back) toggles automatic play. The rules are asked of ``game.clock``.
"""
from __future__ import annotations

import math

import pygame

from game.base import Status
from game.clock import CENTRE, HOURS, Clock, ClockMove, hour_pile

from ..core.actions import DIRECTIONS, Action, InputEvent
from ..core.anim import shake
from ..store.terms import card_name
from ..table.card_art import shared_card_art
from ..table.card_table import CardTable, Slot
from ..table.game_scene import GameScene
from ..table.spoken import focus_line, pile_line
from ..core.ui import FOCUS, HINT, ILLEGAL, LEGAL, glow_rect, text_surfaces
from ..core.focus import nearest_in_direction
from ..store.words import _

HOUR_LABELS = {1: "A", 11: "J", 12: "Q"}
DRAG_THRESHOLD = 6


class ClockScene(GameScene):
    engine = Clock
    undo_at_the_end = False   # every move is forced: undoing the last changes nothing
    has_choices = False       # ... and Auto or a hint chooses nothing: a win with them is a win
    abandoned_is_lost = True

    def __init__(self, app, seed=None, demo=False, game=None) -> None:
        self.table = CardTable(app.settings)
        self.art = None
        self.focus = CENTRE
        self.flash: tuple[str, float] | None = None   # (pile, seconds left)
        self._press = None          # (pos, card) of a mouse press on the centre card
        self._drag = None           # (card, grab offset)
        self._last_click_move = -1.0
        self._swallow_up = False    # the release that ends a double-click
        self.clock_time = 0.0
        super().__init__(app, seed, demo, game)

    def new_engine(self, seed: int) -> Clock:
        return Clock(seed=seed)

    # --- layout -----------------------------------------------------------
    def layout(self, area: pygame.Rect) -> None:
        ch = area.h / 5.0
        cw = ch / 1.4
        if area.w < cw * 9:          # a narrow window: cards from the width instead
            cw = area.w / 9
            ch = cw * 1.4
        card_w = max(20, int(cw))
        self.art = shared_card_art(self.app, card_w)
        cw, ch = self.art.size
        fan = ch * 0.05
        pile_h = ch + 3 * fan
        self.centre_point = (area.centerx, area.centery)
        ry = (area.h - pile_h) / 2 - ch * 0.08   # clear of the top bar and the message band
        rx = min(max(ry * 1.5, cw * 4.2), (area.w - cw) / 2)
        self.radii = (rx, ry)
        slots = []
        for hour in HOURS:
            x, y = self._hour_point(hour, 1.0)
            slots.append(Slot(hour_pile(hour), (x - cw / 2, y - pile_h / 2), fan=(0, fan),
                              label=HOUR_LABELS.get(hour, str(hour))))
        self.centre_fan = cw * 0.2
        slots.append(Slot(CENTRE, (area.centerx - cw / 2 - 1.5 * self.centre_fan * 0.5,
                                   area.centery - ch / 2),
                          fan=(self.centre_fan, 0), fan_down=(cw * 0.03, 0), label="K"))
        self.table.set_layout(slots, (cw, ch))
        self.table.show_instantly(self.game.piles()) if self.table.sprites else None

    def _hour_point(self, hour: int, k: float) -> tuple[float, float]:
        """Where an hour sits: a superellipse (a rounded rectangle of a clock)
        keeps the twelve piles apart on a wide screen."""
        angle = math.radians(hour * 30)
        s, c = math.sin(angle), math.cos(angle)
        p = 0.6
        x = math.copysign(abs(s) ** p, s)
        y = math.copysign(abs(c) ** p, c)
        cx, cy = self.centre_point
        return (cx + self.radii[0] * k * x, cy - self.radii[1] * k * y)

    # --- showing the engine's state ----------------------------------------
    def show_new_game(self) -> None:
        self.focus = CENTRE
        self.table.deal(self.game.piles(), self.game.deck, self._deck_source())

    def _deck_source(self) -> tuple[float, float]:
        """The deck is dealt from the middle of the clock: no card crosses the toolbar."""
        cw, ch = self.table.card_size
        return (self.centre_point[0] - cw / 2, self.centre_point[1] - ch / 2)

    def show_record(self, record) -> None:
        order = [event.card for event in record.events if hasattr(event, "source")]
        self.table.sync(self.game.piles(), order=order, stagger=0.26)

    def show_state(self) -> None:
        self.table.sync(self.game.piles(), duration=0.22)

    def finish_animations(self) -> None:
        self.table.finish()

    @property
    def busy(self) -> bool:
        return self.table.busy or self._drag is not None

    def celebrate(self) -> None:
        self.table.celebrate(*self.celebration_ring())

    def show_hint(self, move: ClockMove) -> None:
        self.focus = move.target   # SELECT (A) plays what the hint shows

    def move_words(self, move: ClockMove) -> str:
        if move.target == CENTRE:
            return _("put the {card} on the kings' pile in the middle").format(card=card_name(move.card))
        return _("put the {card} on {pile}").format(card=card_name(move.card), pile=self.pile_words(move.target))

    def pile_words(self, pile: str) -> str:
        if pile == CENTRE:
            return _("the kings' pile in the middle")
        hour = int(pile.split(":")[1])
        return _("the {label} ({hour} o'clock)").format(label=HOUR_LABELS.get(hour, str(hour)), hour=hour)

    def focus_spot(self):
        return self.focus

    def after_move_words(self, move) -> str:
        if self.game.status is not Status.PLAYING:
            return ""
        return _("Next: the {card}.").format(card=card_name(self.game.piles()[CENTRE][-1][0]))

    def focus_words(self) -> str:
        return focus_line(self.pile_words(self.focus), self.game.piles()[self.focus])

    def position_words(self) -> list[str]:
        return [pile_line(self.pile_words(pile), cards) for pile, cards in self.game.piles().items()]

    def on_illegal(self, move) -> None:
        if isinstance(move, ClockMove):
            self.flash = (move.target, 0.6)

    def status_line(self) -> str:
        return _("Kings {n} / 4").format(n=self.game.kings_up)

    def score_line(self) -> str:
        return _("Score {score} / {most}").format(score=self.game.score, most=self.game.max_score)

    # --- input ------------------------------------------------------------
    def _centre_top(self):
        cards = self.game.piles()[CENTRE]
        return cards[-1][0]

    def _try(self, move: ClockMove | None) -> bool:
        """Play what the player's gesture means (the engine's ``click_move`` or
        ``move_between``); a wrong pile is refused with the engine's reason."""
        if move is None or self.game.status.value != "playing":
            return False
        self.finish_animations()
        return self.play(move) is not None

    def handle_table(self, event: InputEvent) -> None:
        a = event.action
        if a in (Action.LEFT, Action.RIGHT) and self.focus != CENTRE:
            # Round the clock face: right is clockwise, left anticlockwise.
            hour = int(self.focus.split(":")[1])
            self.focus = hour_pile((hour + (0 if a == Action.RIGHT else -2)) % 12 + 1)
        elif a in DIRECTIONS:
            centres = {pile: self.table.pile_centre(pile) for pile in self.table.slots}
            self.focus = nearest_in_direction(centres, self.focus, DIRECTIONS[a])
        elif a == Action.SELECT:
            if self.focus == CENTRE:
                move = self.game.computer_move()
                if move is not None:
                    self.finish_animations()
                    self.play(move)
            else:
                self._try(self.game.click_move(self.focus))
        elif a == Action.BACK:
            self.back_pressed()
        elif a == Action.POINTER_DOWN and event.button == 1:
            sprite = self.table.card_at(event.pos)
            if sprite is not None and sprite.pile == CENTRE and sprite.card == self._centre_top() \
                    and self.game.status.value == "playing":
                self._press = (event.pos, sprite.card)
            else:
                self._press = None
        elif a == Action.POINTER_MOVE:
            self._pointer_move(event.pos)
        elif a == Action.POINTER_UP and event.button == 1:
            self._pointer_up(event.pos)
        elif a == Action.DOUBLE_CLICK:
            # Each click on the centre card is a move of its own (people click
            # the automatic game fast). On an hour pile the first click of the
            # pair already moved; the second must not try again.
            pile = self.table.pile_at(event.pos)
            if pile is None or pile == CENTRE:
                return
            self._swallow_up = True
            if self.clock_time - self._last_click_move >= 0.6:
                self._try(self.game.click_move(pile))

    def _pointer_move(self, pos) -> None:
        if self._drag is not None:
            card, (gx, gy) = self._drag
            self.table.drag_to([card], (pos[0] - gx, pos[1] - gy))
        elif self._press is not None:
            start, card = self._press
            if abs(pos[0] - start[0]) + abs(pos[1] - start[1]) > DRAG_THRESHOLD:
                self.finish_animations()
                rect = self.table.card_rect(card)
                self._drag = (card, (start[0] - rect.x, start[1] - rect.y))
                self.table.lift([card])
                self.table.drag_to([card], (pos[0] - self._drag[1][0], pos[1] - self._drag[1][1]))

    def _pointer_up(self, pos) -> None:
        swallow, self._swallow_up = self._swallow_up, False
        if self._drag is not None:
            card, _ = self._drag
            self._drag = None
            self._press = None
            hours = [hour_pile(h) for h in HOURS]
            target = self.table.nearest_pile(self.table.card_rect(card), hours + [CENTRE])
            self.table.drop([card])
            if target is not None:
                self._try(self.game.move_between(CENTRE, 1, target))
            return
        pressed, self._press = self._press, None
        if swallow:
            return
        if pressed is not None:
            # A click on the centre card plays the (only) move.
            self._last_click_move = self.clock_time
            self._try(self.game.computer_move())
            return
        pile = self.table.pile_at(pos)
        if pile is not None and pile != CENTRE:
            if self._try(self.game.click_move(pile)):
                self._last_click_move = self.clock_time

    # --- time and drawing -----------------------------------------------------
    def update_table(self, dt: float) -> None:
        self.clock_time += dt
        self.table.update(dt)
        if self.flash:
            pile, left = self.flash
            self.flash = (pile, left - dt) if left - dt > 0 else None

    def draw_background(self, surface: pygame.Surface) -> None:
        super().draw_background(surface)
        self._draw_clock_face(surface)
        self.table.draw_placeholders(surface, self.art)

    def draw_resting(self, surface: pygame.Surface, clip) -> None:
        self.table.draw_static(surface, self.art, clip)

    def busy_areas(self) -> list[pygame.Rect]:
        return self.table.busy_areas()

    def resting_changes(self) -> list[pygame.Rect]:
        return self.table.static_changes()

    def resting_rebuilt(self) -> None:
        self.table.forget_static()

    def draw_animated(self, surface: pygame.Surface) -> list[pygame.Rect]:
        art = self.art
        s = self.scale
        radius = art.corner_radius
        ring = max(2, int(3 * s)) * (2 if self.app.settings.high_contrast else 1)
        rects = self.table.draw_animated(surface, art)
        if self.table.celebrating:
            return rects
        if self.hint_move is not None:
            rects.append(glow_rect(surface, self.table.top_rect(CENTRE), HINT, ring, radius))
            rects.append(glow_rect(surface, self.table.top_rect(self.hint_move.target), HINT, ring, radius))
        if self.flash:
            pile, left = self.flash
            rects.append(glow_rect(surface, self.table.top_rect(pile).move(shake(self.app, left, 4 * s), 0),
                                   ILLEGAL, ring, radius))
        if self._drag is not None:
            # While dragging, the pile the engine accepts glows.
            for move in self.game.legal_moves():
                rects.append(glow_rect(surface, self.table.top_rect(move.target), LEGAL, ring, radius))
        elif self._hovering_centre() and not self.demo:
            rects.append(glow_rect(surface, self.table.top_rect(CENTRE), FOCUS, max(1, ring // 2), radius))
        if not self.app.input.pointing and not self.demo:
            rects.append(glow_rect(surface, self.table.slot_rect(self.focus), FOCUS, ring, radius))
        return rects

    def animated_look(self):
        if self.table.celebrating or self.table.busy or self._drag is not None or self.flash:
            return None
        return (len(self.game.history), self.game.status, self.hint_move, self._hovering_centre(),
                self.app.input.last_device, self.focus)

    def _hovering_centre(self) -> bool:
        """The pointer is over the card a click would play."""
        if not self.app.input.pointing or self.game.status.value != "playing":
            return False
        sprite = self.table.card_at(self.pointer)
        return sprite is not None and sprite.pile == CENTRE and sprite.card == self._centre_top()

    def _draw_clock_face(self, surface: pygame.Surface) -> None:
        # Drawn again under every area repainted (a block under a dealt card):
        # only what meets the clip is blitted.
        clip = surface.get_clip()
        for label, rect in self._face_labels():
            if rect.colliderect(clip):
                surface.blit(label, rect)
        ring = self._face_ring()
        if self._ring_rect.colliderect(clip):
            surface.blit(ring, self._ring_rect.topleft)

    def _face_labels(self) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """The hours' numbers and where they go, kept per layout."""
        px = int(self.table.card_size[1] * 0.26)
        key = (px, self.centre_point, self.radii)
        if getattr(self, "_labels_key", None) != key:
            labels = []
            for hour in HOURS:
                x, y = self._hour_point(hour, 0.6)
                label, _ = text_surfaces(HOUR_LABELS.get(hour, str(hour)), px, (200, 230, 205))
                labels.append((label, label.get_rect(center=(int(x), int(y)))))
            self._labels_key, self._labels = key, labels
        return self._labels

    def _face_ring(self) -> pygame.Surface:
        """A faint ring for the clock face, drawn once per size."""
        cx, cy = self.centre_point
        rx, ry = self.radii
        rect = pygame.Rect(0, 0, int(rx * 1.5), int(ry * 1.5))
        rect.center = (int(cx), int(cy))
        if getattr(self, "_ring_rect", None) != rect:
            self._ring_rect = rect
            self._ring = pygame.Surface(rect.size, pygame.SRCALPHA)
            width = max(2, int(3 * self.scale))
            pygame.draw.ellipse(self._ring, (255, 255, 255, 28), self._ring.get_rect(), width)
            pygame.draw.ellipse(self._ring, (0, 0, 0, 30), self._ring.get_rect().inflate(-width * 6, -width * 6))
        return self._ring
