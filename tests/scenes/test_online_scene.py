"""Camelot online in the real app, headless, against a scripted client.

A server runs on a thread on 127.0.0.1 (an ephemeral port, a database in
tmp_path). The app goes from the board game's "Play online" mode to the
connect screen (the address typed in), the lobby and a seat; Bob is a scripted
client (game.net's NetBridge over game.net.client). Every wait is bounded by
wall-clock seconds, and the frames keep coming while the app waits: the network
never blocks the frame loop.
"""
import asyncio
import threading
import time
from pathlib import Path

import pygame
import pytest

from game.camelot.moves import parse_square
from game.net.bridge import NetBridge
from game.server.host import ServerThread
from game.server.game_server import GameServer
from scenes.games.camelot_online import CamelotOnlineScene, clock_text
from scenes.screens.navigation import open_game
from scenes.screens.online import OnlineScene, parse_invite
from scenes.store.saves import load_save
from scenes.table.board_view import PATH_COMPUTER, PATH_PLAYER
from tests.net.test_bridge import of, wait_for

from .harness import click, key, make_app, pad, post, settle, step

WAIT = 5.0
ROOT = Path(__file__).resolve().parents[2]


def until(app, condition, what: str, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        step(app)
        time.sleep(0.003)


def type_text(app, text: str) -> None:
    post(pygame.TEXTINPUT, text=text)
    step(app)


def replace_text(app, field, text: str) -> None:
    click(app, field.rect.center)
    assert field.active and app.input.typing
    for _ in range(len(field.text)):
        key(app, pygame.K_BACKSPACE)
    assert field.text == ""
    type_text(app, text)


def button(scene, label: str):
    return next(b for b in scene.focus.buttons if b.label == label)


def toolbar(scene, label: str):
    return next(b for b in scene.toolbar.buttons if b.label == label)


def square(scene, name):
    return scene.table.view.square_centre(parse_square(name))


def focus_to(app, scene, name):
    target = parse_square(name)
    keys = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT, "right": pygame.K_RIGHT}
    for _ in range(40):
        if scene.table.focus_sq == target:
            return
        (fx, fy), (tx, ty) = scene.table.view.square_centre(scene.table.focus_sq), scene.table.view.square_centre(target)
        if abs(tx - fx) >= abs(ty - fy):
            key(app, keys["right" if tx > fx else "left"])
        else:
            key(app, keys["down" if ty > fy else "up"])
    raise AssertionError(f"focus never reached {name}")


def toasts(app) -> str:
    return " | ".join(text for text, _ in app._toasts)


@pytest.fixture
def served(tmp_path):
    db = str(tmp_path / "host.sqlite3")
    hosts = [ServerThread(db)]
    hosts[0].start()
    links = []
    yield db, hosts, links
    for link in links:
        link.close()
    for host in hosts:
        host.stop()


def scripted(served, name: str, **options) -> NetBridge:
    """A scripted client (closed after the test), once the server has welcomed it."""
    _, hosts, links = served
    link = NetBridge(hosts[-1].url, name, **options)
    links.append(link)
    link.start()
    wait_for(link, of("welcome"))
    return link


def lobby_as(served, name: str, **options):
    """The app at the lobby of the test's server, as ``name``."""
    app = make_app()
    online = OnlineScene(app, name=name, address=f"127.0.0.1:{served[1][-1].port}", **options)
    app.scenes.reset(online)
    step(app)
    online.connect()
    until(app, lambda: online.session.online, "the lobby")
    return app, online


