"""A server node among several: ``serve --store postgresql://… --bus redis://… --node NAME``.

Every node serves any client. Each open table is *refereed* by exactly one node
at a time, the one holding its lease (game/server/leases.py, kept by
game/server/lease_keeper.py); every write about it carries that lease's fence, so
a node that lost the lease can never store — nor acknowledge — a move. The other
nodes keep a *replica* of the table (its record as the store last showed it) for
their lobby and pages, and *forward* their clients' messages about it to the
referee on the bus; the referee handles them as it handles its own clients',
through a stand-in connection whose writes go back over the bus, and reports each
one done. So the rules, the clocks and the order of events live in one place per
table, as with one server.

The database is the truth, the bus only says "look": after every write the
referee publishes the table's number, and the others read the table from the
store. A gap on the bus (Redis restarted, a subscriber fell behind) is answered
by reading again: the replicas from the store, and this node's clients' tables
from their referees (each client is re-attached: resumed in its seat, or
watching again).

Failover: a node killed loses its leases within their time (3 s); another node
takes them (its keeper looks every second), loads each table — the replay a
restart does — and announces it; the nodes whose clients were there re-attach
them, and the killed node's own clients reconnect (to any node: the client
library takes several addresses) and resume with their seat tokens. A message
forwarded to a node that never answered is sent again once the table has a new
referee; a referee recognises a message it already handled (by its sender and
number) and repeats only its report, so nothing is applied twice.

While the database cannot be reached a node refuses what would change a table
(one clear error; nothing is acknowledged that was not stored) and ``/healthz``
says 503; the table is read again once it is back.
"""
from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass

from ..net.protocol import CLIENT_MESSAGES, ProtocolError, error
from .jsontext import encode
from .bus import BusUnavailable, Gap, Message
from .closing import close_server
from .game_server import Connection, GameServer, StorageFailure, log
from .lease_keeper import EVERY, TTL, LeaseChange, LeaseKeeper
from .node_commits import GroupCommit
from .node_members import SharedMembers
from .node_news import TABLES, TableNews, node_channel
from .leases import LeasedStorage, LeaseLost, StorageUnavailable
from .records import AccountRecord, table_number
from .replica import RemoteSocket, Replica
from .storage import Conflict, StorageError, TableRecord
from .table import Table

RETRY_AFTER = 1.0                  # a forwarded message unanswered this long: sent again
GIVE_UP = 12.0                     # ... and refused after this long (no node could take the table)
HOUSEKEEPING_EVERY = 0.5
BUS_CLOSE_SECONDS = 2.0            # a stopping node waits this long for the bus at most
TASKS_STOP_SECONDS = 2.0           # ... and for its rounds (leases, bus, housekeeping) to end
PRESENCE_TTL = 3.0                 # a node's people vanish this long after it stops refreshing
REMEMBERED = 20_000                # forwarded messages a referee remembers having handled
SETTLE_SECONDS = 10.0              # a table taken over is seen as deserted only after this
LAPSE_MARGIN = 0.05                # a silent referee's lease is looked at this long after its end
# The messages about one table, handled by its referee (a record of a finished game is
# read from the store by any node).
ROUTED = frozenset(kind for kind, fields in CLIENT_MESSAGES.items()
                   if "table" in fields and kind != "record")
FENCED = frozenset({"add_move", "save_table", "take_back"})


class NotStored(ProtocolError, StorageFailure):
    """A write the store refused or could not take: the client is told, the node goes on
    (a StorageFailure too, so that timers and disconnections give up quietly)."""


@dataclass
class Forward:
    """A client's message sent to its table's referee, not yet reported done."""

    conn: Connection
    message: dict
    number: int
    node: str
    first: float               # monotonic: when the client's frame was read
    sent: float                # ... when it was last sent
    quiet: bool = False        # a re-attachment: the client is not told "seated" again


