"""Hostile kept files (issue 11): each is set aside with one line, and the other
two files still load. The start of the app is the real one (``App`` with no
settings given), in the temporary home every test gets (tests/conftest.py)."""
import json
import math
import os
import stat
import threading

import pytest

from game import game_class
from scenes.core.app import App, AppOptions
from scenes.core.overlays import DialogScene
from scenes.screens.navigation import open_game, open_menu
from game.errors import BadNumberError
from game.parsing import FileReadError, read_small_bytes, read_small_text
from scenes.store.files import (MAX_DEPTH, DamagedFileError, UnreachableFileError, clean_stale_temps,
                                read_bytes, read_json, write_json_atomic)
from scenes.store.saves import SAVE_MAX_BYTES, load_save, save_path
from scenes.store.schema import MAX_COUNT, MAX_SECONDS
from scenes.store.settings import SETTINGS_MAX_BYTES, Settings, config_dir, data_dir, load_settings
from scenes.store.stats import STATS_MAX_BYTES, GameStats, load_stats

from .harness import make_app, step


def good_settings() -> dict:
    return {"version": 1, "fullscreen": False, "animation_speed": "slow", "sound": False,
            "volume": 0.5, "card_back": "red", "last_game": "clock", "winnable_only": False}


def good_stats() -> dict:
    clock = GameStats()
    clock.record(True, 12, 95.5, date=1_700_000_000)
    return {"version": 1, "games": {"clock": clock.to_json()}}


def good_save(seed: int = 3, moves: int = 2) -> dict:
    game = game_class("clock")(seed=seed)
    for _ in range(moves):
        game.play(game.computer_move())
    return {"version": 1, "game_id": "clock", "seed": seed, "seconds": 12.5,
            "engine": game.to_json(), "extra": {}}


PATHS = {"settings": lambda: config_dir() / "settings.json",
         "stats": lambda: data_dir() / "stats.json",
         "save": save_path}
GOOD = {"settings": good_settings, "stats": good_stats, "save": good_save}
WHAT = {"settings": "Settings file", "stats": "Statistics file", "save": "Saved game"}
LIMIT = {"settings": SETTINGS_MAX_BYTES, "stats": STATS_MAX_BYTES, "save": SAVE_MAX_BYTES}


def write_all_good(but: str | None = None) -> None:
    for name, path in PATHS.items():
        if name != but:
            path().parent.mkdir(parents=True, exist_ok=True)
            path().write_text(json.dumps(GOOD[name]()))


def start_app():
    """The next launch, to the menu (where a save is offered)."""
    app = App(AppOptions(size=(1280, 720)))
    open_menu(app)
    step(app, 2)
    return app


def lines(app) -> list[str]:
    return [text for text, _ in app._toasts]


def assert_others_loaded(app, but: str) -> None:
    if but != "settings":
        assert (app.settings.animation_speed, app.settings.card_back, app.settings.volume) == ("slow", "red", 0.5)
    if but != "stats":
        assert app.stats.game("clock").played == 1 and app.stats.game("clock").best_score == 12
    if but != "save":
        dialog = app.scenes.top
        assert isinstance(dialog, DialogScene) and "Resume Clock (deal 3)?" in dialog.lines
    else:
        assert not isinstance(app.scenes.top, DialogScene)


def _with(kind: str, **changes) -> bytes:
    data = GOOD[kind]()
    data.update(changes)
    return json.dumps(data).encode()


