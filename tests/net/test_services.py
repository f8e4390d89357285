"""The test servers themselves: real, restartable, and a missing one is loud in CI."""
from __future__ import annotations

import pytest

from tests.services import missing


def test_postgres_keeps_what_was_committed_through_a_kill_and_a_restart(postgres_server,
                                                                         postgres_dsn):
    import psycopg
    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        db.execute("CREATE TABLE t (x int)")
        db.execute("INSERT INTO t VALUES (7)")
    port = postgres_server.port
    postgres_server.kill()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(postgres_dsn, connect_timeout=2)
    postgres_server.start()
    assert postgres_server.port == port          # the same address after the restart
    with psycopg.connect(postgres_dsn) as db:
        assert db.execute("SELECT x FROM t").fetchall() == [(7,)]


def test_a_killed_postgres_takes_its_backends_with_it(postgres_server, postgres_dsn):
    """A crash of the machine ends every backend at once. Each backend leads its
    own session, so killing the postmaster's group spared them, and one not yet
    scheduled could still commit a statement waiting on its socket (seen as a
    transaction that survived the kill, once in a full run). A stopped backend
    stands for one that has not run yet."""
    import os
    import signal

    import psycopg

    from tests.services import _alive
    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        backend = db.execute("SELECT pg_backend_pid()").fetchone()[0]
        os.kill(backend, signal.SIGSTOP)
        postgres_server.kill()
        assert not _alive(backend)
        with pytest.raises(psycopg.OperationalError):
            db.execute("SELECT 1")
    postgres_server.start()


def test_redis_restarts_on_its_port_and_empty(redis_server, redis_url):
    import redis
    with redis.Redis.from_url(redis_url) as client:
        client.set("k", "v")
        assert client.get("k") == b"v"
    redis_server.restart(hard=True)
    with redis.Redis.from_url(redis_url) as client:
        assert client.get("k") is None           # no persistence: a restart forgets
        assert client.ping()


def test_a_missing_server_fails_in_ci_and_is_skipped_elsewhere(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no redis-server binary.*CI must install"):
        missing("Redis", "no redis-server binary")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="no redis-server binary"):
        missing("Redis", "no redis-server binary")
