"""What server nodes tell each other: table events, who is online, shared counters.

The database is the truth; the bus only says "look". A node commits a change, then
publishes it; the nodes whose clients watch that table forward it. Anything the
bus could not carry — it restarted, a subscriber fell behind, a sender could not
reach it — is reported to the subscriber as a :class:`Gap` on that channel, and
the answer to a gap is always the same: read the table from the store. So a
message lost on the bus costs a reload, never a move.

Pub/sub, not streams (Redis has both): a stream lets a subscriber that lost its
connection read what it missed, but only while Redis keeps the stream — after a
Redis restart (this bus keeps nothing on disk) the reader must go to the database
anyway, so that path has to exist and be right, and with it a stream adds only
trimming, one cursor per table and memory held in Redis. Pub/sub fans out to many
channels on one connection per node and drops what nobody listens to.

:class:`InProcessBus` is the single-node bus (several share an
:class:`InProcessHub` in tests); :class:`RedisBus` uses redis-py's asyncio client,
imported only by it (``pip install '.[server]'``). Both keep one contract
(tests/net/test_bus_contract.py). Bodies are JSON objects on both, so what works
in one process works across nodes.
"""
from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass

from .jsontext import dumps, loads

QUEUE_LIMIT = 10_000          # events a subscriber may leave unread before it gets gaps instead
_CLOSED = object()            # the end of a subscription's events


@dataclass(frozen=True)
class Message:
    channel: str
    body: dict
    sender: str               # the node that published it
    sent_at: float            # the sender's time.time(): the receiver's clock minus it is the lag


@dataclass(frozen=True)
class Gap:
    """Messages on ``channel`` may have been missed: read the store again."""

    channel: str
    reason: str


class BusUnavailable(RuntimeError):
    """The bus cannot be reached for a call that needs an answer (one line)."""


def encode(sender: str, body: dict) -> str:
    return dumps({"s": sender, "t": time.time(), "b": body})


def encode_gap(sender: str, reason: str) -> str:
    return dumps({"s": sender, "gap": reason})


def decode(channel: str, payload: str | bytes) -> Message | Gap:
    return _event(channel, loads(payload))


def encode_run(payloads: list[str]) -> str:
    """Several encoded messages for one channel as one payload (in their order)."""
    return payloads[0] if len(payloads) == 1 else "[" + ",".join(payloads) + "]"


def decode_run(channel: str, payload: str | bytes) -> list[Message | Gap]:
    """The events of a payload made by :func:`encode_run` (or :func:`encode`)."""
    data = loads(payload)
    return [_event(channel, one) for one in data] if isinstance(data, list) \
        else [_event(channel, data)]


def _event(channel: str, data: dict) -> Message | Gap:
    if "gap" in data:
        return Gap(channel, f"{data['gap']} (node {data['s']})")
    return Message(channel, data["b"], data["s"], data["t"])


class Subscription:
    """The events of some channels, in order per channel: ``async for event in sub``
    yields :class:`Message` and :class:`Gap`. Channels come and go with
    :meth:`add` and :meth:`remove`; once :meth:`add` returns, every later message on
    the channel is delivered (or a gap reported)."""

    def __init__(self) -> None:
        self.channels: set[str] = set()
        self._events: asyncio.Queue = asyncio.Queue()
        self._closed = False

    def _deliver(self, event: Message | Gap) -> None:
        if self._closed or event.channel not in self.channels:
            return
        if self._events.qsize() >= QUEUE_LIMIT:      # fallen behind: a reload replaces it all
            while not self._events.empty():
                self._events.get_nowait()
            for channel in sorted(self.channels):
                self._events.put_nowait(Gap(channel, "the subscriber fell behind"))
            return
        self._events.put_nowait(event)

    async def add(self, *channels: str) -> None:
        self.channels.update(channels)

    async def remove(self, *channels: str) -> None:
        self.channels.difference_update(channels)

    async def get(self, timeout: float | None = None) -> Message | Gap:
        """The next event; :class:`asyncio.TimeoutError` after ``timeout`` seconds,
        :class:`StopAsyncIteration` once closed."""
        event = await asyncio.wait_for(self._events.get(), timeout)
        if event is _CLOSED:
            self._events.put_nowait(_CLOSED)          # for the next reader too
            raise StopAsyncIteration
        return event

    def __aiter__(self):
        return self

    async def __anext__(self) -> Message | Gap:
        return await self.get()

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._events.put_nowait(_CLOSED)

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()


