"""What every card game's scene must do, run across the card games: a known
deal is won by every kind of input, the layout fits every screen,
undo/redo/restart/new deal by keys and gamepad, the demo plays and any key
leaves it, a finished demo deals again, and the table's piles are the engine's.
Each game's own behaviour is in its own test file."""
from __future__ import annotations

import time

import pygame
import pytest

from game.base import Status
from game.camelot_solitaire import CamelotSolitaire
from game.cards import Card
from game.hamilton import Hamilton
from scenes.games import GAMES
from scenes.screens.menu import MenuScene
from scenes.screens.navigation import open_game

from .harness import key, make_app, pad, settle, step
from .patience_input import open_scene, over_dialog, perform, play_line
from .test_camelot_solitaire_scene import WIN_DECK
from .test_hamilton_scene import WIN_28

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]


def hint_and_click(app, scene, n: int) -> None:
    """Camelot: the hint shows a move, the player clicks it; ``n`` times."""
    for _ in range(n):
        key(app, pygame.K_h)
        move = scene.hint_move
        assert move is not None
        perform(app, scene, move, "click")
        settle(app, scene)


def space(app, scene, n: int) -> None:
    """Clock: SPACE plays the centre card; ``n`` times."""
    for _ in range(n):
        key(app, pygame.K_SPACE)
        settle(app, scene)


class Case:
    """How each game is set up for the shared tests."""

    def __init__(self, game_id, layout_seed, layout_moves, undo_seed, play_three, demo_seed,
                 demo_moves, leave_demo, demo_check=None, extra_sizes=()) -> None:
        self.game_id, self.layout_seed, self.layout_moves = game_id, layout_seed, layout_moves
        self.undo_seed, self.play_three = undo_seed, play_three
        self.demo_seed, self.demo_moves, self.leave_demo = demo_seed, demo_moves, leave_demo
        self.demo_check = demo_check or (lambda scene: True)
        self.sizes = SIZES + list(extra_sizes)

    def start(self, seed, size=(1280, 720), demo=False):
        return open_scene(GAMES[self.game_id].scene_class(), None, size=size, seed=seed, demo=demo)


CASES = {case.game_id: case for case in (
    Case("camelot-solitaire", 3, lambda app, scene: None, 11, lambda app, scene: hint_and_click(app, scene, 3),
         demo_seed=3, demo_moves=4, leave_demo=lambda app: pad(app, pygame.CONTROLLER_BUTTON_X)),
    Case("hamilton", 28, lambda app, scene: play_line(app, scene, WIN_28[:4], hows=("click",)), 28,
         lambda app, scene: play_line(app, scene, WIN_28[:6], hows=("drag", "pad")),
         demo_seed=28, demo_moves=6, leave_demo=lambda app: key(app, pygame.K_x),
         demo_check=lambda scene: scene.game.start_rank is not None),
    Case("clock", 3, lambda app, scene: None, 3, lambda app, scene: space(app, scene, 3),
         demo_seed=3, demo_moves=1, leave_demo=lambda app: key(app, pygame.K_x),
         extra_sizes=[(1024, 768)]),
)}
LAYOUTS = [(gid, size) for gid, case in CASES.items() for size in case.sizes]


@pytest.mark.parametrize("game_id,size", LAYOUTS)
def test_layout_fits_and_piles_do_not_overlap(game_id, size):
    case = CASES[game_id]
    app, scene = case.start(case.layout_seed, size=size)
    case.layout_moves(app, scene)
    screen = pygame.Rect((0, 0), size)
    rects = {pile: scene.table.slot_rect(pile) for pile in scene.table.slots}
    for pile, rect in rects.items():
        assert screen.contains(rect), f"{pile} off screen at {size}"
        assert rect.top >= scene.hud_h
    piles = list(rects)
    for i, a in enumerate(piles):
        for b in piles[i + 1:]:
            assert not rects[a].colliderect(rects[b]), f"{a} overlaps {b} at {size}"
    for button in scene.toolbar.buttons:
        assert screen.contains(button.rect)
        assert not any(button.rect.colliderect(r) for r in rects.values())


