"""Arbitrary bytes and arbitrary JSON into each kept-file loader: a clean fallback
(defaults, empty statistics, no save) with one line, or values the screens can
show; never an exception."""
import json
import math
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from scenes.store.saves import load_save, save_path
from scenes.store.schema import MAX_COUNT, MAX_SCORE, MAX_SECONDS
from scenes.store.settings import ANIMATION_SPEEDS, Settings, config_dir, data_dir, load_settings
from scenes.store.stats import load_stats

from .test_kept_files import _board_save, good_save, good_settings, good_stats

# KEPT_FILES_EXAMPLES=5000 for a long run by hand; the suite stays fast.
FAST = settings(max_examples=int(os.environ.get("KEPT_FILES_EXAMPLES", 120)), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

json_scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-10 ** 40, max_value=10 ** 40)
                | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def _one_line(message) -> bool:
    return isinstance(message, str) and "\n" not in message and len(message) < 300


def _put(kind, raw: bytes) -> None:
    """The file in place, with nothing left from the example before."""
    path = {"settings": config_dir() / "settings.json", "stats": data_dir() / "stats.json",
            "save": save_path()}[kind]
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob(f"{path.name}*"):
        old.unlink()
    path.write_bytes(raw)


def _load(kind, raw: bytes):
    _put(kind, raw)
    loader = {"settings": load_settings, "stats": load_stats, "save": load_save}[kind]
    return loader()


def _check_settings(result) -> None:
    settings, message = result
    assert message is None or _one_line(message)
    if message:
        assert settings == Settings()
    assert isinstance(settings.fullscreen, bool) and settings.animation_speed in ANIMATION_SPEEDS
    assert isinstance(settings.volume, float) and 0 <= settings.volume <= 1


def _finite(value, low, high) -> bool:
    return value is None or (not isinstance(value, bool) and math.isfinite(value) and low <= value <= high)


def _check_stats(result) -> None:
    stats, message = result
    assert message is None or _one_line(message)
    if message:
        assert stats.games == {}
    for g in stats.games.values():
        assert 0 <= g.won <= g.played <= MAX_COUNT and g.best_streak <= g.won
        assert _finite(g.best_score, -MAX_SCORE, MAX_SCORE) and _finite(g.best_time, 0, MAX_SECONDS)
        assert _finite(g.total_time, 0, MAX_SECONDS * MAX_COUNT)
        for e in g.history:
            assert _finite(e["seconds"], 0, MAX_SECONDS) and _finite(e["score"], -MAX_SCORE, MAX_SCORE)
        json.dumps(stats.to_json(), allow_nan=False)     # it can be written back


def _check_save(result) -> None:
    data, message = result
    assert message is None or _one_line(message)
    assert (data is None) or (message is None and _finite(data["seconds"], 0, MAX_SECONDS))


CHECK = {"settings": _check_settings, "stats": _check_stats, "save": _check_save}


def _dump(value) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


@FAST
@given(raw=st.binary(max_size=200))
def test_arbitrary_bytes_into_every_loader(raw):
    for kind, check in CHECK.items():
        check(_load(kind, raw))


@FAST
@given(value=json_values)
def test_arbitrary_json_into_every_loader(value):
    for kind, check in CHECK.items():
        check(_load(kind, _dump(value)))


def _mutations(good: dict, values=json_values, most: int = 3):
    """The good file with fields replaced by arbitrary JSON, one level down too."""
    def mutate(changes):
        data = json.loads(json.dumps(good))
        for path, value in changes:
            target = data
            for key in path[:-1]:
                target = target[key] if isinstance(target, dict) and key in target else {}
            if isinstance(target, dict):
                target[path[-1]] = value
        return data

    paths = []
    for key, value in good.items():
        paths.append((key,))
        if isinstance(value, dict):
            for inner, deeper in value.items():
                paths.append((key, inner))
                if isinstance(deeper, dict):
                    paths.extend((key, inner, k) for k in deeper)
    return st.lists(st.tuples(st.sampled_from(paths), values), min_size=1, max_size=most).map(mutate)


@FAST
@given(data=_mutations(good_settings()))
def test_settings_with_fields_replaced_by_arbitrary_json(data):
    _check_settings(_load("settings", _dump(data)))


@FAST
@given(data=_mutations(good_stats()))
def test_statistics_with_fields_replaced_by_arbitrary_json(data):
    _check_stats(_load("stats", _dump(data)))


