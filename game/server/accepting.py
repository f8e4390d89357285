"""uvloop, taking every waiting connection at once.

uvloop accepts one waiting connection per turn of its loop while the loop has work
ready (measured: a loop never idle accepted 1 connection a turn; asyncio's own loop
takes up to its backlog at once). A node taking a dead node's players gets hundreds
of connections at once on a loop busy the whole time, so they trickled in at one per
turn: the median player waited 7 s for its WebSocket handshake, then a quarter of a
second for its hello, welcome and resume together. Here the listening socket is read
as a plain reader, every connection waiting is taken at once and handed to the loop,
which runs it as any other (``connect_accepted_socket``).
"""
from __future__ import annotations

import asyncio
import ipaddress
import socket

import uvloop


class EagerListener:
    """What the websockets library uses of an ``asyncio.Server``, over a listening
    socket the loop reads (``add_reader``): each readiness takes every connection
    waiting, up to ``backlog``."""

    def __init__(self, loop, protocol_factory, sock: socket.socket, backlog: int) -> None:
        self._loop, self._factory, self._sock, self._backlog = loop, protocol_factory, sock, backlog
        self._serving = False
        self._closed = loop.create_future()
        self._connecting: set[asyncio.Task] = set()

    @property
    def sockets(self) -> tuple:
        return () if self._sock is None else (self._sock,)

    def get_loop(self):
        return self._loop

    def is_serving(self) -> bool:
        return self._serving

    async def start_serving(self) -> None:
        if not self._serving and self._sock is not None:
            self._loop.add_reader(self._sock.fileno(), self._accept)
            self._serving = True

    async def serve_forever(self) -> None:
        await self.start_serving()
        await asyncio.shield(self._closed)

    def _accept(self) -> None:
        for _ in range(self._backlog):
            try:
                conn, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return                           # none left waiting
            except ConnectionAbortedError:
                continue                         # gone before it was taken
            except OSError:
                return                           # out of descriptors: at the next readiness
            conn.setblocking(False)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            task = self._loop.create_task(self._connect(conn))
            self._connecting.add(task)
            task.add_done_callback(self._connecting.discard)

    async def _connect(self, conn: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._factory, conn)
        except OSError:
            conn.close()                         # closed by its client meanwhile

    def close(self) -> None:
        if self._sock is None:
            return
        if self._serving:
            self._loop.remove_reader(self._sock.fileno())
            self._serving = False
        self._sock.close()
        self._sock = None
        if not self._closed.done():
            self._closed.set_result(None)

    async def wait_closed(self) -> None:
        await asyncio.shield(self._closed)


def _address(host) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host) if isinstance(host, str) else None
    except ValueError:
        return None                              # a name: it may stand for several


class EagerAcceptLoop(uvloop.Loop):
    """uvloop whose TCP servers on one IP address take every waiting connection at
    once (:class:`EagerListener`); anything else (a host name, every interface, TLS, a
    socket given) as uvloop does."""

    async def create_server(self, protocol_factory, host=None, port=None, *, backlog=100,
                            start_serving=True, **options):
        address = _address(host)
        if options or address is None:
            return await super().create_server(protocol_factory, host, port, backlog=backlog,
                                               start_serving=start_serving, **options)
        family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
        sock = socket.create_server((host, port or 0), family=family, backlog=backlog)
        sock.setblocking(False)
        server = EagerListener(self, protocol_factory, sock, backlog)
        if start_serving:
            await server.start_serving()
        return server
