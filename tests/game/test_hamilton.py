"""Hamilton: every clause of docs/rules-solitaires.md, as tests.

Openings come from deck orders built by ``hamilton_deck``; positions deep in a
game are set up directly by ``hamilton_position`` (the cards not named wait in
the stock, so the 52 are all there).
"""
from __future__ import annotations

import random

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import game_class
from game.base import CardMoved, Status
from game.cards import FULL_DECK, Card, deck_text
from game.errors import BadDeckError, IllegalMoveError, NotationError
from game.hamilton import ChooseStart, DealRow, Hamilton, MoveCards, TurnChooser


def cards(text: str) -> list[Card]:
    return [Card.parse(w) for w in text.split()]


def hamilton_deck(piles: list[str], stock: str = "") -> str:
    """A deck order that deals ``piles`` (7 piles, bottom first, 1…7 cards) with
    ``stock`` on top of the stock and the other cards under it."""
    laid = [cards(p) for p in piles]
    assert [len(p) for p in laid] == list(range(1, 8))
    top = [laid[i][row] for row in range(7) for i in range(row, 7)] + cards(stock)
    return deck_text(top + [c for c in FULL_DECK if c not in top])


OPENING = ["AS", "2S 3S", "4S 5S 6S", "7S 8S 9S 10S", "JS QS KS AH 2H",
           "3H 4H 5H 6H 7H 8H", "9H 10H JH QH KH AC 2C"]


def hamilton_position(start: int, tableau: list[str], foundations: list[str] = (),
                      stock: str | None = None) -> Hamilton:
    """A game set up directly: start rank chosen, piles as given (bottom first)."""
    game = Hamilton(seed=0)
    game.start_rank, game.chooser, game.shown = start, None, 1
    game.tableau = [cards(p) for p in tableau] + [[] for _ in range(7 - len(tableau))]
    game.foundations = [cards(f) for f in foundations] + [[] for _ in range(4 - len(foundations))]
    placed = {c for pile in game.tableau + game.foundations for c in pile}
    game._stock = [c for c in FULL_DECK if c not in placed] if stock is None else cards(stock)
    return game


def texts(game: Hamilton) -> set[str]:
    return {game.move_text(m) for m in game.legal_moves()}


# --- the deal ------------------------------------------------------------------
def test_registered_and_the_deal_lays_1_to_7_cards_face_up():
    assert game_class("hamilton") is Hamilton
    game = Hamilton(deck=hamilton_deck(OPENING))
    piles = game.piles()
    assert set(piles) == ({"stock", "chooser"} | {f"foundation:{k}" for k in range(4)}
                          | {f"tableau:{i}" for i in range(7)})
    for i, expected in enumerate(OPENING):
        assert piles[f"tableau:{i}"] == [(c, True) for c in cards(expected)]
    assert len(piles["stock"]) == 24 and not any(up for _, up in piles["stock"])
    assert piles["stock"][-1][0] == game.deck[28]           # top card last
    assert game.start_rank is None and game.choices_left == 3 and game.score == 0
    assert game.max_score == 52 and game.card_count() == 52
    assert game.legal_moves() == [TurnChooser(game.deck[28])]


def test_deal_events_follow_the_dealing_order():
    game = Hamilton(deck=hamilton_deck(OPENING))
    events = game.deal_events()
    assert len(events) == 28
    assert [e.target for e in events[:8]] == [f"tableau:{i}" for i in range(7)] + ["tableau:1"]
    assert events[0] == CardMoved(Card.parse("AS"), "stock", "tableau:0", True)
    assert events[-1] == CardMoved(Card.parse("2C"), "stock", "tableau:6", True)


def test_bad_starts_are_named():
    with pytest.raises(BadDeckError):
        Hamilton()
    with pytest.raises(BadDeckError):
        Hamilton(seed=1, deck=Hamilton(seed=1).deck)
    assert Hamilton(seed=12).deck == Hamilton.from_start_json({"seed": 12}).deck


# --- choosing the start card ----------------------------------------------------------
def test_nothing_moves_before_a_start_card_is_chosen():
    game = Hamilton(deck=hamilton_deck(OPENING, stock="5D"))
    for move in ("d", "t1>t0", "t6>f0"):
        with pytest.raises(IllegalMoveError, match="choose a start card first"):
            game.play(move)
    game.play("t")
    assert texts(game) == {"t", "ch>f0", "ch>f1", "ch>f2", "ch>f3"}


