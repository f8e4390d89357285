"""Touch: fingers posted as SDL sends them (FINGERDOWN/MOTION/UP, 0 … 1 of the
window, with SDL's mouse copy of each) drive the real app headless: a whole
game of each patience and of the board game, and the screens around them."""
import pygame
import pytest

from game.base import Status
from game.camelot_solitaire import CamelotSolitaire
from game.camelot.ai import choose_move
from game.camelot.moves import parse_square, path_text
from game.clock import CENTRE
from game.hamilton import Hamilton
from scenes.core.actions import Action
from scenes.core.input import InputMapper
from scenes.games.camelot_solitaire_scene import CamelotSolitaireScene
from scenes.games.hamilton_scene import HamiltonScene
from scenes.core.overlays import DialogScene
from scenes.work.service import shutdown

from .harness import (board_square, finger, finger_drag, long_press, make_app, post, settle, step, tap,
                      two_finger_tap)
from .patience_input import card_point, open_scene, play_line
from .test_camelot_board_scene import CAPTURE, centre, sq, start as start_board
from .test_camelot_solitaire_scene import WIN_DECK
from .test_clock_scene import finish_check, start_clock
from .test_hamilton_scene import WIN_28
from .test_touch_sizes import NINE_MM

TOUCH = ("tap", "finger-drag")


@pytest.fixture(autouse=True)
def _workers_closed():
    yield
    shutdown()


def actions_of(app, events):
    """What the app's input mapper makes of pygame events, posted and read as the loop does."""
    mapper = InputMapper()
    out = []
    for event in events:
        mapper.update(1 / 60)
        out += [(e.action, e.pos, e.device, e.button) for e in mapper.translate(event)]
    for _ in range(60):
        out += [(e.action, e.pos, e.device, e.button) for e in mapper.update(1 / 60)]
    return out, mapper


def fingers(app, *steps):
    w, h = app.size
    return [pygame.event.Event(kind, touch_id=1, finger_id=fid, x=x / (w - 1), y=y / (h - 1),
                               dx=0.0, dy=0.0, pressure=1.0) for kind, fid, (x, y) in steps]


# --- the gestures ---------------------------------------------------------------------------
def test_a_tap_is_a_click_and_the_mouse_copy_is_ignored():
    app = make_app()
    events = fingers(app, (pygame.FINGERDOWN, 0, (100, 200)), (pygame.FINGERUP, 0, (101, 200)))
    events.insert(1, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(100, 200), button=1, touch=True))
    events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(101, 200), button=1, touch=True))
    out, mapper = actions_of(app, events)
    assert [a for a, *_ in out] == [Action.POINTER_MOVE, Action.POINTER_DOWN, Action.POINTER_UP,
                                    Action.POINTER_MOVE]
    assert out[1] == (Action.POINTER_DOWN, (101, 200), "touch", 1)
    assert out[-1][1] == (-1, -1)                 # lifted: nothing stays hovered
    assert mapper.last_device == "touch" and mapper.pointing and mapper.touch_used


def test_a_drag_presses_where_the_finger_came_down_and_follows_it():
    app = make_app()
    out, _ = actions_of(app, fingers(app, (pygame.FINGERDOWN, 0, (100, 200)),
                                     (pygame.FINGERMOTION, 0, (104, 203)),     # a wobble: still a tap
                                     (pygame.FINGERMOTION, 0, (180, 260)),
                                     (pygame.FINGERMOTION, 0, (300, 400)),
                                     (pygame.FINGERUP, 0, (300, 400))))
    assert out[:3] == [(Action.POINTER_MOVE, (100, 200), "touch", 1),
                       (Action.POINTER_DOWN, (100, 200), "touch", 1),
                       (Action.POINTER_MOVE, (180, 260), "touch", 1)]
    assert out[3:5] == [(Action.POINTER_MOVE, (300, 400), "touch", 1)] * 2
    assert out[5] == (Action.POINTER_UP, (300, 400), "touch", 1)


