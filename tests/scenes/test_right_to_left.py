"""Hebrew reads from the right: what is laid out in a reading direction (the
menu's tiles and buttons, a toolbar, Help's tabs, columns and controls table,
Settings' columns, the statistics' panels) runs from the right too, and the
arrow keys go the way the screen runs. Each screen is laid out in English and
in Hebrew at 1280×720 and the two compared."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.camelot.moves import parse_square
from scenes.core.actions import Action, InputEvent
from scenes.screens.help import HelpScene
from scenes.screens.navigation import open_game, open_menu
from scenes.store.words import language, set_language
from scenes.work.service import shutdown

from .harness import make_app, step

WIDTH = 1280
RECORD = Path(__file__).resolve().parents[2] / "data" / "famous-games" / "2009-wc-game-4-opening.camelot"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")
    shutdown()


def laid_out(code: str, open_screen):
    """The app at 1280×720 in ``code``, showing the screen ``open_screen(app)`` opens."""
    app = make_app((WIDTH, 720))
    app.settings.language = code            # as Settings would: a game's opening saves them
    app.save_settings()
    open_menu(app)
    step(app, 3)
    open_screen(app)
    step(app, 3)
    assert language() == code
    return app, app.scenes.top


def mirror(rect) -> tuple[int, int, int, int]:
    return (WIDTH - rect.right, rect.y, rect.w, rect.h)


def test_the_menu_s_tiles_and_buttons_run_from_the_right():
    _, english = laid_out("en", lambda app: None)
    _, hebrew = laid_out("he", lambda app: None)
    assert [mirror(t.rect) for t in english.tiles] == [tuple(t.rect) for t in hebrew.tiles]
    xs = [b.rect.x for b in hebrew.buttons]
    assert xs == sorted(xs, reverse=True)              # the first button is the rightmost
    first = hebrew.focus.focus
    hebrew.handle(InputEvent(Action.LEFT, device="keys"))
    assert hebrew.focus.focus == first + 1             # left: on to the next game, as they run
    assert hebrew.tiles[first + 1].rect.x < hebrew.tiles[first].rect.x


def test_help_reads_from_the_right_its_text_tabs_and_controls_table():
    def help_page(app):
        app.scenes.push(HelpScene(app, "camelot-solitaire"))

    _, english = laid_out("en", help_page)
    _, hebrew = laid_out("he", help_page)
    assert hebrew.rules_view.x > hebrew.diagram_rect.x and english.rules_view.x < english.diagram_rect.x
    assert [mirror(t.rect) for t in english.tabs] == [tuple(t.rect) for t in hebrew.tabs]
    assert mirror(english.back_button.rect) == tuple(hebrew.back_button.rect)
    hebrew.set_page(1)
    english.set_page(1)
    # The table's first column (what is done) at the right, each cell's words at its right edge.
    first_column = [r for line, r in hebrew.controls_lines if r.right > hebrew.controls_view.w * 0.7]
    assert len(first_column) > 5 and max(r.right for r in first_column) == max(
        r.right for _, r in hebrew.controls_lines)
    english_first = [r for line, r in english.controls_lines if r.x < english.controls_view.w * 0.3]
    assert len(english_first) > 5
    assert all(0 <= r.x and r.right <= hebrew.controls_view.w for _, r in hebrew.controls_lines)
    screen = hebrew.app.screen.get_rect()
    assert all(screen.contains(r) for r in hebrew.visible_text_rects())
    hebrew.set_page(0)
    hebrew.handle(InputEvent(Action.LEFT, device="keys"))
    assert hebrew.page == 1                             # the next tab is the one on the left


def test_settings_columns_and_the_statistics_panels_run_from_the_right():
    def settings(app):
        app.settings.touch_controls = True               # two columns
        app.save_settings()
        app.navigator.open_settings()

    _, english = laid_out("en", settings)
    _, hebrew = laid_out("he", settings)
    assert [mirror(r.rect) for r in english.rows] == [tuple(r.rect) for r in hebrew.rows]
    assert hebrew.rows[0].rect.x > hebrew.rows[-1].rect.x

    def statistics(app):
        app.scenes.top.statistics()          # the menu's button

    _, english = laid_out("en", statistics)
    _, hebrew = laid_out("he", statistics)
    assert [mirror(r) for r in english.panel_rects] == [tuple(r) for r in hebrew.panel_rects]
    first = hebrew.index
    hebrew.handle(InputEvent(Action.LEFT, device="keys"))
    assert hebrew.index == first + 1


def test_a_game_s_toolbar_runs_from_the_right():
    def clock(app):
        open_game(app, "clock")

    _, english = laid_out("en", clock)
    _, hebrew = laid_out("he", clock)
    xs = [b.rect.x for b in hebrew.toolbar.buttons]
    assert xs == sorted(xs, reverse=True)
    english_xs = [b.rect.x for b in english.toolbar.buttons]
    assert english_xs == sorted(english_xs)


def board_scene(app):
    """The board game's own scene under whatever dialog is over it."""
    from scenes.table.board_screen import BoardScreen
    return next(s for s in app.scenes.scenes if isinstance(s, BoardScreen))


def test_the_board_game_s_side_panel_comes_first_and_the_board_still_runs_a_to_l():
    def board(app):
        open_game(app, "camelot-board")

    en_app, _ = laid_out("en", board)
    he_app, _ = laid_out("he", board)
    en_view, he_view = board_scene(en_app).table.view, board_scene(he_app).table.view
    assert tuple(he_view.panel_rect) == mirror(en_view.panel_rect)
    assert tuple(he_view.board_rect) == mirror(en_view.board_rect)
    assert he_view.panel_rect.right < he_view.board_rect.x
    a6, l6 = (he_view.square_centre(parse_square(name)) for name in ("A6", "L6"))
    assert a6[0] < l6[0]                                # the board is not mirrored
    assert he_view.square_at(a6) == parse_square("A6")  # and a click finds its square


def test_a_record_s_moves_are_listed_from_the_right_and_a_click_still_finds_one():
    def replay(app):
        app.navigator.open_replay(RECORD)

    en_app, _ = laid_out("en", replay)
    he_app, _ = laid_out("he", replay)
    en_cells = board_scene(en_app).table.painter.move_rects
    he_cells = board_scene(he_app).table.painter.move_rects
    assert len(he_cells) >= 4
    assert [(mirror(r), ply) for r, ply in en_cells] == [(tuple(r), ply) for r, ply in he_cells]
    white, black = he_cells[0][0], he_cells[1][0]
    assert white.x > black.x                            # the first move is the rightmost
