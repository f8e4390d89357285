"""``serve --store … --bus … --node …`` and ``serve --store … --migrate``: one node
of several (game/server/node.py), from the command line."""
from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import sys

from .backends import is_shared_store, migrate_store, open_bus, open_store
from .game_server import log, serve_until_stopped
from .node import NodeServer
from .storage import StorageError

MAX_NODE_NAME = 64


def node_name(text: str) -> str:
    """A node's name as given on the command line (ValueError: why not)."""
    if not 0 < len(text) <= MAX_NODE_NAME or not text.isprintable() or " " in text:
        raise ValueError(f"a node name is 1 to {MAX_NODE_NAME} printable characters "
                         f"without spaces, not {text!r}")
    return text


def _described(address: str) -> str:
    """The store as the start-up line names it (never a password)."""
    return "PostgreSQL" if is_shared_store(address) else f"SQLite {address}"


async def run_node(args, limits, node: str) -> int:
    address = args.store or args.db
    try:
        storage = open_store(address)
        bus = open_bus(args.bus, node)
    except (StorageError, sqlite3.Error, ValueError, ImportError) as exc:
        log(f"cannot start node {node}: {exc}")
        return 1
    server = NodeServer(storage, bus, node, grace=args.grace, abandon_after=args.abandon_after,
                        limits=limits)
    bus_name = "Redis" if args.bus else "no bus"
    return await serve_until_stopped(server, args.host, args.port,
                                     f"node {node}, {_described(address)}, {bus_name}", args.stats)


def cmd_node(args, limits) -> int:
    """``serve`` with ``--store``/``--bus``/``--migrate``: one node of several."""
    address = args.store or args.db
    if args.migrate:
        try:
            print(migrate_store(address), flush=True)
            return 0
        except (StorageError, ImportError) as exc:
            print(f"error: cannot migrate {_described(address)}: {exc}", file=sys.stderr)
            return 1
    try:                         # an empty --node is refused, not taken for "none given"
        node = node_name(f"{socket.gethostname()}-{os.getpid()}" if args.node is None
                         else args.node)
    except ValueError as exc:
        print(f"error: --node: {exc}", file=sys.stderr)
        return 2
    try:
        return run_event_loop(run_node(args, limits, node))
    except KeyboardInterrupt:
        return 0


def run_event_loop(main):
    """uvloop where it is installed (the server extra, not on Windows): a node spends
    much of its time in the event loop's own work, which uvloop does in C. Its servers
    take every waiting connection at once (game/server/accepting.py)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    from .accepting import EagerAcceptLoop
    return uvloop.run(main, loop_factory=EagerAcceptLoop)
