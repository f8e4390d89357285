"""Live tables pushed to browsers: ``ws://HOST:PORT/api/watch/ID`` (docs/http-api.md).

A watcher's WebSocket receives the table's detail (the JSON of ``/api/table/ID``)
at once and again whenever it changes. One look at each watched table every
:data:`LOOK_SECONDS` finds the change; the new detail is encoded once and
broadcast to all its watchers — a move costs the server one JSON text for any
number of watchers, where a long poll costs a connection each.

The stream only sends: a frame from the watcher closes it (1008), as does a
watcher that leaves :data:`MAX_BACKLOG_BYTES` unread.
"""
from __future__ import annotations

import asyncio
import json
from collections import Counter

from websockets.asyncio.server import broadcast
from websockets.exceptions import ConnectionClosed

from .sitedata import SiteBusy, SiteData

LOOK_SECONDS = 0.05
MAX_BACKLOG_BYTES = 1 << 20


def encode(detail: dict) -> str:
    return json.dumps(detail, ensure_ascii=False, separators=(",", ":"))


class TableStreams:
    """The watchers' connections by table, and one looking task per watched table."""

    def __init__(self, data: SiteData) -> None:
        self.data = data
        self.watchers: dict[int, set] = {}
        self.lookers: dict[int, asyncio.Task] = {}
        self.from_address: Counter[str] = Counter()

    def count(self) -> int:
        return sum(len(w) for w in self.watchers.values())

    async def serve(self, ws, table_id: int, address: str) -> None:
        """One watcher, from its upgrade until it leaves."""
        try:
            detail = self.data.table(table_id)
        except SiteBusy as exc:
            await ws.close(1013, str(exc)[:120])
            return
        if detail is None:                        # it was there at the upgrade; gone since
            await ws.close(1008, f"there is no table {table_id}")
            return
        watchers = self.watchers.setdefault(table_id, set())
        watchers.add(ws)
        self.from_address[address] += 1
        if table_id not in self.lookers:
            self.lookers[table_id] = asyncio.get_running_loop().create_task(
                self._look(table_id, detail["version"]))
        try:
            await ws.send(encode(detail))
            async for _ in ws:
                await ws.close(1008, "this stream only sends")
                break
        except ConnectionClosed:
            pass
        finally:
            watchers.discard(ws)
            self.from_address[address] -= 1
            if not self.from_address[address]:
                del self.from_address[address]
            if not watchers and self.watchers.get(table_id) is watchers:
                del self.watchers[table_id]

    async def _look(self, table_id: int, version: str) -> None:
        try:
            while self.watchers.get(table_id):
                await asyncio.sleep(LOOK_SECONDS)
                try:
                    if self.data.table_version(table_id) in (None, version):
                        continue
                    detail = self.data.table(table_id)
                except SiteBusy:
                    continue                      # a stored game: looked at again soon
                if detail is None:
                    continue
                version = detail["version"]
                self._send(table_id, encode(detail))
        finally:
            self.lookers.pop(table_id, None)

    def _send(self, table_id: int, text: str) -> None:
        targets = list(self.watchers.get(table_id, ()))
        broadcast(targets, text)
        for ws in targets:
            if ws.transport is not None \
                    and ws.transport.get_write_buffer_size() > MAX_BACKLOG_BYTES:
                asyncio.get_running_loop().create_task(ws.close(1008, "too much left unread"))
