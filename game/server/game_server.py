"""The game server: ``python -m game serve [--host H] [--port P] [--db FILE]``.

A thin asyncio layer (the ``websockets`` library) over the engine: it checks
every client frame (:mod:`game.net.protocol`), asks the table and the engine
(:mod:`game.server.table`), stores the change (:mod:`game.server.storage`) and only
then sends anything. All state lives in one event loop and every handler runs
without awaiting, so a table never sees two messages interleaved.

A client's mistake is an ``error`` message on the wire, never a traceback; a
storage failure stops the server (fail-stop: what was not stored was never
acknowledged, and a restart resumes from the database).

People — guests, accounts, sessions, seeks, rematches, moderators — are handled
in :mod:`game.server.members`; the limits (per account, per address for guests) in
:mod:`game.server.limits`; a password hash, the one slow step, runs on a worker
thread while that client's next frames wait (``_finish_auth``).
"""
from __future__ import annotations

import asyncio
import gc
import json
import logging
import secrets
import signal
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from websockets.asyncio.server import broadcast, serve
from websockets.exceptions import ConnectionClosed

from ..base import Status
from ..camelot.board import START_POSITION, CamelotBoard
from ..errors import BadPositionError
from .closing import close_server
from .limits import Limits
from .lobby import LobbyView
from .members import Members
from .metrics import NodeMetrics
from .probe import LoadProbe
from ..net.protocol import ABANDON_SECONDS, COLORS, GRACE_SECONDS, IDENTIFYING
from ..net.protocol import MAX_FRAME_BYTES, ProtocolError, error, parse_client_message
from .jsontext import encode
from .ratings import rate_game
from .records import table_number
from .storage import RatingChange, SQLiteStorage, Storage, StorageError, TableRecord
from .table import Table, hash_token
from .web import ServerSiteData, WebSite

RATE_PER_SECOND = 15.0        # sustained messages per connection
RATE_BURST = 30               # messages a connection may send at once
LOBBY_DELAY = 0.25            # lobby news is gathered for this long, then sent once
ALIVE_EVERY = 0.5             # the server stores its sign of life this often (clocks, crashes)
RATED_PLIES = 2               # a rated game ended before each side moved is not rated
HASH_THREADS = 2              # password hashes run on these (never on the event loop)
MAX_TIMINGS = 1_000_000
MAX_BACKLOG_BYTES = 1 << 20   # a client that leaves this much unread is disconnected
GEN2_EVERY = 100              # middle-generation collections per full one (Python: 10)
SWEEP_MAX_SECONDS = 60.0      # deserted tables are looked at this often (or 4 times per limit)
# Connections the kernel holds for the server to accept (it caps this at somaxconn).
# A node taking a dead node's clients gets thousands at once while its loop is busy;
# past asyncio's default of 100 the kernel drops their SYNs, and each client waits
# 1 s for its retry, then 3, 7, 15 s ...
LISTEN_BACKLOG = 4096


