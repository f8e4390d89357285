"""bench/ladder.py on a tiny round robin: three anchors, one opening pair each."""
from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import ladder  # noqa: E402


def test_schedule_plays_each_pairing_twice_with_the_colours_swapped():
    openings = [["F7-F8"], ["G7-G8"], ["H7-H8"]]
    games = ladder.schedule(["random", "plain2", "easy"], 1, openings)
    assert len(games) == 6
    for first, second in zip(games[::2], games[1::2]):
        assert (first[0], first[1]) == (second[1], second[0]) and first[2] == second[2]
    assert {tuple(g[2]) for g in games} == {("F7-F8",), ("G7-G8",), ("H7-H8",)}


def test_tiny_ladder_rates_every_player_from_its_games(capsys, tmp_path):
    summary = ladder.run(ladder.parser().parse_args(
        ["--players", "random,plain2,easy", "--pairs", "1", "--jobs", "1", "--cap", "40",
         "--time-scale", "0.25", "--minutes", "5"]))
    assert summary["games"] == 6
    table = {r.name: r for r in summary["table"]}
    assert table["random"].elo == 0.0 and table["random"].error == 0.0
    assert all(r.games == 4 for r in table.values())
    assert sum(r.points for r in table.values()) == 6
    assert all(math.isfinite(r.elo) and r.error > 0 for n, r in table.items() if n != "random")
    # The fitted order follows the points (one virtual draw a pairing cannot reorder them).
    by_points = sorted(table.values(), key=lambda r: -r.points)
    assert [r.elo for r in by_points] == sorted((r.elo for r in by_points), reverse=True)
    out = capsys.readouterr().out
    assert "| rank | player | Elo | ± 95 % | games | points |" in out
    assert "random mover" in out and "anchor" in out
    # The printed games are a record: a later run rates them again (--add),
    # here with no game of its own (its one pairing skipped).
    log = tmp_path / "ladder.txt"
    log.write_text(out, encoding="utf-8")
    again = ladder.run(ladder.parser().parse_args(
        ["--players", "random,plain2", "--skip", "plain2-random", "--add", str(log),
         "--minutes", "1"]))
    assert again["games"] == 0
    assert [(r.name, round(r.elo, 6), r.games, r.points) for r in again["table"]] == \
        [(r.name, round(r.elo, 6), r.games, r.points) for r in summary["table"]]


def test_bad_player_is_one_clear_error(capsys):
    import pytest
    with pytest.raises(SystemExit) as exit_:
        ladder.main(["--players", "random,grandmaster"])
    assert exit_.value.code == 2
    assert "unknown player 'grandmaster'" in capsys.readouterr().err
