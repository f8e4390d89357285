"""Hamilton patience, as the app shows it: the menu's tile, the help, the scene."""
from __future__ import annotations

import pygame

from game import GAMES

from ..core.ui import INK_DIM, LEGAL, draw_text
from ..table.pictures import card, fanned_cards
from .descriptor import GameDescriptor, GameHelp
from ..store.words import N_, _


def draw_diagram(surface: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    fan_x, fan_y = 0.42, 0.27
    label_px = max(10, int(20 * s))
    label_h = int(label_px * 1.6)
    # foundation fan: 1 + 3 * fan_x card widths; pile: 1 + 4 * fan_y card heights
    need_w = (1 + 3 * fan_x) + 0.6 + 1.0 + 0.3   # foundation fan, gap, pile, bracket
    cw = int(0.92 * min(rect.w / need_w, (rect.h - label_h) / ((1 + 4 * fan_y) * 1.4)))
    cw = max(12, cw)
    # start-up: the cards' art (and the engine's cards) load with the help, not the menu
    from ..table.card_art import CardArt, card_height_for
    art = CardArt(cw)
    ch = card_height_for(cw)
    found_w = int(cw * (1 + 3 * fan_x))
    gap = int(cw * 0.6)
    total = found_w + gap + cw + int(cw * 0.3)
    x0 = rect.centerx - total // 2
    top = rect.y + label_h
    pile_h = int(ch * (1 + 5 * fan_y))
    top = rect.y + label_h + max(0, (rect.h - label_h - pile_h) // 2)
    draw_text(surface, _("Foundation, start 7"), label_px, (x0 + found_w // 2, top - label_px // 2 - 4),
              INK_DIM, anchor="midbottom")
    for k, code in enumerate(["QH", "KH", "AH", "2H"]):
        card(surface, art, code, (x0 + k * cw * fan_x, top))
    draw_text(surface, _("Q  K  A  2: round the corner"), label_px,
              (x0 + found_w // 2, top + ch + label_px), INK_DIM, anchor="midtop")
    px = x0 + found_w + gap
    draw_text(surface, _("A pile"), label_px, (px + cw // 2, top - label_px // 2 - 4), INK_DIM,
              anchor="midbottom")
    pile = ["4S", "3S", "2S", "AC", "KC", "QC"]  # legal with start 7
    for k, code in enumerate(pile):
        card(surface, art, code, (px, top + k * ch * fan_y))
    # the run A-K-Q of clubs moves together: a bracket beside it
    bx = px + cw + max(4, int(cw * 0.12))
    y1, y2 = top + 3 * ch * fan_y, top + 5 * ch * fan_y + ch
    width = max(2, int(cw * 0.05))
    pygame.draw.line(surface, LEGAL, (bx, y1), (bx, y2), width)
    pygame.draw.line(surface, LEGAL, (bx - width * 2, y1), (bx, y1), width)
    pygame.draw.line(surface, LEGAL, (bx - width * 2, y2), (bx, y2), width)


HELP = GameHelp(
    rules=(
        (N_("The deal"), N_("Seven piles of one to seven cards, all face up (28 cards). The other "
         "24 wait face down in the stock; four empty foundations are on the right.")),
        (N_("Choosing the start card"), N_("Turn the stock to show a card on the chooser, and "
         "move it to a foundation to choose it: its rank becomes the start rank, and it "
         "scores a point. Turning again puts it at the bottom of the stock and shows the "
         "next one. You may see three cards; turn down the third and the game is over. "
         "Nothing else moves until a start card is chosen.")),
        (N_("Foundations"), N_("Each foundation starts with a card of the start rank and builds "
         "up in suit, going on from king to ace, until it holds 13 cards (start 7: 7 to "
         "K, then A to 6). A foundation's top card may come back into play, at the cost "
         "of a point.")),
        (N_("The piles"), N_("Build down by colour, red on red and black on black; a king may go "
         "on an ace, but nothing goes on a card of the start rank. A run in sequence, all "
         "of one suit, moves together. An empty pile takes any card or run.")),
        (N_("Dealing"), N_("Turning the stock deals a card face up onto each pile: 7, 7, 7, then "
         "the last 2 onto the first two piles. There is no redeal.")),
        (N_("Score"), N_("A point for each card on a foundation; all 52 wins. When no move can "
         "help any more the game says so and offers undo, restart or a new deal.")),
    ),
    controls=(
        (N_("Show / choose the start card"), N_("Click the stock; drag to a foundation or "
         "double-click"), N_("Enter"), N_("A")),
        (N_("Move a card or a run"), N_("Drag its lowest card, or click then click the target"),
         N_("Up over the run, Enter, Enter"), N_("Up over the run, A, A")),
        (N_("All it can to the foundations"), N_("Double-click the pile"), "", ""),
        (N_("Next legal target"), N_("Wheel"), N_("Tab"), N_("Right shoulder")),
    ),
    notes=(
        N_("Foundation cards come back into play the same ways."),
    ),
    caption=N_("Foundations build up in suit, K then A. Piles build down by colour: "
            "the K goes on the A, and A-K-Q of clubs move as one run."),
    diagram=draw_diagram,
)


HAMILTON = GameDescriptor(
    info=GAMES["hamilton"],
    scene="scenes.games.hamilton_scene:HamiltonScene",
    blurb=(N_("Choose the start card,"), N_("build by colour")),
    emblem=fanned_cards("A23"),
    help=HELP,
)
