"""The store and the bus a node runs on, from the addresses ``serve`` is given.

``--store``: a ``postgresql://`` address (shared by several nodes), or a SQLite
file (one node, today's default). ``--bus``: a ``redis://`` address, or none (one
process). PostgreSQL's and Redis's drivers are the server extra's
(``pip install '.[server]'``) and load only when such an address is given.

``serve --store … --bus …`` opens them here (game/server/node_cli.py).
"""
from __future__ import annotations

from .bus import Bus, InProcessBus
from .leases import LeasedStorage, SQLiteLeasedStorage

POSTGRES = ("postgresql://", "postgres://")
REDIS = ("redis://", "rediss://", "unix://")


def is_shared_store(address: str) -> bool:
    return address.startswith(POSTGRES)


def open_store(address: str) -> LeasedStorage:
    """A PostgreSQL address (its schema migrated: see :func:`migrate_store`) or a
    SQLite file (``:memory:`` for none)."""
    if is_shared_store(address):
        from .pg_storage import PostgresStorage   # psycopg: the server extra's, loaded only here
        return PostgresStorage(address)
    return SQLiteLeasedStorage(address)


def migrate_store(address: str) -> str:
    """Create or upgrade a shared store's schema; one line saying what it is now."""
    if not is_shared_store(address):
        return "SQLite creates its schema when it opens: nothing to migrate"
    from .pg_storage import migrate     # psycopg: the server extra's, loaded only here
    return f"the database's schema is at version {migrate(address)}"


def open_bus(address: str | None, node: str) -> Bus:
    """Redis for several nodes; none for one process."""
    if not address:
        return InProcessBus(node)
    if address.startswith(REDIS):
        from .redis_bus import RedisBus   # redis-py: the server extra's, loaded only here
        return RedisBus(address, node)
    raise ValueError(f"unknown bus address {address!r}: use redis://host:port/db")
