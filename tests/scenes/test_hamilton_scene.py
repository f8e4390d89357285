"""Hamilton played through input actions: mouse, keyboard, gamepad."""
import time

import pygame
import pytest

from game.base import Status
from game.hamilton import Hamilton
from scenes.games.hamilton_scene import HamiltonScene
from scenes.work.thinker import Thinker

from .harness import click, drag, key, pad, post, settle, step
from .patience_input import card_point, focus_to, open_scene, over_dialog, perform, play_line

# Deal 28 won (the engine's computer player found this line).
WIN_28 = ("t t ch>f0 d t3>f1 t6>f2 t3>t6 t3>f1 t1>f1 d t1>f0 t2>f2 t5>f0 t0>t5 t6>t0 t6>f0 d "
          "t3:2>f3 t0>f2 t3>f0 t3>f3 t5:3>t1 t4>t5 t4>t3 t4>f0 t4>t2 t4>t0 t2>t4 t6>t0 f0>t4 "
          "t6>t4 t3>t6 t2>t3 t2>t5 t2>t5 t2>t5 t2>f2 t4>t2 t4>f0 t6:2>t5 f0>t4 t2>t4 t5:7>t2 "
          "t4>t5 t4>f0 t5:2>t4 t5>t6 t6:2>t5 t6>f2 t6>f0 t3>f0 t4:4>t3 t4>f0 t0:4>f0 t0>t6 "
          "t1:4>t0 t4>t6 t1>t4 t1>f3 t2:7>f3 t5:3>t4 t5>f3 t5>f2 t6:3>f2 t4:3>f2 t4>f3 t6>f2 d "
          "t1>f1 t3:4>f1 t0:5>f1").split()
# Deal 1: after the last deal no sequence of moves reaches another foundation card.
DEAD_END_1 = "t t t ch>f0 d t2>f1 d t0>f1 d t0>f2 d".split()
# Deal 6: no legal move at all is left.
NO_MOVES_6 = ("t ch>f0 t0>t1 t2>t0 t2>f1 t3>t2 t3>f2 t6>t2 t6>f2 d t2>f2 t4>f3 d t0>f2 t3>f0 "
              "t3>t4 t3>f3 t3>t2 t1>t3 t1>f0 d d").split()


def start(seed=3, size=(1280, 720), demo=False):
    return open_scene(HamiltonScene, Hamilton(seed=seed), size=size, seed=seed, demo=demo)


def test_declining_the_third_card_loses():
    app, scene = start(3)
    assert scene.status_line().startswith("Choose a start card  ·  3 choices left")
    for n in range(3):
        click(app, card_point(scene, "stock", 0))
        settle(app, scene)
        assert scene.game.chooser is not None and scene.game.choices_left == 2 - n
    assert "0 choices left" in scene.status_line()
    key(app, pygame.K_RETURN)          # the focus is on the stock: decline the third
    settle(app, scene)
    assert scene.game.status is Status.LOST
    dialog = over_dialog(app)
    assert dialog.title == "Game over" and "Declined all three start cards." in dialog.lines


@pytest.mark.parametrize("seed,line,reason", [
    (1, DEAD_END_1, "no sequence of moves can put another card on the foundations"),
    (6, NO_MOVES_6, "no moves left"),
])
def test_a_dead_end_is_said_and_undo_is_offered(seed, line, reason):
    app, scene = start(seed)
    play_line(app, scene, line, hows=("click", "drag", "pad", "keys"))
    assert scene.game.status is Status.LOST and scene.game.status_reason == reason
    dialog = over_dialog(app)
    assert reason.capitalize() + "." in dialog.lines
    labels = [b.label for b in dialog.focus.buttons]
    assert labels[:3] == ["New deal", "Restart", "Undo last move"]
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    pad(app, pygame.CONTROLLER_BUTTON_A)          # undo last move
    assert app.scenes.top is scene and scene.game.status is Status.PLAYING
    assert len(scene.game.history) == len(line) - 1


def test_start_card_by_double_click_and_hud():
    app, scene = start(3)
    click(app, card_point(scene, "stock", 0))
    settle(app, scene)
    card = scene.game.chooser
    pos = card_point(scene, "chooser", 0)
    for _ in range(2):
        post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
    step(app)
    assert scene.game.start_rank == card.rank and scene.game.score == 1
    settle(app, scene)
    assert scene.status_line().startswith("Start rank ")
    assert "Stock 23" in scene.status_line()   # then the solver's word
    label = scene.table.slots["foundation:1"].label      # empty foundations show the rank
    assert label and label[0] in "A23456789TJQK1"
    click(app, card_point(scene, "stock", 0))          # a row is dealt
    settle(app, scene)
    assert scene.game.history[-1] == "d" and "Stock 16" in scene.status_line()


