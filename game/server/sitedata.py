"""What the browser pages show, as plain JSON-able dicts (docs/http-api.md).

:class:`SiteData` is the interface the web layer (:mod:`game.server.web`) reads;
:class:`ServerSiteData` fills it from a running :class:`~game.server.game_server.GameServer`:
its live tables, and its storage for finished ones, accounts and ratings
(``player_profile``, ``leaderboard``, ``archive``). A guest has no account: their
page and archive are what the newest ARCHIVE_SCAN stored tables tell.

Private tables are never shown: a private table's id answers as unknown.
"""
from __future__ import annotations

import time
import zlib
from collections import OrderedDict, deque
from datetime import datetime, timezone
from typing import Protocol

from ..camelot.moves import SQUARE_NAMES
from .accounts import name_key
from ..net.protocol import COLORS
from .ratings import TIME_CLASSES, time_class  # noqa: F401  (web.py reads TIME_CLASSES here)
from .storage import TableRecord
from .table import RESULTS, Table, seat_view

PAGE_ROWS = 50            # games per page of the archive and a player's history
ARCHIVE_SCAN = 200        # without the storage's archive query: tables looked at per page
FINISHED_KEPT = 256       # finished tables' details kept (they never change)
REPLAYS_PER_SECOND = 10   # stored games replayed by the engine (10-100 ms of the loop each)
LIVE_KEPT_SECONDS = 0.05  # a live table's detail is reused this long (its watchers wake together)
LOBBY_ROWS = 100          # tables per page of the lobby
LOBBY_KEPT_SECONDS = 0.5  # the lobby's answer is reused this long


def time_control_text(base: int | None, increment: int = 0) -> str:
    """10+5 (minutes + seconds per move), as game sites write it; untimed."""
    return "untimed" if base is None else f"{base / 60:g}+{increment}"


def iso(stamp: float | None) -> str | None:
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="seconds")


class SiteBusy(Exception):
    """Too much asked at once (the web layer answers 503: try again)."""


class SiteData(Protocol):
    """The pages' data source; None means "no such thing" (a 404)."""

    def lobby(self, offset: int = 0) -> dict: ...
    def table(self, table_id: int) -> dict | None: ...
    def table_version(self, table_id: int) -> str | None: ...
    def player(self, name: str, offset: int = 0) -> dict | None: ...
    def leaderboard(self, time_class: str | None = None, offset: int = 0) -> dict: ...
    def archive(self, player: str | None = None, offset: int = 0) -> dict: ...
    def record(self, table_id: int) -> str | None: ...


def _seated_ids(table: Table) -> set[int]:
    return {id(c) for c in table.seat_conn.values() if c is not None}


