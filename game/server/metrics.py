"""A node's numbers for Prometheus: counters, gauges and histograms in the text
exposition format (version 0.0.4), which ``/metrics`` will serve.

Small on purpose: recording is a dict update (a histogram adds a bisect), cheap
enough for a handler to do on every move; rendering happens only when scraped.
:class:`NodeMetrics` names what a server node reports (see docs/cluster.md).

Every server records into one (``GameServer.metrics``) and serves it on its port
(game/server/web.py).
"""
from __future__ import annotations

import math
import re
from bisect import bisect_left

_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*\Z")
_LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*\Z")

# Seconds: a loopback move round trip is ~1 ms; a failover is seconds.
ROUND_TRIP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LAG_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    return repr(float(value)) if value != int(value) else str(int(value))


def _escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def _escape_value(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(names: tuple[str, ...], values: tuple[str, ...], extra: str = "") -> str:
    pairs = [f'{n}="{_escape_value(v)}"' for n, v in zip(names, values)]
    if extra:
        pairs.append(extra)
    return "{" + ",".join(pairs) + "}" if pairs else ""


class _Metric:
    kind = ""

    def __init__(self, name: str, help: str, labels: tuple[str, ...] = ()) -> None:
        if not _NAME.match(name) or not all(_LABEL.match(n) and n != "le" for n in labels):
            raise ValueError(f"not a Prometheus metric or label name: {name} {labels}")
        self.name, self.help, self.labels = name, help, tuple(labels)

    def _key(self, labels: dict[str, object]) -> tuple[str, ...]:
        if set(labels) != set(self.labels):
            raise ValueError(f"{self.name} takes the labels {self.labels}, not {tuple(labels)}")
        return tuple(str(labels[n]) for n in self.labels)

    def render(self) -> list[str]:
        return [f"# HELP {self.name} {_escape_help(self.help)}", f"# TYPE {self.name} {self.kind}",
                *self._samples()]

    def _samples(self) -> list[str]:
        raise NotImplementedError


class _Valued(_Metric):
    """One number per set of label values."""

    def __init__(self, name: str, help: str, labels: tuple[str, ...] = ()) -> None:
        super().__init__(name, help, labels)
        self.values: dict[tuple[str, ...], float] = {} if labels else {(): 0}   # 0 from the start

    def _add(self, amount: float, labels: dict) -> None:
        key = self._key(labels)
        self.values[key] = self.values.get(key, 0) + amount

    def _samples(self) -> list[str]:
        return [f"{self.name}{_labels(self.labels, k)} {_number(v)}"
                for k, v in sorted(self.values.items())]


class Counter(_Valued):
    """Only goes up (its name ends in ``_total``)."""

    kind = "counter"

    def __init__(self, name: str, help: str, labels: tuple[str, ...] = ()) -> None:
        if not name.endswith("_total"):
            raise ValueError(f"a counter's name ends in _total: {name}")
        super().__init__(name, help, labels)

    def inc(self, amount: float = 1, **labels) -> None:
        if amount < 0:
            raise ValueError(f"{self.name} only goes up")
        self._add(amount, labels)


class Gauge(_Valued):
    """Goes up and down, or is set."""

    kind = "gauge"

    def inc(self, amount: float = 1, **labels) -> None:
        self._add(amount, labels)

    def dec(self, amount: float = 1, **labels) -> None:
        self._add(-amount, labels)

    def set(self, value: float, **labels) -> None:
        self.values[self._key(labels)] = value


class Histogram(_Metric):
    """Observations counted into buckets (cumulative when rendered, ``le`` = upper bound)."""

    kind = "histogram"

    def __init__(self, name: str, help: str, buckets: tuple[float, ...],
                 labels: tuple[str, ...] = ()) -> None:
        super().__init__(name, help, labels)
        if list(buckets) != sorted(set(buckets)) or not buckets:
            raise ValueError(f"{name}: buckets must rise: {buckets}")
        self.bounds = tuple(buckets) + (math.inf,)
        self.counts: dict[tuple[str, ...], list[int]] = {}
        self.sums: dict[tuple[str, ...], float] = {}
        if not labels:
            self.counts[()], self.sums[()] = [0] * len(self.bounds), 0.0

    def observe(self, value: float, **labels) -> None:
        key = self._key(labels)
        counts = self.counts.get(key)
        if counts is None:
            counts = self.counts[key] = [0] * len(self.bounds)
            self.sums[key] = 0.0
        counts[bisect_left(self.bounds, value)] += 1
        self.sums[key] += value

    def _samples(self) -> list[str]:
        lines = []
        for key, counts in sorted(self.counts.items()):
            running = 0
            for bound, count in zip(self.bounds, counts):
                running += count
                le = f'le="{_number(bound)}"'
                lines.append(f"{self.name}_bucket{_labels(self.labels, key, le)} {running}")
            lines.append(f"{self.name}_sum{_labels(self.labels, key)} {_number(self.sums[key])}")
            lines.append(f"{self.name}_count{_labels(self.labels, key)} {running}")
        return lines


class Registry:
    """The metrics of one node, rendered together."""

    CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

    def __init__(self) -> None:
        self._metrics: dict[str, _Metric] = {}

    def _add(self, metric):
        if metric.name in self._metrics:
            raise ValueError(f"{metric.name} is registered already")
        self._metrics[metric.name] = metric
        return metric

    def counter(self, name: str, help: str, labels: tuple[str, ...] = ()) -> Counter:
        return self._add(Counter(name, help, labels))

    def gauge(self, name: str, help: str, labels: tuple[str, ...] = ()) -> Gauge:
        return self._add(Gauge(name, help, labels))

    def histogram(self, name: str, help: str, buckets: tuple[float, ...],
                  labels: tuple[str, ...] = ()) -> Histogram:
        return self._add(Histogram(name, help, buckets, labels))

    def render(self) -> str:
        return "".join(line + "\n" for m in self._metrics.values() for line in m.render())


class NodeMetrics:
    """What a server node reports on ``/metrics``."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.registry = r = Registry()
        r.gauge("roundtable_node_info", "This node's name (always 1).", ("node",)).set(1, node=node)
        self.connections = r.gauge("roundtable_connections", "Open WebSocket connections.")
        self.games = r.gauge("roundtable_games", "Tables this node referees, by status.",
                             ("status",))
        self.moves = r.counter("roundtable_moves_total", "Moves stored and acknowledged.")
        self.move_round_trip = r.histogram(
            "roundtable_move_round_trip_seconds",
            "From a move frame read to its acknowledgement written (stored first).",
            ROUND_TRIP_BUCKETS)
        self.bus_lag = r.histogram(
            "roundtable_bus_lag_seconds",
            "From a message published on another node to its arrival here (senders' clocks).",
            LAG_BUCKETS)
        self.bus_gaps = r.counter("roundtable_bus_gaps_total",
                                  "Gaps reported by the bus (each answered by a reload).")
        self.lease_changes = r.counter(
            "roundtable_lease_changes_total",
            "Table leases taken, lost (lapsed or taken over) and released by this node.",
            ("change",))
        self.storage_errors = r.counter("roundtable_storage_unavailable_total",
                                        "Writes refused because the database was unreachable.")

    def render(self) -> str:
        return self.registry.render()
