"""Clock: every clause of docs/rules-solitaires.md, from explicit deck orders."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from game.base import CardFlipped, CardMoved, Status
from game.cards import Card, deck_for_seed
from game.clock import CENTRE, Clock, ClockMove, hour_pile, play_out
from game.errors import BadDeckError, BadSaveError, IllegalMoveError, NotationError

C = Card.parse


def deck_where(centre: list[str], piles: dict[int, list[str]] | None = None) -> str:
    """A deck order whose centre (bottom → top) and some piles (bottom → top) are
    given; the other cards fill the remaining places in a fixed order."""
    piles = piles or {}
    used = set(centre) | {c for cards in piles.values() for c in cards}
    rest = iter([c.code for c in deck_for_seed(0) if c.code not in used])
    order = []
    for i in range(48):
        hour, depth = i % 12 + 1, i // 12
        given_pile = piles.get(hour)
        order.append(given_pile[depth] if given_pile else next(rest))
    return " ".join(order + centre)


def test_deal_order_clock_rounds_then_centre():
    deck = deck_for_seed(11)
    game = Clock(deck=deck)
    piles = game.piles()
    for hour in range(1, 13):
        # The first card dealt to a pile lies at its bottom; all face down.
        assert piles[hour_pile(hour)] == [(deck[hour - 1 + 12 * r], False) for r in range(4)]
    assert [c for c, _ in piles[CENTRE]] == deck[48:]
    assert [up for _, up in piles[CENTRE]] == [False, False, False, True]
    assert game.centre_card == deck[51]


def test_the_move_puts_centre_card_on_its_pile_and_brings_up_the_bottom():
    game = Clock(deck=deck_where(["2C", "3C", "4C", "7H"], {7: ["9S", "8S", "6S", "5S"]}))
    moves = game.legal_moves()
    assert moves == [ClockMove(C("7H"), hour_pile(7))]
    record = game.play("7H-7")
    piles = game.piles()
    assert [c.code for c, _ in piles["clock:7"]] == ["8S", "6S", "5S", "7H"]
    assert piles["clock:7"][-1] == (C("7H"), True)
    assert piles[CENTRE][-1] == (C("9S"), True)
    assert record.events == (CardMoved(C("7H"), CENTRE, "clock:7", True),
                             CardMoved(C("9S"), "clock:7", CENTRE, True),
                             CardFlipped(C("9S"), CENTRE, True))
    assert game.centre_card == C("9S")


def test_queen_and_jack_and_ace_go_to_twelve_eleven_one():
    for code, hour in (("QD", 12), ("JD", 11), ("AD", 1), ("10D", 10)):
        game = Clock(deck=deck_where(["2C", "3C", "4C", code]))
        assert game.legal_moves() == [ClockMove(C(code), hour_pile(hour))]


def test_king_stays_in_centre_and_centre_bottom_comes_up():
    game = Clock(deck=deck_where(["2C", "3C", "4C", "KH"]))
    assert game.legal_moves() == [ClockMove(C("KH"), CENTRE)]
    game.play("KH-C")
    centre = game.piles()[CENTRE]
    assert centre == [(C("3C"), False), (C("4C"), False), (C("KH"), True), (C("2C"), True)]
    assert game.kings_up == 1


def test_wrong_pile_is_illegal_and_changes_nothing():
    game = Clock(seed=4)
    before = game.piles()
    card = game.centre_card
    wrong = hour_pile(1 if card.rank != 1 else 2)
    with pytest.raises(IllegalMoveError, match="not to"):
        game.play(ClockMove(card, wrong))
    assert game.piles() == before and not game.can_undo


def test_game_ends_when_the_fourth_king_comes_up():
    # Centre: three kings under an ace; the ace's pile hides the fourth king.
    game = Clock(deck=deck_where(["KC", "KD", "KH", "AS"], {1: ["KS", "2S", "3S", "4S"]}))
    game.play("AS-1")
    assert game.kings_up == 1 and game.status is Status.PLAYING  # KS up; three still buried
    for _ in range(3):
        game.play(game.legal_moves()[0])
    assert game.kings_up == 4
    assert game.status is Status.LOST
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        game.play(ClockMove(game.centre_card, CENTRE))


def test_score_counts_home_cards_face_down_too():
    # Deal so that pile 5 holds four fives face down: they count at once.
    game = Clock(deck=deck_where(["2C", "3C", "4C", "7H"], {5: ["5C", "5D", "5H", "5S"]}))
    assert game.score >= 4
    homes = sum(1 for h in range(1, 13) for c, _ in game.piles()[hour_pile(h)] if c.rank == h)
    assert game.score == homes


def test_a_won_game_scores_48():
    won = next(s for s in range(200) if play_out(Clock(seed=s)).status is Status.WON)
    game = play_out(Clock(seed=won))
    assert game.score == 48 and game.status_reason.startswith("every card is home")


def test_a_lost_game_says_how_many_were_not_home():
    lost = next(s for s in range(200) if play_out(Clock(seed=s)).status is Status.LOST)
    game = play_out(Clock(seed=lost))
    assert game.score < 48
    assert f"{48 - game.score} card" in game.status_reason


def test_win_rate_matches_theory_for_all_face_up():
    # The classic all-face-up win has probability exactly 1/13 (a known result);
    # a check that the deal and the move are right, over 1,300 deals.
    wins = 0
    for seed in range(1300):
        game = play_out(Clock(seed=seed))
        wins += all(up for pile in game.piles().values() for _, up in pile)
    assert 60 <= wins <= 140


@pytest.mark.parametrize("text,expected", [
    ("7H-7", ClockMove(C("7H"), "clock:7")), ("7h", ClockMove(C("7H"), "clock:7")),
    ("KS-C", ClockMove(C("KS"), CENTRE)), ("ks", ClockMove(C("KS"), CENTRE)),
    ("10D-3", ClockMove(C("10D"), "clock:3")),
])
def test_notation_parses(text, expected):
    assert Clock(seed=1).parse_move(text) == expected


@pytest.mark.parametrize("text", ["", "7H-13", "7H-0", "XX", "7H-7-7", "-7"])
def test_bad_notation(text):
    with pytest.raises(NotationError):
        Clock(seed=1).parse_move(text)


def test_start_needs_exactly_one_of_seed_and_deck():
    with pytest.raises(BadDeckError):
        Clock()
    with pytest.raises(BadDeckError):
        Clock(seed=1, deck=deck_for_seed(1))
    with pytest.raises(BadDeckError, match="52"):
        Clock(deck="AS KS")


def test_json_round_trip_and_damage():
    game = Clock(seed=9)
    for _ in range(10):
        game.play(game.legal_moves()[0])
    data = json.loads(json.dumps(game.to_json()))
    again = Clock.from_json(data)
    assert again.piles() == game.piles() and again.history == game.history
    data["moves"][3] = "QS-5"
    with pytest.raises(BadSaveError):
        Clock.from_json(data)
    with pytest.raises(BadSaveError, match="version"):
        Clock.from_json({**game.to_json(), "version": 99})


def test_restart_replays_the_same_deal():
    game = Clock(seed=3)
    start = game.piles()
    for _ in range(5):
        game.play(game.legal_moves()[0])
    game.restart()
    assert game.piles() == start and not game.can_undo


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 60))
def test_property_cards_conserved_and_undo_restores(seed, steps):
    game = Clock(seed=seed)
    snapshots = [game.piles()]
    for _ in range(steps):
        if game.status is not Status.PLAYING:
            break
        game.play(game.legal_moves()[0])
        snapshots.append(game.piles())
        assert game.card_count() == 52
        assert sorted(c for p in game.piles().values() for c, _ in p) == sorted(deck_for_seed(seed))
    redo_target = game.piles()
    while game.can_undo:
        snapshots.pop()
        game.undo()
        assert game.piles() == snapshots[-1]
    while game.can_redo:
        game.redo()
    assert game.piles() == redo_target


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), hour=st.integers(1, 12))
def test_property_illegal_targets_rejected_unchanged(seed, hour):
    game = Clock(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(20)):
        if game.status is not Status.PLAYING:   # some deals bring the fourth king early
            break
        game.play(game.legal_moves()[0])
    move = ClockMove(game.centre_card, hour_pile(hour))
    before = (game.piles(), game.history)
    if move in game.legal_moves():
        assert game.play(move).notation == game.history[-1]
    else:
        with pytest.raises(IllegalMoveError):
            game.play(move)
        assert (game.piles(), game.history) == before
    for m in game.legal_moves():
        assert game.parse_move(game.move_text(m)) == m
