"""The HTTP side of the game server (docs/http-api.md), over real HTTP on 127.0.0.1:
the JSON API against what the players did over the game protocol on the same port,
the long poll that makes a page live, and bad requests answered with a status and
one line."""
from __future__ import annotations

import asyncio
import json
from fnmatch import fnmatch
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from game.camelot.board import CamelotBoard
from game.camelot.moves import SQUARE_NAMES
from game.server import sitedata, web
from game.net.client import Client
from game.server.ratings import time_class
from tests.net.helpers import CASTLE_GAME, OPENING, play_line, run_scenario, seated_pair
from tests.net.web_games import finished_game

ROOT = Path(__file__).resolve().parents[2]
SEAT_KEYS = {"name", "guest", "rating", "rd", "provisional"}
SUMMARY_KEYS = {"id", "status", "white", "black", "time_control", "time_class", "rated", "ply",
                "spectators"}
DETAIL_KEYS = SUMMARY_KEYS | {"start", "moves", "clocks", "result", "reason", "position"}
GAME_ROW_KEYS = {"id", "white", "black", "result", "reason", "rated", "time_class", "ended",
                 "moves"}


class Reply:
    def __init__(self, raw: bytes) -> None:
        head, _, self.body = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1]) if lines[0] else None
        self.headers = {k.lower(): v.strip() for k, v in
                        (line.split(":", 1) for line in lines[1:] if ":" in line)}

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self):
        assert self.headers["content-type"].startswith("application/json"), self.headers
        return json.loads(self.body)


async def get(url: str, path: str, method: str = "GET", source: str = "127.0.0.1") -> Reply:
    """One request on a fresh connection (the server closes it after answering),
    from the loopback address ``source``."""
    port = int(url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode("latin-1"))
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return Reply(raw)


async def get_json(url: str, path: str):
    reply = await get(url, path)
    assert reply.status == 200, (path, reply.status, reply.body[:200])
    return reply.json()


def one_line(reply: Reply) -> str:
    """A refusal's body: one line for a person, no traceback."""
    text = reply.text
    assert text.endswith("\n") and text.count("\n") == 1, text
    assert "Traceback" not in text and "Error" not in text
    return text.strip()


def test_health_and_the_lobby_as_json():
    async def scenario(server, url):
        assert (await get(url, "/healthz")).text == "ok\n"
        alice, bob, carol, table = await seated_pair(url, spectator=True,
                                                     time_control={"base": 300, "increment": 2})
        dave = await Client.connect(url, "Dave")
        private = (await dave.create_table(private=True))["table"]
        lobby = await get_json(url, "/api/lobby")
        assert lobby["online"] == 4
        rows = {row["id"]: row for row in lobby["tables"]}
        assert set(rows) == {int(table[1:])}, "the private table is not listed"
        row = rows[int(table[1:])]
        assert set(row) >= SUMMARY_KEYS
        assert (row["status"], row["ply"], row["spectators"]) == ("playing", 0, 1)
        assert (row["time_control"], row["time_class"], row["rated"]) == ("5+2", "blitz", False)
        assert set(row["white"]) >= SEAT_KEYS and row["white"]["name"] == "Alice"
        assert row["black"]["name"] == "Bob" and row["black"]["rating"] is None
        assert (await get(url, f"/api/table/{private[1:]}")).status == 404
        assert (await get(url, f"/table/{private[1:]}")).status == 404
    run_scenario(scenario)


def test_the_lobby_comes_in_pages_newest_first(monkeypatch):
    monkeypatch.setattr(sitedata, "LOBBY_ROWS", 2)

    async def scenario(server, url):
        dave = await Client.connect(url, "Dave")
        made = [int((await dave.create_table())["table"][1:]) for _ in range(3)]
        first = await get_json(url, "/api/lobby")
        assert [t["id"] for t in first["tables"]] == made[::-1][:2]
        assert (first["open"], first["next"]) == (3, 2)
        second = await get_json(url, f"/api/lobby?offset={first['next']}")
        assert [t["id"] for t in second["tables"]] == made[:1] and second["next"] is None
    run_scenario(scenario)