@FAST
@given(data=_mutations(good_save()))
def test_a_save_with_fields_replaced_by_arbitrary_json(data):
    _check_save(_load("save", _dump(data)))


history_entries = st.lists(st.dictionaries(st.sampled_from(["date", "won", "score", "seconds", "result"]),
                                           json_values | st.booleans()), max_size=4)
level_counts = st.dictionaries(st.text(max_size=8) | st.sampled_from(["easy", "hard"]),
                               st.dictionaries(st.sampled_from(["won", "lost", "drawn", "tied"]), json_values),
                               max_size=3)


@FAST
@given(history=history_entries, levels=level_counts)
def test_statistics_with_arbitrary_results_and_levels(history, levels):
    data = good_stats()
    data["games"]["clock"].update(history=history, levels=levels)
    _check_stats(_load("stats", _dump(data)))


def _played_save(game_id, seed, moves, seconds, mode, human, level) -> dict:
    """A save as the game writes it: a deal (or the board) and a few moves played."""
    import random

    from game import game_class
    from game.base import Status
    game = game_class(game_id)() if game_id == "camelot-board" else game_class(game_id)(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.status is not Status.PLAYING or not game.legal_moves():
            break
        game.play(rng.choice(game.legal_moves()))    # not computer_move: the board AI is slow
        game.settle()
    extra = {"mode": mode, "human": human, "level": level} if game_id == "camelot-board" else {}
    return {"version": 1, "game_id": game_id, "seed": seed, "seconds": seconds,
            "engine": game.to_json(), "extra": extra}


_APP: list = []


# Values a save could hold, so that many mutated saves still load and reach Resume.
PLAUSIBLE = st.sampled_from([0, 1, 3, 4, 5, 12.5, 1e8, 1e8 + 1, -1, True, None, "", "clock", "hamilton",
                             "camelot-board", "camelot-solitaire", "two", "computer", "white", "hard",
                             {}, [], {"seed": 3}, {"mode": "two", "human": "white", "level": "easy"},
                             {"mode": "computer", "human": "black", "level": "medium"}])
SAVE_VALUES = st.one_of(PLAUSIBLE, PLAUSIBLE, PLAUSIBLE, json_values)
PLAYED = st.builds(_played_save, st.sampled_from(["clock", "hamilton", "camelot-solitaire", "camelot-board"]),
                   st.integers(0, 10 ** 6), st.integers(0, 8), st.integers(0, MAX_SECONDS),
                   st.sampled_from(["two", "computer"]), st.sampled_from(["white", "black"]),
                   st.sampled_from(["easy", "medium", "hard"]))


@settings(max_examples=int(os.environ.get("KEPT_FILES_EXAMPLES", 30)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.one_of(PLAYED, PLAYED, _mutations(good_save(), SAVE_VALUES, 2),
                      _mutations(_board_save(), SAVE_VALUES, 2)))
def test_every_save_that_loads_resumes(data):
    """What the menu offers, Resume takes as it is (refused at load with one line,
    never on Resume). Through the menu, as at a launch."""
    import pygame

    from scenes.core.overlays import DialogScene
    from scenes.screens.menu import MenuScene
    from scenes.screens.navigation import open_menu
    from scenes.table.board_screen import BoardScreen
    from scenes.table.game_scene import GameScene

    from .harness import key, make_app, step
    if not _APP:
        _APP.append(make_app())       # one app for all examples: its card art is drawn once
    app = _APP[0]
    _put("save", _dump(data))
    app._resume_offered = False       # the next launch
    app._toasts.clear()
    open_menu(app)
    step(app, 2)                      # the save is read with the menu on screen
    if not isinstance(app.scenes.top, DialogScene):
        assert isinstance(app.scenes.top, MenuScene)
        line, = [text for text, _ in app._toasts]
        assert _one_line(line) and line.startswith("Saved game was unreadable (")
        return
    key(app, pygame.K_RETURN)         # Resume has the focus
    scene = app.scenes.top
    assert isinstance(scene, (GameScene, BoardScreen)) and scene.game_id == data["game_id"]
    step(app, 2)
    assert scene.game.to_json() == data["engine"]
    assert data["seconds"] <= scene.play_seconds <= data["seconds"] + 1   # and the clock goes on
    open_menu(app)                    # the scene's background work ends with it
    step(app)
