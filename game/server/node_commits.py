"""Group commit: the moves a node receives together stored in one transaction (a
mixin of game/server/node.py's :class:`NodeServer`).

A referee stores a move before anyone hears of it ("store, then speak"). One
blocking commit per move made the loop wait for PostgreSQL once per move — on a
busy machine each wait is a turn for a core for PostgreSQL and one back — and a
node taking over a dead node's games got there twice as many. Now a move that goes
on (not the last of its game) is played on the table and its store *held*: the
write, everything the handler says (the ``moved`` news, its replies, a forwarded
message's report) wait in :attr:`_held`; at the loop's next turn every held write
goes to the store in one call (``add_moves``: on PostgreSQL one statement, each move
fenced on its own), and then each move's words are said — or, for a write refused,
the mover is told why and nobody hears of the move. So a move is still acknowledged
only once it is stored. (psycopg's Python costs about what a loopback round trip
does: sixteen moves in one statement take ~0.11 ms each, one by one ~0.5 ms, in a
pipeline ~0.4 ms.)

Nothing else speaks, or stores, before the held moves are stored: every write to
a client (:meth:`_broadcast`) and every store call flush them first. A client
asking for the table in the same turn is answered after the commit, with the move.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from ..net.protocol import error
from .game_server import log
from .jsontext import encode
from .leases import LeaseLost, StorageUnavailable
from .storage import Conflict, StorageError, TableRecord


@dataclass
class HeldMove:
    """A move played on its table, its write and its words not yet out."""

    record: TableRecord
    fence: int
    conn: object                      # the mover's connection (its stand-in, if forwarded)
    re_id: int | None
    started: float | None = None      # perf_counter at its frame: the round trip's start
    words: list = field(default_factory=list)     # (targets, text), in order
    after: list = field(default_factory=list)     # calls once told (a forward's report)


class GroupCommit:
    """Needs the node's ``storage``, ``keeper``, ``stale``, ``metrics``, ``_lose``,
    ``_note_look``, ``_unavailable``, ``_fail``; ``_commits_init()`` from its
    ``__init__``; its ``_speak`` and ``_store`` call :meth:`_hold_words` and
    :meth:`_may_hold`."""

    def _commits_init(self) -> None:
        self._held: list[HeldMove] = []
        self._holding: HeldMove | None = None        # made by the handler running now
        self._moving: tuple | None = None            # (conn, re_id) of the move being handled
        self.last_held: HeldMove | None = None       # the last handler's, once its words held

    def _may_hold(self, record: TableRecord, fence: int) -> bool:
        """Called by ``_store`` for an ``add_move`` that does not end the game: hold
        it (True) when it is a client's move and its table has no write held."""
        if self._moving is None or any(h.record is record for h in self._held):
            return False
        conn, re_id = self._moving
        self._holding = HeldMove(record, fence, conn, re_id)
        return True

    def _on_move(self, conn, m, now):
        self._moving = (conn, m.get("id"))
        try:
            return super()._on_move(conn, m, now)
        finally:
            self._moving = None

    def _moved(self, started: float) -> None:
        if self.last_held is None:
            super()._moved(started)
        else:                                   # counted once stored
            self.last_held.started = started

    def _hold_words(self, conn, replies: list[dict], pending: list) -> bool:
        """After a handler: if it held its move, its words wait for the commit."""
        held, self._holding = self._holding, None
        self.last_held = held
        if held is None:
            return False
        held.words = [([conn.ws], encode(reply)) for reply in replies] + pending
        if not self._held:
            asyncio.get_running_loop().call_soon(self._flush_moves)
        self._held.append(held)
        return True

    def _flush_moves(self) -> None:
        """Store every held move in one transaction, then say what each made (or,
        for a write refused, tell its mover)."""
        held, self._held = self._held, []
        if not held:
            return
        writes = [(h.record, h.fence) for h in held]
        try:
            refused = self.storage.add_moves(writes)
            why = None
        except StorageUnavailable as exc:
            refused, why = {h.record.id: exc for h in held}, self._unavailable(exc)
        except (StorageError, OSError) as exc:
            self._fail(exc)
            refused, why = {h.record.id: exc for h in held}, None
        for move in held:
            try:
                self._tell_held(move, refused, why)
            except Exception as exc:     # a bug of ours: one line, and the others are told
                log(f"node {self.node}: a stored move's news failed: {exc!r}")

    def _tell_held(self, move: HeldMove, refused: dict, why) -> None:
        """Say what a held move made once its write is stored; or refuse it."""
        record = move.record
        if record.id not in refused:
            self._note_look({"k": "look", "table": record.id, "ply": len(record.moves),
                             "move": record.moves[-1]})
            for targets, text in move.words:
                self._broadcast(targets, text)
            if move.started is not None:
                self.metrics.moves.inc()
                self.metrics.move_round_trip.observe(time.perf_counter() - move.started)
        else:
            self._reply(move.conn, self._held_refusal(move, refused[record.id], why))
        for call in move.after:
            call(record.id not in refused)

    def _held_refusal(self, move: HeldMove, cause: Exception, why) -> dict:
        """The error a mover gets for a held move that was not stored (as ``_store``
        says it for one stored alone); the table is read again or let go."""
        record = move.record
        tid = record.table_id
        if isinstance(cause, LeaseLost):
            self.keeper.held.pop(record.id, None)
            self._lose(record.id)
            code, text = "table_moved", f"{tid} is refereed by another node now: send that again"
        elif why is not None:                   # the database away
            self.stale.add(tid)
            code, text = why.code, str(why)
        elif isinstance(cause, Conflict):       # stored already (an answer lost): read it
            self.stale.add(tid)
            code, text = ("table_changed", f"{tid} changed meanwhile: it is read again; "
                                           f"look and send that again")
        else:                                   # the store failed: the node stops
            code, text = "stopping", "the server could not store that and is stopping"
        return error(code, text, move.re_id, "move")
