"""The bus between server nodes on Redis (redis-py's asyncio client, pub/sub).

Every name this bus uses in Redis starts with ``rt:`` (a Redis may be shared).
Publishing and subscribing use plain connections read with hiredis
(game/server/redis_wire.py: a batch of commands in one write, every message that
has come in one read); presence, counters and claims, redis-py's client.
Publishing goes through one queue and one task per node, so a node's messages
keep their order and a handler never waits for Redis; what piled up meanwhile
goes in one write, consecutive messages for one channel in one ``PUBLISH`` (a JSON
list, read back as the messages it holds). A batch that fails is dropped, not sent
again (part of it may have gone: a subscriber may hear a message twice after a gap
notice; bodies carry their ply, so a repeat is recognised). While Redis cannot be
reached the sender drops what it is given and remembers the channels; once Redis
answers again it publishes a gap notice on each, so a subscriber whose own
connection never broke still learns that it missed something. A subscription
whose connection breaks (or that hears nothing, not even the answer to a ping, for
twice :data:`HEALTH_SECONDS`) connects again (every 0.2 s), subscribes to all its
channels again, and reports a :class:`~game.server.bus.Gap` on each once Redis has
confirmed it — after which the subscriber reads the store, and nothing published
from then on is missed.

Claims (a guest's name, a seek being paired, a banned address): ``rt:claim:KEY``
holding its owner, set by a Lua script (read and set in one step) with an expiry.
Presence: a set per node (``rt:presence:NODE``) that expires unless refreshed,
with a version mark beside it (``rt:presence-mark:NODE``, new whenever the set
changes, so that the others read only the sets that changed), and the set of node
names that ever reported (``rt:presence:nodes``). Counters:
``INCRBY`` and ``PEXPIRE … NX`` in one transaction (a fixed window).
"""
from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterable

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError

from .bus import (Bus, BusUnavailable, Gap, Subscription, decode_run, encode, encode_gap,
                  encode_run)
from .redis_wire import Wire, WireError, command

PREFIX = "rt:"
RECONNECT_EVERY = 0.2          # seconds between attempts to reach Redis again
CONFIRM_SECONDS = 2.0          # how long subscribe() waits for Redis to confirm
HEALTH_SECONDS = 5.0           # a subscription silent this long pings Redis, and drops
                               # the connection if the next as long brings nothing
BATCH = 1000                   # messages sent in one pipeline at most
_HOME = PREFIX + "home"        # every subscription listens here, so its connection exists
_NODES = PREFIX + "presence:nodes"
_ERRORS = (RedisError, OSError)
# Claims: each held (or renewed) for its owner unless another holds it; the holders answered.
_CLAIM = """local out, ms = {}, ARGV[#ARGV]
for i, key in ipairs(KEYS) do
  local held = redis.call('GET', key)
  if not held or held == ARGV[i] then
    redis.call('SET', key, ARGV[i], 'PX', ms)
    out[i] = ARGV[i]
  else
    out[i] = held
  end
end
return out"""
CLAIMS_AT_ONCE = 500           # claims per script call (a node renews all its guests' names)
_RELEASE = """if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0"""


