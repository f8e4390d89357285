"""The server's handlers for people: who they are (guests, accounts, sessions),
what they ask of each other (seeks, rematches, takebacks), what they look up
(histories, the archive, the leaderboard), whom they ignore, and moderators.

A mixin of :class:`~game.server.game_server.GameServer`: the same rules hold — every
handler runs without awaiting, stores before it speaks, and refuses with a
ProtocolError before changing anything. The one slow step, a password hash
(scrypt, tens of ms), runs on the server's worker threads (``_defer``); the
client's next frames wait for it, nobody else does.
"""
from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, replace

from ..camelot.board import START_POSITION
from .accounts import check_password, hash_password, name_key, new_session, session_hash
from .accounts import verify_password
from .limits import LocalAttempts
from ..net.protocol import COLORS, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ProtocolError
from .ratings import time_class
from .storage import ModAction, NameTaken, TableRecord
from .table import Table, other

MAX_SEEKS_SHOWN = 50
MAX_IGNORED = 500        # players one account ignores (each is read at sign-in)


@dataclass
class Seek:
    conn: object
    time: dict | None
    rated: bool
    low: int | None
    high: int | None
    rating: float | None          # the seeker's rating in the time class (None: a guest)

    def accepts(self, rating: float | None) -> bool:
        if self.low is None and self.high is None:
            return True
        if rating is None:
            return False
        return (self.low is None or rating >= self.low) and (self.high is None or rating <= self.high)

    def row(self) -> dict:
        return {"name": self.conn.name, "guest": self.conn.account is None, "time": self.time,
                "rated": self.rated, "rating": None if self.rating is None else round(self.rating, 1),
                "min_rating": self.low, "max_rating": self.high}


def _raised(result):
    if isinstance(result, BaseException):
        raise result
    return result


