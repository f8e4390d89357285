"""Takebacks and rematches at the app's online table, against a real server.

Alice is the app (seated Black at Bob's table); Bob a scripted client. A takeback
is asked from the toolbar and allowed by Bob; Bob's is answered in the app's dialog
by keyboard and by the gamepad; after the game a rematch asked from the game-over
dialog opens the new table, colours swapped, in place of the old one.
"""
import pygame

from scenes.games.camelot_online import CamelotOnlineScene
from tests.net.test_bridge import of, wait_for

from .harness import click, key, pad
from .test_online_scene import button, lobby_as, scripted, served, square, toolbar, until  # noqa: F401


def seated_game(served):
    bob = scripted(served, "Bob")
    bob.send({"type": "create_table", "private": False, "time": None})
    table_id = wait_for(bob, of("table_created"))["table"]
    bob.send({"type": "sit", "table": table_id, "color": "white"})
    token = wait_for(bob, of("seated"))["token"]
    app, online = lobby_as(served, "Alice")
    online.sit(table_id, "black")
    until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene), "the table")
    scene = app.scenes.top
    until(app, lambda: scene.info.status == "playing", "the start")
    return app, scene, bob, table_id, token


def test_takebacks_asked_allowed_and_declined(served):
    app, scene, bob, table_id, token = seated_game(served)
    bob.send({"type": "move", "table": table_id, "token": token, "move": "D6-C5"})
    until(app, lambda: scene.interactive and len(scene.game.history) == 1, "Bob's move")
    assert not toolbar(scene, "Take back").enabled          # not her move to take back
    click(app, square(scene, "D11"))
    click(app, square(scene, "C12"))
    until(app, lambda: len(scene.game.history) == 2 and not scene.pending, "Alice's move")

    # Alice asks from the toolbar; Bob allows it: her move is gone, her turn again.
    until(app, lambda: toolbar(scene, "Take back").enabled, "the button")
    click(app, toolbar(scene, "Take back").rect.center)
    wait_for(bob, of("takeback_offer", by="black", to="white"))
    until(app, lambda: not toolbar(scene, "Take back").enabled, "the question pending")
    bob.send({"type": "accept_takeback", "table": table_id, "token": token})
    until(app, lambda: scene.game.history == ["D6-C5"] and scene.interactive, "the takeback")
    assert ("", "The last move was taken back.") in scene.info.chat

    # Alice plays again; Bob replies and asks to take his reply back: a dialog, declined
    # with the keyboard (Down to "Decline", Enter).
    click(app, square(scene, "D11"))
    click(app, square(scene, "C12"))
    wait_for(bob, of("moved", ply=2))
    until(app, lambda: len(scene.game.history) == 2 and not scene.pending, "her move again")
    reply = scene.game.move_text(scene.game.legal_moves()[0])      # any legal move of Bob's
    bob.send({"type": "move", "table": table_id, "token": token, "move": reply})
    wait_for(bob, of("moved", ply=3))
    bob.send({"type": "takeback", "table": table_id, "token": token})
    until(app, lambda: getattr(app.scenes.top, "title", "") == "Take back?", "Bob's question")
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    wait_for(bob, of("takeback_declined", by="black"))
    until(app, lambda: app.scenes.top is scene and len(scene.game.history) == 3, "the decline")

    # Asked again, Alice allows it with the gamepad's A (the first button).
    bob.send({"type": "takeback", "table": table_id, "token": token})
    wait_for(bob, of("takeback_offer", by="white"))
    until(app, lambda: getattr(app.scenes.top, "title", "") == "Take back?", "the question again")
    pad(app, pygame.CONTROLLER_BUTTON_A)
    until(app, lambda: scene.game.history == ["D6-C5", "D11-C12"], "Bob's move taken back")


def test_a_rematch_after_the_game_swaps_the_colours(served):
    app, scene, bob, table_id, token = seated_game(served)
    assert not toolbar(scene, "Rematch").enabled
    bob.send({"type": "move", "table": table_id, "token": token, "move": "D6-C5"})
    wait_for(bob, of("moved", ply=1))
    bob.send({"type": "resign", "table": table_id, "token": token})
    until(app, lambda: getattr(app.scenes.top, "title", "") == "You won!", "the end")
    click(app, button(app.scenes.top, "Rematch, colours swapped").rect.center)
    asked = wait_for(bob, lambda m: m.get("type") == "table" and m.get("rematch") == ["black"])
    assert asked["table"] == table_id and not toolbar(scene, "Rematch").enabled
    bob.send({"type": "rematch", "table": table_id, "token": token})
    new_id = wait_for(bob, of("seated"))["table"]
    until(app, lambda: isinstance(app.scenes.top, CamelotOnlineScene)
          and app.scenes.top.table_id == new_id, "the rematch table")
    rematch = app.scenes.top
    assert rematch.color == "white" and scene not in app.scenes.scenes
    until(app, lambda: rematch.info.status == "playing" and rematch.interactive, "White to move")