def test_a_long_press_is_a_right_click_while_the_finger_is_still_down():
    app = make_app()
    out, mapper = actions_of(app, fingers(app, (pygame.FINGERDOWN, 0, (50, 60))))
    assert (Action.POINTER_DOWN, (50, 60), "touch", 3) in out
    assert (Action.POINTER_UP, (50, 60), "touch", 3) in out
    assert not any(a == Action.POINTER_DOWN and b == 1 for a, _, _, b in out)
    assert not mapper.holding               # the press is over: the loop may sleep again
    lifted = mapper.translate(fingers(app, (pygame.FINGERUP, 0, (50, 60)))[0])
    assert [e.action for e in lifted] == [Action.POINTER_MOVE]      # nothing more


def test_two_fingers_tapped_together_undo_and_a_pinch_does_not():
    app = make_app()
    two_down = [(pygame.FINGERDOWN, 0, (100, 100)), (pygame.FINGERDOWN, 1, (200, 100))]
    out, _ = actions_of(app, fingers(app, *two_down, (pygame.FINGERUP, 0, (100, 100)),
                                     (pygame.FINGERUP, 1, (200, 100))))
    assert [a for a, *_ in out] == [Action.UNDO]
    out, _ = actions_of(app, fingers(app, *two_down, (pygame.FINGERMOTION, 1, (320, 100)),
                                     (pygame.FINGERUP, 0, (100, 100)), (pygame.FINGERUP, 1, (320, 100))))
    assert out == []


def test_two_taps_in_one_place_are_a_double_click():
    app = make_app()
    out, _ = actions_of(app, fingers(app, (pygame.FINGERDOWN, 0, (100, 100)),
                                     (pygame.FINGERUP, 0, (100, 100)),
                                     (pygame.FINGERDOWN, 0, (106, 104)),
                                     (pygame.FINGERUP, 0, (106, 104))))
    assert [a for a, *_ in out].count(Action.DOUBLE_CLICK) == 1


# --- whole games ----------------------------------------------------------------------------
def test_clock_played_out_by_taps_and_finger_drags():
    app, scene = start_clock(5)
    n = 0
    while scene.game.status is Status.PLAYING:
        move = scene.game.legal_moves()[0]
        before = len(scene.game.history)
        card = scene.table.top_rect(CENTRE).center
        if move.target == CENTRE or n % 2 == 0:
            tap(app, card)
        else:
            finger_drag(app, card, scene.table.top_rect(move.target).center)
        assert len(scene.game.history) == before + 1, f"move {n} ({move}) did not play"
        settle(app, scene)
        n += 1
    finish_check(app, scene, 5)


def test_camelot_patience_won_by_touch_alone():
    app, scene = open_scene(CamelotSolitaireScene, CamelotSolitaire(deck=WIN_DECK), seed=5)
    while scene.game.status is Status.PLAYING:
        play_line(app, scene, [scene.game.move_text(scene.game.computer_move())], hows=TOUCH)
    assert scene.game.status is Status.WON


def test_hamilton_won_by_touch_alone_with_a_two_finger_undo_on_the_way():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28)
    play_line(app, scene, WIN_28[:10], hows=TOUCH)
    two_finger_tap(app, (640, 300))
    settle(app, scene)
    assert len(scene.game.history) == 9
    play_line(app, scene, WIN_28[9:], hows=TOUCH)
    settle(app, scene)
    assert scene.game.status is Status.WON


def test_a_long_press_drops_what_a_tap_picked_up():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28)
    play_line(app, scene, WIN_28[:4], hows=TOUCH)
    pile = scene.game.parse_move(WIN_28[4]).source
    tap(app, card_point(scene, pile, len(scene.table.pile_cards(pile)) - 1))
    assert scene.current_selection() is not None
    long_press(app, card_point(scene, pile, len(scene.table.pile_cards(pile)) - 1))
    assert scene.current_selection() is None


# White walks into Black's castle in 33 plies of the easy computer (seeded, max_nodes:
# the same moves on any machine).
ENDGAME = "2/8/10/12/12/12/5m6/12/12/4MN6/12/12/12/10/8/2 w 2 2"


