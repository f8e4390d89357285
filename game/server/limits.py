"""The server's limits, counted per account and per address (never per
connection, which a client can renew at will), and the sliding-window counter
they use. docs/protocol.md lists them; ``python -m game serve`` can change them.
"""
from __future__ import annotations

import time
from collections import OrderedDict, deque
from dataclasses import dataclass

from .accounts import SCRYPT_N
from .bus import BusUnavailable


@dataclass(frozen=True)
class Limits:
    waiting_per_player: int = 5          # tables waiting, per account (per address for guests)
    waiting_per_address: int = 20        # tables waiting, all accounts of one address together
    connections_per_address: int = 20
    registrations_per_address: int = 5   # new accounts per address per registration_window
    registration_window: float = 3600.0
    failures_per_account: int = 5        # wrong passwords per account per sign_in_window
    failures_per_address: int = 20
    sign_in_window: float = 900.0
    waiting_close: float = 120.0         # a waiting table nobody sits at, its creator gone
    lobby_page: int = 50                 # tables per lobby page (the rest: ask with offset)
    lobby_names: int = 200               # names of people online listed (all are counted)
    scrypt_n: int = SCRYPT_N             # the password hash's cost (tests may lower it)


class AttemptLimiter:
    """At most ``limit`` events per key in ``window`` seconds (sliding). Keys are
    account names and addresses, never connections; the oldest keys are let go
    past ``max_keys`` so a flood of addresses cannot grow it without bound."""

    def __init__(self, limit: int, window: float, max_keys: int = 100_000) -> None:
        self.limit, self.window, self.max_keys = limit, window, max_keys
        self._events: OrderedDict[str, deque] = OrderedDict()

    def _recent(self, key: str, now: float) -> deque:
        events = self._events.get(key)
        if events is None:
            return deque()
        while events and events[0] <= now - self.window:
            events.popleft()
        return events

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        now = time.monotonic() if now is None else now
        events = self._recent(key, now)
        return 0.0 if len(events) < self.limit else events[0] + self.window - now

    def note(self, key: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        events = self._recent(key, now)
        events.append(now)
        self._events[key] = events
        self._events.move_to_end(key)
        while len(self._events) > self.max_keys:
            self._events.popitem(last=False)

    def clear(self, key: str) -> None:
        self._events.pop(key, None)


class Attempts:
    """Attempts counted per key (an account's name, an address) in a window, asked
    and noted with ``await``: kept in this process (:class:`LocalAttempts`) or shared
    by every node on the bus (:class:`SharedAttempts`), so that a limit holds
    whichever node a client reconnects to."""

    async def wait(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        raise NotImplementedError

    async def note(self, key: str) -> None:
        raise NotImplementedError

    async def clear(self, key: str) -> None:
        raise NotImplementedError


class LocalAttempts(Attempts):
    """One server's count (a sliding window)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limiter = AttemptLimiter(limit, window)

    async def wait(self, key: str) -> float:
        return self.limiter.wait(key)

    async def note(self, key: str) -> None:
        self.limiter.note(key)

    async def clear(self, key: str) -> None:
        self.limiter.clear(key)


class SharedAttempts(Attempts):
    """The nodes' count, a counter on the bus (a fixed window from the first attempt:
    ``wait`` cannot know when it ends, so it answers the whole window). While the
    bus cannot be reached nothing is counted and nobody is held back: a player is
    not locked out by a Redis restart."""

    def __init__(self, bus, kind: str, limit: int, window: float) -> None:
        self.bus, self.kind, self.limit, self.window = bus, kind, limit, window

    async def _count(self, key: str, by: int) -> int:
        try:
            return await self.bus.incr(f"{self.kind}:{key}", self.window, by)
        except BusUnavailable:
            return 0

    async def wait(self, key: str) -> float:
        return self.window if await self._count(key, 0) >= self.limit else 0.0

    async def note(self, key: str) -> None:
        await self._count(key, 1)

    async def clear(self, key: str) -> None:
        value = await self._count(key, 0)
        if value:
            await self._count(key, -value)