# (case, bytes for the file, words the one line must hold). Every kind of file gets each.
HOSTILE = [
    ("nested 2,000 deep", b"[" * 2000 + b"]" * 2000, f"nested more than {MAX_DEPTH} deep"),
    ("objects nested 40 deep", b'{"a":' * 40 + b"1" + b"}" * 40, f"nested more than {MAX_DEPTH} deep"),
    ("Infinity", b'{"version": 1, "x": Infinity}', "Infinity is not a number we keep"),
    ("-Infinity", b'{"version": 1, "x": -Infinity}', "-Infinity is not a number we keep"),
    ("NaN", b'{"version": 1, "x": NaN}', "NaN is not a number we keep"),
    ("1e999 (reads as inf)", b'{"version": 1, "x": 1e999}', "the number '1e999' is out of range"),
    ("a 4,000-digit int", b'{"version": 1, "x": ' + b"9" * 4000 + b"}", "a number 4,000 digits long"),
    ("version true", b'{"version": true}', "version true, expected 1"),
    ("version 1.0", b'{"version": 1.0}', "version 1.0, expected 1"),
    ("version as text", b'{"version": "1"}', "version '1', expected 1"),
    ("not UTF-8", b'{"version": 1, "x": "\xff\xfe"}', "not UTF-8 text (byte 21)"),
    ("not UTF-8 after a byte-order mark", b'\xef\xbb\xbf{"version": 1, "x": "\xff\xfe"}',
     "not UTF-8 text (byte 24)"),
    ("a list", b"[1, 2]", "not a JSON object"),
    ("cut short", b'{"version": 1, "x": [', "Expecting value: line 1 column 22"),
    ("empty", b"", "Expecting value: line 1 column 1"),
    # not "no file": taken so, it was overwritten unsaid (issue 20)
    ("just null", b"null", "it holds only null"),
    ("null after a byte-order mark", b"\xef\xbb\xbf null\n", "it holds only null"),
]


@pytest.mark.parametrize("kind", ["settings", "stats", "save"])
@pytest.mark.parametrize("case,raw,words", HOSTILE, ids=[c[0] for c in HOSTILE])
def test_hostile_file_is_set_aside_with_one_line_and_the_rest_loads(kind, case, raw, words):
    write_all_good(but=kind)
    path = PATHS[kind]()
    path.write_bytes(raw)
    app = start_app()
    said = lines(app)
    assert len(said) == 1, said
    line = said[0]
    assert line.startswith(f"{WHAT[kind]} was unreadable ({words}") and "\n" not in line
    assert f"kept as {path.name}.bad-" in line and len(line) < 200
    kept = list(path.parent.glob(f"{path.name}.bad-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == raw and not path.exists()
    assert_others_loaded(app, but=kind)


@pytest.mark.parametrize("kind", ["settings", "stats", "save"])
def test_a_file_over_its_size_limit_is_set_aside_unread(kind):
    write_all_good(but=kind)
    path = PATHS[kind]()
    raw = b'{"version": 1, "x": "' + b"a" * LIMIT[kind] + b'"}'
    path.write_bytes(raw)
    app = start_app()
    assert lines(app) == [f"{WHAT[kind]} was unreadable (bigger than {LIMIT[kind]:,} bytes); "
                          f"{'using defaults, ' if kind == 'settings' else ''}"
                          f"kept as {next(path.parent.glob(path.name + '.bad-*')).name}."]
    assert_others_loaded(app, but=kind)


@pytest.mark.parametrize("kind", ["settings", "stats", "save"])
def test_a_byte_order_mark_is_accepted_not_damaged(kind):
    write_all_good(but=kind)
    path = PATHS[kind]()
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD[kind]()).encode())
    app = start_app()
    assert lines(app) == [] and path.exists()
    assert_others_loaded(app, but="nothing")


def _loads_within(loader, seconds: float = 10.0):
    """Run ``loader`` in a thread: a FIFO read that blocks would hang the test otherwise."""
    out = []
    worker = threading.Thread(target=lambda: out.append(loader()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert out, "the loader hung"
    return out[0]


@pytest.mark.parametrize("kind", ["settings", "stats", "save"])
@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "folder"])
def test_a_fifo_dev_zero_or_folder_in_place_of_the_file_is_set_aside(kind, special):
    if special == "/dev/zero" and not stat.S_ISCHR(os.stat("/dev/zero").st_mode):
        pytest.skip("/dev/zero is not a device here (something replaced it with a file)")
    write_all_good(but=kind)
    path = PATHS[kind]()
    if special == "fifo":
        os.mkfifo(path)
    elif special == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    app = _loads_within(start_app)
    line, = lines(app)
    assert line.startswith(f"{WHAT[kind]} was unreadable (not a regular file)")
    kept, = path.parent.glob(f"{path.name}.bad-*")
    assert not os.path.lexists(path) and f"kept as {kept.name}" in line
    assert_others_loaded(app, but=kind)


