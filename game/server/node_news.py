"""What a node tells the others, and hears from them, on the bus (a mixin of
game/server/node.py's :class:`NodeServer`).

After every write about a table it referees, a node says "look" (the table, its
ply, and the move when the change was only the next move); the others keep their
replica from it, or read the table from the store. Looks are gathered for
:data:`LOOKS_EVERY` and sent on the ``tables`` channel as one message (a node hears
a few a second instead of one per move on every table). What a node could have
heard before them is not held back: any other news on ``tables`` first sends the
looks gathered, and a message to one node (``node:NAME``: a client's news, a
forwarded message, its report) carries the looks not sent yet, applied before
it. So a node's replica already has every change its own clients have been told
about, as when every look went at once. Each look is numbered (per node and per
start), so one heard twice — with a message, then in the gathered ones — is applied
once.
"""
from __future__ import annotations

import asyncio
import itertools
import secrets

from .leases import StorageUnavailable
from .records import table_number
from .replica import Replica

TABLES = "tables"                  # the bus channel every node hears: look, taken, chat, closed
LOOKS_EVERY = 0.1                  # a referee's looks are gathered this long, then sent at once


def node_channel(node: str) -> str:
    """The bus channel one node hears its own news on (forwards, replies, reports)."""
    return f"node:{node}"


class TableNews:
    """Needs the node's ``bus``, ``node``, ``keeper``, ``referee_of``, ``tables``, ``stale``,
    ``storage``, ``_replica`` and ``_lobby_changed``; ``_news_init()`` from its
    ``__init__``."""

    def _news_init(self) -> None:
        self._looks: list[dict] = []                       # not sent yet, in order
        self._looks_timer: asyncio.TimerHandle | None = None
        self._look_numbers = itertools.count(1)
        self._start = secrets.token_hex(4)                 # this start's looks, apart
        self._looked: dict[tuple[str, str], int] = {}      # (node, its start) → last applied

    def _tell(self, body: dict) -> None:
        """News for every node, after the looks gathered before it."""
        self._send_looks()
        self.bus.publish(TABLES, body)

    def _to_node(self, node: str, body: dict) -> None:
        """A message for one node, with the looks it has not been sent yet."""
        if self._looks:
            body = {**body, "looks": self._looks.copy(), "start": self._start}
        self.bus.publish(node_channel(node), body)

    def _note_look(self, look: dict) -> None:
        look["n"] = next(self._look_numbers)
        if not self._looks:
            self._looks_timer = asyncio.get_running_loop().call_later(LOOKS_EVERY,
                                                                      self._send_looks)
        self._looks.append(look)

    def _send_looks(self) -> None:
        if self._looks_timer is not None:
            self._looks_timer.cancel()
            self._looks_timer = None
        if self._looks:
            looks, self._looks = self._looks, []
            self.bus.publish(TABLES, {"k": "looks", "looks": looks, "start": self._start})

    def _heard_looks(self, sender: str, body: dict) -> None:
        """The looks of a ``looks`` message, or carried by a message to this node:
        each applied once, in the order they were made; the tables to read, read
        together at the end (a read gives each its latest state)."""
        key = (sender, body["start"])
        last = self._looked.get(key, 0)
        to_read: dict[int, None] = {}
        for look in body["looks"]:
            if look["n"] > last:
                last = look["n"]
                number = look["table"]
                # Its sender referees it (a look follows a fenced write): the node
                # need not ask the store (a "taken" since says otherwise, and stays).
                self.referee_of.setdefault(number, sender)
                if number in to_read or not self._looked_at(number, look.get("ply"),
                                                            look.get("move")):
                    to_read[number] = None
        self._looked[key] = last
        self._read_tables(list(to_read))

    def _look(self, number: int, ply: int | None = None, move: str | None = None) -> None:
        """Another node changed a table: read it from the store (the truth) — unless
        the change was only the next move of a game this node has up to the one
        before (the referee's news comes in its order; a gap means reading all)."""
        if not self._looked_at(number, ply, move):
            self._read_tables([number])

    def _looked_at(self, number: int, ply: int | None, move: str | None) -> bool:
        """Whether the look needs no read: this node referees the table, or the
        change was the next move of the game as this node has it (then applied)."""
        if number in self.keeper.held:
            return True
        tid = f"T{number}"
        replica = self.tables.get(tid)
        if move is not None and isinstance(replica, Replica) and tid not in self.stale \
                and replica.record.status == "playing" and len(replica.record.moves) == ply - 1:
            replica.record.moves.append(move)
            replica._game = None             # made again from the moves if a page asks
            self._lobby_changed()
            return True
        return False

    def _read_tables(self, numbers: list[int]) -> None:
        """Tables other nodes referee, read from the store in one go (after a
        takeover's news, a gap, looks that say more than a move)."""
        numbers = [n for n in numbers if n not in self.keeper.held]
        if not numbers:
            return
        try:
            found = self.storage.load_tables(numbers)
        except StorageUnavailable:
            self.stale.update(f"T{n}" for n in numbers)
            return
        for number, record in found.items():
            tid = f"T{number}"
            self.stale.discard(tid)
            if record is None or record.status == "finished":
                self.tables.pop(tid, None)
            else:
                self._replica(record)
        self._lobby_changed()

    def _read_replicas(self) -> None:
        """Every table another node referees, read again from the store at once."""
        try:
            records = self.storage.open_tables()
        except StorageUnavailable:
            self.stale.update(t for t in self.tables if table_number(t) not in self.keeper.held)
            return
        open_now = {r.table_id for r in records}
        for tid in [t for t in self.tables if t not in open_now]:
            if table_number(tid) not in self.keeper.held:
                del self.tables[tid]
        for record in records:
            if record.id not in self.keeper.held:
                self._replica(record)
                self.stale.discard(record.table_id)
        self._lobby_changed()
