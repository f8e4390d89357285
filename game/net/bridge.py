"""The client on a background thread, for a frame loop that must never wait.

    link = NetBridge("ws://127.0.0.1:8765", "Alice")
    link.start()
    link.send({"type": "create_table"})         # any thread, returns at once
    for message in link.poll():                 # each frame: what has arrived
        ...
    link.close()

The bridge runs :class:`~game.net.client.Client` on its own thread and asyncio
loop and trades plain dicts with the caller through two thread-safe queues.
Besides the server's messages it reports its link as
``{"type": "link", "state": "connecting" | "online" | "offline", "detail": …}``.
When the connection drops it retries with growing pauses and, once back,
says hello again and resumes every seat it holds (``url`` may name several
servers, comma-separated — a site's nodes: each try starts with the one after the
server last lost) (it learns the tokens from
the ``seated`` messages passing through). A message sent while offline is
answered at once by a local ``{"type": "error", "code": "offline"}``.

A player with an account passes ``password`` (and ``register=True`` for a new
account) or a kept ``session`` token instead of playing as a guest under
``name``. After the first sign-in the password is forgotten and reconnections
use the session the server gave. A refusal that retrying cannot mend (a wrong
password, a session that has ended) stops the retries: its ``link`` message
says ``"final": True`` and carries the refusal's ``code``.
"""
from __future__ import annotations

import asyncio
import itertools
import queue
import threading

from .client import Client, ConnectionLost, ServerRefused, lost_last

RETRY_DELAYS = (0.25, 0.5, 1.0, 2.0, 4.0)   # then 4 s between tries
FATAL_CODES = ("bad_field", "bad_version")  # retrying the same hello cannot help
# ... nor the same sign-in (a guest's name_taken is retried: the server may not yet
# have noticed that the same player's old connection is gone)
ACCOUNT_FATAL = ("bad_password", "weak_password", "bad_name", "bad_session", "banned",
                 "name_taken", "rate_limited")


