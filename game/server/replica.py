"""What a server node keeps of other nodes' business: a table another node
referees (:class:`Replica`), and a client connected to another node
(:class:`RemoteSocket`, the WebSocket a referee writes to for it). See
game/server/node.py."""
from __future__ import annotations

import time

from ..net.protocol import COLORS
from .storage import TableRecord
from .table import Table


class RemoteSocket:
    """Stands for a client's WebSocket on another node: what the referee writes to
    it goes to that node on the bus (see :meth:`NodeServer._broadcast`)."""

    remote_address = None
    transport = None

    def __init__(self, node: str, cid: int) -> None:
        self.node, self.cid = node, cid


class Replica(Table):
    """A table another node referees, as the store last showed it: for the lobby,
    the pages and this node's limits. No clock runs here and nobody sits here; the
    board is rebuilt only if a page asks for it."""

    def __init__(self, record: TableRecord) -> None:      # no Table.__init__: no replay
        now = time.monotonic()
        self.record = record
        self.turn_started = now
        self.seat_conn = {c: None for c in COLORS}
        self.absent_since = {c: now for c in COLORS}
        self.watchers = set()
        self.draw_offer = self.takeback_offer = None
        self.rematch = set()
        self.ratings = {c: None for c in COLORS}
        self.owner_address = None
        self.timer = None
