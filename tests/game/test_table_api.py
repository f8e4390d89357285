"""What a card table asks the patience engines (issue 10, item 2): the moves
from a pile, whether cards may be picked up and why not, what a click or a drop
means, why a move is refused, typed moves and the records played. Each test
states the position, the question and the engine's answer."""
from __future__ import annotations

import pytest

from game.base import MoveRecord, PileMove, Status
from game.camelot_solitaire import CamelotSolitaire, PlaceCard, RemovePair, RemoveTen, TurnStock
from game.cards import Card
from game.clock import CENTRE, Clock, ClockMove, hour_pile
from game.errors import IllegalMoveError, NotationError
from game.hamilton import (ChooseStart, DealRow, Hamilton, HamiltonState, MoveCards,
                           TurnChooser)

from .test_camelot_solitaire import full_grid, play_grid
from .test_clock import deck_where
from .test_hamilton import hamilton_position

C = Card.parse


# --- typed moves ----------------------------------------------------------------
@pytest.mark.parametrize("move, count", [
    (TurnStock(C("AS")), 1), (PlaceCard(C("AS"), "cell:0"), 1), (RemoveTen(C("10S"), "cell:0"), 1),
    (RemovePair(C("3S"), "cell:5", "cell:6"), 1), (TurnChooser(None), 1),
    (ChooseStart(C("7H"), "foundation:0"), 1), (DealRow(C("2C"), 7), 7), (DealRow(C("2C"), 2), 2),
    (MoveCards(C("9D"), "tableau:1", "tableau:2", 3), 3), (MoveCards(C("9D"), "tableau:1", "tableau:2"), 1),
    (ClockMove(C("7H"), "clock:7"), 1),
])
def test_every_patience_move_is_a_pile_move_with_its_count(move, count):
    assert isinstance(move, PileMove) and move.count == count
    assert isinstance(move.source, str)


@pytest.mark.parametrize("game", [CamelotSolitaire(seed=1), Hamilton(seed=1), Clock(seed=1)])
@pytest.mark.parametrize("garbage", [None, 3, 2.5, b"t", ["t"], {"t": 1}, object(), ("t",)])
def test_a_move_that_is_not_text_nor_a_move_is_the_engines_error(game, garbage):
    before = game.piles()
    with pytest.raises(NotationError, match="not a .* move"):
        game.play(garbage)
    assert game.piles() == before and game.history == []
    assert "not a" in game.why_illegal(garbage)


def test_a_move_of_another_game_is_refused_with_the_engines_error():
    with pytest.raises(NotationError, match="not a Clock move: a TurnStock"):
        Clock(seed=1).play(TurnStock(None))


# --- why a move is refused ------------------------------------------------------------
def test_why_illegal_is_empty_for_a_legal_move_and_a_sentence_otherwise():
    game = CamelotSolitaire(deck=" ".join(["KH"] + [c.code for c in Clock(seed=0).deck
                                                     if c.code != "KH"]))
    assert game.why_illegal("t") == "" and game.why_illegal(TurnStock(C("KH"))) == ""
    game.play("t")                                 # the KH waits on the waste
    assert game.why_illegal("w>c5") == ("the upper-left centre place takes number cards only; "
                                        "the king of hearts goes in a corner")
    assert game.why_illegal("w>c0") == ""
    assert game.why_illegal("t") == "place the king of hearts from the waste first"
    assert game.why_illegal("zz") == ("cannot read Camelot move 'zz': write t, w>c5, c3 or c3+c7")
    assert game.history == ["t"]                   # asking changes nothing


def test_why_illegal_after_the_end_says_the_game_is_over():
    game = Hamilton(seed=0)
    for move in ("t", "t", "t", "t"):               # declining the third start card loses
        game.play(move)
    assert game.status is Status.LOST
    assert game.why_illegal("d") == "the game is over (lost)"


