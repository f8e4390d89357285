"""Issue 24, point 6: what a player who knows Aisleriot and PySolFC noticed in
the patience games, each driven through the real app by posted input: Restart
asks before throwing a game away, a game thrown away after moves counts as
lost, the statistics' bars add up, Clock won with Auto is a win, the hint is
said in words, and Hamilton's win wheel keeps out of the "You won!" dialog."""
import time

import pygame

from game.base import Status
from game.camelot_solitaire import CamelotSolitaire
from game.clock import Clock
from game.hamilton import Hamilton
from scenes.core.overlays import DialogScene
from scenes.games.camelot_solitaire_scene import CamelotSolitaireScene
from scenes.games.clock_scene import ClockScene
from scenes.games.hamilton_scene import HamiltonScene
from scenes.screens.menu import MenuScene
from scenes.screens.statistics import result_bars
from scenes.store.stats import GameStats, load_stats

from .harness import click, key, make_app, settle, step
from .patience_input import open_scene


def _one_move(app, scene):
    key(app, pygame.K_RETURN)                # the focus starts on the stock: turn it
    settle(app, scene)
    assert scene.game.history


def _button(scene, label):
    return next(b for b in scene.toolbar.buttons if b.label == label)


def _choose(app, dialog, label):
    while dialog.focus.buttons[dialog.focus.focus].label != label:
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)


# --- Restart asks first; a game thrown away after moves is a loss ------------------------
def test_restart_asks_before_throwing_a_game_away_and_the_game_then_counts_as_lost():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=7), seed=7)
    app.stats.games.clear()
    key(app, pygame.K_r)                     # nothing played yet: no question, nothing counted
    settle(app, scene)
    assert app.scenes.top is scene and app.stats.game("hamilton").played == 0
    _one_move(app, scene)
    for ask in (lambda: key(app, pygame.K_r), lambda: click(app, _button(scene, "Restart").rect.center)):
        ask()
        dialog = app.scenes.top
        assert isinstance(dialog, DialogScene) and dialog.title == "Restart?"
        assert any("will be lost and counted as lost" in line for line in dialog.lines)
        key(app, pygame.K_RETURN)            # the focus is on "Keep playing"
        assert app.scenes.top is scene and scene.game.history
        assert app.stats.game("hamilton").played == 0
    key(app, pygame.K_r)
    _choose(app, app.scenes.top, "Restart")
    settle(app, scene)
    assert app.scenes.top is scene and not scene.game.history and scene.seed == 7
    record = app.stats.game("hamilton")
    assert (record.played, record.won, record.lost, record.abandoned) == (1, 0, 1, 1)
    assert load_stats()[0].game("hamilton").abandoned == 1      # kept in the file


def test_the_pause_menus_restart_asks_too():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=7), seed=7)
    _one_move(app, scene)
    key(app, pygame.K_p)
    _choose(app, app.scenes.top, "Restart")
    assert isinstance(app.scenes.top, DialogScene) and app.scenes.top.title == "Restart?"


def test_a_new_deal_after_moves_counts_as_lost_and_one_before_counts_nothing():
    app, scene = open_scene(CamelotSolitaireScene, CamelotSolitaire(seed=3), seed=3)
    app.stats.games.clear()
    key(app, pygame.K_n)                     # no move yet
    settle(app, scene)
    assert app.stats.game("camelot-solitaire").played == 0
    _one_move(app, scene)
    key(app, pygame.K_n)
    assert any("counted as lost" in line for line in app.scenes.top.lines)
    _choose(app, app.scenes.top, "Deal again")
    settle(app, scene)
    record = app.stats.game("camelot-solitaire")
    assert (record.played, record.lost, record.abandoned) == (1, 1, 1)
    assert record.history[-1] == {**record.history[-1], "won": False, "abandoned": True}


def test_leaving_for_the_main_menu_after_moves_counts_as_lost_but_quitting_keeps_the_game():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=7), seed=7)
    app.stats.games.clear()
    _one_move(app, scene)
    app.save_game_in_progress()              # what quitting does: kept for the next launch
    assert app.stats.game("hamilton").played == 0
    key(app, pygame.K_p)
    _choose(app, app.scenes.top, "Main menu")
    step(app, 2)
    assert isinstance(app.scenes.top, MenuScene)
    assert (app.stats.game("hamilton").played, app.stats.game("hamilton").abandoned) == (1, 1)


# --- the statistics' bars add up ------------------------------------------------------
def test_the_won_and_lost_bars_add_up_to_the_games_played():
    g = GameStats()
    for won, assisted in [(True, False), (True, True), (True, True), (False, False)]:
        g.record(won, assisted=assisted)
    g.record(False, abandoned=True)
    bars = result_bars(g)
    assert [(name, count) for name, count, _ in bars] == [("Won", 1), ("With help", 2), ("Lost", 2)]
    assert sum(count for _, count, _ in bars) == g.played == 5
    plain = GameStats()
    plain.record(True)
    plain.record(False)
    assert [name for name, _, _ in result_bars(plain)] == ["Won", "Lost"]


def test_a_file_whose_abandoned_games_outnumber_its_games_is_damaged():
    import pytest

    from scenes.store.files import DamagedFileError
    with pytest.raises(DamagedFileError):
        GameStats.from_json({"played": 1, "won": 1, "abandoned": 1})


