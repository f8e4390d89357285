"""The card table: sprites for a patience's piles, laid out and animated.

A scene gives the table a :class:`Slot` per pile id (where the pile lies, how it
fans). After every change of the game state the scene calls :meth:`sync` with the
engine's ``piles()``: each card whose place or face changed flies or flips there
with an eased tween. The engine state is already final; the table only shows it,
so input during an animation never corrupts anything.

Cards that leave the table (a patience's removals) vanish at once, unless the
scene sets :attr:`CardTable.offstage`: then they fly there first (and cards that
come back, e.g. after an undo, fly in from there).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from ..core.anim import Tween, ease_in_out_cubic, ease_in_quad, ease_out_cubic
from .card_art import CardArt
from ..core.ui import merge_rects

FLIGHT = 0.32      # s for a card to fly to its pile
FLIP = 0.22        # s for a card to turn over
LEAVE = 0.5        # s for a removed card to fly off the table


@dataclass
class Slot:
    """Where a pile lies: its first card's top-left, and how the pile fans out."""

    pile: str
    origin: tuple[float, float]
    fan: tuple[float, float] = (0.0, 0.0)        # per face-up card
    fan_down: tuple[float, float] | None = None  # per face-down card (default: fan)
    max_extent: float | None = None              # compress the fan past this length
    label: str | None = None                     # faint letter on an empty pile


@dataclass
class CardSprite:
    card: object
    face_up: bool
    pos: tuple[float, float]
    pile: str = ""
    index: int = 0
    tween: Tween | None = None
    flip: Tween | None = None
    flip_from: bool = False
    started_order: int = 0   # moving cards draw in the order they took off
    dragged: bool = False
    static_rect: pygame.Rect | None = None  # where it is painted in the static layer
    leaving: bool = False    # flying off the table, gone when it arrives

    @property
    def moving(self) -> bool:
        return self.dragged or (self.tween is not None and self.tween.started)


