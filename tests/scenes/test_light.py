"""Light and sturdy (issue 20): text from files and the network cleaned in one
place, the Replay list reading the records in the background, a left screen
freed when it is left, and a still screen that draws nothing."""
from __future__ import annotations

import datetime
import time

import pygame
import pytest

from game.camelot import record as camelot_record
from game.camelot.board import CamelotBoard
from scenes.core.ui import FONTS, MAX_SHOWN_CHARS, Button, clean_text, draw_text, fit_text
from scenes.launcher import main as launcher_main
from scenes.screens.navigation import open_menu
from scenes.screens.replay_list import ReplayListScene, open_replay
from scenes.store import records

from .harness import make_app, step

# --- hostile text: one place cleans it ------------------------------------------------------
HOSTILE_TEXT = ["A\x00nn", "A\udc80nn", "\x1b[31mAnn\x7f", "Ann\x85\x9f", "A\tnn\nB"]


@pytest.mark.parametrize("text", HOSTILE_TEXT)
def test_text_with_controls_or_surrogates_is_drawn_not_refused(text):
    make_app()                     # the fonts, as the app opens them
    surface = pygame.Surface((400, 60))
    drawn = draw_text(surface, text, 24, (0, 0))
    assert drawn.w > 0
    font = FONTS.font(24)
    assert font.size(text) == font.size(clean_text(text))
    assert fit_text(text, font, 30).endswith("…")
    Button(text, lambda: None, pygame.Rect(0, 0, 200, 40)).draw(surface, 1.0)


def test_clean_text_changes_only_what_cannot_be_shown():
    assert clean_text("Ann – Bob ♞ 😀\u00a0") == "Ann – Bob ♞ 😀\u00a0"
    assert clean_text("A\x00n\tn\x9f") == "A n n "
    assert clean_text("A\udc80") == "A\ufffd"


def test_a_line_no_one_could_read_is_cut_not_rendered_a_million_pixels_wide():
    make_app()
    text = "W" * 100_000
    shown = FONTS.text(text, 20)
    assert len(clean_text(text)) == MAX_SHOWN_CHARS
    assert shown.get_width() < 30 * MAX_SHOWN_CHARS
    assert fit_text(text, FONTS.font(20), 300).endswith("…")


def _write(path, white: str) -> None:
    path.write_text(f'[Event "?"]\n[White "{white}"]\n[Black "Bob"]\n\n1.F7-F8 *\n', encoding="utf-8")


def _listing(app) -> ReplayListScene:
    open_menu(app)
    step(app, 2)
    open_replay(app)
    step(app, 2)
    listing = app.scenes.top
    assert isinstance(listing, ReplayListScene)
    assert listing.wait_until_read(30)
    step(app, 2)
    return listing


def test_a_record_with_a_nul_in_a_tag_is_skipped_with_one_line_and_the_list_opens():
    folder = records.records_dir()
    folder.mkdir(parents=True, exist_ok=True)
    _write(folder / "2026-01-02_100000.camelot", "A\x00nn")
    _write(folder / "2026-01-01_100000.camelot", "Cleo")
    app = make_app()
    listing = _listing(app)
    assert [k.record.tag("White") for k in listing.kept] == ["Cleo"]
    said = [text for text, _ in app._toasts]
    assert said == ["Skipped 2026-01-02_100000.camelot: line 2: the White tag holds the "
                    "control character '\\x00'"]
    open_replay(app)              # opened again: the same, no crash
    step(app, 2)


def test_a_record_with_a_nul_in_a_tag_given_to_main_py_is_one_line(tmp_path, capsys):
    path = tmp_path / "nul.camelot"
    _write(path, "A\x00nn")
    assert launcher_main(["--record", str(path)]) == 2
    _, err = capsys.readouterr()
    assert err == (f"roundtable: error: --record: {path}: line 2: the White tag holds the control "
                   "character '\\x00'\n")


def test_a_name_longer_than_a_row_and_unusual_letters_are_listed_and_drawn():
    folder = records.records_dir()
    game = CamelotBoard()
    game.play("F7-F8")
    name = "\u202e" + "Ж" * 1999
    records.keep_record(camelot_record.from_game(game, White=name, Black="Bob"), folder,
                        datetime.datetime(2026, 1, 1, 10, 0, 0))
    app = make_app(size=(3840, 2160))
    listing = _listing(app)
    assert listing.kept[0].record.tag("White") == name
    row = listing.rows[len(listing.famous)]
    assert row.label.endswith("…") and row.label_surface().get_width() <= row.rect.w