class NodeServer(GroupCommit, SharedMembers, TableNews, GameServer):
    def __init__(self, storage: LeasedStorage, bus, node: str, *, ttl: float = TTL,
                 every: float = EVERY, **options) -> None:
        self.node = node
        self._news_init()
        self._commits_init()
        super().__init__(storage, **options)
        self.bus = bus
        self._share_limits()
        self.keeper = LeaseKeeper(storage, node, ttl=ttl, every=every,
                                  on_change=self._lease_changed, share=self._share)
        self.referee_of: dict[int, str] = {}                # table → node, as last heard
        self.lease_until: dict[int, float] = {}             # ... its lease's end, as the store said
        self.remote: dict[tuple[str, int], Connection] = {}   # (node, cid) → stand-in
        # table → this node's connections at it (wherever refereed), with their seat token
        self.attached: dict[str, dict[Connection, str | None]] = {}
        self.by_cid: dict[int, Connection] = {}
        self.forwards: dict[int, Forward] = {}
        self.handled: OrderedDict[tuple[str, int], dict] = OrderedDict()
        self.stale: set[str] = set()                        # tables to read again from the store
        self.others: dict[str, frozenset[str]] = {}         # other nodes' people (presence)
        self.missing_since: dict[str, float] = {}           # origin nodes gone from presence
        self._seq = itertools.count(1)
        self._cids = itertools.count(1)
        self._tasks: list[asyncio.Task] = []
        self._taking: list[int] = []                        # taken this round, not loaded yet
        self._settling: dict[int, float] = {}               # taken → when (presence not noted)
        self._lapsed_seen = False                           # a retry found a lease run out
        self._lapse_round = self._lapse_round_at = None     # a round due when one runs out
        self._stopping = False
        self._subscription = None
        self._reports_held: set[tuple[str, int]] = set()    # forwarded moves held: reported later

    # --- life ------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        self._subscription = await self.bus.subscribe(TABLES, node_channel(self.node))
        for record in self.storage.open_tables():
            self._replica(record)
        self._keeper_round()         # the lapsed tables (all of them, for the first node)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._hear()), loop.create_task(self._keep()),
                       loop.create_task(self._housekeeping())]
        self._sweep()
        return await self._listen(host, port)

    async def close(self) -> None:
        # The rounds end at their next turn even if a cancellation is lost on the way
        # (a bus call can take it for a failed connection), and are not waited on long.
        self._stopping = True
        try:
            self._flush_moves()
        except StorageFailure:
            pass
        if self._lapse_round is not None:
            self._lapse_round.cancel()
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=TASKS_STOP_SECONDS)
        if self._server is not None:            # no client is served once the leases go
            await close_server(self._server)
            self._server = None
        try:
            self.keeper.release_all()           # the other nodes take the tables at once
        except StorageError as exc:             # they lapse by themselves
            log(f"node {self.node}: could not release the leases: {exc}")
        self._send_looks()
        try:
            await asyncio.wait_for(self.bus.close(), BUS_CLOSE_SECONDS)
        except asyncio.TimeoutError:
            pass                                # its presence expires by itself
        await super().close()

    def _beat(self) -> None:
        """A node's sign of life is its leases' renewal (the keeper's rounds)."""

    def health(self) -> str | None:
        if self.keeper.unavailable is not None:
            return f"the database cannot be reached: {self.keeper.unavailable}"
        return super().health()

    def refereed(self) -> list[Table]:
        return [t for t in self.tables.values() if t.record.id in self.keeper.held]

    def people_online(self) -> list[tuple[str, bool]]:
        mine = super().people_online()
        theirs = [(member[2:], member[0] == "g") for members in self.others.values()
                  for member in members if member[:2] in ("g:", "a:")]
        return mine + theirs

    # --- leases ------------------------------------------------------------------
    def _share(self) -> tuple[int, int]:
        """This node's place among the live nodes (the bus's presence), and their number:
        a dead node's tables are shared out among the others."""
        live = sorted(set(self.others) | {self.node})
        return live.index(self.node), len(live)

    async def _keep(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.keeper.every)
            try:
                self._keeper_round()
            except Exception as exc:      # a bug of ours: one line, and the rounds go on
                log(f"node {self.node}: a lease round failed: {exc!r}")

    def _lease_changed(self, change: LeaseChange) -> None:
        self.metrics.lease_changes.inc(change=change.change)
        if change.change == "taken":
            self._taking.append(change.table)      # loaded with the rest of the round's
        elif change.change == "lost":
            self._lose(change.table)

    def _keeper_round(self) -> None:
        self.keeper.step()
        self._take_waiting()

    def _take_waiting(self) -> None:
        """This node referees the tables just taken (a round's, a claim's): read them
        in one go, their clock charges stored in one go, announced in one message,
        the clients here that were at them re-attached. (A dead node's thousand
        tables were read, stored and announced one by one: the loop stood still
        for a second while its clients came back.)"""
        numbers, self._taking = self._taking, []
        if not numbers:
            return
        for number in numbers:
            self.referee_of[number] = self.node
        tids = [f"T{number}" for number in numbers]
        try:
            self._load_many(numbers, taken=True)
        except (StorageUnavailable, StorageFailure):
            self.stale.update(tids)              # read again once the database answers
        self._tell({"k": "taken", "tables": numbers})
        # After the handler that may be running now (a takeover can happen inside one).
        loop = asyncio.get_running_loop()
        for tid in tids:
            loop.call_soon(self._reattach, tid)
        loop.call_soon(self._send_waiting, numbers)

    def _lose(self, number: int) -> None:
        tid = f"T{number}"
        self.referee_of.pop(number, None)
        table = self.tables.get(tid)
        if table is not None and not isinstance(table, Replica):
            if table.timer is not None:
                table.timer.cancel()
            self._replica(table.record)                   # other nodes' clients: theirs
            self.stale.add(tid)                           # re-attach them to the new one

    def _load(self, tid: str) -> None:
        """Read a table this node referees from the store again (a write the store
        could not take); the connections at it stay at it."""
        self._load_many([table_number(tid)])

    def _load_many(self, numbers: list[int], taken: bool = False) -> None:
        """Tables this node referees, read from the store in one go (``taken``: just
        taken over, their clocks charged); those whose record changed are stored in
        one go."""
        found = self.storage.load_tables(numbers)
        now, wall = time.monotonic(), time.time()
        changed = []
        for number, record in found.items():
            tid = f"T{number}"
            old = self.tables.get(tid)
            self.stale.discard(tid)
            if record is None or record.status == "finished" and not (old and old.watchers):
                self.tables.pop(tid, None)
                continue
            used, charged = 0.0, False
            if taken and record.status == "playing" and record.turn_wall is not None:
                # As after a restart: the side to move is charged what it had used up
                # to its old referee's last sign of life (a lease renewal, at least
                # ``ttl`` before it lapsed); the time the table had no referee, to nobody.
                alive = wall - self.keeper.ttl
                used = max(0.0, min(alive, wall) - record.turn_wall)
                record.turn_wall, charged = wall - used, True
            table = Table(record, now, used)
            if old is not None and not isinstance(old, Replica):
                table.watchers, table.seat_conn = old.watchers, old.seat_conn
                table.absent_since, table.owner_address = old.absent_since, old.owner_address
                if old.timer is not None:
                    old.timer.cancel()
            self.tables[tid] = table
            self._load_ratings(table)
            if taken:
                # Nobody sits here yet, but its players are coming back (this node's at
                # once, the others' as they hear "taken", the dead node's as they
                # reconnect): stored as deserted now, each resume would store it again
                # and make every other node read it with its moves. Looked at later.
                self._settling[number] = wall
            if (not taken and table.note_presence(wall)) or charged:
                changed.append(table)
            else:
                self._schedule_flag(table)
        self._lobby_changed()
        # The takeover's "taken" makes the other nodes read these: no look for them.
        lost = self._store_tables([t.record for t in changed], looks=not taken)
        for table in changed:
            if table.record.id not in lost:
                self._schedule_flag(table)
        if lost and not taken:
            tid = f"T{min(lost)}"
            raise NotStored("table_moved", f"{tid} is refereed by another node now: "
                                           f"send that again")

    def _settle_presence(self) -> None:
        """Tables taken :data:`SETTLE_SECONDS` ago: the ones nobody came back to are
        stored as deserted since their takeover (their abandonment counts from it)."""
        wall = time.time()
        due = [n for n, at in self._settling.items() if wall - at >= SETTLE_SECONDS]
        changed = []
        for number in due:
            table = self.tables.get(f"T{number}")
            if number in self.keeper.held and table is not None \
                    and not isinstance(table, Replica) \
                    and table.note_presence(self._settling[number]):
                changed.append(table.record)
        if changed:
            self._store_tables(changed)          # (raises while the database is away:
        for number in due:                       # looked at again next round)
            del self._settling[number]

    def _store_tables(self, records: list[TableRecord], looks: bool = True) -> set[int]:
        """``save_table`` of tables this node referees, fenced, in one go; the ones
        whose lease was lost meanwhile (nothing stored for them) are dropped and
        returned."""
        self._flush_moves()                      # the held moves are stored first
        writes = [(r, self.keeper.held[r.id]) for r in records if r.id in self.keeper.held]
        lost = {r.id for r in records if r.id not in self.keeper.held}
        try:
            lost |= self.storage.save_tables(writes)
        except StorageUnavailable as exc:
            self.stale.update(r.table_id for r in records)
            raise self._unavailable(exc) from None
        except (StorageError, OSError) as exc:
            self._fail(exc)
            raise StorageFailure from exc
        for record in records:
            if record.id in lost:
                self.keeper.held.pop(record.id, None)
                self._lose(record.id)
            elif looks:
                self._note_look({"k": "look", "table": record.id, "ply": len(record.moves)})
        return lost

    def _replica(self, record: TableRecord) -> Replica:
        old = self.tables.get(record.table_id)
        replica = self.tables[record.table_id] = Replica(record)
        self._replica_owner(replica, old)
        try:
            self._load_ratings(replica)
        except StorageUnavailable:
            pass                                  # the lobby shows no ratings meanwhile
        return replica

    def _fresh(self, tid: str) -> None:
        if tid in self.stale and table_number(tid) in self.keeper.held:
            try:
                self._load(tid)
            except StorageUnavailable as exc:
                raise self._unavailable(exc) from None

    # --- storing: fenced, refused while the database is away -----------------------
    def _unavailable(self, exc: Exception) -> NotStored:
        self.metrics.storage_errors.inc()
        return NotStored("storage_unavailable", "the database cannot be reached, so nothing "
                                                f"was saved: try again in a moment ({exc})")

    def _store(self, method, *args) -> None:
        name = getattr(method, "__name__", "")
        record = args[0] if args and isinstance(args[0], TableRecord) else None
        options = {}
        if name in FENCED:
            fence = self.keeper.held.get(record.id)
            if fence is None:
                self.stale.add(record.table_id)
                raise NotStored("table_moved", f"{record.table_id} is refereed by another "
                                               f"node now: send that again")
            options["fence"] = fence
            if name == "add_move" and record.status == "playing" and not any(args[1:]) \
                    and self._may_hold(record, fence):
                return                           # stored with the others received with it
        self._flush_moves()                      # the held moves are stored first
        try:
            if name == "create_table":          # the node that makes a table referees it
                fence = self.storage.create_leased_table(record, self.node, self.keeper.ttl)
                self.keeper.held[record.id] = fence
                self.referee_of[record.id] = self.node
                self.metrics.lease_changes.inc(change="taken")
            else:
                method(*args, **options)
        except LeaseLost:
            self.keeper.held.pop(record.id, None)
            self._lose(record.id)
            raise NotStored("table_moved", f"{record.table_id} is refereed by another node "
                                           f"now: send that again") from None
        except StorageUnavailable as exc:
            if record is not None and record.id:
                self.stale.add(record.table_id)
            raise self._unavailable(exc) from None
        except Conflict:          # stored already (a commit whose answer was lost): read it
            if record is None:
                raise
            self.stale.add(record.table_id)
            raise NotStored("table_changed", f"{record.table_id} changed meanwhile: it is "
                                             f"read again; look and send that again") from None
        except (StorageError, OSError) as exc:
            self._fail(exc)
            raise StorageFailure from exc
        if record is not None:
            look = {"k": "look", "table": record.id, "ply": len(record.moves)}
            if name == "add_move" and record.status == "playing":
                look["move"] = record.moves[-1]        # the one change: no need to read
            self._note_look(look)

    def _guarded(self, conn: Connection, kind: str, re_id, work) -> list[dict]:
        """As one server's, and a database that cannot be reached is the client's
        clear refusal, not an internal error."""
        def work_or_refusal():
            try:
                return work()
            except StorageUnavailable as exc:
                raise self._unavailable(exc) from None
        return super()._guarded(conn, kind, re_id, work_or_refusal)

    # --- routing a client's message to its table's referee -----------------------------
    def _dispatch(self, conn: Connection, message: dict, now: float):
        if message["type"] not in ROUTED or isinstance(conn.ws, RemoteSocket):
            return self._local(conn, message, now)
        tid = message["table"]
        number = table_number(tid)
        if tid not in self.tables:              # made on another node a moment ago?
            try:
                record = self.storage.load_table(number)
            except StorageUnavailable as exc:
                raise self._unavailable(exc) from None
            if record is not None and record.status != "finished":
                self._replica(record)
        if tid not in self.tables and conn not in self.attached.get(tid, ()):
            return self._local(conn, message, now)     # "there is no open table"
        # (A finished game this client is still at — a rematch — is its referee's.)
        node = self._referee(number)
        if node == self.node:
            return self._local(conn, message, now)
        self._forward(conn, message, number, node, now)
        return []

    def _local(self, conn: Connection, message: dict, now: float):
        """Handle a message here (this node referees its table, if it has one)."""
        tid = message.get("table")
        if tid is not None and message["type"] in ROUTED:
            self._fresh(tid)
        replies = super()._dispatch(conn, message, now) or []
        if tid is not None and message["type"] in ROUTED and not isinstance(conn.ws, RemoteSocket):
            self._note_attached(conn, tid, *self._attachment(conn, tid, message, replies))
        return replies

    def _attachment(self, conn: Connection, tid: str, message: dict,
                    replies: list) -> tuple[bool, str | None]:
        """Whether ``conn`` is at the table after ``message``, and its seat token."""
        table = self.tables.get(tid)
        at = table is not None and conn in table.watchers
        token = next((r["token"] for r in replies if r.get("type") == "seated"), None)
        if token is None and at and message.get("token") and table.color_of(message["token"]):
            token = message["token"]
        return at, token

    def _note_attached(self, conn: Connection, tid: str, at: bool, token: str | None) -> None:
        there = self.attached.setdefault(tid, {})
        if at and conn in self.connections:
            there[conn] = token or there.get(conn)
        else:
            there.pop(conn, None)
            if not there:
                del self.attached[tid]

    def _referee(self, number: int, claim: bool = True) -> str | None:
        """The node refereeing a table (this one, if nobody did and it could take it;
        without ``claim``, None: the lease round takes it, with the others lapsed)."""
        if number in self.keeper.held:
            return self.node
        node = self.referee_of.get(number)
        if node is not None and node != self.node:
            return node
        lease = self.storage.lease_of(number)
        if lease is None and not claim:
            self._lapsed_seen = True
            return None
        if lease is None:
            self.keeper.claim(number)           # nobody referees it: this node does
            self._take_waiting()
            return self.node if number in self.keeper.held else None
        self.referee_of[number] = lease.node
        self.lease_until[number] = lease.expires_at
        return lease.node

    def _cid(self, conn: Connection) -> int:
        cid = getattr(conn, "cid", None)
        if cid is None:
            cid = conn.cid = next(self._cids)
            self.by_cid[cid] = conn
        return cid

    def _forward(self, conn: Connection, message: dict, number: int, node: str | None,
                 now: float, quiet: bool = False) -> None:
        seq = next(self._seq)
        forward = Forward(conn, message, number, node or "", now, now, quiet)
        self.forwards[seq] = forward
        if message["type"] in ("watch", "sit", "resume"):
            conn.in_lobby = False
        if node:
            self._send_forward(seq, forward)

    def _who(self, conn: Connection) -> dict:
        """A client of this node, as a referee elsewhere stands in for it."""
        return {"cid": self._cid(conn), "name": conn.name, "key": conn.key,
                "address": conn.address, "ignored": sorted(conn.ignored),
                "muted": conn.muted_until,
                "account": asdict(conn.account) if conn.account else None}

    def _send_forward(self, seq: int, forward: Forward) -> None:
        conn = forward.conn
        who = self._who(conn)
        seat = self.attached.get(forward.message["table"], {}).get(conn)
        self._to_node(forward.node, {"k": "fwd", "seq": seq, "who": who,
                                     "m": forward.message, "quiet": forward.quiet,
                                     "seat": seat})

    def _retry_forwards(self) -> None:
        """Messages whose referee did not answer: sent again to the table's referee
        now (the same node again is harmless: it recognises them), refused at last.
        The store is asked once per table a round (a failover leaves hundreds of
        messages waiting on a few hundred tables), and not at all where news of a new
        referee came meanwhile."""
        now = time.monotonic()
        asked: dict[int, str | None] = {}
        for seq, forward in list(self.forwards.items()):
            if now - forward.first > GIVE_UP:
                del self.forwards[seq]
                m = forward.message
                self._reply(forward.conn, error(
                    "table_unavailable", f"no server answers for {m['table']} now: "
                                         f"try again in a moment", m.get("id"), m["type"]))
                continue
            if now - forward.sent >= RETRY_AFTER:
                self._resend(seq, forward, now, asked)
        if self._lapsed_seen:
            # A dead referee's leases have run out: its tables are taken now in one
            # lease round (one statement, shared out among the nodes) — claimed one by
            # one here, each was a write, a read and a "taken" of its own, hundreds of
            # them in a failover — and the messages go on as the takeover is known.
            self._lapsed_seen = False
            self._keeper_round()

    def _round_at_lapse(self, until: float) -> None:
        """A referee that does not answer holds a lease until ``until`` (the store's
        clock, seconds since the epoch): a lease round then, so that its tables — and
        the messages waiting on them — go on as soon as it runs out if it is dead, not
        at the next round or retry (up to a second more of a failover)."""
        if self._lapse_round is not None and self._lapse_round_at <= until:
            return
        if self._lapse_round is not None:
            self._lapse_round.cancel()
        self._lapse_round_at = until
        self._lapse_round = asyncio.get_running_loop().call_later(
            max(0.0, until - time.time()) + LAPSE_MARGIN, self._lapse_round_due)

    def _lapse_round_due(self) -> None:
        self._lapse_round = self._lapse_round_at = None
        if not self._stopping:
            try:
                self._keeper_round()
            except Exception as exc:      # a bug of ours: one line, and the rounds go on
                log(f"node {self.node}: a lease round failed: {exc!r}")

    def _send_waiting(self, numbers) -> None:
        """Messages waiting on these tables' old referee, sent to the new one as soon
        as the takeover is known (made here, or heard), not at the next retry round:
        a dead node's players' resumes and moves wait on them."""
        numbers, now, asked = set(numbers), time.monotonic(), {}
        for seq, forward in list(self.forwards.items()):
            new = self.referee_of.get(forward.number)
            if forward.number in numbers and new is not None and new != forward.node \
                    and seq in self.forwards:
                self._resend(seq, forward, now, asked)

    def _resend(self, seq: int, forward: Forward, now: float, asked: dict,
                not_to: str | None = None) -> None:
        """``forward`` to its table's referee as now known (``asked``: this round's
        answers per table); not to ``not_to``, which just said it is not (again at the
        next round)."""
        number = forward.number
        if number not in asked:
            known = self.referee_of.get(number)
            if known is not None and known != not_to and (
                    known != forward.node or time.time() < self.lease_until.get(number, 0.0)):
                # Told meanwhile ("taken"); or the referee that has not answered holds
                # the lease still, as the store said: asked again once it has run out
                # (a dead node's lease — its taker says "taken" — or a live one's,
                # renewed). A dead node's clients' resumes wait on a few hundred.
                asked[number] = known
            else:
                self.referee_of.pop(number, None)
                try:
                    asked[number] = self._referee(number, claim=False)
                except StorageUnavailable:
                    asked[number] = None
            if asked[number] == forward.node and number in self.lease_until:
                self._round_at_lapse(self.lease_until[number])      # silent: dead?
        node = asked[number]
        forward.sent = now
        if node == self.node:
            del self.forwards[seq]
            self._run_as(forward.conn, forward.message, forward.quiet)
        elif node is not None and node != not_to:
            forward.node = node
            self._send_forward(seq, forward)

    def _reply(self, conn: Connection, message: dict) -> None:
        self._broadcast([conn.ws], encode(message))

    def _run_as(self, conn: Connection, message: dict, quiet: bool = False) -> None:
        """Handle ``message`` as if ``conn`` had sent it now (its replies go to it)."""
        def work():
            replies = self._dispatch(conn, message, time.monotonic()) or []
            return [r for r in replies if not (quiet and r.get("type") == "seated")]
        self._speak(conn, lambda: self._guarded(conn, message["type"], message.get("id"), work))

    def _reattach(self, tid: str) -> None:
        """This node's clients at ``tid`` join it again at its (new) referee: in their
        seats, or watching; they get the whole table again."""
        table = self.tables.get(tid)
        for conn, token in list(self.attached.get(tid, {}).items()):
            if token:
                message = {"type": "resume", "table": tid, "token": token}
            else:
                message = {"type": "watch", "table": tid}
                if table is not None and table.record.invite:
                    message["invite"] = table.record.invite
            number = table_number(tid)
            node = self.referee_of.get(number)
            if node == self.node:
                self._run_as(conn, message, quiet=True)
            else:
                self._forward(conn, message, number, node, time.monotonic(), quiet=True)

    # --- what a referee does for other nodes' clients ---------------------------------
    def _stand_in(self, origin: str, who: dict) -> Connection:
        key = (origin, who["cid"])
        conn = self.remote.get(key)
        if conn is None:
            conn = self.remote[key] = Connection(RemoteSocket(origin, who["cid"]),
                                                 float("inf"), 1 << 30, who["address"])
        conn.name, conn.key = who["name"], who["key"]
        conn.account = AccountRecord(**who["account"]) if who["account"] else None
        conn.ignored, conn.muted_until = set(who["ignored"]), who["muted"]
        return conn

    def _on_forwarded(self, origin: str, body: dict) -> None:
        seq, message = body["seq"], body["m"]
        key = (origin, seq)
        if key in self._reports_held:            # its move is being stored: reported then
            return
        done = self.handled.get(key)
        if done is None:
            number = table_number(message["table"])
            if number not in self.keeper.held:
                done = {"k": "done", "seq": seq, "elsewhere": True}
            else:
                conn = self._stand_in(origin, body["who"])
                self._kind, self._move_marks = None, None
                quiet = body.get("quiet")
                started = time.perf_counter()

                def work():
                    self._seat_again(conn, message, body.get("seat"))
                    replies = self._local(conn, message, time.monotonic())
                    return [r for r in replies if not (quiet and r.get("type") == "seated")]
                replies = self._speak(conn, lambda: self._guarded(
                    conn, message["type"], message.get("id"), work))
                seated = next((r for r in replies if r.get("type") == "seated"), None)
                at, token = self._attachment(conn, message["table"], message,
                                             [seated] if seated else [])
                stored = self._move_marks is not None
                if stored:
                    self._moved(started)
                done = {"k": "done", "seq": seq, "at": at, "token": token, "stored": stored}
                self.handled[key] = done
                while len(self.handled) > REMEMBERED:
                    self.handled.popitem(last=False)
                held = self.last_held
                if held is not None:             # its move waits for the group commit
                    self._reports_held.add(key)
                    held.after.append(lambda told: self._report_held(origin, key, done, told))
                    return
        self._to_node(origin, done)

    def _report_held(self, origin: str, key: tuple, done: dict, stored: bool) -> None:
        self._reports_held.discard(key)
        done["stored"] = stored
        self._to_node(origin, done)

    def _seat_again(self, conn: Connection, message: dict, token: str | None) -> None:
        """A client its node saw seated (with ``token``), whose message came here
        before its node re-attached it (this node took the table over a moment ago):
        seated first, as its resume would have."""
        table = self.tables.get(message["table"])
        if not token or table is None or message["type"] in ("resume", "sit"):
            return
        self._fresh(table.id)
        color = table.color_of(token)
        if color is not None and table.seat_conn[color] is not conn:
            table.take_seat(conn, color, time.monotonic())
            table.watchers.add(conn)
            self._note_presence(table)

    def _drop_stand_ins(self, origin: str, cids) -> None:
        """Another node's clients gone (one closed, or the node dead: all of them)."""
        conns = set()
        for cid in cids:
            self._forget_remote_seek(origin, cid)
            conn = self.remote.pop((origin, cid), None)
            if conn is not None:
                conns.add(conn)
        if conns:
            try:
                self._leave_tables_of(conns)
            except StorageFailure:
                pass

    # --- this node's own clients -------------------------------------------------------
    def _on_done(self, body: dict) -> None:
        forward = self.forwards.pop(body["seq"], None)
        if forward is None:
            return                               # a repeat
        if body.get("elsewhere"):                # its referee changed: ask the new one
            self.referee_of.pop(forward.number, None)
            self.forwards[body["seq"]] = forward
            self._resend(body["seq"], forward, time.monotonic(), {}, not_to=forward.node)
            return
        conn, message = forward.conn, forward.message
        if conn not in self.connections:
            return
        self._note_attached(conn, message["table"], body["at"], body["token"])
        if message["type"] == "leave":
            conn.in_lobby = True
        if body.get("stored") and message["type"] == "move":
            self.metrics.move_round_trip.observe(time.monotonic() - forward.first)

    def _disconnect(self, conn: Connection) -> None:
        super()._disconnect(conn)
        self._let_name_go(conn)
        for tid in [t for t, there in self.attached.items() if conn in there]:
            self._note_attached(conn, tid, False, None)
        for seq in [s for s, f in self.forwards.items() if f.conn is conn]:
            del self.forwards[seq]
        cid = getattr(conn, "cid", None)
        if cid is not None:
            del self.by_cid[cid]
            self._tell({"k": "closed", "cid": cid})

    def _broadcast(self, targets, text: str) -> None:
        if self._held:                           # nothing is said before they are stored
            self._flush_moves()
        local, elsewhere = [], {}
        for ws in targets:
            if isinstance(ws, RemoteSocket):
                elsewhere.setdefault(ws.node, []).append(ws.cid)
            else:
                local.append(ws)
        if local:
            super()._broadcast(local, text)
        for node, cids in elsewhere.items():
            self._to_node(node, {"k": "out", "cids": cids, "text": text})

    def _on_lobby_chat(self, conn, m, now):
        super()._on_lobby_chat(conn, m, now)
        self._tell({"k": "chat", "from": conn.name, "key": conn.key,
                    "text": m["text"]})

    # --- the bus -------------------------------------------------------------------------
    async def _hear(self) -> None:
        async for event in self._subscription:
            if self._stopping:
                break
            try:
                self._heard(event)
            except StorageFailure:
                pass
            except Exception as exc:     # a bug of ours: one line, and the node goes on
                log(f"node {self.node}: bus event {event!r} failed: {exc!r}")

    def _heard(self, event: Message | Gap) -> None:
        if isinstance(event, Gap):
            self.metrics.bus_gaps.inc()
            if event.channel == TABLES:
                self.referee_of.clear()
                self.lease_until.clear()
                self._read_replicas()
            for tid in list(self.attached):      # this node's clients: their tables again
                if table_number(tid) not in self.keeper.held:
                    self._reattach(tid)
            return
        body, sender = event.body, event.sender
        if sender != self.node:
            self.metrics.bus_lag.observe(max(0.0, time.time() - event.sent_at))
        kind = body["k"]
        if event.channel == TABLES:
            if sender == self.node:
                return
            if kind == "looks":
                self._heard_looks(sender, body)
            elif kind == "look":                 # one at a time (a node before looks)
                self._look(body["table"], body.get("ply"), body.get("move"))
            elif kind == "taken":
                numbers = body["tables"]
                for number in numbers:
                    self.referee_of[number] = sender
                    self.lease_until.pop(number, None)
                self._read_tables(numbers)
                for number in numbers:
                    self._reattach(f"T{number}")
                self._send_waiting(numbers)
            elif kind == "chat":
                listeners = [c for c in self.connections
                             if c.in_lobby and body["key"] not in c.ignored]
                self._broadcast([c.ws for c in listeners], encode(
                    {"type": "lobby_chat", "from": body["from"], "text": body["text"]}))
            elif kind == "closed":
                self._drop_stand_ins(sender, [body["cid"]])
            elif kind in ("seek", "unseek"):
                self._heard_seek(sender, body)
            elif kind == "mod":
                self._heard_moderation(body)
            elif kind == "owner":
                self._heard_owner(body)
            return
        if "looks" in body:                      # what the sender's news here follows
            self._heard_looks(sender, body)
        if kind == "fwd":
            self._on_forwarded(sender, body)
        elif kind == "out":
            targets = [self.by_cid[c].ws for c in body["cids"] if c in self.by_cid]
            super()._broadcast(targets, body["text"])
        elif kind == "done":
            self._on_done(body)
        elif kind == "paired":
            self._paired(body)

    # --- every half second ---------------------------------------------------------------
    async def _housekeeping(self) -> None:
        beat = 0
        while not self._stopping:
            await asyncio.sleep(HOUSEKEEPING_EVERY)
            beat += 1
            try:
                self._retry_forwards()
                self._settle_presence()
                theirs = []
                for tid in sorted(self.stale):
                    if table_number(tid) in self.keeper.held:
                        self._fresh(tid)
                    else:
                        theirs.append(table_number(tid))
                self._read_tables(theirs)
            except (StorageFailure, StorageUnavailable):
                pass                              # the next round tries again
            except Exception as exc:              # a bug of ours: one line, and it goes on
                log(f"node {self.node}: housekeeping failed: {exc!r}")
            if beat % 2 == 0:
                try:
                    await self._presence()
                except Exception as exc:          # a bug of ours: one line, and it goes on
                    log(f"node {self.node}: presence failed: {exc!r}")

    async def _presence(self) -> None:
        """Who is online here, for the other nodes; theirs, for this one; and the
        stand-ins of nodes gone from it (dead) dropped."""
        mine = [f"~{self.node}"] + [f"{'g' if c.account is None else 'a'}:{c.name}"
                                    for c in self.names.values()] + self._presence_counts()
        for seek in self.seeks:                 # again, for nodes started since
            self._announce_seek(seek)
        try:
            await self.bus.set_presence(mine, PRESENCE_TTL)
            everyone = await self.bus.presence()
            await self._renew_names()
        except BusUnavailable:
            return
        self._heard_presence(everyone)
        self._forget_unannounced_seeks(PRESENCE_TTL)
        before = self.others
        self.others = {n: m for n, m in everyone.items() if n != self.node}
        if self.others != before:
            self._lobby_changed()
        now = time.monotonic()
        for origin in {node for node, _ in self.remote}:
            if origin in everyone:
                self.missing_since.pop(origin, None)
            elif now - self.missing_since.setdefault(origin, now) > PRESENCE_TTL:
                self._drop_stand_ins(origin, [cid for node, cid in self.remote
                                              if node == origin])
                self.missing_since.pop(origin, None)
