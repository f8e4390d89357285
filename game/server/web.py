"""Pages in a browser, on the game server's own port (docs/http-api.md).

The server hands every opening HTTP request to :meth:`WebSite.process_request`
(the ``websockets`` library's ``process_request`` hook) and every WebSocket to
:meth:`WebSite.handler`: a watcher's stream (``/api/watch/ID``) is served here,
any other WebSocket passes on to the game protocol untouched; a plain GET is
answered here — the
pages (static HTML, CSS and JavaScript from ``game/server/pages``, no build step),
their data as JSON under ``/api/``, finished games' records and ``/healthz``.
GET and HEAD are answered, other methods 405; the library itself refuses a
request line over 8 KiB (414) and closes a connection that sends a body.

Every bad request gets a status and one line saying what was wrong, never a
traceback: unknown paths and ids 404, malformed ones 400. Files are served
from a fixed list read at start, so no path can reach outside it.

A live page follows its table over a WebSocket, ``/api/watch/ID``
(:mod:`game.server.watch`: each change encoded once and broadcast to every watcher),
or, where that fails, by long polling: ``/api/table/ID?since=VERSION`` waits (up
to :data:`WAIT_SECONDS`) until the table differs from the version the page shows.
"""
from __future__ import annotations

import asyncio
import html
import http
import json
import re
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ..net.protocol import ProtocolError, name_field
from .sitedata import TIME_CLASSES, ServerSiteData, SiteBusy, SiteData
from .watch import TableStreams

__all__ = ["WebSite", "SiteData", "ServerSiteData", "PAGES"]

PAGES = Path(__file__).with_name("pages")
MAX_TARGET = 2048          # characters of path + query a request may have
MAX_OFFSET = 1_000_000
WAIT_SECONDS = 5.0         # a long poll's longest wait (the library allows 10 s per request)
WAIT_STEP = 0.05           # how often a waiting request looks at its table
MAX_WAITING = 1000         # long polls held at once; beyond that they are answered at once
MAX_STREAMS = 5000         # watchers' WebSockets (/api/watch/ID) open at once
MAX_PER_ADDRESS = 50       # of those streams, and of the long polls, from one address
WATCH = "/api/watch/"

TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".svg": "image/svg+xml"}
HTML = "text/html; charset=utf-8"
SECURITY = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                       "frame-ancestors 'none'; base-uri 'none'; "
                                       "form-action 'self'"}
TABLE = re.compile(r"T?([0-9]{1,9})")
RECORD = re.compile(r"T?([0-9]{1,9})\.camelot")
# a page's first path segment → its name and title (pages/NAME.html is its body, set
# in pages/layout.html; the page's script reads the rest of the path)
PAGE_NAMES = {"": ("lobby", "Lobby"), "table": ("table", "Table"), "player": ("player", "Player"),
              "leaderboard": ("leaderboard", "Leaderboard"), "archive": ("archive", "Archive")}


METRICS_TYPE = "text/plain; version=0.0.4; charset=utf-8"     # Prometheus's text format


class BadRequest(ValueError):
    """A request we refuse: the HTTP status and one line for a person."""

    def __init__(self, status: http.HTTPStatus, line: str) -> None:
        super().__init__(line)
        self.status = status


def not_found(line: str) -> BadRequest:
    return BadRequest(http.HTTPStatus.NOT_FOUND, line)


def bad(line: str) -> BadRequest:
    return BadRequest(http.HTTPStatus.BAD_REQUEST, line)


def respond(status: http.HTTPStatus, body: bytes, content_type: str, **extra: str) -> Response:
    headers = Headers({"Content-Type": content_type, "Content-Length": str(len(body)),
                       "Cache-Control": "no-cache", "Connection": "close", **SECURITY})
    for key, value in extra.items():
        headers[key.replace("_", "-")] = value
    return Response(status.value, status.phrase, headers, body)


