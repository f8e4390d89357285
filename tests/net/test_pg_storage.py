"""PostgreSQL's own side of the store: versioned migrations, and a database that
goes away and comes back (the contract both stores keep is test_storage_contract)."""
from __future__ import annotations

import threading
import time

import pytest

from game.camelot.board import START_POSITION
from game.server.leases import StorageUnavailable
from game.server.storage import TableRecord

def _pg():
    """The module, imported once a fixture has made sure psycopg is there (or said why not)."""
    from game.server import pg_storage
    return pg_storage


def _leased_table(dsn, ttl: float = 60):
    """A migrated database, a store on it, a new table and n1's fence on it."""
    pg = _pg()
    pg.migrate(dsn)
    store = pg.PostgresStorage(dsn, timeout=2)
    record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
    store.create_table(record)
    return store, record, store.acquire_lease(record.id, "n1", ttl)


def _version(dsn) -> list[int]:
    import psycopg
    with psycopg.connect(dsn) as db:
        return [v for (v,) in db.execute("SELECT version FROM schema_migrations ORDER BY 1")]


def test_migrate_creates_then_upgrades_keeping_the_data_and_runs_again_harmlessly(postgres_dsn):
    pg = _pg()
    assert pg.migrate(postgres_dsn, target=1) == 1             # a database of an older server
    import psycopg
    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        db.execute("INSERT INTO tables (private, invite, start_position, time_increment, seats,"
                   " status, clocks, reason, record_text, created) VALUES (false, NULL, %s, 0,"
                   " '{}', 'waiting', '{}', '', '', 0)", (START_POSITION,))
    with pytest.raises(pg.SchemaMismatch, match="version 1, this server needs version 3: run"):
        pg.PostgresStorage(postgres_dsn)                       # refused until migrated
    assert pg.migrate(postgres_dsn) == pg.LATEST == 3
    assert pg.migrate(postgres_dsn) == 3                       # again: nothing to do
    assert _version(postgres_dsn) == [1, 2, 3]
    store = pg.PostgresStorage(postgres_dsn)
    assert [t.id for t in store.open_tables()] == [1]
    assert store.acquire_lease(1, "n1", 30) == 1               # the upgrade's table is there
    store.close()


def test_nodes_migrating_at_once_apply_each_migration_once(postgres_dsn):
    pg = _pg()
    results, errors = [], []

    def run():
        try:
            results.append(pg.migrate(postgres_dsn))
        except Exception as error:          # noqa: BLE001 - reported by the assert below
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [] and results == [3, 3, 3, 3]
    assert _version(postgres_dsn) == [1, 2, 3]


def test_a_database_with_no_schema_or_a_newer_one_is_refused_in_one_line(postgres_dsn):
    pg = _pg()
    with pytest.raises(pg.SchemaMismatch, match=r"^the database has no schema, this server"
                                                r" needs version 3: run `python -m game serve"):
        pg.PostgresStorage(postgres_dsn)
    pg.migrate(postgres_dsn)
    import psycopg
    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        db.execute("INSERT INTO schema_migrations (version, name) VALUES (4, 'from the future')")
    with pytest.raises(pg.SchemaMismatch, match="schema version 4; this server knows up to 3"):
        pg.migrate(postgres_dsn)


def test_an_unreachable_database_is_one_clear_line(postgres_server):
    pg = _pg()
    from tests.services import free_port
    with pytest.raises(StorageUnavailable) as refusal:
        pg.PostgresStorage(f"postgresql://nobody@127.0.0.1:{free_port()}/none", timeout=2)
    message = str(refusal.value)
    assert message.startswith("cannot reach the database: ") and "\n" not in message