def test_a_game_online_through_the_apps_own_input(served):
    db, hosts, links = served
    port = hosts[0].port
    bob = scripted(served, "Bob", retry_delays=(0.1,))
    bob.send({"type": "create_table", "private": False, "time": {"base": 600, "increment": 5}})
    table_id = wait_for(bob, of("table_created"))["table"]
    bob.send({"type": "sit", "table": table_id, "color": "white"})
    token = wait_for(bob, of("seated"))["token"]

    # The board game's modes → "Play online" → the connect screen; the address is typed.
    app = make_app()
    open_game(app, "camelot-board")
    step(app, 2)
    click(app, button(app.scenes.top, "Play online").rect.center)
    online = app.scenes.top
    assert isinstance(online, OnlineScene) and online.state == "connect"
    replace_text(app, online.name_field, "Alice")
    replace_text(app, online.address_field, f"127.0.0.1:{port}")
    key(app, pygame.K_h)                          # a letter while typing is text, not Hint
    assert online.address_field.text == f"127.0.0.1:{port}"
    key(app, pygame.K_RETURN)
    assert online.state == "lobby" and not app.input.typing
    until(app, lambda: online.session.online and online.session.tables, "the lobby")
    assert set(online.session.users) == {"Alice", "Bob"}

    # Bob's table in the list → Sit as Black → the table opens over the lobby.
    click(app, online.focus.buttons[0].rect.center)
    click(app, button(app.scenes.top, "Sit as Black").rect.center)
    until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the table")
    scene = app.scenes.top
    assert scene.color == "black" and scene.flipped
    # Both seats are taken: the app starts the game itself.
    until(app, lambda: scene.info.status == "playing", "the start")
    wait_for(bob, of("table", status="playing"))
    assert clock_text(scene.clock_ms("white")) == "10:00"

    # Bob's move arrives and travels like the computer's: the path first, then the piece.
    bob.send({"type": "move", "table": table_id, "token": token, "move": "D6-C5"})
    until(app, lambda: scene.table.travel is not None, "Bob's move")
    assert scene.table.travel.color == PATH_COMPUTER and not scene.table.travel.moving
    assert scene.game.history == ["D6-C5"]
    settle(app, scene)
    assert scene.table.last_move[0] == (parse_square("D6"), parse_square("C5"))

    # Alice plays with the mouse: sent, and played only when the server acknowledges it.
    # (The send is held back here, so the frames in between are seen.)
    held, send = [], scene.session.bridge.send
    scene.session.bridge.send = held.append
    click(app, square(scene, "D11"))
    click(app, square(scene, "C12"))
    step(app, 5)
    assert [m["move"] for m in held] == ["D11-C12"] and held[0]["token"]
    assert scene.pending == "D11-C12" and len(scene.game.history) == 1
    assert scene.status_line() == "Sending D11-C12…"
    assert not scene.interactive
    scene.session.bridge.send = send
    send(held.pop())
    until(app, lambda: len(scene.game.history) == 2, "the acknowledgement")
    assert scene.pending is None and scene.game.history[-1] == "D11-C12"
    app.save_game_in_progress()                    # as on quitting: the server keeps it,
    assert load_save()[0] is None                  # not the save file
    assert wait_for(bob, of("moved", ply=2))["by"] == "black"

    # A refusal from the server is shown in one line; the game is unchanged.
    click(app, toolbar(scene, "Offer draw").rect.center)
    wait_for(bob, of("draw_offer", by="black"))
    click(app, toolbar(scene, "Offer draw").rect.center)
    until(app, lambda: "The server refused" in toasts(app), "the refusal")
    assert "\n" not in toasts(app) and scene.game.history == ["D6-C5", "D11-C12"]
    bob.send({"type": "decline_draw", "table": table_id, "token": token})
    until(app, lambda: any("declines" in text for _, text in scene.info.chat), "the decline")

    # Bob offers a draw: Alice is asked, and declines with the gamepad's B.
    bob.send({"type": "offer_draw", "table": table_id, "token": token})
    until(app, lambda: getattr(app.scenes.top, "title", "") == "Draw offered", "the offer")
    pad(app, pygame.CONTROLLER_BUTTON_B)
    wait_for(bob, of("draw_declined", by="black"))
    assert app.scenes.top is scene

    # A message this app cannot read (not protocol v1): one line, nothing changes.
    scene.session.bridge._inbox.put({"type": "moved", "table": table_id, "ply": 3})
    step(app)
    assert "The server sent a 'moved' message this app cannot read" in toasts(app)
    assert len(scene.game.history) == 2

    # The server goes away: one line says so, and the app keeps drawing frames.
    hosts[0].stop()
    until(app, lambda: scene.session.link == "offline", "the lost connection")
    line = scene.status_line()
    assert line.startswith("Connection lost") and "\n" not in line
    assert scene._hud_texts()["centre"][0][0] == line
    step(app, 10)
    # Back on the same port and database: the seat is resumed, the game goes on.
    hosts.append(ServerThread(db, port=port))
    hosts[-1].start()
    until(app, lambda: scene.session.online, "the reconnection")
    assert not scene.status_line().startswith("Connection lost")
    wait_for(bob, of("table", table=table_id))
    until(app, lambda: all((scene.info.seats[c] or {}).get("present") for c in ("white", "black")),
          "both players back")
    assert scene.game.history == ["D6-C5", "D11-C12"]
    bob.send({"type": "move", "table": table_id, "token": token, "move": "I6-J5"})
    until(app, lambda: len(scene.game.history) == 3, "Bob's move after the restart")
    settle(app, scene)

    # Alice moves with the keyboard: arrows, Enter on the piece, Enter on the square.
    key(app, pygame.K_DOWN)                        # the keyboard takes over from the mouse
    focus_to(app, scene, "I11")
    key(app, pygame.K_RETURN)
    assert scene.table.selected == parse_square("I11")
    focus_to(app, scene, "J12")
    key(app, pygame.K_RETURN)
    until(app, lambda: len(scene.game.history) == 4, "the keyboard move")
    assert scene.table.travel is None or scene.table.travel.color == PATH_PLAYER
    assert wait_for(bob, of("moved", ply=4))["move"] == "I11-J12"

    # Chat: typed on the keyboard, and a gamepad's set phrase.
    bob.send({"type": "chat", "table": table_id, "text": "Good luck!"})
    until(app, lambda: ("Bob", "Good luck!") in scene.info.chat, "Bob's chat")
    click(app, scene.chat_field.rect.center)
    type_text(app, "Thanks, you too")
    key(app, pygame.K_RETURN)
    assert wait_for(bob, of("chat", **{"from": "Alice"}))["text"] == "Thanks, you too"
    pad(app, pygame.CONTROLLER_BUTTON_X)           # the set phrases
    pad(app, pygame.CONTROLLER_BUTTON_A)           # the first one
    assert wait_for(bob, of("chat", **{"from": "Alice"}))["text"] == "Hello!"

    # Bob resigns: the game is over for Alice too.
    bob.send({"type": "resign", "table": table_id, "token": token})
    until(app, lambda: scene.over_shown, "the end")
    assert app.scenes.top.title == "You won!"
    click(app, button(app.scenes.top, "Save the game record").rect.center)
    until(app, lambda: getattr(scene, "saved_record", None) is not None, "the record")
    text = scene.saved_record.read_text(encoding="utf-8")
    assert '[Result "0-1"]' in text and "1.D6-C5 D11-C12" in text
    online.session.close()


