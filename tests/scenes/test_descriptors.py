"""One descriptor per game: the engine's (game.GAMES) and the app's
(scenes.games.GAMES) describe the same games, and only the descriptors name one."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import game
from game.camelot_ai import LEVELS as AI_LEVELS
from game.solver_common import solver_for
from scenes.games import GAMES, check_saved_options, descriptor
from scenes.store.settings import CARD_BACKS
from scenes.table.card_art import BACK_STYLES

SCENES = Path(__file__).resolve().parents[2] / "scenes"


def test_game_ids_are_named_only_in_the_descriptors():
    """What `grep -rn '"clock"\\|"hamilton"\\|…' scenes/` finds: descriptor modules only."""
    ids = "|".join(re.escape(f'"{gid}"') for gid in game.GAME_IDS)
    found = {str(p.relative_to(SCENES.parent)) for p in SCENES.rglob("*.py")
             if re.search(ids, p.read_text(encoding="utf-8"))}
    assert found == {f"scenes/games/{gid.replace('-', '_')}_descriptor.py" for gid in game.GAME_IDS}


def test_every_engine_game_has_one_descriptor_in_the_menu_order():
    assert list(GAMES) == list(game.GAME_IDS)
    for gid, d in GAMES.items():
        assert d.id == gid and d.info is game.GAMES[gid] and d.title == game.title(gid)


@pytest.mark.parametrize("game_id", game.GAME_IDS)
def test_a_descriptor_names_its_scene_and_the_scene_its_engine(game_id):
    d = GAMES[game_id]
    scene = d.scene_class()
    assert scene.engine is d.info.engine_class()
    assert (scene.game_id, scene.title, scene.has_deals) == (game_id, d.title, d.info.dealt)
    assert len(d.blurb) == 2 and callable(d.emblem) and callable(d.help.diagram)


def test_the_engine_descriptor_names_the_solvers_and_levels_the_engine_has():
    for gid, info in game.GAMES.items():
        if info.solver:
            assert callable(solver_for(gid))
        else:
            with pytest.raises(ValueError, match="no solver"):
                solver_for(gid)
    assert game.GAMES["camelot-board"].levels == tuple(AI_LEVELS)


def test_saved_options_are_checked_by_the_game_s_descriptor():
    check_saved_options("clock", {})
    check_saved_options("camelot-board", {"mode": "two", "human": "white", "level": "easy"})
    with pytest.raises(ValueError, match="the players are missing"):
        check_saved_options("camelot-board", {"mode": "two", "human": "white", "level": "expert"})
    with pytest.raises(ValueError, match="unknown game"):
        descriptor("chess")


def test_the_settings_know_the_card_art_s_backs():
    assert CARD_BACKS == tuple(BACK_STYLES)
