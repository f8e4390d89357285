"""``python -m game serve``: its arguments and entry point.

Kept apart from server.py so that building the command line parser does not
import the network library.
"""
from __future__ import annotations

import sys
from functools import partial

from ..parsing import parse_float, parse_int
from .limits import Limits
from ..net.protocol import ABANDON_SECONDS, DEFAULT_PORT, GRACE_SECONDS

DEFAULT_DB = "roundtable-server.sqlite3"
MAX_GRACE = 7 * 24 * 3600.0
MAX_ABANDON = 365 * 24 * 3600.0


def add_serve_parser(sub, number) -> None:
    """The ``serve`` subcommand; ``number(what, low, high, kind)`` is game.cli's
    argparse type for numbers read through game.parsing."""
    s = sub.add_parser("serve", help="run the network game server (no display)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=number("--port", 0, 65535, parse_int), default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; 0 = any free port)")
    s.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file (default {DEFAULT_DB})")
    s.add_argument("--grace", type=number("--grace", 0.0, MAX_GRACE, parse_float),
                   default=GRACE_SECONDS,
                   help="seconds a dropped player keeps the seat before the opponent may claim")
    s.add_argument("--abandon-after", metavar="SECONDS",
                   type=number("--abandon-after", 0.0, MAX_ABANDON, partial(parse_float, low_open=True)),
                   default=ABANDON_SECONDS,
                   help="close a table at which no player has sat for this long "
                        "(default 86400: 24 h; no winner, it leaves the lobby)")
    s.add_argument("--stats", metavar="FILE",
                   help="on exit, write the time each move took the server here (benchmarks)")
    s.add_argument("--waiting-close", metavar="SECONDS",
                   type=number("--waiting-close", 1.0, MAX_ABANDON, parse_float),
                   default=Limits.waiting_close,
                   help="close a table waiting for players that nobody sits at, once its "
                        "creator has gone, after this long (default 120)")
    s.add_argument("--tables-per-player", metavar="N",
                   type=number("--tables-per-player", 1, 1000, parse_int),
                   default=Limits.waiting_per_player,
                   help="tables one account (or guest address) may have waiting (default 5)")
    s.add_argument("--connections-per-address", metavar="N",
                   type=number("--connections-per-address", 1, 100_000, parse_int),
                   default=Limits.connections_per_address,
                   help="connections one address may hold open (default 20)")
    s.add_argument("--store", metavar="ADDRESS",
                   help="the store: postgresql://… (shared by several nodes) or a SQLite file "
                        "(default: --db)")
    s.add_argument("--bus", metavar="ADDRESS",
                   help="redis://host:port/db: the bus between nodes (default: none, one node)")
    s.add_argument("--node", metavar="NAME",
                   help="this node's name among the nodes (default: host name and process id)")
    s.add_argument("--migrate", action="store_true",
                   help="create or upgrade the --store's schema, then exit")
    s.add_argument("--make-moderator", metavar="NAME",
                   help="make the account NAME a moderator, then exit (no server runs)")
    s.add_argument("--remove-moderator", metavar="NAME",
                   help="take moderation away from the account NAME, then exit")


def set_moderator(address: str, name: str, moderator: bool) -> int:
    """The moderator flag of an account, from the server's command line, in the
    store ``serve`` runs on (a SQLite file, or PostgreSQL's address)."""
    import sqlite3

    from .accounts import name_key
    from .backends import is_shared_store, open_store
    from ..net.protocol import ProtocolError
    from .storage import StorageError
    try:
        key = name_key(name)
    except ProtocolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    where = "the database" if is_shared_store(address) else address   # never a password
    try:
        storage = open_store(address)
        try:
            account = storage.set_moderator(key, moderator)
        finally:
            storage.close()
    except (StorageError, sqlite3.Error, ImportError) as exc:
        print(f"error: cannot open {where}: {exc}", file=sys.stderr)
        return 1
    if account is None:
        print(f"error: there is no account named {name!r} in {where}", file=sys.stderr)
        return 1
    print(f"{account.name} is {'now' if moderator else 'no longer'} a moderator")
    return 0


def cmd_serve(args) -> int:
    import asyncio
    import sqlite3

    from .game_server import log, run
    limits = Limits(waiting_close=args.waiting_close, waiting_per_player=args.tables_per_player,
                    connections_per_address=args.connections_per_address)
    if (args.make_moderator or args.remove_moderator) and not args.migrate:
        return set_moderator(args.store or args.db, args.make_moderator or args.remove_moderator,
                             bool(args.make_moderator))
    if args.migrate or args.store or args.bus or args.node is not None:
        from .node_cli import cmd_node      # several nodes: the store and the bus given
        return cmd_node(args, limits)
    try:
        return asyncio.run(run(args.host, args.port, args.db, args.grace, args.stats,
                               args.abandon_after, limits))
    except KeyboardInterrupt:
        return 0
    except sqlite3.Error as exc:
        log(f"cannot open the database {args.db}: {exc}")
        return 1