# --- the Replay list shows at once ---------------------------------------------------------
def test_the_replay_list_shows_at_once_and_the_kept_games_join_it_when_read():
    folder = records.records_dir()
    game = CamelotBoard()
    game.play("F7-F8")
    for day in range(1, 4):
        records.keep_record(camelot_record.from_game(game, White=f"Player {day}"), folder,
                            datetime.datetime(2026, 1, day, 10, 0, 0))
    app = make_app()
    open_menu(app)
    step(app, 2)
    listing = ReplayListScene(app)
    # Made on the frame loop without a record read there: the famous games and Back.
    assert listing.reading and listing.kept == []
    assert len(listing.rows) == len(listing.famous) and "reading yours" in listing._summary()
    app.scenes.push(listing)
    step(app)
    listing.focus.focus = len(listing.rows)            # on Back while the games are read
    assert listing.wait_until_read(30)
    assert [k.record.tag("White") for k in listing.kept] == ["Player 3", "Player 2", "Player 1"]
    assert len(listing.rows) == len(listing.famous) + 3 and not listing.reading
    assert listing.focus.focus == len(listing.rows)    # still on Back
    assert "3 of yours" in listing._summary()
    step(app, 2)


# --- the end: nothing left drawing when pygame quits ---------------------------------------------
def test_closing_the_app_ends_the_work_service_and_waits_for_the_drawing_threads():
    import multiprocessing
    import threading

    from scenes.core.app import DRAWING_THREADS
    from scenes.screens.navigation import open_game
    from scenes.work import service

    app = make_app(size=(1920, 1080))
    open_menu(app)
    step(app, 2)                 # the menu starts the scene modules' warm-up and the service
    open_game(app, "clock", seed=3)
    step(app, 2)                 # the game's first frame: its card art is drawn ahead
    pool = service.work_service()
    assert pool.wait_ready(30) and pool.worker_pids()
    pids = pool.worker_pids()
    app.close()
    assert not [t.name for t in threading.enumerate() if t.name in DRAWING_THREADS]
    assert not [t.name for t in threading.enumerate() if t.name.startswith("work-service")]
    assert not {p.pid for p in multiprocessing.active_children()} & set(pids)


# --- a screen that is left is freed when it is left ---------------------------------------------
@pytest.fixture
def no_collection():
    """The collector off: only reference counting frees a screen here, as it must
    (a screen in a reference cycle would wait for a rare full collection, with
    its pictures: at 4K tens of MiB per screen)."""
    import gc
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def _left(app, open_screen, frames: int = 20):
    """A weak reference to the screen ``open_screen`` shows, once it is left for the menu."""
    import weakref
    open_screen()
    step(app, frames)
    screen = weakref.ref(app.scenes.top)
    open_menu(app)
    step(app, 2)
    return screen


GAME_IDS = ["camelot-solitaire", "hamilton", "clock"]


@pytest.mark.parametrize("game_id", GAME_IDS + ["camelot-board"])
def test_a_game_in_demo_left_for_the_menu_is_freed_at_once(no_collection, game_id):
    from scenes.screens.navigation import open_game
    app = make_app(size=(1280, 720))
    open_menu(app)
    step(app, 2)
    screen = _left(app, lambda: open_game(app, game_id, seed=1, demo=True), frames=90)
    assert screen() is None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_left_through_its_pause_menu_is_freed_at_once(no_collection, game_id):
    from scenes.core.overlays import DialogScene
    from scenes.screens.navigation import open_game
    app = make_app(size=(1280, 720))
    open_menu(app)
    step(app, 2)
    open_game(app, game_id, seed=2)
    step(app, 5)
    import weakref
    game = weakref.ref(app.scenes.top)
    game().open_pause()
    step(app, 2)
    pause = app.scenes.top
    assert isinstance(pause, DialogScene)
    next(b for b in pause.focus.buttons if b.label == "Main menu").action()
    del pause
    step(app, 2)
    assert game() is None


def test_a_game_left_gives_its_background_blocks_to_the_next_and_is_still_freed(no_collection):
    """The blocks a left game kept its background in are spares for the next
    game's (their memory in use already: no page faults in its first frame),
    at most as many as one screen keeps; the game itself is freed."""
    from scenes.screens.navigation import open_game
    from scenes.table import painted_scene
    app = make_app(size=(1280, 720))
    painted_scene._spare_blocks.clear()
    open_menu(app)
    step(app, 2)
    screen = _left(app, lambda: open_game(app, "hamilton", seed=1), frames=60)
    assert screen() is None
    spares = {id(block) for block in painted_scene._spare_blocks}
    assert 0 < len(spares) <= painted_scene.BLOCKS_KEPT
    open_game(app, "clock", seed=1)
    step(app)
    kept = app.scenes.top._blocks
    assert kept and all(id(block.get_parent() or block) in spares for block in kept.values())


