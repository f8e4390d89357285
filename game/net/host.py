"""The game server on a background thread ("Host on this computer", tests).

    host = ServerThread("games.sqlite3", port=0)
    host.start()            # returns once it listens; host.url is ws://127.0.0.1:PORT
    ...
    host.stop()

The server keeps its own asyncio loop and SQLite connection on that thread;
``stop`` closes both and joins the thread.
"""
from __future__ import annotations

import asyncio
import threading

from .protocol import ABANDON_SECONDS, GRACE_SECONDS
from .server import GameServer
from .storage import SQLiteStorage


class ServerThread:
    def __init__(self, db: str, host: str = "127.0.0.1", port: int = 0,
                 grace: float = GRACE_SECONDS, abandon_after: float = ABANDON_SECONDS) -> None:
        self.db, self.host, self.port, self.grace = db, host, port, grace
        self.abandon_after = abandon_after
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: GameServer | None = None
        self.error: Exception | None = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def start(self, timeout: float = 5.0) -> int:
        """Start listening; returns the port. Raises the server's OSError if it cannot."""
        self._thread = threading.Thread(target=self._run, name="roundtable-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the server did not start in time")
        if self.error is not None:
            raise self.error
        return self.port

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._server = GameServer(SQLiteStorage(self.db), grace=self.grace,
                                  abandon_after=self.abandon_after)
        try:
            self.port = await self._server.start(self.host, self.port)
        except OSError as exc:
            self.error = exc
            self._server.storage.close()
            self._ready.set()
            return
        self._ready.set()
        await self._server.stopped.wait()
        await self._server.close()

    def stop(self, timeout: float = 5.0) -> None:
        if self._thread is None:
            return
        if self._loop is not None and self._server is not None and self.error is None:
            self._loop.call_soon_threadsafe(self._server.stopped.set)
        self._thread.join(timeout)
        self._thread = None
