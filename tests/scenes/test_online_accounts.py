"""Accounts in the real app, headless, against a real server on 127.0.0.1.

Register and sign in are typed and clicked on the connect screen; the session
token the server gives is kept (accounts.json in the test's home folder) and the
next app continues signed in without the password. A refusal is one line on the
connect screen; a damaged kept file is set aside with one line. The lobby shows
each seat's rating and deviation, a provisional one marked.
"""
import json

import pygame

from scenes.screens.online import OnlineScene
from scenes.store.accounts import accounts_path, load_accounts
from tests.net.test_bridge import of, wait_for

from .harness import click, key, make_app, step
from game.net.bridge import NetBridge, SessionEnd

from .test_online_scene import (button, replace_text, served, scripted, toasts,  # noqa: F401
                                until)


def connect_screen(served):
    app = make_app()
    online = OnlineScene(app, name="", address=f"127.0.0.1:{served[1][-1].port}",
                         retry_delays=(0.2,))
    app.scenes.reset(online)
    step(app)
    return app, online


def type_into(app, field, text: str) -> None:
    replace_text(app, field, text)


def focus_on(app, scene, label: str) -> None:
    """Down, then Right (buttons side by side), as a keyboard would, until ``label``
    has the focus (at most once round each way)."""
    for arrow in (pygame.K_DOWN, pygame.K_RIGHT):
        for _ in range(len(scene.focus.buttons) + 1):
            if scene.focus.buttons[scene.focus.focus].label == label:
                return
            key(app, arrow)
    raise AssertionError(f"the keyboard never reached {label!r}")


def register_in_app(served, name: str, password: str):
    """A new app registers ``name`` by typing and clicking; returns it at the lobby."""
    app, online = connect_screen(served)
    type_into(app, online.name_field, name)
    type_into(app, online.password_field, password)
    click(app, button(online, "Register").rect.center)
    until(app, lambda: online.session.online and online.session.welcome, "the lobby")
    return app, online


def test_register_then_the_next_start_continues_signed_in(served):
    app, online = register_in_app(served, "Alice", "correct horse")
    assert online.session.name == "Alice" and online.session.guest is False
    assert online.password_field.text == ""              # not left on screen
    kept, problem = load_accounts()
    url = online.session.url
    assert problem is None and kept[url].name == "Alice"
    assert kept[url].session == online.session.welcome["session"]
    assert "correct horse" not in accounts_path().read_text()
    online.disconnect()

    # A new app: the address typed is known, so "Continue as Alice" is offered; by keyboard.
    app, online = connect_screen(served)
    labels = [b.label for b in online.focus.buttons]
    assert "Continue as Alice" in labels
    focus_on(app, online, "Continue as Alice")
    key(app, pygame.K_RETURN)
    until(app, lambda: online.session.online and online.session.welcome, "the lobby again")
    assert online.session.name == "Alice" and not online.session.guest
    assert online.session.welcome["session"] == kept[url].session
    online.disconnect()


def test_a_wrong_password_is_one_line_and_nothing_is_kept(served):
    bob = scripted(served, "Bob", password="bobs password", register=True)
    app, online = connect_screen(served)
    type_into(app, online.name_field, "BOB")                 # any spelling of the name
    type_into(app, online.password_field, "not his password")
    key(app, pygame.K_RETURN)                                # Enter with a password signs in
    until(app, lambda: online.state == "connect" and online.problem, "the refusal")
    assert online.problem == "Wrong name or password"
    assert load_accounts() == ({}, None)
    bob.close()


def test_an_ended_session_is_forgotten_with_one_line(served):
    app, online = register_in_app(served, "Carol", "carols password")
    online.disconnect()
    # Carol changes her password elsewhere: every other session ends.
    other = scripted(served, "Carol", password="carols password")
    other.send({"type": "change_password", "old": "carols password", "new": "a new password"})
    wait_for(other, of("password_changed"))
    app, online = connect_screen(served)
    click(app, button(online, "Continue as Carol").rect.center)
    until(app, lambda: online.state == "connect" and online.problem, "the refusal")
    assert online.problem == "The kept sign-in has ended: sign in again"
    assert load_accounts() == ({}, None)
    assert "Continue as Carol" not in [b.label for b in online.focus.buttons]


def test_a_damaged_accounts_file_is_set_aside_with_one_line(served):
    path = accounts_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"version": 1, "servers": ')
    app, online = connect_screen(served)
    assert online.problem.startswith("Online accounts file was unreadable")
    assert "kept as accounts.json.bad-" in online.problem
    assert not path.exists() and list(path.parent.glob("accounts.json.bad-*"))
    # A token that is not one is dropped, the rest kept.
    path.write_text(json.dumps({"version": 1, "servers": {
        "ws://a:1": {"name": "Al", "session": "x" * 43},
        "ws://b:1": {"name": "Bo", "session": "not a token!"}}}))
    kept, problem = load_accounts()
    assert problem is None and list(kept) == ["ws://a:1"]


