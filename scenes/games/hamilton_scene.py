"""Hamilton on screen: stock and chooser on the left, the seven fanned piles in
the middle, the four foundations on the right.

* Choosing the start card: click the stock to show a card on the chooser (again
  to decline it and show the next, three at most); choose it by dragging it to a
  foundation, double-clicking it, or selecting it and then a foundation.
* Then the stock deals a row (7, 7, 7, 2): click it, or SELECT on it.
* Move a card or a suited run: drag it (grab the run's lowest card), or click it
  and then its target; with keys or a gamepad, move the focus onto the pile, up
  over the run to take more cards, SELECT, then SELECT on the target.
* Double-click a pile to send everything it can to the foundations.
* Foundation cards come back into play the same ways.

Piles compress their fan so the longest still fits the table. When nothing can
help any more the engine ends the game and the game-over panel says why and
offers undo, restart and a new deal. The rules are asked of ``game.hamilton``.

Once the stock is empty the engine cannot tell at once whether more foundation
cards can be reached (a search of up to about a second): the scene asks the
work service for the verdict and hands it back to the engine, so ``play`` on
the frame loop stays in the microseconds. Until the verdict is in the scene is
``busy`` (the computer player waits; the player's input does not).
"""
from __future__ import annotations

import pygame

from game.base import Status
from game.hamilton import (ChooseStart, DealRow, Hamilton, TurnChooser, foundation_id, pile_name,
                          rank_name, tableau_id)

from ..table.card_art import shared_card_art
from ..table.card_table import Slot
from ..table.patience_scene import PatienceScene
from ..core.ui import INK_DIM, text_scale
from ..store.terms import card_name, rank_words
from ..work.service import Channel
from ..store.words import N_, _, ngettext

TABLEAU = [tableau_id(i) for i in range(7)]
FOUNDATIONS = [foundation_id(k) for k in range(4)]
FAN = 0.3             # tableau fan per card, in card heights (compressed when long)
LABEL_PX = 20         # the words under the stock and the chooser


# The engine's names of the piles (game.hamilton.pile_name), marked here for translation.
PILE_WORDS = (N_("the first pile"), N_("the second pile"), N_("the third pile"), N_("the fourth pile"),
              N_("the fifth pile"), N_("the sixth pile"), N_("the seventh pile"),
              N_("the first foundation"), N_("the second foundation"),
              N_("the third foundation"), N_("the fourth foundation"))