def test_a_live_table_as_json_follows_the_game():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url, time_control={"base": 600, "increment": 5})
        number = table[1:]
        await play_line(alice, bob, table, OPENING)
        detail = await get_json(url, f"/api/table/{number}")
        assert set(detail) >= DETAIL_KEYS
        engine = CamelotBoard()
        for move in OPENING:
            engine.play(move)
        assert detail["moves"] == OPENING
        assert detail["position"] == engine.position_text()
        assert detail["start"] == CamelotBoard().position_text()
        assert detail["turn"] == "white" and detail["status"] == "playing"
        assert detail["last_move"] == {"path": ["I11", "J12"], "captures": []}
        clocks = detail["clocks"]
        assert clocks["running"] == "white"
        assert 600 < clocks["black"] <= 610 and 590 < clocks["white"] <= 610
        assert detail["result"] is None and detail["present"] == {"white": True, "black": True}
        same = await get_json(url, f"/api/table/{table}")             # "T12" names it too
        assert (same["id"], same["moves"], same["version"]) == \
            (detail["id"], detail["moves"], detail["version"])
        await alice.resign(table)
        over = await get_json(url, f"/api/table/{number}")
        assert (over["status"], over["result"], over["reason"]) == ("finished", "0-1",
                                                                     "White resigned")
        assert over["clocks"]["running"] is None
    run_scenario(scenario)


def test_the_long_poll_answers_when_a_move_is_played():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        number = table[1:]
        seen = (await get_json(url, f"/api/table/{number}"))["version"]
        waiting = asyncio.create_task(get(url, f"/api/table/{number}?since={seen}"))
        await asyncio.sleep(0.3)
        assert not waiting.done(), "nothing changed: the request is held"
        await alice.move(table, OPENING[0])
        reply = await asyncio.wait_for(waiting, 2)
        detail = reply.json()
        assert detail["moves"] == OPENING[:1] and detail["version"] != seen
        stale = await get_json(url, f"/api/table/{number}?since=00000000")
        assert stale["moves"] == OPENING[:1], "an old version is answered at once"
    run_scenario(scenario)


def test_many_watchers_of_one_table_share_one_look_at_it():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        seen = (await get_json(url, f"/api/table/{table[1:]}"))["version"]
        waiting = [asyncio.create_task(get(url, f"/api/table/{table[1:]}?since={seen}"))
                   for _ in range(20)]
        await asyncio.sleep(0.3)
        assert server.web.waiting == 20 and len(server.web.watches) == 1
        await alice.move(table, OPENING[0])
        replies = await asyncio.wait_for(asyncio.gather(*waiting), 5)
        assert all(r.json()["moves"] == OPENING[:1] for r in replies)
        await asyncio.sleep(0.2)
        assert server.web.waiting == 0 and server.web.watches == {}
    run_scenario(scenario)


def test_a_watchers_stream_pushes_every_change_to_every_watcher():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        stream = f"{url}/api/watch/{table[1:]}"
        async with connect(stream) as one, connect(stream) as two:
            for ws in (one, two):
                first = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert set(first) >= DETAIL_KEYS and first["moves"] == []
            assert server.web.streams.count() == 2 and len(server.web.streams.lookers) == 1
            await play_line(alice, bob, table, OPENING[:2])
            for ws in (one, two):
                seen = []
                while len(seen) < 2:
                    seen = json.loads(await asyncio.wait_for(ws.recv(), 5))["moves"]
                assert seen == OPENING[:2]
            await one.send("hello?")
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(one.recv(), 5)
            assert closed.value.rcvd.code == 1008
        await asyncio.sleep(0.2)
        assert server.web.streams.count() == 0 and server.web.streams.lookers == {}
    run_scenario(scenario)


@pytest.mark.parametrize("path, status", [("/api/watch/999", 404), ("/api/watch/x1", 400),
                                          ("/api/watch/", 400)])
