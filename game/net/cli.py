"""``python -m game serve``: its arguments and entry point.

Kept apart from server.py so that building the command line parser does not
import the network library.
"""
from __future__ import annotations

from functools import partial

from ..parsing import parse_float, parse_int
from .protocol import ABANDON_SECONDS, DEFAULT_PORT, GRACE_SECONDS

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


def cmd_serve(args) -> int:
    import asyncio
    import sqlite3

    from .server import log, run
    try:
        return asyncio.run(run(args.host, args.port, args.db, args.grace, args.stats,
                               args.abandon_after))
    except KeyboardInterrupt:
        return 0
    except sqlite3.Error as exc:
        log(f"cannot open the database {args.db}: {exc}")
        return 1