# --- values against each file's schema --------------------------------------------------
SETTINGS_BAD = [
    ({"volume": 1.5}, "volume must be a number from 0 to 1, not 1.5"),
    ({"volume": True}, "volume must be a number from 0 to 1, not true"),
    ({"fullscreen": 1}, "fullscreen must be true or false, not 1"),
    ({"sound": None}, "sound must be true or false, not null"),
    ({"animation_speed": "warp"}, "unknown animation speed 'warp'"),
    ({"animation_speed": ["fast"]}, "unknown animation speed ['fast']"),
    ({"card_back": "tartan"}, "unknown card back 'tartan'"),
    ({"last_game": "chess"}, "unknown game 'chess'"),
    ({"winnable_only": "yes"}, "winnable_only must be true or false, not 'yes'"),
]


@pytest.mark.parametrize("change,words", SETTINGS_BAD, ids=[str(c[0]) for c in SETTINGS_BAD])
def test_settings_values_outside_the_schema(change, words):
    path = config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(_with("settings", **change))
    settings, line = load_settings()
    assert settings == Settings()
    assert line.startswith(f"Settings file was unreadable ({words}); using defaults, kept as settings.json.bad-")


def _stats_with(**game) -> bytes:
    data = good_stats()
    data["games"]["clock"].update(game)
    return json.dumps(data).encode()


STATS_BAD = [
    (_stats_with(played=MAX_COUNT + 1), "played must be a whole number from 0 to 1,000,000,000"),
    (_stats_with(played=2.0), "played must be a whole number from 0 to 1,000,000,000, not 2.0"),
    (_stats_with(won=True), "won must be a whole number"),
    (_stats_with(best_time=-1), "best time must be a number from 0 to 100,000,000, not -1"),
    (_stats_with(total_time=1e300), "total time must be a number from 0 to"),
    (_stats_with(best_score="high"), "best score must be a number"),
    (_stats_with(won=7), "counts do not add up"),
    (_stats_with(history=[{"won": "yes"}]), "a result's won must be true or false"),
    (_stats_with(history=[{"won": True, "seconds": 1e200}]), "a result's time must be a number"),
    (_stats_with(history=[{"won": True, "score": [[1]]}]), "a result's score must be a number"),
    (_stats_with(history=[{"won": True, "date": 10 ** 12}]), "a result's date must be a whole number"),
    (_stats_with(history=[{"won": True, "result": "maybe"}]), "unknown result 'maybe'"),
    (_stats_with(levels={"hard": {"won": -1}}), "won count must be a whole number"),
    (_stats_with(levels={"hard": {"tied": 1}}), "unknown result 'tied'"),
    (_stats_with(levels={"x" * 50: {}}), "level must be a short word"),
    (json.dumps({"version": 1, "games": {"chess": {}}}).encode(), "unknown game 'chess'"),
    (json.dumps({"version": 1, "games": []}).encode(), "games must be an object"),
]


@pytest.mark.parametrize("raw,words", STATS_BAD, ids=[w for _, w in STATS_BAD])
def test_statistics_values_outside_the_schema(raw, words):
    path = data_dir() / "stats.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(raw)
    stats, line = load_stats()
    assert stats.games == {}
    assert line.startswith(f"Statistics file was unreadable ({words}") and "kept as stats.json.bad-" in line
    assert next(path.parent.glob("stats.json.bad-*")).read_bytes() == raw