class HamiltonScene(PatienceScene):
    engine = Hamilton
    think_in_background = True    # the computer player searches: keep it off the frame loop
    record_stagger = 0.07
    solver_seconds = 10.0         # most positions answer in well under a second; a few take seconds

    def __init__(self, app, seed=None, demo=False, game=None) -> None:
        self._dead_end = Channel("dead-end")
        self._dead_end_asked = None     # (game, position key) asked about
        super().__init__(app, seed, demo, game)

    def new_engine(self, seed: int) -> Hamilton:
        return Hamilton(seed=seed)

    # --- the dead-end check, off the frame loop ------------------------------------
    def update_table(self, dt: float) -> None:
        super().update_table(dt)
        self._check_dead_end()

    def _check_dead_end(self) -> None:
        game = self.game
        if not game.dead_end_pending:
            return
        asked = (game, game.position_key())
        if self._dead_end_asked != asked:
            self._dead_end_asked = asked
            self._dead_end.ask({"game": game.to_json()})
        answer = self._dead_end.poll()
        if answer is None:
            return
        if answer.ok:
            game.apply_dead_end_verdict(answer.data)
        else:           # the worker failed: search here, once
            game.check_dead_end()
        self._dead_end_asked = None
        if game.status is not Status.PLAYING:
            self._refresh()

    @property
    def busy(self) -> bool:
        return super().busy or self.game.dead_end_pending

    def leave(self) -> None:
        self._dead_end.cancel()
        super().leave()

    # --- layout -----------------------------------------------------------
    def layout(self, area: pygame.Rect) -> None:
        gap_y, gap_x, side = 0.06, 0.18, 0.5      # in card heights / widths
        margin = 0.1                              # clear of the top bar and the message band
        ch = area.h / (4 + 3 * gap_y + 2 * margin)
        cw = min(ch / 1.4, area.w * 0.98 / (9 + 6 * gap_x + 2 * side))
        self.art = shared_card_art(self.app, max(20, int(cw)))
        cw, ch = self.art.size
        gx, gy = cw * gap_x, ch * gap_y
        width = 9 * cw + 6 * gx + 2 * side * cw
        x0 = area.centerx - width / 2
        top = area.top + (area.h - (4 * ch + 3 * gy)) / 2
        # The stock, the chooser and the piles start level with the first
        # foundation; the piles fan down as far as the last one reaches.
        # the stock's label fits between it and the chooser, at any text size
        label_room = LABEL_PX * self.scale * text_scale() * 1.4
        slots = [Slot("stock", (x0, top)),
                 Slot("chooser", (x0, top + ch + max(gy * 5, label_room)))]
        x_foundations = x0 + width - cw
        for k, pile in enumerate(FOUNDATIONS):
            slots.append(Slot(pile, (x_foundations, top + k * (ch + gy)), label=self._start_label()))
        tab_x = x0 + cw + side * cw
        tab_top = top
        extent = top + 4 * ch + 3 * gy - tab_top - ch
        for i, pile in enumerate(TABLEAU):
            slots.append(Slot(pile, (tab_x + i * (cw + gx), tab_top), fan=(0, ch * FAN),
                              max_extent=max(0.0, extent)))
        self.table.set_layout(slots, (cw, ch))
        if self.table.sprites:
            self.table.show_instantly(self._piles)

    def _start_label(self) -> str | None:
        start = getattr(getattr(self, "game", None), "start_rank", None)
        return rank_name(start).upper()[:1] if start in (1, 11, 12, 13) else (
            str(start) if start else None)

    resting_slots = tuple(FOUNDATIONS)   # empty foundations show the start rank once chosen

    def update_slot_labels(self) -> None:
        label = self._start_label()
        for pile in FOUNDATIONS:
            if pile in self.table.slots:
                self.table.slots[pile].label = label

    def first_focus(self) -> str:
        return "stock"

    def deal_animation(self) -> None:
        order = [event.card for event in self.game.deal_events()]
        self.table.deal(self._piles, order, self.table.slots["stock"].origin, stagger=0.05,
                        duration=0.32)

    # --- HUD ----------------------------------------------------------------
    def status_line(self) -> str:
        game = self.game
        if game.start_rank is None:
            left = game.choices_left
            return self.with_solver_status(ngettext(
                "Choose a start card  ·  {n} choice left", "Choose a start card  ·  {n} choices left",
                left).format(n=left))
        return self.with_solver_status(_("Start rank {rank}  ·  Stock {n}").format(
            rank=rank_words(game.start_rank).capitalize(), n=game.stock_count))

    def score_line(self) -> str:
        return _("Score {score} / {most}").format(score=self.game.score, most=self.game.max_score)

    def table_labels(self):
        s = self.scale
        cw, ch = self.table.card_size
        game = self.game
        if game.start_rank is None:
            left = game.choices_left
            chooser = ngettext("{n} choice left", "{n} choices left", left).format(n=left)
        else:
            chooser = _("Start {rank}").format(rank=rank_words(game.start_rank).capitalize())
        labels = []
        for pile, words in (("stock", _("Stock {n}").format(n=game.stock_count)), ("chooser", chooser)):
            x, y = self.table.slots[pile].origin
            labels.append((words, LABEL_PX * s, (x + cw / 2, y + ch + 6 * s), "midtop", INK_DIM))
        return labels

    # --- a hint in words ---------------------------------------------------------
    def pile_words(self, pile: str) -> str:
        return _(pile_name(pile))      # the engine's words, as its refusals say them

    def move_words(self, move) -> str:
        if isinstance(move, TurnChooser):
            shown = self.game.chooser
            return (_("turn up the next card (not the {card})").format(card=card_name(shown)) if shown
                    else _("turn up a card"))
        if isinstance(move, ChooseStart):
            return _("start the foundations with the {card}").format(card=card_name(move.card))
        if isinstance(move, DealRow):
            return _("deal a row from the stock")
        return super().move_words(move)

    # --- what the player's input means ------------------------------------------
    def double_click(self, pile: str, index) -> None:
        if pile == "stock":
            self._click(pile, index)      # every click on the stock is a turn of its own
            return
        if pile.startswith("foundation:"):
            return
        moves = self.game.foundation_moves_from(pile)
        if moves:
            self.play_sequence(moves)
        elif self._piles.get(pile):
            self.app.toast(_("Nothing there can go to a foundation now"))
