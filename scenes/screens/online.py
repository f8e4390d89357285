"""Play online: connect to a server (or host one here), then the lobby.

Connect: a name, a password and the server's address; "Sign in", "Register"
(a new account) or "Play as guest" (casual games only); "Continue as …" when this
computer keeps a sign-in for that server (the session token the server gave,
``scenes.store.accounts``: a player signs in once); a refusal (a wrong password,
a name taken) is one line on this screen. "Host on this computer" starts the same server (:class:`~game.server.host.ServerThread`) in the
background and shows the address to give a friend. The lobby: the tables (sit
at a free seat or watch), who is online, new public or private tables, joining
a private table by its invite code, and the lobby chat. Choosing a seat opens
the table (:class:`~scenes.games.camelot_online.CamelotOnlineScene`) over the
lobby; leaving the table comes back here. Everything the network says is read
in ``update()`` without waiting.
"""
from __future__ import annotations

import os
import random
import time

import pygame

from game.net.bridge import SessionEnd
from game.net.protocol import DEFAULT_PORT
from game.server.host import ServerThread

from ..core.actions import Action, InputEvent
from ..core.overlays import DialogScene, FocusButtons
from ..core.scene import Scene
from ..core.text_field import TextField
from ..core.ui import (FONTS, GOLD, ILLEGAL, INK, INK_DIM, Button, draw_text, felt, layout_row, touch_target,
                       rounded_panel, ui_scale, wrap_text)
from ..games.camelot_online import CamelotOnlineScene, error_line, open_phrases
from ..games.online_ignore import chat_speakers, open_ignore
from ..games.online_session import OnlineSession, lan_address, normalise_address, rating_text
from ..store.accounts import forget_account, load_accounts
from .online_asks import my_games, quick_game, seek_line, show_history
from ..store.settings import data_dir
from ..store.terms import SIDES, term
from ..store.words import N_, _, ngettext

TABLES_SHOWN = 8       # rows at most (fewer when the screen is short)
NAME_LIMIT = 24
TIME_CONTROLS = ((N_("No clock"), None), (N_("10 minutes + 5 s a move"), {"base": 600, "increment": 5}),
                 (N_("5 minutes + 3 s a move"), {"base": 300, "increment": 3}),
                 (N_("30 minutes, no increment"), {"base": 1800, "increment": 0}))
HOST_START_SECONDS = 10.0    # a server that does not listen by then is given up
HOST_STARTING = N_("Starting the server…")
LOOPBACK_ONLY = "ROUNDTABLE_NET_LOOPBACK"   # set (the monkey run): no other address is used


def network_defaults() -> dict:
    """Where "Host on this computer" listens and what "Connect" dials at first. With
    ROUNDTABLE_NET_LOOPBACK=1 (automated runs that press every button) the host listens
    on 127.0.0.1 only, on an ephemeral port, and no address is filled in."""
    if os.environ.get(LOOPBACK_ONLY):
        return {"address": "", "bind": "127.0.0.1", "port": 0}
    return {"address": f"127.0.0.1:{DEFAULT_PORT}", "bind": "0.0.0.0", "port": DEFAULT_PORT}


def parse_invite(text: str) -> tuple[str, str] | None:
    """"T12-ABCD" (or "T12 ABCD", "t12/abcd") → ("T12", "ABCD")."""
    parts = text.replace("/", " ").replace("-", " ").upper().split()
    if len(parts) == 2 and parts[0][:1] == "T" and parts[0][1:].isdigit() and parts[1].isalnum():
        return parts[0], parts[1]
    return None


class SecretField(TextField):
    """A password: typed like any field, drawn as dots."""

    def draw(self, surface: pygame.Surface, scale: float, blink: bool = True) -> None:
        typed = self.text
        self.text = "*" * len(typed)
        try:
            super().draw(surface, scale, blink)
        finally:
            self.text = typed