def _board_save() -> dict:
    game = game_class("camelot-board")()
    game.play(game.computer_move())
    return {"version": 1, "game_id": "camelot-board", "seed": 5, "seconds": 30,
            "engine": game.to_json(), "extra": {"mode": "computer", "human": "white", "level": "hard"}}


def _save_with(base=None, **changes) -> dict:
    data = base or good_save()
    data.update(changes)
    return data


SAVE_BAD = [
    (_save_with(extra={"mode": "computer", "human": "black", "level": "hard"}),
     "clock takes no 'human', 'level', 'mode'"),
    (_save_with(seconds=1e300), "the time played must be a number from 0 to 100,000,000"),
    (_save_with(seconds=-1), "the time played must be a number from 0"),
    (_save_with(seconds="12"), "the time played must be a number"),
    (_save_with(seed=True), "the deal number must be a whole number"),
    (_save_with(seed=-1), "the deal number must be a whole number from 0 to 999,999,999,999,999,999, not -1"),
    (_save_with(seed=10 ** 25), "a number in the file must be a whole number at least 0 and at most 999999999999999999"),
    (_save_with(seed=4), "the game is deal 3, not deal 4"),
    (_save_with(game_id="hamilton"), "save is for 'clock', not 'hamilton'"),
    (_save_with(game_id=["clock"]), "unknown game ['clock']"),
    (_save_with(engine=[]), "the game must be an object"),
    (_save_with(_board_save(), extra={"mode": "computer", "human": "white"}), "the players are missing"),
    (_save_with(_board_save(), extra={"mode": "demo", "human": "white", "level": "hard"}),
     "unknown mode 'demo'"),
    (_save_with(_board_save(), extra={"mode": "two", "human": "white", "level": "godlike"}),
     "unknown level 'godlike'"),
]


@pytest.mark.parametrize("data,words", SAVE_BAD, ids=[w for _, w in SAVE_BAD])
def test_save_fields_must_fit_its_game_at_load_not_at_resume(data, words):
    write_all_good(but="save")
    raw = json.dumps(data).encode()
    save_path().write_bytes(raw)
    app = start_app()
    line, = lines(app)
    assert line.startswith(f"Saved game was unreadable ({words}") and "kept as save.json.bad-" in line
    assert next(save_path().parent.glob("save.json.bad-*")).read_bytes() == raw
    assert_others_loaded(app, but="save")


def test_good_saves_of_both_kinds_still_load():
    for data in (good_save(), _board_save()):
        save_path().parent.mkdir(parents=True, exist_ok=True)
        save_path().write_text(json.dumps(data))
        assert load_save() == (data, None)


# --- nothing the screens cannot show -----------------------------------------------------
def test_an_infinite_time_never_reaches_the_statistics():
    g = GameStats()
    for bad in (math.inf, -math.inf, math.nan, 1e300, "soon", None):
        g.record(True, math.inf, bad)
    assert g.played == 6 and g.best_score is None
    assert all(math.isfinite(e["seconds"]) and e["seconds"] <= MAX_SECONDS for e in g.history)
    assert math.isfinite(g.total_time) and g.total_time <= MAX_SECONDS
    stats, _ = load_stats()
    stats.games["clock"] = g
    assert stats.save() is None
    again, line = load_stats()
    assert line is None and again.game("clock").to_json() == g.to_json()


def test_statistics_at_every_bound_load_and_draw():
    from scenes.screens.statistics import StatsScene

    from .harness import make_app
    top = {"played": MAX_COUNT, "won": MAX_COUNT, "current_streak": MAX_COUNT, "best_streak": MAX_COUNT,
           "best_score": -10 ** 9, "best_time": MAX_SECONDS, "total_time": 1e16,
           "history": [{"date": 10 ** 11, "won": True, "score": 10 ** 9, "seconds": MAX_SECONDS,
                        "result": "won"}] * 200,
           "levels": {"hard": {"won": MAX_COUNT, "lost": 0, "drawn": 0}, "odd": {}}}
    path = data_dir() / "stats.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 1, "games": {"clock": top, "camelot-board": top}}))
    stats, line = load_stats()
    assert line is None and stats.game("clock").played == MAX_COUNT
    app = make_app()
    app.stats = stats
    for game_id in ("clock", "camelot-board"):
        app.scenes.reset(StatsScene(app, game_id))
        step(app)


