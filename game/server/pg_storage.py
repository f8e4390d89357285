"""PostgreSQL as the store several server nodes share (``serve --store postgresql://…``).

The driver is psycopg 3, used synchronously, on purpose: the server handles a
frame, stores it and writes its messages without yielding to the event loop (no
other message can see a half-done change), and a blocking call keeps that rule as
SQLite's does; an awaited driver (asyncpg, psycopg's async API) would open a
window between "stored" and "announced" in every handler. A loopback commit costs
a fraction of a millisecond of the loop's time; psycopg has the same calls in an
async flavour should a node ever need to overlap them.

psycopg is imported here only (``pip install '.[server]'``): the app and the
single-node server never load this module.

The schema is versioned: :data:`~game.server.pg_schema.MIGRATIONS` in order, the applied ones listed in
``schema_migrations``; :func:`migrate` creates or upgrades a database (under an
advisory lock, so nodes started together do it once) and a store refuses a
database whose version it does not know (:class:`SchemaMismatch`). A lost
connection or a server that is down or restarting: :class:`StorageUnavailable`
(one line, nothing written); the next call connects again.
"""
from __future__ import annotations

import json
import select

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.types.json import Jsonb

from .leases import Lease, LeasedStorage, LeaseLost, StorageError, StorageUnavailable
from .pg_accounts import PostgresAccounts
from .pg_schema import LATEST, MIGRATIONS
from .storage import Conflict, MoveConflict, SeatRecord, TableRecord, crash_point


_MIGRATION_LOCK = 0x52544D47          # any constant shared by every node ("RTMG")


class SchemaMismatch(StorageError):
    """The database's schema is not the one this server was written for."""


def _one_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _connect(dsn: str, timeout: float) -> psycopg.Connection:
    try:
        return psycopg.connect(dsn, autocommit=True, connect_timeout=max(1, round(timeout)))
    except psycopg.OperationalError as error:
        raise StorageUnavailable(f"cannot reach the database: {_one_line(error)}") from None


def _closed_by_server(db: psycopg.Connection) -> bool:
    """An idle connection the server has spoken on (its farewell, or the end of
    the stream when its machine died): no statement of ours is in flight, so it
    is dropped and the next statement goes on a new one. A poll, no round trip."""
    if db.closed or db.info.transaction_status != TransactionStatus.IDLE:
        return False
    readable, _, _ = select.select([db.fileno()], [], [], 0)
    return bool(readable)


def _applied(db: psycopg.Connection) -> list[int]:
    return [v for (v,) in db.execute("SELECT version FROM schema_migrations ORDER BY version")]


def migrate(dsn: str, target: int = LATEST, *, timeout: float = 10.0) -> int:
    """Bring the database's schema up to ``target`` (every migration not yet applied,
    in order, in one transaction); returns the version it is at. Safe to run again,
    and from several nodes at once."""
    known = {m.version for m in MIGRATIONS}
    with _connect(dsn, timeout) as db:
        try:
            with db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY"
                           " KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
                applied = _applied(db)
                unknown = sorted(set(applied) - known)
                if unknown:
                    raise SchemaMismatch(f"the database has schema version {unknown[-1]}; this "
                                         f"server knows up to {LATEST}: run a newer server")
                for migration in MIGRATIONS:
                    if migration.version <= target and migration.version not in applied:
                        db.execute(migration.sql)
                        db.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                                   (migration.version, migration.name))
                return max(_applied(db), default=0)
        except psycopg.OperationalError as error:
            raise StorageUnavailable(f"the database went away: {_one_line(error)}") from None


_COLUMNS = ("id, private, invite, start_position, time_base, time_increment, seats, status, "
            "clocks, winner, reason, record_text, created, deserted_since, rated, owner, "
            "turn_wall, ended")
_LIVE = "expires_at > clock_timestamp()"

