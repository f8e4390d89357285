"""The server as a subprocess, killed with SIGKILL mid-game and restarted on its database."""
import asyncio
import time

from game.net.client import Client

from .helpers import CASTLE_LINE, CASTLE_POSITION, OPENING, ServerProcess, seated_pair


async def reconnect(url, name, table, token):
    client = await Client.connect(url, name)
    state = await client.resume(table, token)
    return client, state


def test_kill_9_mid_game_and_a_restart_lose_no_acknowledged_move(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    first = ServerProcess(db)
    try:
        async def before_kill():
            alice = await Client.connect(first.url, "Alice")
            bob = await Client.connect(first.url, "Bob")
            timed = (await alice.create_table(time={"base": 600, "increment": 3}))["table"]
            castle = (await bob.create_table(position=CASTLE_POSITION))["table"]
            for table in (timed, castle):
                await alice.sit(table, "white")
                await bob.sit(table, "black")
                await alice.start(table)
            for ply, move in enumerate(OPENING[:3]):
                last = await (alice if ply % 2 == 0 else bob).move(timed, move)
            await alice.move(castle, CASTLE_LINE[0])
            alice.ws.transport.abort()          # no goodbye: the server is about to die
            bob.ws.transport.abort()
            return ({t: alice.token(t) for t in (timed, castle)},
                    {t: bob.token(t) for t in (timed, castle)}, timed, castle, last["clocks"])
        alice_tokens, bob_tokens, timed, castle, clocks = asyncio.run(
            asyncio.wait_for(before_kill(), 20))
        # The last move was acknowledged (its record came back): kill at once.
        errors = first.kill()
        assert "Traceback" not in errors
    finally:
        first.proc.poll() is None and first.kill()

    second = ServerProcess(db)
    try:
        async def after_restart():
            alice, state = await reconnect(second.url, "Alice", timed, alice_tokens[timed])
            bob, _ = await reconnect(second.url, "Bob", timed, bob_tokens[timed])
            assert state["moves"] == OPENING[:3] and state["status"] == "playing"
            assert state["turn"] == "black"
            # The clocks resume where the last move left them (the downtime is not charged).
            assert state["clocks"]["white"] == clocks["white"]
            assert clocks["black"] - 1000 < state["clocks"]["black"] <= clocks["black"]
            moved = await bob.move(timed, OPENING[3])
            assert moved["ply"] == 4
            # The other table resumes too and plays to its castle win.
            castle_state = await alice.resume(castle, alice_tokens[castle])
            await bob.resume(castle, bob_tokens[castle])
            assert castle_state["moves"] == CASTLE_LINE[:1]
            await bob.move(castle, CASTLE_LINE[1])
            won = await alice.move(castle, CASTLE_LINE[2])
            assert won["winner"] == "white"
            record = await bob.record(castle)
            assert record["moves"] == CASTLE_LINE
            await alice.close()
            await bob.close()
        asyncio.run(asyncio.wait_for(after_restart(), 20))
    finally:
        errors = second.stop()
    assert "Traceback" not in errors


def test_garbage_on_the_socket_prints_no_traceback(tmp_path):
    server = ServerProcess(str(tmp_path / "g.sqlite3"))
    try:
        async def poke():
            host, port = "127.0.0.1", int(server.url.rsplit(":", 1)[1])
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")           # not a WebSocket
            await writer.drain()
            await asyncio.wait_for(reader.read(), 5)
            writer.close()
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(b"\x16\x03\x01 not even HTTP\r\n\r\n")
            await writer.drain()
            await asyncio.wait_for(reader.read(), 5)
            writer.close()
            client = await Client.connect(server.url, "Still")       # the server is fine
            await client.close()
        asyncio.run(asyncio.wait_for(poke(), 15))
    finally:
        errors = server.stop()
    assert "Traceback" not in errors


def test_after_kill_9_mid_move_the_side_to_move_is_charged_the_time_it_had_used(tmp_path):
    """White thinks about 2.2 s, the server is killed (SIGKILL) before White moves
    and restarted: White's clock has lost those 2.2 s (within a second), not the
    time the server was down."""
    db = str(tmp_path / "clocks.sqlite3")
    first = ServerProcess(db)
    try:
        async def before_kill():
            alice, bob, _, table = await seated_pair(first.url,
                                                     time_control={"base": 600, "increment": 0})
            await alice.move(table, OPENING[0])
            last = await bob.move(table, OPENING[1])         # White's clock runs from here
            await asyncio.sleep(2.2)
            return table, alice.token(table), last["clocks"]["white"]
        table, token, white_before = asyncio.run(asyncio.wait_for(before_kill(), 20))
        first.kill()
    finally:
        first.proc.poll() is None and first.kill()
    time.sleep(1.5)                                          # the server is down: not charged
    second = ServerProcess(db)
    try:
        async def after_restart():
            _, state = await reconnect(second.url, "Alice", table, token)
            return state["clocks"]
        clocks = asyncio.run(asyncio.wait_for(after_restart(), 20))
    finally:
        second.stop()
    used = (white_before - clocks["white"]) / 1000
    assert clocks["running"] == "white"
    assert abs(used - 2.2) < 1.0, used
