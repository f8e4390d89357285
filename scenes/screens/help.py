"""A help screen per game: the rules in our own words, a small diagram drawn
with the real card / board art, and the controls for mouse, keyboard and gamepad.

Two pages, "Rules" and "Controls". LEFT/RIGHT (or Tab, the right shoulder, a
click on a tab) change page; UP/DOWN and the mouse wheel scroll a page that does
not fit, and go on to the next (previous) page at its end (start). SELECT goes
to the next page, or back from the last one; BACK (Escape, gamepad B) or the
"Back" button closes the help.

    app.scenes.push(HelpScene(app, "clock"))

The words live in :data:`HELP_TEXT` (data, so tests can read them).
"""
from __future__ import annotations

import math

import pygame

from ..core.actions import Action, InputEvent
from ..core.overlays import FocusButtons
from ..core.scene import Scene
from ..core.ui import (BUTTON, FOCUS, GOLD, INK, INK_DIM, LEGAL, ILLEGAL, Button, FONTS, draw_text,
                 felt, rounded_panel, ui_scale, wrap_text)

# --------------------------------------------------------------------------- the words

COMMON_CONTROLS = [
    # action, mouse, keyboard, gamepad
    ("Move the focus", "Hover", "Arrows", "D-pad, left stick"),
    ("Select / play", "Click, or drag and drop", "Enter, Space", "A"),
    ("Back, pause menu", "Toolbar \"Menu\"", "Escape", "B, Start"),
    ("Hint", "Toolbar \"Hint\"", "H", "X"),
    ("Undo", "Toolbar \"Undo\"", "Ctrl+Z, U", "Y"),
    ("Redo", "Toolbar \"Redo\"", "Ctrl+Y, Ctrl+Shift+Z", "Left shoulder"),
    ("Automatic play", "Toolbar \"Auto\"", "A", "Back"),
    ("New deal / restart", "Toolbar", "N / R", "Pause menu"),
    ("Full screen", "", "F11, Alt+Enter", ""),
]

