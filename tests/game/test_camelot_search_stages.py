"""The search tries the table's move, the knights' charges and the killers
before it lists every move (game/camelot/search.py, ``negamax``); that only
saves work: the moves are searched in the order the full list would have
given them, so a fixed-depth search finds the same move, score and node count
with the stages as without them.
"""
from __future__ import annotations

import pytest

from game.camelot import search as search_module
from game.camelot.position import Position
from game.camelot.search import Search

from .test_camelot_movekeys import play_randomly


def positions() -> list[str]:
    """Quiet and tactical middlegame positions from random games."""
    found = []
    for seed in (3, 8, 21):
        for ply, pos in enumerate(play_randomly(seed, 40, 0.5)):
            if ply in (14, 26, 38):
                found.append(pos.text())
    return found


def fixed_depth(text: str, depth: int, ceiling: int, monkeypatch) -> tuple:
    """The search's move, score, depth and nodes, and how often it listed every
    move; ``ceiling`` 0 stages no node."""
    monkeypatch.setattr(search_module, "HISTORY_CEILING", ceiling)
    listings = []
    real_moves = Position.moves

    def counted(self, want_paths=False):
        listings.append(1)
        return real_moves(self, want_paths)

    pos = Position.from_text(text)
    keys = sorted(pos.moves(), key=lambda k: (-len(k[2]), k[0], k[1], sorted(k[2])))
    search = Search(pos)
    monkeypatch.setattr(Position, "moves", counted)
    try:
        done = search.run(keys, depth)
    finally:
        monkeypatch.setattr(Position, "moves", real_moves)
    return (done.best, done.score, done.depth, search.nodes), len(listings)


TEXTS = positions()
CEILING = search_module.HISTORY_CEILING


@pytest.mark.parametrize("text", TEXTS)
def test_the_stages_change_nothing_but_the_listing(text, monkeypatch):
    staged, staged_listings = fixed_depth(text, 4, CEILING, monkeypatch)
    whole, listings = fixed_depth(text, 4, 0, monkeypatch)
    assert staged == whole
    assert staged_listings <= listings


def test_the_stages_save_listings(monkeypatch):
    saved = sum(fixed_depth(text, 4, 0, monkeypatch)[1]
                - fixed_depth(text, 4, CEILING, monkeypatch)[1]
                for text in TEXTS[:3])
    assert saved > 0
