"""The wire protocol of the game server: JSON objects, one per WebSocket text frame.

Every message is an object with a ``type``. A client's message may carry an
``id`` (a whole number) that the server echoes as ``re`` in its direct reply or
error, so a client can pair them. :func:`parse_client_message` checks a frame
completely — size, JSON, type, every field's kind and length, no unknown
field — and raises :class:`ProtocolError` (code + sentence) for anything else;
the server turns that into an ``error`` message and changes nothing.

docs/protocol.md describes every message; :data:`CLIENT_MESSAGES` is the
machine-readable half of it (what a client may send).
"""
from __future__ import annotations

import json
import re
import unicodedata

DEFAULT_PORT = 8765       # where a server listens and a client dials unless told
GRACE_SECONDS = 60.0     # how long a dropped player's seat is kept by default
ABANDON_SECONDS = 24 * 3600.0   # a table nobody sits at for this long is closed

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4096      # a client frame longer than this is refused (error, kept open)
MAX_FRAME_BYTES = 65536       # longer than this the transport closes the connection (1009)
MAX_NAME = 24
MAX_CHAT = 500
MAX_MOVE = 120                # the longest legal move path is far shorter
MAX_POSITION = 200
MAX_TIME_BASE = 3 * 3600      # seconds
MAX_INCREMENT = 600
MAX_PASSWORD = 256
MAX_REASON = 200
MAX_OFFSET = 1_000_000
MAX_RATING = 4000
MAX_MUTE_MINUTES = 30 * 24 * 60
TIME_CLASS_NAMES = ("blitz", "rapid", "classical", "untimed")
COLORS = ("white", "black")

