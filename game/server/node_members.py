"""What every node must agree on about people (a mixin of game/server/node.py's
:class:`NodeServer`): the same rules as one server, whichever node a client is on.

- **Guest names** are claims on the bus (``guest:KEY``, held by the guest's
  address, renewed while the guest is online, let go when it leaves): a second
  guest of that name from another address is refused on every node. The same
  address may take its name back at once — the guest of a killed node reconnecting
  elsewhere before its old claim ran out.
- **Sign-in failures and new accounts** are counted on the bus's shared counters
  (game/server/limits.py's :class:`SharedAttempts`), per account and per address.
- **Connections per address**: each node's presence carries how many connections it
  has from every address with more than one; a node adds the others' to its own.
- **Waiting tables** per player are counted over every open table, the other nodes'
  replicas included; per address, over the guests' tables everywhere.
- **Bans of a guest's address** are claims (``ban:ADDRESS``) that every node asks
  about when a connection comes; a **mute** or a **ban** is told to every node, and
  the one whose client it concerns applies it (mutes it, closes its connection).
- **Seeks** are told to every node (and again every presence round, for a node
  that started later); a seek that finds one on any node claims it on the bus
  (``seek:NODE:CID``), so of two nodes pairing one seek at once only one does; the
  game is made by the claiming node, the other node's seeker seated there through
  its stand-in, and its node told (``paired``) so that the client is attached —
  as after a rematch, so that both players are seated again after a failover.
"""
from __future__ import annotations

import asyncio
import time

from ..net.protocol import ProtocolError
from .accounts import name_key
from .bus import BusUnavailable, Gathered
from .limits import SharedAttempts
from .members import MAX_SEEKS_SHOWN, Seek, _raised
from .replica import RemoteSocket

NAME_SECONDS = 15.0        # a guest's name claim lasts this long unless renewed,
NAME_RENEW_EVERY = 5.0     # ... which it is this often (one pipeline for all of a node's)
BAN_SECONDS = 24 * 3600.0  # a guest's address ban (one server's lasts until it restarts)
BAN_CHECK_SECONDS = 1.0    # a connection waits this long at most for the bus's answer
SEEK_SECONDS = 30.0        # a seek's claim (it is gone once the game is made)