def describe_table(table: dict) -> str:
    seats = table.get("seats") or {}
    names = [rating_text(seats[c]) if seats.get(c) else (table.get(c) or "—")
             for c in ("white", "black")]
    status = {"waiting": _("waiting"), "playing": ngettext("{n} move", "{n} moves", table.get("moves", 0)).format(
        n=table.get("moves", 0))}.get(table.get("status"), table.get("status", ""))
    watchers = table.get("watchers", 0)
    timed = table.get("time")
    clock = f" · {timed['base'] // 60}+{timed['increment']}" if timed else ""
    seen = _(" · {n} watching").format(n=watchers) if watchers else ""
    rated = _(" · rated") if table.get("rated") else ""
    return f"{table['table']}: {names[0]} v {names[1]} · {status}{clock}{rated}{seen}"


class OnlineScene(Scene):
    def __init__(self, app, address: str | None = None, name: str | None = None,
                 bind: str | None = None, port: int | None = None, db: str | None = None,
                 retry_delays=None) -> None:
        super().__init__(app)
        defaults = network_defaults()
        address = defaults["address"] if address is None else address
        self.bind = defaults["bind"] if bind is None else bind
        self.port = defaults["port"] if port is None else port
        self.db = db
        self.retry_delays = retry_delays
        self.session: OnlineSession | None = None
        self.starting: ServerThread | None = None    # "Host on this computer", still starting
        self.friend_address = ""
        self.joining: str | None = None             # the table whose state we wait for
        self.table_scene: CamelotOnlineScene | None = None
        self.name_field = TextField(app, N_("Your name"), NAME_LIMIT, lambda _: self.enter_pressed(),
                                    name or _("Player {n}").format(n=random.randrange(100, 1000)))
        self.password_field = SecretField(app, N_("Password (none: play as a guest)"), 256,
                                          lambda _: self.enter_pressed())
        self.address_field = TextField(app, N_("Server address"), 200, lambda _: self.enter_pressed(),
                                       address)
        self.kept, problem = load_accounts()
        self.problem = problem or ""          # the last refusal, one line on the connect screen
        self._kept_key = None
        self.invite_field = TextField(app, N_("Invite code (like T3-ABCD), then Enter"), 30, self.join_by_code)
        self.chat_field = TextField(app, N_("Say something to the lobby"), 500, self.lobby_say)
        self.fields = [self.name_field, self.password_field, self.address_field,
                       self.invite_field, self.chat_field]
        self._tables_key = None
        self.seeking: dict | None = None      # our seek as the server lists it, while it waits
        self.seek_asked = False               # a seek sent, not yet listed nor paired
        self._received = 0                    # messages in: what the lobby shows may have changed
        self.signing_out: SessionEnd | None = None   # "Sign out here" telling the server
        self._build_focus()

    # --- lifecycle ---------------------------------------------------------------------
    @property
    def state(self) -> str:
        return "connect" if self.session is None else "lobby"

    def leave(self) -> None:
        for field in self.fields:
            field.deactivate()
        self.disconnect()

    def resume(self) -> None:
        self.table_scene = None
        self.joining = None
        if self.session is not None:
            self.session.send({"type": "lobby"})

    def resize(self, size) -> None:
        super().resize(size)
        self._layout()

    # --- connecting ------------------------------------------------------------------
    def typed_url(self) -> str | None:
        try:
            return normalise_address(self.address_field.text) if self.address_field.text.strip() else None
        except ValueError:
            return None

    def kept_here(self):
        """The sign-in this computer keeps for the address typed (or None)."""
        url = self.typed_url()
        return self.kept.get(url) if url else None

    def enter_pressed(self) -> None:
        """Enter in a field: sign in when a password is typed, else play as a guest."""
        self.connect(how="sign_in" if self.password_field.text else "guest")

    def connect(self, url: str | None = None, how: str = "guest") -> None:
        """``how``: "guest", "sign_in", "register" (name and password typed) or
        "session" (the kept sign-in for this address)."""
        name = " ".join(self.name_field.text.split())
        password = self.password_field.text
        if not name and how != "session":
            self.app.toast(_("Type a name first"), 2.0)
            return
        if how in ("sign_in", "register") and not password:
            self.app.toast(_("Type your password first"), 2.0)
            return
        if url is None and not self.address_field.text.strip():
            self.app.toast(_("Type the server's address first (like 192.168.1.20:8765)"), 2.5)
            return
        try:
            url = url or normalise_address(self.address_field.text)
        except ValueError:
            self.app.toast(_("That is not an address: try 192.168.1.20:8765"), 3.0)
            return
        options = {}
        if how == "session":
            kept = self.kept.get(url)
            if kept is None:
                return
            name, options = kept.name, {"session": kept.session}
        elif how in ("sign_in", "register"):
            options = {"password": password, "register": how == "register"}
        for field in self.fields:
            field.deactivate()
        self.password_field.text = ""            # handed to the link, not kept on screen
        self.problem = ""
        if self.starting is not None:            # Connect pressed while a host was starting
            self.starting.stop()
            self.starting = None
        self.session = OnlineSession(url, name, retry_delays=self.retry_delays, **options)
        self.session.start()
        self._build_focus()

    def sign_out(self) -> None:
        """Sign out here: this computer forgets its sign-in for the address typed, and
        the server is told to end that session (on a thread of its own; said in
        ``update()`` once it answers or cannot be reached)."""
        url = self.typed_url()
        kept = self.kept.pop(url, None) if url else None
        if kept is not None:
            self.signing_out = SessionEnd(url, kept.session).start()
            problem = forget_account(url)
            if problem:
                self.app.toast(problem, 4.0)
        self._build_focus()

    def _signed_out(self) -> None:
        ending, self.signing_out = self.signing_out, None
        if ending.problem:
            self.app.toast(_("Signed out here; the server was not told ({problem})").format(
                problem=ending.problem), 4.0)
        else:
            self.app.toast(N_("Signed out: that sign-in has ended"), 2.5)

    def _refused_for_good(self) -> None:
        """A sign-in the server refused (wrong password, a session ended …): back to
        the connect screen with its one line; an ended session is forgotten here."""
        refused = self.session.refused
        url = self.session.url
        self.disconnect()
        text = str(refused.get("detail", ""))
        code, _sep, sentence = text.partition(": ")
        sentence = sentence or text
        if refused.get("code") == "bad_session" and url in self.kept:
            del self.kept[url]
            forget_account(url)
            sentence = _("The kept sign-in has ended: sign in again")
        self.problem = sentence[:1].upper() + sentence[1:]
        self._build_focus()

    def host_here(self) -> None:
        """Start the server on this computer and join it. Binding takes 10-100 ms,
        so the server starts on its own thread: the button says "Starting the
        server…" and ``update()`` joins once it listens."""
        if self.starting is not None:
            return
        if not self.name_field.text.split():
            self.app.toast(_("Type a name first"), 2.0)
            return
        db = self.db
        if db is None:
            folder = data_dir()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                self.app.toast(_("Cannot host here: no folder for the games ({problem})").format(
                    problem=exc.strerror), 4.0)
                return
            db = str(folder / "server.sqlite3")
        self._ports = [self.port, 0] if self.port else [0]     # the usual port, or any free one
        self._host_db = db
        self._begin_host()
        self._build_focus()

    def _begin_host(self) -> None:
        host = ServerThread(self._host_db, host=self.bind, port=self._ports.pop(0))
        host.begin()
        self.starting = host
        self._starting_until = time.monotonic() + HOST_START_SECONDS

    def _poll_host(self) -> None:
        """The server being started: still starting, listening (join it), or
        refused (the next port, or one line)."""
        host = self.starting
        try:
            port = host.result()
        except OSError as exc:
            host.stop()
            if self._ports:
                self._begin_host()
            else:
                self._host_failed(exc.strerror or str(exc))
            return
        if port is None:
            if time.monotonic() > self._starting_until:
                host.stop()
                self._host_failed(_("the server did not start in time"))
            return
        self.starting = None
        where = "127.0.0.1" if self.bind == "127.0.0.1" else lan_address()
        self.friend_address = f"{where}:{port}"
        self.connect(f"ws://127.0.0.1:{port}")
        if self.session is None:
            host.stop()
            self.friend_address = ""
            self._build_focus()
            return
        self.session.host = host                # stopped with the session

    def _host_failed(self, problem: str) -> None:
        self.starting = None
        self._build_focus()
        self.app.toast(_("Cannot host here: {problem}").format(problem=problem), 4.0)

    def disconnect(self) -> None:
        if self.starting is not None:           # left while the server was starting
            self.starting.stop()
            self.starting = None
        if self.session is not None:
            self.session.close()
            self.session = None
        self.friend_address = ""
        self._build_focus()

    # --- lobby requests ------------------------------------------------------------------
    def create_table(self, private: bool) -> None:
        """A new table (the creator sits as White); first its clock."""
        def create(time_control):
            def run():
                self.app.scenes.remove(dialog)
                self.session.send({"type": "create_table", "private": private, "time": time_control})
            return run
        buttons = [(label, create(control)) for label, control in TIME_CONTROLS]
        buttons.append((N_("Cancel"), lambda: self.app.scenes.remove(dialog)))
        kind = (_("A private table (an invite code): which clock?") if private
                else _("A public table: which clock?"))
        dialog = DialogScene(self.app, N_("New table"), [kind], buttons,
                             on_back=lambda: self.app.scenes.remove(dialog))
        self.app.scenes.push(dialog)

    def open_table(self, table: dict) -> None:
        """A table in the list: sit at a free seat, or watch."""
        tid = table["table"]

        def then(action):
            def run():
                self.app.scenes.remove(dialog)
                action()
            return run
        buttons = [(_("Sit as {side}").format(side=term(SIDES, c)), then(lambda c=c: self.sit(tid, c)))
                   for c in ("white", "black") if not table.get(c) and table.get("status") == "waiting"]
        if self.session.token(tid):
            buttons = [(N_("Back to your seat"), then(lambda: self.take_back(tid)))]
        buttons += [(N_("Watch"), then(lambda: self.watch(tid))),
                    (N_("Cancel"), lambda: self.app.scenes.remove(dialog))]
        dialog = DialogScene(self.app, _("Table {table}").format(table=tid), [describe_table(table)], buttons,
                             on_back=lambda: self.app.scenes.remove(dialog))
        self.app.scenes.push(dialog)

    def take_back(self, table: str) -> None:
        """The seat this player left (its token is kept): sit there again."""
        self.joining = table
        self.session.send({"type": "resume", "table": table, "token": self.session.token(table)})

    def sit(self, table: str, color: str, invite: str | None = None) -> None:
        message = {"type": "sit", "table": table, "color": color}
        if invite:
            message["invite"] = invite
        self.joining = table
        self._invite = invite
        self.session.send(message)

    def watch(self, table: str, invite: str | None = None) -> None:
        message = {"type": "watch", "table": table}
        if invite:
            message["invite"] = invite
        self.joining = table
        self.session.send(message)

    def join_by_code(self, text: str) -> None:
        code = parse_invite(text)
        if code is None:
            self.app.toast(_("An invite code looks like T3-ABCD"), 2.5)
            return
        self.invite_field.text = ""
        self.invite_field.deactivate()
        if self.session.token(code[0]):
            self.take_back(code[0])
        else:
            self.sit(code[0], "black", code[1])

    def ignore_someone(self) -> None:
        """Who spoke in the lobby, then who is online: ignore one, or hear one again."""
        open_ignore(self.app, self.session, chat_speakers(self.session.lobby_chat)
                    + list(self.session.users))

    def lobby_say(self, text: str) -> None:
        self.session.send({"type": "lobby_chat", "text": text})
        self.chat_field.text = ""
        self.chat_field.deactivate()

    # --- what arrives ------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.starting is not None:
            self._poll_host()
        if self.signing_out is not None and self.signing_out.done:
            self._signed_out()
        if self.session is None:
            kept = self.kept_here()
            if kept != self._kept_key:
                self._build_focus()
            return
        messages = self.session.poll()
        self._received += len(messages)
        if self.session.keep_problem:
            self.app.toast(self.session.keep_problem, 4.0)
            self.session.keep_problem = None
        if self.session.refused is not None and not self.session.ever_online:
            self._refused_for_good()
            return
        if self.session.welcome.get("session"):
            self.kept = load_accounts()[0]
        for message in messages:
            if self.table_scene is not None:
                # The table opened earlier in this batch: the rest is the table's.
                self.table_scene.receive(message)
            else:
                self.receive(message)
        if self._rows_key() != self._tables_key:
            self._build_focus()

    def still_look(self) -> object:
        """Drawn again when a message came in or the host it starts is up
        (else only on input): a waiting lobby looks for messages every
        IDLE_WAKE s and presents nothing."""
        return (self.state, self.starting is None, self._received, self.problem)

    # --- the lobby's pages (kept in the session's view: game.net.view.LobbyPages) ----------
    def _room(self) -> int:
        return getattr(self, "rows_fit", TABLES_SHOWN)

    def rows(self) -> tuple[list[dict], list[dict]]:
        """(one's own tables, the public ones of this page shown): own ones first, always."""
        return self.session.state.pages.rows(self._room())

    def _rows_key(self):
        mine, shown = self.rows()
        pages = self.session.state.pages
        return (tuple(describe_table(t) for t in mine + shown), pages.start,
                pages.offset, pages.next, pages.total, self.seeking is None)

    def page_line(self) -> str:
        """"Tables 9–14 of 40, newest first" (and how many are one's own)."""
        pages = self.session.state.pages
        mine, shown = self.rows()
        first, total = pages.first_shown(), pages.total
        yours = _(" · yours first ({n})").format(n=len(pages.mine)) if pages.mine else ""
        if not shown:
            return _("No other open tables") + yours
        return _("Tables {first}–{last} of {total}, newest first").format(
            first=first + 1, last=first + len(shown), total=total) + yours

    def _turn_page(self, request: dict | None) -> None:
        if request is not None:
            self.session.send(request)
        self._build_focus()

    def newer(self) -> None:
        self._turn_page(self.session.state.pages.newer(self._room()))

    def older(self) -> None:
        self._turn_page(self.session.state.pages.older(self._room()))

    def receive(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "table_created":
            # The creator plays White; a private table's code is shown at the table.
            self.sit(message["table"], "white", message.get("invite"))
        elif kind == "table" and message.get("table") == self.joining and self.table_scene is None:
            self.joining = None
            self.table_scene = CamelotOnlineScene(self.app, self.session, message)
            self.app.scenes.push(self.table_scene)
        elif (kind == "seated" and message.get("table") != self.joining
              and (self.seeking is not None or self.seek_asked)):
            # A seek paired: its table follows. (Only then: a sit's own "seated" comes after
            # its table, and must not reopen a table just left.)
            self.joining, self.seeking, self.seek_asked = message["table"], None, False
        elif kind == "seek_waiting":
            self.seeking = message
        elif kind == "seek_cancelled":
            self.seeking, self.seek_asked = None, False
        elif kind == "history":
            show_history(self.app, message)
        elif kind == "error":
            if message.get("refused") == "sit" and message.get("code") == "seat_taken" and self.joining:
                self.watch(self.joining, getattr(self, "_invite", None))   # full: watch instead
                return
            if message.get("refused") in ("sit", "watch"):
                self.joining = None
            if message.get("refused") == "seek":
                self.seek_asked = False
            if message.get("code") != "offline":
                self.app.toast(error_line(message), 3.0)

    # --- input ---------------------------------------------------------------------------
    def _build_focus(self) -> None:
        if self.state == "connect":
            kept = self._kept_key = self.kept_here()
            buttons = [Button("", self.name_field.activate), Button("", self.password_field.activate),
                       Button("", self.address_field.activate),
                       Button(N_("Sign in"), lambda: self.connect(how="sign_in")),
                       Button(N_("Register"), lambda: self.connect(how="register")),
                       Button(N_("Play as guest"), lambda: self.connect(how="guest"))]
            if kept is not None:
                buttons += [Button(_("Continue as {name}").format(name=kept.name), lambda: self.connect(how="session")),
                            Button(N_("Sign out here"), self.sign_out)]
            buttons += [Button(HOST_STARTING if self.starting else N_("Host on this computer"), self.host_here),
                        Button(N_("Back"), lambda: self.app.navigator.open_menu())]
            self.field_buttons = {0: self.name_field, 1: self.password_field, 2: self.address_field}
        else:
            mine, shown = self.rows()
            self._tables_key = self._rows_key()
            buttons = [Button(describe_table(t) + _(" · yours"), lambda t=t: self.open_table(t))
                       for t in mine]
            buttons += [Button(describe_table(t), lambda t=t: self.open_table(t)) for t in shown]
            n = len(buttons)
            buttons += [Button(N_("New table"), lambda: self.create_table(False)),
                        Button(N_("Private table"), lambda: self.create_table(True)),
                        Button(N_("Newer"), self.newer, enabled=self.session.state.pages.has_newer()),
                        Button(N_("Older"), self.older,
                               enabled=self.session.state.pages.has_older(self._room())),
                        Button("", self.invite_field.activate),
                        Button("", self.chat_field.activate),
                        Button(N_("Ignore…"), self.ignore_someone),
                        Button(N_("Quick game") if self.seeking is None else N_("Cancel the seek"),
                               lambda: quick_game(self, TIME_CONTROLS)),
                        Button(N_("My games"), lambda: my_games(self)),
                        Button(N_("Disconnect"), self.disconnect),
                        Button(N_("Main menu"), lambda: self.app.navigator.open_menu())]
            self.table_buttons = n
            self.field_buttons = {n + 4: self.invite_field, n + 5: self.chat_field}
        old = getattr(self, "focus", None)
        self.focus = FocusButtons(buttons)
        if old is not None and old.buttons:
            # A lobby update rebuilds the rows: the keyboard stays on the button it was on.
            label = old.buttons[old.focus].label
            same = [i for i, b in enumerate(buttons) if b.label == label and b.enabled]
            if label and same:
                self.focus.focus = same[0]
            elif len(old.buttons) == len(buttons):
                self.focus.focus = old.focus
        if hasattr(self, "panel"):
            self._layout()

    def handle(self, event: InputEvent) -> None:
        for field in self.fields:
            if field.active and field.handle(event):
                return
        if event.action == Action.POINTER_DOWN:
            for field in self.fields:
                if field.rect is not None and self._field_visible(field) and field.handle(event):
                    return
        if self.focus.handle(event):
            return
        if event.action == Action.BACK:
            if self.state == "lobby":
                self.disconnect()
            else:
                self.app.navigator.open_menu()
        elif event.action == Action.HINT and self.state == "lobby":
            open_phrases(self.app, self.lobby_say, self.chat_field, self.ignore_someone)

    def _field_visible(self, field: TextField) -> bool:
        return field in self.field_buttons.values()

    # --- layout and drawing ----------------------------------------------------------------
    def _layout(self) -> None:
        w, h = self.size
        s = self.scale = ui_scale(self.size)
        target = touch_target(self.size)       # touch mode: rows a finger can hit
        bh, gap = max(int(44 * s), target), int(12 * s)
        if self.state == "connect":
            pw = int(min(w * 0.9, 640 * s))
            buttons = self.focus.buttons
            kept = len(buttons) == 10
            # the heading, three labelled fields, two or three rows of buttons, a line
            rows_h = 3 * (bh + gap + int(24 * s)) + (3 if kept else 2) * (bh + gap)
            self.panel = pygame.Rect(0, 0, pw, int(164 * s) + rows_h)
            self.panel.center = (w // 2, min(h // 2 + int(36 * s), h - self.panel.h // 2))
            x, inner = self.panel.x + int(40 * s), pw - int(80 * s)
            y = self.panel.y + int(100 * s)
            for b in buttons[:3]:                       # the three fields, each under its label
                b.rect = pygame.Rect(x, y, inner, bh)
                y += bh + gap + int(24 * s)
            rows = [buttons[3:6]] + ([buttons[6:8]] if kept else []) + [buttons[-2:]]
            for row in rows:
                width = (inner - gap * (len(row) - 1)) // len(row)
                for i, b in enumerate(row):
                    b.rect = pygame.Rect(x + i * (width + gap), y, width, bh)
                y += bh + gap
            self.problem_y = y + int(4 * s)
        else:
            top, bottom = int(110 * s), h - int(80 * s)
            left_w = int((w - int(60 * s)) * 0.58)
            self.panel = pygame.Rect(int(20 * s), top, left_w, bottom - top)
            self.side = pygame.Rect(self.panel.right + int(20 * s), top,
                                    w - self.panel.right - int(40 * s), bottom - top)
            x = self.panel.x + int(20 * s)
            inner = self.panel.w - int(40 * s)
            y = self.panel.y + int(56 * s)
            buttons = self.focus.buttons
            row_h = max(int(40 * s), target)
            for b in buttons[:self.table_buttons]:
                b.rect = pygame.Rect(x, y, inner, row_h)
                y += row_h + int(6 * s)
            row_y = self.panel.bottom - int(20 * s) - 2 * bh - gap
            new, private, newer, older, invite, chat, ignore, seek, games, leave, menu = \
                buttons[self.table_buttons:]
            # as many rows as fit above the page line (read by rows() at the next build)
            self.rows_fit = max(2, min(TABLES_SHOWN, (row_y - int(40 * s) - (self.panel.y + int(56 * s)))
                                       // (row_h + int(6 * s))))
            # a quarter each, unless a label (a longer language's) needs more: then by need
            four, room = (new, private, newer, older), inner - 3 * gap
            font = FONTS.font(int(bh * 0.5 / FONTS.scale), bold=True)
            need = [font.size(b.label)[0] + int(16 * s) for b in four]
            widths = [room // 4] * 4 if max(need) <= room // 4 else [room * n // sum(need) for n in need]
            for b, width in zip(four, widths):
                b.rect = pygame.Rect(x, row_y, width, bh)
                x += width + gap
            x = self.panel.x + int(20 * s)
            invite.rect = pygame.Rect(x, row_y + bh + gap, inner, bh)
            ignore_w = min(max(int(110 * s), font.size(ignore.label)[0] + int(16 * s)),   # its words
                           self.side.w // 2)
            chat.rect = pygame.Rect(self.side.x + int(16 * s), self.side.bottom - int(16 * s) - bh,
                                    self.side.w - int(32 * s) - ignore_w - gap, bh)
            ignore.rect = pygame.Rect(chat.rect.right + gap, chat.rect.y, ignore_w, bh)
            layout_row([seek, games, leave, menu], (w // 2, h - int(40 * s)), bh, int(20 * s), int(20 * s))
        for index, field in self.field_buttons.items():
            field.rect = self.focus.buttons[index].rect

    def draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        w, h = self.size
        surface.blit(felt(self.size), (0, 0))
        draw_text(surface, _("Play Camelot online"), 52 * s, (w // 2, int(48 * s)), GOLD,
                  anchor="center", shadow=True)
        if self.state == "connect":
            self._draw_connect(surface)
        else:
            self._draw_lobby(surface)
        focused = self.focus.focus
        for i, b in enumerate(self.focus.buttons):
            field = self.field_buttons.get(i)
            if field is not None:
                field.draw(surface, s)
                if i == focused and not field.active and not self.app.input.pointing:
                    pygame.draw.rect(surface, GOLD, b.rect.inflate(int(6 * s), int(6 * s)),
                                     width=max(1, int(2 * s)), border_radius=int(10 * s))
            else:
                b.hot = i == focused
                b.draw(surface, s)

    def _draw_connect(self, surface: pygame.Surface) -> None:
        s = self.scale
        p = self.panel
        surface.blit(rounded_panel(p.size, radius=int(18 * s)), p)
        draw_text(surface, _("Join a friend's server, or host one on this computer."), 24 * s,
                  (p.centerx, p.y + int(34 * s)), INK, anchor="center")
        draw_text(surface, _("Sign in to play rated games; a guest plays casual ones."), 20 * s,
                  (p.centerx, p.y + int(62 * s)), INK_DIM, anchor="center")
        for field, label in ((self.name_field, N_("Your name")), (self.password_field, N_("Password")),
                             (self.address_field, N_("Server address"))):
            draw_text(surface, _(label), 18 * s, (field.rect.x, field.rect.y - int(2 * s)), INK_DIM,
                      anchor="bottomleft")
        if self.problem:
            for i, text in enumerate(wrap_text(self.problem, int(20 * s), p.w - int(60 * s))[:2]):
                draw_text(surface, text, 20 * s, (p.centerx, self.problem_y + i * int(24 * s)),
                          ILLEGAL, anchor="midtop")

    def _draw_lobby(self, surface: pygame.Surface) -> None:
        s = self.scale
        session = self.session
        w = self.size[0]
        line = session.link_line() or _("Connected to {url} as {name}").format(url=session.url, name=session.name)
        draw_text(surface, line, 22 * s, (w // 2, int(86 * s)),
                  ILLEGAL if session.link_line() else INK_DIM, anchor="center")
        p = self.panel
        surface.blit(rounded_panel(p.size, radius=int(16 * s)), p)
        draw_text(surface, _("Tables"), 28 * s, (p.x + int(20 * s), p.y + int(16 * s)), GOLD)
        if self.friend_address:
            draw_text(surface, _("You host: friends join at {address}").format(address=self.friend_address), 22 * s,
                      (p.right - int(20 * s), p.y + int(30 * s)), GOLD, anchor="midright")
        if not self.table_buttons:
            draw_text(surface, _("No open tables yet: start one below."), 22 * s,
                      (p.x + int(20 * s), p.y + int(64 * s)), INK_DIM)
        else:
            last = self.focus.buttons[self.table_buttons - 1].rect
            draw_text(surface, _("{tables}. Choose one to sit down or to watch.").format(tables=self.page_line()), 20 * s,
                      (p.x + int(20 * s), last.bottom + int(10 * s)), INK_DIM)
        if self.seeking is not None:
            draw_text(surface, seek_line(self.seeking), 20 * s,
                      (p.x + int(20 * s), self.focus.buttons[self.table_buttons].rect.y - int(30 * s)), GOLD)
        side = self.side
        surface.blit(rounded_panel(side.size, radius=int(16 * s)), side)
        x, y, width = side.x + int(16 * s), side.y + int(16 * s), side.w - int(32 * s)
        draw_text(surface, _("Online ({n})").format(n=len(session.users)), 26 * s, (x, y), GOLD)
        y += int(34 * s)
        for text in wrap_text(", ".join(session.users) or "—", int(20 * s), width)[:3]:
            draw_text(surface, text, 20 * s, (x, y), INK)
            y += int(24 * s)
        y += int(10 * s)
        draw_text(surface, _("Lobby chat"), 24 * s, (x, y), GOLD)
        y += int(32 * s)
        px, line_h = int(20 * s), int(24 * s)
        lines = [text for who, said in session.lobby_chat
                 for text in wrap_text(f"{who}: {said}", px, width)]
        room = max(0, (self.chat_field.rect.y - int(8 * s) - y) // line_h)
        for text in lines[-room:] if room else []:
            draw_text(surface, text, px, (x, y), INK)
            y += line_h


def open_online(app, **options) -> None:
    """The connect screen (from the menu or the board game's modes)."""
    app.scenes.reset(OnlineScene(app, **options))


__all__ = ["OnlineScene", "open_online", "parse_invite", "describe_table"]
