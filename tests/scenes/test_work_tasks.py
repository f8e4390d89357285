"""The background tasks answer with the engine's own verdicts (one place for each)."""
import json

from game.base import Status
from scenes.work import tasks

from tests.game.test_hamilton_dead_end import DEAL_0, REASON, played


def _dead_end(game, **args) -> dict:
    out = json.loads(tasks.run(json.dumps({"id": 3, "task": "dead-end",
                                           "args": {"game": game.to_json(), **args}})))
    assert out["ok"], out
    return out["answer"]


def test_the_dead_end_task_gives_the_engines_verdict_null_when_the_search_gives_up():
    """Situation: Hamilton deal 0 played into a dead end (stock empty), and the same
    deal one move earlier (a way on). Action: ask the dead-end task, with the engine's
    limit and with a limit of one position. Expected: lost with the engine's reason;
    not lost; and null (not "no dead end") when the search gave up, which the game
    takes as "too big to tell": still in play, not asked again."""
    lost = played(DEAL_0)
    assert _dead_end(lost) == {"position": lost.position_key(), "dead_end": True, "reason": REASON}
    way_on = played(DEAL_0[:-1])
    if way_on.dead_end_pending:
        assert _dead_end(way_on)["dead_end"] is False
    gave_up = _dead_end(lost, limit=1)
    assert gave_up == {"position": lost.position_key(), "dead_end": None, "reason": ""}
    assert lost.apply_dead_end_verdict(gave_up) is False
    assert lost.status is Status.PLAYING and not lost.dead_end_pending


def test_the_dead_end_task_refuses_a_game_that_is_not_hamilton():
    out = json.loads(tasks.run(json.dumps({"id": 4, "task": "dead-end", "args": {
        "game": {"version": 1, "game": "clock", "start": {"seed": 1}, "moves": []}}})))
    assert not out["ok"] and "\n" not in out["error"]


def test_the_board_move_task_keeps_its_search_table_between_moves(monkeypatch):
    """The computer the player meets searches as the engine command does: a
    worker keeps the search's table from one move to the next."""
    import threading

    from game.camelot.board import CamelotBoard
    kept: dict = {}
    monkeypatch.setattr(tasks, "CAMELOT_TABLE", kept)
    board = CamelotBoard()
    stop = threading.Event()
    first = tasks.camelot_move({"position": board.position_text(), "level": "easy",
                                "seed": 1, "time_limit": 0.2}, stop)
    assert first["move"] in {board.move_text(m) for m in board.legal_moves()}
    assert len(kept) > 0                       # the first search filled it
    board.play(first["move"])
    entries = dict(kept)
    reply = tasks.camelot_move({"position": board.position_text(), "level": "easy",
                                "seed": 1, "time_limit": 0.2}, stop)
    assert reply["move"] in {board.move_text(m) for m in board.legal_moves()}
    assert tasks.CAMELOT_TABLE is kept and set(entries) <= set(kept)   # added to, not replaced
