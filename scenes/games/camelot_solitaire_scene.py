"""Camelot (patience) on screen: the stock and the waste left of the 4×4 grid.

* Turn the stock: click it, or SELECT with the focus on it.
* Place the waste card: drag it to a cell; or click a cell (the waste card is
  in hand whenever there is one: its legal cells glow); or move the focus to a
  cell and press SELECT. Double-click the waste card to let the computer place it.
* Remove a ten: click it (or SELECT on it). Remove a pair: drag one card onto
  the other, or click one then the other.

Empty picture cells show a faint K, Q or J. The rules are asked of
``game.camelot_solitaire``.
"""
from __future__ import annotations

import pygame

from game.camelot_solitaire import (CELL_PICTURE, CamelotSolitaire, PlaceCard, RemovePair, RemoveTen,
                                    TurnStock, cell_id, cell_index)

from ..table.card_art import shared_card_art
from ..table.card_table import Slot
from ..table.patience_scene import PatienceScene
from ..core.ui import INK_DIM
from ..store.terms import PILE_NAMES, card_name, term
from ..store.words import N_, _

PICTURE_LETTERS = {13: "K", 12: "Q", 11: "J"}


# The grid's places in words (the engine's ``place_name``, cell by cell), looked up when said.
PLACE_NAMES = (
    N_("the top-left corner"), N_("the second place of the top row"),
    N_("the third place of the top row"), N_("the top-right corner"),
    N_("the second place of the left column"), N_("the upper-left centre place"),
    N_("the upper-right centre place"), N_("the second place of the right column"),
    N_("the third place of the left column"), N_("the lower-left centre place"),
    N_("the lower-right centre place"), N_("the third place of the right column"),
    N_("the bottom-left corner"), N_("the second place of the bottom row"),
    N_("the third place of the bottom row"), N_("the bottom-right corner"),
)
PHASES = {"filling": N_("filling"), "removing": N_("removing")}

class CamelotSolitaireScene(PatienceScene):
    engine = CamelotSolitaire
    record_stagger = 0.1
    solver_seconds = 1.5          # "still winnable?" after every move, and solver hints

    def new_engine(self, seed: int) -> CamelotSolitaire:
        return CamelotSolitaire(seed=seed)

    # --- layout -----------------------------------------------------------
    def layout(self, area: pygame.Rect) -> None:
        gap_x, gap_y, side = 0.14, 0.08, 0.75       # in card widths / heights
        ch = area.h * 0.94 / (4 + 3 * gap_y)
        cw = min(ch / 1.4, area.w * 0.92 / (5 + 3 * gap_x + side))
        self.art = shared_card_art(self.app, max(20, int(cw)))
        cw, ch = self.art.size
        gx, gy = cw * gap_x, ch * gap_y
        grid_w, grid_h = 4 * cw + 3 * gx, 4 * ch + 3 * gy
        left = area.centerx - grid_w / 2 + (cw + cw * side) / 2
        top = area.centery - grid_h / 2
        self.grid_rect = pygame.Rect(int(left), int(top), int(grid_w), int(grid_h))
        column = left - cw * side - cw
        slots = [Slot("stock", (column, top + ch + gy - ch * 0.25)),
                 Slot("waste", (column, top + 2 * (ch + gy) + ch * 0.05))]
        for i in range(16):
            row, col = divmod(i, 4)
            slots.append(Slot(cell_id(i), (left + col * (cw + gx), top + row * (ch + gy)),
                              label=PICTURE_LETTERS.get(CELL_PICTURE.get(i))))
        self.table.set_layout(slots, (cw, ch))
        # removed cards fly off the right-hand edge of the table
        self.table.offstage = (self.size[0] + cw * 0.5, top + grid_h / 2 - ch / 2)
        if self.table.sprites:
            self.table.show_instantly(self._piles)

    def first_focus(self) -> str:
        return "stock"

    def deal_animation(self) -> None:
        # From the left edge, level with the stock: no card crosses the toolbar.
        cw, _ = self.table.card_size
        _, y = self.table.slots["stock"].origin
        order = [card for card, _ in self._piles["stock"]]
        self.table.deal(self._piles, order, (-cw * 1.2, y), stagger=0.026, duration=0.3)

    # --- HUD ----------------------------------------------------------------
    def status_line(self) -> str:
        return self.with_solver_status(_("Phase: {phase}  ·  Stock {n}").format(
            phase=term(PHASES, self.game.phase), n=self.game.stock_count))

    def score_line(self) -> str:
        return _("Score {score} / {most}").format(score=self.game.score, most=self.game.max_score)

    def table_labels(self):
        s = self.scale
        cw, ch = self.table.card_size
        labels = []
        for pile, words in (("stock", _("Stock {n}").format(n=self.game.stock_count)), ("waste", _("Waste"))):
            x, y = self.table.slots[pile].origin
            labels.append((words, 20 * s, (x + cw / 2, y + ch + 6 * s), "midtop", INK_DIM))
        return labels

    # --- a hint in words ---------------------------------------------------------
    def pile_words(self, pile: str) -> str:
        return _(PLACE_NAMES[cell_index(pile)]) if pile.startswith("cell:") else term(PILE_NAMES, pile)

    def move_words(self, move) -> str:
        if isinstance(move, PlaceCard):
            return _("place the {card} in {place}").format(card=card_name(move.card),
                                                           place=self.pile_words(move.target))
        if isinstance(move, RemoveTen):
            return _("remove the {card} ({place})").format(card=card_name(move.card),
                                                           place=self.pile_words(move.source))
        if isinstance(move, RemovePair):
            other = self.game.cells[cell_index(move.target)]
            return _("remove the {card} and the {other}: they make 10").format(
                card=card_name(move.card), other=card_name(other))
        return _("turn the stock")

    def after_move_words(self, move) -> str:
        waste = self.game.waste
        return _("In hand: the {card}.").format(card=card_name(waste)) if isinstance(move, TurnStock) and waste is not None else ""

    # --- what the player's input means ------------------------------------------
    def default_selection(self):
        return ("waste", 0) if self.game.waste is not None else None

    def double_click(self, pile: str, index) -> None:
        if pile == "stock":
            self._click(pile, index)      # every click on the stock is a turn of its own
        elif pile == "waste" and self.game.waste is not None:
            self.assisted = True          # the computer chose the cell
            move = self.game.computer_move(self.rng)
            if move is not None:
                self.play(move)