def test_the_lobby_shows_ratings_and_a_guest(served):
    dave = scripted(served, "Dave", password="daves password", register=True)
    dave.send({"type": "create_table", "private": False, "time": {"base": 300, "increment": 3},
               "rated": True})
    table = wait_for(dave, of("table_created"))["table"]
    dave.send({"type": "sit", "table": table, "color": "white"})
    wait_for(dave, of("seated"))
    app, online = connect_screen(served)
    type_into(app, online.name_field, "Erin")
    click(app, button(online, "Play as guest").rect.center)
    until(app, lambda: online.session.online and online.session.tables, "the lobby")
    assert online.session.guest
    row = online.focus.buttons[0].label
    assert row.startswith(f"{table}: Dave 1500 ±350? v — · waiting · 5+3 · rated")
    # Erin (a guest) sits at a casual table of Dave's: marked as a guest.
    dave.send({"type": "create_table", "private": False, "time": None})
    casual = wait_for(dave, of("table_created"))["table"]
    dave.send({"type": "sit", "table": casual, "color": "white"})
    wait_for(dave, of("seated"))
    online.sit(casual, "black")
    until(app, lambda: online.table_scene is not None, "the casual table")
    scene = online.table_scene
    assert scene.side_label("black") == "Erin (guest) (you)"
    assert scene.side_label("white").startswith("Dave 1500 ±350?")
    dave.close()


def test_the_lobby_pages_with_ones_own_tables_first(served):
    import dataclasses
    _, hosts, _ = served
    server = hosts[0]._server
    server.limits = dataclasses.replace(server.limits, lobby_page=5)   # pages of 5 tables
    for name in ("Bob", "Carol", "Dave"):     # accounts: a guest's limit is per address
        link = scripted(served, name, password=f"{name} password", register=True)
        for _ in range(4):
            link.send({"type": "create_table", "private": False, "time": None})
            wait_for(link, of("table_created"))
    app, online = connect_screen(served)
    type_into(app, online.name_field, "Alice")
    click(app, button(online, "Play as guest").rect.center)
    until(app, lambda: online.session.lobby.get("total") == 12, "the lobby")
    assert online.page_line() == "Tables 1–5 of 12, newest first"
    assert not button(online, "Newer").enabled and button(online, "Older").enabled

    # Alice opens a private table of her own, then comes back (before the start her seat
    # is freed): the table she created is listed first.
    online.create_table(True)
    click(app, button(app.scenes.top, "No clock").rect.center)
    until(app, lambda: online.table_scene is not None, "her table")
    online.table_scene.back_to_lobby()
    until(app, lambda: online.session.mine, "her own table in the lobby")
    mine = online.session.mine[0]["table"]
    # the rows are rebuilt from the lobby message on the frame after it arrives
    until(app, lambda: online.focus.buttons[0].label.startswith(f"{mine}: "), "her table's row")
    assert online.focus.buttons[0].label.startswith(f"{mine}: — v — · waiting")
    assert online.focus.buttons[0].label.endswith(" · yours")
    assert online.page_line() == "Tables 1–5 of 12, newest first · yours first (1)"

    # Older, by keyboard and by mouse: the next server pages; her table stays on top.
    focus_on(app, online, "Older")
    key(app, pygame.K_RETURN)
    until(app, lambda: online.session.lobby.get("offset") == 5, "the second page")
    until(app, lambda: online.page_line().startswith("Tables 6–10 of 12"), "its line")
    click(app, button(online, "Older").rect.center)
    until(app, lambda: online.page_line().startswith("Tables 11–12 of 12"), "the last page")
    assert online.focus.buttons[0].label.startswith(f"{mine}: ")
    assert not button(online, "Older").enabled
    click(app, button(online, "Newer").rect.center)
    until(app, lambda: online.page_line().startswith("Tables 6–10 of 12"), "back a page")

    # A lobby update rebuilds the rows; the keyboard stays on the button it was on.
    focus_on(app, online, "Older")
    link.send({"type": "create_table", "private": False, "time": None})
    until(app, lambda: online.session.lobby.get("total") == 13, "the new table")
    until(app, lambda: online.page_line().startswith("Tables 6–10 of 13"), "the rebuilt rows")
    assert online.focus.buttons[online.focus.focus].label == "Older"
    online.disconnect()


def test_sign_out_here_ends_the_session_on_the_server_and_forgets_it_here(served):
    app, online = register_in_app(served, "Frank", "franks password")
    url = online.session.url
    token = load_accounts()[0][url].session
    online.disconnect()
    # Frank is also signed in on another computer (another session of the account).
    elsewhere = scripted(served, "Frank", password="franks password")
    app, online = connect_screen(served)
    focus_on(app, online, "Sign out here")                  # by keyboard
    key(app, pygame.K_RETURN)
    assert load_accounts() == ({}, None)                     # forgotten here at once
    assert "Continue as Frank" not in [b.label for b in online.focus.buttons]
    until(app, lambda: online.signing_out is None, "the server's answer")
    assert "Signed out: that sign-in has ended" in toasts(app)
    # The old token no longer signs in; the other computer's connection was left alone.
    again = NetBridge(url, "", session=token)
    served[2].append(again)
    again.start()
    refusal = wait_for(again, lambda m: m.get("type") == "link" and m.get("final"))
    assert refusal["code"] == "bad_session"
    elsewhere.send({"type": "lobby"})
    assert wait_for(elsewhere, of("lobby"))
    elsewhere.close()


def test_sign_out_here_with_the_server_gone_still_forgets_the_sign_in(served):
    app, online = register_in_app(served, "Gwen", "gwens password")
    online.disconnect()
    served[1][0].stop()                                      # the server is gone
    app, online = connect_screen(served)
    click(app, button(online, "Sign out here").rect.center)  # by mouse
    assert load_accounts() == ({}, None)
    until(app, lambda: online.signing_out is None, "the attempt to tell the server")
    assert "Signed out here; the server was not told (cannot reach ws://127.0.0.1:" in toasts(app)
    assert "Continue as Gwen" not in [b.label for b in online.focus.buttons]
