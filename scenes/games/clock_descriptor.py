"""Clock patience, as the app shows it: the menu's tile, the help, the scene."""
from __future__ import annotations

import math

import pygame

from game import GAMES

from ..core.ui import GOLD, INK, INK_DIM, draw_text
from ..table.pictures import EMBLEM_INK, arrow, card, emblem_frame
from .descriptor import GameDescriptor, GameHelp
from ..store.words import N_


def draw_diagram(surface: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    side = min(rect.w, rect.h)
    cw = max(12, int(side * 0.105))
    # start-up: the cards' art (and the engine's cards) load with the help, not the menu
    from ..table.card_art import CardArt, card_height_for
    art = CardArt(cw)
    ch = card_height_for(cw)
    cx, cy = rect.center
    radius = side / 2 - ch / 2 - 2
    label_px = max(10, int(cw * 0.42))
    centres = {}
    for hour in range(1, 13):
        a = math.radians(hour * 30)
        px, py = cx + radius * math.sin(a), cy - radius * math.cos(a)
        centres[hour] = (px, py)
        if hour != 7:
            card(surface, art, None, (px - cw / 2 - 2, py - ch / 2 - 2))
            card(surface, art, None, (px - cw / 2, py - ch / 2))
        lr = radius - ch * 0.78
        label = {1: "A", 11: "J", 12: "Q"}.get(hour, str(hour))
        draw_text(surface, label, label_px, (cx + lr * math.sin(a), cy - lr * math.cos(a)),
                  GOLD if hour == 7 else INK_DIM, anchor="center")
    # 7 o'clock: its pile with the 7 of hearts just arrived on top (ringed).
    px, py = centres[7]
    card(surface, art, None, (px - cw / 2 - 2, py - ch / 2 - 2))
    card(surface, art, "7H", (px - cw / 2, py - ch / 2), ring=GOLD)
    # The centre: the next card up, drawn from the bottom of the 7 o'clock pile.
    card(surface, art, None, (cx - cw / 2 - 2, cy - ch / 2 - 2))
    card(surface, art, "9C", (cx - cw / 2, cy - ch / 2))
    width = max(3, int(cw * 0.08))
    head = cw * 0.28
    ux, uy = px - cx, py - cy
    d = math.hypot(ux, uy)
    nx, ny = -uy / d * cw * 0.22, ux / d * cw * 0.22
    arrow(surface, GOLD, (cx + nx, cy + ny), (px + nx, py + ny), width, head, shorten=ch * 0.55)
    arrow(surface, INK, (px - nx, py - ny), (cx - nx, cy - ny), width, head, shorten=ch * 0.55)


def draw_emblem(surface: pygame.Surface, rect: pygame.Rect, scale: float, age: float) -> None:
    """A clock face with its twelve hours and two hands going round."""
    c, r, width = emblem_frame(rect, scale)
    pygame.draw.circle(surface, EMBLEM_INK, c, r, width)
    for hour in range(12):
        a = math.radians(hour * 30)
        pygame.draw.circle(surface, GOLD, (c[0] + int(r * 0.82 * math.sin(a)),
                                           c[1] - int(r * 0.82 * math.cos(a))), max(2, int(4 * scale)))
    t = age * 0.5
    pygame.draw.line(surface, EMBLEM_INK, c, (c[0] + int(r * 0.6 * math.sin(t)), c[1] - int(r * 0.6 * math.cos(t))), width)
    pygame.draw.line(surface, GOLD, c, (c[0] + int(r * 0.45 * math.sin(t / 12)),
                                        c[1] - int(r * 0.45 * math.cos(t / 12))), width + 1)


HELP = GameHelp(
    rules=(
        (N_("The deal"), N_("Twelve piles lie at the hours of a clock face, four cards each, "
         "face down. The last four cards make the centre pile, with its top card turned up.")),
        (N_("Every rank has an hour"), N_("An ace belongs at 1 o'clock, 2 to 10 at their own "
         "numbers, the jack at 11 and the queen at 12. Kings belong in the centre.")),
        (N_("The move"), N_("The face-up centre card goes face up on top of its hour's pile, and "
         "that pile's bottom card comes up to the centre. A king stays in the centre: the "
         "centre's own bottom card comes up instead. There is never a choice to make, so "
         "automatic play can play the whole game for you.")),
        (N_("The end"), N_("The game ends when the fourth king turns up. You score a point for "
         "every card (kings aside) lying in the pile of its own hour, face up or face "
         "down. All 48 wins.")),
    ),
    controls=(
        (N_("Play the centre card"), N_("Click it, or drag it to its hour"), N_("Enter, Space"), N_("A")),
    ),
    notes=(
        N_("Clicking or double-clicking the pile of the card's hour plays it too; a wrong "
        "pile is refused with a message."),
    ),
    caption=N_("The seven of hearts goes on top of 7 o'clock; that pile's bottom card "
            "comes up to the centre."),
    diagram=draw_diagram,
)


CLOCK = GameDescriptor(
    info=GAMES["clock"],
    scene="scenes.games.clock_scene:ClockScene",
    blurb=(N_("Twelve hours, four kings:"), N_("the automatic game")),
    emblem=draw_emblem,
    help=HELP,
    emblem_moves=True,                 # its hands go round
)