def _one_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _runs(batch: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The batch with each run of messages for one channel in one payload: in the same
    order, fewer messages for Redis to pass and for the subscribers to read."""
    runs: list[tuple[str, list[str]]] = []
    for channel, payload in batch:
        if runs and runs[-1][0] == channel:
            runs[-1][1].append(payload)
        else:
            runs.append((channel, [payload]))
    return [(channel, encode_run(payloads)) for channel, payloads in runs]


class RedisSubscription(Subscription):
    """Its own connection in subscribe mode (:class:`~game.server.redis_wire.Wire`):
    each read hands over every message that has come."""

    def __init__(self, url: str, timeout: float) -> None:
        super().__init__()
        self._wire = Wire(url, timeout)
        self._confirmed: dict[str, asyncio.Event] = {}
        self._gap_when_confirmed: set[str] = set()
        self._reader: asyncio.Task | None = None
        self._pinged = False

    async def start(self, channels: Iterable[str]) -> None:
        """Connect, subscribe, and return once Redis has confirmed (or, if it cannot
        be reached, leave the reader to subscribe later and report gaps then)."""
        new = sorted(set(channels))
        await super().add(*new)
        try:
            await self._connect()
        except _ERRORS:
            self._gap_when_confirmed.update(new)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self._confirmation(new)

    async def add(self, *channels: str) -> None:
        new = sorted(set(channels) - self.channels)
        await super().add(*new)
        try:
            self._wire.send(command("SUBSCRIBE", *(PREFIX + c for c in new)))
        except _ERRORS:
            self._gap_when_confirmed.update(new)     # the mended connection subscribes them
            return
        await self._confirmation(new)

    async def _confirmation(self, channels: list[str]) -> None:
        waits = [self._confirmed.setdefault(c, asyncio.Event()).wait() for c in channels]
        try:
            await asyncio.wait_for(asyncio.gather(*waits), CONFIRM_SECONDS)
        except asyncio.TimeoutError:
            # Subscribed when Redis gets to it; a gap then says "look".
            self._gap_when_confirmed.update(c for c in channels if not self._confirmed[c].is_set())

    async def remove(self, *channels: str) -> None:
        await super().remove(*channels)
        for channel in channels:
            self._confirmed.pop(channel, None)
            self._gap_when_confirmed.discard(channel)
        try:
            self._wire.send(command("UNSUBSCRIBE", *(PREFIX + c for c in channels)))
        except _ERRORS:
            pass                      # the next connection subscribes only to what is left

    async def _connect(self) -> None:
        await self._wire.connect()
        self._pinged = False
        self._wire.send(command("SUBSCRIBE", _HOME, *(PREFIX + c for c in sorted(self.channels))))

    async def _drop(self) -> None:
        await self._wire.close()
        for event in self._confirmed.values():
            event.clear()
        self._gap_when_confirmed.update(self.channels)

    async def _read(self) -> None:
        while not self._closed:
            try:
                if not self._wire.connected:
                    await self._connect()
                replies = await self._wire.read(HEALTH_SECONDS)
                if not replies:       # silent: a ping must be answered, or the link is dead
                    if self._pinged:
                        raise WireError("Redis did not answer a ping")
                    self._wire.send(command("PING"))
                    self._pinged = True
                    continue
                self._pinged = False
            except _ERRORS:
                await self._drop()
                await asyncio.sleep(RECONNECT_EVERY)
                continue
            for reply in replies:
                self._take(reply)

    def _take(self, reply) -> None:
        if not isinstance(reply, list) or len(reply) < 3:
            return                    # the answer to a ping
        kind, name = reply[0], reply[1].decode()
        if not name.startswith(PREFIX) or name == _HOME:
            return                    # the home channel
        channel = name[len(PREFIX):]
        if kind == b"message":
            for event in decode_run(channel, reply[2]):
                self._deliver(event)
        elif kind == b"subscribe" and channel in self.channels:
            self._confirmed.setdefault(channel, asyncio.Event()).set()
            if channel in self._gap_when_confirmed:
                self._gap_when_confirmed.discard(channel)
                self._deliver(Gap(channel, "the bus connection was mended"))

    async def close(self) -> None:
        await super().close()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except asyncio.CancelledError:
                pass
        await self._drop()


class RedisBus(Bus):
    def __init__(self, url: str, node: str, *, timeout: float = 2.0) -> None:
        super().__init__(node)
        self._url, self._timeout = url, timeout
        self._redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), 2))
        self._wire = Wire(url, timeout)     # the stream of PUBLISH commands
        self._outbox: asyncio.Queue | None = None
        self._sender: asyncio.Task | None = None
        self._lost: set[str] = set()        # channels whose messages were dropped
        self._last_try = 0.0
        self._subscriptions: list[RedisSubscription] = []
        self._presence_written: list[str] | None = None      # this node's set as last written
        self._presence_read: dict[str, tuple[bytes, frozenset[str]]] = {}   # node → mark, set

    # --- publishing ------------------------------------------------------------
    def publish(self, channel: str, body: dict) -> None:
        if self._outbox is None:
            self._outbox = asyncio.Queue()
            self._sender = asyncio.get_running_loop().create_task(self._send())
        self._outbox.put_nowait((channel, encode(self.node, body)))

    async def flush(self, timeout: float = 5.0) -> None:
        if self._outbox is not None:
            await asyncio.wait_for(self._outbox.join(), timeout)

    async def _next_batch(self) -> list[tuple[str, str]]:
        """What is waiting to be sent (at least one, unless the wait for gaps timed out)."""
        try:
            batch = [await asyncio.wait_for(self._outbox.get(),
                                            RECONNECT_EVERY if self._lost else None)]
        except asyncio.TimeoutError:
            return []
        while len(batch) < BATCH and not self._outbox.empty():
            batch.append(self._outbox.get_nowait())
        return batch

    async def _send(self) -> None:
        """One pipeline per batch: the node's messages in order, without a round trip
        each. A batch that fails is dropped and its channels remembered for gaps."""
        while True:
            batch = await self._next_batch()
            try:
                if self._lost:
                    await self._announce_gaps()
                if self._lost:
                    self._lost.update(channel for channel, _ in batch)
                elif batch:
                    await self._publish(_runs(batch))
            except _ERRORS:
                self._lost.update(channel for channel, _ in batch)
                await self._wire.close()          # the next batch connects again
            finally:
                for _ in batch:
                    self._outbox.task_done()

    async def _publish(self, runs: list[tuple[str, str]]) -> None:
        """One write of the commands, one wait for their answers."""
        if not self._wire.connected:
            await self._wire.connect()
        self._wire.send(b"".join(command("PUBLISH", PREFIX + channel, payload)
                                 for channel, payload in runs))
        await self._wire.replies(len(runs))

    async def _announce_gaps(self) -> None:
        """Once Redis answers again: a gap notice on every channel that lost a message."""
        now = time.monotonic()
        if now - self._last_try < RECONNECT_EVERY:
            return
        self._last_try = now
        notice = encode_gap(self.node, "a sender could not reach the bus")
        for channel in sorted(self._lost):
            await self._redis.publish(PREFIX + channel, notice)
            self._lost.discard(channel)

    # --- subscribing -----------------------------------------------------------
    async def subscribe(self, *channels: str) -> Subscription:
        subscription = RedisSubscription(self._url, self._timeout)
        self._subscriptions.append(subscription)
        await subscription.start(channels)
        return subscription

    # --- presence and counters -------------------------------------------------
    async def _call(self, what: str, pipeline_steps) -> list:
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipeline_steps(pipe)
                return await pipe.execute()
        except _ERRORS as error:
            raise BusUnavailable(f"the bus is unavailable ({what}): {_one_line(error)}") from None

    async def set_presence(self, members: Iterable[str], ttl: float) -> None:
        """The set, and a new version mark beside it, written when it changed; the same
        set only has its time renewed (unless it vanished: Redis restarted)."""
        key, mark = f"{PREFIX}presence:{self.node}", f"{PREFIX}presence-mark:{self.node}"
        members, ms = sorted(set(members)), max(1, int(ttl * 1000))
        if members and members == self._presence_written:
            kept = await self._call("presence", lambda pipe: (
                pipe.pexpire(key, ms), pipe.pexpire(mark, ms), pipe.sadd(_NODES, self.node)))
            if kept[0] and kept[1]:
                return

        def steps(pipe):
            pipe.delete(key, mark)
            if members:
                pipe.sadd(key, *members)
                pipe.pexpire(key, ms)
                pipe.set(mark, secrets.token_hex(8), px=ms)
            pipe.sadd(_NODES, self.node)
        await self._call("presence", steps)
        self._presence_written = members

    async def presence(self) -> dict[str, frozenset[str]]:
        """Every node's set; a set whose version mark is the one read last time is not
        read again (a set without a mark, always)."""
        (nodes,) = await self._call("presence", lambda pipe: pipe.smembers(_NODES))
        names = sorted(n.decode() for n in nodes)
        if not names:
            return {}
        (marks,) = await self._call("presence", lambda pipe: pipe.mget(
            [f"{PREFIX}presence-mark:{n}" for n in names]))
        unread = [n for n, mark in zip(names, marks)
                  if mark is None or self._presence_read.get(n, (None,))[0] != mark]
        found = await self._call("presence", lambda pipe: [
            pipe.smembers(f"{PREFIX}presence:{n}") for n in unread]) if unread else []
        fresh = dict(zip(unread, found))
        everyone = {}
        for name, mark in zip(names, marks):
            if name in fresh:
                members = frozenset(m.decode() for m in fresh[name])
                if mark is not None:
                    self._presence_read[name] = (mark, members)
            else:
                members = self._presence_read[name][1]
            if members:
                everyone[name] = members
        return everyone

    async def incr(self, key: str, ttl: float, by: int = 1) -> int:
        name = f"{PREFIX}count:{key}"

        def steps(pipe):
            pipe.incrby(name, by)
            pipe.pexpire(name, max(1, int(ttl * 1000)), nx=True)
        value, _ = await self._call("counter", steps)
        return value

    async def claim(self, claims: dict[str, str], ttl: float) -> dict[str, str]:
        keys, ms = list(claims), max(1, int(ttl * 1000))
        chunks = [keys[i:i + CLAIMS_AT_ONCE] for i in range(0, len(keys), CLAIMS_AT_ONCE)]
        found = await self._call("claim", lambda pipe: [
            pipe.eval(_CLAIM, len(chunk), *(f"{PREFIX}claim:{key}" for key in chunk),
                      *(claims[key] for key in chunk), ms) for chunk in chunks])
        return {key: holder.decode()
                for key, holder in zip(keys, (h for held in found for h in held))}

    async def release(self, key: str, owner: str) -> None:
        await self._call("claim", lambda pipe: pipe.eval(_RELEASE, 1, f"{PREFIX}claim:{key}",
                                                         owner))

    async def holder(self, key: str) -> str | None:
        return (await self.holders([key]))[key]

    async def holders(self, keys: list[str]) -> dict[str, str | None]:
        (found,) = await self._call("claim", lambda pipe: pipe.mget(
            [f"{PREFIX}claim:{key}" for key in keys]))
        return {key: h.decode() if h is not None else None for key, h in zip(keys, found)}

    async def close(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
        await self._wire.close()
        for subscription in self._subscriptions:
            await subscription.close()
        try:
            await self._redis.delete(f"{PREFIX}presence:{self.node}")
        except _ERRORS:
            pass                      # it expires by itself
        await self._redis.aclose()
