"""One plain connection to Redis for the bus's hot paths (game/server/redis_bus.py):
the node's stream of ``PUBLISH`` commands and its subscription.

redis-py spends tens of microseconds of Python on every command and every message
it reads (retries, timeouts, hooks); a node publishes and hears a few messages per
move. Here a batch of commands is one write and its replies one read, and a read
from the subscription hands over every message it holds, parsed by hiredis (C).
Anything that goes wrong raises :class:`WireError` (an ``OSError``, like the
socket's own); the caller drops the connection and makes a new one.
"""
from __future__ import annotations

import asyncio
import ssl
from urllib.parse import unquote, urlsplit

import hiredis

READ_BYTES = 1 << 16
LATE_TIMER_GRACE = 0.05        # seconds: a read timed out is tried once more this long


if hasattr(asyncio, "timeout"):            # Python 3.11: no task per wait, as wait_for makes
    async def _within(awaitable, seconds: float | None):
        async with asyncio.timeout(seconds):
            return await awaitable
else:                                     # pragma: no cover (3.10)
    _within = asyncio.wait_for


class WireError(ConnectionError):
    """The connection broke, or Redis answered with an error."""


def command(*args: str | bytes | int) -> bytes:
    """One command in Redis's protocol (RESP)."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class Wire:
    def __init__(self, url: str, timeout: float) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss"):
            raise ValueError(f"a Redis address starts with redis:// or rediss://, not {url!r}")
        self.host, self.port = parts.hostname or "localhost", parts.port or 6379
        self.username = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.tls = parts.scheme == "rediss"
        self.timeout = timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._parser = hiredis.Reader()

    @property
    def connected(self) -> bool:
        return self._writer is not None

    async def connect(self) -> None:
        try:
            self._reader, self._writer = await asyncio.wait_for(asyncio.open_connection(
                self.host, self.port, ssl=ssl.create_default_context() if self.tls else None),
                self.timeout)
        except (OSError, asyncio.TimeoutError) as exc:
            raise WireError(f"cannot reach Redis at {self.host}:{self.port}: {exc}") from None
        self._parser = hiredis.Reader()
        if self.password is not None:
            auth = ("AUTH", self.username, self.password) if self.username else \
                ("AUTH", self.password)
            self.send(command(*auth))
            await self.replies(1)

    def send(self, data: bytes) -> None:
        if self._writer is None:
            raise WireError("not connected")
        self._writer.write(data)

    async def read(self, timeout: float | None = None) -> list:
        """Every reply that has come (at least one whole reply: a long one is read on
        as long as its bytes come); [] after ``timeout`` seconds without a byte. A
        reply that is an error raises."""
        replies = self._parsed()
        while not replies:
            try:
                data = await _within(self._reader.read(READ_BYTES), timeout)
            except asyncio.TimeoutError:
                # A busy loop runs a late timer in the same turn as the data it waited
                # for: what has come is taken now, so that only true silence is silence.
                try:
                    data = await _within(self._reader.read(READ_BYTES), LATE_TIMER_GRACE)
                except asyncio.TimeoutError:
                    return []
                except OSError as exc:
                    raise WireError(str(exc)) from None
            except OSError as exc:
                raise WireError(str(exc)) from None
            if not data:
                raise WireError("Redis closed the connection")
            self._parser.feed(data)
            replies = self._parsed()
        return replies

    async def replies(self, count: int) -> list:
        """The next ``count`` replies (within the timeout)."""
        got: list = []
        while len(got) < count:
            more = await self.read(self.timeout)
            if not more:
                raise WireError(f"Redis did not answer within {self.timeout:g} s")
            got += more
        return got

    def _parsed(self) -> list:
        out = []
        while True:
            try:
                reply = self._parser.gets()
            except hiredis.ProtocolError as exc:
                raise WireError(f"Redis sent something unreadable: {exc}") from None
            if reply is False:
                return out
            if isinstance(reply, hiredis.ReplyError):
                raise WireError(f"Redis refused: {reply}")
            out.append(reply)

    async def close(self) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            try:
                await asyncio.wait_for(writer.wait_closed(), self.timeout)
            except (OSError, asyncio.TimeoutError):
                pass
