"""The addresses ``serve --store … --bus …`` will take, and what each opens."""
from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from game.server.backends import migrate_store, open_bus, open_store
from game.server.bus import InProcessBus
from game.server.leases import SQLiteLeasedStorage

from .helpers import ROOT


def test_a_file_is_sqlite_and_needs_no_migration(tmp_path):
    store = open_store(str(tmp_path / "t.sqlite3"))
    assert isinstance(store, SQLiteLeasedStorage)
    store.close()
    assert migrate_store(str(tmp_path / "t.sqlite3")).startswith("SQLite creates its schema")


def test_a_postgresql_address_is_migrated_then_opened(postgres_dsn):
    from game.server.pg_storage import PostgresStorage, SchemaMismatch
    with pytest.raises(SchemaMismatch):
        open_store(postgres_dsn)
    assert migrate_store(postgres_dsn) == "the database's schema is at version 3"
    store = open_store(postgres_dsn)
    assert isinstance(store, PostgresStorage)
    store.close()


def test_a_bus_address_names_its_bus(redis_url):
    from game.server.redis_bus import RedisBus
    assert isinstance(open_bus(None, "n1"), InProcessBus)
    remote = open_bus(redis_url, "n2")
    assert isinstance(remote, RedisBus) and remote.node == "n2"
    asyncio.run(remote.close())
    with pytest.raises(ValueError, match="unknown bus address 'amqp://x'"):
        open_bus("amqp://x", "n3")


def test_the_app_and_the_one_node_server_load_neither_driver():
    """The client side and SQLite need no server extra: nothing here imports
    psycopg or redis until such an address is given."""
    code = ("import sys, game.server.backends, game.server.bus, game.server.leases, game.server.metrics,"
            " game.net.client, game.server.game_server;"
            " print(sorted(m for m in ('psycopg', 'redis') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
