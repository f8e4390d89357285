"""The node's numbers in Prometheus's text format, read back by a strict parser of
that format written here (from the exposition format's rules, not from the code)."""
from __future__ import annotations

import math
import re

import pytest

from game.server.metrics import Counter, Histogram, NodeMetrics, Registry

_SAMPLE = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)(?: (-?\d+))?\Z")
_PAIR = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|\})')
_TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), text)


def _labels(text: str | None) -> dict[str, str]:
    if not text:
        return {}
    labels, at = {}, 1
    while at < len(text):
        match = _PAIR.match(text, at)
        assert match, f"bad labels {text!r} at {at}"
        labels[match.group(1)] = _unescape(match.group(2))
        at = match.end()
    return labels


def parse(text: str) -> dict[str, dict]:
    """Families by name: type, help, samples [(name, labels, value)]. Fails on
    anything the format does not allow."""
    assert text.endswith("\n")
    families: dict[str, dict] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("# HELP "):
            name, _, help_text = line[7:].partition(" ")
            assert name not in families, f"{name} twice"
            families[name] = {"help": _unescape(help_text), "samples": []}
            current = name
        elif line.startswith("# TYPE "):
            name, kind = line[7:].split(" ")
            assert name == current and kind in _TYPES and "type" not in families[name]
            families[name]["type"] = kind
        else:
            match = _SAMPLE.match(line)
            assert match, f"not a sample line: {line!r}"
            name, labels, value = match.group(1), _labels(match.group(2)), float(match.group(3))
            family = families[current]
            suffixes = ("_bucket", "_sum", "_count") if family["type"] == "histogram" else ("",)
            assert any(name == current + s for s in suffixes), f"{name} outside {current}"
            family["samples"].append((name, labels, value))
    for name, family in families.items():
        if family["type"] == "counter":
            assert name.endswith("_total") and all(v >= 0 for _, _, v in family["samples"])
        if family["type"] == "histogram":
            _check_histogram(name, family["samples"])
    return families


def _check_histogram(name: str, samples) -> None:
    series: dict[tuple, list] = {}
    for sample, labels, value in samples:
        key = tuple(sorted((k, v) for k, v in labels.items() if k != "le"))
        series.setdefault(key, []).append((sample, labels.get("le"), value))
    for rows in series.values():
        buckets = [(float(le), v) for s, le, v in rows if s == name + "_bucket"]
        assert [b for b, _ in buckets] == sorted(b for b, _ in buckets) and buckets[-1][0] == math.inf
        assert all(a[1] <= b[1] for a, b in zip(buckets, buckets[1:]))      # cumulative
        (count,) = [v for s, _, v in rows if s == name + "_count"]
        assert count == buckets[-1][1]


def value(families, name, sample=None, **labels) -> float:
    (found,) = [v for s, l, v in families[name]["samples"]
                if s == (sample or name) and l == {k: str(x) for k, x in labels.items()}]
    return found


def test_a_node_s_numbers_read_back_as_they_were_recorded():
    metrics = NodeMetrics("n1")
    metrics.connections.inc(5)
    metrics.connections.dec(2)
    metrics.games.set(7, status="playing")
    metrics.games.set(2, status="waiting")
    for seconds in (0.0007, 0.003, 0.005, 0.2, 12.0):    # 0.005 sits on a bound: counted in it
        metrics.move_round_trip.observe(seconds)
        metrics.moves.inc()
    metrics.lease_changes.inc(change="taken")
    metrics.lease_changes.inc(3, change="lost")
    metrics.bus_lag.observe(0.0004)

    families = parse(metrics.render())
    assert families["roundtable_connections"]["type"] == "gauge"
    assert value(families, "roundtable_connections") == 3
    assert value(families, "roundtable_games", status="playing") == 7
    assert value(families, "roundtable_moves_total") == 5
    assert value(families, "roundtable_lease_changes_total", change="lost") == 3
    trip = "roundtable_move_round_trip_seconds"
    assert families[trip]["type"] == "histogram"
    buckets = {le: value(families, trip, trip + "_bucket", le=le)
               for le in ("0.001", "0.005", "0.25", "10", "+Inf")}
    assert buckets == {"0.001": 1, "0.005": 3, "0.25": 4, "10": 4, "+Inf": 5}
    assert value(families, trip, trip + "_sum") == pytest.approx(12.2087)
    assert value(families, trip, trip + "_count") == 5
    assert value(families, "roundtable_bus_gaps_total") == 0        # there from the start
    assert value(families, "roundtable_bus_lag_seconds", "roundtable_bus_lag_seconds_count") == 1
    assert value(families, "roundtable_node_info", node="n1") == 1
    assert families["roundtable_games"]["samples"][0][1] == {"status": "playing"}  # sorted


def test_label_values_and_help_are_escaped_and_read_back_intact():
    registry = Registry()
    odd = 'a "quoted" back\\slash\nand a new line'
    registry.counter("odd_total", "Help with \\ and\na new line.", ("what",)).inc(what=odd)
    families = parse(registry.render())
    assert families["odd_total"]["help"] == "Help with \\ and\na new line."
    assert value(families, "odd_total", what=odd) == 1


def test_what_the_format_cannot_say_is_refused():
    registry = Registry()
    with pytest.raises(ValueError, match="ends in _total"):
        registry.counter("moves", "no suffix")
    with pytest.raises(ValueError, match="not a Prometheus metric or label name"):
        registry.gauge("bad-name", "dash")
    with pytest.raises(ValueError, match="not a Prometheus metric or label name"):
        Histogram("h", "le is the histogram's own label", (1.0,), ("le",))
    with pytest.raises(ValueError, match="buckets must rise"):
        registry.histogram("h", "falling", (1.0, 0.5))
    counter = registry.counter("c_total", "a counter", ("kind",))
    with pytest.raises(ValueError, match="only goes up"):
        counter.inc(-1, kind="x")
    with pytest.raises(ValueError, match=r"takes the labels \('kind',\)"):
        counter.inc(colour="red")
    with pytest.raises(ValueError, match="registered already"):
        registry.counter("c_total", "again")
    assert isinstance(counter, Counter)