def test_the_chooser_cycles_declined_cards_to_the_bottom():
    game = Hamilton(deck=hamilton_deck(OPENING, stock="5D 6D 7D 8D"))
    five, six, seven = cards("5D 6D 7D")
    assert game.play("t").events == (CardMoved(five, "stock", "chooser", True),)
    assert game.chooser == five and game.choices_left == 2
    assert game.play("t").events == (CardMoved(five, "chooser", "stock", False),
                                      CardMoved(six, "stock", "chooser", True))
    assert game.piles()["stock"][0] == (five, False)          # at the bottom, face down
    game.play("t")
    assert game.chooser == seven and game.choices_left == 0 and game.stock_count == 23
    assert game.status is Status.PLAYING


def test_declining_the_third_card_loses():
    game = Hamilton(deck=hamilton_deck(OPENING, stock="5D 6D 7D 8D"))
    for _ in range(3):
        game.play("t")
    record = game.play("t")
    assert record.events == (CardMoved(Card.parse("7D"), "chooser", "stock", False),)
    assert game.status is Status.LOST
    assert game.status_reason == "declined all three start cards"
    assert game.legal_moves() == [] and game.chooser is None and game.stock_count == 24
    assert not game.is_dead_end()       # a choice, not a dead end
    game.undo()
    assert game.status is Status.PLAYING and game.chooser == Card.parse("7D")


@pytest.mark.parametrize("foundation", [0, 1, 2, 3])
def test_choosing_the_start_card_scores_one(foundation):
    game = Hamilton(deck=hamilton_deck(OPENING, stock="5D 6D"))
    game.play("t")
    game.play("t")
    record = game.play(f"ch>f{foundation}")
    assert record.events == (CardMoved(Card.parse("6D"), "chooser", f"foundation:{foundation}",
                                       True),)
    assert game.start_rank == 6 and game.score == 1 and game.stock_count == 23
    assert game.choices_left == 0 and game.chooser is None
    with pytest.raises(IllegalMoveError, match="start card is chosen"):
        game.play("t")
    with pytest.raises(IllegalMoveError, match="already chosen"):
        game.play("ch>f0")


def test_double_click_on_the_chooser_sends_it_to_the_first_foundation():
    game = Hamilton(deck=hamilton_deck(OPENING, stock="5D"))
    assert game.foundation_moves_from("chooser") == []
    game.play("t")
    assert game.foundation_moves_from("chooser") == [ChooseStart(Card.parse("5D"),
                                                                 "foundation:0")]


# --- dealing ---------------------------------------------------------------------
@pytest.mark.parametrize("shown", [1, 2, 3])
def test_deals_are_7_7_7_2_and_declined_cards_come_last(shown):
    game = Hamilton(deck=hamilton_deck(OPENING, stock="5D 6D 7D"))
    for _ in range(shown):
        game.play("t")
    game.play("ch>f0")
    stock_order = [c for c, _ in reversed(game.piles()["stock"])]   # top first
    declined = cards("5D 6D 7D")[:shown - 1]
    assert len(stock_order) == 23 and stock_order[23 - len(declined):] == declined
    for count in (7, 7, 7, 2):
        assert game.legal_moves()[-1] == DealRow(game._stock[0], count)
        record = game.play("d")
        assert [e.target for e in record.events] == [f"tableau:{i}" for i in range(count)]
        assert all(e.source == "stock" and e.face_up for e in record.events)
    assert [e.card for e in record.events] == stock_order[-2:]      # the declined ones
    assert [len(p) for p in game.tableau] == [5, 6, 6, 7, 8, 9, 10]
    assert all(up for pile in game.piles().values() if pile for _, up in pile)
    assert game.stock_count == 0
    assert "no redeal" in game._why_illegal(DealRow(None, 0))
    with pytest.raises(IllegalMoveError):
        game.play("d")


# --- foundations ----------------------------------------------------------------------
def test_an_empty_foundation_takes_only_the_start_rank():
    game = hamilton_position(7, ["7H", "8H"], ["7S"])
    assert {"t0>f1", "t0>f2", "t0>f3"} <= texts(game)
    with pytest.raises(IllegalMoveError, match=r"takes only a seven \(the start rank\)"):
        game.play("t1>f1")


