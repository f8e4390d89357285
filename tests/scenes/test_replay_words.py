"""What the replay screens say (issue 24, point 6): one count of moves (the move
list's), plurals, the engine's word for an equal position, the famous
openings' real results, and the list rows keeping "game N"."""
import pygame
import pytest

from scenes.screens.navigation import open_menu
from scenes.screens.replay import ReplayScene
from scenes.screens.replay_list import ReplayListScene, open_replay
from scenes.store.famous import famous_dir
from scenes.table.board_analysis import score_words
from scenes.work import service

from .harness import click, key, make_app, settle, step
from .test_replay import MOVES, _open


@pytest.fixture(autouse=True)
def _no_stray_workers():
    yield
    service.shutdown()


def test_the_status_counts_moves_as_the_move_list_numbers_them(tmp_path):
    app, scene = _open(tmp_path)                   # 10 plies: 5 moves
    assert scene.status_line().startswith("Start · 5 moves · ")
    for ply, words in ((1, "Move 1 of 5, White: F7-E8"), (2, "Move 1 of 5, Black: E10-F9"),
                       (3, "Move 2 of 5, White: D7-D8"), (10, "Move 5 of 5, Black: H10xF8")):
        scene.jump(ply)
        step(app, 2)
        assert scene.status_line() == words


def test_one_move_is_one_move(tmp_path):
    app, scene = _open(tmp_path, moves=MOVES[:1])
    assert scene.status_line().startswith("Start · 1 move · ")
    app, scene = _open(tmp_path, moves=MOVES[:2], name="two.camelot")
    assert scene.status_line().startswith("Start · 1 move · ")


def test_an_equal_position_is_called_equal():
    assert score_words({"white_score": 0, "depth": 3}) == "Engine (depth 3): equal"
    assert score_words({"white_score": -9, "depth": 2, "static": True}) == \
        "Static evaluation (no search): equal"
    assert score_words({"white_score": 140, "depth": 3}) == "Engine (depth 3): White +1.4"


def _listing(size=(1280, 720)):
    app = make_app(size)
    open_menu(app)
    step(app, 2)
    click(app, next(b for b in app.scenes.top.buttons if b.label == "Replay a game").rect.center)
    step(app, 2)
    listing = app.scenes.top
    assert isinstance(listing, ReplayListScene)
    listing.wait_until_read(30)
    step(app, 2)
    return app, listing


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800)])
def test_the_famous_rows_keep_game_n_and_say_how_the_game_ended(size):
    app, listing = _listing(size)
    shown = [b.label for b in listing.rows[:len(listing.famous)]]     # as cut to fit their rows
    assert [("game 1" in s, "game 4" in s, "game 5" in s) for s in shown] == \
        [(True, False, False), (False, True, False), (False, False, True)]
    assert "Opening (game drawn), 12 moves" in shown[0]
    assert "Opening (White won)" in shown[1] and "Opening (White won)" in shown[2]
    assert not any("Unfinished" in s for s in shown)


def test_a_famous_opening_replayed_says_the_games_real_result():
    app = make_app()
    open_menu(app)
    open_replay(app, famous_dir() / "2009-wc-game-1-opening.camelot")
    step(app, 2)
    scene = app.scenes.top
    assert isinstance(scene, ReplayScene)
    assert scene.score_line() == "Opening (game drawn)"
    key(app, pygame.K_END)
    settle(app, scene)
    assert scene.status_line() == f"Move 12 of 12, White: {scene.record.moves[-1]}"


# --- the board's coordinates (point 6: about 12 px at 1280x720 before) -------------------------
@pytest.mark.parametrize("size", [(1280, 720), (1280, 800), (3840, 2160)])
def test_the_board_coordinates_are_readable_and_clear_of_the_frame(size):
    from game.camelot.moves import SQUARE_COORDS
    from scenes.core.ui import FONTS
    from scenes.table.board_art import board_pixel_size
    from .test_camelot_board_scene import start
    app, scene = start(size=size)
    art = scene.table.view.art
    c = art.cell
    labels = art.coordinates(False)
    assert len(labels) == 2 * 12 + 2 * 16
    assert min(px for _, px, _ in labels) >= 16 * min(size[0] / 1280, size[1] / 720)
    frame = max(2, int(c * 0.16)) + 1                # the frame round the squares (board_art)
    squares = [pygame.Rect(*art.square_topleft(f, r, False), c, c).inflate(2 * frame, 2 * frame)
               for f, r in SQUARE_COORDS]
    board = pygame.Rect((0, 0), board_pixel_size(c))
    for text, px, centre in labels:
        drawn = FONTS.text(text, px)
        rect = drawn.get_bounding_rect().move(drawn.get_rect(center=centre).topleft)   # the ink
        assert board.contains(rect), text
        assert rect.collidelist(squares) < 0, f"{text} at {size} touches the board"


# --- the board's setup dialog: one chosen look (point 6) ---------------------------------------
def test_the_setup_dialog_shows_one_button_as_chosen_with_the_pointer_on_another():
    from scenes.core.ui import BUTTON, BUTTON_HOVER
    from scenes.screens.navigation import open_game
    from .harness import post
    app = make_app()
    open_game(app, "camelot-board")
    dialog = app.scenes.top
    two = next(b for b in dialog.focus.buttons if b.label.startswith("Two players"))
    post(pygame.MOUSEMOTION, pos=two.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    step(app, 30)                                  # the dialog has risen and rests
    assert dialog.focus.hover == dialog.focus.buttons.index(two) != dialog.focus.focus

    def face(button):                              # the button's fill, beside its label
        return tuple(app.screen.get_at((button.rect.x + button.rect.h // 2, button.rect.centery)))[:3]
    faces = [face(b) for b in dialog.focus.buttons]
    assert faces.count(BUTTON_HOVER) == 1 and faces[dialog.focus.focus] == BUTTON_HOVER
    assert face(two) == BUTTON
    key(app, pygame.K_DOWN)                        # the keys move the one chosen look
    faces = [face(b) for b in dialog.focus.buttons]
    assert faces.count(BUTTON_HOVER) == 1 and faces[dialog.focus.focus] == BUTTON_HOVER