@pytest.mark.parametrize("game_id", list(CASES))
def test_undo_redo_restart_new_deal_from_keys_and_pad(game_id):
    case = CASES[game_id]
    seed = case.undo_seed
    app, scene = case.start(seed)
    case.play_three(app, scene)
    played = list(scene.game.history)
    after = scene.game.piles()
    pad(app, pygame.CONTROLLER_BUTTON_Y)                  # undo
    settle(app, scene)
    assert scene.game.history == played[:-1]
    key(app, pygame.K_z, pygame.KMOD_CTRL)                # undo
    settle(app, scene)
    assert scene.game.history == played[:-2]
    key(app, pygame.K_u)                                  # undo
    settle(app, scene)
    assert scene.game.history == played[:-3]
    key(app, pygame.K_y, pygame.KMOD_CTRL)                # redo
    pad(app, pygame.CONTROLLER_BUTTON_LEFTSHOULDER)       # redo
    key(app, pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)   # redo
    settle(app, scene)
    assert scene.game.piles() == after
    assert {s.card for s in scene.table.sprites.values()} == {
        c for cards in after.values() for c, _ in cards}
    for pile, cards in after.items():                     # every card back where it belongs
        for i, (card, _) in enumerate(cards):
            assert scene.table.card_rect(card).topleft == tuple(
                int(v) for v in scene.table.card_pos(pile, i, cards))
    key(app, pygame.K_r)                                  # restart: asked first (moves were made)
    assert app.scenes.top.title == "Restart?"
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)                             # "Restart"
    settle(app, scene)
    assert scene.game.history == [] and scene.seed == seed
    key(app, pygame.K_n)
    settle(app, scene)
    assert scene.seed != seed and scene.game.history == []


@pytest.mark.parametrize("game_id", list(CASES))
def test_demo_plays_and_any_key_returns_to_menu(game_id):
    case = CASES[game_id]
    app = make_app()
    open_game(app, game_id, seed=case.demo_seed, demo=True)
    scene = app.scenes.top
    waited = time.monotonic()       # the computer may think off the frame loop
    while len(scene.game.history) < case.demo_moves and time.monotonic() - waited < 60:
        step(app)
        time.sleep(0.002)
    assert len(scene.game.history) >= case.demo_moves, "the demo made too few moves"
    assert case.demo_check(scene)
    case.leave_demo(app)
    assert isinstance(app.scenes.top, MenuScene)


@pytest.mark.parametrize("game_id,seed", [("camelot-solitaire", 4), ("clock", 3)])
def test_a_finished_demo_deals_again(game_id, seed):
    case = CASES[game_id]
    app, scene = case.start(seed, demo=True)
    game = type(scene.game)(seed=seed)
    while game.status is Status.PLAYING:
        game.play(game.computer_move())
    scene.game = game
    scene.show_state()
    step(app, 60 * 5)
    assert scene.seed != seed and app.scenes.top is scene


@pytest.mark.parametrize("game_id", list(CASES))
def test_the_tables_piles_are_the_engines_and_its_cards_are_cards(game_id):
    app, scene = CASES[game_id].start(3)
    assert set(scene.table.slots) == set(scene.game.piles())
    assert scene.table.sprites and all(isinstance(c, Card) for c in scene.table.sprites)


def first_moves_line(game) -> list[str]:
    """The line the engine's first legal move at every turn plays, to the end."""
    while game.status is Status.PLAYING:
        game.play(game.legal_moves()[0])
    return list(game.history)


WINS = {
    "camelot-solitaire": (lambda: CamelotSolitaire(deck=WIN_DECK),
                          lambda: first_moves_line(CamelotSolitaire(deck=WIN_DECK)),
                          lambda scene, dialog: scene.game.score == 40
                          and len(scene.table.sprites) == 12),   # the removed cards flew off
    "hamilton": (lambda: Hamilton(seed=28), lambda: WIN_28,
                 lambda scene, dialog: scene.game.score == 52 and scene.score_line() == "Score 52 / 52"
                 and "All 52 cards are on the foundations." in dialog.lines),
}


