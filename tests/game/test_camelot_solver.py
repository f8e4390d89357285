"""The Camelot (patience) solver: answers checked by replaying through the engine."""
from __future__ import annotations

import itertools

import pytest

from game.base import Status
from game.camelot_solitaire import CamelotSolitaire
from game.camelot_solver import solve
from game.cards import FULL_DECK, Card, deck_text
from game.cli import main
from game.solver_common import NOT_WINNABLE, UNKNOWN, WINNABLE

# Pictures first, then the numbers in fours of two pairs each (the engine tests' win).
WIN_DECK = ("KC QC QD KD JC JD JH JS KH QH QS KS "
            "AC 9C AD 9D AH 9H AS 9S 2C 8C 2D 8D 2H 8H 2S 8S 3C 7C 3D 7D 3H 7H 3S 7S "
            "4C 6C 4D 6D 4H 6H 4S 6S 5C 5D 5H 5S 10C 10D 10H 10S")


def deck_starting(first: str) -> str:
    top = [Card.parse(w) for w in first.split()]
    return deck_text(top + [c for c in FULL_DECK if c not in top])


# The first 16 cards are aces to fours: the grid fills with no ten and no pair.
NO_PAIR_DECK = deck_starting("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S")
# Five pictures of one kind cannot come in the first fill... but four kings and
# then numbers that never pair before a fifth border picture: the queens come
# after twelve numbers with no pair among them, filling every cell but the corners.
QUEEN_DECK = deck_starting("KC KD KH KS AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S QC")


def replay(game: CamelotSolitaire, line) -> CamelotSolitaire:
    for move in line:
        assert game.status is Status.PLAYING
        game.play(move)                   # raises on an illegal move
    return game


@pytest.mark.parametrize("start", [{"deck": WIN_DECK}, {"seed": 1}, {"seed": 2}, {"seed": 4}])
def test_winnable_deals_are_solved_and_the_line_wins(start):
    result = solve(CamelotSolitaire(**start))
    assert result.answer == WINNABLE and result.line
    assert replay(CamelotSolitaire(**start), result.line).status is Status.WON


@pytest.mark.parametrize("deck", [NO_PAIR_DECK, QUEEN_DECK])
def test_lost_decks_are_not_winnable(deck):
    result = solve(deck)
    assert result.answer == NOT_WINNABLE and result.line == ()


def test_deal_numbers_and_deck_text_are_accepted():
    assert solve(1).answer == solve(deck_text(CamelotSolitaire(seed=1).deck)).answer == WINNABLE


@pytest.mark.parametrize("moves", [0, 1, 2, 17, 25])
def test_solving_from_the_current_position(moves):
    # part of a winning line, then solve from there: waste pending or not,
    # filling or removing — the answer's line goes on to a win
    game = CamelotSolitaire(seed=1)
    first = solve(1).line
    replay(game, first[:moves])
    result = solve(game)
    assert result.answer == WINNABLE
    assert replay(game, result.line).status is Status.WON
    assert len(game.history) == moves + len(result.line)


def test_a_finished_game_needs_no_search():
    game = replay(CamelotSolitaire(seed=1), solve(1).line)
    assert solve(game).answer == WINNABLE and solve(game).line == ()
    lost = CamelotSolitaire(deck=NO_PAIR_DECK)
    for cell in range(16):
        lost.play("t")
        lost.play(f"w>c{cell}")
    assert lost.status is Status.LOST and solve(lost).answer == NOT_WINNABLE


def test_unknown_when_the_limit_is_tiny():
    result = solve(11, max_states=5)
    assert result.answer == UNKNOWN and result.reason == "states" and result.line == ()
    assert not result.decided


def test_a_stop_request_ends_the_search():
    result = solve(226, max_states=None, stop=lambda: True)   # a deal of many states
    assert result.answer == UNKNOWN and result.reason == "stopped"


def test_every_reported_line_replays_legally():
    for seed in range(1, 16):
        result = solve(seed, max_states=3_000)
        if result.answer == WINNABLE:
            assert replay(CamelotSolitaire(seed=seed), result.line).status is Status.WON


