"""Ignoring a player in the real app, headless, against a real server on 127.0.0.1.

From the lobby's chat (the "Ignore…" button, by keyboard and by mouse) and from a
table's chat (the gamepad's X, then the dialog's buttons by the pad): the ignored
player's lines go from the chat, and what they say afterwards never arrives while
others' lines do. An account's list comes back with the next sign-in (the server
keeps it), and "Stop ignoring" lets the player be heard again.
"""
import pygame

from game.server.host import ServerThread
from tests.net.test_bridge import of, wait_for

from .harness import click, key, pad
from .test_online_accounts import connect_screen, focus_on, register_in_app
from .test_online_scene import button, lobby_as, scripted, served, until  # noqa: F401 (fixture)


def said_by(chat, name: str) -> list[str]:
    return [text for who, text in chat if who == name]


def pad_to(app, scene, label: str) -> None:
    """The gamepad's D-pad down until ``label`` has the focus, then A."""
    for _ in range(len(scene.focus.buttons) + 1):
        if scene.focus.buttons[scene.focus.focus].label == label:
            pad(app, pygame.CONTROLLER_BUTTON_A)
            return
        pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    raise AssertionError(f"the pad never reached {label!r}")


def test_ignoring_in_the_lobby_is_kept_with_the_account_and_can_be_undone(served):
    pest = scripted(served, "Pest", password="pests password", register=True)
    friend = scripted(served, "Friend")
    app, online = register_in_app(served, "Alice", "alices password")
    pest.send({"type": "lobby_chat", "text": "buy gold"})
    until(app, lambda: said_by(online.session.lobby_chat, "Pest"), "Pest's line")
    # A welcome may carry a lobby made a moment before the last arrival; the
    # lobby news that follows within LOBBY_DELAY brings it up to date.
    until(app, lambda: "Friend" in online.session.users, "Friend in the lobby's list")

    # By keyboard: the Ignore… button beside the chat, then "Ignore Pest".
    focus_on(app, online, "Ignore…")
    key(app, pygame.K_RETURN)
    dialog = app.scenes.top
    assert dialog.title == "Ignore a player"
    labels = [b.label for b in dialog.focus.buttons]
    assert "Ignore Pest" in labels and "Ignore Friend" in labels and "Ignore Alice" not in labels
    focus_on(app, dialog, "Ignore Pest")
    key(app, pygame.K_RETURN)
    assert app.scenes.top is online
    until(app, lambda: online.session.ignoring == ["Pest"], "the server's answer")
    assert said_by(online.session.lobby_chat, "Pest") == []          # gone from the chat
    pest.send({"type": "lobby_chat", "text": "cheap gold"})
    wait_for(pest, of("lobby_chat", text="cheap gold"))             # the server has sent it
    friend.send({"type": "lobby_chat", "text": "hello Alice"})
    until(app, lambda: said_by(online.session.lobby_chat, "Friend"), "Friend's line")
    assert said_by(online.session.lobby_chat, "Pest") == []
    online.disconnect()

    # The next sign-in (the kept session): the server still ignores Pest for Alice.
    app, online = connect_screen(served)
    click(app, button(online, "Continue as Alice").rect.center)
    until(app, lambda: online.session.online and online.session.welcome, "the lobby again")
    assert online.session.ignoring == ["Pest"]
    # By mouse: Stop ignoring Pest; Pest is heard again.
    click(app, button(online, "Ignore…").rect.center)
    dialog = app.scenes.top
    click(app, button(dialog, "Stop ignoring Pest").rect.center)
    until(app, lambda: online.session.ignoring == [], "the unignore")
    pest.send({"type": "lobby_chat", "text": "thanks"})
    until(app, lambda: said_by(online.session.lobby_chat, "Pest") == ["thanks"], "Pest heard")
    online.disconnect()


def test_ignoring_at_the_table_by_gamepad(served):
    pest = scripted(served, "Pest")
    pest.send({"type": "create_table", "private": False, "time": None})
    table = wait_for(pest, of("table_created"))["table"]
    pest.send({"type": "sit", "table": table, "color": "white"})
    wait_for(pest, of("seated"))
    app, online = lobby_as(served, "Alice")
    online.sit(table, "black")
    until(app, lambda: online.table_scene is not None, "the table")
    scene = online.table_scene
    pest.send({"type": "chat", "table": table, "text": "you will lose"})
    until(app, lambda: said_by(scene.info.chat, "Pest"), "Pest's line at the table")

    pad(app, pygame.CONTROLLER_BUTTON_X)                     # the chat's phrases
    pad_to(app, app.scenes.top, "Ignore a player…")
    dialog = app.scenes.top
    assert dialog.title == "Ignore a player"
    assert "A guest's list lasts until the app closes: sign in to keep it." in dialog.lines
    pad_to(app, dialog, "Ignore Pest")
    assert app.scenes.top is scene
    until(app, lambda: scene.session.ignoring == ["Pest"], "the server's answer")
    assert said_by(scene.info.chat, "Pest") == []

    # A watcher's chat still arrives; Pest's, sent before it, does not.
    bob = scripted(served, "Bob")
    bob.send({"type": "watch", "table": table})
    wait_for(bob, of("table"))
    pest.send({"type": "chat", "table": table, "text": "spam"})
    wait_for(pest, of("chat", text="spam"))
    bob.send({"type": "chat", "table": table, "text": "good luck both"})
    until(app, lambda: said_by(scene.info.chat, "Bob"), "Bob's line")
    assert said_by(scene.info.chat, "Pest") == []
    online.disconnect()


def test_a_guests_ignores_are_said_again_after_a_reconnection(served):
    db, hosts, _ = served
    port = hosts[0].port
    pest = scripted(served, "Pest", retry_delays=(0.1,))
    friend = scripted(served, "Friend", retry_delays=(0.1,))
    app, online = lobby_as(served, "Alice", retry_delays=(0.1,))
    online.session.ignore("Pest")
    until(app, lambda: online.session.ignoring == ["Pest"], "the server's answer")
    # The server restarts: a guest's list was the connection's, so the app says it again.
    hosts[0].stop()
    until(app, lambda: online.session.link == "offline", "the lost connection")
    hosts.append(ServerThread(db, port=port))
    hosts[-1].start()
    until(app, lambda: online.session.online, "the reconnection")
    # Alice's own line comes back after the ignore the app sent on its welcome (one
    # connection: the server handles her messages in order).
    online.lobby_say("back again")
    until(app, lambda: said_by(online.session.lobby_chat, "Alice"), "Alice's line")
    for link in (pest, friend):
        wait_for(link, lambda m: m.get("type") == "link" and m.get("state") == "online")
    pest.send({"type": "lobby_chat", "text": "did you miss me"})
    wait_for(pest, of("lobby_chat", text="did you miss me"))
    friend.send({"type": "lobby_chat", "text": "welcome back"})
    until(app, lambda: said_by(online.session.lobby_chat, "Friend"), "Friend's line")
    assert said_by(online.session.lobby_chat, "Pest") == []
    online.disconnect()
