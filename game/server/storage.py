"""Where the server keeps tables, seats, moves and finished games.

:class:`Storage` is the one small interface the server writes through;
:class:`SQLiteStorage` is the embedded default. Every call that changes state
is one committed transaction when it returns, and the server acknowledges
nothing before that — so a ``kill -9`` loses at most a move that nobody was
told about. (SQLite in WAL mode with ``synchronous=NORMAL`` keeps every commit
through a process crash; only a power cut could cost the last few.)

The shared database for several server nodes is the second implementation,
:class:`game.server.pg_storage.PostgresStorage` (PostgreSQL): the same methods,
each one transaction, held to one contract suite with this one
(tests/net/test_storage_contract.py, test_storage_people.py). Nothing
SQLite-specific leaves this module.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from typing import Callable

from .accounts import name_key
from .ratings import TIME_CLASSES, Rating
from .records import AccountRecord, ModAction, RatingChange, SeatRecord, TableRecord

PAGE = 50                        # rows per page of the archive, a history, the leaderboard


class StorageError(Exception):
    """The store could not do a call (disk full, database gone): the server stops."""


class Conflict(StorageError):
    """A write broke a uniqueness rule (a ply stored twice, a name taken): nothing changed."""


class MoveConflict(Conflict):
    """That ply of that table is already stored (by another writer or a retry)."""

    def __init__(self, table: int, ply: int) -> None:
        super().__init__(f"table T{table}: move {ply} is already stored")
        self.table, self.ply = table, ply


class NameTaken(Exception):
    """An account with that name (or one that looks the same) exists."""


class TableStore(ABC):
    """Tables and their moves. Each method is one transaction.

    ``fence`` (keyword): with several nodes sharing a store, the writer's fencing
    number (game/server/leases.py); the write is refused, changing nothing, unless
    it is still the table's live lease. None: one node, no leases."""

    @abstractmethod
    def create_table(self, record: TableRecord) -> int:
        """Store a new table; returns its number (also set on ``record.id``)."""

    @abstractmethod
    def save_table(self, record: TableRecord, ratings: tuple[RatingChange, ...] = (),
                   action: ModAction | None = None, *, fence: int | None = None) -> None:
        """Store the table's seats, status, clocks, result and since when it is
        deserted (not its moves) — with the rating changes its result made and the
        moderator's action that made it, all in the one transaction."""

    @abstractmethod
    def add_move(self, record: TableRecord, ratings: tuple[RatingChange, ...] = (), *,
                 fence: int | None = None) -> None:
        """Store ``record.moves[-1]`` as the next move, with the table's new state
        (and the rating changes, when the move ended a rated game), in one transaction.
        That ply stored already: :class:`MoveConflict`, nothing changed."""

    @abstractmethod
    def take_back(self, record: TableRecord, *, fence: int | None = None) -> None:
        """Forget the stored moves after ``len(record.moves)`` and store the state."""

    @abstractmethod
    def open_tables(self) -> list[TableRecord]:
        """The tables not finished (to resume after a restart), moves included.
        Reads the open tables only, however many finished ones are stored."""

    @abstractmethod
    def load_table(self, number: int) -> TableRecord | None:
        """Any table by number, finished ones too (for game records)."""

    def close(self) -> None:
        """Let go of the database."""


