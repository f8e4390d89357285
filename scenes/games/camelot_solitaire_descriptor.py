"""Camelot patience, as the app shows it: the menu's tile, the help, the scene."""
from __future__ import annotations

import pygame

from game import GAMES

from ..core.ui import GOLD, LEGAL
from ..table.pictures import card, fanned_cards
from .descriptor import GameDescriptor, GameHelp
from ..store.words import N_


def draw_diagram(surface: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    gap_f = 0.14
    cw = int(min(rect.w / (4 + 3 * gap_f), rect.h / ((4 + 3 * gap_f) * 1.4)))
    cw = max(12, cw)
    # start-up: the cards' art (and the engine's cards) load with the help, not the menu
    from ..table.card_art import CardArt, card_height_for
    art = CardArt(cw)
    ch = card_height_for(cw)
    gap = int(cw * gap_f)
    total_w, total_h = 4 * cw + 3 * gap, 4 * ch + 3 * gap
    x0, y0 = rect.centerx - total_w // 2, rect.centery - total_h // 2
    kinds = {(0, 0): "K", (3, 0): "K", (0, 3): "K", (3, 3): "K",
             (1, 0): "Q", (2, 0): "Q", (1, 3): "Q", (2, 3): "Q",
             (0, 1): "J", (0, 2): "J", (3, 1): "J", (3, 2): "J"}
    cards = {(0, 0): ("KH", None), (1, 0): ("QS", None), (0, 2): ("JD", None),
             (1, 1): ("3C", LEGAL), (2, 2): ("7D", LEGAL), (2, 1): ("10S", GOLD),
             (3, 3): ("5H", None)}
    for row in range(4):
        for col in range(4):
            pos = (x0 + col * (cw + gap), y0 + row * (ch + gap))
            if (col, row) in cards:
                code, ring = cards[(col, row)]
                card(surface, art, code, pos, ring)
            else:
                surface.blit(art.placeholder(kinds.get((col, row))), pos)


HELP = GameHelp(
    rules=(
        (N_("The table"), N_("A grid of four by four cells, each holding one card, a stock of "
         "all 52 cards face down, and a waste that holds one card.")),
        (N_("Pictures have places"), N_("Kings go only in the corners, queens only in the middle "
         "of the top and bottom rows, jacks only in the middle of the left and right "
         "columns. Number cards (ace to 10) may go in any empty cell, border cells too.")),
        (N_("Filling"), N_("Turn the stock to show a card, then place it in an empty cell it is "
         "allowed in before doing anything else. The stock can be turned while any cell "
         "is empty.")),
        (N_("Removing"), N_("When the grid is full, or the stock and waste are used up, take "
         "cards away: a 10 on its own, or two number cards that add up to 10 (A+9, 2+8, "
         "3+7, 4+6, 5+5; suits do not matter). Pictures never leave. Turning the stock "
         "again goes back to filling: nothing more can be removed until the grid is "
         "full again.")),
        (N_("Winning and losing"), N_("You win when the stock and waste are empty and only the "
         "twelve pictures remain, each in a border cell. You lose when a picture has no "
         "empty cell of its kind, or when no 10 and no pair making 10 is left to remove "
         "and no more can be dealt. A point for every card removed, 40 at most.")),
    ),
    controls=(
        (N_("Turn the stock"), N_("Click the stock"), N_("Enter on the stock"), N_("A on the stock")),
        (N_("Place the waste card"), N_("Drag it, or click a cell"), N_("Enter on a cell"), N_("A on a cell")),
        (N_("Remove a 10 / a pair"), N_("Click the 10; drag one card onto the other"),
         N_("Enter on each"), N_("A on each")),
        (N_("Next legal target"), N_("Wheel"), N_("Tab"), N_("Right shoulder")),
    ),
    notes=(
        N_("Double-click the waste card to let the computer place it. Empty picture cells "
        "show a faint K, Q or J."),
    ),
    caption=N_("K, Q and J cells take their picture or any number card. 3 + 7 make 10 "
            "and go together; a 10 goes alone."),
    diagram=draw_diagram,
)


CAMELOT_SOLITAIRE = GameDescriptor(
    info=GAMES["camelot-solitaire"],
    scene="scenes.games.camelot_solitaire_scene:CamelotSolitaireScene",
    blurb=(N_("Pictures to their places,"), N_("tens and pairs away")),
    emblem=fanned_cards("KQJ"),
    help=HELP,
)