# --- Camelot (patience) ---------------------------------------------------------------
def test_camelot_waste_card_is_picked_up_and_dropped_on_a_cell():
    game = CamelotSolitaire(deck=" ".join(["7C"] + [c.code for c in Clock(seed=0).deck
                                                     if c.code != "7C"]))
    assert game.click_move("stock") == TurnStock(C("7C"))
    game.play(game.click_move("stock"))
    assert game.can_pick_up("waste") and not game.can_pick_up("waste", 2)
    assert game.move_between("waste", 1, "cell:0") == PlaceCard(C("7C"), "cell:0")
    assert game.move_between("waste", 1, "stock") is None
    assert {m.target for m in game.moves_from("waste")} == {f"cell:{i}" for i in range(16)}
    assert game.moves_from("waste", count=2) == [] and game.moves_from("stock") == []


def test_camelot_cells_in_phase_two():
    # grid full: pictures on the border, 3 7 10 4 in the centre (cells 5, 6, 9, 10)
    game = play_grid(full_grid("3S 7D 10C 4H"), then="2C")
    assert game.phase == "removing"
    assert game.can_pick_up("cell:5") and game.why_not_pick_up("cell:5") == ""
    assert not game.can_pick_up("cell:9")          # the ten: a click removes it
    assert game.click_move("cell:9") == RemoveTen(C("10C"), "cell:9")
    assert game.click_move("cell:5") is None and game.click_move("cell:0") is None
    assert not game.can_pick_up("cell:0")
    assert game.why_not_pick_up("cell:0") == "pictures stay where they are: they are never removed"
    assert game.move_between("cell:5", 1, "cell:6") == RemovePair(C("3S"), "cell:5", "cell:6")
    assert game.why_illegal(game.move_between("cell:5", 1, "cell:6")) == ""
    pair = game.move_between("cell:5", 1, "cell:10")            # 3 + 4: refused, with a reason
    assert pair == RemovePair(C("3S"), "cell:5", "cell:10")
    assert game.why_illegal(pair) == "the three of spades and the four of hearts make 7, not 10"
    assert game.move_between("cell:5", 1, "cell:9") is None      # onto a ten: nothing to say
    assert [m.target for m in game.moves_from("cell:5")] == ["cell:6"]
    assert game.moves_from("cell:9") == [RemoveTen(C("10C"), "cell:9")]


def test_camelot_nothing_is_picked_up_while_filling():
    game = play_grid({5: "3S", 6: "7D"}, then="2C")
    assert game.phase == "filling"
    assert not game.can_pick_up("cell:5")
    assert game.why_not_pick_up("cell:5") == ("nothing can be removed until the grid is full "
                                              "(or the stock is empty)")
    assert game.why_not_pick_up("cell:0") == ""    # an empty cell: nothing to say
    game.play("t")
    assert game.why_not_pick_up("cell:5") == "place the two of clubs first"


# --- Hamilton --------------------------------------------------------------------------
def test_hamilton_before_the_start_card():
    game = Hamilton(seed=3)
    assert game.click_move("stock") == TurnChooser(game.deck[28])
    assert not game.can_pick_up("tableau:6")
    assert game.why_not_pick_up("tableau:6") == "choose a start card first: click the stock to show one"
    game.play(game.click_move("stock"))
    assert game.can_pick_up("chooser") and game.why_not_pick_up("chooser") == ""
    assert game.move_between("chooser", 1, "foundation:2") == ChooseStart(game.chooser, "foundation:2")
    assert game.move_between("chooser", 1, "tableau:2") is None
    game.play(game.move_between("chooser", 1, "foundation:2"))
    assert game.click_move("stock") == DealRow(game.deck[29], 7)
    assert game.click_move("tableau:0") is None