@pytest.mark.parametrize("game_id", list(WINS))
def test_a_known_deal_is_won_by_every_kind_of_input(game_id):
    """Drag, click, keys and pad in turn, each move checked to be played."""
    new_game, line, won = WINS[game_id]
    app, scene = open_scene(GAMES[game_id].scene_class(), new_game())
    play_line(app, scene, line())
    assert scene.game.status is Status.WON
    dialog = over_dialog(app)
    assert dialog.title == "You won!" and scene.table.celebrating and won(scene, dialog)


def _background_alone(scene, screen, topleft, block) -> bool:
    """``block`` (kept at ``topleft``) is the scene's background drawn there alone."""
    alone = pygame.Surface(screen.get_size(), 0, screen)
    area = pygame.Rect(topleft, block.get_size())
    alone.set_clip(area)
    scene.draw_background(alone)
    return pygame.image.tobytes(block, "RGB") == pygame.image.tobytes(alone.subsurface(area), "RGB")


def _blocks_under_busy_areas(scene, screen) -> set:
    from scenes.table.game_scene import BLOCK
    return {(bx * BLOCK, by * BLOCK) for area in scene.busy_areas()
            for area in [area.clip(screen.get_rect())] if area.w and area.h
            for by in range(area.top // BLOCK, (area.bottom - 1) // BLOCK + 1)
            for bx in range(area.left // BLOCK, (area.right - 1) // BLOCK + 1)}


@pytest.mark.parametrize("game_id", ["camelot-solitaire", "hamilton", "clock"])
def test_a_whole_repaint_keeps_the_background_where_things_move_first(game_id):
    """Painted whole (a game opening) with the spare blocks the menu made, the
    screen's background is kept in them under the cards and their piles, so a
    deal does not draw it again; each kept block is the background drawn there
    alone, and no new block was made for it."""
    from scenes.table import painted_scene
    from scenes.table.game_scene import BLOCKS_KEPT, GameScene
    app = make_app((1920, 1080))
    painted_scene.prepare_spare_blocks()
    spares = {id(block) for block in painted_scene._spare_blocks}
    open_game(app, game_id, seed=7)
    step(app)
    scene, = [s for s in app.scenes.scenes if isinstance(s, GameScene)]
    kept = scene._blocks
    under = _blocks_under_busy_areas(scene, app.screen)
    assert under and (under <= set(kept) or len(kept) == BLOCKS_KEPT)
    assert all(id(block.get_parent() or block) in spares for block in kept.values())
    for topleft, block in list(kept.items())[:6]:
        assert _background_alone(scene, app.screen, topleft, block)


@pytest.mark.parametrize("game_id", ["camelot-solitaire", "clock"])
def test_with_no_spare_blocks_a_game_opens_without_new_ones_and_keeps_them_as_it_repaints(game_id):
    """Opened before the menu made its spares (at once, or from the command
    line), the first frame makes no block (fresh memory costs its page faults
    there); the deal's repaints keep them, each the background drawn alone."""
    from scenes.table import painted_scene
    from scenes.table.game_scene import GameScene
    app = make_app((1920, 1080))
    painted_scene._spare_blocks.clear()
    open_game(app, game_id, seed=7)
    step(app)
    scene, = [s for s in app.scenes.scenes if isinstance(s, GameScene)]
    assert scene._blocks == {}
    step(app, 40)                       # the deal moves cards over the table
    kept = scene._blocks
    assert kept and set(kept) & _blocks_under_busy_areas(scene, app.screen)
    for topleft, block in list(kept.items())[:6]:
        assert _background_alone(scene, app.screen, topleft, block)


@pytest.mark.parametrize("game_id", list(CASES))
def test_the_animation_speed_is_read_from_the_setting_as_it_changes(game_id):
    """Changed in Settings mid-game, the speed holds for the next move at once:
    the table reads the setting, it keeps no copy of it."""
    app, scene = CASES[game_id].start(CASES[game_id].undo_seed)
    for name in ("slow", "fast", "normal"):
        app.settings.animation_speed = name
        assert scene.table.speed == app.settings.speed_factor