def test_a_stream_of_no_table_is_refused_at_the_upgrade(path, status):
    async def scenario(server, url):
        with pytest.raises(InvalidStatus) as refused:
            await connect(f"{url}{path}")
        assert refused.value.response.status_code == status
        alice = await Client.connect(url, "Alice")          # game connections still pass
        assert (await alice.lobby())["type"] == "lobby"
    run_scenario(scenario)


def test_streams_and_long_polls_are_limited_per_address(monkeypatch):
    monkeypatch.setattr(web, "MAX_PER_ADDRESS", 2)

    async def scenario(server, url):
        _, _, _, table = await seated_pair(url)
        stream = f"{url}/api/watch/{table[1:]}"
        kept = [await connect(stream) for _ in range(2)]
        with pytest.raises(InvalidStatus) as refused:
            await connect(stream)
        assert refused.value.response.status_code == 503
        assert b"2 streams from your address already" in refused.value.response.body
        other = await connect(stream, local_addr=("127.0.0.2", 0))    # another address may
        await kept.pop().close()
        await asyncio.sleep(0.1)
        kept.append(await connect(stream))                             # room again
        seen = (await get_json(url, f"/api/table/{table[1:]}"))["version"]
        path = f"/api/table/{table[1:]}?since={seen}"
        held = [asyncio.create_task(get(url, path)) for _ in range(2)]
        elsewhere = asyncio.create_task(get(url, path, source="127.0.0.2"))
        await asyncio.sleep(0.3)
        at_once = await asyncio.wait_for(get(url, path), 2)           # the third: not held
        assert at_once.json()["version"] == seen
        assert not any(task.done() for task in (*held, elsewhere))
        for ws in (*kept, other):
            await ws.close()
        for task in (*held, elsewhere):
            task.cancel()
    run_scenario(scenario)


def test_the_long_poll_gives_up_after_its_wait(monkeypatch):
    monkeypatch.setattr(web, "WAIT_SECONDS", 0.3)

    async def scenario(server, url):
        _, _, _, table = await seated_pair(url)
        seen = (await get_json(url, f"/api/table/{table[1:]}"))["version"]
        loop = asyncio.get_running_loop()
        started = loop.time()
        detail = await get_json(url, f"/api/table/{table[1:]}?since={seen}")
        assert detail["version"] == seen and loop.time() - started >= 0.25
    run_scenario(scenario)


def test_finished_games_the_archive_players_and_records():
    async def scenario(server, url):
        won = await finished_game(url, "Erin", "Frank", CASTLE_GAME)
        resigned = await finished_game(url, "Alice", "Erin", CASTLE_GAME[:9], resign="white",
                                       time_control={"base": 300, "increment": 3})
        archive = await get_json(url, "/api/archive")
        assert [g["id"] for g in archive["games"]] == [int(resigned[1:]), int(won[1:])]
        assert archive["next"] is None
        row = archive["games"][1]
        assert set(row) >= GAME_ROW_KEYS
        assert (row["white"], row["black"], row["result"], row["moves"]) == \
            ("Erin", "Frank", "0-1", len(CASTLE_GAME))
        assert row["reason"] == "Black occupies White's castle" and row["time_class"] == "untimed"
        searched = await get_json(url, "/api/archive?player=Frank")
        assert [g["id"] for g in searched["games"]] == [int(won[1:])]
        assert (await get_json(url, "/api/archive?player=Nobody"))["games"] == []

        erin = await get_json(url, "/api/player/Erin")
        assert erin["name"] == "Erin" and erin["ratings"] == {} and erin["guest"] is True
        assert [g["id"] for g in erin["games"]] == [int(resigned[1:]), int(won[1:])]
        assert (await get(url, "/api/player/Nobody")).status == 404
        assert (await get(url, "/player/Nobody")).status == 404
        assert (await get(url, "/player/Erin")).status == 200

        reply = await get(url, f"/api/game/{won[1:]}.camelot")
        erin_client = await Client.connect(url, "Reader")
        record = await erin_client.record(won)
        assert reply.status == 200 and reply.text == record["text"]
        assert f'filename="game-{won[1:]}.camelot"' in reply.headers["content-disposition"]
        assert '[Result "0-1"]' in reply.text

        finished = await get_json(url, f"/api/table/{won[1:]}")
        assert finished["moves"] == CASTLE_GAME and finished["result"] == "0-1"
        engine = CamelotBoard()
        for ply, move in zip(finished["replay"], CASTLE_GAME):
            played = engine.play(move).move
            assert ply["position"] == engine.position_text()
            assert ply["path"] == [SQUARE_NAMES[s] for s in played.path]
            assert ply["captures"] == sorted(SQUARE_NAMES[s] for s in played.captured)
        assert len(finished["replay"]) == len(CASTLE_GAME)
        assert finished["position"] == engine.position_text()
        assert finished == await get_json(url, f"/api/table/{won[1:]}")    # kept, unchanged
    run_scenario(scenario)


