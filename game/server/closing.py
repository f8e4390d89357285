"""A server's clean stop, bounded: every client told "going away", none waited on long.

The websockets library's ``Server.close`` sends each client a close frame and waits
for the handshake to finish — with no limit for a client that reads nothing: once
its unread news fills the buffers the close frame itself cannot be written, and
the server waits until the client reads or its TCP connection dies (a node under
load took over a minute to stop on SIGTERM, holding its leases meanwhile). Here a
client gets ``seconds`` to answer; then its connection is cut.
"""
from __future__ import annotations

import asyncio

from websockets.frames import CloseCode

CLOSE_SECONDS = 2.0           # a client's time to answer the close handshake


async def close_server(server, reason: str = "the server is stopping",
                       seconds: float = CLOSE_SECONDS) -> None:
    """Stop listening and close every connection of a websockets ``server`` with
    1001 (going away) and ``reason``, cutting those not closed after ``seconds``."""
    server.close(code=CloseCode.GOING_AWAY, reason=reason)
    try:
        await asyncio.wait_for(asyncio.shield(server.wait_closed()), seconds)
        return
    except asyncio.TimeoutError:
        pass
    for connection in list(server.all_connections):
        connection.transport.abort()              # its close handshake and writes end
    try:
        await asyncio.wait_for(server.wait_closed(), seconds)
    except asyncio.TimeoutError:
        pass                                      # a handler of ours that does not end
