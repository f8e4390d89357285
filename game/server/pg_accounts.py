"""The shared store's people: accounts, sessions, ratings, moderators, ignore
lists, the server's sign of life and the pages' queries, on PostgreSQL.

A part of :class:`game.server.pg_storage.PostgresStorage` (kept apart for its
size): it runs its SQL through the store's ``_query`` (one statement, its own
transaction) and ``_transaction`` (several, all or nothing). The rules are
the SQLite store's, and one contract suite holds both to them
(tests/net/test_storage_contract.py).
"""
from __future__ import annotations

import time

from .ratings import Rating
from .records import AccountRecord, ModAction
from .storage import PAGE, Conflict, NameTaken

_ACCOUNT = "id, name, name_key, password_hash, created, moderator, banned, muted_until"
_GAMES = ("SELECT id, seats, winner, deserted_since, rated, time_class, ended, ply, reason"
          " FROM tables WHERE status = 'finished' AND NOT private")
_NEWEST = " ORDER BY ended DESC NULLS LAST, id DESC LIMIT %s OFFSET %s"   # SQLite's order


class PostgresAccounts:
    """Storage's methods about people, for PostgresStorage."""

    def _account(self, where: str, value) -> AccountRecord | None:
        row = self._query(f"SELECT {_ACCOUNT} FROM accounts WHERE {where} = %s", (value,),
                          one=True)
        return None if row is None else AccountRecord(*row)

    def create_account(self, name, key, password_hash, session_hash, now) -> AccountRecord:
        try:
            (number,) = self._query(
                "WITH account AS (INSERT INTO accounts (name, name_key, password_hash, created)"
                " VALUES (%(name)s, %(key)s, %(hash)s, %(now)s) RETURNING id),"
                " session AS (INSERT INTO sessions SELECT %(session)s, id, %(now)s FROM account)"
                " SELECT id FROM account",
                {"name": name, "key": key, "hash": password_hash, "session": session_hash,
                 "now": now}, one=True)
        except Conflict:
            raise NameTaken(name) from None
        return AccountRecord(number, name, key, password_hash, now)

    def find_account(self, key):
        return self._account("name_key", key)

    def find_accounts(self, keys):
        rows = self._query(f"SELECT {_ACCOUNT} FROM accounts WHERE name_key = ANY(%s)",
                           (list(keys),))
        found = {row[2]: AccountRecord(*row) for row in rows}
        return {key: found.get(key) for key in keys}

    def account_by_id(self, number):
        return self._account("id", number)

    def set_password(self, account, password_hash, session_hash) -> None:
        def change(db):
            db.execute("UPDATE accounts SET password_hash=%s WHERE id=%s", (password_hash, account))
            db.execute("DELETE FROM sessions WHERE account=%s AND token_hash<>%s",
                       (account, session_hash))
            db.execute("INSERT INTO sessions VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                       (session_hash, account, time.time()))
        self._transaction(change)

    def add_session(self, account, session_hash, now) -> None:
        self._query("INSERT INTO sessions VALUES (%s, %s, %s)", (session_hash, account, now))

    def session_account(self, session_hash):
        row = self._query(f"SELECT {', '.join('a.' + c for c in _ACCOUNT.split(', '))}"
                          " FROM sessions s JOIN accounts a ON a.id = s.account"
                          " WHERE s.token_hash=%s", (session_hash,), one=True)
        return None if row is None else AccountRecord(*row)

    def drop_session(self, session_hash) -> None:
        self._query("DELETE FROM sessions WHERE token_hash=%s", (session_hash,))

    def set_moderator(self, key, moderator):
        row = self._query(f"UPDATE accounts SET moderator=%s WHERE name_key=%s RETURNING {_ACCOUNT}",
                          (moderator, key), one=True)
        return None if row is None else AccountRecord(*row)

    @staticmethod
    def _log(db, action: ModAction) -> None:
        db.execute("INSERT INTO moderation (at, moderator, action, target, detail)"
                   " VALUES (%s, %s, %s, %s, %s)",
                   (action.at, action.moderator, action.action, action.target, action.detail))

    def moderate(self, action, account=None, banned=None, muted_until=None) -> None:
        def act(db):
            if account is not None and banned is not None:
                db.execute("UPDATE accounts SET banned=%s WHERE id=%s", (banned, account))
                if banned:
                    db.execute("DELETE FROM sessions WHERE account=%s", (account,))
            if account is not None and muted_until is not None:
                db.execute("UPDATE accounts SET muted_until=%s WHERE id=%s", (muted_until, account))
            self._log(db, action)
        self._transaction(act)

    def moderation_log(self, count=PAGE):
        return [ModAction(*row) for row in self._query(
            "SELECT moderator, action, target, detail, at FROM moderation ORDER BY id DESC"
            " LIMIT %s", (count,))]

    def set_ignore(self, account, key, ignore) -> None:
        if ignore:
            self._query("INSERT INTO ignores VALUES (%s, %s) ON CONFLICT DO NOTHING", (account, key))
        else:
            self._query("DELETE FROM ignores WHERE account=%s AND name_key=%s", (account, key))

    def ignored(self, account):
        return {k for (k,) in self._query("SELECT name_key FROM ignores WHERE account=%s",
                                          (account,))}

    def rating(self, account, time_class):
        row = self._query("SELECT rating, rd, sigma, games FROM ratings"
                          " WHERE account=%s AND time_class=%s", (account, time_class), one=True)
        return Rating() if row is None else Rating(*row)

    def mark_alive(self, wall) -> None:
        self._query("INSERT INTO alive (id, wall) VALUES (1, %s) ON CONFLICT (id)"
                    " DO UPDATE SET wall=EXCLUDED.wall", (wall,))

    def last_alive(self):
        row = self._query("SELECT wall FROM alive WHERE id=1", one=True)
        return None if row is None else row[0]

    # --- the pages' queries (Storage shapes their answers) ------------------------------
    def _finished_games(self, account, offset):
        if account is None:
            return self._query(_GAMES + _NEWEST, (PAGE + 1, offset))
        # One index each side (tables_white, tables_black), merged (a game once): no
        # scan of the archive.
        return self._query(
            f"SELECT * FROM (({_GAMES} AND white_account=%(a)s ORDER BY ended DESC NULLS LAST,"
            f" id DESC LIMIT %(n)s) UNION ({_GAMES} AND black_account=%(a)s"
            f" ORDER BY ended DESC NULLS LAST, id DESC LIMIT %(n)s)) AS mine"
            f" ORDER BY ended DESC NULLS LAST, id DESC LIMIT %(page)s OFFSET %(offset)s",
            {"a": account, "n": PAGE + 1 + offset, "page": PAGE + 1, "offset": offset})

    def _ratings_of(self, account):
        return self._query("SELECT time_class, rating, rd, games FROM ratings WHERE account=%s",
                           (account,))

    def _rated_classes(self):
        return {k for (k,) in self._query("SELECT DISTINCT time_class FROM ratings")}

    def _board_rows(self, time_class, offset):
        return self._query(
            "SELECT a.name, r.rating, r.rd, r.games FROM ratings r JOIN accounts a"
            " ON a.id = r.account WHERE r.time_class=%s AND NOT a.banned"
            " ORDER BY r.rating DESC, a.id LIMIT %s OFFSET %s", (time_class, PAGE + 1, offset))