HELP_TEXT: dict[str, dict] = {
    "clock": {
        "title": "Clock",
        "rules": [
            ("The deal", "Twelve piles lie at the hours of a clock face, four cards each, "
             "face down. The last four cards make the centre pile, with its top card turned up."),
            ("Every rank has an hour", "An ace belongs at 1 o'clock, 2 to 10 at their own "
             "numbers, the jack at 11 and the queen at 12. Kings belong in the centre."),
            ("The move", "The face-up centre card goes face up on top of its hour's pile, and "
             "that pile's bottom card comes up to the centre. A king stays in the centre: the "
             "centre's own bottom card comes up instead. There is never a choice to make, so "
             "automatic play can play the whole game for you."),
            ("The end", "The game ends when the fourth king turns up. You score a point for "
             "every card (kings aside) lying in the pile of its own hour, face up or face "
             "down. All 48 wins."),
        ],
        "controls": [
            ("Play the centre card", "Click it, or drag it to its hour", "Enter, Space", "A"),
        ],
        "notes": [
            "Clicking or double-clicking the pile of the card's hour plays it too; a wrong "
            "pile is refused with a message.",
        ],
        "caption": "The 7 of hearts goes on top of 7 o'clock; that pile's bottom card "
                   "comes up to the centre.",
    },
    "camelot-solitaire": {
        "title": "Camelot (patience)",
        "rules": [
            ("The table", "A grid of four by four cells, each holding one card, a stock of "
             "all 52 cards face down, and a waste that holds one card."),
            ("Pictures have places", "Kings go only in the corners, queens only in the middle "
             "of the top and bottom rows, jacks only in the middle of the left and right "
             "columns. Number cards (ace to 10) may go in any empty cell, border cells too."),
            ("Filling", "Turn the stock to show a card, then place it in an empty cell it is "
             "allowed in before doing anything else. The stock can be turned while any cell "
             "is empty."),
            ("Removing", "When the grid is full, or the stock and waste are used up, take "
             "cards away: a 10 on its own, or two number cards that add up to 10 (A+9, 2+8, "
             "3+7, 4+6, 5+5; suits do not matter). Pictures never leave. Turning the stock "
             "again goes back to filling: nothing more can be removed until the grid is "
             "full again."),
            ("Winning and losing", "You win when the stock and waste are empty and only the "
             "twelve pictures remain, each in a border cell. You lose when a picture has no "
             "empty cell of its kind, or when no 10 and no pair making 10 is left to remove "
             "and no more can be dealt. A point for every card removed, 40 at most."),
        ],
        "controls": [
            ("Turn the stock", "Click the stock", "Enter on the stock", "A on the stock"),
            ("Place the waste card", "Drag it, or click a cell", "Enter on a cell", "A on a cell"),
            ("Remove a 10 / a pair", "Click the 10; drag one card onto the other",
             "Enter on each", "A on each"),
            ("Next legal target", "Wheel", "Tab", "Right shoulder"),
        ],
        "notes": [
            "Double-click the waste card to let the computer place it. Empty picture cells "
            "show a faint K, Q or J.",
        ],
        "caption": "K, Q and J cells take their picture or any number card. 3 + 7 make 10 "
                   "and go together; a 10 goes alone.",
    },
    "hamilton": {
        "title": "Hamilton",
        "rules": [
            ("The deal", "Seven piles of one to seven cards, all face up (28 cards). The other "
             "24 wait face down in the stock; four empty foundations are on the right."),
            ("Choosing the start card", "Turn the stock to show a card on the chooser, and "
             "move it to a foundation to choose it: its rank becomes the start rank, and it "
             "scores a point. Turning again puts it at the bottom of the stock and shows the "
             "next one. You may see three cards; turn down the third and the game is over. "
             "Nothing else moves until a start card is chosen."),
            ("Foundations", "Each foundation starts with a card of the start rank and builds "
             "up in suit, going on from king to ace, until it holds 13 cards (start 7: 7 to "
             "K, then A to 6). A foundation's top card may come back into play, at the cost "
             "of a point."),
            ("The piles", "Build down by colour, red on red and black on black; a king may go "
             "on an ace, but nothing goes on a card of the start rank. A run in sequence, all "
             "of one suit, moves together. An empty pile takes any card or run."),
            ("Dealing", "Turning the stock deals a card face up onto each pile: 7, 7, 7, then "
             "the last 2 onto the first two piles. There is no redeal."),
            ("Score", "A point for each card on a foundation; all 52 wins. When no move can "
             "help any more the game says so and offers undo, restart or a new deal."),
        ],
        "controls": [
            ("Show / choose the start card", "Click the stock; drag to a foundation or "
             "double-click", "Enter", "A"),
            ("Move a card or a run", "Drag its lowest card, or click then click the target",
             "Up over the run, Enter, Enter", "Up over the run, A, A"),
            ("All it can to the foundations", "Double-click the pile", "", ""),
            ("Next legal target", "Wheel", "Tab", "Right shoulder"),
        ],
        "notes": [
            "Foundation cards come back into play the same ways.",
        ],
        "caption": "Foundations build up in suit, K then A. Piles build down by colour: "
                   "the K goes on the A, and A-K-Q of clubs move as one run.",
    },
    "camelot-board": {
        "title": "Camelot (board game)",
        "rules": [
            ("The board", "Twelve files by sixteen ranks with the corners cut away, and a "
             "castle of two squares at each end. Each side has 4 knights (crowned) and 10 "
             "men. White moves first."),
            ("Moves", "Every piece moves in the eight directions of a chess king. A plain "
             "move goes one square. A canter leaps over one of your own pieces to the empty "
             "square beyond; canters may be chained and change direction, but may not end "
             "where the move began. A jump leaps over an enemy piece and captures it; if the "
             "piece can jump again, it must. A knight may charge: canters first, then jumps."),
            ("Capturing is compulsory", "If any of your pieces can capture, you must "
             "capture, by a jump or a knight's charge."),
            ("Castles", "A piece may enter its own castle only by a jump, and must leave it "
             "on the next move. A piece that enters the enemy castle stays there for good; it "
             "may step to the castle's other square, at most twice per game for each side."),
            ("Winning", "Put two pieces on both squares of the enemy castle; or capture "
             "every enemy piece while keeping two of your own; or leave your opponent with no "
             "legal move."),
            ("Draws", "Both sides down to one piece; the same position for the third time; or "
             "50 moves each with no capture and no piece entering a castle."),
        ],
        "controls": [
            ("Choose a piece, then a square", "Click, or drag", "Arrows, Enter", "D-pad, A"),
            ("Other paths to that square", "Wheel", "Tab", "Right shoulder"),
            ("Deselect", "Right-click", "Escape", "B"),
        ],
        "notes": [
            "Hovering a green square shows the whole path, numbered step by step, with the "
            "pieces it would capture crossed out. New game (N) asks for the players; "
            "against the computer, Undo takes back its reply and your move.",
        ],
        "caption": "Green: a man cantering over his own side, changing direction, "
                   "B4-D4-D6. Red: a knight jumping twice and capturing two, A6xC8xE8.",
    },
}