def test_nan_is_never_written():
    path = data_dir() / "stats.json"
    write_json_atomic(path, {"version": 1})
    with pytest.raises(ValueError):
        write_json_atomic(path, {"version": 1, "x": math.nan})
    assert read_json(path, 100) == {"version": 1}
    assert not list(path.parent.glob("*.tmp"))


# --- folders out of reach, leftovers ------------------------------------------------------
def test_a_home_that_cannot_be_entered_still_starts_with_settings_in_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ROUNDTABLE_HOME", str(blocker / "home"))
    app = start_app()
    line, = lines(app)
    assert line.startswith(f"Cannot write in {blocker / 'home'} (Not a directory): settings and statistics")
    assert line.endswith("will not be kept after you quit.")
    app.settings.sound = False
    app.save_settings()
    assert app.stats.record("clock", True, 3, 10) is None and app.stats.game("clock").played == 1
    assert lines(app) == [line]              # said once, not again at every change
    app.quit()
    assert blocker.read_text() == "not a folder"


@pytest.mark.parametrize("home", ["a file", "a FIFO", "a path too long"])
def test_a_home_that_is_no_folder_is_one_line_through_the_menu(tmp_path, monkeypatch, home):
    if home == "a file":
        target = tmp_path / "home"
        target.write_text("x")
    elif home == "a FIFO":
        target = tmp_path / "home"
        os.mkfifo(target)
    else:
        target = tmp_path / ("x" * 300) / "home"      # every open fails: File name too long
    monkeypatch.setenv("ROUNDTABLE_HOME", str(target))
    app = start_app()
    line, = lines(app)                                # not one more for each file in it
    assert line.startswith("Cannot write in ") and line.endswith(
        "settings and statistics will not be kept after you quit.")
    if home != "a path too long":
        assert line == f"Cannot write in {target} (it is not a folder): settings and statistics " \
                       "will not be kept after you quit."
    else:
        assert "(File name too long)" in line and f"…{str(target)[-99:]} " in line and len(line) < 250


def test_a_folder_that_cannot_be_written_keeps_the_files_as_they_are(monkeypatch):
    import scenes.store.settings as settings_module
    write_all_good()
    before = {name: path().read_bytes() for name, path in PATHS.items()}
    monkeypatch.setattr(settings_module, "folder_problem", lambda folder: "Read-only file system")
    app = start_app()
    assert lines(app) == [f"Cannot write in {config_dir()} (Read-only file system): settings and "
                          "statistics will not be kept after you quit."]
    assert_others_loaded(app, but="nothing")   # read all the same
    app.settings.volume = 0.1
    app.save_settings()
    app.stats.record("clock", False, 1, 5)
    assert {name: path().read_bytes() for name, path in PATHS.items()} == before


def _refuse_to_open(monkeypatch, path, error=PermissionError(13, "Permission denied")):
    """``path`` is there but cannot be opened (as root, chmod does not stop us)."""
    import scenes.store.files as files
    real_open = os.open

    def refusing_open(name, *args, **kwargs):
        if os.fspath(name) == os.fspath(path):
            raise error
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(files.os, "open", refusing_open)


def test_a_settings_file_that_cannot_be_opened_is_left_and_never_overwritten(monkeypatch):
    write_all_good()
    path = PATHS["settings"]()
    _refuse_to_open(monkeypatch, path)
    app = start_app()
    monkeypatch.undo()
    assert lines(app)[0] == ("Settings file could not be opened (Permission denied); "
                             "using defaults, left as it is.")
    assert app.settings == Settings()
    app.settings.volume = 0.1
    app.save_settings()
    assert json.loads(path.read_text()) == good_settings()


