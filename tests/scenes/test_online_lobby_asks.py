"""A quick game (a seek) and one's own games, asked from the app's lobby, against
a real server on 127.0.0.1. Bob is a scripted client signed in to an account."""
import pygame

from scenes.games.camelot_online import CamelotOnlineScene
from tests.net.test_bridge import of, wait_for

from .harness import click, key
from .test_online_accounts import register_in_app
from .test_online_scene import button, lobby_as, scripted, served, until  # noqa: F401 (fixture)

BLITZ = {"base": 300, "increment": 3}


def test_a_rated_quick_game_then_ones_own_history(served):
    bob = scripted(served, "Bob", password="bobs password", register=True)
    bob.send({"type": "seek", "time": BLITZ, "rated": True})
    wait_for(bob, of("seek_waiting"))
    app, online = register_in_app(served, "Alice", "alices password")
    click(app, button(online, "Quick game").rect.center)
    click(app, button(app.scenes.top, "5 minutes + 3 s a move, rated").rect.center)
    seated = wait_for(bob, of("seated"))
    until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the paired table")
    scene = app.scenes.top
    assert scene.table_id == seated["table"] and scene.color != seated["color"]
    until(app, lambda: scene.info.status == "playing", "the start")
    assert "1500 ±350?" in scene.side_label(seated["color"])      # Bob's rating, provisional
    bob.send({"type": "resign", "table": seated["table"], "token": seated["token"]})
    until(app, lambda: getattr(app.scenes.top, "title", "") == "You won!", "the end")
    click(app, button(app.scenes.top, "Back to the lobby").rect.center)
    until(app, lambda: app.scenes.top is online, "the lobby")

    # My games: the page the server keeps for Alice's account.
    click(app, button(online, "My games").rect.center)
    until(app, lambda: getattr(app.scenes.top, "title", "") == "Alice's games", "her page")
    lines = app.scenes.top.lines
    assert any(line.startswith(("Alice v Bob: ", "Bob v Alice: ")) and "rated blitz" in line
               for line in lines), lines
    winner = "White won" if seated["color"] == "black" else "Black won"
    assert any(winner in line for line in lines)
    key(app, pygame.K_RETURN)                      # Enter: Close
    assert app.scenes.top is online


def test_a_guest_seeks_then_cancels_and_has_no_history(served):
    app, online = lobby_as(served, "Erin")
    click(app, button(online, "Quick game").rect.center)
    labels = [b.label for b in app.scenes.top.focus.buttons]
    assert not any(label.endswith(", rated") for label in labels)     # a guest: casual only
    click(app, button(app.scenes.top, "No clock").rect.center)
    until(app, lambda: online.seeking is not None, "the seek waiting")
    assert online.session.lobby.get("seeks") is not None
    click(app, button(online, "Cancel the seek").rect.center)
    until(app, lambda: online.seeking is None, "the seek cancelled")
    assert button(online, "Quick game")
    click(app, button(online, "My games").rect.center)
    assert app.scenes.top is online
    assert "Sign in to keep a history" in " | ".join(text for text, _ in app._toasts)


def test_a_table_just_left_is_not_reopened_by_its_late_seated_reply(served):
    """The server answers a sit with the table, then "seated"; a player who leaves at
    once gets that "seated" back at the lobby. Only a seek's "seated" opens a table."""
    app, online = lobby_as(served, "Erin")
    online.receive({"type": "seated", "table": "T1", "color": "white", "token": "t"})
    online.receive({"type": "table", "table": "T1"})
    assert online.joining is None and app.scenes.top is online
    # A seek asked for: its "seated" is the pairing, and the table that follows opens.
    click(app, button(online, "Quick game").rect.center)
    click(app, button(app.scenes.top, "No clock").rect.center)
    online.receive({"type": "seated", "table": "T7", "color": "black", "token": "t"})
    assert online.joining == "T7" and online.seek_asked is False