def test_hamilton_groups_and_foundation_tops():
    # start 7; 10D 9D 8D on top of tableau 0 is a group of three; piles 3-6 are empty
    game = hamilton_position(7, ["2C 10D 9D 8D", "JD", "5S"], ["7H 8H"])
    assert game.max_pick_up("tableau:0") == 3 and game.max_pick_up("foundation:0") == 1
    assert game.can_pick_up("tableau:0", 3) and not game.can_pick_up("tableau:0", 4)
    assert game.why_not_pick_up("tableau:0", 4) == ("only the top card, or a run in sequence "
                                                    "and in one suit, moves")
    assert game.can_pick_up("foundation:0") and not game.can_pick_up("foundation:0", 2)
    assert not game.can_pick_up("foundation:1")    # empty
    onto_jack = game.move_between("tableau:0", 3, "tableau:1")
    assert onto_jack == MoveCards(C("10D"), "tableau:0", "tableau:1", 3)
    assert game.why_illegal(onto_jack) == ""
    assert [m.target for m in game.moves_from("tableau:0", count=3)] == [
        "tableau:1", "tableau:3", "tableau:4", "tableau:5", "tableau:6"]
    onto_five = game.move_between("tableau:0", 1, "tableau:2")
    assert game.why_illegal(onto_five) == ("the eight of diamonds cannot go on the five of spades: "
                                           "only a black four can")
    assert game.move_between("tableau:0", 1, "stock") is None


def test_hamilton_records_and_states_played():
    game = Hamilton(seed=21)
    for move in ("t", "ch>f1", "d"):
        game.play(move)
    records = game.records
    assert [r.notation for r in records] == ["t", "ch>f1", "d"]
    assert all(isinstance(r, MoveRecord) for r in records)
    assert isinstance(records[2].move, DealRow) and records[2].move.count == 7
    states = game.states_played()
    assert len(states) == 3 and all(isinstance(s, HamiltonState) for s in states)
    assert states[0].start_rank is None and len(states[0].stock) == 24
    assert states[2].start_rank == game.start_rank and states[2].score == 1
    assert len(states[2].stock) == 23 and game.state.stock == states[2].stock[7:]
    game.undo()
    assert [r.notation for r in game.records] == ["t", "ch>f1"] and len(game.states_played()) == 2


# --- Clock -----------------------------------------------------------------------------
def test_clock_drops_and_clicks():
    game = Clock(deck=deck_where(["2C", "3C", "4C", "7H"]))
    assert game.centre_card == C("7H")
    assert game.move_between(CENTRE, 1, hour_pile(7)) == ClockMove(C("7H"), "clock:7")
    assert game.move_between(CENTRE, 1, hour_pile(3)) == ClockMove(C("7H"), "clock:3")
    assert game.why_illegal(ClockMove(C("7H"), "clock:3")) == "the seven of hearts goes to 7 o'clock, not to 3 o'clock"
    assert game.move_between(CENTRE, 1, CENTRE) is None         # not a king: nothing
    assert game.click_move(hour_pile(7)) == ClockMove(C("7H"), "clock:7")
    assert game.click_move(CENTRE) is None and game.click_move("nowhere") is None
    assert game.can_pick_up(CENTRE) and not game.can_pick_up(hour_pile(7))


def test_clock_a_king_dropped_on_the_centre_stays():
    game = Clock(deck=deck_where(["2C", "3C", "4C", "KH"]))
    assert game.move_between(CENTRE, 1, CENTRE) == ClockMove(C("KH"), CENTRE)
    assert game.why_illegal(game.move_between(CENTRE, 1, CENTRE)) == ""
    assert game.moves_from(CENTRE) == [ClockMove(C("KH"), CENTRE)]


def test_hand_made_pile_ids_that_are_none_of_ours():
    clock = Clock(seed=1)
    assert clock.why_illegal(ClockMove(clock.centre_card, "clock:²")) == (
        "there is no pile 'clock:²': the hours are clock:1 … clock:12")
    hamilton = Hamilton(seed=1)
    hamilton.play("t")
    hamilton.play("ch>f0")
    with pytest.raises(IllegalMoveError, match="there is no pile 'tableau:²'"):
        hamilton.foundation_moves_from("tableau:²")
    assert hamilton.why_illegal(MoveCards(None, "tableau:9", "tableau:1")) == (
        "there is no pile 'tableau:9'")
    camelot = CamelotSolitaire(seed=1)
    with pytest.raises(IllegalMoveError, match="there is no cell 'cell:٣'"):
        camelot.can_pick_up("cell:٣")