def test_a_foundation_builds_up_in_suit():
    game = hamilton_position(7, ["8H", "8D"], ["7H"])
    assert "t0>f0" in texts(game)
    with pytest.raises(IllegalMoveError, match="needs the eight of hearts, not the eight of diamonds"):
        game.play("t1>f0")
    game.play("t0>f0")
    assert game.score == 2 and game.foundations[0][-1] == Card.parse("8H")


def test_a_foundation_wraps_from_king_to_ace_and_is_complete_at_start_minus_one():
    game = hamilton_position(7, ["AH", "6H 5H 4H 3H 2H"], ["7H 8H 9H 10H JH QH KH"])
    game.play("t0>f0")                               # A on K
    record = game.play("t1:5>f0")                    # 6 5 4 3 2: a group in one move
    assert [e.card for e in record.events] == cards("2H 3H 4H 5H 6H")
    assert len(game.foundations[0]) == 13 and game.score == 13
    game.tableau[2] = cards("7S")
    game._stock.remove(Card.parse("7S"))
    with pytest.raises(IllegalMoveError, match="the first foundation is complete"):
        game.play("t2>f0")


def test_refusals_name_the_piles_as_the_table_shows_them():
    # start 7; the first pile holds 9D, the second is empty; the first foundation holds 7H 8H
    game = hamilton_position(7, ["9D", ""], ["7H 8H"])
    with pytest.raises(IllegalMoveError, match="^the second pile is empty$"):
        game.play("t1>t0")
    with pytest.raises(IllegalMoveError, match="^the first pile has 1 card, not 2$"):
        game.play("t0:2>t2")
    with pytest.raises(IllegalMoveError, match="^the first foundation needs the nine of hearts"):
        game.play("t0>f0")
    refusals = []
    for source in [f"t{i}" for i in range(7)] + [f"f{i}" for i in range(4)]:
        for target in [f"t{i}" for i in range(7)] + [f"f{i}" for i in range(4)]:
            try:
                game.play(f"{source}>{target}")
                game.undo()
            except IllegalMoveError as exc:
                refusals.append(str(exc))
    assert refusals and not [r for r in refusals if re.search(r"tableau|foundation \d|\b[tf]\d\b", r)]


def test_a_foundation_card_back_to_the_tableau_costs_a_point():
    game = hamilton_position(7, ["9D", ""], ["7H 8H"])
    assert {"f0>t0", "f0>t1", "f0>t2"} <= texts(game)
    record = game.play("f0>t0")
    assert record.events == (CardMoved(Card.parse("8H"), "foundation:0", "tableau:0", True),)
    assert game.score == 1 and record.score == 1


def test_foundation_to_foundation_only_where_legal():
    game = hamilton_position(7, ["2C"], ["7H", "", "7S 8S"])
    assert "f0>f1" in texts(game) and "f0>f3" in texts(game)      # a lone start card
    with pytest.raises(IllegalMoveError, match="takes only a seven"):
        game.play("f2>f1")
    with pytest.raises(IllegalMoveError, match="only the top card of a foundation"):
        game.play(MoveCards(Card.parse("7S"), "foundation:2", "tableau:1", 2))


# --- the tableau ----------------------------------------------------------------------
@pytest.mark.parametrize("start, lower, upper, message", [
    (7, "9D", "8H", None),                   # red on red, another suit
    (7, "9D", "8D", None),
    (7, "9S", "8C", None),
    (7, "9D", "8S", "only a red eight can"),     # colours never alternate
    (7, "9D", "7D", "only a red eight can"),
    (7, "9D", "10D", "only a red eight can"),
    (7, "AS", "KC", None),                   # K on A wraps
    (7, "AS", "KH", "only a black king can"),
    (1, "AS", "KC", "nothing may be placed on the ace of spades: ace is the start rank"),
    (7, "7D", "6H", "nothing may be placed on the seven of diamonds: seven is the start rank"),
    (7, "8D", "7H", None),                   # a start-rank card may lie on an 8
    (13, "2C", "AS", None),
])
def test_tableau_builds_down_by_colour_never_across_the_seam(start, lower, upper, message):
    game = hamilton_position(start, [lower, upper])
    if message is None:
        game.play("t1>t0")
        assert game.tableau[0] == cards(f"{lower} {upper}")
    else:
        before = game.piles()
        with pytest.raises(IllegalMoveError, match=message):
            game.play("t1>t0")
        assert game.piles() == before


