"""Real PostgreSQL and Redis for the network tests (tests/services.py starts them).

One server of each per test process (session scope: PostgreSQL's ``initdb`` costs
a second or two); each test gets a database of its own, or an emptied Redis. A
test may stop, kill or restart a server: it is started again after the test.
"""
from __future__ import annotations

import importlib.util
import itertools

import pytest

from tests.services import PostgresServer, RedisServer, missing

_databases = itertools.count(1)


def _started(service, module: str, package: str):
    """A server of the given kind, running; or the test fails in CI / is skipped."""
    if importlib.util.find_spec(module) is None:
        missing(module, "the server extra is not installed (pip install '.[server]')")
    binary = service.find()
    if binary is None:
        missing(service.name, f"no {service.name} binary (Debian package '{package}')")
    reason = service.cannot_run()
    if reason:
        missing(service.name, reason)
    server = service(binary)
    server.start()
    return server


@pytest.fixture(scope="session")
def postgres_server():
    server = _started(PostgresServer, "psycopg", "postgresql")
    yield server
    server.remove()


@pytest.fixture
def postgres_dsn(postgres_server):
    """The address of a new, empty database on the test process's server."""
    postgres_server.start()                # a test before this one may have left it stopped
    yield postgres_server.create_database(f"test_{next(_databases)}")
    postgres_server.start()


@pytest.fixture(scope="session")
def redis_server():
    server = _started(RedisServer, "redis", "redis-server")
    yield server
    server.remove()


@pytest.fixture
def redis_url(redis_server):
    """The address of the test process's Redis, emptied."""
    if redis_server.running:
        _flush(redis_server)
    else:
        redis_server.start()            # started empty: it keeps nothing on disk
    yield redis_server.url
    redis_server.start()


def _flush(server: RedisServer) -> None:
    import redis
    with redis.Redis.from_url(server.url) as client:
        client.flushall()
