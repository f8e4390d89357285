"""An asyncio client of the game server (tests, the bench and the app use it).

    client = await Client.connect("ws://127.0.0.1:8765", "Alice")
    created = await client.create_table()
    await client.sit(created["table"], "white")       # keeps the seat token
    ...
    moved = await client.move("T1", "F7-F8")            # the server's move record

Messages are plain dicts (docs/protocol.md). A reader task puts every message
the server sends in a queue; :meth:`Client.expect` takes messages off it until
one matches (the ones skipped stay in ``received``, the full log). A refusal
of a request comes back as :class:`ServerRefused` (code + the server's sentence).
The client keeps its seat tokens (``tokens``) so it can :meth:`resume` after a
reconnection. For a frame loop on another thread, see :mod:`game.net.bridge`.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import random
import time

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from .protocol import PROTOCOL_VERSION, encode

TIMEOUT = 5.0


class ServerRefused(Exception):
    """The server answered a request with an error message."""

    def __init__(self, message: dict) -> None:
        super().__init__(f"{message.get('code')}: {message.get('message')}")
        self.code = message.get("code")
        self.message = message


class ConnectionLost(Exception):
    """The connection closed while a reply was awaited."""


def server_addresses(url: str) -> list[str]:
    """``"ws://a:8765,ws://b:8765"``: the servers to try, in order (a site's nodes)."""
    found = [part.strip() for part in url.split(",") if part.strip()]
    if not found:
        raise ValueError("no server address given")
    return found


def lost_last(url: str, lost: str, pick=random.randrange) -> str:
    """The same servers, ``lost`` last: after a lost connection the next try begins
    with one of the others taken at random (``pick(n)``: 0 ≤ i < n), then the ones
    after it in turn. A node that dies sends its clients to every other node, not all
    to the one after it (which got a whole node's players at once: thousands of
    handshakes, hellos and resumes queued on one loop while the others idled)."""
    found = server_addresses(url)
    if lost not in found:
        return url
    at = found.index(lost)
    others = found[at + 1:] + found[:at]
    if not others:
        return url
    first = pick(len(others))
    return ",".join(others[first:] + others[:first] + [lost])


class Client:
    def __init__(self, ws, ids=None) -> None:
        self.ws = ws
        self.url: str | None = None          # of the addresses given, the one that answered
        # Message ids: a count of its own, or one a NetBridge shares across reconnections.
        self.ids = itertools.count(1) if ids is None else ids
        self.name: str | None = None
        self.welcome: dict = {}
        self.tokens: dict[str, tuple[str, str]] = {}     # table → (color, token)
        self.received: list[dict] = []
        self._queue: asyncio.Queue = asyncio.Queue()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def connect(cls, url: str, name: str | None, *, timeout: float = TIMEOUT,
                      ids=None, **options) -> "Client":
        """Open a connection and, with a ``name``, say hello (ServerRefused if refused).
        ``ids``: the counter numbering its messages (a fresh one if None). ``url`` may
        name several servers, comma-separated: each is tried in turn until one answers."""
        ws = failure = None
        for address in server_addresses(url):
            try:
                ws = await asyncio.wait_for(connect(address, proxy=None, compression=None,
                                                    open_timeout=timeout, **options), timeout)
                break
            except (OSError, asyncio.TimeoutError, WebSocketException) as exc:
                failure = exc
        if ws is None:
            raise failure
        client = cls(ws, ids)
        client.url = address                 # the server that answered
        if name is not None:
            try:
                client.welcome = await client.request(
                    {"type": "hello", "version": PROTOCOL_VERSION, "name": name}, "welcome",
                    timeout=timeout, direct=True)
            except BaseException:
                await client.close()
                raise
            client.name = name
        return client

    @classmethod
    async def account(cls, url: str, name: str, password: str, *, register: bool = False,
                      timeout: float = TIMEOUT, **options) -> "Client":
        """Open a connection and sign in (or ``register`` a new account). The session
        token (``client.session``) signs in again later without the password."""
        return await cls._identify(url, {"type": "register" if register else "sign_in",
                                         "version": PROTOCOL_VERSION, "name": name,
                                         "password": password}, timeout, options)

    @classmethod
    async def with_session(cls, url: str, session: str, *, timeout: float = TIMEOUT,
                           **options) -> "Client":
        """Open a connection and come back signed in with a kept session token."""
        client = await cls._identify(url, {"type": "hello", "version": PROTOCOL_VERSION,
                                           "session": session}, timeout, options)
        client.welcome["session"] = client.welcome.get("session") or session   # still valid
        return client

    @classmethod
    async def _identify(cls, url: str, message: dict, timeout: float, options) -> "Client":
        client = await cls.connect(url, None, timeout=timeout, **options)
        try:
            client.welcome = await client.request(message, "welcome", timeout=timeout,
                                                  direct=True)
        except BaseException:
            await client.close()
            raise
        client.name = client.welcome["name"]
        return client

    @property
    def session(self) -> str | None:
        """The session token of a signed-in client (None for a guest)."""
        return self.welcome.get("session")

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                try:
                    message = json.loads(frame)
                except ValueError:
                    message = {"type": "error", "code": "bad_json", "message": "server sent junk"}
                self.received.append(message)
                self._queue.put_nowait(message)
        except ConnectionClosed:
            pass
        finally:
            self._queue.put_nowait(None)                 # the end of the stream

    @property
    def closed(self) -> bool:
        return self._reader.done()

    async def close(self) -> None:
        await self.ws.close()
        try:
            await asyncio.wait_for(self._reader, TIMEOUT)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            pass

    # --- raw traffic -------------------------------------------------------------
    async def send(self, message: dict) -> int:
        """Send a message with a fresh ``id`` (or the one it was numbered with from
        this client's counter, see :meth:`number`); returns the id."""
        message = self.number(message)
        await self.ws.send(encode(message))
        return message["id"]

    def number(self, message: dict) -> dict:
        """``message`` with an ``id``: its own, or the counter's next."""
        return message if "id" in message else {**message, "id": next(self.ids)}

    async def send_raw(self, frame) -> None:
        """Send a frame as it is (tests of the server's refusals)."""
        await self.ws.send(frame)

    async def next(self, timeout: float = TIMEOUT) -> dict:
        """The next message from the server. ConnectionLost when the stream ends."""
        message = await asyncio.wait_for(self._queue.get(), timeout)
        if message is None:
            self._queue.put_nowait(None)                 # stays ended for later calls
            raise ConnectionLost("the server closed the connection")
        return message

    def drain(self) -> list[dict]:
        """Take every message that has already arrived, without waiting."""
        out = []
        while not self._queue.empty():
            message = self._queue.get_nowait()
            if message is None:
                self._queue.put_nowait(None)
                break
            out.append(message)
        return out

    async def expect(self, kind: str, timeout: float = TIMEOUT, re_id: int | None = None,
                     where=None, **match) -> dict:
        """Skip messages until one of type ``kind`` whose fields equal ``match``
        (and for which ``where(message)`` is true, if given).
        An error replying to ``re_id`` raises ServerRefused instead."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(max(0.0, deadline - time.monotonic()))
            if message.get("type") == "error" and re_id is not None and message.get("re") == re_id:
                raise ServerRefused(message)
            if message.get("type") == kind and all(message.get(k) == v for k, v in match.items()) \
                    and (where is None or where(message)):
                return message

    async def request(self, message: dict, reply: str, timeout: float = TIMEOUT,
                      direct: bool = False, **match) -> dict:
        """Send ``message`` and wait for ``reply`` (or the error answering it). A
        ``direct`` reply is the one carrying this request's id (``re``); others
        (a move's record, a table's news) are broadcast and matched by fields."""
        sent = await self.send(message)
        if direct:
            match["re"] = sent
        return await self.expect(reply, timeout, re_id=sent, **match)

    def token(self, table: str) -> str:
        return self.tokens[table][1]

    def color(self, table: str) -> str:
        return self.tokens[table][0]

    # --- the protocol's requests ---------------------------------------------------
    async def lobby(self) -> dict:
        return await self.request({"type": "lobby"}, "lobby", direct=True)

    async def lobby_chat(self, text: str) -> dict:
        return await self.request({"type": "lobby_chat", "text": text}, "lobby_chat",
                                  **{"from": self.name})

    async def create_table(self, private: bool = False, time: dict | None = None,
                           position: str | None = None, rated: bool = False) -> dict:
        message = {"type": "create_table", "private": private, "time": time}
        if position is not None:
            message["position"] = position
        if rated:
            message["rated"] = True
        return await self.request(message, "table_created", direct=True)

    async def watch(self, table: str, invite: str | None = None) -> dict:
        message = {"type": "watch", "table": table}
        if invite:
            message["invite"] = invite
        return await self.request(message, "table", table=table)

    async def sit(self, table: str, color: str, invite: str | None = None) -> str:
        message = {"type": "sit", "table": table, "color": color}
        if invite:
            message["invite"] = invite
        seated = await self.request(message, "seated", direct=True, table=table)
        self.tokens[table] = (color, seated["token"])
        return seated["token"]

    async def resume(self, table: str, token: str | None = None) -> dict:
        token = token or self.token(table)
        seated = await self.request({"type": "resume", "table": table, "token": token},
                                    "seated", direct=True, table=table)
        self.tokens[table] = (seated["color"], token)
        return await self.expect("table", table=table)

    async def leave(self, table: str) -> dict:
        return await self.request({"type": "leave", "table": table}, "lobby", direct=True)

    def _seat_message(self, kind: str, table: str, **fields) -> dict:
        return {"type": kind, "table": table, "token": self.token(table), **fields}

    async def start(self, table: str) -> dict:
        return await self.request(self._seat_message("start", table), "table", table=table,
                                  status="playing")

    async def move(self, table: str, move: str) -> dict:
        """Play ``move``; returns the server's ``moved`` record of it."""
        return await self.request(self._seat_message("move", table, move=move), "moved",
                                  table=table, by=self.color(table))

    async def chat(self, table: str, text: str) -> dict:
        return await self.request({"type": "chat", "table": table, "text": text}, "chat",
                                  table=table, **{"from": self.name})

    async def offer_draw(self, table: str) -> dict:
        return await self.request(self._seat_message("offer_draw", table), "draw_offer",
                                  table=table)

    async def accept_draw(self, table: str) -> dict:
        return await self.request(self._seat_message("accept_draw", table), "game_over",
                                  table=table)

    async def decline_draw(self, table: str) -> dict:
        return await self.request(self._seat_message("decline_draw", table), "draw_declined",
                                  table=table)

    async def resign(self, table: str) -> dict:
        return await self.request(self._seat_message("resign", table), "game_over", table=table)

    async def claim(self, table: str) -> dict:
        return await self.request(self._seat_message("claim", table), "game_over", table=table)

    async def record(self, table: str, invite: str | None = None) -> dict:
        message = {"type": "record", "table": table}
        if table in self.tokens:
            message["token"] = self.token(table)
        if invite:
            message["invite"] = invite
        return await self.request(message, "record", direct=True, table=table)

    # --- accounts, and what players of game sites expect ---------------------------------
    async def change_password(self, old: str, new: str) -> dict:
        changed = await self.request({"type": "change_password", "old": old, "new": new},
                                     "password_changed", direct=True)
        self.welcome["session"] = changed["session"]
        return changed

    async def sign_out(self, session: str | None = None) -> dict:
        """End this connection's session, or the kept ``session`` named (the server
        closes the connection either way)."""
        message = {"type": "sign_out"} if session is None else {"type": "sign_out",
                                                                 "session": session}
        return await self.request(message, "signed_out", direct=True)

    async def rematch(self, table: str) -> None:
        """Ask for a rematch (colours swapped); the new table's ``seated`` comes
        when the opponent asks too (see :meth:`seated`)."""
        await self.send(self._seat_message("rematch", table))

    async def seated(self, timeout: float = TIMEOUT) -> str:
        """Wait for a ``seated`` the server sent unasked (a rematch, a seek paired):
        keeps its token; returns the table."""
        seated = await self.expect("seated", timeout)
        self.tokens[seated["table"]] = (seated["color"], seated["token"])
        return seated["table"]

    async def seek(self, time: dict | None = None, rated: bool = False,
                   min_rating: int | None = None, max_rating: int | None = None) -> dict:
        """Ask for a game; returns ``seek_waiting`` or, when paired at once, ``seated``."""
        message = {"type": "seek", "time": time, "rated": rated}
        if min_rating is not None:
            message["min_rating"] = min_rating
        if max_rating is not None:
            message["max_rating"] = max_rating
        sent = await self.send(message)
        clock = asyncio.get_running_loop().time         # (``time`` is the time control here)
        deadline = clock() + TIMEOUT
        while True:
            reply = await self.next(max(0.0, deadline - clock()))
            if reply.get("re") == sent and reply.get("type") == "error":
                raise ServerRefused(reply)
            if reply.get("type") == "seated":
                self.tokens[reply["table"]] = (reply["color"], reply["token"])
                return reply
            if reply.get("type") == "seek_waiting" and reply.get("re") == sent:
                return reply

    async def cancel_seek(self) -> dict:
        return await self.request({"type": "cancel_seek"}, "seek_cancelled", direct=True)

    async def _seat_request(self, kind: str, table: str, reply: str) -> dict:
        return await self.request(self._seat_message(kind, table), reply, table=table)

    async def takeback(self, table: str) -> dict:
        """Ask to take back one's last move; returns the ``takeback_offer``."""
        return await self._seat_request("takeback", table, "takeback_offer")

    async def accept_takeback(self, table: str) -> dict:
        return await self._seat_request("accept_takeback", table, "taken_back")

    async def decline_takeback(self, table: str) -> dict:
        return await self._seat_request("decline_takeback", table, "takeback_declined")

    async def history(self, name: str, offset: int = 0) -> dict:
        return await self.request({"type": "history", "name": name, "offset": offset},
                                  "history", direct=True)

    async def archive(self, player: str | None = None, offset: int = 0) -> dict:
        message = {"type": "archive", "offset": offset}
        if player is not None:
            message["player"] = player
        return await self.request(message, "archive", direct=True)

    async def leaderboard(self, time_class: str | None = None, offset: int = 0) -> dict:
        message = {"type": "leaderboard", "offset": offset}
        if time_class is not None:
            message["time_class"] = time_class
        return await self.request(message, "leaderboard", direct=True)

    async def ignore(self, name: str, on: bool = True) -> dict:
        return await self.request({"type": "ignore" if on else "unignore", "name": name},
                                  "ignoring", direct=True)

    async def moderate(self, action: str, **fields) -> dict:
        """``action``: mute (name, minutes), ban (name, reason), unban (name), close (table)."""
        return await self.request({"type": f"mod_{action}", **fields}, "moderated", direct=True)