class SharedMembers:
    """The node's side of people: see the module's text. Needs ``self.bus``, ``self.node``."""

    def _share_limits(self) -> None:
        limits = self.limits
        self.account_failures = SharedAttempts(self.bus, "failures:account",
                                               limits.failures_per_account, limits.sign_in_window)
        self.address_failures = SharedAttempts(self.bus, "failures:address",
                                               limits.failures_per_address, limits.sign_in_window)
        self.registrations = SharedAttempts(self.bus, "registrations",
                                            limits.registrations_per_address,
                                            limits.registration_window)
        self.remote_seeks: dict[tuple[str, int], Seek] = {}
        self.remote_seen: dict[tuple[str, int], float] = {}   # when last announced
        self.elsewhere: dict[str, int] = {}        # address → connections on other nodes
        self._background: set[asyncio.Task] = set()
        self._names_renewed = 0.0
        # A connection's ban check and a guest's name claim: one bus call for all
        # those asked at once.
        self.ban_checks = Gathered(lambda keys: self.bus.holders(list(keys)))
        self.name_claims = Gathered(lambda claims: self.bus.claim(claims, NAME_SECONDS))
        # ... and whether a guest's name is an account's: one store read for them all.
        self.account_checks = Gathered(self._accounts_named)

    async def _accounts_named(self, keys: dict) -> dict:
        return self.storage.find_accounts(list(keys))

    def _later(self, job) -> None:
        """Run a bus call in the background (a handler does not wait for it)."""
        async def quietly():
            try:
                await job
            except BusUnavailable:
                pass
        task = asyncio.get_running_loop().create_task(quietly())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # --- guest names -------------------------------------------------------------------
    def _welcome_guest(self, conn, m: dict, name: str):
        async def claimed():
            account = await self.account_checks.ask(name_key(name))
            try:
                holder = await self.name_claims.ask(f"guest:{name_key(name)}", conn.address)
            except BusUnavailable:
                holder = conn.address       # the bus away: as one server (this node's names)
            return account, holder

        def then(found):
            account, holder = _raised(found)
            self._not_an_account(name, account)
            if holder != conn.address:
                raise ProtocolError("name_taken", f"{name!r} is already online")
            return self._welcome(conn, name)
        self._defer(conn, m, claimed(), then)

    async def _renew_names(self) -> None:
        if time.monotonic() - self._names_renewed < NAME_RENEW_EVERY:
            return
        guests = {f"guest:{c.key}": c.address for c in self.names.values() if c.account is None}
        if guests:
            await self.bus.claim(guests, NAME_SECONDS)
        self._names_renewed = time.monotonic()

    def _let_name_go(self, conn) -> None:
        if conn.name is not None and conn.account is None and conn.key not in self.names:
            self._later(self.bus.release(f"guest:{conn.key}", conn.address))

    def _online_elsewhere(self, name: str) -> bool:
        key = name_key(name)
        return any(member.startswith("g:") and name_key(member[2:]) == key
                   for members in self.others.values() for member in members)

    # --- connections per address, bans, mutes ----------------------------------------------
    def _connections_from(self, address: str) -> int:
        return self.per_address[address] + self.elsewhere.get(address, 0)

    def _presence_counts(self) -> list[str]:
        """This node's addresses with more than one connection, for the others."""
        return [f"c:{address}={n}" for address, n in self.per_address.items() if n > 1]

    def _heard_presence(self, everyone: dict) -> None:
        elsewhere: dict[str, int] = {}
        for node, members in everyone.items():
            if node == self.node:
                continue
            for member in members:
                if member.startswith("c:"):
                    address, _, count = member[2:].rpartition("=")
                    elsewhere[address] = elsewhere.get(address, 0) + int(count)
        self.elsewhere = elsewhere

    async def _refusal(self, address: str) -> str | None:
        why = await super()._refusal(address)
        if why is None:
            try:
                banned = await asyncio.wait_for(self.ban_checks.ask(f"ban:{address}"),
                                                BAN_CHECK_SECONDS)
            except (BusUnavailable, asyncio.TimeoutError):
                banned = None                   # the bus away: this node's bans only
            if banned is not None:
                return "banned"
        return why

    def _ban_address(self, address: str) -> None:
        super()._ban_address(address)
        self._later(self.bus.claim({f"ban:{address}": "banned"}, BAN_SECONDS))

    def _moderated(self, action: str, name: str, until: float | None = None) -> None:
        self._tell({"k": "mod", "action": action, "key": name_key(name),
                    "until": until})

    def _welcome(self, conn, name: str, account=None, session: str | None = None) -> list:
        replies = super()._welcome(conn, name, account, session)
        if account is not None:         # as on one server: the account's older connection goes
            self._tell({"k": "mod", "action": "signed_in", "key": conn.key,
                        "account": account.id})
        return replies

    def _heard_moderation(self, body: dict) -> None:
        conn = self.names.get(body["key"])
        if conn is None:
            return
        if body["action"] == "signed_in":
            if conn.account is not None and conn.account.id == body["account"]:
                del self.names[conn.key]
                self._kick(conn, "signed in elsewhere")
        elif body["action"] == "mute":
            conn.muted_until = body["until"]
        elif body["action"] == "ban":
            if conn.account is None:
                self._ban_address(conn.address)
            self._kick(conn, "banned")

    # --- waiting tables --------------------------------------------------------------------
    def _on_create_table(self, conn, m, now):
        replies = super()._on_create_table(conn, m, now)
        self._tell({"k": "owner", "table": replies[0]["table"],
                    "address": conn.address})
        return replies

    def _replica_owner(self, replica, old=None) -> None:
        """A waiting table made on another node counts for its creator's address here
        too: a guest's is in its owner; an account's is told (``owner``)."""
        owner = replica.record.owner or ""
        if owner.startswith("guest:"):
            replica.owner_address = owner[len("guest:"):]
        elif old is not None:
            replica.owner_address = old.owner_address

    def _heard_owner(self, body: dict) -> None:
        table = self.tables.get(body["table"])
        if table is not None and table.owner_address is None:
            table.owner_address = body["address"]

    # --- seeks -------------------------------------------------------------------------------
    def _seek_key(self, seek: Seek) -> str:
        ws = seek.conn.ws
        if isinstance(ws, RemoteSocket):
            return f"seek:{ws.node}:{ws.cid}"
        return f"seek:{self.node}:{self._cid(seek.conn)}"

    def _seek_rows(self) -> list[dict]:
        seeks = [*self.seeks, *self.remote_seeks.values()]
        return [s.row() for s in seeks[-MAX_SEEKS_SHOWN:]]

    def _on_seek(self, conn, m, now):
        mine = self._seek_of(conn, m)
        self._drop_seek(conn)
        candidates = [s for s in [*self.seeks, *self.remote_seeks.values()] if self._pairs(mine, s)]
        if not candidates:
            return self._wait_seek(mine)
        owner = self._seek_key(mine)

        async def claim():
            for theirs in candidates:          # the first one this node gets
                key = self._seek_key(theirs)
                if (await self.bus.claim({key: owner}, SEEK_SECONDS))[key] == owner:
                    return theirs
            return None

        def then(found):
            try:
                found = _raised(found)
            except BusUnavailable:
                found = None
            if conn not in self.connections:
                return []
            them = found.conn if found is not None else None
            if found is not None and found in self.seeks:
                self._drop_seek(them)
                self._pair(mine, found, time.monotonic())
            elif found is not None and self.remote_seeks.get(self._remote_key(them)) is found:
                del self.remote_seeks[self._remote_key(them)]
                self._pair(mine, found, time.monotonic())
            else:
                return self._wait_seek(mine)   # taken meanwhile: this one waits
        self._defer(conn, m, claim(), then)

    @staticmethod
    def _remote_key(conn) -> tuple[str, int]:
        return conn.ws.node, conn.ws.cid

    def _wait_seek(self, mine: Seek) -> list[dict]:
        replies = super()._wait_seek(mine)
        self._announce_seek(mine)
        return replies

    def _announce_seek(self, seek: Seek) -> None:
        self._tell({"k": "seek", "who": self._who(seek.conn), "time": seek.time,
                    "rated": seek.rated, "low": seek.low, "high": seek.high,
                    "rating": seek.rating})

    def _drop_seek(self, conn) -> None:
        if conn.seek is not None and not isinstance(conn.ws, RemoteSocket):
            self._tell({"k": "unseek", "cid": self._cid(conn)})
        super()._drop_seek(conn)

    def _heard_seek(self, sender: str, body: dict) -> None:
        if body["k"] == "unseek":
            self._forget_remote_seek(sender, body["cid"])
            return
        key = (sender, body["who"]["cid"])
        self.remote_seen[key] = time.monotonic()
        known = self.remote_seeks.get(key)
        conn = self._stand_in(sender, body["who"])
        self.remote_seeks[key] = Seek(conn, body["time"], body["rated"], body["low"],
                                      body["high"], body["rating"])
        if known is None:
            self._lobby_changed()

    def _start_game(self, white, black, *args):
        """A game made for two (a seek paired, a rematch): each player's node is to
        know where it sits, to seat it again after a failover — this node for its own
        clients, the client's node for another node's (``paired``)."""
        table, tokens = super()._start_game(white, black, *args)
        for color, conn in (("white", white), ("black", black)):
            if isinstance(conn.ws, RemoteSocket):
                self._to_node(conn.ws.node, {"k": "paired", "cid": conn.ws.cid,
                                             "table": table.id, "token": tokens[color]})
            else:
                self._note_attached(conn, table.id, True, tokens[color])
        return table, tokens

    def _paired(self, body: dict) -> None:
        """This node's client was seated at a new game on another node (its seek paired,
        a rematch): it sits there now."""
        conn = self.by_cid.get(body["cid"])
        if conn is None:
            return
        self._drop_seek(conn)
        conn.in_lobby = False
        self._note_attached(conn, body["table"], True, body["token"])

    def _forget_remote_seek(self, origin: str, cid: int) -> None:
        self.remote_seen.pop((origin, cid), None)
        if self.remote_seeks.pop((origin, cid), None) is not None:
            self._lobby_changed()

    def _forget_unannounced_seeks(self, older_than: float) -> None:
        """Seeks their node stopped announcing (its "unseek" lost on the bus)."""
        now = time.monotonic()
        for key in [k for k, seen in self.remote_seen.items() if now - seen > older_than]:
            self._forget_remote_seek(*key)
