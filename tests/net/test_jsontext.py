"""The server's JSON text (game/server/jsontext.py: orjson where installed) is the
protocol's, byte for byte, with or without orjson."""
from __future__ import annotations

import time

import pytest

from game.camelot.board import START_POSITION
from game.net.protocol import encode as protocol_encode
from game.net.protocol import error
from game.server import jsontext
from game.server.bus import decode_run, encode, encode_run
from game.server.storage import SeatRecord, TableRecord
from game.server.table import Table

from .helpers import CASTLE_GAME


def messages() -> list[dict]:
    record = TableRecord(id=7, private=False, invite=None, start_position=START_POSITION,
                         status="playing", moves=list(CASTLE_GAME[:12]),
                         seats={"white": SeatRecord("Zoë", "a" * 64),
                                "black": SeatRecord("Łukasz «B»", "b" * 64)})
    table = Table(record)
    return [table.state(time.monotonic()), table.summary(), table.game_over(),
            error("bad_token", "that is not a seat token of table T7", 3, "move"),
            {"type": "lobby_chat", "from": "Zoë", "text": "tab\there \"quoted\" \\ ✓"}]


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "standard library"])
def test_the_server_s_frames_and_bus_messages_are_the_protocol_s_text(monkeypatch, fast):
    if fast:
        pytest.importorskip("orjson")       # the server extra
    else:
        monkeypatch.setattr(jsontext, "orjson", None)
    for message in messages():
        assert jsontext.encode(message) == protocol_encode(message)
    bodies = [{"k": "out", "cids": [1, 2], "text": protocol_encode(m)} for m in messages()]
    run = encode_run([encode("n2", body) for body in bodies])
    heard = decode_run("node:n1", run)
    assert [event.body for event in heard] == bodies
    assert {event.sender for event in heard} == {"n2"}