def test_the_menu_and_the_screens_it_opens_are_freed_when_left(no_collection):
    from scenes.screens.navigation import open_game
    from scenes.screens.statistics import StatsScene
    app = make_app(size=(1280, 720))
    open_menu(app)
    step(app, 2)
    screens = {"menu": _left(app, lambda: open_menu(app)),
               "help": _left(app, lambda: app.navigator.open_help("clock")),
               "replay list": _left(app, lambda: app.navigator.open_replay()),
               "settings": _left(app, lambda: app.navigator.open_settings()),
               "statistics": _left(app, lambda: app.scenes.push(StatsScene(app)))}
    open_game(app, "clock", seed=1)        # the last menu is left too
    step(app, 2)
    assert {name: ref() for name, ref in screens.items()} == dict.fromkeys(screens)


def test_a_button_of_a_screen_that_has_gone_does_nothing():
    calls = []

    class Screen:
        def go(self, *args):
            calls.append(args)

    screen = Screen()
    from functools import partial
    on_method, on_partial = Button("a", screen.go), Button("b", partial(screen.go, 7))
    on_method.action()
    on_partial.action()
    assert calls == [(), (7,)]
    del screen
    on_method.action()
    on_partial.action()
    assert calls == [(), (7,)]


# --- a still screen costs nothing -----------------------------------------------------------------
def _presented(app, frames: int) -> int:
    before = app.frames_presented
    step(app, frames)
    return app.frames_presented - before


def test_a_still_menu_presents_a_frame_only_when_clocks_hand_ticks():
    app = make_app(size=(1280, 720))
    open_menu(app)
    step(app, 60)                   # past its first moments
    presented = _presented(app, 120)      # two seconds of fixed steps
    assert 1 <= presented <= 3            # the emblem's tick each second, nothing else
    assert app.still_frames > 0
    menu = app.scenes.top
    assert 0 < menu.next_change_in() <= 1.0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_still_game_presents_nothing_and_a_key_draws_again(game_id):
    from scenes.screens.navigation import open_game
    app = make_app(size=(1280, 720))
    open_game(app, game_id, seed=4)
    step(app, 240)                  # the deal has landed
    # What the workers answer (a patience's "still winnable?") is a change worth a frame:
    # on a loaded machine it can come late, so wait for it (bounded) before watching.
    from scenes.work.service import work_service
    deadline = time.monotonic() + 30
    while work_service().pending and time.monotonic() < deadline:
        step(app)
        time.sleep(0.01)
    step(app, 10)                   # its answer shown
    scene = app.scenes.top
    assert not scene.busy and scene.animated_look() is not None
    assert _presented(app, 30) <= 1       # at most the HUD's clock going to the next second
    assert 0 < scene.next_change_in() <= 0.1
    from .harness import key
    key(app, pygame.K_RIGHT)              # the focus moves: drawn again
    assert app.frames_presented and app.still_frames == 0


def test_a_dialog_at_rest_is_drawn_once_and_not_again_until_input():
    from scenes.screens.navigation import open_game
    app = make_app(size=(1280, 720))
    open_game(app, "clock", seed=4)
    step(app, 60)
    app.scenes.top.open_pause()
    assert _presented(app, 30) >= 15      # the panel rises in, drawn each frame
    assert _presented(app, 60) == 0       # at rest: nothing drawn or presented
    from .harness import key
    key(app, pygame.K_DOWN)
    assert app.still_frames == 0 and _presented(app, 1) == 0


def test_a_game_in_demo_never_sleeps():
    from scenes.screens.navigation import open_game
    app = make_app(size=(1280, 720))
    open_game(app, "hamilton", seed=4, demo=True)
    step(app, 30)
    assert app.scenes.top.next_change_in() == 0.0


def test_fixed_steps_never_sleep_and_still_frames_do_not_skip_time():
    import time as clock
    from scenes.core.app import App, AppOptions
    from scenes.store.settings import Settings
    app = App(AppOptions(size=(1280, 720), frames=240, save_settings=False),
              settings=Settings(fullscreen=False, sound=False))
    open_menu(app)
    started = clock.perf_counter()
    app.run()
    assert app.idle_seconds == 0.0 and app.frame_count == 240
    assert app.game_time == pytest.approx(240 / 60)
    assert clock.perf_counter() - started < 30


def test_on_the_real_clock_a_still_menu_sleeps_and_a_key_wakes_it():
    import threading
    import time as clock
    from scenes.core.app import App, AppOptions
    from scenes.store.settings import Settings
    app = App(AppOptions(size=(1280, 720), save_settings=False),
              settings=Settings(fullscreen=False, sound=False))
    open_menu(app)
    seen = {}

    def later() -> None:
        clock.sleep(1.0)                       # past the menu's first moments
        frames, slept = app.frame_count, app.idle_seconds
        clock.sleep(1.5)
        seen["frames"], seen["slept"] = app.frame_count - frames, app.idle_seconds - slept
        seen["before key"] = app.frame_count
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0,
                                             unicode="", scancode=0))
        clock.sleep(0.3)
        seen["after key"] = app.frame_count
        app.running = False

    threading.Thread(target=later, daemon=True).start()
    app.run()
    assert seen["slept"] > 0.75                # most of 1.5 s asleep ...
    assert seen["frames"] < 45                 # ... not 90 frames at 60 a second
    assert seen["after key"] > seen["before key"]   # the key woke it