def _clock_moves(scene, n):
    for _ in range(n):
        scene.play(scene.game.computer_move(scene.rng))
        step(scene.app, 40)


def test_a_save_that_cannot_be_opened_survives_a_new_deal_and_quitting_mid_game(monkeypatch):
    """Situation: save.json is there, its folder is writable, but the file cannot be
    opened. Action: launch, play a new deal (which clears a stale save), quit mid-game.
    Expected: the unreadable save is never deleted or overwritten: it is set aside
    under a new name with its bytes, and the game in progress is saved in its place."""
    write_all_good()
    path = save_path()
    raw = path.read_bytes()
    _refuse_to_open(monkeypatch, path)
    app = start_app()
    assert lines(app)[0] == "Saved game could not be opened (Permission denied); left as it is."
    open_game(app, "clock", seed=9)
    scene = app.scenes.top
    step(app, 40)
    _clock_moves(scene, 2)
    scene.new_deal(11)                       # a new game: an old save of ours would be stale
    assert path.read_bytes() == raw and not list(path.parent.glob("save.json.bad-*"))
    _clock_moves(scene, 2)
    app.quit()
    kept, = path.parent.glob("save.json.bad-*")
    assert kept.read_bytes() == raw
    monkeypatch.undo()                       # (the home folder's variable too: keep the path)
    data, message = load_save(path)
    assert message is None and data["seed"] == 11 and len(data["engine"]["moves"]) == 2


def test_a_save_that_cannot_be_opened_or_set_aside_is_left_and_the_game_not_written(monkeypatch):
    """Situation: an unopenable save.json that cannot be renamed either. Action: save a
    game over it. Expected: one line saying so, and the file is untouched."""
    import scenes.store.saves as saves
    write_all_good()
    path = save_path()
    raw = path.read_bytes()
    _refuse_to_open(monkeypatch, path, OSError(5, "Input/output error"))

    def refuse_move(_path):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(saves, "move_aside", refuse_move)
    app = make_app()
    open_game(app, "clock", seed=9)
    scene = app.scenes.top
    step(app, 40)
    _clock_moves(scene, 2)
    assert saves.save_game(scene) == ("Could not save the game: save.json could not be opened "
                                      "(Input/output error); left as it is.")
    monkeypatch.undo()
    assert path.read_bytes() == raw and not list(path.parent.glob("save.json.bad-*"))


def test_the_engine_and_the_app_read_small_files_through_one_bounded_reader(tmp_path, monkeypatch):
    """Situation: a FIFO, a folder, a file one byte over the limit, and a file whose
    read fails. Action: read each with the engine's reader and the app's kept-file
    reader. Expected: the same refusal in the same words from both (one
    implementation), and a failed read is told apart from a failed open."""
    fifo, big, fine = tmp_path / "fifo", tmp_path / "big.txt", tmp_path / "fine.txt"
    os.mkfifo(fifo)
    big.write_bytes(b"1" * 1001)
    fine.write_bytes(b"7 " * 40_000)                      # more than one 64 KiB chunk
    for path, reason in [(fifo, "not a regular file"), (tmp_path, "not a regular file"),
                         (big, "bigger than 1,000 bytes")]:
        with pytest.raises(BadNumberError) as engine:
            read_small_text(path, 1000)
        with pytest.raises(DamagedFileError) as app:
            read_bytes(path, 1000)
        assert str(engine.value) == f"{path} is {reason}" and str(app.value) == reason
    assert read_small_bytes(fine, 80_000) == read_bytes(fine, 80_000) == b"7 " * 40_000

    def failing_read(fd, n):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "read", failing_read)
    with pytest.raises(FileReadError):
        read_small_text(fine, 80_000)
    with pytest.raises(UnreachableFileError, match=r"^could not be read \(Input/output error\)$"):
        read_bytes(fine, 80_000)