class Members:
    def __init__(self) -> None:
        limits = self.limits
        self.seeks: list[Seek] = []
        self.banned_addresses: set[str] = set()    # guests a moderator banned (until restart)
        self.account_failures = LocalAttempts(limits.failures_per_account, limits.sign_in_window)
        self.address_failures = LocalAttempts(limits.failures_per_address, limits.sign_in_window)
        self.registrations = LocalAttempts(limits.registrations_per_address,
                                           limits.registration_window)
        self._closing: set = set()

    # --- helpers -----------------------------------------------------------------
    def _defer(self, conn, m: dict, job, then) -> None:
        """Run the coroutine ``job`` (a password hash on a hashing thread, the limits'
        counts, a claim on the bus); ``then(result)`` — its exception, if it raised —
        runs as a handler afterwards, before this client's next frame is read."""
        conn.auth = ((asyncio.get_running_loop().create_task(job), then), m["type"], m.get("id"))

    async def _hashed(self, work, *args):
        """``work(*args)`` on a hashing thread (never on the event loop)."""
        return await asyncio.get_running_loop().run_in_executor(self.hasher, work, *args)

    def _kick(self, conn, reason: str) -> None:
        """Close another connection (after what is being written now)."""
        task = asyncio.get_running_loop().create_task(conn.ws.close(1008, reason))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def _check_voice(self, conn) -> None:
        if conn.muted_until > time.time():
            until = time.strftime("%H:%M UTC", time.gmtime(conn.muted_until))
            raise ProtocolError("muted", f"a moderator muted you until {until}")

    def _hearing(self, listeners, speaker) -> list:
        """The listeners who do not ignore ``speaker``."""
        return [c for c in listeners if speaker.key not in c.ignored]

    def _online(self, name: str):
        return self.names.get(name_key(name))

    # --- who you are ---------------------------------------------------------------
    def _welcome(self, conn, name: str, account=None, session: str | None = None) -> list:
        key = name_key(name)
        other_conn = self.names.get(key)
        if other_conn is not None and other_conn is not conn:
            if account is not None and other_conn.account is not None \
                    and other_conn.account.id == account.id:
                del self.names[key]                 # the same person, signing in again
                self._kick(other_conn, "signed in elsewhere")
            else:
                raise ProtocolError("name_taken", f"{name!r} is already online")
        conn.name, conn.key, conn.account, conn.in_lobby = name, key, account, True
        if session is not None:
            conn.session_hash = session_hash(session)
        conn.muted_until = account.muted_until if account else 0.0
        self.names[key] = conn
        self.online[conn.identity] += 1
        if account is not None:
            conn.ignored = self.storage.ignored(account.id)
        self._lobby_changed()
        limits = self.limits
        return [{"type": "welcome", "version": PROTOCOL_VERSION, "name": name,
                 "guest": account is None, "session": session,
                 "moderator": bool(account and account.moderator),
                 "ignoring": self._ignored_names(conn),
                 "grace": self.grace, "abandon_after": self.abandon_after,
                 "limits": {"message_bytes": MAX_MESSAGE_BYTES, "per_second": self.rate,
                            "burst": self.burst, "tables_waiting": limits.waiting_per_player,
                            "connections_per_address": limits.connections_per_address,
                            "waiting_table_closes_after": limits.waiting_close}},
                self._lobby(conn, recent=True)]

    def _not_yet(self, conn) -> None:
        if conn.name is not None:
            raise ProtocolError("already_hello", f"you are already {conn.name}")

    def _on_hello(self, conn, m, now):
        self._not_yet(conn)
        if ("name" in m) == ("session" in m):
            raise ProtocolError("bad_field", "hello needs a name (to play as a guest) "
                                             "or a session (to come back signed in)")
        if "session" in m:
            account = self.storage.session_account(session_hash(m["session"]))
            if account is None:
                raise ProtocolError("bad_session", "that session has ended: sign in again")
            if account.banned:
                raise ProtocolError("banned", "this account is banned")
            conn.session_hash = session_hash(m["session"])
            return self._welcome(conn, account.name, account)
        return self._welcome_guest(conn, m, m["name"])

    @staticmethod
    def _not_an_account(name: str, account) -> None:
        if account is not None:
            raise ProtocolError("name_taken", f"{name!r} is a player's account: "
                                              f"sign in with its password, or pick another name")

    def _welcome_guest(self, conn, m: dict, name: str):
        """A guest under ``name``, not an account's (a node first makes sure no other
        node has one)."""
        self._not_an_account(name, self.storage.find_account(name_key(name)))
        return self._welcome(conn, name)

    def _on_register(self, conn, m, now):
        self._not_yet(conn)
        name, password = m["name"], m["password"]
        key = name_key(name)
        check_password(password, name)
        if self.storage.find_account(key) is not None or key in self.names:
            raise ProtocolError("name_taken", f"{name!r} is taken (or looks like a name that is)")

        async def counted_and_hashed():
            wait = await self.registrations.wait(conn.address)
            if wait:
                raise ProtocolError("rate_limited", f"too many new accounts from your address: "
                                                    f"try again in {max(1, round(wait / 60))} min")
            await self.registrations.note(conn.address)
            return await self._hashed(hash_password, password, self.limits.scrypt_n)

        def registered(password_hash):
            token, digest = new_session()
            try:
                account = self.storage.create_account(name, key, _raised(password_hash), digest,
                                                      time.time())
            except NameTaken:
                raise ProtocolError("name_taken", f"{name!r} was just taken") from None
            return self._welcome(conn, name, account, token)
        self._defer(conn, m, counted_and_hashed(), then=registered)

    def _on_sign_in(self, conn, m, now):
        self._not_yet(conn)
        key = name_key(m["name"])
        account = self.storage.find_account(key)

        async def counted_and_checked():
            wait = max(await self.account_failures.wait(key),
                       await self.address_failures.wait(conn.address))
            if wait:
                raise ProtocolError("rate_limited", f"too many wrong passwords: try again in "
                                                    f"{max(1, round(wait / 60))} min")
            right = await self._hashed(verify_password, m["password"],
                                       account.password_hash if account else None)
            if right:
                await self.account_failures.clear(key)
            else:
                await self.account_failures.note(key)
                await self.address_failures.note(conn.address)
            return right

        def checked(right):
            if not _raised(right):
                raise ProtocolError("bad_password", "wrong name or password")
            if account.banned:
                raise ProtocolError("banned", "this account is banned")
            token, digest = new_session()
            self._store(self.storage.add_session, account.id, digest, time.time())
            return self._welcome(conn, account.name, account, token)
        self._defer(conn, m, counted_and_checked(), then=checked)

    def _account_of(self, conn):
        if conn.account is None:
            raise ProtocolError("needs_account", "guests have no account: register first")
        return conn.account

    def _on_change_password(self, conn, m, now):
        account = self._account_of(conn)
        check_password(m["new"], account.name)

        def rehash(old, stored, new, n):
            return hash_password(new, n) if verify_password(old, stored) else None

        async def counted_and_hashed():
            if await self.account_failures.wait(account.key):
                raise ProtocolError("rate_limited", "too many wrong passwords: try again later")
            password_hash = await self._hashed(rehash, m["old"], account.password_hash, m["new"],
                                               self.limits.scrypt_n)
            if password_hash is None:
                await self.account_failures.note(account.key)
            return password_hash

        def changed(password_hash):
            if _raised(password_hash) is None:
                raise ProtocolError("bad_password", "the old password is wrong")
            token, digest = new_session()
            self._store(self.storage.set_password, account.id, password_hash, digest)
            conn.account, conn.session_hash = replace(account, password_hash=password_hash), digest
            return [{"type": "password_changed", "session": token}]
        self._defer(conn, m, counted_and_hashed(), then=changed)

    def _on_sign_out(self, conn, m, now):
        # A kept session named here ends without being used to sign in (which would
        # close the account's connection elsewhere); else this connection's own.
        ended = session_hash(m["session"]) if "session" in m else conn.session_hash
        if ended is not None:
            self._store(self.storage.drop_session, ended)
        self._kick(conn, "signed out")
        return [{"type": "signed_out"}]

    # --- games made for two -----------------------------------------------------------
    def _start_game(self, white, black, time_control, rated: bool, start: str,
                    now) -> tuple[Table, dict[str, str]]:
        """A table with both seats taken and the game started; each player gets its
        ``seated`` (with its token) and both the table. The table and the tokens."""
        record = TableRecord(
            id=0, private=False, invite=None, start_position=start,
            time_base=time_control["base"] if time_control else None,
            time_increment=time_control["increment"] if time_control else 0, rated=rated)
        table = Table(record, now)
        tokens = {}
        for color, conn in (("white", white), ("black", black)):
            account = conn.account.id if conn.account else None
            rating = self.storage.rating(account, record.time_class) if account else None
            tokens[color] = table.sit(conn, conn.name, color, account, rating)
        table.start(now)
        self._store(self.storage.create_table, record)
        self.tables[table.id] = table
        for color, conn in (("white", white), ("black", black)):
            table.watchers.add(conn)
            conn.in_lobby = False
            self._send([conn.ws], {"type": "seated", "table": table.id, "color": color,
                                   "token": tokens[color]})
        self._send_table(table, table.state(now))
        self._schedule_flag(table)
        self._lobby_changed()
        return table, tokens

    def _on_rematch(self, conn, m, now):
        table, color = self._seat(conn, m)
        if table.record.status != "finished":
            raise ProtocolError("not_over", f"the game at {table.id} is not over")
        opponent = table.seat_conn[other(color)]
        if opponent is None:
            raise ProtocolError("opponent_gone", "your opponent has left the table")
        table.rematch.add(color)
        if table.rematch != set(COLORS):
            self._send_table(table, table.state(now))
            return
        table.rematch.clear()
        r = table.record
        control = {"base": r.time_base, "increment": r.time_increment} if table.timed else None
        # Colours swapped: the old Black plays White.
        self._start_game(table.seat_conn["black"], table.seat_conn["white"], control, r.rated,
                         r.start_position, now)

    def _on_takeback(self, conn, m, now):
        self._offer(conn, m, now, "takeback")

    def _answer_takeback(self, conn, m, now, accept: bool):
        table = self._answer(conn, m, now, "takeback", accept)
        if table is None:
            return
        self._store(self.storage.take_back, table.record)
        self._send_table(table, {"type": "taken_back", "table": table.id,
                                 "ply": len(table.record.moves),
                                 "position": table.game.position_text(),
                                 "turn": table.game.turn, "clocks": table.clocks(now)})
        self._send_table(table, table.state(now))
        self._schedule_flag(table)

    def _on_accept_takeback(self, conn, m, now):
        self._answer_takeback(conn, m, now, True)

    def _on_decline_takeback(self, conn, m, now):
        self._answer_takeback(conn, m, now, False)

    # --- seeks ----------------------------------------------------------------------------
    def _seek_rows(self) -> list[dict]:
        return [s.row() for s in self.seeks[-MAX_SEEKS_SHOWN:]]

    def _drop_seek(self, conn) -> None:
        if conn.seek is not None:
            self.seeks.remove(conn.seek)
            conn.seek = None
            self._lobby_changed()

    def _on_seek(self, conn, m, now):
        mine = self._seek_of(conn, m)
        self._drop_seek(conn)
        for theirs in self.seeks:
            if self._pairs(mine, theirs):
                self._drop_seek(theirs.conn)
                self._pair(mine, theirs, now)
                return
        return self._wait_seek(mine)

    def _seek_of(self, conn, m) -> Seek:
        rated = m.get("rated", False)
        if rated:
            self._account_of(conn)
        control = m.get("time")
        rating = (self.storage.rating(conn.account.id, time_class(control)).rating
                  if conn.account else None)
        return Seek(conn, control, rated, m.get("min_rating"), m.get("max_rating"), rating)

    @staticmethod
    def _pairs(mine: Seek, theirs: Seek) -> bool:
        me, them = mine.conn, theirs.conn
        return (them.identity != me.identity and theirs.time == mine.time
                and theirs.rated == mine.rated and theirs.accepts(mine.rating)
                and mine.accepts(theirs.rating)
                and them.key not in me.ignored and me.key not in them.ignored)

    def _pair(self, mine: Seek, theirs: Seek, now):
        """The game of two seeks (colours drawn); (table, tokens, colour → connection)."""
        me, them = mine.conn, theirs.conn
        white, black = (me, them) if secrets.randbelow(2) else (them, me)
        table, tokens = self._start_game(white, black, mine.time, mine.rated, START_POSITION, now)
        return table, tokens, {"white": white, "black": black}

    def _wait_seek(self, mine: Seek) -> list[dict]:
        self.seeks.append(mine)
        mine.conn.seek = mine
        self._lobby_changed()
        return [{"type": "seek_waiting", **mine.row()}]

    def _on_cancel_seek(self, conn, m, now):
        self._drop_seek(conn)
        return [{"type": "seek_cancelled"}]

    # --- looking things up ------------------------------------------------------------------
    def _on_history(self, conn, m, now):
        profile = self.storage.player_profile(m["name"], m.get("offset", 0))
        if profile is None:
            raise ProtocolError("no_player", f"there is no account named {m['name']!r}")
        return [{"type": "history", **profile}]

    def _on_archive(self, conn, m, now):
        found = self.storage.archive(m.get("player"), m.get("offset", 0))
        return [{"type": "archive", "player": m.get("player"), **found}]

    def _on_leaderboard(self, conn, m, now):
        return [{"type": "leaderboard",
                 **self.storage.leaderboard(m.get("time_class"), m.get("offset", 0))}]

    # --- ignoring ---------------------------------------------------------------------------
    def _ignored_names(self, conn) -> list[str]:
        """Whom this person ignores, as the app shows them: an account's name as
        registered, else (a guest's) the name's key."""
        found = {key: self.storage.find_account(key) for key in conn.ignored}
        return sorted((a.name if a else key for key, a in found.items()), key=str.casefold)

    def _ignore(self, conn, m, on: bool):
        key = name_key(m["name"])
        if key == conn.key:
            raise ProtocolError("bad_field", "you cannot ignore yourself")
        if on and key not in conn.ignored and len(conn.ignored) >= MAX_IGNORED:
            raise ProtocolError("too_many_ignored", f"you ignore {MAX_IGNORED} players already: "
                                            "stop ignoring one first")
        if conn.account is not None:
            self._store(self.storage.set_ignore, conn.account.id, key, on)
        (conn.ignored.add if on else conn.ignored.discard)(key)
        return [{"type": "ignoring", "name": m["name"], "on": on, "count": len(conn.ignored)}]

    def _on_ignore(self, conn, m, now):
        return self._ignore(conn, m, True)

    def _on_unignore(self, conn, m, now):
        return self._ignore(conn, m, False)

    # --- moderators -------------------------------------------------------------------------
    def _moderator(self, conn):
        fresh = self.storage.account_by_id(conn.account.id) if conn.account else None
        if fresh is None or not fresh.moderator:
            raise ProtocolError("not_moderator", "only a moderator may do that")
        return fresh

    def _target(self, name: str):
        """(the account named, the connection online here under the name); refused if
        nobody is called so (here, or — for a node — on another node)."""
        account = self.storage.find_account(name_key(name))
        online = self._online(name)
        if account is None and online is None and not self._online_elsewhere(name):
            raise ProtocolError("no_player", f"nobody is called {name!r}")
        return account, online

    def _online_elsewhere(self, name: str) -> bool:
        """A guest called ``name`` connected to another node (one server has none)."""
        return False

    def _ban_address(self, address: str) -> None:
        self.banned_addresses.add(address)

    def _moderated(self, action: str, name: str, until: float | None = None) -> None:
        """A mute or ban done here: a node tells the others, whose connection under
        ``name`` it may be (one server has done it all already)."""

    def _action(self, moderator, action: str, target: str, detail: str) -> ModAction:
        return ModAction(moderator.name, action, target, detail, time.time())

    def _on_mod_mute(self, conn, m, now):
        moderator = self._moderator(conn)
        account, online = self._target(m["name"])
        until = time.time() + 60 * m["minutes"]
        self._store(self.storage.moderate,
                    self._action(moderator, "mute", m["name"], f"{m['minutes']} min"),
                    account.id if account else None, None, until)
        if online is not None:
            online.muted_until = until
        self._moderated("mute", m["name"], until)
        return [{"type": "moderated", "action": "mute", "target": m["name"]}]

    def _on_mod_ban(self, conn, m, now):
        moderator = self._moderator(conn)
        account, online = self._target(m["name"])
        if account is None and online is not None:   # a guest: its address, for a while
            self._ban_address(online.address)
        self._store(self.storage.moderate,
                    self._action(moderator, "ban", m["name"], m.get("reason", "")),
                    account.id if account else None, True)
        if online is not None:
            self._kick(online, "banned")
        self._moderated("ban", m["name"])
        return [{"type": "moderated", "action": "ban", "target": m["name"]}]

    def _on_mod_unban(self, conn, m, now):
        moderator = self._moderator(conn)
        account = self.storage.find_account(name_key(m["name"]))
        if account is None:
            raise ProtocolError("no_player", f"there is no account named {m['name']!r}")
        self._store(self.storage.moderate, self._action(moderator, "unban", m["name"], ""),
                    account.id, False)
        return [{"type": "moderated", "action": "unban", "target": m["name"]}]

    def _on_mod_close(self, conn, m, now):
        moderator = self._moderator(conn)
        table = self._table(m)
        if table.record.status == "finished":
            raise ProtocolError("not_playing", f"the game at {table.id} is over")
        reason = m.get("reason", "")
        table.close(now, "Closed by a moderator" + (f": {reason}" if reason else ""))
        self._finished(table, action=self._action(moderator, "close", table.id, reason))
        return [{"type": "moderated", "action": "close", "target": table.id}]
