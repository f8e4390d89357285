"""Tables that both players left: closed after ``abandon_after`` seconds, with no
winner, out of the lobby, and kept so across restarts (every wait is bounded)."""
import asyncio
import sqlite3
import time

from game.net.client import Client
from game.net.view import OnlineState

from .helpers import OPENING, ServerProcess, run_scenario, seated_pair

ABANDON = 0.4          # seconds, instead of the default 24 h


async def listed(client: Client) -> set[str]:
    return {row["table"] for row in (await client.lobby())["tables"]}


async def until_unlisted(client: Client, table: str, seconds: float = 8.0) -> float:
    """Seconds until ``table`` leaves the lobby (bounded)."""
    start = time.monotonic()
    while table in await listed(client):
        assert time.monotonic() - start < seconds, f"{table} is still in the lobby"
        await asyncio.sleep(0.05)
    return time.monotonic() - start


def test_a_game_both_players_left_is_closed_with_no_winner_and_leaves_the_lobby():
    """Situation: a started game (two moves), a second one where Bob stays, and a table
    nobody sat at; the server closes deserted tables after 0.4 s. Action: Alice and Bob
    leave the first (one by its leave message, one by a dropped line), Alice drops from
    the second. Expected: the first closes — no winner, result '*', reason said, out of
    the lobby, its record downloadable — and so does the empty table; the game Bob
    still sits at stays, however long Alice is away."""
    async def scenario(server, url):
        alice, bob, carol, table = await seated_pair(url, spectator=True)
        await alice.move(table, OPENING[0])
        await bob.move(table, OPENING[1])
        kept = (await alice.create_table())["table"]
        await alice.sit(kept, "white")
        await bob.sit(kept, "black")
        await alice.start(kept)
        empty = (await carol.create_table())["table"]
        await carol.leave(empty)
        assert {table, kept, empty} <= await listed(carol)
        await bob.leave(table)
        alice.ws.transport.abort()                       # no goodbye
        over = await carol.expect("game_over", table=table)
        assert over["winner"] is None and over["result"] == "*"
        assert over["reason"] == "Abandoned: both players were away for 0.4 s"
        await until_unlisted(carol, table)
        await until_unlisted(carol, empty)
        record = await carol.record(table)
        assert record["winner"] is None and record["moves"] == OPENING[:2]
        seen = OnlineState("Carol")                      # what the app shows her
        for message in carol.received:
            seen.apply(message)
        view = seen.tables[table]
        assert (view.status, view.winner, view.no_result) == ("finished", None, True)
        assert '[Result "*"]' in record["text"] and record["text"].rstrip().endswith("*")
        assert server.storage.load_table(int(empty[1:])).reason == \
            "Closed: nobody played here for 0.4 s"
        await asyncio.sleep(ABANDON * 4)                 # Bob is there: no time counts
        assert kept in await listed(bob)
        for client in (bob, carol):
            await client.close()
    run_scenario(scenario, abandon_after=ABANDON)


def test_a_player_who_comes_back_in_time_keeps_the_game():
    """Situation: both players of a game dropped. Action: one resumes within the time.
    Expected: the game goes on (no game_over); it is no longer deserted."""
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        token = alice.token(table)
        await alice.leave(table)
        await bob.leave(table)
        assert server.tables[table].record.deserted_since is not None
        back = await Client.connect(url, "Alice2")
        state = await back.resume(table, token)
        assert state["status"] == "playing"
        assert server.tables[table].record.deserted_since is None
        await asyncio.sleep(ABANDON * 3)
        assert server.tables[table].record.status == "playing"
        for client in (alice, bob, back):
            await client.close()
    run_scenario(scenario, abandon_after=ABANDON)


def test_the_time_away_counts_across_a_restart_and_a_closed_table_stays_closed(tmp_path):
    """Situation: a game both players left on a server (``serve --abandon-after 2``),
    which is then killed (kill -9) and kept down for 2.5 s. Action: restart it on the
    same database, then restart it once more. Expected: the table is closed as soon as
    the server is back (the time away was stored, not restarted), is not in the lobby,
    and its record says so after each restart."""
    db = str(tmp_path / "games.sqlite3")
    first = ServerProcess(db, 60.0, "--abandon-after", "2")

    async def leave_both(url):
        alice, bob, _, table = await seated_pair(url)
        await alice.move(table, OPENING[0])
        await alice.leave(table)
        await bob.leave(table)              # answered after the time away is stored
        return table

    try:
        table = asyncio.run(asyncio.wait_for(leave_both(first.url), 20))
        assert "Traceback" not in first.kill()
    finally:
        first.proc.poll() is None and first.kill()
    with sqlite3.connect(db) as check:
        (since,), = check.execute("SELECT deserted_since FROM tables WHERE id=?", (int(table[1:]),))
    assert since is not None and since <= time.time()
    time.sleep(2.5)

    async def look(url):
        carol = await Client.connect(url, "Carol")
        tables = await listed(carol)
        record = await carol.record(table)
        await carol.close()
        return tables, record

    for _ in range(2):
        server = ServerProcess(db, 60.0, "--abandon-after", "2")
        try:
            tables, record = asyncio.run(asyncio.wait_for(look(server.url), 20))
        finally:
            errors = server.stop()
        assert "Traceback" not in errors
        assert table not in tables
        assert record["winner"] is None and record["reason"] == \
            "Abandoned: both players were away for 2 s"
        assert record["moves"] == OPENING[:1]


def test_a_database_from_before_abandonment_gains_the_column_and_its_tables_load(tmp_path):
    """Situation: a server database made before tables could be abandoned (no
    deserted_since column) with an open table. Action: open it. Expected: the column
    is added, the table loads with no desertion time, and a new one can be stored."""
    from game.camelot.board import START_POSITION
    from game.server.storage import SQLiteStorage, TableRecord
    db = str(tmp_path / "old.sqlite3")
    with sqlite3.connect(db) as old:
        old.executescript("""
            CREATE TABLE tables (id INTEGER PRIMARY KEY AUTOINCREMENT, private INTEGER NOT NULL,
                invite TEXT, start_position TEXT NOT NULL, time_base INTEGER,
                time_increment INTEGER NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL,
                clocks TEXT NOT NULL, winner TEXT, reason TEXT NOT NULL,
                record_text TEXT NOT NULL, created REAL NOT NULL);""")
        old.execute("INSERT INTO tables (private, invite, start_position, time_increment, seats,"
                    " status, clocks, reason, record_text, created) VALUES"
                    " (0, NULL, ?, 0, '{}', 'waiting', '{}', '', '', 1.0)", (START_POSITION,))
    storage = SQLiteStorage(db)
    try:
        loaded, = storage.open_tables()
        assert loaded.id == 1 and loaded.deserted_since is None
        new = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION,
                          deserted_since=5.0)
        storage.create_table(new)
        assert storage.load_table(new.id).deserted_since == 5.0
    finally:
        storage.close()