TABLE_ID = re.compile(r"T[0-9]{1,9}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
INVITE = re.compile(r"[A-Z0-9]{4,16}")


class ProtocolError(ValueError):
    """A message the server refuses: ``code`` is the machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.re_id: int | None = None      # the refused message's id, when it had a good one
        self.refused: str | None = None    # the refused message's type, when known


# --- field kinds: each checks one value and returns it (normalised) or raises ---------------

def _text(value, field: str, longest: int) -> str:
    if not isinstance(value, str):
        raise ProtocolError("bad_field", f"{field} must be text")
    if not value.strip():
        raise ProtocolError("bad_field", f"{field} must not be empty")
    if len(value) > longest:
        raise ProtocolError("bad_field", f"{field} is longer than {longest} characters")
    for ch in value:
        # Cc: control characters; Cf: invisible format characters (bidi overrides,
        # zero-width joiners) that can disguise a name or garble a chat line.
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            raise ProtocolError("bad_field", f"{field} contains a control or invisible "
                                             f"character (U+{ord(ch):04X})")
    return value


def name_field(value, field: str = "name") -> str:
    value = _text(value, field, MAX_NAME)
    if value != value.strip() or "  " in value:
        raise ProtocolError("bad_field", f"{field} must not start or end with spaces "
                                         f"nor hold two spaces in a row")
    return value


def chat_field(value, field: str = "text") -> str:
    return _text(value, field, MAX_CHAT)


def _pattern(regex: re.Pattern, what: str):
    def check(value, field: str) -> str:
        if not isinstance(value, str) or not regex.fullmatch(value):
            raise ProtocolError("bad_field", f"{field} is not {what}")
        return value
    return check


def _bounded_text(longest: int):
    def check(value, field: str) -> str:
        if not isinstance(value, str) or not value or len(value) > longest:
            raise ProtocolError("bad_field", f"{field} must be text of 1-{longest} characters")
        return value
    return check


def _color(value, field: str) -> str:
    if value not in COLORS:
        raise ProtocolError("bad_field", f"{field} must be 'white' or 'black'")
    return value


def _bool(value, field: str) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError("bad_field", f"{field} must be true or false")
    return value


def _whole(value, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError("bad_field", f"{field} must be a whole number from {low} to {high}")
    return value


def _time_control(value, field: str):
    """``null`` (untimed) or ``{"base": seconds, "increment": seconds}``."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"base", "increment"}:
        raise ProtocolError("bad_field", f"{field} must be null or {{\"base\": s, \"increment\": s}}")
    return {"base": _whole(value["base"], f"{field}.base", 1, MAX_TIME_BASE),
            "increment": _whole(value["increment"], f"{field}.increment", 0, MAX_INCREMENT)}


def _version(value, field: str) -> int:
    if value != PROTOCOL_VERSION:
        raise ProtocolError("bad_version", f"this server speaks protocol version "
                                           f"{PROTOCOL_VERSION}, not {value!r}")
    return value


def _password(value, field: str) -> str:
    # Never echoed: the refusal names the field, not the value.
    if not isinstance(value, str) or not value or len(value) > MAX_PASSWORD:
        raise ProtocolError("bad_field", f"{field} must be text of 1-{MAX_PASSWORD} characters")
    return value


def _offset(value, field: str) -> int:
    return _whole(value, field, 0, MAX_OFFSET)


def _rating_bound(value, field: str) -> int:
    return _whole(value, field, 0, MAX_RATING)


def _minutes(value, field: str) -> int:
    return _whole(value, field, 1, MAX_MUTE_MINUTES)


def _time_class(value, field: str) -> str:
    if value not in TIME_CLASS_NAMES:
        raise ProtocolError("bad_field", f"{field} must be one of {', '.join(TIME_CLASS_NAMES)}")
    return value


_table = _pattern(TABLE_ID, "a table id (T and digits)")
_token = _pattern(TOKEN, "a seat token")
_session = _pattern(TOKEN, "a session token")
_reason = _bounded_text(MAX_REASON)
_invite = _pattern(INVITE, "an invite code")

# type → {field: (check, required)}; "id" is allowed on every message.
_SEAT = {"table": (_table, True), "token": (_token, True)}
CLIENT_MESSAGES: dict[str, dict[str, tuple]] = {
    # Who you are: one of these first (hello with a name = a guest).
    "hello": {"version": (_version, True), "name": (name_field, False),
              "session": (_session, False)},
    "register": {"version": (_version, True), "name": (name_field, True),
                 "password": (_password, True)},
    "sign_in": {"version": (_version, True), "name": (name_field, True),
                "password": (_password, True)},
    "change_password": {"old": (_password, True), "new": (_password, True)},
    "sign_out": {"session": (_session, False)},
    "lobby": {"offset": (_offset, False)},
    "lobby_chat": {"text": (chat_field, True)},
    "create_table": {"private": (_bool, False), "time": (_time_control, False),
                     "position": (_bounded_text(MAX_POSITION), False), "rated": (_bool, False)},
    "watch": {"table": (_table, True), "invite": (_invite, False)},
    "sit": {"table": (_table, True), "color": (_color, True), "invite": (_invite, False)},
    "stand": {"table": (_table, True), "token": (_token, True)},
    "leave": {"table": (_table, True)},
    "resume": {"table": (_table, True), "token": (_token, True)},
    "start": {"table": (_table, True), "token": (_token, True)},
    "move": {"table": (_table, True), "token": (_token, True),
             "move": (_bounded_text(MAX_MOVE), True)},
    "chat": {"table": (_table, True), "text": (chat_field, True)},
    "offer_draw": {"table": (_table, True), "token": (_token, True)},
    "accept_draw": {"table": (_table, True), "token": (_token, True)},
    "decline_draw": {"table": (_table, True), "token": (_token, True)},
    "resign": {"table": (_table, True), "token": (_token, True)},
    "claim": {"table": (_table, True), "token": (_token, True)},
    "record": {"table": (_table, True), "token": (_token, False), "invite": (_invite, False)},
    "rematch": _SEAT,
    "takeback": _SEAT,
    "accept_takeback": _SEAT,
    "decline_takeback": _SEAT,
    "seek": {"time": (_time_control, False), "rated": (_bool, False),
             "min_rating": (_rating_bound, False), "max_rating": (_rating_bound, False)},
    "cancel_seek": {},
    "history": {"name": (name_field, True), "offset": (_offset, False)},
    "archive": {"player": (name_field, False), "offset": (_offset, False)},
    "leaderboard": {"time_class": (_time_class, False), "offset": (_offset, False)},
    "ignore": {"name": (name_field, True)},
    "unignore": {"name": (name_field, True)},
    "mod_mute": {"name": (name_field, True), "minutes": (_minutes, True)},
    "mod_ban": {"name": (name_field, True), "reason": (_reason, False)},
    "mod_unban": {"name": (name_field, True)},
    "mod_close": {"table": (_table, True), "reason": (_reason, False)},
}
# The messages that may come before the client is someone (all of them say who).
# (and sign_out with a kept ``session``: it ends that session without signing in)
IDENTIFYING = ("hello", "register", "sign_in", "sign_out")

# What the server sends (documented in docs/protocol.md; listed for the client's checks).
SERVER_MESSAGES = ("welcome", "lobby", "lobby_chat", "table_created", "table", "seated",
                   "moved", "chat", "draw_offer", "draw_declined", "game_over", "record",
                   "password_changed", "signed_out", "takeback_offer", "takeback_declined",
                   "taken_back", "seek_waiting", "seek_cancelled", "history", "archive",
                   "leaderboard", "ignoring", "moderated", "error")


def parse_client_message(frame) -> dict:
    """One client frame → a checked message dict. Raises ProtocolError."""
    if isinstance(frame, bytes):
        raise ProtocolError("bad_message", "send JSON text frames, not binary ones")
    if len(frame) > MAX_MESSAGE_BYTES or len(frame.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(frame)
    except ValueError:
        raise ProtocolError("bad_json", "the message is not valid JSON") from None
    except RecursionError:
        raise ProtocolError("bad_json", "the JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a 'type' (text)")
    fields = CLIENT_MESSAGES.get(kind)
    if fields is None:
        shown = kind if len(kind) <= 30 and kind.isprintable() else kind[:30].encode("unicode_escape").decode()
        raise ProtocolError("unknown_type", f"unknown message type {shown!r}")
    message = {"type": kind}
    if "id" in data:
        message["id"] = _whole(data["id"], "id", 0, 2**31 - 1)
    try:
        for key in data:
            if key not in fields and key not in ("type", "id"):
                shown = key[:30].encode("unicode_escape").decode()
                raise ProtocolError("bad_field", f"{kind} has no field {shown!r}")
        for key, (check, required) in fields.items():
            if key in data:
                message[key] = check(data[key], key)
            elif required:
                raise ProtocolError("bad_field", f"{kind} needs '{key}'")
    except ProtocolError as exc:
        exc.re_id, exc.refused = message.get("id"), kind
        raise
    return message


def encode(message: dict) -> str:
    """A message dict → its frame (compact JSON, non-ASCII kept readable)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def error(code: str, text: str, re_id: int | None = None, refused: str | None = None) -> dict:
    """The error message the server sends for a refusal."""
    message = {"type": "error", "code": code, "message": text}
    if re_id is not None:
        message["re"] = re_id
    if refused is not None:
        message["refused"] = refused
    return message