# --- memory stays bounded ------------------------------------------------------------------------
def test_the_lines_of_text_kept_are_bounded_in_bytes_not_only_in_count():
    from scenes.core.ui import TEXT_KEPT_BYTES, _pixels
    make_app()
    for n in range(300):                       # a game's clock at 4K: a new line every second
        FONTS.text(f"{n // 60}:{n % 60:02d}  ·  {n} moves", 120)
    kept = sum(_pixels(s) for s in FONTS._text.values())
    assert kept == FONTS._bytes <= TEXT_KEPT_BYTES
    assert len(FONTS._text) < 300


def test_card_faces_at_4k_keep_one_size_and_small_ones_two():
    from scenes.table.card_art import shared_card_art
    app = make_app()
    shared_card_art(app, 120)
    shared_card_art(app, 130)
    assert [key[0] for key in app.art_cache["cards"]] == [120, 130]
    shared_card_art(app, 270)                  # a 4K table's cards
    shared_card_art(app, 280)
    assert [key[0] for key in app.art_cache["cards"]] == [280]


def test_an_uncovered_window_is_presented_again_though_the_screen_is_still():
    app = make_app(size=(1280, 720))
    open_menu(app)
    step(app, 60)
    assert _presented(app, 20) <= 1
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    assert _presented(app, 1) == 1


def test_the_board_game_lets_the_card_faces_go_and_a_card_game_keeps_its_own():
    from scenes.screens.navigation import open_game
    app = make_app(size=(1280, 720))
    open_game(app, "clock", seed=1, demo=True)
    step(app, 2)
    assert app.art_cache.get("cards")
    open_game(app, "hamilton", seed=1, demo=True)
    step(app, 2)
    assert app.art_cache.get("cards")
    open_game(app, "camelot-board", demo=True)
    step(app, 2)
    assert not app.art_cache.get("cards")


class _CountingSurface(pygame.Surface):
    """A surface that counts what is blitted onto it, by picture."""

    def __init__(self, size):
        super().__init__(size, pygame.SRCALPHA)
        self.sources: list = []

    def blit(self, source, *args, **kwargs):
        self.sources.append(source)
        return super().blit(source, *args, **kwargs)


def test_a_stock_of_cards_in_one_place_blits_one_card_picture_and_every_shadow():
    # Clock as it opens: 52 face-down cards, each already in its hour's pile
    # but still lying in the centre, waiting to be dealt (one may be on its
    # way). Only the top card in each place shows; every pile's bottom card
    # keeps its shadow.
    from scenes.screens.navigation import open_game
    app = make_app(size=(1280, 720))
    open_game(app, "clock", seed=1)
    step(app, 1)
    scene = app.scenes.top
    table, art = scene.table, scene.art
    resting = [s for s in table.sprites.values() if not table._animated(s)]
    places = {(int(s.pos[0]), int(s.pos[1])) for s in resting}
    assert len(resting) >= 50 and len(places) <= 2
    every = _CountingSurface(app.screen.get_size())
    table.draw_static(every, art)
    backs = sum(1 for source in every.sources if source is art.back())
    shadows = sum(1 for source in every.sources if source is art.shadow())
    assert backs == len(places)
    assert shadows == sum(1 for s in resting if s.index == 0) >= 12


def test_a_lettered_empty_place_is_its_outline_and_letter_drawn_in_place_not_a_copy():
    """Clock's 13 hour places: the outline and then its letter are drawn on the
    table, no picture is made per place (at 4K each would be a copy of the
    outline: fresh memory as the game opens); it looks as the lettered picture
    blitted whole, to within a level of rounding."""
    from scenes.table.card_art import CardArt
    make_app()
    art = CardArt(120)
    for label in ("Q", "10"):
        drawn = pygame.Surface((200, 240))
        drawn.fill((20, 90, 50))
        art.draw_placeholder(drawn, (30, 40), label)
        assert label not in art._placeholders          # no lettered picture was made
        whole = pygame.Surface((200, 240))
        whole.fill((20, 90, 50))
        whole.blit(art.placeholder(label), (30, 40))
        a, b = pygame.image.tobytes(drawn, "RGB"), pygame.image.tobytes(whole, "RGB")
        assert a != pygame.image.tobytes(_felt_only(), "RGB")     # something was drawn
        assert max(abs(x - y) for x, y in zip(a, b)) <= 1


def _felt_only() -> pygame.Surface:
    plain = pygame.Surface((200, 240))
    plain.fill((20, 90, 50))
    return plain
