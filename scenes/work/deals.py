"""Deal numbers proven winnable (no pygame).

``winnable_deal(game_id, rng)`` gives a deal number proven winnable, from the
cache lists in ``data/`` (written by ``tools/winnable_deals.py``), else by
solving random deals until one is proven winnable.
"""
from __future__ import annotations

import random

from game.parsing import read_deal_list
from game.solver_common import WINNABLE, solver_for

from ..store.files import shipped

__all__ = ["winnable_deal", "cached_winnable_deals"]

DATA_DIR = shipped("data")


def cached_winnable_deals(game_id: str) -> list[int]:
    """Deal numbers proven winnable, from ``data/winnable-GAME.txt`` ([] if none)."""
    return read_deal_list(DATA_DIR / f"winnable-{game_id}.txt")   # bounded, ASCII digits only


def winnable_deal(game_id: str, rng: random.Random | None = None,
                  max_seconds: float = 5.0, tries: int = 50) -> int:
    """A deal number proven winnable: from the cache list, else found by solving
    random deals (each within ``max_seconds``). Falls back to an unproven random
    deal only if ``tries`` deals gave no proof."""
    rng = rng or random.Random()
    cached = cached_winnable_deals(game_id)
    if cached:
        return rng.choice(cached)
    solve = solver_for(game_id)
    seed = rng.randrange(1, 1_000_000)
    for _ in range(tries):
        if solve(seed, max_seconds=max_seconds).answer == WINNABLE:
            return seed
        seed = rng.randrange(1, 1_000_000)
    return seed
