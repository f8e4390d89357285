"""One player's link to a game server, shared by the lobby and the table scenes.

:class:`OnlineSession` wraps :class:`~game.net.bridge.NetBridge` (the client on
its own thread) and, when the player hosts, the server on its own thread
(:class:`~game.server.host.ServerThread`). The scenes call :meth:`poll` from
``update()``: it never waits, so the network never holds up a frame. Every
message is folded into ``state`` (:class:`~game.net.view.OnlineState`: the link,
the lobby and its chat, each table as the server describes it) and handed on to
the scene asking; the session adds the link as one line for a person.
"""
from __future__ import annotations

import socket

from game.net.bridge import NetBridge
from game.net.protocol import DEFAULT_PORT
from game.net.view import OnlineState

from ..store.accounts import keep_account
from ..store.words import N_, _

SET_PHRASES = (N_("Hello!"), N_("Good luck!"), N_("Good game"), N_("Well played!"), N_("Thanks!"),
               N_("One moment, please"))   # said in the player's language


def lan_address() -> str:
    """This computer's address on the local network, as a friend would dial it.
    (A UDP socket "connected" to a documentation address sends nothing; it only
    makes the system choose the outgoing interface.)"""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def normalise_address(text: str) -> str:
    """"host", "host:port" or a ws:// URL → a ws:// URL (the default port if none);
    several, comma-separated (a site's nodes), each so."""
    if "," in text:
        return ",".join(normalise_address(part) for part in text.split(",") if part.strip())
    text = text.strip()
    if not text.startswith(("ws://", "wss://")):
        text = "ws://" + text
    scheme, rest = text.split("://", 1)
    host = rest.split("/", 1)[0]
    if ":" not in host.rsplit("]", 1)[-1]:
        text = f"{scheme}://{host}:{DEFAULT_PORT}"
    return text


def rating_text(seat: dict | None) -> str:
    """A seat's player as the lobby and the table show them: "Alice 1620 ±85",
    "Bob 1500 ±350?" (provisional), "Carol (guest)"."""
    if not seat:
        return "—"
    name = seat.get("name") or "—"
    if seat.get("guest"):
        return _("{name} (guest)").format(name=name)
    rating, rd = seat.get("rating"), seat.get("rd")
    if rating is None:
        return name
    mark = "?" if seat.get("provisional") else ""
    return f"{name} {round(rating)} ±{round(rd or 0)}{mark}"


class OnlineSession:
    """``password`` (with ``register`` for a new account) or a kept ``session``
    token signs in; with neither, the player is a guest called ``name``."""

    def __init__(self, url: str, name: str, host=None, retry_delays=None, *,
                 password: str | None = None, register: bool = False,
                 session: str | None = None) -> None:
        options = {} if retry_delays is None else {"retry_delays": retry_delays}
        self.bridge = NetBridge(url, name, password=password, register=register,
                                session=session, **options)
        self.url, self.name = url, name
        self.host = host                  # a ServerThread when hosting on this computer
        self.state = OnlineState(name)
        self.ever_online = False
        self.grace = 60.0
        self.guest = password is None and session is None
        self.welcome: dict = {}
        self.lobby: dict = {}              # the last ``lobby`` (its page, ``mine``, seeks)
        self.refused: dict | None = None   # a sign-in refused for good (the link's last word)
        self.kept = session                # the session token kept on this computer
        self.keep_problem: str | None = None

    def start(self) -> None:
        self.bridge.start()

    def close(self) -> None:
        self.bridge.close()
        if self.host is not None:
            self.host.stop()
            self.host = None

    @property
    def online(self) -> bool:
        return self.link == "online"

    @property
    def link(self) -> str:
        return self.state.link

    @property
    def detail(self) -> str:
        return self.state.link_detail

    @property
    def users(self) -> list[str]:
        return self.state.users

    @property
    def tables(self) -> list[dict]:
        """The lobby's tables (public, not finished)."""
        return self.state.lobby_tables

    @property
    def mine(self) -> list[dict]:
        """The tables this player created or sits at (every one, whatever the page)."""
        return self.state.pages.mine

    @property
    def lobby_chat(self):
        return self.state.lobby_chat

    def send(self, message: dict) -> int:
        """Queue ``message`` with a fresh id (returned); never waits."""
        return self.bridge.send(message)

    @property
    def ignoring(self) -> list[str]:
        """Whom this player ignores (their chat and seeks do not reach us)."""
        return self.state.ignoring

    def ignore(self, name: str, on: bool = True) -> int:
        return self.send({"type": "ignore" if on else "unignore", "name": name})

    def token(self, table: str) -> str | None:
        seat = self.bridge.tokens.get(table)
        return seat[1] if seat else None

    def seat(self, table: str) -> str | None:
        seat = self.bridge.tokens.get(table)
        return seat[0] if seat else None

    def poll(self) -> list[dict]:
        """What has arrived (never waits), each message folded into ``state`` first."""
        messages = self.bridge.poll()
        for index, message in enumerate(messages):
            try:
                self.state.apply(message)
            except (KeyError, TypeError, ValueError, AttributeError):
                # Not what protocol v1 promises (another server, a newer version):
                # one line for the player, and the message goes no further.
                message = messages[index] = {
                    "type": "error", "code": "bad_message", "local": True,
                    "message": f"the server sent a {str(message.get('type'))[:30]!r} message "
                               "this app cannot read"}
                continue
            kind = message.get("type")
            if kind == "link":
                self.ever_online |= self.link == "online"
                if message.get("final"):
                    self.refused = message
            elif kind == "welcome":
                self.welcome = message
                self.name = message.get("name", self.name)
                self.grace = message.get("grace", self.grace)
                self.guest = bool(message.get("guest"))
                token = message.get("session")
                if token and token != self.kept:      # a new sign-in: kept for next time
                    self.keep_problem = keep_account(self.url, self.name, token)
                    self.kept = token
                if self.guest:         # a guest's ignores last a connection: said again
                    for name in self.state.ignoring:
                        self.ignore(name)
            elif kind == "lobby":
                self.lobby = message
        return messages

    def link_line(self) -> str:
        """The link in one line ("" when all is well)."""
        if self.link == "online":
            return ""
        if self.link == "connecting" and not self.ever_online:
            return _("Connecting to {url}…").format(url=self.url)
        if not self.ever_online:
            if self.detail.startswith("cannot reach") or not self.detail:
                refused = "Connect call failed" in self.detail or "refused" in self.detail
                if refused:
                    return _("Cannot reach {url}: nothing answers there. Retrying…").format(url=self.url)
                return _("Cannot reach {url}: no answer. Retrying…").format(url=self.url)
            return _("{problem} Retrying…").format(problem=_sentence(self.detail))
        return _("Connection lost: retrying… (the game resumes when the server is back)")


def _sentence(text: str) -> str:
    """The bridge's detail as a sentence ("name_taken: that name …" → "That name …")."""
    text = text.strip()
    code, _, rest = text.partition(": ")
    if rest and code.replace("_", "").isalpha() and code.islower():
        text = rest
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") or not text else ".")