@pytest.mark.parametrize("hard", [False, True], ids=["restart", "kill"])
def test_while_postgres_is_down_writes_are_refused_and_work_again_when_it_is_back(
        postgres_server, postgres_dsn, hard):
    store, record, fence = _leased_table(postgres_dsn)
    record.moves.append("D6-C5")
    store.add_move(record, fence=fence)

    if hard:
        postgres_server.kill()
    else:
        postgres_server.stop()
    record.moves.append("D11-C12")
    for attempt in range(2):            # the broken connection, then no server at all
        with pytest.raises(StorageUnavailable) as refusal:
            store.add_move(record, fence=fence)
        assert "\n" not in str(refusal.value)
    with pytest.raises(StorageUnavailable):
        store.load_table(record.id)

    postgres_server.start()
    assert store.load_table(record.id).moves == ["D6-C5"]     # nothing half-written
    store.add_move(record, fence=fence)                              # the same store, reconnected
    assert store.load_table(record.id).moves == ["D6-C5", "D11-C12"]
    store.close()


def test_a_takeover_waits_for_a_fenced_write_in_flight_and_then_sees_it(postgres_dsn):
    """The fence check holds the lease row until the write commits. Here the write
    (the store's own statement) is held open in a transaction while its lease
    lapses: the new node's takeover must wait for it, and then load the move. Were
    the check a plain read, the takeover would go ahead, load the table without
    the move, and the old referee's move would land after it."""
    import psycopg
    pg = _pg()
    store, record, fence = _leased_table(postgres_dsn, ttl=0.5)
    taker = pg.PostgresStorage(postgres_dsn)
    record.moves.append("D6-C5")
    taken: list[int | None] = []
    with psycopg.connect(postgres_dsn) as slow:                 # a write in flight
        with slow.transaction():
            values = {**store._state(record, fence), "ply": 1, "move": "D6-C5"}
            assert slow.execute(pg._ADD, values).fetchone() == (True,)
            time.sleep(0.7)                                     # its lease lapses meanwhile
            takeover = threading.Thread(
                target=lambda: taken.append(taker.acquire_lease(record.id, "n2", 30)))
            takeover.start()
            takeover.join(1.0)
            assert takeover.is_alive() and taken == []          # waiting for the write
        takeover.join(10)                                       # the write committed
    assert taken == [fence + 1]
    assert taker.load_table(record.id).moves == ["D6-C5"]
    store.close()
    taker.close()


@pytest.mark.parametrize("hard", [False, True], ids=["restart", "kill"])
def test_a_database_restarted_while_the_node_was_idle_costs_no_refusal(
        postgres_server, postgres_dsn, hard):
    """PostgreSQL ends an idle connection's session when it stops (and tells it),
    or its machine's crash closes the stream: the next statement was never sent on
    that connection, so it goes on a new one instead of refusing a move the
    database could take."""
    store, record, fence = _leased_table(postgres_dsn)
    postgres_server.restart(hard=hard)
    record.moves.append("D6-C5")
    store.add_move(record, fence=fence)
    assert store.load_table(record.id).moves == ["D6-C5"]
    store.close()


def test_the_database_killed_between_a_result_and_its_rating_change_keeps_neither(
        postgres_server, postgres_dsn):
    """The transaction is cut by the server's death (kill -9) after the result was
    written and before the ratings: the writer is told the database went away,
    and after the restart neither is there."""
    from game.server.ratings import Rating
    from game.server.storage import FAULT_HOOKS, RatingChange, SeatRecord
    pg = _pg()
    pg.migrate(postgres_dsn)
    store = pg.PostgresStorage(postgres_dsn, timeout=2)
    alice = store.create_account("Alice", "alice", "scrypt$a", "s1", 1.0)
    bob = store.create_account("Bob", "bob", "scrypt$b", "s2", 1.0)
    record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION,
                         rated=True, status="playing",
                         seats={"white": SeatRecord("Alice", "h", alice.id),
                                "black": SeatRecord("Bob", "h", bob.id)})
    store.create_table(record)
    record.status, record.winner = "finished", "white"
    FAULT_HOOKS["between_result_and_rating"] = postgres_server.kill
    try:
        with pytest.raises(StorageUnavailable):
            store.save_table(record, (RatingChange(alice.id, "untimed", Rating(), Rating(1600)),
                                      RatingChange(bob.id, "untimed", Rating(), Rating(1400))))
    finally:
        del FAULT_HOOKS["between_result_and_rating"]
    postgres_server.start()
    assert store.load_table(record.id).status == "playing"
    assert store.rating(alice.id, "untimed") == Rating() == store.rating(bob.id, "untimed")
    store.close()