def test_the_board_game_by_taps_drags_long_press_and_two_finger_undo():
    """The first tap (touch mode not yet on) picks F7 up on the whole board;
    from then on the squares are smaller than a finger, and a tap on the board
    magnifies it first."""
    app, scene = start_board()
    tap(app, centre(scene, "F7"))
    assert scene.table.selected == sq("F7") and not scene.table.view.zoomed
    assert app.touch_mode and scene.table.view.magnifies
    tap(app, board_square(app, scene, sq("F8")))
    settle(app, scene)
    assert scene.game.history == ["F7-F8"] and not scene.table.view.zoomed   # the move, on the whole board
    finger_drag(app, board_square(app, scene, sq("F11")), board_square(app, scene, sq("F12")))
    settle(app, scene)
    assert scene.game.history == ["F7-F8", "F11-F12"]
    tap(app, board_square(app, scene, sq("G7")))
    assert scene.table.selected is not None
    long_press(app, board_square(app, scene, sq("G7")))
    assert scene.table.selected is None and scene.table.view.zoomed
    long_press(app, board_square(app, scene, sq("G7")))          # nothing held: the whole board
    assert not scene.table.view.zoomed
    two_finger_tap(app, centre(scene, "F9"))
    assert scene.game.history == ["F7-F8"]


def test_the_magnified_board_has_squares_a_finger_wide_and_moves_under_a_finger():
    app, scene = start_board(size=(1280, 800))
    app.settings.touch_controls = True
    app.save_settings()
    view = scene.table.view
    assert view.cell < NINE_MM <= view.finger_cell                # 33 px: about 4 mm on the Deck
    tap(app, centre(scene, "F7"))
    assert view.zoomed and view.cell >= NINE_MM and scene.table.selected is None
    assert view.shows_square(sq("F7")) and not view.shows_square(sq("F16"))
    top = view.zoom[1]
    finger_drag(app, board_square(app, scene, sq("A9")), (centre(scene, "A9")[0], view.viewport.bottom - 5))
    assert view.zoom[1] < top and view.zoom[1] == int(view.zoom[1])     # on whole squares again
    assert view.shows_square(sq("F12"))
    assert scene.game.history == [] and scene.table.selected is None   # a drag moves no piece
    tap(app, board_square(app, scene, sq("F11")))
    assert scene.table.selected is None                           # not the side to move: nothing
    long_press(app, view.viewport.center)
    assert not view.zoomed and view.cell < NINE_MM


def view_settled(scene) -> bool:
    return all(z == int(z) for z in scene.table.view.zoom)


def test_a_drag_the_window_lost_the_lift_of_does_not_hold_the_next_tap():
    app, scene = start_board(size=(1280, 800))
    app.settings.touch_controls = True
    app.save_settings()
    tap(app, centre(scene, "F7"))                            # magnified
    empty = board_square(app, scene, sq("F9"))
    finger(app, pygame.FINGERDOWN, empty)
    step(app)
    finger(app, pygame.FINGERMOTION, (empty[0], empty[1] + 60))   # the board follows …
    step(app)
    post(pygame.WINDOWFOCUSLOST)                             # … and the window loses the finger
    step(app)
    assert view_settled(scene)                               # the board rests on whole squares
    tap(app, board_square(app, scene, sq("F7")))
    assert scene.table.selected == sq("F7")


def test_a_whole_board_game_by_touch_with_every_path_chosen_by_finger():
    app, scene = start_board(position=ENDGAME)
    while scene.game.status is Status.PLAYING and len(scene.game.history) < 200:
        # seeded, bounded by nodes and not by the clock: the same moves on a loaded machine
        move = choose_move(scene.game, level="easy", seed=len(scene.game.history), max_nodes=2000,
                           time_limit=60, book=False, tablebase=False).move
        want = scene.game.move_text(move)
        # each place looked up when touched: the first finger lifted brings touch
        # mode, and from then on a tap magnifies the board first
        tap(app, board_square(app, scene, move.from_square))
        alts = [path_text(p, m.captured) for m, p in scene.table._alternatives(move.to_square)]
        target = board_square(app, scene, move.to_square)
        if len(alts) == 1 and len(scene.game.history) % 2 and scene.table.view.shows_square(move.from_square):
            long_press(app, scene.table.view.square_centre(move.from_square))   # put down again, then dragged
            finger_drag(app, scene.table.view.square_centre(move.from_square), target)
        elif len(alts) == 1:
            tap(app, target)
        else:
            tap(app, target)                                 # shows the first path
            assert not scene.game.history or scene.game.history[-1] != want
            for _ in range(alts.index(want)):
                long_press(app, target)                      # the next path
            tap(app, target)                                 # plays the path shown
        assert scene.game.history[-1] == want
        settle(app, scene)
    # the whole seeded game, every move of it by finger (its length is the engine's: 27 plies
    # since the third Texel round's weights, 31 before)
    assert scene.game.status is not Status.PLAYING and len(scene.game.history) == 27


