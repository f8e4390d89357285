"""What an online screen shows, kept up to date from the server's messages.

The app's lobby and table screens (on top of :mod:`game.net.bridge`) feed every
message they poll into :meth:`OnlineState.apply` and draw from its views; no
pygame here, and no rule: a table's view keeps the start position and the
moves as the server sent them. The one engine board of a game is the table
screen's, fed from the same messages (it checks every move as it plays it).

    state = OnlineState("Alice")
    for message in link.poll():
        changed = state.apply(message)       # "lobby", "table", "link", "error" …
    table = state.tables["T3"]
    table.moves, table.clocks_now(), table.chat, table.my_color
    mine, shown = state.pages.rows(room=8)   # one's own tables first, then a page
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

CHAT_LINES = 200
MINE_SHOWN = 3         # one's own tables, listed first whatever the page (``mine``)


@dataclass
class LobbyPages:
    """The lobby's tables as a screen pages through them: one's own (the server's
    ``mine``: every table one created or sits at) first, always; then the server's
    page of public tables, newest first, ``room`` rows at a time. Past the end of
    a server page, :meth:`older` and :meth:`newer` give the ``lobby`` request for
    the next one (the offsets gone past are kept to come back)."""
    mine: list = field(default_factory=list)
    tables: list = field(default_factory=list)     # this server page (public, not finished)
    offset: int = 0                                # where the server page starts
    next: int | None = None                        # the next server page's offset
    total: int = 0                                 # public tables in all
    start: int = 0                                 # the first row shown of the server page
    back: list = field(default_factory=list)       # server pages gone past (for "Newer")

    def fold(self, message: dict) -> None:
        self.mine = list(message.get("mine") or [])
        self.tables = list(message["tables"])
        self.offset = message.get("offset") or 0
        self.next = message.get("next")
        self.total = message.get("total", len(self.tables))

    def own(self) -> list[dict]:
        return self.mine[:MINE_SHOWN]

    def public(self) -> list[dict]:
        """The server page, less the own tables listed above it."""
        ids = {t["table"] for t in self.own()}
        return [t for t in self.tables if t["table"] not in ids]

    def rows(self, room: int) -> tuple[list[dict], list[dict]]:
        """(one's own tables, the public ones shown) in ``room`` rows at most
        (at least one public row)."""
        mine, public = self.own(), self.public()
        self.start = min(self.start, max(0, len(public) - 1))
        return mine, public[self.start:self.start + max(1, room - len(mine))]

    def first_shown(self) -> int:
        """The place (from 0, among all public tables) of the first row shown."""
        return self.offset + self.start

    def has_newer(self) -> bool:
        return self.start > 0 or bool(self.back)

    def has_older(self, room: int) -> bool:
        _, shown = self.rows(room)
        return self.start + len(shown) < len(self.public()) or self.next is not None

    def newer(self, room: int) -> dict | None:
        """Back a screenful: within the server page, or the ``lobby`` request for
        the page before (None when nothing is to be sent)."""
        if self.start > 0:
            self.start = max(0, self.start - max(1, room - len(self.own())))
        elif self.back:
            self.start = 0
            return {"type": "lobby", "offset": self.back.pop()}
        return None

    def older(self, room: int) -> dict | None:
        """On a screenful: within the server page, or the request for the next one."""
        _, shown = self.rows(room)
        if self.start + len(shown) < len(self.public()):
            self.start += len(shown)
        elif self.next is not None:
            self.back.append(self.offset)
            self.start = 0
            return {"type": "lobby", "offset": self.next}
        return None


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


@dataclass
class OnlineState:
    name: str
    link: str = "connecting"           # connecting, online, offline
    link_detail: str = ""
    users: list = field(default_factory=list)
    pages: LobbyPages = field(default_factory=LobbyPages)
    lobby_chat: deque = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    tables: dict = field(default_factory=dict)
    last_error: dict | None = None
    # Whom this player ignores (names as shown): an account's list comes with each
    # welcome; a guest's is kept here across reconnections (the app sends it again).
    ignoring: list = field(default_factory=list)

    def ignores(self, name: str) -> bool:
        return name.casefold() in {n.casefold() for n in self.ignoring}

    def _fold_ignoring(self, name: str, on: bool) -> None:
        """An ignore answered: the list, and the player's lines gone from every chat
        (an unignore brings none back: the server did not send them)."""
        self.ignoring = [n for n in self.ignoring if n.casefold() != name.casefold()]
        if on:
            self.ignoring = sorted(self.ignoring + [name], key=str.casefold)
            for chat in [self.lobby_chat] + [view.chat for view in self.tables.values()]:
                kept = [line for line in chat if line[0].casefold() != name.casefold()]
                chat.clear()
                chat.extend(kept)

    @property
    def lobby_tables(self) -> list:
        """The server's page of public tables (not finished), newest first."""
        return self.pages.tables

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
        if kind == "welcome":
            if not message.get("guest"):
                self.ignoring = list(message.get("ignoring") or [])
            return "lobby"
        if kind == "ignoring":
            self._fold_ignoring(message["name"], bool(message["on"]))
            return "lobby"
        if kind == "lobby":
            self.users = message["users"]
            self.pages.fold(message)
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
            view.moves = list(message["moves"])
        elif kind == "moved":
            if message["ply"] == len(view.moves) + 1:
                view.moves.append(message["move"])
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