def test_a_suited_sequence_moves_as_a_unit():
    game = hamilton_position(7, ["10D", "5C 9H 8H 7H"])
    assert game.group_size(1) == 3
    assert {"t1:3>t0", "t1:3>t2"} <= texts(game)
    record = game.play("t1:3>t0")
    assert [e.card for e in record.events] == cards("9H 8H 7H")      # bottom card first
    assert game.tableau[0] == cards("10D 9H 8H 7H") and game.tableau[1] == cards("5C")


@pytest.mark.parametrize("pile, size", [
    ("9H 8H 7H", 3),        # a start-rank card as the exposed end is fine
    ("8H 7H 6H", 1),        # … but nothing lies on it in a group
    ("9H 8D", 1),           # same colour but two suits: no group
    ("AH KH QH", 3),        # K on A inside a group
    ("5C", 1),
])
def test_group_sizes(pile, size):
    assert hamilton_position(7, [pile]).group_size(0) == size


def test_a_start_rank_card_only_as_the_exposed_end_of_a_group():
    game = hamilton_position(7, ["9D", "8H 7H 6H"])
    with pytest.raises(IllegalMoveError, match="not a group in sequence and in one suit"):
        game.play("t1:2>t2")
    with pytest.raises(IllegalMoveError, match="has 3 cards, not 5"):
        game.play(MoveCards(None, "tableau:1", "tableau:2", 5))


def test_an_empty_pile_takes_any_card_or_group():
    game = hamilton_position(7, ["QC", "4D JS 10S 9S"])
    moves = texts(game)
    assert {"t0>t2", "t1>t2", "t1:2>t2", "t1:3>t2", "t0>t6"} <= moves
    game.play("t1:3>t2")
    assert game.tableau[2] == cards("JS 10S 9S")


def test_a_group_whose_exposed_card_fits_goes_up_in_one_move():
    game = hamilton_position(7, ["5S 10H 9H 8H"], ["7H"])
    assert {"t0>f0", "t0:2>f0", "t0:3>f0"} <= texts(game)
    record = game.play("t0:3>f0")
    assert [e.card for e in record.events] == cards("8H 9H 10H")     # exposed card first
    assert game.score == 4 and game.tableau[0] == cards("5S")


def test_double_click_sends_all_it_can_from_a_pile():
    game = hamilton_position(7, ["5S 9H 8H", "KD"],
                             ["7H", "7S 8S 9S 10S JS QS KS AS 2S 3S 4S"])
    before = (game.piles(), game.score)
    moves = game.foundation_moves_from("tableau:0")
    assert [game.move_text(m) for m in moves] == ["t0:2>f0", "t0>f1"]
    assert (game.piles(), game.score) == before                    # only a plan
    for move in moves:
        game.play(move)
    assert game.tableau[0] == [] and game.score == 15
    assert game.foundation_moves_from("tableau:1") == []
    assert game.foundation_moves_from("foundation:0") == []
    assert game.foundation_moves_from("stock") == []


# --- the end -----------------------------------------------------------------------
# Deal 159 as the computer player won it.
DEAL_159_MOVES = (
    "t ch>f0 d t5>f1 t5>t0 t6>t4 t6>t3 t6>t5 t6>t1 t6>f1 d t6>f0 t3>f0 d t1:2>f2 t5>f1 "
    "t1:2>t2 t1>t2 t3>t1 t3>t1 t5>t1 t5:2>t2 t5>t6 t1:4>t5 t3>t1 t3>t0 t3:2>f0 t0>f0 t0>t2 "
    "t0>t4 t0:2>f0 t3>t0 t6:2>t3 t6:2>t0 t6>f2 t3:2>f2 t2:6>t3 t2>t6 t2>t5 t2>t5 t2:2>f0 d "
    "t0>f0 t2>f0 t6>f0 t4:2>t5 t4>t1 t4>t2 t4>t6 t4>t1 t4>f2 t3:6>f2 t4>f1 t2>f1 t4>f3 "
    "t5:4>f3 t5:4>f1 t0:4>f1 t6>f3 t5>t1 t5>f3 t5>f2 t1:4>t0 t1>f3 t4>f3 t0:4>f3")