def test_where_two_paths_reach_a_square_a_tap_shows_one_and_a_hold_the_other():
    app, scene = start_board(position=CAPTURE)
    tap(app, board_square(app, scene, sq("E5")))
    tap(app, board_square(app, scene, sq("E7")))
    assert scene.game.history == [] and scene.table.path_choice() == (1, 2)
    # the status line says what a finger does (not Tab, the wheel or RB)
    assert scene.turn_line("Your move") == "Path 1 of 2: tap again to play it, hold for the next"
    first, second = [path_text(p, m.captured) for m, p in scene.table._alternatives(parse_square("E7"))]
    long_press(app, board_square(app, scene, sq("E7")))
    assert scene.table.path_choice() == (2, 2) and scene.table.selected == parse_square("E5")
    tap(app, board_square(app, scene, sq("E7")))
    assert scene.game.history == [second] != [first]


# --- the screens round the games ------------------------------------------------------------
def test_every_screen_answers_a_finger():
    from scenes.games.clock_scene import ClockScene
    from scenes.screens.help import HelpScene
    from scenes.screens.menu import MenuScene
    from scenes.screens.online import OnlineScene
    from scenes.screens.navigation import open_menu
    from scenes.screens.replay import ReplayScene
    from scenes.screens.replay_list import ReplayListScene
    from scenes.screens.settings import SettingsScene
    from scenes.screens.statistics import StatsScene
    from .test_touch_sizes import buttons_of

    app = make_app((1280, 800))
    open_menu(app)
    step(app, 3)

    def touch(label, kind=None):
        """Tap the button whose label starts so, where the screen has it now."""
        button = next(b for b in buttons_of(app.scenes.top) if b.label.startswith(label))
        tap(app, button.rect.center)
        step(app, 3)
        if kind is not None:
            assert isinstance(app.scenes.top, kind), (label, app.scenes.top)
        return app.scenes.top

    touch("Settings", SettingsScene)
    assert app.touch_mode                                  # the first finger brought it
    sound = app.settings.sound
    touch("Sound:")
    assert app.settings.sound is not sound
    touch("Back", MenuScene)

    page = touch("How to play", HelpScene)
    touch("Controls")
    assert page.page == 1
    view = page.view
    finger_drag(app, (view.centerx, view.bottom - 20), (view.centerx, view.top + 20))
    assert page.scroll > 0                                 # the page followed the finger
    long_press(app, view.center)                           # Help's right-click: back
    assert isinstance(app.scenes.top, MenuScene)

    stats = touch("Statistics", StatsScene)
    first = stats.index
    touch("Next game")
    assert stats.index != first
    touch("Back", MenuScene)

    listing = touch("Replay a game", ReplayListScene)
    listing.wait_until_read(30)
    tap(app, listing.rows[0].rect.center)
    replay = app.scenes.top
    assert isinstance(replay, ReplayScene)
    touch(">")
    settle(app, replay)
    assert replay.ply == 1
    long_press(app, replay.table.view.square_centre(replay.game.last_move.to_square))
    settle(app, replay)
    assert replay.ply == 0                                 # a replay's right-click: a step back
    touch("Back", ReplayListScene)
    touch("Back", MenuScene)

    online = touch("Play online", OnlineScene)
    tap(app, online.name_field.rect.center)
    assert online.name_field.active
    touch("Back", MenuScene)

    clock = touch("Clock", ClockScene)
    settle(app, clock)
    touch("Menu", DialogScene)
    touch("Resume")
    assert app.scenes.top is clock