def test_invite_codes_are_read_leniently_and_refused_when_wrong():
    assert parse_invite("T3-ABCD") == ("T3", "ABCD")
    assert parse_invite(" t12 / x9y8 ") == ("T12", "X9Y8")
    assert parse_invite("ABCD") is None
    assert parse_invite("T-ABCD") is None


def test_a_text_field_drops_control_and_invisible_characters():
    from scenes.core.text_field import clean
    assert clean("a\u202eb\x07c\u200dd é") == "abcd é"


def test_a_private_table_by_invite_code_and_a_watcher(served):
    db, hosts, links = served
    bob = scripted(served, "Bob")
    bob.send({"type": "create_table", "private": True, "time": None})
    created = wait_for(bob, of("table_created"))
    table_id, invite = created["table"], created["invite"]
    bob.send({"type": "sit", "table": table_id, "color": "white", "invite": invite})
    token = wait_for(bob, of("seated"))["token"]

    app = make_app()
    online = OnlineScene(app, name="Alice", address=f"127.0.0.1:{hosts[0].port}")
    app.scenes.reset(online)
    step(app)
    for _ in range(5):                             # name, password, address, Sign in, Register
        key(app, pygame.K_DOWN)
    assert online.focus.buttons[online.focus.focus].label == "Play as guest"
    key(app, pygame.K_RETURN)
    until(app, lambda: online.session.online, "the lobby")
    assert online.session.tables == []             # a private table is not listed
    click(app, online.invite_field.rect.center)
    type_text(app, f"{table_id.lower()}-{invite.lower()}")
    key(app, pygame.K_RETURN)
    until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the private table")
    scene = app.scenes.top
    assert scene.color == "black"
    until(app, lambda: scene.info.status == "playing", "the start")

    # Carol watches from another app-side session: she sees the moves and cannot play.
    carol = scripted(served, "Carol")
    carol.send({"type": "watch", "table": table_id, "invite": invite})
    until(app, lambda: scene.info.spectators == ["Carol"], "the watcher")
    bob.send({"type": "move", "table": table_id, "token": token, "move": "F7-F8"})
    assert wait_for(carol, of("moved", ply=1))["move"] == "F7-F8"
    until(app, lambda: scene.game.history == ["F7-F8"], "Bob's move")

    # Back to the lobby: the seat is left (kept, absent), the lobby takes over.
    click(app, toolbar(scene, "Lobby").rect.center)
    assert app.scenes.top is online
    wait_for(bob, lambda m: m.get("type") == "table"
             and (m["seats"]["black"] or {}).get("present") is False)
    # The same code again takes the seat back, and the game goes on.
    click(app, online.invite_field.rect.center)
    type_text(app, f"{table_id}-{invite}")
    key(app, pygame.K_RETURN)
    until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the seat again")
    again = app.scenes.top
    assert again.color == "black" and again.game.history == ["F7-F8"]
    wait_for(bob, lambda m: m.get("type") == "table"
             and (m["seats"]["black"] or {}).get("present") is True)
    until(app, lambda: again.interactive, "Alice's turn")
    online.session.close()


