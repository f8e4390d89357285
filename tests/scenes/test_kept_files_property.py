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

from .test_kept_files import good_save, good_settings, good_stats

# KEPT_FILES_EXAMPLES=5000 for a long run by hand; the suite stays fast.
FAST = settings(max_examples=int(os.environ.get("KEPT_FILES_EXAMPLES", 120)), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

json_scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-10 ** 40, max_value=10 ** 40)
                | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def _one_line(message) -> bool:
    return isinstance(message, str) and "\n" not in message and len(message) < 300


def _load(kind, raw: bytes):
    path = {"settings": config_dir() / "settings.json", "stats": data_dir() / "stats.json",
            "save": save_path()}[kind]
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob(f"{path.name}*"):
        old.unlink()
    path.write_bytes(raw)
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


def _mutations(good: dict):
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
    return st.lists(st.tuples(st.sampled_from(paths), json_values), min_size=1, max_size=3).map(mutate)


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
