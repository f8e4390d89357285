"""Property (issue 11): arbitrary text into every parser — deal numbers, decks,
cards, the notation of each game, the board game's position strings and move
records — gives a clean result or one of the engine's own errors
(RoundTableError), never anything else; arbitrary JSON into ``from_json``
gives a game or a BadSaveError."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.base import Game
from game.camelot_solitaire import CamelotSolitaire
from game.cards import Card, check_seed, parse_deck
from game.clock import Clock
from game.errors import BadSaveError, RoundTableError
from game.hamilton import Hamilton
from game.parsing import parse_deal_list, parse_float, parse_int

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text a hostile user would type: any unicode, with digits of every script,
# ASCII notation characters and long runs mixed in.
NOTATION_BITS = st.sampled_from(["t", "c", "w", ">", "+", ":", "-", "f", "d", "ch", "x", "@",
                                 "s", "10h", "7H", "KS", "C", " ", "²", "①", "١", "９", "9" * 50,
                                 "nan", "inf", "e", ".", "/", "0"])
HOSTILE = st.one_of(st.text(max_size=80),
                    st.lists(NOTATION_BITS, max_size=12).map("".join),
                    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), max_size=30))


def only_our_errors(parse, text) -> None:
    try:
        parse(text)
    except RoundTableError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
    # anything else propagates and fails the test


def games_to_ask() -> list[Game]:
    """Each patience game fresh and part-way through (other moves parse there)."""
    camelot, hamilton, clock = CamelotSolitaire(seed=2), Hamilton(seed=2), Clock(seed=2)
    for move in ("t", "w>c5", "t", "w>c6"):
        camelot.play(move)
    for move in ("t", "ch>f0", "d"):
        hamilton.play(move)
    clock.play(clock.legal_moves()[0])
    return [CamelotSolitaire(seed=1), camelot, Hamilton(seed=1), hamilton, Clock(seed=1), clock]


GAMES = games_to_ask()


@FAST
@given(text=HOSTILE)
def test_numbers_deals_decks_and_cards(text):
    only_our_errors(check_seed, text)
    only_our_errors(lambda t: parse_int(t, "n", 0, 99), text)
    only_our_errors(lambda t: parse_float(t, "s", 0, 99, low_open=True), text)
    only_our_errors(parse_deck, text)
    only_our_errors(Card.parse, text)
    assert all(0 <= d for d in parse_deal_list(text))


@FAST
@given(text=HOSTILE)
def test_the_notation_of_each_patience(text):
    for game in GAMES:
        before = (game.piles(), game.history)
        only_our_errors(game.parse_move, text)
        only_our_errors(game.play, text)
        if game.history != before[1]:            # a legal move after all: take it back
            game.undo()
        assert (game.piles(), game.history) == before
        assert isinstance(game.why_illegal(text), str)


@FAST
@given(move=st.one_of(st.none(), st.integers(), st.floats(), st.binary(max_size=8),
                      st.lists(st.text(max_size=3), max_size=3),
                      st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)))
def test_anything_not_a_move_given_to_play(move):
    for game in GAMES:
        only_our_errors(game.play, move)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
SAVE_KEYS = st.fixed_dictionaries({"version": st.one_of(st.just(1), JSON),
                                   "game": st.sampled_from(["clock", "hamilton",
                                                            "camelot-solitaire", "x"]),
                                   "start": st.one_of(st.fixed_dictionaries({"seed": JSON}),
                                                      st.fixed_dictionaries({"deck": JSON}), JSON),
                                   "moves": st.one_of(st.lists(HOSTILE, max_size=4), JSON)})


@FAST
@given(data=st.one_of(JSON, SAVE_KEYS))
def test_arbitrary_json_as_a_save(data):
    for cls in (Clock, Hamilton, CamelotSolitaire):
        try:
            cls.from_json(data)
        except BadSaveError as exc:
            assert "\n" not in str(exc)


# --- the board game: its own parse functions (game/camelot/board.py, camelot_position.py) --
BOARD = pytest.importorskip("game.camelot.board")
POSITION = pytest.importorskip("game.camelot.position")
BOARD_BITS = st.sampled_from(["2", "8", "10", "12", "/", "m", "n", "M", "N", " w ", " b ", " 2",
                              " 0", " -", "²", "①", "١", "9" * 30, "E9", "-", "x", "F7", "1."])
BOARD_TEXT = st.one_of(HOSTILE, st.lists(BOARD_BITS, max_size=30).map("".join))
START = ("2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2")


@FAST
@given(text=BOARD_TEXT)
def test_board_move_notation_and_records(text):
    only_our_errors(BOARD.parse_path_text, text)
    only_our_errors(BOARD.parse_game_record, text)
    only_our_errors(BOARD.CamelotBoard().parse_move, text)
    record = pytest.importorskip("game.camelot.record")
    only_our_errors(record.parse, text)


@settings(max_examples=300, deadline=None, database=None)
@given(head=st.sampled_from(["", "²", "9" * 5000, "١"]), tail=st.sampled_from(["", " - ²", " - 9" + "9" * 5000]))
def test_board_position_strings(head, tail):
    only_our_errors(POSITION.Position.from_text, head + START + tail)
