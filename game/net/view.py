"""What an online screen shows, kept up to date from the server's messages.

The app's lobby and table screens (on top of :mod:`game.net.bridge`) feed every
message they poll into :meth:`OnlineState.apply` and draw from its views; no
pygame here, and no rule: the table's game is a
:class:`~game.camelot.board.CamelotBoard` rebuilt from the start position and
the moves the server sent, so the board scene can treat the opponent's move
like the computer's (``board.play(moved["move"])``).

    state = OnlineState("Alice")
    for message in link.poll():
        changed = state.apply(message)       # "lobby", "table", "link", "error" …
    table = state.tables["T3"]
    table.board, table.clocks_now(), table.chat, table.my_color
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from ..camelot.board import CamelotBoard
from ..errors import RoundTableError

CHAT_LINES = 200


@dataclass
class TableView:
    table: str
    start_position: str = ""
    seats: dict = field(default_factory=dict)
    spectators: list = field(default_factory=list)
    status: str = "waiting"
    moves: list = field(default_factory=list)
    time: dict | None = None
    clocks: dict | None = None
    clocks_at: float = 0.0            # monotonic time the clocks were read
    draw_offer: str | None = None
    winner: str | None = None
    reason: str = ""
    no_result: bool = False           # closed as abandoned: neither a win nor a draw
    invite: str | None = None
    my_color: str | None = None
    token: str | None = None
    last_move: dict | None = None     # the last ``moved`` message (path, captures …)
    chat: deque = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    board: CamelotBoard | None = None
    record_text: str = ""

    def clocks_now(self, now: float | None = None) -> dict | None:
        """The clocks counted down locally since the server last sent them."""
        if self.clocks is None:
            return None
        now = time.monotonic() if now is None else now
        shown = dict(self.clocks)
        running = shown.get("running")
        if running and self.status == "playing":
            shown[running] = max(0, shown[running] - int((now - self.clocks_at) * 1000))
        return shown

    @property
    def my_turn(self) -> bool:
        return (self.status == "playing" and self.board is not None
                and self.my_color == self.board.turn)

    def _rebuild(self) -> None:
        board = CamelotBoard(self.start_position)
        for move in self.moves:
            board.play(move)
        self.board = board


@dataclass
class OnlineState:
    name: str
    link: str = "connecting"           # connecting, online, offline
    link_detail: str = ""
    users: list = field(default_factory=list)
    lobby_tables: list = field(default_factory=list)
    lobby_chat: deque = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    tables: dict = field(default_factory=dict)
    last_error: dict | None = None

    def table(self, table_id: str) -> TableView:
        if table_id not in self.tables:
            self.tables[table_id] = TableView(table_id)
        return self.tables[table_id]

    def apply(self, message: dict, now: float | None = None) -> str:
        """Fold one message in; returns what changed ("lobby", "table", "link",
        "error", or "" for messages a screen need not redraw for)."""
        now = time.monotonic() if now is None else now
        kind = message.get("type")
        if kind == "link":
            self.link, self.link_detail = message["state"], message.get("detail", "")
            return "link"
        if kind == "error":
            self.last_error = message
            return "error"
        if kind == "lobby":
            self.users, self.lobby_tables = message["users"], message["tables"]
            return "lobby"
        if kind == "lobby_chat":
            self.lobby_chat.append((message["from"], message["text"]))
            return "lobby"
        if "table" not in message:
            return ""
        view = self.table(message["table"])
        if kind == "table_created":
            view.invite = message.get("invite")
        elif kind == "seated":
            view.my_color, view.token = message["color"], message["token"]
        elif kind == "table":
            for key in ("start_position", "seats", "spectators", "status", "time",
                        "draw_offer", "winner", "reason", "invite"):
                setattr(view, key, message[key])
            view.clocks, view.clocks_at = message["clocks"], now
            view.no_result = message.get("result") == "*"
            if view.board is None or message["moves"] != view.moves:
                view.moves = list(message["moves"])
                view._rebuild()
        elif kind == "moved":
            if message["ply"] == len(view.moves) + 1 and view.board is not None:
                try:
                    view.board.play(message["move"])
                    view.moves.append(message["move"])
                except RoundTableError:    # out of step with the server: the next
                    view.board = None      # "table" message rebuilds the board
                    view.moves = []
            elif message["ply"] > len(view.moves) + 1:
                return ""          # a gap (cannot happen on one connection): wait for "table"
            view.last_move = message
            view.clocks, view.clocks_at = message["clocks"], now
            view.draw_offer = None if view.draw_offer == message["by"] else view.draw_offer
            if message["status"] != "playing":
                view.status, view.winner, view.reason = \
                    "finished", message["winner"], message["reason"]
        elif kind == "chat":
            view.chat.append((message["from"], message["text"]))
        elif kind == "draw_offer":
            view.draw_offer = message["to"]
        elif kind == "draw_declined":
            view.draw_offer = None
        elif kind == "game_over":
            if view.clocks:
                view.clocks = {**view.clocks_now(now), "running": None}
                view.clocks_at = now
            view.status, view.winner, view.reason = "finished", message["winner"], message["reason"]
            view.no_result = message.get("result") == "*"
            view.draw_offer = None
        elif kind == "record":
            view.record_text = message["text"]
        return "table"