class CardTable:
    def __init__(self, settings=None) -> None:
        self.settings = settings   # the app's Settings: its animation speed is read at each move
        self.slots: dict[str, Slot] = {}
        self.sprites: dict[object, CardSprite] = {}
        self.card_size = (100, 140)
        self._order = 0
        self._piles: dict[str, list] = {}
        self.celebrating = 0.0
        self._celebration: dict[object, tuple] = {}
        self._celebration_frame: pygame.Rect | None = None   # a dialog to go round (after a win)
        self._gone: list[pygame.Rect] = []  # static areas of cards taken away
        self._draw_cache: list[CardSprite] | None = None  # sprites in paint order
        self.offstage: tuple[float, float] | None = None  # where removed cards fly

    @property
    def speed(self) -> float:
        """The animation-speed setting as a factor (normal speed without settings)."""
        return 1.0 if self.settings is None else self.settings.speed_factor

    # --- layout -------------------------------------------------------------
    def set_layout(self, slots: list[Slot], card_size: tuple[int, int]) -> None:
        """New places for the piles (after a resize): cards jump there at once."""
        self.slots = {s.pile: s for s in slots}
        self.card_size = card_size
        for sprite in self.sprites.values():
            sprite.tween = None
        if self._piles:
            self._place_all(self._piles, instantly=True)

    def _offsets(self, slot: Slot, cards: list) -> list[tuple[float, float]]:
        """Top-left offsets of each card in a pile, compressing a long fan."""
        down = slot.fan_down if slot.fan_down is not None else slot.fan
        steps = [down if not up else slot.fan for _, up in cards[:-1]]
        length = sum(math.hypot(*s) for s in steps)
        squeeze = 1.0
        if slot.max_extent is not None and length > slot.max_extent > 0:
            squeeze = slot.max_extent / length
        out, x, y = [], 0.0, 0.0
        for i in range(len(cards)):
            out.append((x, y))
            if i < len(steps):
                x += steps[i][0] * squeeze
                y += steps[i][1] * squeeze
        return out

    def card_pos(self, pile: str, index: int, cards: list) -> tuple[float, float]:
        slot = self.slots[pile]
        dx, dy = self._offsets(slot, cards)[index]
        return (slot.origin[0] + dx, slot.origin[1] + dy)

    def slot_rect(self, pile: str) -> pygame.Rect:
        """The area a pile covers on screen (its empty place when empty)."""
        slot = self.slots[pile]
        rect = pygame.Rect(int(slot.origin[0]), int(slot.origin[1]), *self.card_size)
        cards = self._piles.get(pile, [])
        if cards:
            last = self.card_pos(pile, len(cards) - 1, cards)
            rect = rect.union(pygame.Rect(int(last[0]), int(last[1]), *self.card_size))
        return rect

    def top_rect(self, pile: str) -> pygame.Rect:
        cards = self._piles.get(pile, [])
        slot = self.slots[pile]
        pos = self.card_pos(pile, len(cards) - 1, cards) if cards else slot.origin
        return pygame.Rect(int(pos[0]), int(pos[1]), *self.card_size)

    def card_rect(self, card) -> pygame.Rect:
        sprite = self.sprites[card]
        return pygame.Rect(int(sprite.pos[0]), int(sprite.pos[1]), *self.card_size)

    def pile_centre(self, pile: str) -> tuple[int, int]:
        return self.top_rect(pile).center

    # --- following the engine ------------------------------------------------
    def _place_all(self, piles: dict[str, list], instantly: bool, order: list | None = None,
                   stagger: float = 0.0, base_delay: float = 0.0,
                   duration: float = FLIGHT) -> None:
        self._draw_cache = None
        rank = {card: i for i, card in enumerate(order or [])}
        for pile, cards in piles.items():
            slot = self.slots[pile]
            offsets = self._offsets(slot, cards)
            for index, (card, face_up) in enumerate(cards):
                target = (slot.origin[0] + offsets[index][0], slot.origin[1] + offsets[index][1])
                sprite = self.sprites.get(card)
                if sprite is None:
                    start = target if instantly or self.offstage is None else self.offstage
                    sprite = self.sprites[card] = CardSprite(card, face_up, start)
                sprite.pile, sprite.index, sprite.leaving = pile, index, False
                if instantly:
                    sprite.pos, sprite.face_up, sprite.tween, sprite.flip = target, face_up, None, None
                    continue
                delay = base_delay + (rank[card] * stagger if card in rank else 0.0)
                end = sprite.tween.end if sprite.tween else sprite.pos
                if (abs(end[0] - target[0]) > 0.5 or abs(end[1] - target[1]) > 0.5):
                    far = math.hypot(target[0] - sprite.pos[0], target[1] - sprite.pos[1])
                    arc = min(self.card_size[1] * 0.35, far * 0.12)
                    sprite.tween = Tween(sprite.pos, target, duration / self.speed,
                                         delay / self.speed, ease_in_out_cubic, arc=arc)
                    self._order += 1
                    sprite.started_order = self._order
                if face_up != sprite.face_up and sprite.flip is None:
                    sprite.flip_from = sprite.face_up
                    sprite.face_up = face_up
                    sprite.flip = Tween((0.0,), (1.0,), FLIP / self.speed,
                                        (delay + duration * 0.3) / self.speed, ease_out_cubic)
                elif face_up != sprite.face_up:
                    sprite.face_up = face_up
        present = {card for cards in piles.values() for card, _ in cards}
        for card in [c for c in self.sprites if c not in present]:
            sprite = self.sprites[card]
            if instantly or self.offstage is None:
                self._forget_sprite(self.sprites.pop(card))
            elif not sprite.leaving:
                self._send_off(sprite, base_delay + (rank[card] * stagger if card in rank else 0.0))

    def _send_off(self, sprite: CardSprite, delay: float) -> None:
        """Fly a card that left the game to ``offstage``; it is dropped on arrival."""
        sprite.leaving, sprite.pile, sprite.index = True, "", 0
        sprite.flip = None
        far = math.hypot(self.offstage[0] - sprite.pos[0], self.offstage[1] - sprite.pos[1])
        sprite.tween = Tween(sprite.pos, self.offstage, LEAVE / self.speed, delay / self.speed,
                             ease_in_quad, arc=min(self.card_size[1] * 0.6, far * 0.15))
        self._order += 1
        sprite.started_order = self._order

    def _forget_sprite(self, sprite: CardSprite) -> None:
        if sprite.static_rect is not None:
            self._gone.append(sprite.static_rect)

    def sync(self, piles: dict[str, list], order: list | None = None, stagger: float = 0.12,
             duration: float = FLIGHT) -> None:
        """Animate every card to where ``piles`` (the engine's state) says.

        Cards named in ``order`` take off one after another, ``stagger`` apart.
        """
        if self.celebrating:
            # The game moved on (an undo during a win's celebration): the
            # celebration ends and the cards fly back from where they wheel. (While
            # it lasted, update() moved no tween: the table stayed busy for ever.)
            self.celebrating = 0.0
            self._draw_cache = None
        self._piles = piles
        self._place_all(piles, instantly=False, order=order, stagger=stagger, duration=duration)

    def deal(self, piles: dict[str, list], order: list, source: tuple[float, float],
             stagger: float = 0.035, duration: float = 0.38) -> None:
        """Start with every card face down at ``source`` and fly them out in
        ``order`` (the deal)."""
        for sprite in self.sprites.values():
            self._forget_sprite(sprite)
        self.sprites = {}
        self.celebrating = 0.0
        self._piles = piles
        for cards in piles.values():
            for card, _ in cards:
                self.sprites[card] = CardSprite(card, False, source)
        self._place_all(piles, instantly=False, order=order, stagger=stagger, duration=duration)

    def show_instantly(self, piles: dict[str, list]) -> None:
        self._piles = piles
        self.celebrating = 0.0
        self._place_all(piles, instantly=True)

    @property
    def busy(self) -> bool:
        return any(s.tween or s.flip for s in self.sprites.values())

    def finish(self) -> None:
        """Complete every animation now (input arriving mid-animation)."""
        self._draw_cache = None
        for sprite in self.sprites.values():
            if sprite.tween:
                sprite.pos = sprite.tween.end
                sprite.tween = None
            sprite.flip = None
        self._drop_left()

    def _drop_left(self) -> None:
        """Forget the cards that finished flying off the table."""
        for card in [c for c, s in self.sprites.items() if s.leaving and s.tween is None]:
            self._draw_cache = None
            self._forget_sprite(self.sprites.pop(card))

    # --- drag ---------------------------------------------------------------
    def lift(self, cards: list) -> None:
        self._draw_cache = None
        for card in cards:
            sprite = self.sprites[card]
            sprite.tween, sprite.dragged = None, True
            self._order += 1
            sprite.started_order = self._order

    def drag_to(self, cards: list, top_left: tuple[float, float]) -> None:
        """Move dragged ``cards`` so the first one's top-left is at ``top_left``."""
        first = self.sprites[cards[0]].pos
        dx, dy = top_left[0] - first[0], top_left[1] - first[1]
        for card in cards:
            sprite = self.sprites[card]
            sprite.pos = (sprite.pos[0] + dx, sprite.pos[1] + dy)

    def drop(self, cards: list) -> None:
        """Release dragged cards; the next ``sync`` sends them where they belong."""
        self._draw_cache = None
        for card in cards:
            self.sprites[card].dragged = False
        self._place_all(self._piles, instantly=False, duration=FLIGHT * 0.7)

    # --- hit testing --------------------------------------------------------
    def card_at(self, pos) -> CardSprite | None:
        """The topmost card under ``pos``."""
        best = None
        for sprite in self._draw_order():
            if sprite.leaving:
                continue
            if pygame.Rect(int(sprite.pos[0]), int(sprite.pos[1]), *self.card_size).collidepoint(pos):
                best = sprite
        return best

    def hit(self, pos) -> tuple[str, int | None] | None:
        """Where the cards will be (not where a flying one is now): the pile and
        the index of the topmost card under ``pos``; index None for an empty
        pile's place; None for bare table."""
        w, h = self.card_size
        for pile in reversed(list(self.slots)):
            cards = self._piles.get(pile, [])
            if not cards:
                if self.slot_rect(pile).collidepoint(pos):
                    return (pile, None)
                continue
            offsets = self._offsets(self.slots[pile], cards)
            ox, oy = self.slots[pile].origin
            for index in range(len(cards) - 1, -1, -1):
                dx, dy = offsets[index]
                if pygame.Rect(int(ox + dx), int(oy + dy), w, h).collidepoint(pos):
                    return (pile, index)
        return None

    def cards_rect(self, pile: str, first: int) -> pygame.Rect:
        """The area of a pile's cards from index ``first`` to the top, where they rest."""
        cards = self._piles.get(pile, [])
        if not cards:
            return self.top_rect(pile)
        a = self.card_pos(pile, max(0, min(first, len(cards) - 1)), cards)
        b = self.card_pos(pile, len(cards) - 1, cards)
        return pygame.Rect(int(a[0]), int(a[1]), *self.card_size).union(
            pygame.Rect(int(b[0]), int(b[1]), *self.card_size))

    def pile_cards(self, pile: str) -> list:
        """The pile as the table last saw it (card, face_up), bottom first."""
        return self._piles.get(pile, [])

    def pile_at(self, pos, grow: float = 0.0) -> str | None:
        """The pile whose area (grown by ``grow`` × card width) holds ``pos``."""
        pad = int(self.card_size[0] * grow)
        for pile in self.slots:
            if self.slot_rect(pile).inflate(pad, pad).collidepoint(pos):
                return pile
        return None

    def nearest_pile(self, rect: pygame.Rect, piles: list[str]) -> str | None:
        """Of ``piles``, the one overlapping ``rect`` (a dragged card) the most."""
        best, best_area = None, 0
        for pile in piles:
            clip = self.top_rect(pile).clip(rect)
            area = clip.w * clip.h
            if area > best_area:
                best, best_area = pile, area
        return best

    # --- celebration --------------------------------------------------------
    def celebrate(self, centre: tuple[float, float], radius: float,
                  squash: float = 0.72) -> None:
        """Cards leave their piles and wheel round the table (a win): an
        ellipse ``radius`` wide each way and ``radius * squash`` high."""
        self._celebration_squash = squash
        self._draw_cache = None
        self.celebrating = 1e-6
        n = len(self.sprites)
        for i, (card, sprite) in enumerate(sorted(self.sprites.items(), key=lambda kv: kv[1].started_order)):
            sprite.tween = None
            sprite.flip = None
            sprite.face_up = True
            self._celebration[card] = (sprite.pos, 2 * math.pi * i / max(1, n), i * 0.02)
        self._celebration_centre = centre
        self._celebration_radius = radius
        self._celebration_frame = None

    def celebrate_round(self, keep_out: pygame.Rect) -> None:
        """The wheel moves out of ``keep_out`` (the "You won!" dialog): from
        where they are, the cards run round a frame just outside it, so none
        is ever under the dialog."""
        if not self.celebrating:
            return
        cw, ch = self.card_size
        margin = max(4, cw // 12)
        self._celebration_frame = pygame.Rect(keep_out).inflate(cw + 2 * margin, ch + 2 * margin)
        self._draw_cache = None
        self.celebrating = 1e-6
        for card, (start, phase, delay) in self._celebration.items():
            self._celebration[card] = (self.sprites[card].pos, phase, 0.0)

    def _frame_point(self, u: float) -> tuple[float, float]:
        """The point a fraction ``u`` of the way round the frame (clockwise from its top left)."""
        f = self._celebration_frame
        d = (u % 1.0) * 2 * (f.w + f.h)
        for (x0, y0), (dx, dy), length in (((f.left, f.top), (1, 0), f.w),
                                           ((f.right, f.top), (0, 1), f.h),
                                           ((f.right, f.bottom), (-1, 0), f.w),
                                           ((f.left, f.bottom), (0, -1), f.h)):
            if d <= length:
                return (x0 + dx * d, y0 + dy * d)
            d -= length
        return (f.left, f.top)

    def _celebration_pos(self, card) -> tuple[float, float]:
        start, phase, delay = self._celebration[card]
        t = max(0.0, self.celebrating - delay)
        if self._celebration_frame is not None:
            x, y = self._frame_point(phase / (2 * math.pi) + t * 0.04)
            goal = (x - self.card_size[0] / 2, y - self.card_size[1] / 2)
            k = ease_in_out_cubic(min(1.0, t / 0.8))
            return (start[0] + (goal[0] - start[0]) * k, start[1] + (goal[1] - start[1]) * k)
        ring = 1.0 + 0.12 * math.sin(t * 2.2 + phase * 3)
        angle = phase + t * 0.6
        cx, cy = self._celebration_centre
        r = self._celebration_radius * ring
        goal = (cx + r * math.cos(angle) - self.card_size[0] / 2,
                cy + r * math.sin(angle) * self._celebration_squash - self.card_size[1] / 2)
        k = ease_in_out_cubic(min(1.0, t / 1.2))
        return (start[0] + (goal[0] - start[0]) * k, start[1] + (goal[1] - start[1]) * k)

    # --- time and drawing ---------------------------------------------------
    def update(self, dt: float) -> None:
        self._draw_cache = None
        if self.celebrating:
            self.celebrating += dt
            for card, sprite in self.sprites.items():
                sprite.pos = self._celebration_pos(card)
            return
        for sprite in self.sprites.values():
            if sprite.tween:
                sprite.tween.advance(dt)
                sprite.pos = sprite.tween.value()
                if sprite.tween.done:
                    sprite.pos = sprite.tween.end
                    sprite.tween = None
            if sprite.flip:
                sprite.flip.advance(dt)
                if sprite.flip.done:
                    sprite.flip = None
        self._drop_left()

    def _animated(self, sprite: CardSprite) -> bool:
        """Drawn on the screen every frame (not kept in the static layer)."""
        tween = sprite.tween
        flip = sprite.flip
        return (sprite.dragged or (flip is not None and flip.started) or bool(self.celebrating)
                or (tween is not None and tween.elapsed >= tween.delay))

    def _draw_order(self) -> list[CardSprite]:
        if self._draw_cache is not None:
            return self._draw_cache
        pile_rank = {pile: i for i, pile in enumerate(self.slots)}
        resting = [s for s in self.sprites.values() if not s.moving]
        moving = [s for s in self.sprites.values() if s.moving]
        resting.sort(key=lambda s: (pile_rank.get(s.pile, 0), s.index))
        moving.sort(key=lambda s: (s.dragged, s.started_order))
        self._draw_cache = resting + moving
        return self._draw_cache

    def _lift(self) -> int:
        return max(2, self.card_size[0] // 30)

    def sprite_rect(self, sprite: CardSprite) -> pygame.Rect:
        """Everything a card paints, its shadow included."""
        lift = self._lift()
        rect = pygame.Rect(int(sprite.pos[0]), int(sprite.pos[1]), *self.card_size)
        return rect.inflate(lift * 6, lift * 6)

    def busy_areas(self) -> list[pygame.Rect]:
        """Where cards are and will be: each card where it is (a deal's stock),
        then each pile's place (GameScene.busy_areas)."""
        w, h = self.card_size
        return ([self.sprite_rect(sprite) for sprite in self.sprites.values()]
                + [pygame.Rect(int(slot.origin[0]), int(slot.origin[1]), w, h) for slot in self.slots.values()])

    def draw_placeholders(self, surface: pygame.Surface, art: CardArt) -> None:
        """The empty piles' places that meet the surface's clip (an area
        repainted under a moving card meets one or two)."""
        clip = surface.get_clip()
        w, h = self.card_size
        for slot in self.slots.values():
            x, y = int(slot.origin[0]), int(slot.origin[1])
            if clip.colliderect((x, y, w, h)):
                art.draw_placeholder(surface, (x, y), slot.label)

    # The table draws in two layers (see GameScene): cards at rest are kept in a
    # static picture that changes only where a card leaves or lands; cards in the
    # air are drawn on the screen each frame. This keeps a frame to a few small
    # blits instead of repainting the whole screen.
    def static_changes(self) -> list[pygame.Rect]:
        """Areas of the static layer that must be repainted since last asked."""
        dirty, self._gone = self._gone, []
        for sprite in self.sprites.values():
            if self._animated(sprite):
                if sprite.static_rect is not None:
                    dirty.append(sprite.static_rect)
                    sprite.static_rect = None
                continue
            rect = self.sprite_rect(sprite)
            if sprite.static_rect != rect:
                if sprite.static_rect is not None:
                    dirty.append(sprite.static_rect)
                dirty.append(rect)
                sprite.static_rect = rect
        return merge_rects(dirty) if len(dirty) > 1 else dirty

    def forget_static(self) -> None:
        """The static layer was painted whole: everything at rest is in it."""
        self._gone = []
        for sprite in self.sprites.values():
            sprite.static_rect = None if self._animated(sprite) else self.sprite_rect(sprite)

    def draw_static(self, surface: pygame.Surface, art: CardArt, clip: pygame.Rect | None = None) -> None:
        """Cards at rest (into the static layer), only those touching ``clip``.
        A card with a card above it in exactly its place shows nothing of its
        own (a deal's stock: 52 cards in two places), so only its shadow is
        drawn: at 4K a card is some 0.2 ms of blit."""
        order = [s for s in self._draw_order() if not self._animated(s)]
        covered = set()
        above: set[tuple[int, int]] = set()
        for sprite in reversed(order):
            place = (int(sprite.pos[0]), int(sprite.pos[1]))
            if place in above:
                covered.add(id(sprite))
            above.add(place)
        for sprite in order:
            if clip is not None and not clip.colliderect(sprite.static_rect or self.sprite_rect(sprite)):
                continue
            self._draw_sprite(surface, art, sprite, id(sprite) in covered)

    def draw_animated(self, surface: pygame.Surface, art: CardArt) -> list[pygame.Rect]:
        """Cards in the air (onto the screen); returns the areas painted."""
        rects = []
        for sprite in self._draw_order():
            if self._animated(sprite):
                self._draw_sprite(surface, art, sprite)
                rects.append(self.sprite_rect(sprite))
        return rects

    def draw(self, surface: pygame.Surface, art: CardArt) -> None:
        """Everything at once (used where layers don't matter)."""
        self.draw_static(surface, art)
        self.draw_animated(surface, art)

    def _draw_sprite(self, surface: pygame.Surface, art: CardArt, sprite: CardSprite,
                     covered: bool = False) -> None:
        w, h = self.card_size
        lift = self._lift()
        x, y = int(sprite.pos[0]), int(sprite.pos[1])
        flying = sprite.moving or bool(self.celebrating)
        flipping = sprite.flip is not None and sprite.flip.started
        # Shadows only where they show: the bottom card of a pile and anything
        # in the air (not in a celebration: 52 shadows a frame would double it).
        if (flying or sprite.index == 0) and not flipping and not self.celebrating:
            off = lift * (3 if flying else 1)
            surface.blit(art.shadow(), (x + off - lift, y + off))
        if covered:
            return
        if sprite.flip is not None and not flipping:   # the turn is still to come
            surface.blit(art.face(sprite.card) if sprite.flip_from else art.back(), (x, y))
        elif flipping:
            t = sprite.flip.progress
            face = sprite.flip_from if t < 0.5 else sprite.face_up
            image = art.face(sprite.card) if face else art.back()
            squeeze = max(1, int(w * abs(1 - 2 * t)))
            surface.blit(pygame.transform.scale(image, (squeeze, h)), (x + (w - squeeze) // 2, y))
        else:
            surface.blit(art.face(sprite.card) if sprite.face_up else art.back(), (x, y))
