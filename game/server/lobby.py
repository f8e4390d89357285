"""The lobby as the server sends it: pages of the public tables, newest first,
and every player's own tables, whatever the page (docs/protocol.md, ``lobby``)."""
from __future__ import annotations

import time

from .table import Table


class LobbyView:
    """The lobby as of now: the public tables newest first, who owns what (one pass
    over the tables), and each row made once however many pages show it."""

    def __init__(self, server) -> None:       # a GameServer
        self.limits = server.limits
        self.made = time.monotonic()
        self.public: list[Table] = []
        self.owned: dict[str, list[Table]] = {}
        public, owned = self.public, self.owned
        # One pass, with as little made per table as can be: a node welcoming a dead
        # node's clients makes a view every LOBBY_DELAY over thousands of tables.
        for table in reversed(server.tables.values()):
            r = table.record
            if r.status == "finished":
                continue
            if not r.private:
                public.append(table)
            # Who may call it theirs: its creator, the accounts and the people seated.
            owners = [r.owner] if r.owner is not None else []
            for seat in r.seats.values():
                if seat.account is not None and f"account:{seat.account}" not in owners:
                    owners.append(f"account:{seat.account}")
            for conn in table.seat_conn.values():
                if conn is not None and conn.identity not in owners:
                    owners.append(conn.identity)
            for owner in owners:
                mine = owned.get(owner)
                if mine is None:
                    owned[owner] = [table]
                else:
                    mine.append(table)
        people = server.people_online()
        names = sorted({name for name, _ in people}, key=str.casefold)
        shown = names[:self.limits.lobby_names]
        guests = {name for name, guest in people if guest}
        self.common = {"users": shown, "guests": [n for n in shown if n in guests],
                       "online": len(names), "seeks": server._seek_rows()}
        self._rows: dict[str, dict] = {}

    def own(self, conn) -> list[Table]:
        """Tables not finished that ``conn``'s player created or sits at, newest first."""
        return self.owned.get(conn.identity, [])

    def _row(self, table: Table) -> dict:
        row = self._rows.get(table.id)
        if row is None:
            row = self._rows[table.id] = table.summary()
        return row

    def page(self, offset: int, conn) -> dict:
        size, total = self.limits.lobby_page, len(self.public)
        return {"type": "lobby", **self.common,
                "tables": [self._row(t) for t in self.public[offset:offset + size]],
                "total": total, "offset": offset,
                "next": offset + size if offset + size < total else None,
                "mine": [self._row(t) for t in self.own(conn)]}