def test_old_games_replayed_at_most_so_many_a_second(monkeypatch):
    monkeypatch.setattr(sitedata, "REPLAYS_PER_SECOND", 2)

    async def scenario(server, url):
        games = [await finished_game(url, "Erin", "Frank", CASTLE_GAME[:3], resign="black")
                 for _ in range(3)]
        server.web.data._finished.clear()              # as after a restart: none replayed yet
        first, second, third = [await get(url, f"/api/table/{g[1:]}") for g in games]
        assert first.status == second.status == 200
        assert third.status == 503 and third.headers["retry-after"] == "1"
        assert "try again" in one_line(third)
        again = await get(url, f"/api/table/{games[0][1:]}")
        assert again.status == 200, "a game replayed once is kept"
    run_scenario(scenario)


def test_an_unfinished_game_has_no_record_yet():
    async def scenario(server, url):
        _, _, _, table = await seated_pair(url)
        reply = await get(url, f"/api/game/{table[1:]}.camelot")
        assert reply.status == 404 and one_line(reply) == f"there is no finished game {table[1:]}"
    run_scenario(scenario)


def test_the_leaderboard_without_ratings():
    async def scenario(server, url):
        board = await get_json(url, "/api/leaderboard?class=rapid")
        assert board["time_class"] == "rapid" and board["rows"] == [] and board["next"] is None
        assert {"blitz", "rapid", "classical"} <= set(board["time_classes"])
        reply = await get(url, "/api/leaderboard?class=bullet")
        assert reply.status == 400 and "class must be one of" in one_line(reply)
    run_scenario(scenario)


@pytest.mark.parametrize("base, increment, expected", [
    (None, 0, "untimed"), (180, 2, "blitz"), (300, 3, "blitz"), (600, 0, "rapid"),
    (900, 10, "rapid"), (1500, 0, "classical"), (3600, 30, "classical")])
def test_time_classes(base, increment, expected):
    assert time_class(None if base is None else (base, increment)) == expected


BAD_REQUESTS = [
    # path, status, the line (or a part of it)
    ("/nowhere", 404, "there is no page /nowhere"),
    ("/api/nowhere", 404, "there is no API address /api/nowhere"),
    ("/api/table/999", 404, "there is no table 999"),
    ("/api/table/12x", 400, "'12x' is not a table id"),
    ("/api/table/1234567890", 400, "is not a table id"),
    ("/api/table/-1", 400, "is not a table id"),
    ("/static/../web.py", 404, "there is no page"),
    ("/static/..%2Fweb.py", 404, "there is no page"),
    ("/static/%2e%2e%2f%2e%2e%2fpyproject.toml", 404, "there is no page"),
    ("/api/game/..%2F..%2Fetc%2Fpasswd", 400, "/api/game/ID.camelot"),
    ("/api/game/5.txt", 400, "/api/game/ID.camelot"),
    ("/api/player/%FF%FE", 400, "not valid UTF-8"),
    ("/api/player/Bad%01Name", 400, "control or invisible character"),
    ("/api/player/" + "x" * 30, 400, "longer than 24 characters"),
    ("/api/archive?offset=-3", 400, "offset must be a whole number"),
    ("/api/archive?offset=99999999999", 400, "offset must be a whole number"),
    ("/api/archive?offset=%C2%B2", 400, "offset must be a whole number"),
    ("/api/archive?player=a&player=b", 400, "'player' is given more than once"),
    ("/api/archive?" + "&".join(f"k{i}=1" for i in range(20)), 400, "too many fields"),
    ("/api/archive?player=%FF", 400, "not valid UTF-8"),
    ("/api/lobby?x=" + "y" * 3000, 414, "longer than 2048 characters"),
    ("*", 400, "the address must be a path starting with /"),
]


