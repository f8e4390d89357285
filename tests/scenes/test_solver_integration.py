"""The background solver in the patience scenes: winnable-only deals, the
"still winnable?" indicator in the HUD and solver hints. Headless; every wait
is bounded by frames and wall-clock time, so nothing can hang."""
import time

import pygame
import pytest

from game.camelot_solitaire import CamelotSolitaire
from game.camelot_solver import solve as solve_camelot
from game.hamilton import Hamilton
from scenes.games.camelot_solitaire_scene import CamelotSolitaireScene
from scenes.games.hamilton_scene import HamiltonScene
from scenes.table.patience_scene import PatienceScene
from scenes.store.settings import Settings
from scenes.work.deals import cached_winnable_deals

from .harness import key, make_app, settle, step
from .patience_input import open_scene

# Deal 1 is proven winnable; after these moves of its winning line, placing the
# waste card on cell 12 leaves it unwinnable (found with the solver).
DEAL1_PREFIX = ("t", "w>c4", "t", "w>c0", "t", "w>c1", "t", "w>c3", "t", "w>c2", "t", "w>c12",
                "t", "w>c13", "t", "w>c14", "t", "w>c7", "t", "w>c8", "t", "w>c5", "t", "w>c15", "t")
DEAL1_LOSING = "w>c11"


@pytest.fixture(autouse=True)
def tracked_scenes(monkeypatch):
    """Every scene's solver request is cancelled after the test."""
    scenes = []
    original = PatienceScene.__init__

    def tracked(self, *args, **kwargs):
        original(self, *args, **kwargs)
        scenes.append(self)

    monkeypatch.setattr(PatienceScene, "__init__", tracked)
    yield
    for scene in scenes:
        scene.stop_solver()