def busy(exc: SiteBusy) -> Response:
    return respond(http.HTTPStatus.SERVICE_UNAVAILABLE, f"{exc}\n".encode(),
                   "text/plain; charset=utf-8", Retry_After="1")


def json_response(data) -> Response:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return respond(http.HTTPStatus.OK, body, "application/json; charset=utf-8")


def load_files(folder: Path = PAGES) -> dict[str, tuple[bytes, str]]:
    """The static files by name, with their content type (read once, served from memory)."""
    return {p.name: (p.read_bytes(), TYPES[p.suffix]) for p in sorted(folder.iterdir())
            if p.suffix in TYPES}


def load_pages(folder: Path = PAGES) -> dict[str, bytes]:
    """Each page (and "error") as a whole HTML document: its body set in the layout."""
    layout = (folder / "layout.html").read_text(encoding="utf-8")
    names = [*PAGE_NAMES.values(), ("error", "Not found")]
    return {name: layout.replace("{{title}}", title).replace("{{page}}", name).replace(
                "{{body}}", (folder / f"{name}.html").read_text(encoding="utf-8")).encode()
            for name, title in names}


class WebSite:
    """Answers plain HTTP GETs from a :class:`SiteData`; lets WebSocket upgrades through."""

    def __init__(self, data: SiteData, folder: Path = PAGES, *, health=None,
                 metrics=None) -> None:
        """``health()``: None while the server can serve, else why not (``/healthz``
        answers 503 with it); ``metrics()``: the Prometheus text ``/metrics`` serves."""
        self.data = data
        self.health, self.metrics = health, metrics
        self.files = load_files(folder)
        self.pages = load_pages(folder)
        self.waiting = 0                         # long polls held now
        self.polls_from: Counter[str] = Counter()    # of those, by the asking address
        self.watches: dict[int, Watch] = {}      # table → its long polls
        self.streams = TableStreams(data)        # table → its watchers' WebSockets

    async def process_request(self, connection, request: Request) -> Response | None:
        address = _address(connection)
        if "websocket" in request.headers.get("Upgrade", "").lower():
            return self.upgrade(request.path, address)
        method = getattr(request, "method", "GET")        # websockets < 14 parsed GETs only
        try:
            if method not in ("GET", "HEAD"):
                raise BadRequest(http.HTTPStatus.METHOD_NOT_ALLOWED,
                                 f"{method[:20]} is not answered here: only GET (and HEAD)")
            response = await self.answer(request.path, address)
        except BadRequest as exc:
            response = self.refusal(exc.status, str(exc), request.path.startswith("/api/"))
        except SiteBusy as exc:
            response = busy(exc)
        except Exception as exc:       # a bug of ours: one line here and there, and we go on
            print(f"server: web: internal error on {request.path[:80]}: {exc!r}",
                  file=sys.stderr, flush=True)
            response = respond(http.HTTPStatus.INTERNAL_SERVER_ERROR,
                               b"the server could not answer that\n", "text/plain; charset=utf-8")
        if method == "HEAD":                     # the headers alone (Content-Length kept)
            response = Response(response.status_code, response.reason_phrase,
                                response.headers, b"")
        return response

    def upgrade(self, target: str, address: str) -> Response | None:
        """A WebSocket: a watcher's stream if its table exists, else the game protocol."""
        path = urlsplit(target).path
        if not path.startswith(WATCH):
            return None                          # the game protocol's connection
        try:
            table_id = _table_id(path[len(WATCH):])
            if self.streams.count() >= MAX_STREAMS:
                raise SiteBusy(f"{MAX_STREAMS} watchers already: try again later")
            if self.streams.from_address[address] >= MAX_PER_ADDRESS:
                raise SiteBusy(f"{MAX_PER_ADDRESS} streams from your address already")
            if self.data.table(table_id) is None:
                raise not_found(f"there is no table {path[len(WATCH):][:40]}")
        except BadRequest as exc:
            return self.refusal(exc.status, str(exc), True)
        except SiteBusy as exc:
            return busy(exc)
        return None

    def handler(self, play):
        """The connection handler for ``serve``: watchers' streams here, the rest to ``play``."""
        async def route(ws) -> None:
            path = urlsplit(ws.request.path).path
            if path.startswith(WATCH):
                await self.streams.serve(ws, _table_id(path[len(WATCH):]), _address(ws))
            else:
                await play(ws)
        return route

    def refusal(self, status: http.HTTPStatus, line: str, api: bool) -> Response:
        if api or status is not http.HTTPStatus.NOT_FOUND:
            return respond(status, f"{line}\n".encode(), "text/plain; charset=utf-8")
        page = self.pages["error"].replace(b"{{message}}", html.escape(line).encode())
        return respond(status, page, HTML)

    async def answer(self, target: str, address: str = "?") -> Response:
        if len(target) > MAX_TARGET:
            raise BadRequest(http.HTTPStatus.REQUEST_URI_TOO_LONG,
                             f"the address is longer than {MAX_TARGET} characters")
        parts = urlsplit(target)
        if not parts.path.startswith("/"):
            raise bad("the address must be a path starting with /")
        query = _query(parts.query)
        try:
            segments = [unquote(s, errors="strict") for s in parts.path.split("/")[1:]]
        except UnicodeDecodeError:
            raise bad("the address is not valid UTF-8") from None
        if segments and segments[-1] == "" and len(segments) > 1:
            segments.pop()                       # /leaderboard/ is /leaderboard
        head, rest = segments[0], segments[1:]
        if head == "healthz" and not rest:
            why = self.health() if self.health else None
            if why:
                return respond(http.HTTPStatus.SERVICE_UNAVAILABLE, f"{why}\n".encode(),
                               "text/plain; charset=utf-8")
            return respond(http.HTTPStatus.OK, b"ok\n", "text/plain; charset=utf-8")
        if head == "metrics" and not rest and self.metrics is not None:
            return respond(http.HTTPStatus.OK, self.metrics().encode(), METRICS_TYPE)
        if head == "static" and len(rest) == 1 and rest[0] in self.files:
            body, kind = self.files[rest[0]]
            return respond(http.HTTPStatus.OK, body, kind)
        if head == "api" and rest:
            return await self.api(rest, query, address)
        if head in PAGE_NAMES:
            self.check_page(head, rest)
            return respond(http.HTTPStatus.OK, self.pages[PAGE_NAMES[head][0]], HTML)
        raise not_found(f"there is no page {parts.path[:80]}")

    def check_page(self, head: str, rest: list[str]) -> None:
        """A page's address must name something that exists (else a 404 page)."""
        if head in ("table", "player"):
            if len(rest) != 1:
                raise not_found(f"the address is /{head}/{'ID' if head == 'table' else 'NAME'}")
            if head == "table" and self.data.table(_table_id(rest[0])) is None:
                raise not_found(f"there is no table {rest[0]}")
            if head == "player" and self.data.player(_player_name(rest[0])) is None:
                raise not_found(f"nobody called {rest[0]!r} has played here")
        elif rest:
            raise not_found(f"there is no page /{'/'.join([head, *rest])[:80]}")

    async def api(self, rest: list[str], query: dict, address: str) -> Response:
        what, args = rest[0], rest[1:]
        offset = _offset(query)
        if what == "lobby" and not args:
            return json_response(self.data.lobby(offset))
        if what == "table" and len(args) == 1:
            table_id = _table_id(args[0])
            if "since" in query:
                await self.wait_for_change(table_id, query["since"], address)
            detail = self.data.table(table_id)
            if detail is None:
                raise not_found(f"there is no table {args[0]}")
            return json_response(detail)
        if what == "player" and len(args) == 1:
            page = self.data.player(_player_name(args[0]), offset)
            if page is None:
                raise not_found(f"nobody called {args[0]!r} has played here")
            return json_response(page)
        if what == "leaderboard" and not args:
            cls = query.get("class") or None
            if cls is not None and cls not in TIME_CLASSES:
                raise bad(f"class must be one of {', '.join(TIME_CLASSES)}")
            return json_response(self.data.leaderboard(cls, offset))
        if what == "archive" and not args:
            player = _player_name(query["player"]) if query.get("player") else None
            return json_response(self.data.archive(player, offset))
        if what == "game" and len(args) == 1:
            match = RECORD.fullmatch(args[0])
            if not match:
                raise bad("a game record's address is /api/game/ID.camelot")
            text = self.data.record(int(match.group(1)))
            if text is None:
                raise not_found(f"there is no finished game {match.group(1)}")
            return respond(http.HTTPStatus.OK, text.encode(), "text/plain; charset=utf-8",
                           Content_Disposition=f'attachment; filename="game-{match.group(1)}'
                                               f'.camelot"')
        raise not_found(f"there is no API address /api/{'/'.join(rest)[:80]}")

    async def wait_for_change(self, table_id: int, seen: str, address: str) -> None:
        """Hold the request until the table's version is no longer ``seen``: every
        request waiting on one table shares one look at it each WAIT_STEP. Beyond
        the limits it is answered at once (the page then asks again a second later)."""
        if self.waiting >= MAX_WAITING or self.polls_from[address] >= MAX_PER_ADDRESS \
                or self.data.table_version(table_id) != seen:
            return
        watch = self.watches.get(table_id)
        if watch is None:
            watch = self.watches[table_id] = Watch(seen)
            asyncio.get_running_loop().create_task(self._look(table_id, watch))
        self.waiting += 1
        watch.waiting += 1
        self.polls_from[address] += 1
        try:
            await asyncio.wait_for(watch.changed.wait(), WAIT_SECONDS)
        except asyncio.TimeoutError:
            pass
        finally:
            self.waiting -= 1
            watch.waiting -= 1
            self.polls_from[address] -= 1
            if not self.polls_from[address]:
                del self.polls_from[address]

    async def _look(self, table_id: int, watch: "Watch") -> None:
        try:
            while True:
                await asyncio.sleep(WAIT_STEP)
                if not watch.waiting:            # each has had its answer or given up
                    break
                try:
                    changed = self.data.table_version(table_id) != watch.version
                except SiteBusy:                 # a stored game: its waiters answer soon
                    changed = True
                if changed:
                    watch.changed.set()
                    break
        finally:
            if self.watches.get(table_id) is watch:
                del self.watches[table_id]