DEAL_159_DECK = ("KH 9H QC QH 9D KS 3S 10S 10C 5C AD 7D JH 9C 4C 4H 10D 10H 6C 6S 4S 2H JD "
                 "9S JS 7C 8S 7H AC 8C QS 4D 8D 6D AH 5H 2D 2S 5D 3C QD 6H 2C 7S AS KC 8H "
                 "3D 3H 5S JC KD")


def test_a_dealt_game_played_to_a_win():
    assert deck_text(Hamilton(seed=159).deck) == DEAL_159_DECK
    game = Hamilton(deck=DEAL_159_DECK)
    for move in DEAL_159_MOVES.split():
        game.play(move)
    assert game.status is Status.WON and game.score == 52
    assert game.status_reason == "all 52 cards are on the foundations"
    assert all(len(f) == 13 for f in game.foundations) and game.legal_moves() == []


@pytest.mark.parametrize("deal, moves, reason", [
    (0, "t t ch>f0 t1>f1 t5>f2 t3>t2 t3>t2 t3>f3 d d t3>f1 d d t0:2>f0 t1>f3 t0>t6 t1>t2 "
        "t1>t6 t0>t1 t0>t3 t2:2>t0 t2>f0",
     "no sequence of moves can put another card on the foundations"),
    (6, "t ch>f0 t0>t1 t2>t0 t2>f1 t3>t2 t3>f2 t6>t2 t6>f2 d t2>f2 t4>f3 d t0>f2 t3>f0 t3>t4 "
        "t3>f3 t3>t2 t1>t3 t1>f0 d d",
     "no moves left"),
])
def test_dead_ends_are_never_silent(deal, moves, reason):
    game = Hamilton(seed=deal)
    texts_ = moves.split()
    for move in texts_[:-1]:
        game.play(move)
    assert game.status is Status.PLAYING and not game.is_dead_end()
    game.play(texts_[-1])
    game.check_dead_end()                        # the search runs apart from play()
    assert game.status is Status.LOST and game.status_reason == reason
    assert game.is_dead_end() and game.dead_end_reason == reason
    assert game.computer_move() is None
    game.undo()                                  # undo is still offered
    assert game.status is Status.PLAYING


def test_a_position_with_only_pointless_moves_is_a_dead_end():
    # stock empty; the 5H can shuttle between the two empty piles, nothing else
    game = hamilton_position(7, ["2C", "", "", "6C 5H"], ["7H 8H 9H 10H JH QH KH AH 2H 3H"],
                             stock="")
    assert game.status is Status.PLAYING
    game.play("t3>t1")
    assert game.check_dead_end() is True
    assert game.status is Status.LOST
    assert game.dead_end_reason == "no sequence of moves can put another card on the foundations"


def test_a_taken_down_card_is_not_a_dead_end():
    game = hamilton_position(7, ["9D"], ["7H 8H"], stock="")
    game.play("f0>t0")
    assert game.check_dead_end() is False
    assert game.status is Status.PLAYING          # it can go back up


def test_save_restart_and_undo():
    game = Hamilton(seed=21)
    for move in ("t", "ch>f1", "d"):
        game.play(move)
    copy = Hamilton.from_json(game.to_json())
    assert copy.piles() == game.piles() and copy.history == ["t", "ch>f1", "d"]
    assert Hamilton.from_start_json(Hamilton(deck=game.deck).start_json()).deck == game.deck
    before = game.piles()
    game.undo()
    game.redo()
    assert game.piles() == before
    game.restart()
    assert game.piles() == Hamilton(seed=21).piles() and game.history == []
    assert game.start_rank is None and game.choices_left == 3


# --- notation ------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("t1>t0", "t1>t0"), ("T1 > T0", "t1>t0"), ("t1-t0", "t1>t0"),
    ("tableau:1>tableau:0", "t1>t0"), ("t1:1>t0", "t1>t0"),
    ("t2:2>t0", "t2:2>t0"), ("tableau:2:2 > tableau:0", "t2:2>t0"),
    ("t2>f0", "t2>f0"), ("tableau:2>foundation:0", "t2>f0"), ("f0>t3", "f0>t3"),
    ("d", "d"), ("deal", "d"), ("s", "d"), ("stock", "d"),
])
def test_notation_is_forgiving(text, expected):
    game = hamilton_position(7, ["10D", "9H", "5S 9D 8D"], ["7D"])
    assert game.move_text(game.parse_move(text)) == expected