class Storage(TableStore):
    """The server's only way to persist anything: the tables, and the accounts,
    ratings and moderation that go with them. Each method is one transaction.
    Every method a server calls is declared here, abstract: a store that lacks
    one cannot be made (TypeError when it is opened, not an AttributeError
    mid-game). SQLiteStorage (one node) and pg_storage.PostgresStorage (several)
    pass one contract suite (tests/net/test_storage_contract.py)."""

    # --- accounts ----------------------------------------------------------------
    @abstractmethod
    def create_account(self, name: str, key: str, password_hash: str,
                       session_hash: str, now: float) -> AccountRecord:
        """A new account with its first session; NameTaken if ``key`` is in use."""

    @abstractmethod
    def find_account(self, key: str) -> AccountRecord | None:
        """The account whose name has this key."""

    def find_accounts(self, keys: list[str]) -> dict[str, AccountRecord | None]:
        """:meth:`find_account` of many keys (guests arriving together), in one read
        where the store can."""
        return {key: self.find_account(key) for key in keys}

    @abstractmethod
    def account_by_id(self, number: int) -> AccountRecord | None: ...

    @abstractmethod
    def set_password(self, account: int, password_hash: str, session_hash: str) -> None:
        """A new password: every session ends but the one given (kept or added)."""

    @abstractmethod
    def add_session(self, account: int, session_hash: str, now: float) -> None: ...

    @abstractmethod
    def session_account(self, session_hash: str) -> AccountRecord | None: ...

    @abstractmethod
    def drop_session(self, session_hash: str) -> None: ...

    @abstractmethod
    def set_moderator(self, key: str, moderator: bool) -> AccountRecord | None: ...

    @abstractmethod
    def moderate(self, action: ModAction, account: int | None = None,
                 banned: bool | None = None, muted_until: float | None = None) -> None:
        """Change an account's ban or mute (if given) and log ``action``, at once.
        A ban ends the account's sessions."""

    @abstractmethod
    def moderation_log(self, count: int = PAGE) -> list[ModAction]:
        """The latest moderators' actions, newest first."""

    @abstractmethod
    def set_ignore(self, account: int, key: str, ignore: bool) -> None: ...

    @abstractmethod
    def ignored(self, account: int) -> set[str]:
        """The name keys an account ignores."""

    # --- ratings -----------------------------------------------------------------
    @abstractmethod
    def rating(self, account: int, time_class: str) -> Rating:
        """The account's rating in a time class (the default one before a rated game)."""

    # --- the server's sign of life ------------------------------------------------------
    @abstractmethod
    def mark_alive(self, wall: float) -> None: ...

    @abstractmethod
    def last_alive(self) -> float | None: ...

    # --- what the pages read: each store's queries, shaped here once -----------------------
    @abstractmethod
    def _finished_games(self, account: int | None, offset: int) -> list[tuple]:
        """Up to PAGE + 1 finished public games (of ``account``, or everybody's),
        newest first: (id, seats {colour: {"name": …}}, winner, deserted_since,
        rated, time_class, ended, ply, reason)."""

    @abstractmethod
    def _ratings_of(self, account: int) -> list[tuple]:
        """(time_class, rating, rd, games) for each class the account is rated in."""

    @abstractmethod
    def _rated_classes(self) -> set[str]:
        """The time classes somebody has a rating in."""

    @abstractmethod
    def _board_rows(self, time_class: str, offset: int) -> list[tuple]:
        """Up to PAGE + 1 (name, rating, rd, games), best first, banned accounts left out."""

    def _games_page(self, account: int | None, offset: int) -> dict:
        rows = self._finished_games(account, offset)
        games = [{"id": number, "white": seats.get("white", {}).get("name", "?"),
                  "black": seats.get("black", {}).get("name", "?"),
                  "result": None if deserted is not None and winner is None
                  else _RESULTS[winner],
                  "reason": reason or None, "rated": bool(rated),
                  "time_class": kind or "untimed", "ended": _iso(ended), "moves": ply}
                 for number, seats, winner, deserted, rated, kind, ended, ply, reason
                 in rows[:PAGE]]
        return {"games": games, "next": offset + PAGE if len(rows) > PAGE else None}

    def _named(self, name: str) -> AccountRecord | None:
        try:
            return self.find_account(name_key(name))
        except ValueError:              # not a name anybody can have
            return None

    def player_profile(self, name: str, offset: int = 0) -> dict | None:
        account = self._named(name)
        if account is None:
            return None
        ratings = {kind: {"rating": r, "rd": rd, "games": games,
                          "provisional": Rating(r, rd).provisional}
                   for kind, r, rd, games in self._ratings_of(account.id)}
        return {"name": account.name, "guest": False, "created": _iso(account.created),
                "ratings": ratings, **self._games_page(account.id, offset)}

    def leaderboard(self, time_class: str | None = None, offset: int = 0) -> dict:
        rated = self._rated_classes()
        kind = time_class or next((k for k in TIME_CLASSES if k in rated), TIME_CLASSES[0])
        rows = self._board_rows(kind, offset)
        return {"time_class": kind, "time_classes": list(TIME_CLASSES),
                "rows": [{"rank": offset + n + 1, "name": name, "rating": rating, "rd": rd,
                          "games": games} for n, (name, rating, rd, games) in enumerate(rows[:PAGE])],
                "next": offset + PAGE if len(rows) > PAGE else None}

    def archive(self, player: str | None = None, offset: int = 0) -> dict:
        if player is None:
            return self._games_page(None, offset)
        account = self._named(player)
        if account is None:
            return {"games": [], "next": None}
        return self._games_page(account.id, offset)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    private INTEGER NOT NULL,
    invite TEXT,
    start_position TEXT NOT NULL,
    time_base INTEGER,
    time_increment INTEGER NOT NULL,
    seats TEXT NOT NULL,
    status TEXT NOT NULL,
    clocks TEXT NOT NULL,
    winner TEXT,
    reason TEXT NOT NULL,
    record_text TEXT NOT NULL,
    created REAL NOT NULL,
    deserted_since REAL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    PRIMARY KEY (table_id, ply)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created REAL NOT NULL,
    moderator INTEGER NOT NULL DEFAULT 0,
    banned INTEGER NOT NULL DEFAULT 0,
    muted_until REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    account INTEGER NOT NULL REFERENCES accounts(id),
    time_class TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account, time_class)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(time_class, rating);
