"""One descriptor per game: the engine's (game.GAMES) and the app's
(scenes.games.GAMES) describe the same games, and only the descriptors name one."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import game
from game.camelot.ai import LEVELS as AI_LEVELS
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
        engine = d.info.engine_class()          # the engine class says the same of itself
        assert (engine.game_id, engine.title) == (gid, d.title)


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
    with pytest.raises(ValueError, match="unknown level 'godlike'"):
        check_saved_options("camelot-board", {"mode": "two", "human": "white", "level": "godlike"})
    with pytest.raises(ValueError, match="the players are missing"):
        check_saved_options("camelot-board", {"mode": "two", "human": "white"})
    with pytest.raises(ValueError, match="clock takes no 'level'"):
        check_saved_options("clock", {"level": "easy"})
    with pytest.raises(ValueError, match="unknown game"):
        descriptor("chess")


def test_the_settings_know_the_card_art_s_backs():
    assert CARD_BACKS == tuple(BACK_STYLES)


def test_a_fifth_game_is_an_engine_a_scene_and_a_descriptor(monkeypatch):
    """Register a fifth game (a Clock under another name) the way the docs say:
    the menu shows its tile, it opens, and help and statistics have a page for it."""
    import sys

    from game.clock import Clock
    from scenes.games.clock_descriptor import CLOCK
    from scenes.games.clock_scene import ClockScene
    from scenes.games.descriptor import GameDescriptor
    from scenes.screens.help import HelpScene
    from scenes.screens.menu import MenuScene
    from scenes.screens.navigation import open_game, open_menu
    from scenes.screens.statistics import StatsScene

    from .harness import make_app, step

    info = game.GameInfo("clock-five", "Clock Five", f"{__name__}:FifthEngine")
    monkeypatch.setitem(game.GAMES, info.id, info)
    engine = type("FifthEngine", (Clock,), {"game_id": info.id, "title": info.title})
    scene = type("FifthScene", (ClockScene,), {"engine": engine})
    this = sys.modules[__name__]
    monkeypatch.setattr(this, "FifthEngine", engine, raising=False)
    monkeypatch.setattr(this, "FifthScene", scene, raising=False)
    monkeypatch.setitem(GAMES, info.id, GameDescriptor(
        info=info, scene=f"{__name__}:FifthScene", blurb=("Twelve hours", "once more"),
        emblem=CLOCK.emblem, help=CLOCK.help))

    app = make_app()
    open_menu(app)
    step(app)
    menu = app.scenes.top
    assert isinstance(menu, MenuScene) and menu.tile_ids[-1] == "clock-five"
    assert [t.label for t in menu.tiles][-1] == "Clock Five"
    open_game(app, "clock-five", seed=3)
    step(app, 2)
    shown = app.scenes.top
    assert isinstance(shown, scene) and shown.title == "Clock Five" and shown.has_deals
    shown.open_help()
    step(app)
    assert isinstance(app.scenes.top, HelpScene) and app.scenes.top.game.title == "Clock Five"
    stats = StatsScene(app, "clock-five")
    app.scenes.push(stats)
    step(app)
    assert stats.game_id == "clock-five" and stats.game.title == "Clock Five"
