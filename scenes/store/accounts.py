"""The online accounts this computer is signed in to, so a player signs in once.

``accounts.json`` in the user's data folder: ``{version, servers: {url: {name,
session}}}`` — per server address, the account's name and the session token
the server gave at sign-in (never the password). Written atomically (a private
file: the temp file is created 0600 and renamed); a damaged file or one from a
newer version is moved aside and the player is told in one line.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from .files import load_versioned, write_json_atomic
from .settings import data_dir
from .words import N_, _

ACCOUNTS_VERSION = 1
ACCOUNTS_MAX_BYTES = 64 * 1024
MAX_SERVERS = 50              # the oldest server's sign-in is let go beyond this
TOKEN_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class KeptAccount(NamedTuple):
    name: str
    session: str


def accounts_path() -> Path:
    return data_dir() / "accounts.json"


def _valid(entry) -> KeptAccount | None:
    if not isinstance(entry, dict):
        return None
    name, session = entry.get("name"), entry.get("session")
    if (isinstance(name, str) and 0 < len(name) <= 64 and isinstance(session, str)
            and 8 <= len(session) <= 128 and set(session) <= TOKEN_CHARS):
        return KeptAccount(name, session)
    return None


def load_accounts() -> tuple[dict[str, KeptAccount], str | None]:
    """The kept sign-ins by server address, and a one-line message if the file
    could not be used (a damaged one is set aside). Entries that are not a name
    and a token are dropped."""
    data, message = load_versioned(accounts_path(), ACCOUNTS_VERSION, N_("Online accounts file"),
                                   ACCOUNTS_MAX_BYTES, N_("signing in afresh, "))
    servers = (data or {}).get("servers")
    if not isinstance(servers, dict):
        return {}, message
    kept = {url: _valid(entry) for url, entry in servers.items() if isinstance(url, str)}
    return {url: entry for url, entry in kept.items() if entry is not None}, message


def _write(kept: dict[str, KeptAccount]) -> str | None:
    servers = {url: {"name": a.name, "session": a.session}
               for url, a in list(kept.items())[-MAX_SERVERS:]}
    try:
        write_json_atomic(accounts_path(), {"version": ACCOUNTS_VERSION, "servers": servers})
    except (OSError, ValueError) as exc:
        return _("Could not keep the sign-in: {problem}").format(problem=getattr(exc, "strerror", None) or exc)
    return None


def keep_account(url: str, name: str, session: str) -> str | None:
    """Keep (or replace) the sign-in for ``url``; a message if it could not be written."""
    kept, _ = load_accounts()
    kept.pop(url, None)
    kept[url] = KeptAccount(name, session)
    return _write(kept)


def forget_account(url: str) -> str | None:
    """Sign out on this computer: the server's session token for ``url`` is dropped."""
    kept, _ = load_accounts()
    if kept.pop(url, None) is None:
        return None
    return _write(kept)


__all__ = ["KeptAccount", "accounts_path", "load_accounts", "keep_account", "forget_account"]