class NetBridge:
    def __init__(self, url: str, name: str, retry_delays=RETRY_DELAYS, *,
                 password: str | None = None, register: bool = False,
                 session: str | None = None) -> None:
        self.url, self.name, self.retry_delays = url, name, tuple(retry_delays)
        self.password, self.register, self.session = password, register, session
        self.tokens: dict[str, tuple[str, str]] = {}       # table → (color, token)
        # One count of message ids for every connection it makes: a reply's ``re``
        # is known to the caller as soon as it sends (the clients number with it).
        self.ids = itertools.count(1)
        self._inbox: queue.Queue = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outgoing: asyncio.Queue | None = None
        self._stop: asyncio.Event | None = None
        self._online = False
        self._started = threading.Event()
        self._thread: threading.Thread | None = None

    # --- the frame loop's side -------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()),
                                        name="roundtable-net", daemon=True)
        self._thread.start()
        self._started.wait(5.0)

    def send(self, message: dict) -> int:
        """Queue a message for the server (never blocks); returns its ``id``
        (the one it carries, or a fresh one)."""
        message = message if "id" in message else {**message, "id": next(self.ids)}
        if self._loop is None or self._loop.is_closed():
            self._inbox.put(_offline(message))
            return message["id"]
        try:
            self._loop.call_soon_threadsafe(self._deliver, message)
        except RuntimeError:                   # the loop has just closed
            self._inbox.put(_offline(message))
        return message["id"]

    def poll(self, limit: int = 100) -> list[dict]:
        """The messages that have arrived (at most ``limit``), without waiting."""
        out = []
        while len(out) < limit:
            try:
                out.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        return out

    def get(self, timeout: float) -> dict | None:
        """The next message, waiting up to ``timeout`` seconds (tests, tools)."""
        try:
            return self._inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    @property
    def online(self) -> bool:
        return self._online

    def close(self, timeout: float = 5.0) -> None:
        if self._thread is None:
            return
        if self._loop is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:
                pass
        self._thread.join(timeout)
        self._thread = None

    # --- the network thread's side -------------------------------------------------------
    def _deliver(self, message: dict) -> None:
        if self._online:
            self._outgoing.put_nowait(message)
        else:
            self._inbox.put(_offline(message))

    def _link(self, state: str, detail: str = "", **more) -> None:
        self._inbox.put({"type": "link", "state": state, "detail": detail, "url": self.url,
                         **more})

    async def _open(self) -> Client:
        """A connection that has said who this is: a kept session, a sign-in, or a guest."""
        if self.session:
            client = await Client.with_session(self.url, self.session, ids=self.ids)
        elif self.password is not None:
            client = await Client.account(self.url, self.name, self.password,
                                          register=self.register, ids=self.ids)
        else:
            return await Client.connect(self.url, self.name, ids=self.ids)
        self.session, self.password, self.name = client.session, None, client.name
        return client

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._outgoing = asyncio.Queue()
        self._stop = asyncio.Event()
        self._started.set()
        session = asyncio.create_task(self._keep_connected())
        await self._stop.wait()
        session.cancel()
        try:
            await session
        except asyncio.CancelledError:
            pass
        self._online = False

    async def _keep_connected(self) -> None:
        failures = 0
        while True:
            self._link("connecting")
            try:
                client = await self._open()
            except ServerRefused as exc:
                signing_in = bool(self.session) or self.password is not None
                final = exc.code in FATAL_CODES or (signing_in and exc.code in ACCOUNT_FATAL)
                self._link("offline", str(exc), code=exc.code, final=final)
                if final:
                    return
            except (OSError, asyncio.TimeoutError, ConnectionLost) as exc:
                self._link("offline", f"cannot reach {self.url}: {exc or type(exc).__name__}")
            except Exception as exc:           # a handshake the library rejects, …
                self._link("offline", f"cannot reach {self.url}: {exc}")
            else:
                failures = 0
                await self._session(client)
                self.url = lost_last(self.url, client.url)
                self._link("offline", "the connection was lost; retrying")
            delay = self.retry_delays[min(failures, len(self.retry_delays) - 1)]
            failures += 1
            await asyncio.sleep(delay)

    async def _session(self, client: Client) -> None:
        self._online = True
        self._link("online")
        self._inbox.put(client.welcome)
        for table, (_, token) in self.tokens.items():
            self._outgoing.put_nowait(client.number({"type": "resume", "table": table, "token": token}))
        writer = asyncio.create_task(self._write(client))
        try:
            while True:
                message = await client.next(timeout=None)
                if message.get("type") == "seated":
                    self.tokens[message["table"]] = (message["color"], message["token"])
                self._inbox.put(message)
        except ConnectionLost:
            pass
        finally:
            self._online = False
            writer.cancel()
            while not self._outgoing.empty():
                self._inbox.put(_offline(self._outgoing.get_nowait()))
            await client.close()

    async def _write(self, client: Client) -> None:
        while True:
            message = await self._outgoing.get()
            try:
                await client.send(message)
            except Exception:                   # the reader sees the close and ends the session
                self._inbox.put(_offline(message))
                return


class SessionEnd:
    """Ends a kept session on the server, on a thread of its own (a frame loop's
    "Sign out here" must not wait for the network): ``done`` once tried, then
    ``problem`` is None (ended, or already over) or one line saying why the server
    could not be told."""

    def __init__(self, url: str, session: str, timeout: float = 5.0) -> None:
        self.url, self.session, self.timeout = url, session, timeout
        self.problem: str | None = None
        self._finished = threading.Event()

    def start(self) -> "SessionEnd":
        threading.Thread(target=self._run, name="roundtable-sign-out", daemon=True).start()
        return self

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float) -> bool:
        return self._finished.wait(timeout)

    def _run(self) -> None:
        try:
            asyncio.run(self._end())
        except ServerRefused as exc:
            if exc.code != "bad_session":       # one already over is as good as ended
                self.problem = str(exc)
        except (OSError, asyncio.TimeoutError, ConnectionLost) as exc:
            self.problem = f"cannot reach {self.url}: {exc or type(exc).__name__}"
        except Exception as exc:               # a handshake the library rejects, …
            self.problem = f"cannot reach {self.url}: {exc}"
        finally:
            self._finished.set()

    async def _end(self) -> None:
        client = await Client.connect(self.url, None, timeout=self.timeout)
        try:
            await client.sign_out(self.session)
        finally:
            await client.close()


def _offline(message: dict) -> dict:
    reply = {"type": "error", "code": "offline",
             "message": "not connected to the server; retrying", "refused": message.get("type")}
    if "id" in message:
        reply["re"] = message["id"]
    return reply