def test_a_name_in_use_and_a_server_away_are_each_one_line(served):
    db, hosts, links = served
    scripted(served, "Alice")
    app = make_app()
    online = OnlineScene(app, name="Alice", address=f"127.0.0.1:{hosts[0].port}",
                         retry_delays=(0.2,))
    app.scenes.reset(online)
    step(app)
    online.connect()
    until(app, lambda: online.session.link == "offline", "the refusal")
    assert online.session.link_line() == "'Alice' is already online. Retrying…"
    online.disconnect()
    assert online.state == "connect"
    # Nothing listens here any more: the same one line, with the reason.
    port = hosts[0].port
    hosts[0].stop()
    online.connect(f"ws://127.0.0.1:{port}")
    until(app, lambda: online.session.link == "offline", "the failure")
    line = online.session.link_line()
    assert line == f"Cannot reach ws://127.0.0.1:{port}: nothing answers there. Retrying…"
    online.disconnect()


def test_watching_a_game_from_the_lobby(served):
    db, hosts, links = served
    bob, dave = scripted(served, "Bob"), scripted(served, "Dave")
    bob.send({"type": "create_table", "private": False, "time": None})
    table_id = wait_for(bob, of("table_created"))["table"]
    bob.send({"type": "sit", "table": table_id, "color": "white"})
    bob_token = wait_for(bob, of("seated"))["token"]
    dave.send({"type": "sit", "table": table_id, "color": "black"})
    wait_for(dave, of("seated"))
    bob.send({"type": "start", "table": table_id, "token": bob_token})
    wait_for(bob, of("table", status="playing"))

    app, online = lobby_as(served, "Carol")
    until(app, lambda: online.session.tables, "the tables")
    erin = scripted(served, "Erin")                # in the lobby (Bob and Dave sit at a table)
    click(app, online.chat_field.rect.center)      # the lobby chat, typed
    type_text(app, "Who is winning?")
    key(app, pygame.K_RETURN)
    assert wait_for(erin, of("lobby_chat", **{"from": "Carol"}))["text"] == "Who is winning?"
    until(app, lambda: ("Carol", "Who is winning?") in online.session.lobby_chat, "the echo")
    click(app, online.focus.buttons[0].rect.center)
    dialog = app.scenes.top
    assert [b.label for b in dialog.focus.buttons] == ["Watch", "Cancel"]   # no free seat
    click(app, button(dialog, "Watch").rect.center)
    until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the table")
    scene = app.scenes.top
    assert scene.color is None and not scene.interactive
    click(app, square(scene, "F7"))                # a watcher's click selects nothing
    assert scene.table.selected is None
    bob.send({"type": "move", "table": table_id, "token": bob_token, "move": "F7-F8"})
    until(app, lambda: scene.table.travel is not None, "the move")
    assert scene.table.travel.color == PATH_COMPUTER and "Carol" in scene.info.spectators
    online.session.close()