def duration(seconds: float) -> str:
    """24 h, 90 min, 2.5 s: a time limit as a person reads it."""
    for unit, size in (("h", 3600), ("min", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds / size:g} {unit}"
    return f"{seconds:g} s"


def log(text: str) -> None:
    print(f"server: {text}", file=sys.stderr, flush=True)


def _quiet_logger() -> logging.Logger:
    """The websockets library's logger: a bad handshake or a dropped peer is
    the client's business, never a traceback on the server's console."""
    logger = logging.getLogger("game.net.websockets")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False
    return logger


class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = float(burst), time.monotonic()

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    def __init__(self, ws, rate: float, burst: int, address: str) -> None:
        self.ws = ws
        self.address = address
        self.name: str | None = None
        self.key: str | None = None          # the name's key (accounts.name_key)
        self.account = None                  # an AccountRecord, or None for a guest
        self.session_hash: str | None = None
        self.in_lobby = False
        self.lobby_offset = 0
        self.bucket = TokenBucket(rate, burst)
        self.ignored: set[str] = set()       # name keys whose chat this person does not get
        self.seek = None
        self.muted_until = 0.0               # a moderator's mute (wall-clock)
        self.auth = None                     # (hashing job, what to do with its result)

    @property
    def identity(self) -> str:
        """Who limits count: the account, or for a guest the address."""
        return f"account:{self.account.id}" if self.account else f"guest:{self.address}"


class StorageFailure(Exception):
    pass


class GameServer(Members):
    def __init__(self, storage: Storage, *, grace: float = GRACE_SECONDS,
                 rate: float = RATE_PER_SECOND, burst: int = RATE_BURST,
                 abandon_after: float = ABANDON_SECONDS, limits: Limits = Limits()) -> None:
        self.storage = storage
        self.grace, self.rate, self.burst = grace, rate, burst
        self.abandon_after = abandon_after
        self.limits = limits
        self._sweeper = self._beater = None
        self.connections: set[Connection] = set()
        self.per_address: Counter = Counter()      # open connections per address
        self.online: Counter = Counter()           # connections per identity that said who
        self.names: dict[str, Connection] = {}     # name key → who is online under it
        self.tables: dict[str, Table] = {}
        self.hasher = ThreadPoolExecutor(HASH_THREADS, thread_name_prefix="roundtable-hash")
        Members.__init__(self)
        self.failure: Exception | None = None
        self.stopped = asyncio.Event()
        self._lobby_pending = False
        self._view: LobbyView | None = None        # the lobby as last made
        self.lobby_views = 0                       # made so far (tests count them)
        self._pending: list | None = None     # news made by the handler running now
        self._kind: str | None = None
        self.move_seconds: list[float] = []   # frame in → replies written, per move (bench)
        # (table, ply, frame in, engine done, stored, replies written), monotonic (bench)
        self.move_stamps: list[tuple] = []
        self.keep_stamps = False
        self._move_marks: tuple | None = None
        self._server = None
        self.port: int | None = None
        self.metrics = NodeMetrics(getattr(self, "node", "local"))

    # --- life ------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Load the open tables, listen, return the port (useful with port 0)."""
        self._load_tables()
        self._beat()
        self._sweep()                              # tables deserted while we were down
        return await self._listen(host, port)

    def _load_tables(self) -> None:
        now, wall = time.monotonic(), time.time()
        alive = self.storage.last_alive()
        for record in self.storage.open_tables():
            # The side to move is charged what it had used before the crash, up to
            # the last sign of life (within ALIVE_EVERY); the downtime is charged to nobody.
            used, charged = 0.0, False
            if record.status == "playing" and record.turn_wall is not None and alive:
                used = max(0.0, min(alive, wall) - record.turn_wall)
                record.turn_wall, charged = wall - used, True   # the downtime left out
            try:
                table = Table(record, now, used)
                table.game                      # its moves replayed: a bad record is left out
            except ValueError as exc:
                log(f"table T{record.id} cannot be rebuilt ({exc}); left out")
                continue
            self.tables[table.id] = table
            self._load_ratings(table)
            if table.note_presence(wall) or charged:   # every seat is empty after a restart
                self.storage.save_table(table.record)
            self._schedule_flag(table)

    async def _listen(self, host: str, port: int) -> int:
        # The pages on the same port (game/server/web.py): plain HTTP GETs and watchers'
        # WebSockets (/api/watch/ID) are answered there; game connections pass on.
        self.web = WebSite(ServerSiteData(self), health=self.health, metrics=self.render_metrics)
        self._server = await serve(
            self.web.handler(self._serve_connection), host, port, max_size=MAX_FRAME_BYTES,
            compression=None, logger=_quiet_logger(), ping_interval=20, ping_timeout=20,
            close_timeout=2, process_request=self.web.process_request, backlog=LISTEN_BACKLOG)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        for timer in (self._sweeper, self._beater):
            if timer is not None:
                timer.cancel()
        self.hasher.shutdown(wait=True)
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
        if self._server is not None:
            await close_server(self._server)
        self.storage.close()

    def _fail(self, exc: Exception) -> None:
        log(f"storage failed ({exc}); stopping — restart to resume from the database")
        self.failure = exc
        self.stopped.set()

    # --- connections -----------------------------------------------------------
    def _beat(self) -> None:
        """Store the server's sign of life (a crash's clock charge is measured to it)."""
        try:
            self._store(self.storage.mark_alive, time.time())
        except StorageFailure:
            return
        self._beater = asyncio.get_running_loop().call_later(ALIVE_EVERY, self._beat)

    async def _serve_connection(self, ws) -> None:
        address = ws.remote_address[0] if ws.remote_address else "?"
        why = await self._refusal(address)
        if why is not None:
            await ws.close(1008, why)
            return
        self.per_address[address] += 1
        conn = Connection(ws, self.rate, self.burst, address)
        self.connections.add(conn)
        try:
            async for frame in ws:
                self.handle_frame(conn, frame)
                if conn.auth is not None:
                    # A password is being hashed on a worker thread: this client's next
                    # frames wait (its order holds); everyone else goes on meanwhile.
                    await self._finish_auth(conn)
                if ws.transport is not None \
                        and ws.transport.get_write_buffer_size() > MAX_BACKLOG_BYTES:
                    await ws.close(1008, "too many unread messages")
                    break
        except ConnectionClosed:
            pass
        except Exception as exc:      # a bug of ours: one line, and the others go on
            log(f"connection of {conn.name or 'a visitor'} ended by an error: {exc!r}")
        finally:
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]
            self._disconnect(conn)

    async def _refusal(self, address: str) -> str | None:
        """Why a connection from ``address`` is refused (None: it is not); a node
        asks the others too."""
        if address in self.banned_addresses:
            return "banned"
        if self._connections_from(address) >= self.limits.connections_per_address:
            return f"at most {self.limits.connections_per_address} connections per address"
        return None

    def _connections_from(self, address: str) -> int:
        return self.per_address[address]

    async def _finish_auth(self, conn: Connection) -> None:
        (job, finish), kind, re_id = conn.auth
        try:
            result = await job
        except Exception as exc:
            result = exc
        conn.auth = None
        self._speak(conn, lambda: self._guarded(conn, kind, re_id, lambda: finish(result)))

    def _disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self._drop_seek(conn)
        if conn.name is not None:
            self.online[conn.identity] -= 1
            if not self.online[conn.identity]:
                del self.online[conn.identity]
            if self.names.get(conn.key) is conn:
                del self.names[conn.key]
            self._lobby_changed()
        self._leave_tables(conn)

    def _leave_tables(self, conn: Connection) -> None:
        """A connection is gone: the seats it held become absent, it watches no more."""
        self._leave_tables_of({conn})

    def _leave_tables_of(self, conns: set) -> None:
        """Connections gone (a node's, all at once): one pass over the tables."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            gone = table.watchers & conns
            gone.update(c for c in table.seat_conn.values() if c in conns)
            if gone:
                for conn in gone:
                    table.drop(conn, now)
                try:
                    self._note_presence(table)
                except StorageFailure:
                    pass                           # the server is stopping; nothing was said
                self._after_leaving(table, now)

    def people_online(self) -> list[tuple[str, bool]]:
        """(name, is a guest) of everyone online (a node adds the other nodes')."""
        return [(c.name, c.account is None) for c in self.names.values()]

    # --- operations: /healthz and /metrics -------------------------------------------
    def health(self) -> str | None:
        """None while this server can serve; else why not (one line)."""
        return "the server is stopping" if self.failure is not None else None

    def render_metrics(self) -> str:
        games = Counter(t.record.status for t in self.refereed())
        for status in ("waiting", "playing", "finished"):
            self.metrics.games.set(games.get(status, 0), status=status)
        self.metrics.connections.set(len(self.connections))
        return self.metrics.render()

    def refereed(self) -> list[Table]:
        """The tables this server referees (all of them, for one server alone)."""
        return list(self.tables.values())

    def _note_presence(self, table: Table) -> None:
        """Seats changed hands: store since when the table is deserted (or that
        it is not), so that the abandonment time counts across a restart."""
        if table.note_presence(time.time()):
            self._store(self.storage.save_table, table.record)

    # --- abandoned tables ------------------------------------------------------------
    def _sweep(self) -> None:
        """Close every table nobody has sat at for ``abandon_after`` seconds (it
        leaves the lobby; its record says why), then look again later."""
        wall, now = time.time(), time.monotonic()
        close_waiting = self.limits.waiting_close
        for table in self.refereed():
            away = table.deserted_for(wall)
            if away is None:
                continue
            waiting_gone = (table.record.status == "waiting" and away >= close_waiting
                            and table.record.owner not in self.online)
            if away < self.abandon_after and not waiting_gone:
                continue
            try:
                if away >= self.abandon_after:
                    table.abandon(now, duration(self.abandon_after))
                else:
                    table.close(now, "Closed: its creator left and nobody sat down")
                self._finished(table)
            except StorageFailure:
                break                             # stopping, or (a node) the database is away
            if not table.watchers:
                self.tables.pop(table.id, None)   # its record stays in storage
        every = min(SWEEP_MAX_SECONDS, max(0.05, min(self.abandon_after, close_waiting) / 4))
        self._sweeper = asyncio.get_running_loop().call_later(every, self._sweep)

    def _after_leaving(self, table: Table, now: float) -> None:
        if table.record.status == "finished" and not table.watchers:
            self.tables.pop(table.id, None)      # its record stays in storage
        else:
            self._send_table(table, table.state(now))

    def handle_frame(self, conn: Connection, frame) -> list[dict]:
        """One client frame: its replies go to ``conn``, then the news it made to the
        others — all written before this returns, so every client sees events in
        the order they happened. Returns the direct replies (for tests)."""
        started, stamp = time.perf_counter(), time.monotonic()
        self._kind, self._move_marks = None, None
        replies = self._speak(conn, lambda: self._handle(conn, frame))
        if self._kind == "move" and self._move_marks is not None:
            self._moved(started)
        if self._kind == "move" and len(self.move_seconds) < MAX_TIMINGS:
            self.move_seconds.append(time.perf_counter() - started)
            if self.keep_stamps and self._move_marks is not None:
                table, ply, engine, stored = self._move_marks
                self.move_stamps.append((table, ply, stamp, engine, stored, time.monotonic()))
        return replies

    def _moved(self, started: float) -> None:
        """A move stored and told (``started``: its frame's perf_counter)."""
        self.metrics.moves.inc()
        self.metrics.move_round_trip.observe(time.perf_counter() - started)

    def _hold_words(self, conn: Connection, replies: list[dict], pending: list) -> bool:
        """Whether a handler's words wait for a write held (a node's group commit)."""
        return False

    def _speak(self, conn: Connection, work) -> list[dict]:
        """Run a handler: its direct replies are written to ``conn``, then its news."""
        self._pending = []
        replies = work()
        pending, self._pending = self._pending, None
        if self._hold_words(conn, replies, pending):
            return replies
        for reply in replies:
            self._broadcast([conn.ws], encode(reply))
        for targets, text in pending:
            self._broadcast(targets, text)
        return replies

    def _broadcast(self, targets, text: str) -> None:
        """Write ``text`` to these WebSockets (a node also reaches other nodes' here)."""
        broadcast(targets, text)

    def _handle(self, conn: Connection, frame) -> list[dict]:
        now = time.monotonic()
        if not conn.bucket.allow(now):
            return [error("rate_limited", f"too many messages: at most {self.rate:g} a second")]
        try:
            message = parse_client_message(frame)
        except ProtocolError as exc:
            return [error(exc.code, str(exc), exc.re_id, exc.refused)]
        kind, re_id = message["type"], message.get("id")
        self._kind = kind
        if self.failure is not None:
            return [error("stopping", "the server is stopping", re_id, kind)]
        if conn.name is None and kind not in IDENTIFYING:
            return [error("not_hello", "say who you are first: hello, register or sign_in",
                          re_id, kind)]
        return self._guarded(conn, kind, re_id, lambda: self._dispatch(conn, message, now))

    def _dispatch(self, conn: Connection, message: dict, now: float):
        """The handler of a checked message (a node forwards some to another node)."""
        return getattr(self, f"_on_{message['type']}")(conn, message, now)

    def _guarded(self, conn: Connection, kind: str, re_id: int | None, work) -> list[dict]:
        """``work()``'s replies, or the error that refuses the message (nothing changed)."""
        try:
            replies = work() or []
        except ProtocolError as exc:
            return [error(exc.code, str(exc), re_id, kind)]
        except StorageFailure:
            return [error("stopping", "the server could not store that and is stopping",
                          re_id, kind)]
        except Exception as exc:  # a bug of ours: one line, the client is told, we go on
            log(f"internal error on {kind}: {exc!r}")
            return [error("internal", "the server could not handle that message", re_id, kind)]
        if re_id is not None:
            for reply in replies:
                reply["re"] = re_id
        return replies

    # --- sending -----------------------------------------------------------------
    def _send(self, targets, message: dict) -> None:
        """Send now, or — inside a handler — right after its direct replies."""
        text = encode(message)
        if self._pending is None:
            self._broadcast(targets, text)
        else:
            self._pending.append((list(targets), text))

    def _send_table(self, table: Table, message: dict) -> None:
        self._send([c.ws for c in table.watchers], message)

    def _lobby_changed(self) -> None:
        if not self._lobby_pending:
            self._lobby_pending = True
            asyncio.get_running_loop().call_later(LOBBY_DELAY, self._push_lobby)

    def _push_lobby(self) -> None:
        """Lobby news: one text per page and set of own tables (most listeners share
        the first page's); each table's row is made once."""
        self._lobby_pending = False
        listeners = [c for c in self.connections if c.in_lobby]
        if not listeners:
            return
        view = self._lobby_view()
        groups: dict[tuple, list] = {}
        for c in listeners:
            mine = tuple(t.id for t in view.own(c))
            groups.setdefault((c.lobby_offset, mine), []).append(c)
        for (offset, _), group in groups.items():
            self._broadcast([c.ws for c in group], encode(view.page(offset, group[0])))

    def _lobby(self, conn: Connection, recent: bool = False) -> dict:
        """The lobby page ``conn`` looks at. ``recent``: a view made less than
        LOBBY_DELAY ago will do while lobby news is pending (the news, which every
        listener gets, brings it up to date) — a welcome's: a node taking a dead
        node's clients welcomes hundreds a second, and a view is a pass over every
        table and every name online."""
        view = self._view
        if not (recent and self._lobby_pending and view is not None
                and time.monotonic() - view.made < LOBBY_DELAY):
            view = self._lobby_view()
        return view.page(conn.lobby_offset, conn)

    def _lobby_view(self) -> LobbyView:
        self._view = LobbyView(self)
        self.lobby_views += 1
        return self._view

    def _store(self, method, *args) -> None:
        try:
            method(*args)
        except (StorageError, OSError) as exc:
            self._fail(exc)
            raise StorageFailure from exc

    # --- finding things ----------------------------------------------------------
    def _table(self, message: dict) -> Table:
        table = self.tables.get(message["table"])
        if table is None:
            raise ProtocolError("no_table", f"there is no open table {message['table']}")
        return table

    def _entered(self, conn: Connection, message: dict) -> Table:
        """The table, if ``conn`` may come in (a private one needs its invite code)."""
        table = self._table(message)
        if table.record.private and conn not in table.watchers \
                and message.get("invite") != table.record.invite:
            raise ProtocolError("bad_invite", f"{table.id} is private: it needs its invite code")
        return table

    def _seat(self, conn: Connection, message: dict) -> tuple[Table, str]:
        table = self._table(message)
        return table, table.seated_color(conn, message["token"])

    def _load_ratings(self, table: Table) -> None:
        for color, seat in table.record.seats.items():
            if seat.account is not None:
                table.ratings[color] = self.storage.rating(seat.account, table.record.time_class)

    def _rating_changes(self, table: Table) -> tuple[RatingChange, ...]:
        """Both players' rating changes for a finished rated game between accounts
        (none for a casual one, an abandoned one or one ended before each side moved)."""
        r = table.record
        if not r.rated or r.abandoned or len(r.moves) < RATED_PLIES \
                or any(c not in r.seats or r.seats[c].account is None for c in COLORS):
            return ()
        kind = r.time_class
        before = {c: self.storage.rating(r.seats[c].account, kind) for c in COLORS}
        after = dict(zip(COLORS, rate_game(before["white"], before["black"], r.winner)))
        return tuple(RatingChange(r.seats[c].account, kind, before[c], after[c]) for c in COLORS)

    def _finished(self, table: Table, changes: tuple | None = None, action=None) -> None:
        """The game is over: store the result with its rating changes (one
        transaction; ``changes`` given: stored with the last move already), then tell."""
        if table.timer is not None:
            table.timer.cancel()
        if changes is None:
            changes = self._rating_changes(table)
            self._store(self.storage.save_table, table.record, changes, action)
        over = table.game_over()
        if changes:
            over["ratings"] = {}
            for color, change in zip(COLORS, changes):
                table.ratings[color] = change.after
                over["ratings"][color] = {
                    "before": round(change.before.rating, 1), "after": round(change.after.rating, 1),
                    "rd": round(change.after.rd, 1), "provisional": change.after.provisional}
        self._send_table(table, over)
        self._lobby_changed()

    def _schedule_flag(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        left = table.time_left(time.monotonic())
        if left is not None:
            table.timer = asyncio.get_running_loop().call_later(left + 0.005, self._flag, table)

    def _flag(self, table: Table) -> None:
        table.timer = None
        try:
            if table.check_flag(time.monotonic()):
                self._finished(table)
            elif table.record.status == "playing":
                self._schedule_flag(table)
        except StorageFailure:
            pass

    def _check_flag(self, table: Table, now: float) -> None:
        if table.check_flag(now):
            self._finished(table)

    # --- handlers: each returns its direct replies --------------------------------
    def _on_lobby(self, conn, m, now):
        conn.in_lobby = True
        conn.lobby_offset = m.get("offset", 0)
        return [self._lobby(conn)]

    def _on_lobby_chat(self, conn, m, now):
        self._check_voice(conn)
        listeners = {c for c in self.connections if c.in_lobby} | {conn}
        self._send([c.ws for c in self._hearing(listeners, conn)],
                   {"type": "lobby_chat", "from": conn.name, "text": m["text"]})

    def _waiting_of(self, conn: Connection) -> tuple[int, int]:
        """Tables waiting for players that ``conn``'s player created, and that
        anyone from its address created."""
        mine = here = 0
        for table in self.tables.values():
            if table.record.status == "waiting":
                mine += table.record.owner == conn.identity
                here += table.owner_address == conn.address
        return mine, here

    def _on_create_table(self, conn, m, now):
        mine, here = self._waiting_of(conn)
        if mine >= self.limits.waiting_per_player:
            raise ProtocolError("too_many_tables", f"you have {mine} tables waiting "
                                                   f"for players already")
        if here >= self.limits.waiting_per_address:
            raise ProtocolError("too_many_tables", f"{here} tables from your address are "
                                                   f"waiting for players already")
        if m.get("rated") and conn.account is None:
            raise ProtocolError("rated_needs_account", "sign in to play rated games "
                                                       "(guests play casual games)")
        position = m.get("position", START_POSITION)
        try:
            board = CamelotBoard(position)
        except BadPositionError as exc:
            raise ProtocolError("bad_position", str(exc)) from None
        if board.status is not Status.PLAYING:
            raise ProtocolError("bad_position", f"the game is over there: {board.status_reason}")
        time_control = m.get("time")
        record = TableRecord(
            id=0, private=m.get("private", False),
            invite=secrets.token_hex(4).upper() if m.get("private") else None,
            start_position=board.position_text(),
            time_base=time_control["base"] if time_control else None,
            time_increment=time_control["increment"] if time_control else 0,
            rated=m.get("rated", False), owner=conn.identity)
        record.deserted_since = record.created     # until someone sits
        self._store(self.storage.create_table, record)
        table = Table(record, now)
        table.owner_address = conn.address
        self.tables[table.id] = table
        table.watchers.add(conn)
        conn.in_lobby = False
        self._lobby_changed()
        return [{"type": "table_created", "table": table.id, "invite": record.invite},
                table.state(now)]

    def _on_watch(self, conn, m, now):
        table = self._entered(conn, m)
        table.watchers.add(conn)
        conn.in_lobby = False
        self._send_table(table, table.state(now))

    def _on_sit(self, conn, m, now):
        table = self._entered(conn, m)
        account = conn.account.id if conn.account else None
        rating = (self.storage.rating(account, table.record.time_class)
                  if account is not None else None)
        token = table.sit(conn, conn.name, m["color"], account, rating)
        table.note_presence(time.time())
        self._store(self.storage.save_table, table.record)
        table.watchers.add(conn)
        conn.in_lobby = False
        self._send_table(table, table.state(now))
        self._lobby_changed()
        return [{"type": "seated", "table": table.id, "color": m["color"], "token": token}]

    def _on_stand(self, conn, m, now):
        table, color = self._seat(conn, m)
        table.stand(color)
        table.note_presence(time.time())
        self._store(self.storage.save_table, table.record)
        self._send_table(table, table.state(now))
        self._lobby_changed()

    def _on_leave(self, conn, m, now):
        table = self._table(m)
        if table.record.status == "waiting":
            for color, seated in list(table.seat_conn.items()):
                if seated is conn:
                    table.stand(color)
                    self._store(self.storage.save_table, table.record)
        table.drop(conn, now)
        self._note_presence(table)
        self._after_leaving(table, now)
        conn.in_lobby = True
        self._lobby_changed()
        return [self._lobby(conn)]

    def _on_resume(self, conn, m, now):
        table = self._table(m)
        color = table.color_of(m["token"])
        if color is None:
            raise ProtocolError("bad_token", f"that is not a seat token of table {table.id}")
        table.take_seat(conn, color, now)
        self._note_presence(table)
        table.watchers.add(conn)
        conn.in_lobby = False
        self._check_flag(table, now)
        self._send_table(table, table.state(now))
        return [{"type": "seated", "table": table.id, "color": color, "token": m["token"]}]

    def _on_start(self, conn, m, now):
        table, _ = self._seat(conn, m)
        table.start(now)
        self._store(self.storage.save_table, table.record)
        self._send_table(table, table.state(now))
        self._schedule_flag(table)
        self._lobby_changed()

    def _on_move(self, conn, m, now):
        table, color = self._seat(conn, m)
        self._check_flag(table, now)
        moved = table.move(color, m["move"], now)
        engine_done = time.monotonic()
        over = table.record.status == "finished"
        changes = self._rating_changes(table) if over else ()
        # Stored before anyone hears: the move, and with the last one the result and
        # the rating changes, in one transaction.
        self._store(self.storage.add_move, table.record, changes)
        self._move_marks = (table.id, moved["ply"], engine_done, time.monotonic())
        self._send_table(table, moved)
        if over:
            self._finished(table, changes)
        else:
            self._schedule_flag(table)

    def _on_chat(self, conn, m, now):
        table = self._table(m)
        if conn not in table.watchers:
            raise ProtocolError("not_at_table", f"watch or sit at {table.id} to chat there")
        self._check_voice(conn)
        self._send([c.ws for c in self._hearing(table.watchers, conn)],
                   {"type": "chat", "table": table.id, "from": conn.name, "text": m["text"]})

    def _offer(self, conn, m, now, kind: str) -> None:
        """A draw offer or a takeback request (``kind``): the opponent is asked."""
        table, color = self._seat(conn, m)
        self._check_flag(table, now)
        (table.offer_draw if kind == "draw" else table.ask_takeback)(color)
        self._send_table(table, {"type": f"{kind}_offer", "table": table.id, "by": color,
                                 "to": table.draw_offer if kind == "draw" else table.takeback_offer})

    def _answer(self, conn, m, now, kind: str, accept: bool) -> Table | None:
        """The answer to an offer; the table when it was accepted."""
        table, color = self._seat(conn, m)
        self._check_flag(table, now)
        (table.answer_draw if kind == "draw" else table.answer_takeback)(color, accept, now)
        if not accept:
            self._send_table(table, {"type": f"{kind}_declined", "table": table.id, "by": color})
            return None
        return table

    def _answer_draw(self, conn, m, now, accept: bool):
        table = self._answer(conn, m, now, "draw", accept)
        if table is not None:
            self._finished(table)

    def _on_offer_draw(self, conn, m, now):
        self._offer(conn, m, now, "draw")

    def _on_accept_draw(self, conn, m, now):
        self._answer_draw(conn, m, now, True)

    def _on_decline_draw(self, conn, m, now):
        self._answer_draw(conn, m, now, False)

    def _on_resign(self, conn, m, now):
        table, color = self._seat(conn, m)
        self._check_flag(table, now)
        table.resign(color, now)
        self._finished(table)

    def _on_claim(self, conn, m, now):
        table, color = self._seat(conn, m)
        self._check_flag(table, now)
        table.claim(color, now, self.grace)
        self._finished(table)

    def _on_record(self, conn, m, now):
        table = self.tables.get(m["table"])
        record = table.record if table else self.storage.load_table(table_number(m["table"]))
        if record is None:
            raise ProtocolError("no_table", f"there is no table {m['table']}")
        token_hash = hash_token(m["token"]) if "token" in m else None
        allowed = (not record.private or m.get("invite") == record.invite
                   or any(s.token_hash == token_hash for s in record.seats.values()))
        if not allowed:
            raise ProtocolError("bad_invite", f"{m['table']} is private: give its invite code "
                                              f"or a seat token")
        if record.status != "finished":
            raise ProtocolError("no_record", f"the game at {m['table']} is not over yet")
        return [{"type": "record", "table": record.table_id, "winner": record.winner,
                 "reason": record.reason, "moves": list(record.moves),
                 "text": record.record_text}]


def tune_garbage_collector() -> None:
    """Full collections rarer (the load bench's p99 was their pauses).

    The server's heap is mostly long-lived and free of cycles: the modules, each
    table's board with a record of every move played, the connections. What a
    move leaves behind outlives the young generations (a player thinks for
    seconds), so under load the oldest generation fills and Python runs a full
    collection every few seconds — 50-130 ms of stalled event loop each, on the
    bench's 200 games (when a board still listed its hundred legal moves after
    every move). Those objects are freed by reference counting, not by the
    collector, so scanning them is wasted: the objects alive at start-up are
    frozen out of it and a full collection waits for GEN2_EVERY middle ones
    instead of 10."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, GEN2_EVERY)


async def run(host: str, port: int, db: str, grace: float = GRACE_SECONDS,
              stats: str | None = None, abandon_after: float = ABANDON_SECONDS,
              limits: Limits = Limits()) -> int:
    server = GameServer(SQLiteStorage(db), grace=grace, abandon_after=abandon_after,
                        limits=limits)
    return await serve_until_stopped(server, host, port, f"database {db}", stats)


async def serve_until_stopped(server: GameServer, host: str, port: int, where: str,
                              stats: str | None = None) -> int:
    """Start ``server``, say where it listens, run until SIGINT/SIGTERM; the exit status."""
    try:
        bound = await server.start(host, port)
    except OSError as exc:
        log(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        await server.close()
        return 1
    tune_garbage_collector()
    print(f"Round Table server listening on ws://{host}:{bound} ({where})", flush=True)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, server.stopped.set)
        except (NotImplementedError, RuntimeError):   # not on this platform / thread
            pass
    probe = LoadProbe() if stats else None
    if probe:
        server.keep_stamps = True
        probe.start()
    await server.stopped.wait()
    await server.close()
    if probe:
        with open(stats, "w", encoding="utf-8") as out:
            json.dump({"move_seconds": server.move_seconds, "move_stamps": server.move_stamps,
                       **probe.stop()}, out)
    return 1 if server.failure else 0
