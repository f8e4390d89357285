"""Every kind of bad input gets an error on the wire and changes nothing."""
import asyncio
import json

import pytest

from game.net.client import Client, ConnectionLost, ServerRefused
from game.net.protocol import MAX_FRAME_BYTES, MAX_MESSAGE_BYTES, ProtocolError, parse_client_message

from .helpers import OPENING, run_scenario, seated_pair


def snapshot(server, table):
    """What the server holds about a table, in memory and in the database."""
    t = server.tables[table]
    stored = server.storage.load_table(t.record.id)
    return (t.game.position_text(), list(t.record.moves), t.record.status, t.draw_offer,
            {c: s.name for c, s in t.record.seats.items()},
            stored.moves, stored.status, {c: s.name for c, s in stored.seats.items()})


async def refused(client, frame, code):
    """Send a raw frame; the next message must be an error with ``code``."""
    client.drain()
    await client.send_raw(frame)
    reply = await client.next()
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert reply["message"]
    return reply


def test_malformed_frames_are_refused_one_by_one_and_the_game_goes_on(capsys):
    async def scenario(server, url):
        alice, bob, carol, table = await seated_pair(url, spectator=True)
        await alice.move(table, OPENING[0])
        before = snapshot(server, table)
        for frame, code in [
            ("{not json", "bad_json"),
            ("[1, 2, 3]", "bad_message"),
            ('"move"', "bad_message"),
            ('{"table": "T1"}', "bad_message"),
            ('{"type": 7}', "bad_message"),
            ('{"type": "teleport"}', "unknown_type"),
            ('{"type": "chat", "table": "T1", "text": "hi", "admin": true}', "bad_field"),
            ('{"type": "chat", "table": "T1"}', "bad_field"),
            ('{"type": "chat", "table": 1, "text": "hi"}', "bad_field"),
            ('{"type": "move", "table": "T1", "token": "x", "move": "D11-D12"}', "bad_field"),
            ('{"type": "lobby", "id": -1}', "bad_field"),
            ('{"type": "create_table", "time": {"base": 0, "increment": 0}}', "bad_field"),
            ('{"type": "create_table", "position": "rubbish"}', "bad_position"),
            (b'\x00\x01binary', "bad_message"),
            ("[" * 5000, "too_large"),
            (json.dumps({"type": "chat", "table": table, "text": "x" * MAX_MESSAGE_BYTES}),
             "too_large"),
            ("[" * 3000 + "]" * 3000, "too_large"),
            ("[" * 2000 + "]" * 2000, "bad_json"),      # small but too deep to parse
            ("[[[1]]]", "bad_message"),
        ]:
            await refused(bob, frame, code)
        assert snapshot(server, table) == before
        # Still connected, still playing.
        assert (await bob.move(table, OPENING[1]))["ply"] == 2
    run_scenario(scenario)
    assert "Traceback" not in capsys.readouterr().err


def test_a_frame_over_the_transport_limit_closes_only_that_connection(capsys):
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        mallory = await Client.connect(url, "Mallory")
        before = snapshot(server, table)
        await mallory.send_raw("x" * (MAX_FRAME_BYTES + 1))
        with pytest.raises(ConnectionLost):
            while True:
                await mallory.next()
        assert mallory.ws.close_code == 1009        # "message too big", on the wire
        assert snapshot(server, table) == before
        assert (await alice.move(table, OPENING[0]))["ply"] == 1
    run_scenario(scenario)
    assert "Traceback" not in capsys.readouterr().err


def test_moves_out_of_turn_by_a_spectator_with_a_wrong_token_or_illegal_are_refused():
    async def scenario(server, url):
        alice, bob, carol, table = await seated_pair(url, spectator=True)
        await alice.move(table, OPENING[0])
        before = snapshot(server, table)
        cases = [
            # It is Black's turn: White tries to move again.
            (alice, {"token": alice.token(table), "move": OPENING[2]}, "not_your_turn"),
            # The spectator with no token at all, then with a made-up one.
            (carol, {"move": OPENING[1]}, "bad_field"),
            (carol, {"token": "A" * 32, "move": OPENING[1]}, "bad_token"),
            # The spectator with Bob's real token, without having resumed that seat.
            (carol, {"token": bob.token(table), "move": OPENING[1]}, "not_seated"),
            # Bob with White's token.
            (bob, {"token": alice.token(table), "move": OPENING[1]}, "not_seated"),
            # Bob, in turn, with an illegal move and with a non-move.
            (bob, {"token": bob.token(table), "move": "D11-D13"}, "illegal_move"),
            (bob, {"token": bob.token(table), "move": "C6-C7"}, "illegal_move"),
            (bob, {"token": bob.token(table), "move": "castle!"}, "bad_notation"),
            (bob, {"token": bob.token(table), "move": OPENING[1], "table": "T999"}, "no_table"),
        ]
        for client, fields, code in cases:
            message = {"type": "move", "table": table, **fields}
            client.drain()
            with pytest.raises(ServerRefused) as refusal:
                await client.request(message, "moved")
            assert refusal.value.code == code, (fields, refusal.value)
            assert snapshot(server, table) == before
        # Other seat actions by the spectator are refused the same way.
        for kind in ("resign", "offer_draw", "claim", "start"):
            carol.drain()
            with pytest.raises(ServerRefused) as refusal:
                await carol.request({"type": kind, "table": table, "token": "B" * 32}, "game_over")
            assert refusal.value.code == "bad_token"
        assert snapshot(server, table) == before
        assert (await bob.move(table, OPENING[1]))["ply"] == 2
    run_scenario(scenario)