def wait_for(app, scene, done, seconds=20.0):
    """Step frames until ``done()``, for at most ``seconds`` of wall-clock time."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        step(app)
        if done():
            return
        time.sleep(0.005)
    raise AssertionError(f"gave up waiting; the HUD says {scene.status_line()!r}")


def answered(scene):
    return lambda: scene.solver_result() is not None


def camelot(seed=1):
    return open_scene(CamelotSolitaireScene, CamelotSolitaire(seed=seed), seed=seed)


def play_text(app, scene, texts):
    for text in texts:
        assert scene.play(scene.game.parse_move(text)) is not None, text
        settle(app, scene)


# --- winnable-only deals ------------------------------------------------------------
def test_the_setting_is_validated_and_defaults_on():
    assert Settings().winnable_only is True and Settings().winnable_indicator is True
    Settings(winnable_only=False, winnable_indicator=False).validate()
    with pytest.raises(ValueError):
        Settings(winnable_only="yes").validate()
    with pytest.raises(ValueError):
        Settings(winnable_indicator=1).validate()


def test_the_settings_scene_toggles_winnable_only_and_says_what_it_means():
    from scenes.screens.settings import SettingsScene
    app = make_app()
    scene = SettingsScene(app)
    app.scenes.reset(scene)
    step(app)
    row = next(b for b in scene.rows if b.label.startswith("Deals:"))
    assert row.label == "Deals: Winnable only"
    while scene.rows[scene.focus.focus] is not row:
        key(app, pygame.K_DOWN)
    assert "solver has proved can be won" in scene.description()
    key(app, pygame.K_RETURN)
    assert not app.settings.winnable_only and row.label == "Deals: Any"
    assert scene.description().startswith("Any: every deal")


@pytest.mark.parametrize("scene_class", [CamelotSolitaireScene, HamiltonScene])
def test_winnable_only_deals_come_from_the_cache(scene_class):
    cache = set(cached_winnable_deals(scene_class.game_id))
    assert cache
    app = make_app()
    app.settings.winnable_only = True
    scene = scene_class(app)
    app.scenes.reset(scene)
    assert scene.seed in cache
    seeds = set()
    for _ in range(8):
        scene.new_deal()
        seeds.add(scene.seed)
    assert seeds <= cache and len(seeds) > 1
    scene.new_deal(7777)                  # an explicit deal is played as asked
    assert scene.seed == 7777


def test_any_deal_when_the_setting_is_off():
    app = make_app()
    app.settings.winnable_only = False
    scene = CamelotSolitaireScene(app, seed=3)
    app.scenes.reset(scene)
    cache = set(cached_winnable_deals("camelot-solitaire"))
    seeds = set()
    for _ in range(30):
        scene.new_deal()
        seeds.add(scene.seed)
    assert not seeds <= cache


# --- the indicator --------------------------------------------------------------
def test_deal_1_is_winnable_then_a_bad_move_says_so():
    app, scene = camelot(1)
    wait_for(app, scene, answered(scene))
    assert scene.solver_status() == "Winnable"
    assert scene.status_line().endswith("Winnable")
    play_text(app, scene, DEAL1_PREFIX)
    assert scene.solver_status() == "Winnable"   # on the winning line all the way
    play_text(app, scene, [DEAL1_LOSING])
    assert scene.solver_status() in ("Thinking…", "No longer winnable")
    wait_for(app, scene, answered(scene))
    assert scene.solver_status() == "No longer winnable"
    assert "No longer winnable" in scene.status_line()
    scene.undo()
    settle(app, scene)
    wait_for(app, scene, answered(scene))
    assert scene.solver_status() == "Winnable"


def test_a_deal_that_never_was_winnable_says_not_winnable():
    assert 5 not in cached_winnable_deals("camelot-solitaire")
    app, scene = camelot(5)
    wait_for(app, scene, answered(scene))
    assert scene.solver_status() == "Not winnable"     # not "No longer": no move was made
    key(app, pygame.K_RETURN)                           # the focus is on the stock: turn
    settle(app, scene)
    wait_for(app, scene, answered(scene))
    assert scene.solver_status() == "Not winnable"


def test_the_indicator_can_be_switched_off_in_settings():
    from scenes.screens.settings import SettingsScene
    app, scene = camelot(1)
    wait_for(app, scene, answered(scene))
    assert scene.status_line().endswith("Winnable")
    settings = SettingsScene(app)
    app.scenes.push(settings)
    step(app)
    while not settings.rows[settings.focus.focus].label.startswith("Winnable indicator"):
        key(app, pygame.K_DOWN)
    assert settings.rows[settings.focus.focus].label == "Winnable indicator: On"
    key(app, pygame.K_RETURN)
    assert app.settings.winnable_indicator is False
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is scene
    assert "innable" not in scene.status_line() and scene.solver_status() == ""


def test_a_new_move_asks_again_and_the_old_answer_is_not_shown():
    app, scene = camelot(1)
    wait_for(app, scene, answered(scene))
    old = scene.solver_result()
    play_text(app, scene, ["t", "w>c8"])          # off the solver's line (it says w>c4)
    assert scene.solver_result() is not old
    wait_for(app, scene, answered(scene))
    assert scene.solver_status() in ("Winnable", "No longer winnable", "Unknown")


def test_leaving_the_scene_shuts_the_solver_down():
    app, scene = camelot(1)
    wait_for(app, scene, lambda: scene._solver is not None)
    channel = scene._solver
    scene.leave()
    assert scene._solver is None and not channel.busy


# --- solver hints -----------------------------------------------------------------
def test_the_hint_is_the_solvers_first_move():
    app, scene = camelot(1)
    wait_for(app, scene, answered(scene))
    line = scene.solver_result().line
    scene.hint()
    assert scene.hint_move == scene.game.parse_move(line[0])
    direct = solve_camelot(CamelotSolitaire.from_json(scene.game.to_json()), max_seconds=5)
    assert direct.winnable and scene.hint_move == scene.game.parse_move(direct.line[0])
    scene.play(scene.hint_move)                  # following the hint: still winnable, at once
    settle(app, scene)
    assert scene.solver_status() == "Winnable"
    scene.hint()
    assert scene.hint_move == scene.game.parse_move(line[1])


def test_a_lost_cause_says_so_and_still_hints():
    app, scene = camelot(1)
    play_text(app, scene, DEAL1_PREFIX + (DEAL1_LOSING,))
    wait_for(app, scene, answered(scene))
    assert scene.solver_status() == "No longer winnable"
    scene.hint()
    assert any(t[0] == "This deal can no longer be won" for t in app._toasts)
    wait_for(app, scene, lambda: scene.hint_move is not None, seconds=10)


def test_demo_deals_a_proven_deal_and_follows_the_solvers_line_to_a_win():
    app, scene = open_scene(CamelotSolitaireScene, CamelotSolitaire(seed=1), seed=1, demo=True)
    assert scene.solver_status() == ""          # no indicator in a demo
    wait_for(app, scene, answered(scene))
    line = list(scene.solver_result().line)
    wait_for(app, scene, lambda: len(scene.game.history) >= 6, seconds=60)
    assert scene.game.history[:6] == line[:6]   # the demo plays the winning line
    scene.new_deal()
    assert scene.seed in cached_winnable_deals("camelot-solitaire")


# --- Hamilton ---------------------------------------------------------------------
def test_hamilton_shows_the_answer_and_hints_the_solvers_move():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=2), seed=2)
    wait_for(app, scene, answered(scene), seconds=30)
    assert scene.solver_status() == "Winnable"
    assert "Winnable" in scene.status_line()
    line = scene.solver_result().line
    scene.hint()
    assert scene.hint_move == scene.game.parse_move(line[0])
    scene.play(scene.hint_move)
    settle(app, scene)
    assert scene.solver_status() == "Winnable"