def test_news_in_the_same_frame_as_the_seat_reaches_the_table(served):
    """Alice's seat and Bob's arrive in one poll: the table that opens on the
    first must still get the second (it once went to the lobby and was lost)."""
    bob = scripted(served, "Bob")
    bob.send({"type": "create_table", "private": False, "time": None})
    table_id = wait_for(bob, of("table_created"))["table"]
    app, online = lobby_as(served, "Alice")
    until(app, lambda: online.session.tables, "the tables")
    inbox = online.session.bridge._inbox          # no frame runs until all three are in

    def arrived(what):
        # By content, not by count: a lobby push sent before the sit may come in too.
        deadline = time.monotonic() + WAIT
        while not any(what(m) for m in list(inbox.queue)):
            assert time.monotonic() < deadline, "the messages never came"
            time.sleep(0.005)

    def table_with(name):
        return lambda m: (m.get("type") == "table"
                          and ((m.get("seats") or {}).get("white") or {}).get("name") == name)
    online.sit(table_id, "black")
    arrived(lambda m: m.get("type") == "seated")   # seated, table
    bob.send({"type": "sit", "table": table_id, "color": "white"})
    arrived(table_with("Bob"))                     # table, with Bob
    step(app)
    scene = app.scenes.top
    assert isinstance(scene, CamelotOnlineScene)
    assert scene.info.seats["white"]["name"] == "Bob"
    until(app, lambda: scene.info.status == "playing", "the start")
    online.session.close()


def test_host_on_this_computer_then_a_friend_joins(monkeypatch, tmp_path):
    monkeypatch.setenv("ROUNDTABLE_NET_LOOPBACK", "1")    # 127.0.0.1 only, any free port
    app = make_app()
    online = OnlineScene(app, name="Alice", db=str(tmp_path / "hosted.sqlite3"))
    app.scenes.reset(online)
    step(app)
    assert online.address_field.text == ""           # nothing to dial by accident
    click(app, button(online, "Host on this computer").rect.center)
    until(app, lambda: online.session is not None and online.session.online, "the hosted server")
    host, port = online.friend_address.split(":")
    assert host == "127.0.0.1" and int(port) > 0
    friend = NetBridge(f"ws://{online.friend_address}", "Bob")
    try:
        friend.start()
        wait_for(friend, of("welcome"))
        until(app, lambda: set(online.session.users) == {"Alice", "Bob"}, "the friend")
        click(app, button(online, "Disconnect").rect.center)   # the server stops with it
        assert online.state == "connect" and online.friend_address == ""
        wait_for(friend, of("link", state="offline"))
    finally:
        friend.close()


def test_a_spectator_sees_a_game_both_players_left_closed_with_no_result(tmp_path):
    """Situation: Alice (the app) watches Bob and Carol's started game on a server that
    closes deserted tables after 1 s. Action: both players leave. Expected: the app
    shows the end as "No result" with the server's reason, not as a draw."""
    host = ServerThread(str(tmp_path / "abandon.sqlite3"), abandon_after=1.0)
    host.start()
    links = []
    try:
        served = (None, [host], links)
        bob, carol = scripted(served, "Bob"), scripted(served, "Carol")
        bob.send({"type": "create_table", "private": False, "time": None})
        table_id = wait_for(bob, of("table_created"))["table"]
        tokens = {}
        for link, color in ((bob, "white"), (carol, "black")):
            link.send({"type": "sit", "table": table_id, "color": color})
            tokens[color] = wait_for(link, of("seated"))["token"]
        bob.send({"type": "start", "table": table_id, "token": tokens["white"]})
        wait_for(bob, of("table", status="playing"))
        app, online = lobby_as(served, "Alice")
        until(app, lambda: online.session.tables, "the table in the lobby")
        click(app, online.focus.buttons[0].rect.center)
        click(app, button(app.scenes.top, "Watch").rect.center)
        until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the table")
        scene = app.scenes.top
        for link in (bob, carol):
            link.send({"type": "leave", "table": table_id})
        until(app, lambda: scene.over_shown, "the end", seconds=10)
        assert app.scenes.top.title == "No result"
        assert "Abandoned: both players were away for 1 s." in app.scenes.top.lines
        online.session.close()
    finally:
        for link in links:
            link.close()
        host.stop()


