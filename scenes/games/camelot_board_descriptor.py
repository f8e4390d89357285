"""Camelot, the board game, as the app shows it: the menu's tile, the help, the
players it is started with, its levels in the statistics, the scene."""
from __future__ import annotations

import pygame

from game import GAMES

from ..core.ui import GOLD, ILLEGAL, LEGAL, ui_scale
from ..table.pictures import EMBLEM_INK, emblem_frame
from .descriptor import GameDescriptor, GameHelp, GameOptions
from ..store.words import N_


LEVELS = GAMES["camelot-board"].levels   # the computer's levels, weakest first


def draw_diagram(surface: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    files, ranks = range(0, 5), range(2, 9)   # A–E, 2–8: a corner of White's side
    cell = int(min(rect.w / (len(files) + 0.9), rect.h / (len(ranks) + 0.4)))
    cell = max(10, cell)
    from ..table.board_art import BoardArt  # start-up: the board's art loads with the help, not the menu
    art = BoardArt(cell)
    board = art.board()
    left = 0
    right = art.square_topleft(files[-1], 5, False)[0] + cell
    top = art.square_topleft(0, ranks[-1], False)[1] - int(cell * 0.12)
    bottom = art.square_topleft(4, ranks[0], False)[1] + cell + int(cell * 0.3)
    area = pygame.Rect(left, top, right - left, bottom - top)
    origin = (rect.centerx - area.w // 2, rect.centery - area.h // 2)
    surface.blit(board, origin, area)

    def centre(sq: str) -> tuple[float, float]:
        f, r = "ABCDEFGHIJKL".index(sq[0]), int(sq[1:])
        x, y = art.square_topleft(f, r, False)
        return (origin[0] + x - area.x + cell / 2, origin[1] + y - area.y + cell / 2)

    pieces = {"B4": ("white", "man"), "C4": ("white", "man"), "D5": ("white", "man"),
              "A6": ("white", "knight"), "B7": ("black", "man"), "D8": ("black", "man"),
              "E2": ("black", "knight")}
    for sq, (color, kind) in pieces.items():
        x, y = centre(sq)
        surface.blit(art.piece(color, kind), (int(x - cell / 2), int(y - cell / 2)))
    for sq in ("B7", "D8"):
        x, y = centre(sq)
        surface.blit(art.cross(ILLEGAL), (int(x - cell / 2), int(y - cell / 2)))
    clip = surface.get_clip()
    surface.set_clip(pygame.Rect(origin, area.size).clip(clip) if clip else pygame.Rect(origin, area.size))
    for path, color in ((["B4", "D4", "D6"], LEGAL), (["A6", "C8", "E8"], ILLEGAL)):
        pts = [centre(sq) for sq in path]
        surface.blit(art.path_surface(pts, color, origin, area.size), origin)
        for k, p in enumerate(pts[1:], 1):
            badge = art.badge(k, color)
            surface.blit(badge, badge.get_rect(center=(int(p[0]), int(p[1]))))
    surface.set_clip(clip)


def draw_emblem(surface: pygame.Surface, rect: pygame.Rect, scale: float, age: float) -> None:
    """A corner of the board with a white man and a black knight."""
    c, r, width = emblem_frame(rect, scale)
    cell = r * 2 // 6
    x0, y0 = c[0] - cell * 3, c[1] - cell * 3
    for i in range(6):
        for j in range(6):
            if (i + j) % 2 == 0:
                pygame.draw.rect(surface, (60, 90, 70), (x0 + i * cell, y0 + j * cell, cell, cell))
    pygame.draw.rect(surface, EMBLEM_INK, (x0, y0, cell * 6, cell * 6), width)
    pygame.draw.circle(surface, (230, 230, 220), (x0 + int(cell * 1.5), y0 + int(cell * 4.5)), cell // 2)
    pygame.draw.circle(surface, (40, 40, 50), (x0 + int(cell * 4.5), y0 + int(cell * 1.5)), cell // 2)
    pygame.draw.circle(surface, GOLD, (x0 + int(cell * 4.5), y0 + int(cell * 1.5)), cell // 2, width)


def warm_art(size: tuple[int, int]) -> None:
    """The board and its markers at the size the scene will draw them in a
    window of ``size`` (see GameDescriptor.warm)."""
    # start-up: the board's view loads with the scene's modules, not with the menu
    from ..table.board_view import warm_board_art
    from ..table.game_scene import play_area_for
    warm_board_art(play_area_for(size), ui_scale(size))


HELP = GameHelp(
    rules=(
        (N_("The board"), N_("Twelve files by sixteen ranks with the corners cut away, and a "
         "castle of two squares at each end. Each side has 4 knights (crowned) and 10 "
         "men. White moves first.")),
        (N_("Moves"), N_("Every piece moves in the eight directions of a chess king. A plain "
         "move goes one square. A canter leaps over one of your own pieces to the empty "
         "square beyond; canters may be chained and change direction, but may not end "
         "where the move began. A jump leaps over an enemy piece and captures it; if the "
         "piece can jump again, it must. A knight may charge: canters first, then jumps.")),
        (N_("Capturing is compulsory"), N_("If any of your pieces can capture, you must "
         "capture, by a jump or a knight's charge.")),
        (N_("Castles"), N_("A piece may enter its own castle only by a jump, and must leave it "
         "on the next move. A piece that enters the enemy castle stays there for good; it "
         "may step to the castle's other square, at most twice per game for each side.")),
        (N_("Winning"), N_("Put two pieces on both squares of the enemy castle; or capture "
         "every enemy piece while keeping two of your own; or leave your opponent with no "
         "legal move.")),
        (N_("Draws"), N_("Both sides down to one piece; the same position for the third time; or "
         "50 moves each with no capture and no piece entering a castle.")),
    ),
    controls=(
        (N_("Choose a piece, then a square"), N_("Click or tap, or drag"), N_("Arrows, Enter"), N_("D-pad, A")),
        (N_("Other paths to that square"), N_("Wheel; touch: hold the square"), N_("Tab"), N_("Right shoulder")),
        (N_("Deselect"), N_("Right-click, long press"), N_("Escape"), N_("B")),
    ),
    notes=(
        N_("Hovering a green square shows the whole path, numbered step by step, with the "
        "pieces it would capture crossed out; on a touch screen the first tap on a square "
        "several paths reach shows one, a tap again plays it. New game (N) asks for the players; "
        "against the computer, Undo takes back its reply and your move."),
    ),
    caption=N_("Green: a man cantering over his own side, changing direction, "
            "B4-D4-D6. Red: a knight jumping twice and capturing two, A6xC8xE8."),
    diagram=draw_diagram,
)


CAMELOT_BOARD = GameDescriptor(
    info=GAMES["camelot-board"],
    scene="scenes.games.camelot_board_scene:CamelotBoardScene",
    blurb=(N_("Men and knights,"), N_("canters and charges")),
    emblem=draw_emblem,
    help=HELP,
    options=GameOptions({"mode": ("computer", "two"), "human": ("white", "black"), "level": LEVELS},
                        missing="the players are missing", words={"human": "side"}),
    warm=warm_art,
)