# A write about a table is one statement (one round trip, its own transaction).
# With a fence, the lease row is read FOR SHARE, which holds it until the write
# commits: a takeover (an UPDATE of that row) waits for the write, then loads it;
# a write arriving after a takeover finds another fence and changes nothing.
_LEASE = f"lease AS (SELECT 1 FROM leases WHERE table_id=%(table)s AND fence=%(fence)s AND {_LIVE} FOR SHARE)"
_GUARD = "(%(fence)s::bigint IS NULL OR EXISTS (SELECT 1 FROM lease))"
_SET_STATE = ("UPDATE tables SET seats=%(seats)s, status=%(status)s, clocks=%(clocks)s,"
              " winner=%(winner)s, reason=%(reason)s, record_text=%(record_text)s,"
              " deserted_since=%(deserted_since)s, rated=%(rated)s, owner=%(owner)s,"
              " turn_wall=%(turn_wall)s, ended=%(ended)s, ply=%(ply)s,"
              " time_class=%(time_class)s, white_account=%(white_account)s,"
              f" black_account=%(black_account)s WHERE id=%(table)s AND {_GUARD}")
_SAVE = f"WITH {_LEASE}, changed AS ({_SET_STATE}) SELECT {_GUARD}"
_ADD = (f"WITH {_LEASE}, added AS (INSERT INTO moves (table_id, ply, notation)"
        f" SELECT %(table)s, %(ply)s, %(move)s WHERE {_GUARD}), changed AS ({_SET_STATE})"
        f" SELECT {_GUARD}")
_TAKE_BACK = (f"WITH {_LEASE}, dropped AS (DELETE FROM moves WHERE table_id=%(table)s"
              f" AND ply>%(ply)s AND {_GUARD}), changed AS ({_SET_STATE}) SELECT {_GUARD}")
# Many tables' next moves in one statement (a group commit): each fenced on its own,
# its lease row held FOR SHARE until the commit as _LEASE does; the tables written
# are returned (a missing one: its fence no longer holds).
_ADD_MANY = (
    "WITH w AS (SELECT * FROM unnest(%(tables)s::bigint[], %(fences)s::bigint[],"
    " %(plies)s::int[], %(moves)s::text[], %(clocks)s::text[], %(turns)s::float8[])"
    " AS w(table_id, fence, ply, notation, clocks, turn_wall)),"
    " ok AS (SELECT w.* FROM w JOIN leases l ON l.table_id = w.table_id AND l.fence = w.fence"
    f" AND l.{_LIVE} FOR SHARE OF l),"
    " added AS (INSERT INTO moves (table_id, ply, notation) SELECT table_id, ply, notation FROM ok),"
    " changed AS (UPDATE tables SET clocks = ok.clocks::jsonb, turn_wall = ok.turn_wall,"
    " ply = ok.ply FROM ok WHERE tables.id = ok.table_id)"
    " SELECT table_id FROM ok")
_RATED = ("INSERT INTO ratings (account, time_class, rating, rd, sigma, games)"
          " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (account, time_class) DO UPDATE SET"
          " rating=EXCLUDED.rating, rd=EXCLUDED.rd, sigma=EXCLUDED.sigma, games=EXCLUDED.games")
_RATING_CHANGE = "INSERT INTO rating_changes VALUES (%s, %s, %s, %s, %s, %s, %s)"
_CREATE = ("INSERT INTO tables (private, invite, start_position, time_base, time_increment,"
           " created, seats, status, clocks, winner, reason, record_text, deserted_since, rated,"
           " owner, turn_wall, ended, ply, time_class, white_account, black_account) VALUES"
           " (%(private)s, %(invite)s, %(start)s, %(base)s, %(increment)s, %(created)s,"
           " %(seats)s, %(status)s, %(clocks)s, %(winner)s, %(reason)s, %(record_text)s,"
           " %(deserted_since)s, %(rated)s, %(owner)s, %(turn_wall)s, %(ended)s, %(ply)s,"
           " %(time_class)s, %(white_account)s, %(black_account)s) RETURNING id")
_OPEN_TABLES = "status <> 'finished'"        # tables_open, a partial index, holds just these