class ServerSiteData:
    """:class:`SiteData` read from a game server, in its own event loop."""

    def __init__(self, server) -> None:
        self.server = server
        self._finished: OrderedDict[int, dict] = OrderedDict()
        self._newest = 0           # the highest table number known to exist in storage
        self._replays: deque[float] = deque()      # when stored games were last replayed
        self._live_kept: dict[int, tuple[str, float, dict]] = {}   # id → version, when, detail
        self._lobby_kept: dict[int, tuple[float, dict]] = {}       # offset → when, answer

    @property
    def storage(self):
        return self.server.storage

    # --- one table ---------------------------------------------------------------
    def _live(self, table_id: int) -> Table | None:
        table = self.server.tables.get(f"T{table_id}")
        return None if table is None or table.record.private else table

    def _stored(self, table_id: int) -> TableRecord | None:
        record = self.storage.load_table(table_id)
        return None if record is None or record.private else record

    def _seat(self, record: TableRecord, color: str, ratings: dict) -> dict | None:
        seat = record.seats.get(color)
        if seat is None:
            return None
        return seat_view(seat, ratings.get((seat.account, _class_of(record))))

    def _ratings(self, records) -> dict:
        """(account, time class) → that rating, for the seats of ``records`` that
        belong to accounts (a guest has none)."""
        found: dict = {}
        for record in records:
            for seat in record.seats.values():
                key = (seat.account, _class_of(record))
                if seat.account is not None and key not in found:
                    found[key] = self.storage.rating(*key)
        return found

    def _summary(self, record: TableRecord, table: Table | None, ratings: dict) -> dict:
        spectators = 0
        if table is not None:
            seated = _seated_ids(table)
            spectators = sum(1 for w in table.watchers if id(w) not in seated)
        return {"id": record.id, "status": record.status,
                "white": self._seat(record, "white", ratings),
                "black": self._seat(record, "black", ratings),
                "time_control": time_control_text(record.time_base, record.time_increment),
                "time_class": _class_of(record), "rated": record.rated,
                "ply": len(record.moves), "spectators": spectators,
                "time": ({"base": record.time_base, "increment": record.time_increment}
                         if record.time_base is not None else None),
                "created": iso(record.created)}

    def table(self, table_id: int) -> dict | None:
        live = self._live(table_id)
        if live is not None:
            return self._live_detail(table_id, live)
        if table_id in self._finished:
            self._finished.move_to_end(table_id)
            return self._finished[table_id]
        record = self._stored(table_id)
        if record is None:
            return None
        self._replay_allowed()
        table = Table(record)                     # replayed by the engine
        detail = self._detail(record, table, False)
        if record.status == "finished":
            detail["replay"] = _positions(table.game)
            self._finished[table_id] = detail
            if len(self._finished) > FINISHED_KEPT:
                self._finished.popitem(last=False)
        return detail

    def _live_detail(self, table_id: int, table: Table) -> dict:
        """The detail of a table in play; the same for every watcher woken by a move
        (its clocks at most LIVE_KEPT_SECONDS old)."""
        version, now = self._version(table.record, table), time.monotonic()
        kept = self._live_kept.get(table_id)
        if kept is not None and kept[0] == version and now - kept[1] < LIVE_KEPT_SECONDS:
            return kept[2]
        if len(self._live_kept) > 2 * len(self.server.tables) + 16:
            self._live_kept.clear()               # forget tables that closed
        detail = self._detail(table.record, table, True)
        self._live_kept[table_id] = (version, now, detail)
        return detail

    def _replay_allowed(self) -> None:
        """Replaying a stored game holds the server's loop (the engine checks every
        move again), so a flood of distinct old games may not stall the live ones."""
        now = time.monotonic()
        while self._replays and now - self._replays[0] > 1.0:
            self._replays.popleft()
        if len(self._replays) >= REPLAYS_PER_SECOND:
            raise SiteBusy("too many old games asked for at once: try again in a second")
        self._replays.append(now)

    def _detail(self, record: TableRecord, table: Table, live: bool) -> dict:
        summary = self._summary(record, table if live else None,
                                self._ratings([record]))
        clocks = table.clocks(time.monotonic()) if live else None
        if clocks is None and record.clocks:       # a stored game: as they stood at its end
            clocks = {**record.clocks, "running": None}
        last = table.game.last_move
        seats = {c: (table.seat_conn[c] is not None) if live and c in record.seats else None
                 for c in COLORS}
        return {**summary, "start": record.start_position, "moves": list(record.moves),
                "clocks": {"white": _seconds(clocks, "white"), "black": _seconds(clocks, "black"),
                           "running": clocks["running"] if clocks else None},
                "result": table.result(), "reason": record.reason or None,
                "position": table.game.position_text(), "turn": table.game.turn,
                "winner": record.winner, "draw_offer": table.draw_offer if live else None,
                "present": seats,
                "last_move": _move_squares(last) if last else None,
                "version": self._version(record, table if live else None)}

    def _version(self, record: TableRecord, table: Table | None) -> str:
        """Changes whenever anything a watcher sees changes (clocks aside: they run)."""
        seats = tuple((c, s.name) for c, s in sorted(record.seats.items()))
        presence = tuple(v is not None for v in table.seat_conn.values()) if table else ()
        watchers = len(table.watchers) if table else 0
        offer = table.draw_offer if table else None
        key = repr((record.status, len(record.moves), seats, presence, watchers, offer,
                    record.winner, record.reason))
        return format(zlib.crc32(key.encode()), "08x")

    def table_version(self, table_id: int) -> str | None:
        live = self._live(table_id)
        if live is not None:
            return self._version(live.record, live)
        detail = self.table(table_id)
        return None if detail is None else detail["version"]

    def record(self, table_id: int) -> str | None:
        live = self._live(table_id)
        record = live.record if live else self._stored(table_id)
        if record is None or record.status != "finished":
            return None
        return record.record_text

    # --- lists ---------------------------------------------------------------------
    def lobby(self, offset: int = 0) -> dict:
        """The open public tables, newest first, LOBBY_ROWS a page (the answer is
        reused for LOBBY_KEPT_SECONDS: every open lobby page asks every few seconds)."""
        now = time.monotonic()
        kept = self._lobby_kept.get(offset)
        if kept is not None and now - kept[0] < LOBBY_KEPT_SECONDS:
            return kept[1]
        tables = sorted((t for t in self.server.tables.values()
                         if not t.record.private and t.record.status != "finished"),
                        key=lambda t: -t.record.id)
        page = tables[offset:offset + LOBBY_ROWS]
        ratings = self._ratings([t.record for t in page])
        answer = {"tables": [self._summary(t.record, t, ratings) for t in page],
                  "online": len(self.server.names), "open": len(tables),
                  "next": offset + LOBBY_ROWS if offset + LOBBY_ROWS < len(tables) else None}
        if len(self._lobby_kept) > 64:
            self._lobby_kept.clear()
        self._lobby_kept[offset] = (now, answer)
        return answer

    def _game_row(self, record: TableRecord) -> dict:
        names = {c: record.seats[c].name if c in record.seats else "?" for c in COLORS}
        return {"id": record.id, "white": names["white"], "black": names["black"],
                "result": _result(record), "reason": record.reason or None,
                "rated": record.rated, "time_class": _class_of(record),
                "ended": None, "moves": len(record.moves), "created": iso(record.created)}

    def _newest_id(self) -> int:
        """The highest table number in storage (numbers are given in order, from 1)."""
        low = max([self._newest] + [t.record.id for t in self.server.tables.values()])
        step = 1
        while self.storage.load_table(low + step) is not None:
            low, step = low + step, step * 2
        high = low + step
        while high - low > 1:
            middle = (low + high) // 2
            if self.storage.load_table(middle) is not None:
                low = middle
            else:
                high = middle
        self._newest = low
        return low

    def archive(self, player: str | None = None, offset: int = 0) -> dict:
        if player is None or self._account(player) is not None:
            return self.storage.archive(player, offset)
        # A guest's games: names of guests are not kept apart in the store, so the
        # newest tables are looked through for the name.
        rows, skipped, more = [], 0, False
        number = self._newest_id()
        for number in range(number, max(0, number - ARCHIVE_SCAN), -1):
            record = self._stored(number)
            if record is None or record.status != "finished" or not record.moves:
                continue
            if player is not None and player not in (s.name for s in record.seats.values()):
                continue
            if skipped < offset:
                skipped += 1
                continue
            if len(rows) == PAGE_ROWS:
                more = True
                break
            rows.append(self._game_row(record))
        return {"games": rows, "next": offset + PAGE_ROWS if more else None}

    def _account(self, name: str):
        try:
            return self.storage.find_account(name_key(name))
        except ValueError:                          # not a name an account could have
            return None

    def player(self, name: str, offset: int = 0) -> dict | None:
        page = self.storage.player_profile(name, offset)
        if page is not None:
            return page
        games = self.archive(name, offset)          # a guest, or a storage without accounts
        seated = any(s.name == name for t in self.server.tables.values()
                     if not t.record.private for s in t.record.seats.values())
        if not games["games"] and not seated and name not in self.server.names:
            return None
        return {"name": name, "guest": True, "created": None, "ratings": {},
                "online": name in self.server.names, **games}

    def leaderboard(self, time_class: str | None = None, offset: int = 0) -> dict:
        return self.storage.leaderboard(time_class, offset)


def _positions(game) -> list[dict]:
    """Each ply of a finished game (the first at index 0): the position after it
    and the move's path and captures — for stepping through it. Read from the
    engine's own record of the game, undoing it move by move."""
    plies = []
    for move in reversed(game.moves_played):
        plies.append({"position": game.position_text(), **_move_squares(move)})
        game.undo()
    return plies[::-1]


def _move_squares(move) -> dict:
    return {"path": [SQUARE_NAMES[s] for s in move.path],
            "captures": sorted(SQUARE_NAMES[s] for s in move.captured)}


def _class_of(record: TableRecord) -> str:
    if record.time_class:
        return record.time_class
    return time_class(None if record.time_base is None
                      else (record.time_base, record.time_increment))


def _seconds(clocks: dict | None, color: str) -> float | None:
    if not clocks or clocks.get(color) is None:
        return None
    return round(clocks[color] / 1000, 1)


def _result(record: TableRecord) -> str | None:
    """As Table.result, without replaying the game."""
    if record.status != "finished":
        return None
    return "*" if record.abandoned else RESULTS[record.winner]