class _HeldServer(GameServer):
    """A server whose start waits for ``gate`` (the bind made slow on purpose)."""
    gate = threading.Event()

    async def start(self, host="127.0.0.1", port=0):
        for _ in range(1000):                        # at most 10 s
            if self.gate.is_set():
                break
            await asyncio.sleep(0.01)
        return await super().start(host, port)


def test_host_on_this_computer_starts_off_the_frame_loop_and_says_starting(monkeypatch, tmp_path):
    """Situation: the connect screen; the server takes its time to listen. Action: press
    "Host on this computer", draw frames, press it again, then let the server listen.
    Expected: the press returns at once and the button says "Starting the server…"
    while frames go on (one server, not two); once it listens the app joins it; going
    back while a server is starting stops it."""
    import game.server.host as host_module
    from scenes.screens.online import HOST_STARTING
    monkeypatch.setenv("ROUNDTABLE_NET_LOOPBACK", "1")
    monkeypatch.setattr(host_module, "GameServer", _HeldServer)
    _HeldServer.gate.clear()
    app = make_app()
    online = OnlineScene(app, name="Alice", db=str(tmp_path / "hosted.sqlite3"))
    app.scenes.reset(online)
    step(app)
    click(app, button(online, "Host on this computer").rect.center)
    starting = online.starting
    assert starting is not None and online.session is None
    step(app, 10)                                    # frames go on while it starts
    assert online.starting is starting and button(online, HOST_STARTING)
    click(app, button(online, HOST_STARTING).rect.center)
    assert online.starting is starting               # pressed again: still the one server
    _HeldServer.gate.set()
    until(app, lambda: online.session is not None and online.session.online, "the hosted server")
    assert online.starting is None and online.friend_address.endswith(f":{starting.port}")
    assert online.session.host is starting
    click(app, button(online, "Disconnect").rect.center)
    assert starting._thread is None                  # stopped and joined

    # Back to the menu while a second server is still starting: it is stopped too.
    _HeldServer.gate.clear()
    click(app, button(online, "Host on this computer").rect.center)
    second = online.starting
    threading.Timer(0.2, _HeldServer.gate.set).start()
    click(app, button(online, "Back").rect.center)
    assert second._thread is None and online.starting is None


def test_quitting_while_hosting_stops_the_server_and_closes_its_database(tmp_path):
    """Situation: a program hosting a server (as the app does) with a table stored.
    Action: it exits without stopping the server. Expected: the exit handler stops it:
    the database is closed cleanly (no write-ahead log left) and holds the table."""
    import sqlite3
    import subprocess
    import sys
    db = tmp_path / "hosted.sqlite3"
    script = (
        "import asyncio, sys\n"
        "from game.server.host import ServerThread\n"
        "from game.net.client import Client\n"
        "host = ServerThread(sys.argv[1]); host.start()\n"
        "async def table():\n"
        "    alice = await Client.connect(host.url, 'Alice')\n"
        "    await alice.create_table()\n"
        "    await alice.close()\n"
        "asyncio.run(table())\n")
    done = subprocess.run([sys.executable, "-c", script, str(db)], cwd=ROOT, timeout=60,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "hosted.sqlite3-wal").exists()
    with sqlite3.connect(db) as check:
        assert check.execute("SELECT COUNT(*) FROM tables").fetchone() == (1,)