def test_double_click_sends_what_it_can_to_the_foundations():
    app, scene = start(28)
    # find a moment in the winning line where one pile sends several groups up
    game = scene.game
    for text in WIN_28:
        piles = [f"tableau:{i}" for i in range(7)]
        many = [p for p in piles if len(game.foundation_moves_from(p)) >= 2]
        if many:
            break
        game.play(text)
    assert many, "no pile sends two groups up in this line"
    scene.show_state()
    settle(app, scene)
    pile = many[0]
    moves = game.foundation_moves_from(pile)
    score = game.score
    pos = card_point(scene, pile, len(scene.table.pile_cards(pile)) - 1)
    for _ in range(2):
        post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
    step(app)
    settle(app, scene)
    assert game.history[-len(moves):] == [game.move_text(m) for m in moves]
    assert game.score == score + sum(m.count for m in moves)


def test_illegal_drop_slides_back_and_says_why():
    app, scene = start(28)
    play_line(app, scene, WIN_28[:4], hows=("click",))
    game = scene.game
    history = list(game.history)
    # the top card of a pile dropped on a pile it does not fit
    source = next(f"tableau:{i}" for i in range(7)
                  if not any(m.source == f"tableau:{i}" and m.target.startswith("tableau")
                             for m in game.legal_moves() if hasattr(m, "count")))
    target = next(f"tableau:{i}" for i in range(7) if f"tableau:{i}" != source)
    cards = scene.table.pile_cards(source)
    card = cards[-1][0]
    home = scene.table.card_rect(card).topleft
    drag(app, card_point(scene, source, len(cards) - 1), scene.table.top_rect(target).center)
    assert game.history == history
    assert scene.flash is not None and scene.flash[0] == target
    assert any(card.name in text.lower() for text, _ in app._toasts)   # the engine's reason
    settle(app, scene)
    assert scene.table.card_rect(card).topleft == home
    # dropped on the bare table: back home, silently
    drag(app, card_point(scene, source, len(cards) - 1), (scene.size[0] // 2, scene.size[1] - 70))
    settle(app, scene)
    assert game.history == history and scene.table.card_rect(card).topleft == home


def test_only_runs_can_be_picked_up_and_focus_climbs_the_run():
    app, scene = start(28)
    play_line(app, scene, WIN_28[:22], hows=("click",))
    game = scene.game
    pile = next(f"tableau:{i}" for i in range(7) if game.group_size(i) >= 2)
    size = game.group_size(int(pile.split(":")[1]))
    n = len(scene.table.pile_cards(pile))
    focus_to(app, scene, pile, 1)
    for _ in range(size + 3):
        key(app, pygame.K_UP)
    assert scene.focus == pile and scene.focus_depth == size
    key(app, pygame.K_RETURN)
    assert scene.selection == (pile, n - size)
    key(app, pygame.K_ESCAPE)                     # BACK lets go
    assert scene.selection is None
    if n > size:                                   # a card under the run stays put
        click(app, card_point(scene, pile, n - size - 1))
        assert scene.selection is None
        assert any("Only the top card" in text for text, _ in app._toasts)


def test_the_hint_is_worked_out_off_the_frame_loop_and_played_by_keys():
    app, scene = start(28)
    play_line(app, scene, WIN_28[:6], hows=("drag", "pad"))
    key(app, pygame.K_h)
    waited = time.monotonic()
    while scene.hint_move is None and time.monotonic() - waited < 30:
        step(app)
        time.sleep(0.005)
    move = scene.hint_move
    assert move is not None and move in scene.game.legal_moves()
    perform(app, scene, move, "keys")      # the focus went to the hint's source
    assert len(scene.game.history) == 7


def test_computer_with_nothing_to_say_is_not_silent():
    app, scene = start(3)
    scene.thinker = Thinker(background=False)
    scene.solver_seconds = None      # no solver line to follow: the computer player alone
    scene.game.computer_move = lambda rng=None: None
    key(app, pygame.K_a)
    step(app, 120)
    assert not scene.autoplay
    assert any("no move that helps" in text for text, _ in app._toasts)


def test_longest_pile_fits_by_compressing_its_fan():
    for size in [(1280, 720), (1920, 1080)]:
        app, scene = start(3, size=size)
        game = scene.game
        game.tableau[6] = game.tableau[6] + game._stock[:20]     # a pile of 27 cards
        game._stock = game._stock[20:]
        scene.show_state()
        settle(app, scene)
        rect = scene.table.slot_rect("tableau:6")
        assert rect.bottom <= scene.toolbar.buttons[0].rect.top
        assert rect.bottom <= size[1]
        fan = [scene.table.card_rect(c).y for c, _ in scene.table.pile_cards("tableau:6")]
        assert all(b > a for a, b in zip(fan, fan[1:]))          # every card still shows


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_the_longest_pile_the_deal_can_build_fits(size):
    """7 dealt + 3 rows + a full run (the layout shared by all games: test_card_tables)."""
    app, scene = start(28, size=size)
    play_line(app, scene, WIN_28[:4], hows=("click",))
    cw, ch = scene.table.card_size
    slot = scene.table.slots["tableau:6"]
    assert slot.max_extent is not None
    assert slot.origin[1] + slot.max_extent + ch <= scene.toolbar.buttons[0].rect.top