def test_stale_temp_files_are_cleaned_at_start_and_young_or_foreign_ones_kept():
    home = config_dir()
    home.mkdir(parents=True)
    old = [home / "settings.json.k2j3h4.tmp", home / "stats.jsonab12cd.tmp", home / "save.json.x.tmp",
           home / ".probe.zz.tmp"]
    young = home / "stats.json.now.tmp"
    foreign = home / "notes.tmp"
    for f in old + [young, foreign]:
        f.write_text("{")
    for f in old + [foreign]:
        os.utime(f, (1_000_000_000, 1_000_000_000))
    start_app()
    assert not any(f.exists() for f in old) and young.exists() and foreign.exists()


def test_kill_9_during_writes_leaves_a_whole_file_and_only_temps_that_are_cleaned(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    path = tmp_path / "settings.json"
    write_json_atomic(path, {"version": 1, "n": -1})
    writer = subprocess.Popen([sys.executable, "-c", (
        "import sys; from pathlib import Path; from scenes.store.files import write_json_atomic\n"
        f"p = Path({str(path)!r}); n = 0\n"
        "while True:\n"
        "    write_json_atomic(p, {'version': 1, 'n': n, 'pad': 'x' * 20000}); n += 1\n")],
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and read_json(path, 1 << 20)["n"] < 5:
            time.sleep(0.01)
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
    assert read_json(path, 1 << 20)["n"] >= 5           # whole, never half-written
    clean_stale_temps(tmp_path, ("settings.json",), older_than=-1)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


# --- the screenshot and the window --------------------------------------------------------
@pytest.mark.parametrize("target,words", [
    ("{tmp}/missing-folder/x.png", "--screenshot: there is no folder '"),
    ("{tmp}", "is a folder, not a file"),
    ("", "--screenshot needs a file name, not ''"),
])
def test_screenshot_to_a_missing_folder_or_onto_a_folder_is_one_line_and_exit_2(tmp_path, capsys, target,
                                                                                   words):
    from scenes.launcher import main
    code = main(["--frames", "3", "--screenshot", target.format(tmp=tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("roundtable: error: --screenshot") and words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_screenshot_folder_gone_while_the_frames_ran_is_one_line_and_exit_2(tmp_path, capsys):
    folder = tmp_path / "shots"
    folder.mkdir()
    app = App(AppOptions(size=(640, 360), frames=2, screenshot=str(folder / "x.png"), save_settings=False))
    open_menu(app)
    folder.rmdir()
    assert app.run() == 2
    err = capsys.readouterr().err
    assert err.startswith(f"roundtable: error: could not save the screenshot to '{folder / 'x.png'}'")
    assert err.count("\n") == 1


@pytest.mark.parametrize("size", [(1, 1), (10, 10), (50, 300), (639, 359), (1, 1000)])
def test_a_full_screen_window_that_reports_a_size_below_the_minimum_becomes_a_window(size):
    import pygame

    from scenes.core.app import MIN_WINDOW
    app = App(AppOptions(fullscreen=True, save_settings=False), settings=Settings(sound=False))
    open_menu(app)
    step(app)
    assert app.fullscreen
    pygame.display.set_mode(size)       # what the window manager did
    app.on_window_resized()
    step(app, 2)
    assert not app.fullscreen and app.size[0] >= MIN_WINDOW[0] and app.size[1] >= MIN_WINDOW[1]
    assert app.settings.fullscreen      # the player's choice is unchanged; F11 goes back


def test_the_menu_lays_out_in_any_size_it_is_given():
    """Should a window manager still hand over a few pixels, the menu does not fail."""
    from scenes.screens.menu import MenuScene

    from .harness import make_app
    app = make_app()
    menu = MenuScene(app)
    for size in [(1, 1), (10, 10), (1, 1000), (1000, 1)]:
        menu.resize(size)
        assert all(tile.rect.w >= 1 for tile in menu.tiles)