class Bus(ABC):
    """One node's door to the others. ``publish`` never waits and never fails:
    what it cannot deliver is reported to the subscribers as a :class:`Gap`."""

    def __init__(self, node: str) -> None:
        self.node = node

    @abstractmethod
    def publish(self, channel: str, body: dict) -> None:
        """Send ``body`` (a JSON object) to every subscriber of ``channel``, in the
        order this node published; returns at once (a handler does not yield). After
        a broken connection a message may come twice: bodies carry a sequence number
        (a move's ply) so that a repeat is recognised."""

    async def flush(self, timeout: float = 5.0) -> None:
        """Wait until everything published so far has been handed to the bus."""

    @abstractmethod
    async def subscribe(self, *channels: str) -> Subscription:
        """A subscription to ``channels`` (more can be added), active on return."""

    @abstractmethod
    async def set_presence(self, members: Iterable[str], ttl: float) -> None:
        """This node's members (say, players online here), replacing the last set;
        they vanish ``ttl`` seconds after the last call unless refreshed, so a dead
        node's players go by themselves."""

    @abstractmethod
    async def presence(self) -> dict[str, frozenset[str]]:
        """Every live node's members (nodes with none are left out)."""

    @abstractmethod
    async def incr(self, key: str, ttl: float, by: int = 1) -> int:
        """Add ``by`` to a counter every node shares and return its new value; a
        counter that did not exist starts at 0 and is gone ``ttl`` seconds later (a
        fixed window: a limit of N per minute is ``incr(key, 60) <= N``)."""

    @abstractmethod
    async def claim(self, claims: dict[str, str], ttl: float) -> dict[str, str]:
        """Hold each key for its owner (``{key: owner}``) unless another owner holds
        it; the holder of each key after the call. A key held by its owner is held
        again for ``ttl`` seconds from now; one not renewed is let go ``ttl`` seconds
        after (a dead node's claims go by themselves). One key's claim is atomic:
        of two owners claiming it at once, one holds it and both are told which."""

    @abstractmethod
    async def release(self, key: str, owner: str) -> None:
        """Let ``key`` go, if ``owner`` holds it."""

    @abstractmethod
    async def holder(self, key: str) -> str | None:
        """Who holds ``key`` now (None: nobody)."""

    async def holders(self, keys: list[str]) -> dict[str, str | None]:
        """:meth:`holder` of each key, in one call where the bus can."""
        return {key: await self.holder(key) for key in keys}

    async def close(self) -> None:
        """Stop: unsent messages are dropped, subscriptions end."""


class Gathered:
    """One kind of bus call that many clients make at once (a dead node's clients
    come back by the hundred, each asking about its address and claiming its name),
    sent as one: the questions asked while one call is out, or in the same turn of
    the event loop, go together in the next. ``call(questions)``, questions
    ``{key: value}``, answers ``{key: answer}``; each asker gets its key's answer,
    or the call's exception."""

    def __init__(self, call) -> None:
        self._call = call
        self._questions: dict[str, str] = {}
        self._askers: list[tuple[str, asyncio.Future]] = []
        self._out: asyncio.Task | None = None
        self.calls = 0                                   # made so far (tests count them)

    def ask(self, key: str, value: str = "") -> asyncio.Future:
        loop = asyncio.get_running_loop()
        if not self._askers and self._out is None:
            loop.call_soon(self._send)
        self._questions[key] = value
        asker = loop.create_future()
        self._askers.append((key, asker))
        return asker

    def _send(self) -> None:
        if self._out is not None or not self._askers:
            return
        questions, askers = self._questions, self._askers
        self._questions, self._askers = {}, []
        self.calls += 1
        self._out = asyncio.get_running_loop().create_task(self._answer(questions, askers))

    async def _answer(self, questions: dict, askers: list) -> None:
        try:
            answers = await self._call(questions)
        except Exception as exc:          # each asker has it (BusUnavailable, mostly)
            answers, failure = {}, exc
        else:
            failure = None
        finally:
            self._out = None
            self._send()                  # what was asked meanwhile
        for key, asker in askers:
            if asker.done():              # given up on (a timeout)
                continue
            if failure is not None:
                asker.set_exception(failure)
            else:
                asker.set_result(answers.get(key))


# --- one process ------------------------------------------------------------------


class InProcessHub:
    """What the nodes of one process share (one node, or several in tests)."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self.subscriptions: set[Subscription] = set()
        self.presence: dict[str, tuple[frozenset[str], float]] = {}
        self.counters: dict[str, tuple[int, float]] = {}
        self.claims: dict[str, tuple[str, float]] = {}     # key → (owner, held until)


class InProcessBus(Bus):
    def __init__(self, node: str = "local", hub: InProcessHub | None = None) -> None:
        super().__init__(node)
        self.hub = hub or InProcessHub()
        self._mine: set[Subscription] = set()

    def publish(self, channel: str, body: dict) -> None:
        payload = encode(self.node, body)        # bodies cross as JSON, as between nodes
        for subscription in list(self.hub.subscriptions):
            if channel in subscription.channels:
                subscription._deliver(decode(channel, payload))

    async def subscribe(self, *channels: str) -> Subscription:
        subscription = Subscription()
        await subscription.add(*channels)
        self.hub.subscriptions.add(subscription)
        self._mine.add(subscription)
        return subscription

    async def set_presence(self, members: Iterable[str], ttl: float) -> None:
        self.hub.presence[self.node] = (frozenset(members), self.hub.clock() + ttl)

    async def presence(self) -> dict[str, frozenset[str]]:
        now = self.hub.clock()
        return {node: members for node, (members, until) in self.hub.presence.items()
                if until > now and members}

    async def incr(self, key: str, ttl: float, by: int = 1) -> int:
        now = self.hub.clock()
        value, until = self.hub.counters.get(key, (0, now + ttl))
        if until <= now:
            value, until = 0, now + ttl
        self.hub.counters[key] = (value + by, until)
        return value + by

    async def claim(self, claims: dict[str, str], ttl: float) -> dict[str, str]:
        now, held = self.hub.clock(), {}
        for key, owner in claims.items():
            holder, until = self.hub.claims.get(key, (owner, now))
            if until <= now or holder == owner:
                self.hub.claims[key] = holder, until = owner, now + ttl
            held[key] = holder
        return held

    async def release(self, key: str, owner: str) -> None:
        if await self.holder(key) == owner:
            del self.hub.claims[key]

    async def holder(self, key: str) -> str | None:
        owner, until = self.hub.claims.get(key, (None, 0.0))
        return owner if until > self.hub.clock() else None

    async def close(self) -> None:
        for subscription in self._mine:
            await subscription.close()
            self.hub.subscriptions.discard(subscription)
        self.hub.presence.pop(self.node, None)

