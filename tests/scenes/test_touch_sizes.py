"""Touch mode on a Steam Deck's screen (7", 1280×800, about 216 pixels an inch):
every control a finger may need, on every screen, at least 9 mm across (77 px),
measured where the screen has laid it out. Touch mode comes with the first
finger, or from Settings."""
import pygame
import pytest

from scenes.core.ui import TOUCH_TARGET, Button, touch_target
from scenes.screens.navigation import open_game, open_menu
from scenes.work.service import shutdown

from .harness import make_app, step, tap

DECK = (1280, 800)
NINE_MM = round(9 / 25.4 * 216)      # 77 px at the Deck's density


@pytest.fixture(autouse=True)
def _workers_closed():
    yield
    shutdown()


def buttons_of(obj, seen=None, depth=0) -> list[Button]:
    """Every Button a screen holds (its toolbar, focus list, rows, tabs, fields),
    looked for through its attributes, lists and dicts."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 3:
        return []
    seen.add(id(obj))
    if isinstance(obj, Button):
        return [obj]
    if isinstance(obj, (list, tuple)):
        values = obj
    elif isinstance(obj, dict):
        values = list(obj.values())
    elif type(obj).__module__.startswith("scenes") and hasattr(obj, "__dict__"):
        values = list(vars(obj).values())
    else:
        return []
    return [b for v in values for b in buttons_of(v, seen, depth + 1)]


def shown_buttons(app) -> list[Button]:
    """The buttons drawn on the screen (a list's rows scrolled away have no size)."""
    screen = app.screen.get_rect()
    return [b for b in buttons_of(app.scenes.top)
            if b.rect is not None and b.rect.w > 0 and screen.colliderect(b.rect)]


def too_small(app) -> list[tuple[str, tuple[int, int]]]:
    """Buttons under a finger's width, or cut by the screen's edge."""
    least = touch_target(app.size) or NINE_MM
    screen = app.screen.get_rect()
    return [(b.label, b.rect.size) for b in shown_buttons(app)
            if min(b.rect.size) < least or not screen.contains(b.rect)]


def deck_app(setting=True, size=DECK):
    app = make_app(size)
    app.settings.touch_controls = setting
    app.save_settings()
    return app


def screens(app):
    """Every screen a player reaches, as (name, how to open it)."""
    def from_menu(method):
        def run():
            open_menu(app)
            step(app, 2)
            getattr(app.scenes.top, method)()
        return run

    def game(gid, then=None):
        def run():
            open_game(app, gid)
            step(app, 30)
            if then is not None:
                then(app.scenes.top)
        return run

    def help_controls():
        from_menu("help")()
        app.scenes.top.set_page(1)

    def replay():
        from_menu("replays")()
        step(app, 2)
        app.scenes.top.rows[0].action()

    def setup_chosen(dialog):
        dialog.focus.buttons[3].action()             # two players at this screen

    def paused(scene):
        scene.open_pause()

    def deal_number(scene):
        scene.choose_deal() if hasattr(scene, "choose_deal") else None

    return [("menu", lambda: (open_menu(app))), ("settings", from_menu("settings")),
            ("help, rules", from_menu("help")), ("help, controls", help_controls),
            ("statistics", from_menu("statistics")), ("replay list", from_menu("replays")),
            ("replay", replay), ("online", from_menu("online")),
            ("clock", game("clock")), ("clock paused", game("clock", paused)),
            ("camelot", game("camelot-solitaire")), ("hamilton", game("hamilton")),
            ("hamilton paused", game("hamilton", paused)),
            ("board setup", game("camelot-board")),
            ("board", game("camelot-board", setup_chosen))]


def test_the_deck_is_nine_millimetres_seventy_seven_pixels():
    assert NINE_MM == TOUCH_TARGET == 77


@pytest.mark.parametrize("size", [DECK, (1280, 720), (3840, 2160)])
def test_every_control_on_every_screen_is_a_finger_wide_on_the_deck(size):
    """On the Deck, and in proportion on a 16:9 screen (the same 9 mm on a
    screen of the Deck's height; more at 4K): whole on the screen too."""
    app = deck_app(size=size)
    assert touch_target(DECK) == NINE_MM and touch_target(size) >= NINE_MM
    failures = {}
    for name, open_screen in screens(app):
        open_screen()
        step(app, 20)
        assert shown_buttons(app), f"{name}: no controls found"
        if too_small(app):
            failures[name] = too_small(app)
    assert not failures, failures


def test_without_touch_the_controls_keep_their_size_and_a_finger_brings_touch_mode():
    app = deck_app(setting=False)
    open_game(app, "clock")
    step(app, 30)
    scene = app.scenes.top
    assert too_small(app)                            # the usual toolbar: 40 px
    tap(app, (5, 5))                                  # a finger, on nothing
    step(app, 2)
    assert app.touch_mode and not too_small(app)
    assert scene.toolbar.buttons[0].rect.h == NINE_MM


@pytest.mark.parametrize("game_id", ["clock", "camelot-solitaire", "hamilton"])
def test_each_card_place_is_a_finger_wide_on_the_deck(game_id):
    app = deck_app()
    open_game(app, game_id)
    step(app, 60)
    table = app.scenes.top.table
    small = {pile: table.slot_rect(pile).size for pile in table.slots
             if min(table.slot_rect(pile).size) < NINE_MM}
    assert not small, small


@pytest.mark.parametrize("size", [DECK, (1280, 720), (3840, 2160)])
def test_the_board_is_chosen_from_on_squares_a_finger_wide(size):
    """The whole board's squares are some 4 mm on the Deck: a tap magnifies
    it, and each square seen then is a finger wide, whole, clear of the panel
    and the toolbar; a finger moving the board brings every rank into view."""
    from game.camelot.moves import SQUARE_COORDS, rank_span
    from .harness import board_square

    app = deck_app(size=size)
    screens(app)[-1][1]()
    step(app, 20)
    scene = app.scenes.top
    view, least = scene.table.view, touch_target(size)
    assert view.cell < least and view.magnifies
    tap(app, view.board_rect.center)
    assert view.zoomed
    toolbar = scene.toolbar.buttons[0].rect
    for first_of_rank in (SQUARE_COORDS.index((rank_span(r)[0], r)) for r in range(1, 17)):
        board_square(app, scene, first_of_rank)
        seen = [view.square_rect(sq) for sq in range(len(SQUARE_COORDS))
                if view.square_rect(sq).colliderect(view.viewport)]
        assert seen and all(min(r.size) >= least and view.viewport.contains(r) for r in seen)
        assert app.screen.get_rect().contains(view.viewport)
        assert not view.viewport.colliderect(view.panel_rect) and view.viewport.bottom < toolbar.top
    assert not too_small(app)