# --- Clock has no choices: Auto is no help ---------------------------------------------
def test_a_clock_won_with_auto_is_a_win():
    app = make_app(speed="instant")
    app.stats.games.clear()
    scene = ClockScene(app, seed=8, game=Clock(seed=8))      # seed 8 comes out
    app.scenes.reset(scene)
    settle(app, scene)
    key(app, pygame.K_a)
    assert scene.autoplay
    for _ in range(3000):
        if scene.game.status is not Status.PLAYING:
            break
        step(app, 5)
    assert scene.game.status is Status.WON
    settle(app, scene)
    step(app, 3)                             # the end is shown: into the statistics
    record = app.stats.game("clock")
    assert (record.played, record.won, record.assisted) == (1, 1, 0)


# --- the hint, said in words --------------------------------------------------------
def _toasts(app):
    return [text for text, _ in app._toasts]


def _near(colour, wanted) -> bool:
    return sum(abs(a - b) for a, b in zip(colour, wanted)) < 60


def _hint(app, scene):
    """H, and the hinted move once the solver or the computer player answers."""
    key(app, pygame.K_h)
    for _ in range(600):
        if scene.hint_move is not None:
            break
        step(app)
    return scene.hint_move


def test_the_clock_hint_is_said_in_words():
    app, scene = open_scene(ClockScene, Clock(seed=8), seed=8)
    key(app, pygame.K_h)
    card = scene.game.piles()["centre"][-1][0]
    assert scene.hint_move is not None
    assert any(t.startswith(f"Hint: put the {card.name} on the ") and "o'clock" in t
               for t in _toasts(app)), _toasts(app)


def test_the_camelot_hint_names_the_card_and_the_place():
    app, scene = open_scene(CamelotSolitaireScene, CamelotSolitaire(seed=3), seed=3)
    move = _hint(app, scene)
    assert move is not None
    said = [t for t in _toasts(app) if t.startswith("Hint: ")]
    assert said == [f"Hint: {scene.move_words(move)}"]
    assert said[0] == "Hint: turn the stock"            # nothing is on the table yet
    key(app, pygame.K_RETURN)
    settle(app, scene)
    _hint(app, scene)
    card = scene.game.waste
    text = f"Hint: {scene.move_words(scene.hint_move)}"
    assert text.startswith(f"Hint: place the {card.name} in the ") and "cell" not in text
    assert text in _toasts(app)


# --- Hamilton's win wheel keeps out of the dialog ---------------------------------------
def test_the_hamilton_win_wheel_goes_round_the_you_won_dialog():
    from .patience_input import play_line
    from .test_hamilton_scene import WIN_28
    app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28)
    play_line(app, scene, WIN_28, hows=("click",))
    settle(app, scene)
    assert scene.game.status is Status.WON
    step(app, 200)                           # the celebration, then the dialog
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene) and dialog.title == "You won!"
    for _ in range(3):                       # the wheel turns: every moment of it
        step(app, 20)
        inside = [c for c in scene.table.sprites
                  if scene.table.card_rect(c).colliderect(dialog.panel_rect)]
        assert not inside, f"{len(inside)} cards under the dialog"


def test_every_clock_move_can_be_said_in_words_the_kings_too():
    from game.clock import CENTRE, ClockMove, hour_pile
    app, scene = open_scene(ClockScene, Clock(seed=8), seed=8)
    king = next(card for card in Clock(seed=8).deck if card.rank == 13)
    assert scene.move_words(ClockMove(king, CENTRE)) == \
        f"put the {king.name} on the kings' pile in the middle"
    words = {scene.move_words(ClockMove(king, hour_pile(hour))) for hour in range(1, 13)}
    assert len(words) == 12 and all("o'clock" in w for w in words)


def test_the_hint_is_drawn_as_thick_rings_and_an_arrow_from_the_cards_to_their_place():
    from scenes.core.ui import HINT
    app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28)
    for move in ("t", "ch>f0", "d"):                  # the start card chosen, a row dealt
        scene.play(scene.game.parse_move(move))
    settle(app, scene)
    for _ in range(3000):                             # the hint from the solver's line
        if scene.solver_result() is not None:
            break
        step(app)
        time.sleep(0.002)
    click(app, _button(scene, "Hint").rect.center)   # by mouse: no keyboard focus ring on top
    for _ in range(600):
        if scene.hint_move is not None:
            break
        step(app)
    move = scene.hint_move
    assert move is not None and move.target.startswith("tableau:")
    step(app)
    screen = pygame.display.get_surface()
    source = scene._sel_rect(move.source, len(scene._piles[move.source]) - move.count)
    target = scene.table.top_rect(move.target)
    for k in (0.45, 0.5, 0.55):                       # the arrow's shaft, between the two
        x = source.centerx + (target.centerx - source.centerx) * k
        y = source.centery + (target.centery - source.centery) * k
        assert _near(tuple(screen.get_at((int(x), int(y))))[:3], HINT)
    # the target's ring, across its top edge: at least twice as thick as the
    # ordinary rings (3 px at this size) that glow round the legal targets
    ring = max(4, int(8 * scene.scale))
    column = [tuple(screen.get_at((target.centerx, y)))[:3]
              for y in range(target.top - 3 * ring, target.top + ring)]
    near = [p for p in column if _near(p, HINT)]
    assert len(near) >= 2 * max(2, int(3 * scene.scale)), column