def test_cli_solve(capsys):
    assert main(["solve", "camelot-solitaire", "--seed", "1", "--json"]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    assert out["answer"] == WINNABLE and out["seed"] == 1
    assert main(["play", "camelot-solitaire", "--seed", "1", "--moves", " ".join(out["line"]),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "won"
    assert main(["solve", "camelot-solitaire", "--deck", NO_PAIR_DECK]) == 0
    assert "not winnable" in capsys.readouterr().out
    assert main(["solve", "camelot-solitaire", "--seed", "x"]) == 2
    assert main(["solve", "camelot-solitaire", "--deck", "AS 2S"]) == 2
    assert main(["solve", "camelot-board"]) == 2
    assert main(["solve", "nope", "--seed", "1"]) == 2
    assert main(["solve", "camelot-solitaire", "--seed", "1", "--max-states", "0"]) == 2


def test_restarts_share_failures_and_keep_answers_exact(monkeypatch):
    # The search restarts with other move orderings, keeping the states proven
    # lost (a removal tried only from a point on is remembered with that point).
    # Many tiny restarts must give the same answers as one uninterrupted search.
    import game.camelot_solver as cs
    deals = range(1, 31)
    monkeypatch.setattr(cs, "FIRST_SHARE", 10**9)
    single = [cs.solve(d, max_states=None).answer for d in deals]
    monkeypatch.setattr(cs, "FIRST_SHARE", 3)
    for d, answer in zip(deals, single):
        result = cs.solve(d, max_states=None)
        assert result.answer == answer != UNKNOWN
        if answer == WINNABLE:
            assert replay(CamelotSolitaire(seed=d), result.line).status is Status.WON


# Corners hold four 4s, and no 6 comes before the first king: lost, though
# the kind-blind relaxation (a king taking any free cell) gets through.
CORNER_DECK = deck_starting("4C 4D 4H 4S QC QD QH QS JC JD JH JS AC 9C 2C 8C 3C 7C KC "
                             "6C 6D 6H 6S KD 9D AD 9H AH 5C 5D 10C")
CORNER_MOVES = [m for cell in (0, 3, 12, 15, 1, 2, 13, 14, 4, 7, 8, 11, 5, 6, 9, 10)
                for m in ("t", f"w>c{cell}")]


def test_the_relaxation_keeping_one_kind_proves_a_loss_the_kind_blind_one_cannot():
    import game.camelot_solver as cs
    from game.solver_common import Budget
    game = replay(CamelotSolitaire(deck=CORNER_DECK), CORNER_MOVES)
    assert game.phase == "removing" and game.status is Status.PLAYING
    stock = [card.rank for card, _ in reversed(game.piles()["stock"])]
    cells = [min(c.rank, 11) for c in game.cells]
    search = cs._Search(stock, Budget())
    counts = [0] * 11
    for v in cells:
        if v <= 10:
            counts[v] += 1
    assert search.relaxed(0, tuple(counts))                  # kind-blind: no proof
    assert not search.kind_ok(cells, 0, cs.SINGLE)          # the corners' kind: lost
    assert search.kind_ok(cells, 0, ((1,), (2,)))            # the other kinds: no proof
    result = solve(game)
    assert result.answer == NOT_WINNABLE and result.states < 50


@pytest.mark.parametrize("stages, step", [((0,), 1), ((1,), 1), ((2,), 1), ((3,), 1), ((3,), 0)])
def test_every_stage_of_pruning_gives_the_same_answers(monkeypatch, stages, step):
    # each stage adds relaxations (one kind kept, two kinds kept within one
    # removal round, two kinds kept to a growing horizon or to the end):
    # proofs only, so the answers never change — and every line still
    # replays to a win
    import game.camelot_solver as cs
    monkeypatch.setattr(cs, "STAGES", stages)
    monkeypatch.setattr(cs, "HORIZON_STEP", step)
    lost = {5, 7, 10, 14, 16, 18, 19}         # the answers of the first solver
    for deal in range(1, 21):
        result = cs.solve(deal, max_states=None)
        assert result.answer == (NOT_WINNABLE if deal in lost else WINNABLE)
        if result.answer == WINNABLE:
            assert replay(CamelotSolitaire(seed=deal), result.line).status is Status.WON


def test_a_kind_game_asks_the_kind_blind_game_first(monkeypatch):
    # Corners 1 1 2 10, the other twelve cells aces to fours, then a 4: the
    # only removal is the ten, and after the 4 takes its cell no pair is left.
    # The kind-blind game sees it at once: the kind game (corners kept) is
    # lost too, and with the check none of its removal rounds is enumerated.
    import game.camelot_solver as cs
    from game.solver_common import Budget
    vals, rest = ((1, 1, 2, 10),), (0, 1, 3, 4, 4, 0, 0, 0, 0, 0, 0)
    counts = (0, 3, 4, 4, 4, 0, 0, 0, 0, 0, 1)
    for blind in (True, False):
        monkeypatch.setattr(cs, "BLIND_IN_KIND", blind)
        search = cs._Search([4, 13, 6, 6], Budget())
        assert not search.relaxed(0, counts)
        assert not search.kind_full((0,), 0, vals, rest)
        assert (len(search.kind_memo) == 1) == blind


def test_the_pool_takes_are_every_balancing_take():
    # every way to take counts from the pool so that, with the kept kinds'
    # removal (its signature), tens go alone, v pairs with 10 - v, fives pair
    import game.camelot_solver as cs
    rest = (0, 2, 1, 0, 1, 3, 1, 0, 2, 1, 2)
    for kept in [(), (1,), (9, 9), (5,), (1, 5, 6), (3, 7)]:
        sig = next(s for s, left, n in cs._removals_from(tuple(sorted(kept)))
                   if n == len(kept))
        got = sorted(cs._pool_removals(rest, sig))
        want = []
        for take in itertools.product(*(range(c + 1) for c in rest)):
            t = [a + kept.count(v) for v, a in enumerate(take)]
            if (all(t[v] == t[10 - v] for v in range(1, 5)) and t[5] % 2 == 0):
                want.append((tuple(c - a for c, a in zip(rest, take)), sum(take)))
        assert got == sorted(want)


LOST_AMONG_1_TO_20 = {5, 7, 10, 14, 16, 18, 19}


def check_deals_1_to_20(solver) -> None:
    """The known answers of deals 1–20, every winning line replayed to a win."""
    for deal in range(1, 21):
        result = solver(deal, max_states=None)
        assert result.answer == (NOT_WINNABLE if deal in LOST_AMONG_1_TO_20 else WINNABLE)
        if result.answer == WINNABLE:
            assert replay(CamelotSolitaire(seed=deal), result.line).status is Status.WON


@pytest.mark.parametrize("flags", [(False, False), (True, False), (False, True)])
def test_the_extra_checks_keep_the_answers(monkeypatch, flags):
    # the kind-blind game inside the kind games, the one-kind games before
    # every fill: proofs only — the answers and replayable lines stay
    import game.camelot_solver as cs
    monkeypatch.setattr(cs, "BLIND_IN_KIND", flags[0])
    monkeypatch.setattr(cs, "KIND_FILL", flags[1])
    monkeypatch.setattr(cs, "STAGES", (2, 3))
    check_deals_1_to_20(cs.solve)


@pytest.mark.parametrize("fit", [False, True])
def test_the_fit_orderings_keep_the_answers(monkeypatch, fit):
    # "fit" orders the cells for a number card by when its mate can come and
    # when each cell is needed, and the removals by the cells they free: only
    # the order of trying changes, so the answers stay, lines still replay
    import game.camelot_solver as cs
    monkeypatch.setattr(cs, "FIT_REMOVALS", fit)
    monkeypatch.setattr(cs, "ORDERS", (("fit", False), ("fit", True)))
    check_deals_1_to_20(cs.solve)


def test_the_fit_ordering_finds_a_hard_win_at_once():
    # deal 3734 took the earlier orderings some 13,000 states
    result = solve(3734, max_states=3_000)
    assert result.answer == WINNABLE
    assert replay(CamelotSolitaire(seed=3734), result.line).status is Status.WON