class Watch:
    """The requests waiting for a change of one table (see WebSite.wait_for_change)."""

    def __init__(self, version: str) -> None:
        self.version = version
        self.waiting = 0
        self.changed = asyncio.Event()


def _address(connection) -> str:
    """The peer's IP address (what the per-address limits count)."""
    peer = getattr(connection, "remote_address", None)
    return str(peer[0]) if peer else "?"


def _query(text: str) -> dict[str, str]:
    try:
        pairs = parse_qs(text, keep_blank_values=True, strict_parsing=False,
                         max_num_fields=8, errors="strict")
    except ValueError:
        raise bad("the query string has too many fields or is not valid UTF-8") from None
    for key, values in pairs.items():
        if len(values) > 1:
            raise bad(f"{key[:40]!r} is given more than once")
    return {key: values[0] for key, values in pairs.items()}


def _offset(query: dict) -> int:
    text = query.get("offset", "0") or "0"
    if not text.isascii() or not text.isdigit() or int(text) > MAX_OFFSET:
        raise bad(f"offset must be a whole number from 0 to {MAX_OFFSET}")
    return int(text)


def _table_id(text: str) -> int:
    match = TABLE.fullmatch(text)
    if not match:
        raise bad(f"{text[:40]!r} is not a table id (a number, or T and a number)")
    return int(match.group(1))


def _player_name(text: str) -> str:
    try:
        return name_field(text, "the player's name")
    except ProtocolError as exc:
        raise bad(str(exc)) from None

