"""The game server on a background thread ("Host on this computer", tests).

    host = ServerThread("games.sqlite3", port=0)
    host.begin()            # returns at once: a frame loop goes on drawing
    ...                     # host.result() is None while it starts, then the port
    host.stop()

(``host.start()`` does both and waits: for tests and scripts.) The server keeps
its own asyncio loop and SQLite connection on that thread; ``stop`` closes both
and joins the thread. A server still running when the program exits is stopped
the same way (an exit handler), so quitting the app while hosting closes the
database cleanly; every committed move was safe already.
"""
from __future__ import annotations

import asyncio
import atexit
import threading

from ..net.protocol import ABANDON_SECONDS, GRACE_SECONDS
from .game_server import GameServer
from .storage import SQLiteStorage

_running: set["ServerThread"] = set()
_running_lock = threading.Lock()


def stop_all() -> None:
    """Stop every server thread still running (run at exit)."""
    with _running_lock:
        hosts = list(_running)
    for host in hosts:
        host.stop()


atexit.register(stop_all)


class ServerThread:
    def __init__(self, db: str, host: str = "127.0.0.1", port: int = 0,
                 grace: float = GRACE_SECONDS, abandon_after: float = ABANDON_SECONDS) -> None:
        self.db, self.host, self.port, self.grace = db, host, port, grace
        self.abandon_after = abandon_after
        self._ready = threading.Event()
        self._stop_wanted = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: GameServer | None = None
        self.error: Exception | None = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def begin(self) -> None:
        """Start the server's thread and return at once (binding takes 10-100 ms:
        not on a frame loop). ``result()`` tells when it listens."""
        self._thread = threading.Thread(target=self._run, name="roundtable-server", daemon=True)
        with _running_lock:
            _running.add(self)
        self._thread.start()

    def result(self) -> int | None:
        """None while the server starts; its port once it listens. Raises the
        server's OSError if it could not listen."""
        if not self._ready.is_set():
            return None
        if self.error is not None:
            raise self.error
        return self.port

    def start(self, timeout: float = 5.0) -> int:
        """Start listening and wait; returns the port. Raises the server's OSError if it cannot."""
        self.begin()
        if not self._ready.wait(timeout):
            raise TimeoutError("the server did not start in time")
        return self.result()

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
        if self._stop_wanted.is_set():          # stopped while it was starting
            self._server.stopped.set()
        await self._server.stopped.wait()
        await self._server.close()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the server (also one still starting) and wait for its thread."""
        with _running_lock:
            _running.discard(self)
        if self._thread is None:
            return
        self._stop_wanted.set()
        if self._loop is not None and self._server is not None and self.error is None:
            try:
                self._loop.call_soon_threadsafe(self._server.stopped.set)
            except RuntimeError:                # its loop has closed: the thread is ending
                pass
        self._thread.join(timeout)
        self._thread = None
