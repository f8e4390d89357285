"""Start-up (issue 20): what the first frame does not need is not loaded, and
pictures drawn the same at every launch are kept in the user's cache folder,
read back exactly as drawn, drawn again when their file is damaged, and kept
within bounds. How long start-up takes is measured by bench/startup.py and
bench/open_game.py, not here."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pygame
import pytest

from scenes.core import kept_pictures
from scenes.core.kept_pictures import folder, kept_picture
from scenes.store import settings as settings_store

from .harness import make_app, step

ROOT = Path(__file__).resolve().parents[2]


def drawn_picture(calls: list, colour=(200, 30, 40, 128)):
    def draw() -> pygame.Surface:
        calls.append(1)
        surf = pygame.Surface((37, 52), pygame.SRCALPHA)
        surf.fill(colour)
        pygame.draw.circle(surf, (10, 220, 90, 255), (18, 26), 11)
        return surf
    return draw


def test_a_kept_picture_reads_back_as_drawn_and_is_not_drawn_again():
    make_app()
    calls: list = []
    first = kept_picture("test-card", ("red", 37), "code v1", drawn_picture(calls))
    again = kept_picture("test-card", ("red", 37), "code v1", drawn_picture(calls))
    assert calls == [1]
    assert pygame.image.tobytes(again, "RGBA") == pygame.image.tobytes(first, "RGBA")
    # Other options or other drawing code: another picture, drawn.
    kept_picture("test-card", ("red", 38), "code v1", drawn_picture(calls))
    kept_picture("test-card", ("red", 37), "code v2", drawn_picture(calls))
    assert len(calls) == 3


@pytest.mark.parametrize("damage", ["cut short", "empty", "other key", "garbage"])
def test_a_damaged_picture_file_is_drawn_again_and_replaced(damage):
    make_app()
    calls: list = []
    kept_picture("test-card", (1,), "v", drawn_picture(calls))
    (path,) = folder().glob("test-card-*.pic")
    data = path.read_bytes()
    path.write_bytes({"cut short": data[:-7], "empty": b"",
                      "other key": data.replace(b"'v'", b"'w'"),
                      "garbage": os.urandom(len(data))}[damage])
    picture = kept_picture("test-card", (1,), "v", drawn_picture(calls))
    assert calls == [1, 1] and picture.get_size() == (37, 52)
    assert path.read_bytes() == data                       # written anew
    kept_picture("test-card", (1,), "v", drawn_picture(calls))
    assert calls == [1, 1]


def test_the_cache_keeps_the_most_recently_used_pictures_only(monkeypatch):
    make_app()
    monkeypatch.setattr(kept_pictures, "KEPT_FILES", 3)
    calls: list = []
    for n in range(5):
        kept_picture("test-card", (n,), "v", drawn_picture(calls))
    assert len(list(folder().glob("*.pic"))) == 3
    kept_picture("test-card", (4,), "v", drawn_picture(calls))  # still there: read
    assert len(calls) == 5


def test_a_cache_folder_that_cannot_be_written_only_costs_the_drawing(tmp_path, monkeypatch):
    make_app()
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    monkeypatch.setattr(kept_pictures, "folder", lambda: blocked / "pictures")
    calls: list = []
    for _ in range(2):
        assert kept_picture("test-card", (1,), "v", drawn_picture(calls)).get_size() == (37, 52)
    assert calls == [1, 1]


def test_a_clock_opened_a_second_time_reads_its_pictures_from_the_cache(monkeypatch):
    """Its back, its empty place, the cards' shadow and the hours' letters."""
    from scenes.screens.navigation import open_game
    from scenes.table import card_art
    drawn: list = []
    for method in ("_draw_back", "_draw_placeholder", "_draw_shadow"):
        original = getattr(card_art.CardArt, method)

        def counting(self, *args, _original=original, _name=method):
            drawn.append((_name, *args))
            return _original(self, *args)
        monkeypatch.setattr(card_art.CardArt, method, counting)
    glyphs = card_art._glyphs
    monkeypatch.setattr(card_art, "_glyphs", lambda text, *rest: drawn.append(("_glyphs", text))
                        or glyphs(text, *rest))
    frames = []
    for _ in range(2):             # two launches: each app its own card art
        drawn.clear()
        app = make_app(size=(1280, 720))
        open_game(app, "clock", seed=1)
        step(app)
        frames.append(pygame.image.tobytes(app.screen, "RGB"))
        if len(frames) == 1:
            assert {("_draw_back",), ("_draw_placeholder", None), ("_draw_shadow",),
                    ("_glyphs", "Q")} <= set(drawn)
    assert drawn == []
    assert frames[0] == frames[1]          # the same first frame


def test_the_users_folders_follow_xdg_on_linux(monkeypatch, tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("XDG folders are Linux's")
    monkeypatch.delenv("ROUNDTABLE_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/ignored")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert settings_store.config_dir() == tmp_path / "conf" / "roundtable"
    assert settings_store.data_dir() == tmp_path / "home" / ".local" / "share" / "roundtable"
    assert settings_store.cache_dir() == tmp_path / "home" / ".cache" / "roundtable"
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path / "rt"))
    assert settings_store.cache_dir() == tmp_path / "rt" / "cache"


def test_the_first_menu_frame_loads_no_module_it_does_not_need(tmp_path):
    code = ("import sys\n"
            "import scenes.core.app as A\n"
            "def noted(self):\n"
            "    print(sorted(m for m in ('subprocess', 'platformdirs', 'hashlib', 'game.camelot.geometry',"
            " 'scenes.table.card_art', 'scenes.screens.settings', 'multiprocessing', 'gettext',"
            " 'unicodedata') if m in sys.modules))\n"
            "    raise SystemExit(0)\n"
            "A.App._note_first_frame = noted\n"
            "from scenes.launcher import main\n"
            "main(['--frames', '1', '--size', '1280x720'])\n")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               ROUNDTABLE_HOME=str(tmp_path), PYGAME_HIDE_SUPPORT_PROMPT="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stderr


def test_the_menus_first_frame_reads_its_lines_from_the_cache_at_the_next_launch(monkeypatch):
    from scenes.core import ui
    from scenes.screens.navigation import open_menu
    rendered: list = []
    render = ui.ScreenFont.render

    def counting(self, text, *args, **kwargs):
        rendered.append(text)
        return render(self, text, *args, **kwargs)
    monkeypatch.setattr(ui.ScreenFont, "render", counting)
    frames = []
    for _ in range(2):                  # two launches: nothing rendered kept in memory between
        ui.FONTS._text.clear()
        ui.FONTS._bytes = 0
        rendered.clear()
        for kept in folder().glob("menu-*.frame"):
            kept.unlink()               # the lines, not the whole frame (tested below)
        app = make_app(size=(1280, 720))
        open_menu(app)
        step(app)
        frames.append(pygame.image.tobytes(app.screen, "RGB"))
        if len(frames) == 1:
            first = list(rendered)
            assert "Round Table" in first
    assert len(rendered) < len(first) // 3      # the lines came from the cache
    assert frames[0] == frames[1]
    assert ui.FONTS.keep is None                # only the first frame's lines go through it


def test_a_picture_drawn_while_writes_are_held_is_found_in_memory_then_written_by_a_thread():
    make_app()
    calls: list = []
    kept_pictures.hold_writes()
    try:
        first = kept_picture("test-card", (7,), "v", drawn_picture(calls))
        assert not list(folder().glob("test-card-*.pic"))       # not yet written
        again = kept_picture("test-card", (7,), "v", drawn_picture(calls))
        assert again is first and calls == [1]
    finally:
        writer = kept_pictures.write_held()
    assert writer is not None and writer.name == kept_pictures.WRITER_THREAD
    writer.join(10)
    (path,) = folder().glob("test-card-*.pic")
    read = kept_picture("test-card", (7,), "v", drawn_picture(calls))
    assert calls == [1] and read is not first
    assert pygame.image.tobytes(read, "RGBA") == pygame.image.tobytes(first, "RGBA")


def test_the_menus_first_frame_is_on_screen_before_its_lines_are_written(monkeypatch):
    from scenes.core import ui
    from scenes.screens.navigation import open_menu
    ui.FONTS._text.clear()
    ui.FONTS._bytes = 0
    app = make_app(size=(1280, 720))
    open_menu(app)
    kept_at_present = []
    flip = pygame.display.flip
    monkeypatch.setattr(pygame.display, "flip",
                        lambda: (kept_at_present.append(len(list(folder().glob("line-*.pic")))), flip()))
    step(app)
    for thread in threading.enumerate():
        if thread.name == kept_pictures.WRITER_THREAD:
            thread.join(10)
    assert kept_at_present[0] == 0
    assert len(list(folder().glob("line-*.pic"))) >= 10


def test_the_worker_processes_start_a_moment_after_the_first_frame_not_with_it():
    """A game opened at once (or from the command line) has the cores to
    itself while it opens: the work service starts WORK_AFTER seconds after
    the first frame, in the background."""
    from scenes.core.app import WORK_AFTER
    from scenes.screens.navigation import open_game
    from scenes.work import service
    service.shutdown()
    app = make_app()
    open_game(app, "clock", seed=1)
    step(app)                                  # the first frame
    assert service._service is None            # loaded, not started
    from .harness import DT
    step(app, int(WORK_AFTER / DT) - 2)
    assert service._service is None
    step(app, 3)
    assert service._service is not None and service._service._starting is not None
    app.close()


# --- the menu's first frame kept whole -------------------------------------------------
def launch_menu(size=(1280, 720), monkeypatch=None, frames: int = 1, last_game: str | None = None):
    """A launch to the menu with nothing drawn kept in memory from an earlier one;
    returns the app and how often the felt was painted for the first frame."""
    from scenes.core import ui
    from scenes.screens import menu
    from scenes.screens.navigation import open_menu
    ui.FONTS._text.clear()
    ui.FONTS._bytes = 0
    drawn: list = []
    if monkeypatch is not None:
        paint = menu.draw_felt_while
        monkeypatch.setattr(menu, "draw_felt_while", lambda *a: (drawn.append(1), paint(*a)))
    app = make_app(size=size)
    if last_game:
        app.settings.last_game = last_game        # the focus the menu opens with
    open_menu(app)
    step(app, frames)
    return app, drawn


def screen_bytes(app) -> bytes:
    return pygame.image.tobytes(app.screen, "RGB")


def test_the_menus_first_frame_is_read_whole_at_the_next_launch_and_is_what_was_drawn(monkeypatch):
    app, drawn = launch_menu(monkeypatch=monkeypatch)
    assert drawn == [1]
    first = screen_bytes(app)
    (kept,) = folder().glob("menu-*.frame")
    app, drawn = launch_menu(monkeypatch=monkeypatch)
    assert drawn == [] and screen_bytes(app) == first       # read, not drawn: the same pixels
    # The frames after it draw on it as on a drawn one: past Clock's next tick
    # (its hands move) both launches show the same.
    step(app, 80)
    later = screen_bytes(app)
    kept.unlink()
    app, drawn = launch_menu(monkeypatch=monkeypatch, frames=81)
    assert drawn == [1] and screen_bytes(app) == later


def test_a_menu_that_shows_something_else_is_drawn_not_read(monkeypatch):
    from scenes.core import kept_pictures as kp
    app, _ = launch_menu()
    plain = screen_bytes(app)
    # Another game in focus: drawn (it looks otherwise), then kept in its turn.
    app, drawn = launch_menu(monkeypatch=monkeypatch, last_game="clock")
    assert drawn == [1] and screen_bytes(app) != plain
    focused = screen_bytes(app)
    app, drawn = launch_menu(monkeypatch=monkeypatch, last_game="clock")
    assert drawn == [] and screen_bytes(app) == focused
    # Another size, other drawing code: drawn.
    app, drawn = launch_menu(size=(1024, 640), monkeypatch=monkeypatch)
    assert drawn == [1]
    monkeypatch.setattr(kp, "_code_print", "another version of the drawing code")
    app, drawn = launch_menu(monkeypatch=monkeypatch)
    assert drawn == [1] and screen_bytes(app) == plain
    assert len(list(folder().glob("menu-*.frame"))) == kp.KEPT_FRAMES      # the oldest went


@pytest.mark.parametrize("damage", ["cut short", "empty", "other key", "garbage", "longer"])
def test_a_damaged_kept_frame_is_drawn_again_the_same(monkeypatch, damage):
    app, _ = launch_menu()
    first = screen_bytes(app)
    (path,) = folder().glob("menu-*.frame")
    data = path.read_bytes()
    path.write_bytes({"cut short": data[:len(data) // 2], "empty": b"",
                      "other key": data.replace(b"'menu'", b"'mena'"),
                      "garbage": os.urandom(len(data)), "longer": data + b"\0" * 8}[damage])
    app, drawn = launch_menu(monkeypatch=monkeypatch)
    assert drawn == [1] and screen_bytes(app) == first
    app, drawn = launch_menu(monkeypatch=monkeypatch)         # and kept anew
    assert drawn == [] and screen_bytes(app) == first


def test_a_first_frame_with_a_message_over_it_is_not_kept():
    from scenes.screens.navigation import open_menu
    app = make_app()
    open_menu(app)
    app.report("Your settings file was damaged; it was set aside.")
    step(app)
    assert not list(folder().glob("menu-*.frame"))


def test_only_the_launchs_first_frame_is_kept_not_a_menu_opened_later(monkeypatch):
    from scenes.screens.navigation import open_menu
    app, drawn = launch_menu(monkeypatch=monkeypatch)
    (kept,) = folder().glob("menu-*.frame")
    app.settings.last_game = "clock"            # back from a game: the menu anew, another focus
    open_menu(app)
    step(app)
    assert drawn == [1, 1] and list(folder().glob("menu-*.frame")) == [kept]