class PostgresStorage(PostgresAccounts, LeasedStorage):
    """The shared store on one connection, each call one round trip where it can be
    and one transaction always, on the database's clock (leases expire by it,
    whatever the nodes' clocks say). Not for several threads at once."""

    def __init__(self, dsn: str, *, timeout: float = 5.0) -> None:
        self._dsn, self._timeout = dsn, timeout
        self._db: psycopg.Connection | None = None
        try:
            applied = [v for (v,) in self._query("SELECT version FROM schema_migrations ORDER BY 1")]
        except psycopg.errors.UndefinedTable:
            applied = []
        if not applied or applied[-1] != LATEST:
            have = f"version {applied[-1]}" if applied else "no schema"
            raise SchemaMismatch(f"the database has {have}, this server needs version {LATEST}:"
                                 " run `python -m game serve --store … --migrate`")

    def _attempt(self, work):
        """``work(connection)`` — one statement in autocommit, or a whole transaction
        (:meth:`_transaction`) — and its result. A lost connection is
        :class:`StorageUnavailable` (what ran rolled back, or never reached the
        server) and the next call connects again; a uniqueness rule broken is
        :class:`Conflict`, nothing written."""
        for attempt in range(2):
            if self._db is not None and _closed_by_server(self._db):
                self._db.close()
            if self._db is None or self._db.closed or self._db.broken:
                self._db = _connect(self._dsn, self._timeout)
            try:
                return work(self._db)
            except (psycopg.errors.AdminShutdown, psycopg.errors.TransactionRollback) as error:
                # Nothing took effect: the server stopped or restarted since this
                # connection's last statement and ended its session, or rolled the
                # transaction back (a deadlock). Once more (on a new connection
                # after a restart: refused if the server is still down).
                if isinstance(error, psycopg.errors.AdminShutdown):
                    self._db.close()
                if attempt:
                    raise StorageUnavailable(f"the database went away: {_one_line(error)}") from None
            except psycopg.IntegrityError as error:
                raise Conflict(_one_line(error)) from None
            except psycopg.OperationalError as error:
                self._db.close()
                raise StorageUnavailable(f"the database went away: {_one_line(error)}") from None

    def _query(self, sql: str, params=(), *, one: bool = False):
        """One statement, its own transaction (autocommit): its rows (``one``: the
        first, or None)."""
        def run(db):
            cursor = db.execute(sql, params)
            rows = cursor.fetchall() if cursor.description else []
            return (rows[0] if rows else None) if one else rows
        return self._attempt(run)

    def _transaction(self, work):
        """``work(connection)``'s statements in one transaction: all or nothing."""
        def run(db):
            with db.transaction():
                return work(db)
        return self._attempt(run)

    # --- writing ---------------------------------------------------------------
    @staticmethod
    def _state(r: TableRecord, fence: int | None) -> dict:
        seats = {c: {"name": s.name, "token_hash": s.token_hash, "account": s.account}
                 for c, s in r.seats.items()}
        accounts = {f"{c}_account": r.seats[c].account if c in r.seats else None
                    for c in ("white", "black")}
        return {"table": r.id, "fence": fence, "seats": Jsonb(seats), "status": r.status,
                "clocks": Jsonb(r.clocks), "winner": r.winner, "reason": r.reason,
                "record_text": r.record_text, "deserted_since": r.deserted_since,
                "rated": r.rated, "owner": r.owner, "turn_wall": r.turn_wall, "ended": r.ended,
                "ply": len(r.moves), "time_class": r.time_class, **accounts}

    def _new_table(self, record: TableRecord) -> dict:
        return {**self._state(record, None), "private": record.private, "invite": record.invite,
                "start": record.start_position, "base": record.time_base,
                "increment": record.time_increment, "created": record.created}

    def create_table(self, record: TableRecord) -> int:
        (record.id,) = self._query(_CREATE, self._new_table(record), one=True)
        return record.id

    def create_leased_table(self, record: TableRecord, node: str, ttl: float) -> int:
        """The table and its lease in one statement: no node sees it unleased."""
        (record.id, fence) = self._query(
            f"WITH made AS ({_CREATE}) INSERT INTO leases (table_id, node, fence, expires_at)"
            " SELECT id, %(node)s, 1, clock_timestamp() + make_interval(secs => %(ttl)s)"
            " FROM made RETURNING table_id, fence",
            {**self._new_table(record), "node": node, "ttl": ttl}, one=True)
        return fence

    def _write(self, sql: str, values: dict, ratings=(), action=None) -> None:
        """A fenced table write, with the rating changes and the moderator's action
        it carries: one statement when it is alone, else one transaction."""
        def write(db):
            try:
                (allowed,) = db.execute(sql, values).fetchone()
            except psycopg.errors.UniqueViolation as error:
                if error.diag.constraint_name == "moves_pkey":
                    raise MoveConflict(values["table"], values["ply"]) from None
                raise
            if not allowed:
                raise LeaseLost(values["table"], values["fence"])
            for change in ratings:
                crash_point("between_result_and_rating")
                after = change.after
                db.execute(_RATED, (change.account, change.time_class, after.rating, after.rd,
                                    after.sigma, after.games))
                db.execute(_RATING_CHANGE, (values["table"], change.account, change.time_class,
                                            change.before.rating, change.before.rd,
                                            after.rating, after.rd))
            if action is not None:
                self._log(db, action)
        if ratings or action is not None:
            self._transaction(write)
        else:
            self._attempt(write)

    def save_table(self, record, ratings=(), action=None, *, fence=None) -> None:
        self._write(_SAVE, self._state(record, fence), ratings, action)

    def add_move(self, record, ratings=(), *, fence=None) -> None:
        self._write(_ADD, {**self._state(record, fence), "move": record.moves[-1]}, ratings)

    def take_back(self, record, *, fence=None) -> None:
        self._write(_TAKE_BACK, self._state(record, fence))

    # --- leases ----------------------------------------------------------------
    def acquire_leases(self, tables: list[int], node: str, ttl: float) -> dict[int, int]:
        return dict(self._query(
            "INSERT INTO leases AS l (table_id, node, fence, expires_at)"
            " SELECT t, %(node)s, 1, clock_timestamp() + make_interval(secs => %(ttl)s)"
            " FROM unnest(%(tables)s::bigint[]) AS t ORDER BY t"
            " ON CONFLICT (table_id) DO UPDATE SET node = EXCLUDED.node,"
            " fence = l.fence + 1, expires_at = EXCLUDED.expires_at"
            " WHERE l.expires_at <= clock_timestamp() OR l.node = EXCLUDED.node"
            " RETURNING table_id, fence",
            {"tables": sorted(set(tables)), "node": node, "ttl": ttl}))

    def renew_lease(self, table: int, node: str, fence: int, ttl: float) -> bool:
        row = self._query(
            "UPDATE leases SET expires_at = clock_timestamp() + make_interval(secs => %s)"
            f" WHERE table_id=%s AND node=%s AND fence=%s AND {_LIVE} RETURNING 1",
            (ttl, table, node, fence), one=True)
        return row is not None

    def renew_leases(self, node: str, ttl: float) -> dict[int, int]:
        # The rows locked in table order, as acquire_leases does: no deadlock between
        # a node renewing and another taking over a lease of its that just lapsed.
        return dict(self._query(
            "UPDATE leases SET expires_at = clock_timestamp() + make_interval(secs => %s)"
            " WHERE table_id IN (SELECT table_id FROM leases"
            f" WHERE node=%s AND {_LIVE} ORDER BY table_id FOR UPDATE)"
            f" AND node=%s AND {_LIVE} RETURNING table_id, fence", (ttl, node, node)))

    def release_lease(self, table: int, node: str, fence: int) -> None:
        self._query("UPDATE leases SET expires_at = clock_timestamp()"
                    " WHERE table_id=%s AND node=%s AND fence=%s", (table, node, fence))

    def release_leases(self, node: str, held: dict[int, int]) -> None:
        """One statement (a stopping node with hundreds of tables, on a busy database)."""
        tables = sorted(held)
        self._query("UPDATE leases SET expires_at = clock_timestamp() FROM unnest("
                    "%(tables)s::bigint[], %(fences)s::bigint[]) AS mine(t, f)"
                    " WHERE table_id = mine.t AND fence = mine.f AND node = %(node)s",
                    {"tables": tables, "fences": [held[t] for t in tables], "node": node})

    def lease_of(self, table: int) -> Lease | None:
        row = self._query("SELECT table_id, node, fence, extract(epoch FROM expires_at)::float8"
                          f" FROM leases WHERE table_id=%s AND {_LIVE}", (table,), one=True)
        return None if row is None else Lease(*row)

    def unleased_tables(self) -> list[int]:
        rows = self._query(
            f"SELECT id FROM tables LEFT JOIN leases ON leases.table_id = tables.id AND {_LIVE}"
            " WHERE status <> 'finished' AND leases.table_id IS NULL ORDER BY id")
        return [number for (number,) in rows]

    # --- reading ---------------------------------------------------------------
    def _records(self, where: str, params: tuple) -> list[TableRecord]:
        rows = self._query(
            f"SELECT {_COLUMNS}, ARRAY(SELECT notation FROM moves WHERE table_id = tables.id"
            f" ORDER BY ply) FROM tables WHERE {where} ORDER BY id", params)
        return [TableRecord(
            id=number, private=private, invite=invite, start_position=start, time_base=base,
            time_increment=increment, seats={c: SeatRecord(**s) for c, s in seats.items()},
            status=status, moves=moves, clocks=clocks, winner=winner, reason=reason,
            record_text=record_text, created=created, deserted_since=deserted_since,
            rated=rated, owner=owner, turn_wall=turn_wall, ended=ended)
            for (number, private, invite, start, base, increment, seats, status, clocks, winner,
                 reason, record_text, created, deserted_since, rated, owner, turn_wall, ended,
                 moves) in rows]

    def open_tables(self) -> list[TableRecord]:
        return self._records(_OPEN_TABLES, ())

    def load_table(self, number: int) -> TableRecord | None:
        found = self._records("id = %s", (number,))
        return found[0] if found else None

    def load_tables(self, numbers: list[int]) -> dict[int, TableRecord | None]:
        found = {r.id: r for r in self._records("id = ANY(%s)", (sorted(set(numbers)),))}
        return {number: found.get(number) for number in numbers}

    def save_tables(self, writes: list[tuple[TableRecord, int]]) -> set[int]:
        """One pipeline: the fenced writes sent at once, their answers read together
        (one round trip, not one each)."""
        def run(db):
            with db.pipeline():
                cursors = [db.execute(_SAVE, self._state(record, fence))
                           for record, fence in writes]
            return {record.id for (record, _), cursor in zip(writes, cursors)
                    if not cursor.fetchone()[0]}
        return self._attempt(run) if writes else set()

    def add_moves(self, writes: list[tuple[TableRecord, int]]) -> dict[int, StorageError]:
        """One statement for them all (:data:`_ADD_MANY`): one round trip and one commit
        for the moves a node received together, each fenced on its own (a refused
        fence writes nothing for its table and does not stop the others). Each of
        these moves is its table's only change since its last write (a move that
        ends a game is stored alone), so the row's clocks, turn and ply are what
        changed. A move already stored (a commit whose answer was lost) fails the
        statement: then one by one, to tell which."""
        if len(writes) < 2:                  # one statement alone: the usual one
            return super().add_moves(writes)
        rows = {"tables": [], "fences": [], "plies": [], "moves": [], "clocks": [], "turns": []}
        for record, fence in writes:
            for column, value in zip(rows, (record.id, fence, len(record.moves),
                                            record.moves[-1], json.dumps(record.clocks),
                                            record.turn_wall)):
                rows[column].append(value)
        try:
            stored = {number for (number,) in self._query(_ADD_MANY, rows)}
        except Conflict:
            return super().add_moves(writes)
        return {record.id: LeaseLost(record.id, fence) for record, fence in writes
                if record.id not in stored}

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
