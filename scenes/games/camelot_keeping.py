"""A finished board game goes into the kept records (``scenes.store.records``).

Kept apart from the board scene so the scene's change is one call: when its
game ends, ``keep_finished_game(scene)`` writes the record once (an undo and
the same ending again keeps no second copy) and remembers where it went, for
the game-over dialog's "Replay this game".
"""
from __future__ import annotations

from game.camelot import record as camelot_record

from ..store.records import keep_record

EVENT = "Round Table"


def player_names(scene) -> dict[str, str]:
    """White and Black as a record names them: You, Computer (hard), Player 1…"""
    names = {}
    for number, color in enumerate(("white", "black"), 1):
        if scene.mode == "demo" or (scene.mode == "computer" and color != scene.human):
            names[color] = f"Computer ({scene.level if scene.mode == 'computer' else 'demo'})"
        elif scene.mode == "computer":
            names[color] = "You"
        else:
            names[color] = f"Player {number}"
    return names


def keep_finished_game(scene):
    """Keep ``scene.game`` as a record (once per ending); returns its path or None."""
    game = scene.game
    ending = (id(game), tuple(game.history))
    if getattr(scene, "_kept_ending", None) == ending:
        return getattr(scene, "kept_record", None)
    scene._kept_ending = ending
    names = player_names(scene)
    record = camelot_record.from_game(game, Event=EVENT, White=names["white"],
                                      Black=names["black"])
    path, problem = keep_record(record)
    scene.kept_record = path
    if problem:
        scene.app.toast(problem)
    return path