HELP_FOOTER = "Left / right: page · Up / down or wheel: scroll · Escape or B: back"
PAGES = ("Rules", "Controls")


def help_text(game_id: str) -> dict:
    return HELP_TEXT[game_id]


def controls_for(game_id: str) -> list[tuple[str, str, str, str]]:
    rows = list(COMMON_CONTROLS)
    if game_id == "camelot-board":
        rows = [r if r[0] != "New deal / restart" else ("New game / restart", "Toolbar", "N / R",
                                                        "Pause menu") for r in rows]
    return rows + list(HELP_TEXT[game_id]["controls"])


# --------------------------------------------------------------------------- diagrams

def _arrow(surface: pygame.Surface, color, a, b, width: int, head: float,
           shorten: float = 0.0) -> None:
    ax, ay = a
    bx, by = b
    d = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / d, (by - ay) / d
    ax, ay = ax + ux * shorten, ay + uy * shorten
    bx, by = bx - ux * shorten, by - uy * shorten
    base = (bx - ux * head, by - uy * head)
    dark = (20, 20, 16)
    for col, extra in ((dark, max(2, width // 2)), (color, 0)):
        pygame.draw.line(surface, col, (ax, ay), base, width + extra)
        pygame.draw.circle(surface, col, (ax, ay), (width + extra) / 2)
        half = head * 0.6 + extra * 0.6
        tip = (bx + ux * extra * 0.7, by + uy * extra * 0.7)
        pts = [tip, (base[0] - uy * half - ux * extra * 0.5, base[1] + ux * half - uy * extra * 0.5),
               (base[0] + uy * half - ux * extra * 0.5, base[1] - ux * half - uy * extra * 0.5)]
        pygame.draw.polygon(surface, col, pts)


def _card(surface, art, code: str | None, pos, ring=None) -> pygame.Rect:
    """A card (``None``: its back) with its shadow at ``pos`` (top-left)."""
    x, y = int(pos[0]), int(pos[1])
    dx, dy = art.shadow_offset
    surface.blit(art.shadow(), (x + dx, y + dy))
    surface.blit(art.back() if code is None else art.face(code), (x, y))
    if ring is not None:
        ox, oy = art.outline_offset()
        surface.blit(art.outline(ring), (x + ox, y + oy))
    return pygame.Rect(x, y, *art.size)


def draw_clock_diagram(surface: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    from ..table.card_art import CardArt, card_height_for
    side = min(rect.w, rect.h)
    cw = max(12, int(side * 0.105))
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
            _card(surface, art, None, (px - cw / 2 - 2, py - ch / 2 - 2))
            _card(surface, art, None, (px - cw / 2, py - ch / 2))
        lr = radius - ch * 0.78
        label = {1: "A", 11: "J", 12: "Q"}.get(hour, str(hour))
        draw_text(surface, label, label_px, (cx + lr * math.sin(a), cy - lr * math.cos(a)),
                  GOLD if hour == 7 else INK_DIM, anchor="center")
    # 7 o'clock: its pile with the 7 of hearts just arrived on top (ringed).
    px, py = centres[7]
    _card(surface, art, None, (px - cw / 2 - 2, py - ch / 2 - 2))
    _card(surface, art, "7H", (px - cw / 2, py - ch / 2), ring=GOLD)
    # The centre: the next card up, drawn from the bottom of the 7 o'clock pile.
    _card(surface, art, None, (cx - cw / 2 - 2, cy - ch / 2 - 2))
    _card(surface, art, "9C", (cx - cw / 2, cy - ch / 2))
    width = max(3, int(cw * 0.08))
    head = cw * 0.28
    ux, uy = px - cx, py - cy
    d = math.hypot(ux, uy)
    nx, ny = -uy / d * cw * 0.22, ux / d * cw * 0.22
    _arrow(surface, GOLD, (cx + nx, cy + ny), (px + nx, py + ny), width, head, shorten=ch * 0.55)
    _arrow(surface, INK, (px - nx, py - ny), (cx - nx, cy - ny), width, head, shorten=ch * 0.55)


def draw_camelot_solitaire_diagram(surface: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    from ..table.card_art import CardArt, card_height_for
    gap_f = 0.14
    cw = int(min(rect.w / (4 + 3 * gap_f), rect.h / ((4 + 3 * gap_f) * 1.4)))
    cw = max(12, cw)
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
                _card(surface, art, code, pos, ring)
            else:
                surface.blit(art.placeholder(kinds.get((col, row))), pos)


def draw_hamilton_diagram(surface: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    from ..table.card_art import CardArt, card_height_for
    fan_x, fan_y = 0.42, 0.27
    label_px = max(10, int(20 * s))
    label_h = int(label_px * 1.6)
    # foundation fan: 1 + 3 * fan_x card widths; pile: 1 + 4 * fan_y card heights
    need_w = (1 + 3 * fan_x) + 0.6 + 1.0 + 0.3   # foundation fan, gap, pile, bracket
    cw = int(0.92 * min(rect.w / need_w, (rect.h - label_h) / ((1 + 4 * fan_y) * 1.4)))
    cw = max(12, cw)
    art = CardArt(cw)
    ch = card_height_for(cw)
    found_w = int(cw * (1 + 3 * fan_x))
    gap = int(cw * 0.6)
    total = found_w + gap + cw + int(cw * 0.3)
    x0 = rect.centerx - total // 2
    top = rect.y + label_h
    pile_h = int(ch * (1 + 5 * fan_y))
    top = rect.y + label_h + max(0, (rect.h - label_h - pile_h) // 2)
    draw_text(surface, "Foundation, start 7", label_px, (x0 + found_w // 2, top - label_px // 2 - 4),
              INK_DIM, anchor="midbottom")
    for k, code in enumerate(["QH", "KH", "AH", "2H"]):
        _card(surface, art, code, (x0 + k * cw * fan_x, top))
    draw_text(surface, "Q  K  A  2: round the corner", label_px,
              (x0 + found_w // 2, top + ch + label_px), INK_DIM, anchor="midtop")
    px = x0 + found_w + gap
    draw_text(surface, "A pile", label_px, (px + cw // 2, top - label_px // 2 - 4), INK_DIM,
              anchor="midbottom")
    pile = ["4S", "3S", "2S", "AC", "KC", "QC"]  # legal with start 7
    for k, code in enumerate(pile):
        _card(surface, art, code, (px, top + k * ch * fan_y))
    # the run A-K-Q of clubs moves together: a bracket beside it
    bx = px + cw + max(4, int(cw * 0.12))
    y1, y2 = top + 3 * ch * fan_y, top + 5 * ch * fan_y + ch
    width = max(2, int(cw * 0.05))
    pygame.draw.line(surface, LEGAL, (bx, y1), (bx, y2), width)
    pygame.draw.line(surface, LEGAL, (bx - width * 2, y1), (bx, y1), width)
    pygame.draw.line(surface, LEGAL, (bx - width * 2, y2), (bx, y2), width)


def draw_board_diagram(surface: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    from ..table.board_art import BoardArt
    files, ranks = range(0, 5), range(2, 9)   # A–E, 2–8: a corner of White's side
    cell = int(min(rect.w / (len(files) + 0.9), rect.h / (len(ranks) + 0.4)))
    cell = max(10, cell)
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


DIAGRAMS = {
    "clock": draw_clock_diagram,
    "camelot-solitaire": draw_camelot_solitaire_diagram,
    "hamilton": draw_hamilton_diagram,
    "camelot-board": draw_board_diagram,
}


# --------------------------------------------------------------------------- the scene

class HelpScene(Scene):
    """The rules and controls of one game; opaque, over the felt."""

    def __init__(self, app, game_id: str) -> None:
        super().__init__(app)
        if game_id not in HELP_TEXT:
            raise ValueError(f"no help for {game_id!r}")
        self.game_id = game_id
        self.text = HELP_TEXT[game_id]
        self.page = 0
        self.scroll = 0
        self.tabs = [Button(name, self._goto(k)) for k, name in enumerate(PAGES)]
        self.back_button = Button("Back", self.back)
        self.focus = FocusButtons([self.back_button])
        self._pressed_tab: Button | None = None

    # --- navigation -------------------------------------------------------------------
    def _goto(self, page: int):
        return lambda: self.set_page(page)

    def set_page(self, page: int, at_end: bool = False) -> None:
        self.page = page % len(PAGES)
        self.scroll = self.max_scroll if at_end else 0

    def back(self) -> None:
        if self.app.scenes.top is self:
            self.app.scenes.pop()

    @property
    def max_scroll(self) -> int:
        return max(0, self.content_h[self.page] - self.view.h)

    def scroll_by(self, steps: int) -> None:
        """Scroll a page; past its end (start) go on to the next (previous) page."""
        before = self.scroll
        self.scroll = max(0, min(self.max_scroll, self.scroll + steps * self.scroll_step))
        if self.scroll == before:
            if steps > 0 and self.page < len(PAGES) - 1:
                self.set_page(self.page + 1)
            elif steps < 0 and self.page > 0:
                self.set_page(self.page - 1, at_end=True)

    # --- layout -------------------------------------------------------------------------
    def resize(self, size) -> None:
        super().resize(size)
        s = self.scale = ui_scale(size)
        w, h = size
        self.margin = int(40 * s)
        self.title_px = int(56 * s)
        self.head_px = int(27 * s)
        self.text_px = int(24 * s)
        self.small_px = int(21 * s)
        self.line_h = int(self.text_px * 1.2)
        tab_h = int(40 * s)
        tab_y = int(88 * s)
        tab_w = int(170 * s)
        gap = int(12 * s)
        x = w // 2 - tab_w - gap // 2
        for tab in self.tabs:
            tab.rect = pygame.Rect(x, tab_y, tab_w, tab_h)
            x += tab_w + gap
        bh = int(46 * s)
        self.back_button.rect = pygame.Rect(0, 0, int(160 * s), bh)
        self.back_button.rect.bottomright = (w - self.margin, h - int(16 * s))
        self.footer_pos = (self.margin, self.back_button.rect.centery)
        top = tab_y + tab_h + int(18 * s)
        bottom = self.back_button.rect.y - int(14 * s)
        self.panel_rect = pygame.Rect(self.margin, top, w - 2 * self.margin, bottom - top)
        pad = int(22 * s)
        inner = self.panel_rect.inflate(-2 * pad, -2 * pad)
        self.panel = rounded_panel(self.panel_rect.size, (10, 34, 24, 200), radius=int(16 * s))
        # Rules page: text on the left, the diagram on the right.
        diagram_w = int(inner.w * 0.40)
        self.rules_view = pygame.Rect(inner.x, inner.y, inner.w - diagram_w - pad, inner.h)
        self.diagram_rect = pygame.Rect(self.rules_view.right + pad, inner.y, diagram_w, inner.h)
        self.controls_view = inner.copy()
        self.scroll_step = self.line_h * 3
        fade_h = int(self.line_h * 1.3)
        self.fades = {}
        for page, view in enumerate((self.rules_view, self.controls_view)):
            bottom = pygame.Surface((max(1, view.w - int(12 * s)), fade_h), pygame.SRCALPHA)
            for y in range(fade_h):
                a = int(235 * (y / max(1, fade_h - 1)) ** 1.4)
                pygame.draw.line(bottom, (11, 38, 26, a), (0, y), (bottom.get_width(), y))
            self.fades[page] = (bottom, pygame.transform.flip(bottom, False, True))
        self._build_pages()
        self.scroll = min(self.scroll, self.max_scroll)

    @property
    def view(self) -> pygame.Rect:
        return self.rules_view if self.page == 0 else self.controls_view

    def _build_pages(self) -> None:
        """Render each page's scrolling content once per size."""
        s = self.scale
        # Rules: headings and wrapped paragraphs.
        width = self.rules_view.w - int(14 * s)   # room for the scroll bar
        items: list[tuple[str, int, tuple, int]] = []   # text, px, colour, y
        y = 0
        for heading, para in self.text["rules"]:
            items.append((heading, self.head_px, GOLD, y))
            y += int(self.head_px * 1.25)
            for line in wrap_text(para, self.text_px, width):
                items.append((line, self.text_px, INK, y))
                y += self.line_h
            y += int(self.line_h * 0.45)
        rules_h = y - int(self.line_h * 0.45)
        self.rules_lines = items
        self.rules_surface = self._render_items(items, (self.rules_view.w, max(1, rules_h)))
        # Controls: a table, then the game's own notes.
        self.controls_surface, controls_h = self._render_controls()
        self.content_h = [rules_h, controls_h]
        # The diagram and its caption, fixed on the right.
        self.diagram_surface = self._render_diagram()

    def _render_items(self, items, size) -> pygame.Surface:
        surf = pygame.Surface(size, pygame.SRCALPHA)
        for text, px, color, y in items:
            surf.blit(FONTS.text(text, px, color), (0, y))
        return surf

    def _render_controls(self) -> tuple[pygame.Surface, int]:
        s = self.scale
        view = self.controls_view
        width = view.w - int(14 * s)
        rows = controls_for(self.game_id)
        header = ("", "Mouse", "Keyboard", "Gamepad")
        px = self.small_px
        font = FONTS.font(px)
        cell_pad = int(14 * s)
        # Column widths: the action column as wide as it needs (at most 30 %),
        # the rest shared in proportion to what each needs.
        need = [max(font.size(r[i])[0] for r in rows + [header]) + cell_pad for i in range(4)]
        first = min(need[0], int(width * 0.30))
        rest = width - first
        share = sum(need[1:]) or 1
        cols = [first] + [max(int(rest * 0.2), int(rest * n / share)) for n in need[1:]]
        over = sum(cols) - width
        if over > 0:
            widest = cols.index(max(cols[1:]), 1)
            cols[widest] -= over
        self.table_columns = cols
        wrapped_rows = []
        for row in [header] + rows:
            cells = [wrap_text(text, px, c - cell_pad) if text else [""] for text, c in zip(row, cols)]
            wrapped_rows.append(cells)
        row_gap = int(px * 0.42)
        line_h = int(px * 1.2)
        heights = [max(len(c) for c in cells) * line_h + row_gap for cells in wrapped_rows]
        notes = [line for note in self.text["notes"] for line in wrap_text(note, self.text_px, width)]
        notes_top = sum(heights) + int(self.line_h * 0.9)
        notes_h = int(self.head_px * 1.3) + len(notes) * self.line_h if notes else 0
        total = notes_top + notes_h
        surf = pygame.Surface((view.w, max(1, total)), pygame.SRCALPHA)
        y = 0
        self.controls_lines: list[tuple[str, pygame.Rect]] = []
        for k, (cells, rh) in enumerate(zip(wrapped_rows, heights)):
            if k % 2 == 1:
                pygame.draw.rect(surf, (255, 255, 255, 14), (0, y - row_gap // 2, width, rh))
            x = 0
            for c, (lines, cw) in enumerate(zip(cells, cols)):
                color = GOLD if k == 0 else INK if c == 0 else INK_DIM
                for i, line in enumerate(lines):
                    if line:
                        img = FONTS.text(line, px, color)
                        surf.blit(img, (x + cell_pad // 2, y + i * line_h))
                        self.controls_lines.append((line, img.get_rect(topleft=(x + cell_pad // 2,
                                                                               y + i * line_h))))
                x += cw
            y += rh
            if k == 0:
                pygame.draw.line(surf, (255, 255, 255, 60), (0, y - row_gap // 2), (width, y - row_gap // 2),
                                 max(1, int(s)))
        if notes:
            y = notes_top
            surf.blit(FONTS.text(f"In {self.text['title']}", self.head_px, GOLD), (0, y))
            y += int(self.head_px * 1.3)
            for line in notes:
                img = FONTS.text(line, self.text_px, INK)
                surf.blit(img, (0, y))
                self.controls_lines.append((line, img.get_rect(topleft=(0, y))))
                y += self.line_h
        return surf, total

    def _render_diagram(self) -> pygame.Surface:
        rect = self.diagram_rect
        surf = pygame.Surface(rect.size, pygame.SRCALPHA)
        caption = wrap_text(self.text["caption"], self.small_px, rect.w)
        cap_line = int(self.small_px * 1.2)
        cap_h = len(caption) * cap_line + int(12 * self.scale)
        area = pygame.Rect(0, 0, rect.w, rect.h - cap_h)
        self.caption_lines = caption
        DIAGRAMS[self.game_id](surf, area, self.scale)
        y = area.bottom + int(8 * self.scale)
        for line in caption:
            draw_text(surf, line, self.small_px, (rect.w // 2, y), INK_DIM, anchor="midtop")
            y += cap_line
        return surf

    # --- input --------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        a = event.action
        if a == Action.BACK:
            self.back()
        elif a == Action.LEFT:
            self.set_page(self.page - 1)
        elif a == Action.RIGHT:
            self.set_page(self.page + 1)
        elif a == Action.UP:
            self.scroll_by(-1)
        elif a == Action.DOWN:
            self.scroll_by(1)
        elif a == Action.CYCLE:
            if event.amount:
                self.scroll_by(event.amount)      # the wheel
            else:
                self.set_page(self.page + 1)      # Tab, right shoulder
        elif a == Action.SELECT:
            if self.page < len(PAGES) - 1:
                self.set_page(self.page + 1)
            else:
                self.back()
        elif a == Action.PAUSE:
            self.back()
        elif a == Action.POINTER_DOWN and event.button == 1:
            self._pressed_tab = next((t for t in self.tabs if t.contains(event.pos)), None)
            if self._pressed_tab is None:
                self.focus.handle(event)
        elif a == Action.POINTER_UP and event.button == 1:
            tab, self._pressed_tab = self._pressed_tab, None
            if tab is not None and tab.contains(event.pos):
                tab.action()
            else:
                self.focus.handle(event)
        elif a == Action.POINTER_DOWN and event.button == 3:
            self.back()

    # --- drawing ------------------------------------------------------------------------
    def visible_text_rects(self) -> list[pygame.Rect]:
        """Screen areas of every line of text drawn now (tests: all on screen)."""
        out = [self._title_rect(), self._footer_rect()]
        out += [t.rect for t in self.tabs] + [self.back_button.rect]
        view = self.view
        if self.page == 0:
            for text, px, _, y in self.rules_lines:
                r = FONTS.text(text, px, INK).get_rect(topleft=(view.x, view.y + y - self.scroll))
                if r.colliderect(view):
                    out.append(r)
            out.append(self.diagram_rect)
        else:
            for _, r in self.controls_lines:
                r = r.move(view.x, view.y - self.scroll)
                if r.colliderect(view):
                    out.append(r)
        return out

    def _title_rect(self) -> pygame.Rect:
        img = FONTS.text(f"How to play: {self.text['title']}", self.title_px, GOLD)
        return img.get_rect(center=(self.size[0] // 2, int(46 * self.scale)))

    def _footer_rect(self) -> pygame.Rect:
        img = FONTS.text(HELP_FOOTER, self.small_px, INK_DIM)
        return img.get_rect(midleft=self.footer_pos)

    def draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        w, h = self.size
        surface.blit(felt(self.size), (0, 0))
        draw_text(surface, f"How to play: {self.text['title']}", self.title_px, self._title_rect().center,
                  GOLD, anchor="center", shadow=True)
        for k, tab in enumerate(self.tabs):
            tab.hot = k == self.page
            color = BUTTON if k != self.page else (70, 124, 92)
            radius = max(4, int(10 * s))
            pygame.draw.rect(surface, color, tab.rect, border_radius=radius)
            edge = FOCUS if k == self.page else (255, 255, 255, 60)
            pygame.draw.rect(surface, edge, tab.rect, width=max(1, int(2 * s)), border_radius=radius)
            draw_text(surface, tab.label, tab.rect.h * 0.55, tab.rect.center,
                      INK if k == self.page else INK_DIM, anchor="center")
        surface.blit(self.panel, self.panel_rect)
        view = self.view
        content = self.rules_surface if self.page == 0 else self.controls_surface
        area = pygame.Rect(0, self.scroll, view.w, view.h)
        surface.blit(content, view.topleft, area)
        if self.page == 0:
            surface.blit(self.diagram_surface, self.diagram_rect)
        self._draw_scrollbar(surface, view)
        draw_text(surface, HELP_FOOTER, self.small_px, self._footer_rect().midleft, INK_DIM,
                  anchor="midleft")
        self.focus.draw(surface, s)

    def _draw_scrollbar(self, surface: pygame.Surface, view: pygame.Rect) -> None:
        total = self.content_h[self.page]
        if total <= view.h:
            return
        s = self.scale
        bar_w = max(3, int(6 * s))
        track = pygame.Rect(view.right - bar_w, view.y, bar_w, view.h)
        bar = pygame.Surface(track.size, pygame.SRCALPHA)
        pygame.draw.rect(bar, (255, 255, 255, 36), bar.get_rect(), border_radius=bar_w // 2)
        thumb_h = max(int(30 * s), int(view.h * view.h / total))
        thumb_y = int((view.h - thumb_h) * self.scroll / max(1, self.max_scroll))
        pygame.draw.rect(bar, (*GOLD, 220), (0, thumb_y, bar_w, thumb_h), border_radius=bar_w // 2)
        surface.blit(bar, track)
        # Soft fades where the text goes on beyond the view.
        fade_bottom, fade_top = self.fades[self.page]
        if self.scroll < self.max_scroll:
            surface.blit(fade_bottom, (view.x, view.bottom - fade_bottom.get_height()))
        if self.scroll > 0:
            surface.blit(fade_top, view.topleft)


__all__ = ["HelpScene", "HELP_TEXT", "COMMON_CONTROLS", "PAGES", "controls_for", "help_text"]
