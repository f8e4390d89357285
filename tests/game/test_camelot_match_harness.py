"""The match harness of bench/sprt.py and the statistics of bench/rating.py:
figures worked out by hand, and a tiny real match (one pair, depth-limited)."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import rating  # noqa: E402
from engine_match import (  # noqa: E402
    ROOT, EngineProcess, Limit, extract_tree, load_openings, play_game)

OLD_COMMIT = "130f0c3"


def test_pentanomial_elo_by_hand():
    # Pairs scoring 0, 1/4, 1/2, 3/4, 1 of the points: 1, 2, 3, 3, 1.
    # mean = (0 + 2·.25 + 3·.5 + 3·.75 + 1) / 10 = .525
    # variance = (.525² + 2·.275² + 3·.025² + 3·.225² + .475²) / 10 = .080625
    # half interval = 1.96 · sqrt(.080625 / 10) = .17599 -> shares .34901 … .70099
    est = rating.pentanomial_elo([1, 2, 3, 3, 1])
    assert est.pairs == 10
    assert est.score == pytest.approx(0.525)
    assert est.elo == pytest.approx(-400 * math.log10(1 / 0.525 - 1))   # 17.39
    assert est.elo == pytest.approx(17.39, abs=0.01)
    assert est.low == pytest.approx(-108.29, abs=0.01)
    assert est.high == pytest.approx(148.01, abs=0.01)


def test_sprt_bounds_by_hand():
    low, high = rating.sprt_bounds(0.05, 0.05)
    assert (low, high) == pytest.approx((-math.log(19), math.log(19)))   # ±2.944
    low, high = rating.sprt_bounds(0.05, 0.10)
    assert (low, high) == pytest.approx((math.log(0.10 / 0.95), math.log(0.90 / 0.05)))


def test_llr_of_two_point_results_by_hand():
    # Only whole pairs won (6) or lost (4): the maximum-likelihood distribution
    # with mean s is then (1 − s, s), and the LLR is
    # 10 · (.6 · log(s1/s0) + .4 · log((1 − s1)/(1 − s0))), s0 = .5, s1 = share of +10 Elo.
    s1 = 1 / (1 + 10 ** (-10 / 400))
    by_hand = 10 * (0.6 * math.log(s1 / 0.5) + 0.4 * math.log((1 - s1) / 0.5))
    assert by_hand == pytest.approx(0.05342, abs=1e-5)
    assert rating.gsprt_llr([4, 0, 0, 0, 6], 0, 10) == pytest.approx(by_hand, rel=2e-3)


def test_llr_agrees_with_the_closed_form_approximation_and_has_the_right_sign():
    counts = [10, 40, 100, 60, 20]   # +30 Elo or so
    exact = rating.gsprt_llr(counts, 0, 10)
    assert exact == pytest.approx(rating.gsprt_llr_approx(counts, 0, 10), rel=0.02)
    assert exact > 0
    assert rating.gsprt_llr(counts[::-1], 0, 10) < 0      # the mirror result: for H0
    assert rating.gsprt_llr(counts, 5, 5) == pytest.approx(0.0, abs=1e-9)


def test_ratings_of_two_players_by_hand():
    # 7 of 10 points, plus one virtual draw: 7.5 of 11; the maximum-likelihood
    # difference is 400·log10(7.5 / 3.5) = 132.4 Elo.
    table = rating.fit_ratings(["a", "b"], {("a", "b"): (7.0, 10)}, anchor="b")
    by_name = {r.name: r for r in table}
    assert by_name["b"].elo == 0.0 and by_name["b"].error == 0.0
    assert by_name["a"].elo == pytest.approx(400 * math.log10(7.5 / 3.5), abs=0.01)
    # Error: 1.96 / sqrt(11·p·(1 − p)) natural units, p = 7.5/11.
    p = 7.5 / 11
    assert by_name["a"].error == pytest.approx(
        1.959964 / math.sqrt(11 * p * (1 - p)) * 400 / math.log(10), rel=1e-4)
    assert by_name["a"].games == 10 and by_name["a"].points == 7.0


def test_ratings_order_players_and_keep_a_clean_sweep_finite():
    results = {("strong", "middle"): (9.0, 10), ("middle", "weak"): (10.0, 10),
               ("strong", "weak"): (10.0, 10)}
    table = rating.fit_ratings(["weak", "middle", "strong"], results, anchor="weak")
    assert [r.name for r in table] == ["strong", "middle", "weak"]
    assert all(math.isfinite(r.elo) and math.isfinite(r.error) for r in table)
    assert table[0].elo > table[1].elo + 100


def test_opening_suite_is_legal_and_varied():
    openings = load_openings()
    assert len(openings) >= 32
    assert len({tuple(o) for o in openings}) == len(openings)
    assert all(2 <= len(o) <= 4 for o in openings)


def test_extending_the_suite_keeps_its_openings_first_and_adds_new_positions(tmp_path):
    import camelot_openings
    from game.camelot.board import CamelotBoard
    suite = tmp_path / "suite.txt"
    old = (ROOT / "data" / "camelot-openings.txt").read_text(encoding="utf-8").splitlines()
    header = [line for line in old[:8] if line.startswith("#")]
    kept = [line for line in old if not line.startswith("#")][:3]
    suite.write_text("\n".join(header + kept) + "\n", encoding="utf-8")
    assert camelot_openings.main(["--count", "5", "--nodes", "150", "--margin", "100000",
                                  "--seed", "7", "--jobs", "1", "--extend",
                                  "--out", str(suite)]) == 0
    lines = suite.read_text(encoding="utf-8").splitlines()
    assert lines[:len(header)] == header and "Extended to 5" in lines[len(header)]
    body = [line for line in lines if not line.startswith("#")]
    assert body[:3] == kept and len(body) == 5
    positions = set()
    for moves in load_openings(suite):
        game = CamelotBoard()
        for text in moves:
            game.play(text)
        positions.add(game.position_text())
    assert len(positions) == 5   # no new opening repeats a kept one


def test_a_game_at_the_ply_cap_is_a_draw():
    class First:
        def best_move(self, moves):
            from game.camelot.board import CamelotBoard
            game = CamelotBoard()
            for m in moves:
                game.play(m)
            return str(sorted(game.legal_moves(), key=str)[0]), {}
    result = play_game(First(), First(), [], cap=6)
    assert (result.white_points, result.plies, result.reason) == (0.5, 6, "ply cap 6")


def test_a_player_that_fails_loses():
    class Broken:
        def best_move(self, moves):
            return "A1-A2", {}
    result = play_game(Broken(), Broken(), [])
    assert result.white_points == 0.0 and "white failed" in result.reason


def test_tiny_sprt_match_of_a_commit_against_itself(capsys):
    import sprt
    # The same version on both sides, depth-limited: each game is the same
    # engine against itself, so the two games of the pair are one game with the
    # colours swapped and the pair scores exactly 1 of 2 points.
    summary = sprt.run(sprt.parser().parse_args(
        ["--base", "HEAD", "--test", "HEAD", "--depth", "1", "--max-pairs", "1",
         "--jobs", "1", "--cap", "40", "--minutes", "3"]))
    assert summary["counts"] == [0, 0, 1, 0, 0]
    assert summary["won"] + summary["drawn"] + summary["lost"] == 2
    assert summary["won"] == summary["lost"]
    assert summary["llr"] == pytest.approx(rating.gsprt_llr([0, 0, 1, 0, 0], 0, 10))
    out = capsys.readouterr().out
    assert "LLR bounds (-2.944, 2.944)" in out and "pentanomial" in out and "Elo" in out


def test_a_match_is_continued_from_an_opening_with_earlier_counts(capsys):
    import sprt
    summary = sprt.run(sprt.parser().parse_args(
        ["--base", "HEAD", "--test", "HEAD", "--depth", "1", "--max-pairs", "1",
         "--jobs", "1", "--cap", "40", "--minutes", "3", "--from-opening", "3",
         "--resume", "2,0,1,0,0"]))
    # The earlier two lost pairs and one even pair, and this run's even pair.
    assert summary["counts"] == [2, 0, 2, 0, 0]
    assert summary["won"] + summary["drawn"] + summary["lost"] == 2
    assert summary["llr"] == pytest.approx(rating.gsprt_llr([2, 0, 2, 0, 0], 0, 10))
    third = " ".join(sprt.load_openings()[2])
    out = capsys.readouterr().out
    assert f"pair   1 ({third})" in out and "games in this run 2" in out


def test_resume_counts_are_checked():
    import sprt
    for bad in ("1,2,3", "a,b,c,d,e", "1,0,0,0,-1"):
        with pytest.raises(SystemExit):
            sprt.parser().parse_args(["--base", "HEAD", "--depth", "1", "--resume", bad])


def test_an_old_commit_keeps_to_a_node_limit_through_the_shim(tmp_path):
    have = subprocess.run(["git", "cat-file", "-e", f"{OLD_COMMIT}^{{commit}}"], cwd=ROOT)
    if have.returncode != 0:
        pytest.skip(f"commit {OLD_COMMIT} is not in this clone")
    tree = extract_tree(OLD_COMMIT, tmp_path)
    engine = EngineProcess(tree, Limit(nodes=300))
    try:
        assert not engine.native
        move, info = engine.best_move([])
    finally:
        engine.close()
    assert move.count("-") >= 1
    assert 0 < info["nodes"] <= 300


def test_a_sides_extra_go_words_override_the_common_limit():
    # Two settings of one version (sprt.py --test-go): the protocol reads the
    # last value given, so the side's own words must come after the limit's.
    from game.camelot.engine import Engine
    line = Limit(seconds=0.2).go(True, "level expert movetime 1000")
    assert line == "go movetime 200 level expert movetime 1000"
    seen = []
    engine = Engine(out=None)
    engine._think = lambda *args: seen.append(args)   # what go would search with
    engine.go(line.split()[1:])
    engine.wait()
    level, depth, seconds = seen[0][:3]
    assert (level, seconds) == ("expert", 1.0)