def test_a_flood_is_rate_limited_and_the_connection_survives():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        before = snapshot(server, table)
        flood = 120
        bob.drain()
        for _ in range(flood):
            await bob.send_raw(json.dumps({"type": "chat", "table": table, "text": "spam"}))
        replies = [await bob.next() for _ in range(flood)]
        limited = [r for r in replies if r["type"] == "error" and r["code"] == "rate_limited"]
        chats = [r for r in replies if r["type"] == "chat"]
        assert len(chats) + len(limited) == flood
        assert 20 <= len(chats) <= 40 and len(limited) >= 80
        assert snapshot(server, table) == before
        await asyncio.sleep(0.3)                 # the bucket refills
        assert (await alice.move(table, OPENING[0]))["ply"] == 1
    run_scenario(scenario)


@pytest.mark.parametrize("name", ["", " ", "A" * 25, "Al\x07ice", "Bob\n", "Eve\u202e",
                                  "zero\u200bwidth", " Lead", "two  spaces", 42, None])
def test_bad_names_are_refused(name):
    with pytest.raises(ProtocolError) as refusal:
        parse_client_message(json.dumps({"type": "hello", "version": 1, "name": name}))
    assert refusal.value.code == "bad_field"


def test_hello_refusals_on_the_wire_and_nobody_joins():
    async def scenario(server, url):
        anon = await Client.connect(url, None)
        await refused(anon, json.dumps({"type": "lobby"}), "not_hello")
        await refused(anon, json.dumps({"type": "hello", "version": 1, "name": "Al\x1bice"}),
                      "bad_field")
        await refused(anon, json.dumps({"type": "hello", "version": 1, "name": "X" * 40}),
                      "bad_field")
        await refused(anon, json.dumps({"type": "hello", "version": 2, "name": "Alice"}),
                      "bad_version")
        assert server.names == {}
        alice = await Client.connect(url, "Alice")
        await refused(anon, json.dumps({"type": "hello", "version": 1, "name": "Alice"}),
                      "name_taken")
        await refused(alice, json.dumps({"type": "hello", "version": 1, "name": "Alicia"}),
                      "already_hello")
        assert [c.name for c in server.names.values()] == ["Alice"]
        await refused(alice, json.dumps({"type": "lobby_chat", "text": "bell\x07"}), "bad_field")
        await refused(alice, json.dumps({"type": "lobby_chat", "text": "x" * 501}), "bad_field")
    run_scenario(scenario)


def test_seat_and_table_refusals_leave_the_table_as_it_was():
    async def scenario(server, url):
        alice = await Client.connect(url, "Alice")
        bob = await Client.connect(url, "Bob")
        table = (await alice.create_table())["table"]
        await alice.sit(table, "white")
        with pytest.raises(ServerRefused) as r:
            await alice.start(table)
        assert r.value.code == "not_ready"
        with pytest.raises(ServerRefused) as r:
            await bob.sit(table, "white")
        assert r.value.code == "seat_taken"
        with pytest.raises(ServerRefused) as r:
            await alice.sit(table, "black")
        assert r.value.code == "already_seated"
        with pytest.raises(ServerRefused) as r:
            await bob.watch("T77")
        assert r.value.code == "no_table"
        with pytest.raises(ServerRefused) as r:
            await bob.record(table)
        assert r.value.code == "no_record"
        assert {c: s.name for c, s in server.tables[table].record.seats.items()} == \
            {"white": "Alice"}
        # Guests are counted per address: Alice's table and Bob's four make five.
        for _ in range(3):
            await bob.create_table()
        await bob.create_table()
        with pytest.raises(ServerRefused) as r:
            await bob.create_table()
        assert r.value.code == "too_many_tables"
    run_scenario(scenario)