def test_a_database_of_the_previous_version_is_upgraded_with_its_games_and_leases(postgres_dsn):
    """Version 2 (tables, moves, leases) to 3 (accounts and the rest): the games
    stay, with their moves counted, and the people's tables are there to use."""
    import psycopg
    pg = _pg()
    assert pg.migrate(postgres_dsn, target=2) == 2
    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        db.execute("INSERT INTO tables (private, invite, start_position, time_increment, seats,"
                   " status, clocks, reason, record_text, created) VALUES (false, NULL, %s, 0,"
                   " '{\"white\": {\"name\": \"Ann\", \"token_hash\": \"h\"}}', 'playing',"
                   " '{}', '', '', 5)", (START_POSITION,))
        db.execute("INSERT INTO moves VALUES (1, 1, 'D6-C5'), (1, 2, 'D11-C12')")
        db.execute("INSERT INTO leases VALUES (1, 'n1', 4, now() + interval '1 hour')")
    assert pg.migrate(postgres_dsn) == 3
    store = pg.PostgresStorage(postgres_dsn)
    (record,) = store.open_tables()
    assert (record.moves, record.seats["white"].name, record.seats["white"].account,
            record.rated, record.owner, record.ended) == (["D6-C5", "D11-C12"], "Ann", None,
                                                          False, None, None)
    assert store.lease_of(1).fence == 4
    with psycopg.connect(postgres_dsn) as db:
        assert db.execute("SELECT ply FROM tables").fetchone() == (2,)
    alice = store.create_account("Alice", "alice", "scrypt$a", "s1", 1.0)
    assert store.session_account("s1") == alice
    store.close()


def test_a_table_made_with_its_lease_is_never_seen_unleased(postgres_dsn):
    """A node making tables while another looks for unleased ones (to take over): the
    table and its lease are one statement, so the looker never finds a new table
    unleased — the two steps (table, then lease) let it take a table from its maker."""
    pg = _pg()
    pg.migrate(postgres_dsn)
    maker, looker = pg.PostgresStorage(postgres_dsn), pg.PostgresStorage(postgres_dsn)
    made, seen, done = [], set(), threading.Event()

    def look():
        while not done.is_set():
            seen.update(looker.unleased_tables())
    thread = threading.Thread(target=look)
    thread.start()
    try:
        for _ in range(300):
            record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
            assert maker.create_leased_table(record, "n1", 60) == 1
            made.append(record.id)
    finally:
        done.set()
        thread.join(10)
    assert seen == set()
    assert {maker.lease_of(t).node for t in made} == {"n1"}
    maker.close()
    looker.close()


def test_a_stopping_node_releases_its_leases_in_one_statement(postgres_dsn):
    """Only the leases given (with their fences) are let go; another node's stays."""
    pg = _pg()
    pg.migrate(postgres_dsn)
    store = pg.PostgresStorage(postgres_dsn)
    held = {}
    for node in ("n1", "n1", "n2", "n1"):
        record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
        held[record.id] = (node, store.create_leased_table(record, node, 60))
    mine = {t: fence for t, (node, fence) in held.items() if node == "n1"}
    stale = min(mine)
    store.release_leases("n1", {**mine, stale: mine[stale] + 1})   # a fence not its own
    assert [t for t in held if store.lease_of(t) is not None] == [stale, 3]
    assert store.unleased_tables() == sorted(set(mine) - {stale})
    store.close()