@pytest.mark.parametrize("path, status, line", BAD_REQUESTS)
def test_a_bad_request_gets_a_status_and_one_line(path, status, line):
    async def scenario(server, url):
        reply = await get(url, path)
        assert reply.status == status, (reply.status, reply.body[:300])
        if not path.startswith("/") or path.startswith("/api/"):
            assert reply.headers["content-type"].startswith("text/plain")
            assert line in one_line(reply)
        else:
            assert reply.headers["content-type"].startswith("text/html")
            assert line in reply.text and "Traceback" not in reply.text
        assert (await get(url, "/healthz")).status == 200      # and the server goes on
    run_scenario(scenario)


def test_an_absolute_address_is_read_as_its_path():
    async def scenario(server, url):
        reply = await get(url, f"{url.replace('ws://', 'http://')}/healthz")
        assert reply.status == 200 and reply.text == "ok\n"
    run_scenario(scenario)


def test_a_bug_of_ours_is_a_500_and_one_line(capfd):
    async def scenario(server, url):
        def broken(*args):
            raise KeyError("oops")
        server.web.data.lobby = broken
        reply = await get(url, "/api/lobby")
        assert reply.status == 500 and one_line(reply) == "the server could not answer that"
        assert (await get(url, "/healthz")).status == 200
    run_scenario(scenario)
    assert "server: web: internal error on /api/lobby: KeyError('oops')" in capfd.readouterr().err


def test_other_methods_and_what_websockets_refuses_itself():
    async def scenario(server, url):
        huge = await get(url, "/api/lobby?x=" + "y" * 9000)
        assert huge.status == 414
        posted = await get(url, "/api/lobby", method="POST")
        assert posted.status == 405 and "only GET" in one_line(posted)
        head = await get(url, "/api/lobby", method="HEAD")
        assert head.status == 200 and head.body == b"" and int(head.headers["content-length"]) > 0
        alice = await Client.connect(url, "Alice")                  # the game protocol still works
        assert (await alice.lobby())["type"] == "lobby"
        assert (await get(url, "/healthz")).status == 200
    run_scenario(scenario)


def test_every_page_is_html_that_loads_shipped_files():
    async def scenario(server, url):
        await finished_game(url, "Erin", "Frank", CASTLE_GAME[:3], resign="black")
        shipped = {p.name for p in web.PAGES.iterdir()}
        for path in ("/", "/table/1", "/table/T1", "/player/Erin", "/leaderboard", "/archive",
                     "/archive?player=Erin", "/leaderboard/"):
            reply = await get(url, path)
            assert reply.status == 200 and reply.headers["content-type"] == web.HTML, path
            assert "default-src 'self'" in reply.headers["content-security-policy"]
            for asset in ("style.css", "site.js", "board.js", "favicon.svg"):
                assert f"/static/{asset}" in reply.text and asset in shipped
            assert "{{" not in reply.text, "every place in the layout is filled"
        for asset, kind in (("style.css", "text/css"), ("site.js", "text/javascript"),
                            ("board.js", "text/javascript"), ("favicon.svg", "image/svg+xml")):
            reply = await get(url, f"/static/{asset}")
            assert reply.status == 200 and reply.headers["content-type"].startswith(kind)
            assert reply.body == (web.PAGES / asset).read_bytes()
    run_scenario(scenario)


def test_the_pages_are_in_the_package_data():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "game.server" in config["packages"]
    patterns = config["package-data"]["game.server"]
    files = [p.relative_to(web.PAGES.parent).as_posix() for p in web.PAGES.iterdir()]
    assert files and all(any(fnmatch(f, pattern) for pattern in patterns) for f in files), files