def test_stock_click_means_turn_before_the_choice_and_chooser_spellings():
    game = Hamilton(seed=3)
    assert isinstance(game.parse_move("s"), TurnChooser)
    game.play("t")
    for text in ("ch>f2", "CH > F2", "c>f2", "chooser>foundation:2", "chooser-f2"):
        assert game.parse_move(text) == ChooseStart(game.chooser, "foundation:2")


@pytest.mark.parametrize("junk", ["", "x", "t9>t0", "t1>f4", "f0", "t1:x>t0", "ch>t0",
                                  "t1>>t0", "hello", "t1:2"])
def test_junk_notation_is_refused(junk):
    game = hamilton_position(7, ["10D", "9H"])
    with pytest.raises(NotationError):
        game.parse_move(junk)


def test_moves_name_their_piles_cards_and_counts_for_the_ui():
    game = hamilton_position(7, ["10D", "5C 9H 8H"])
    move = game.parse_move("t1:2>t0")
    assert (move.source, move.target, move.card, move.count) == (
        "tableau:1", "tableau:0", Card.parse("9H"), 2)
    deal = game.parse_move("d")
    assert (deal.source, deal.target, deal.count) == ("stock", None, 7)
    assert (TurnChooser(None).source, TurnChooser(None).target) == ("stock", "chooser")
    assert ChooseStart(None, "foundation:1").source == "chooser"


# --- the computer player -------------------------------------------------------------
def test_computer_chooses_a_start_and_prefers_foundation_moves():
    game = Hamilton(seed=5)
    move = game.computer_move()
    assert isinstance(move, TurnChooser)
    while game.start_rank is None:
        game.play(game.computer_move())
    assert game.status is Status.PLAYING
    game = hamilton_position(7, ["5S 10H 9H 8H", "QC"], ["7H"])
    assert game.move_text(game.computer_move()) == "t0:3>f0"


def test_computer_takes_the_third_card():
    game = Hamilton(seed=5)
    for _ in range(3):
        game.play("t")
    assert isinstance(game.computer_move(), ChooseStart)


def test_computer_is_deterministic_and_never_loops():
    for deal in range(6):
        runs = []
        for _ in range(2):
            game, rng = Hamilton(seed=deal), random.Random(deal)
            for _ in range(500):
                move = game.computer_move(rng)
                if move is None:
                    break
                game.play(move)
            game.settle()                        # the dead-end search, apart from play()
            assert game.status is not Status.PLAYING
            runs.append(game.history)
        assert runs[0] == runs[1]


# --- properties -----------------------------------------------------------------------
def snapshot(game):
    return (game.piles(), game.status, game.status_reason, game.score, game.start_rank,
            game.choices_left)


BAD_MOVES = (TurnChooser(None), ChooseStart(None, "foundation:0"), DealRow(None, 3),
             MoveCards(Card.parse("KS"), "tableau:0", "tableau:0", 1),
             MoveCards(Card.parse("AH"), "foundation:0", "tableau:1", 2),
             MoveCards(Card.parse("7D"), "tableau:3", "foundation:1", 9))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(0, 10**6), choices=st.lists(st.integers(0, 10**6), max_size=45))
def test_random_play_keeps_the_invariants(deal, choices):
    game = Hamilton(seed=deal)
    for choice in choices:
        moves = game.legal_moves()
        if not moves:
            break
        for move in moves:            # every legal move round-trips through notation
            assert game.parse_move(game.move_text(move)) == move
        move = moves[choice % len(moves)]
        if isinstance(move, TurnChooser) and game.choices_left == 0 and choice % 4:
            move = moves[0]           # mostly choose rather than lose at once
        before = snapshot(game)
        game.play(move)
        assert game.card_count() == 52
        game.undo()
        assert snapshot(game) == before
        game.redo()
        after = snapshot(game)
        for bad in BAD_MOVES:
            if bad not in game.legal_moves():
                with pytest.raises(IllegalMoveError):
                    game.play(bad)
                assert snapshot(game) == after