CREATE TABLE IF NOT EXISTS rating_changes (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    account INTEGER NOT NULL REFERENCES accounts(id),
    time_class TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rd_before REAL NOT NULL,
    rating_after REAL NOT NULL,
    rd_after REAL NOT NULL,
    PRIMARY KEY (table_id, account)
);
CREATE TABLE IF NOT EXISTS ignores (
    account INTEGER NOT NULL REFERENCES accounts(id),
    name_key TEXT NOT NULL,
    PRIMARY KEY (account, name_key)
);
CREATE TABLE IF NOT EXISTS moderation (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    moderator TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS alive (
    id INTEGER PRIMARY KEY,
    wall REAL NOT NULL
);
"""
# Columns added after the first release: added to an older database when it opens.
_ADDED_COLUMNS = (("deserted_since", "REAL"), ("rated", "INTEGER NOT NULL DEFAULT 0"),
                  ("owner", "TEXT"), ("turn_wall", "REAL"), ("ended", "REAL"),
                  ("ply", "INTEGER NOT NULL DEFAULT 0"), ("time_class", "TEXT"),
                  ("white_account", "INTEGER"), ("black_account", "INTEGER"))
_INDEXES = """
CREATE INDEX IF NOT EXISTS tables_ended ON tables(status, ended);
CREATE INDEX IF NOT EXISTS tables_white ON tables(white_account, ended);
CREATE INDEX IF NOT EXISTS tables_black ON tables(black_account, ended);
"""

_COLUMNS = ("id, private, invite, start_position, time_base, time_increment, seats, status, "
            "clocks, winner, reason, record_text, created, deserted_since, rated, owner, "
            "turn_wall, ended")
_ACCOUNT = "id, name, name_key, password_hash, created, moderator, banned, muted_until"
_GAME_ROW = "id, seats, winner, deserted_since, rated, time_class, ended, ply, reason"
_RESULTS = {"white": "1-0", "black": "0-1", None: "1/2-1/2"}
_OPEN = "'waiting', 'playing'"        # every status but finished (an index search, not a scan)
_FAULT = os.environ.get("ROUNDTABLE_FAULT", "")   # tests: die at a named point (below)


# The crash tests' in-process hooks: point → what to do there (kill the database).
FAULT_HOOKS: dict[str, Callable[[], None]] = {}


def crash_point(point: str) -> None:
    """A named point inside a transaction where the crash tests strike: with
    ROUNDTABLE_FAULT=point the process is killed here (SIGKILL, as a power cut or
    an OOM kill would); a hook in FAULT_HOOKS runs here (a test kills the database)."""
    if _FAULT == point:
        os.kill(os.getpid(), signal.SIGKILL)
    hook = FAULT_HOOKS.get(point)
    if hook is not None:
        hook()


def _iso(wall: float | None) -> str | None:
    return None if wall is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(wall))


class SQLiteStorage(Storage):
    """SQLite in WAL mode. A commit appends to the write-ahead log without waiting
    for the disk; copying the log into the database (a checkpoint, which does wait
    for the disk, tens of ms on a busy one) runs on a thread of its own every
    ``checkpoint_every`` seconds, so no game waits for it."""

    def __init__(self, path: str = ":memory:", checkpoint_every: float = 1.0) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)   # explicit transactions
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        for name, kind in _ADDED_COLUMNS:
            if name not in columns:        # a database from an earlier version
                self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
        self._db.executescript(_INDEXES)
        self._stop = threading.Event()
        self._checkpointer = None
        if path != ":memory:" and not path.startswith("file::memory:"):
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(path, checkpoint_every),
                name="roundtable-checkpoint", daemon=True)
            self._checkpointer.start()

    def _checkpoint_loop(self, path: str, every: float) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            while not self._stop.wait(every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    pass            # busy or failing: the log just grows until the next try
        finally:
            db.close()

    @contextmanager
    def _transaction(self):
        """One transaction; SQLite's errors leave as the interface's own."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    # --- tables ---------------------------------------------------------------------
    def _state(self, r: TableRecord) -> tuple[tuple, tuple]:
        """The record's columns: (those no index covers, the indexed ones)."""
        seats = {c: {"name": s.name, "token_hash": s.token_hash, "account": s.account}
                 for c, s in r.seats.items()}
        accounts = [r.seats[c].account if c in r.seats else None for c in ("white", "black")]
        return ((json.dumps(seats), json.dumps(r.clocks), r.winner, r.reason, r.record_text,
                 r.deserted_since, int(r.rated), r.owner, r.turn_wall, len(r.moves), r.time_class),
                (r.status, r.ended, *accounts))

    _STATE = ("seats=?, clocks=?, winner=?, reason=?, record_text=?, deserted_since=?, rated=?,"
              " owner=?, turn_wall=?, ply=?, time_class=?")
    # Setting an indexed column rewrites its indexes' entries even to the same value:
    # four index pages more in the log at every move (29 KB a commit instead of 13 KB,
    # and a third more CPU). So those are set only where they differ.
    _INDEXED_STATE = ("UPDATE tables SET status=?, ended=?, white_account=?, black_account=?"
                      " WHERE id=? AND NOT (status IS ? AND ended IS ? AND white_account IS ?"
                      " AND black_account IS ?)")

    def create_table(self, record: TableRecord) -> int:
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO tables (private, invite, start_position, time_base, time_increment,"
                " created, reason, seats, status, clocks, winner, record_text) VALUES"
                " (?, ?, ?, ?, ?, ?, '', '{}', '', '{}', NULL, '')",
                (int(record.private), record.invite, record.start_position, record.time_base,
                 record.time_increment, record.created))
            record.id = cur.lastrowid
            self._update(record)
        return record.id

    def _update(self, record: TableRecord) -> None:
        plain, indexed = self._state(record)
        self._db.execute(f"UPDATE tables SET {self._STATE} WHERE id=?", (*plain, record.id))
        self._db.execute(self._INDEXED_STATE, (*indexed, record.id, *indexed))

    def _write_ratings(self, table: int, ratings) -> None:
        for change in ratings:
            crash_point("between_result_and_rating")
            after = change.after
            self._db.execute(
                "INSERT INTO ratings (account, time_class, rating, rd, sigma, games)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account, time_class) DO UPDATE SET"
                " rating=excluded.rating, rd=excluded.rd, sigma=excluded.sigma,"
                " games=excluded.games",
                (change.account, change.time_class, after.rating, after.rd, after.sigma,
                 after.games))
            self._db.execute(
                "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table, change.account, change.time_class, change.before.rating,
                 change.before.rd, after.rating, after.rd))

    def _log(self, action: ModAction) -> None:
        self._db.execute("INSERT INTO moderation (at, moderator, action, target, detail)"
                         " VALUES (?, ?, ?, ?, ?)",
                         (action.at, action.moderator, action.action, action.target,
                          action.detail))

    def _check_fence(self, table: int, fence: int | None) -> None:
        """Leases are SQLiteLeasedStorage's (game/server/leases.py): here a fence is a mistake."""
        if fence is not None:
            raise StorageError("this store keeps no leases: open it with open_store")

    def save_table(self, record, ratings=(), action=None, *, fence=None) -> None:
        with self._transaction():
            self._check_fence(record.id, fence)
            self._update(record)
            self._write_ratings(record.id, ratings)
            if action is not None:
                self._log(action)

    def add_move(self, record, ratings=(), *, fence=None) -> None:
        with self._transaction():
            self._check_fence(record.id, fence)
            try:
                self._db.execute("INSERT INTO moves (table_id, ply, notation) VALUES (?, ?, ?)",
                                 (record.id, len(record.moves), record.moves[-1]))
            except sqlite3.IntegrityError:
                raise MoveConflict(record.id, len(record.moves)) from None
            self._update(record)
            self._write_ratings(record.id, ratings)

    def take_back(self, record, *, fence=None) -> None:
        with self._transaction():
            self._check_fence(record.id, fence)
            self._db.execute("DELETE FROM moves WHERE table_id=? AND ply>?",
                             (record.id, len(record.moves)))
            self._update(record)

    def _record(self, row) -> TableRecord:
        (number, private, invite, start, base, increment, seats, status, clocks, winner,
         reason, record_text, created, deserted_since, rated, owner, turn_wall, ended) = row
        moves = [n for (n,) in self._db.execute(
            "SELECT notation FROM moves WHERE table_id=? ORDER BY ply", (number,))]
        return TableRecord(
            id=number, private=bool(private), invite=invite, start_position=start,
            time_base=base, time_increment=increment,
            seats={c: SeatRecord(**s) for c, s in json.loads(seats).items()},
            status=status, moves=moves, clocks=json.loads(clocks), winner=winner,
            reason=reason, record_text=record_text, created=created,
            deserted_since=deserted_since, rated=bool(rated), owner=owner,
            turn_wall=turn_wall, ended=ended)

    def open_tables(self) -> list[TableRecord]:
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM tables WHERE status IN ({_OPEN}) ORDER BY id").fetchall()
        return [self._record(row) for row in rows]

    def load_table(self, number: int) -> TableRecord | None:
        row = self._db.execute(f"SELECT {_COLUMNS} FROM tables WHERE id=?", (number,)).fetchone()
        return None if row is None else self._record(row)

    # --- accounts -------------------------------------------------------------------
    def _account(self, where: str, value) -> AccountRecord | None:
        row = self._db.execute(f"SELECT {_ACCOUNT} FROM accounts WHERE {where}=?",
                               (value,)).fetchone()
        if row is None:
            return None
        number, name, key, password_hash, created, moderator, banned, muted = row
        return AccountRecord(number, name, key, password_hash, created, bool(moderator),
                             bool(banned), muted)

    def create_account(self, name, key, password_hash, session_hash, now) -> AccountRecord:
        try:
            with self._transaction():
                cur = self._db.execute(
                    "INSERT INTO accounts (name, name_key, password_hash, created)"
                    " VALUES (?, ?, ?, ?)", (name, key, password_hash, now))
                self._db.execute("INSERT INTO sessions VALUES (?, ?, ?)",
                                 (session_hash, cur.lastrowid, now))
        except Conflict:
            raise NameTaken(name) from None
        return AccountRecord(cur.lastrowid, name, key, password_hash, now)

    def find_account(self, key):
        return self._account("name_key", key)

    def account_by_id(self, number):
        return self._account("id", number)

    def set_password(self, account, password_hash, session_hash) -> None:
        with self._transaction():
            self._db.execute("UPDATE accounts SET password_hash=? WHERE id=?",
                             (password_hash, account))
            self._db.execute("DELETE FROM sessions WHERE account=? AND token_hash!=?",
                             (account, session_hash))
            self._db.execute("INSERT INTO sessions VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                             (session_hash, account, time.time()))

    def add_session(self, account, session_hash, now) -> None:
        with self._transaction():
            self._db.execute("INSERT INTO sessions VALUES (?, ?, ?)", (session_hash, account, now))

    def session_account(self, session_hash):
        row = self._db.execute("SELECT account FROM sessions WHERE token_hash=?",
                               (session_hash,)).fetchone()
        return None if row is None else self.account_by_id(row[0])

    def drop_session(self, session_hash) -> None:
        with self._transaction():
            self._db.execute("DELETE FROM sessions WHERE token_hash=?", (session_hash,))

    def set_moderator(self, key, moderator):
        with self._transaction():
            self._db.execute("UPDATE accounts SET moderator=? WHERE name_key=?",
                             (int(moderator), key))
        return self.find_account(key)

    def moderate(self, action, account=None, banned=None, muted_until=None) -> None:
        with self._transaction():
            if account is not None and banned is not None:
                self._db.execute("UPDATE accounts SET banned=? WHERE id=?", (int(banned), account))
                if banned:
                    self._db.execute("DELETE FROM sessions WHERE account=?", (account,))
            if account is not None and muted_until is not None:
                self._db.execute("UPDATE accounts SET muted_until=? WHERE id=?",
                                 (muted_until, account))
            self._log(action)

    def moderation_log(self, count=PAGE):
        rows = self._db.execute("SELECT moderator, action, target, detail, at FROM moderation"
                                " ORDER BY id DESC LIMIT ?", (count,))
        return [ModAction(*row) for row in rows]

    def set_ignore(self, account, key, ignore) -> None:
        with self._transaction():
            if ignore:
                self._db.execute("INSERT INTO ignores VALUES (?, ?) ON CONFLICT DO NOTHING",
                                 (account, key))
            else:
                self._db.execute("DELETE FROM ignores WHERE account=? AND name_key=?",
                                 (account, key))

    def ignored(self, account):
        return {k for (k,) in self._db.execute("SELECT name_key FROM ignores WHERE account=?",
                                                (account,))}

    # --- ratings ----------------------------------------------------------------------
    def rating(self, account, time_class):
        row = self._db.execute("SELECT rating, rd, sigma, games FROM ratings"
                               " WHERE account=? AND time_class=?",
                               (account, time_class)).fetchone()
        return Rating() if row is None else Rating(*row)

    # --- sign of life ---------------------------------------------------------------------
    def mark_alive(self, wall) -> None:
        with self._transaction():
            self._db.execute("INSERT INTO alive (id, wall) VALUES (1, ?) ON CONFLICT (id)"
                             " DO UPDATE SET wall=excluded.wall", (wall,))

    def last_alive(self):
        row = self._db.execute("SELECT wall FROM alive WHERE id=1").fetchone()
        return None if row is None else row[0]

    # --- pages ------------------------------------------------------------------------------
    def _finished_games(self, account, offset):
        where, params = ("", ()) if account is None else (
            " AND (white_account=? OR black_account=?)", (account, account))
        rows = self._db.execute(
            f"SELECT {_GAME_ROW} FROM tables WHERE status='finished' AND private=0{where}"
            f" ORDER BY ended DESC, id DESC LIMIT ? OFFSET ?", (*params, PAGE + 1, offset))
        return [(number, json.loads(seats), *rest) for number, seats, *rest in rows]

    def _ratings_of(self, account):
        return self._db.execute("SELECT time_class, rating, rd, games FROM ratings"
                                " WHERE account=?", (account,)).fetchall()

    def _rated_classes(self):
        return {k for (k,) in self._db.execute("SELECT DISTINCT time_class FROM ratings")}

    def _board_rows(self, time_class, offset):
        return self._db.execute(
            "SELECT a.name, r.rating, r.rd, r.games FROM ratings r JOIN accounts a"
            " ON a.id = r.account WHERE r.time_class=? AND a.banned=0"
            " ORDER BY r.rating DESC, a.id LIMIT ? OFFSET ?",
            (time_class, PAGE + 1, offset)).fetchall()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(10)
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
        self._db.close()
