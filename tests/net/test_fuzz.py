"""Random frames: the parser and the server refuse them without raising or changing state."""
import asyncio
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import game.server.game_server as server_module
from game.net.protocol import (CLIENT_MESSAGES, SERVER_MESSAGES, ProtocolError,
                               parse_client_message)
from game.server.game_server import Connection, GameServer
from game.server.storage import SQLiteStorage

from .helpers import FAST_HASH

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=12)
# Objects that look like messages: a known type and fields with known names.
field_names = sorted({f for fields in CLIENT_MESSAGES.values() for f in fields} | {"id", "type"})
messages = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(sorted(CLIENT_MESSAGES) + ["nope", ""]),
    st.dictionaries(st.sampled_from(field_names), json_values, max_size=5))
frames = (st.text(max_size=200) | json_values.map(json.dumps) | messages.map(json.dumps)
          | st.binary(max_size=50))


@settings(max_examples=200, deadline=None)
@given(frames)
def test_the_parser_returns_a_checked_message_or_refuses(frame):
    try:
        message = parse_client_message(frame)
    except ProtocolError as exc:
        assert exc.code and str(exc)
        return
    assert message["type"] in CLIENT_MESSAGES
    assert set(message) <= set(CLIENT_MESSAGES[message["type"]]) | {"type", "id"}


class FakeSocket:
    """Stands for a WebSocket: the server hands it to broadcast() and may close it."""

    async def close(self, code=1000, reason=""):
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(frames, min_size=1, max_size=8))
def test_the_server_answers_random_frames_with_errors_and_keeps_its_game(frame_list):
    sent = []

    async def scenario():
        server = GameServer(SQLiteStorage(":memory:"), rate=1e9, burst=10**9, limits=FAST_HASH)
        server_module.broadcast, original = (lambda targets, text: sent.append(text)), \
            server_module.broadcast
        try:
            alice, bob = (Connection(FakeSocket(), 1e9, 10**9, "127.0.0.1"),
                           Connection(FakeSocket(), 1e9, 10**9, "127.0.0.1"))
            say = lambda conn, **m: server.handle_frame(conn, json.dumps(m))  # noqa: E731
            say(alice, type="hello", version=1, name="Alice")
            say(bob, type="hello", version=1, name="Bob")
            table = say(alice, type="create_table")[0]["table"]
            token = say(alice, type="sit", table=table, color="white")[0]["token"]
            say(bob, type="sit", table=table, color="black")
            say(alice, type="start", table=table, token=token)
            say(alice, type="move", table=table, token=token, move="D6-C5")
            before = server.tables[table].state(0)
            mallory = Connection(FakeSocket(), 1e9, 10**9, "127.0.0.2")
            for frame in frame_list:
                for conn in (mallory, bob):       # a stranger and the seated player
                    for reply in server.handle_frame(conn, frame):
                        assert reply["type"] in SERVER_MESSAGES, reply
                        assert reply.get("code") != "internal", reply
            after = server.tables[table].state(0)
            assert after["moves"] == before["moves"] and after["position"] == before["position"]
            assert after["status"] == "playing"
        finally:
            server_module.broadcast = original
            server.storage.close()
    asyncio.run(scenario())
