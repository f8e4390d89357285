"""What the background workers can be asked, JSON in and JSON out (no pygame).

A request is ``{"id": n, "task": name, "args": {...}}``; its answer is
``{"id": n, "ok": true, "answer": {...}}`` or ``{"id": n, "ok": false,
"error": "one line"}``. Games travel as their engine's ``to_json`` data, moves
as notation: nothing on the wire but JSON text.

=================  ===================================  ================================
task               args                                 answer
=================  ===================================  ================================
``camelot-move``   position, level, seed, time_limit    move: WCF notation or None
``computer-move``  game (to_json), seed                 move: the engine's notation or None
``solve``          game (to_json), max_states,          the ``SolveResult.to_json`` data
                   max_seconds
``dead-end``       game (Hamilton's to_json), limit     ``game.hamilton.dead_end_verdict``
``camelot-analyse`` position, seconds, depth            move, white_score, depth, static, pv
=================  ===================================  ================================

Each task gets ``stop``, an object whose ``is_set()`` turns true once the
request is cancelled; the searches read it and give up.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import threading

from game import game_info

__all__ = ["TASKS", "run"]

def _game(data: dict):
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise ValueError("no game in the request")
    return game_info(data["game"]).engine_class().from_json(data)


# The board search's transposition table, kept by this worker process between
# moves (the engine empties it when it grows too big): the next move starts from
# what the last search found, as `python -m game engine` and the match bench do,
# so the computer the player meets plays as the measured one.
CAMELOT_TABLE: dict = {}


def camelot_move(args: dict, stop) -> dict:
    """The board AI's move in a position string."""
    # start-up: the searches load in the worker processes, not in the app's
    from game.camelot.ai import choose_move
    from game.camelot.board import CamelotBoard
    board = CamelotBoard.from_position(args["position"])
    result = choose_move(board, args.get("level", "medium"), seed=args.get("seed"),
                         time_limit=args.get("time_limit"), stop_event=stop,
                         table=CAMELOT_TABLE)
    return {"move": None if result.move is None else board.move_text(result.move)}


def computer_move(args: dict, stop) -> dict:
    """A patience engine's own choice (``computer_move``) in a position."""
    game = _game(args["game"])
    move = game.computer_move(random.Random(args.get("seed")))
    return {"move": None if move is None else game.move_text(move)}


def solve(args: dict, stop) -> dict:
    """The solver's verdict on a position, and a winning line when there is one."""
    # start-up: the solvers load in the worker processes, not in the app's
    from game.solver_common import solver_for
    game = _game(args["game"])
    default_states, default_seconds = game_info(game.game_id).solver_limits
    states, seconds = args.get("max_states"), args.get("max_seconds")
    result = solver_for(game.game_id)(
        game, max_states=default_states if states is None else states,
        max_seconds=default_seconds if seconds is None else seconds, stop=stop.is_set)
    return result.to_json()


def dead_end(args: dict, stop) -> dict:
    """Hamilton's dead-end search (once the stock is empty: up to about a
    second): the engine's verdict for ``game.apply_dead_end_verdict``, null
    when the search gave up after ``limit`` positions (the engine's default)."""
    # start-up: the search loads in the worker processes, not in the app's
    from game.hamilton import SEARCH_LIMIT, dead_end_verdict
    return dead_end_verdict(args["game"], args.get("limit", SEARCH_LIMIT))


# The engine's view of a board position (replay, hint, evaluation bar).
ANALYSIS_DEPTH = 3       # plies (+ quiescence): the search sees the tactics in reach
ANALYSIS_SECONDS = 0.6   # and never thinks longer than this


def camelot_analyse(args: dict, stop=None) -> dict:
    """The search's verdict on ``args["position"]``: ``move`` (WCF or None),
    ``white_score`` (100 ≈ a man, White's view), ``depth`` (plies searched;
    0 with ``static`` true: the static evaluation, no search), ``pv`` (list)."""
    # start-up: the search loads in the worker process, not in the app's
    from game.camelot.ai import WIN_THRESHOLD, choose_move, evaluate
    from game.camelot.board import CamelotBoard
    board = CamelotBoard.from_position(args["position"])
    sign = 1 if board.turn == "white" else -1
    result = choose_move(board, "expert", seed=0, time_limit=args.get("seconds", ANALYSIS_SECONDS),
                         max_depth=args.get("depth", ANALYSIS_DEPTH), stop_event=stop)
    if result.move is None or (result.depth == 0 and abs(result.score) < WIN_THRESHOLD):
        # nothing searched (no move, or a forced one): say what the position looks like
        return {"move": None if result.move is None else board.move_text(result.move),
                "white_score": sign * evaluate(board.position), "depth": 0, "static": True,
                "pv": list(result.pv)}
    return {"move": board.move_text(result.move), "white_score": sign * result.score,
            "depth": result.depth, "static": False, "pv": list(result.pv)}



TASKS = {"camelot-move": camelot_move, "computer-move": computer_move, "solve": solve,
         "dead-end": dead_end, "camelot-analyse": camelot_analyse}


class Stop:
    """``stop`` for one request: set once the service marks its id cancelled.
    ``flags`` is a shared array; request ``n`` owns slot ``n % len(flags)``."""

    def __init__(self, flags, rid: int) -> None:
        self.flags, self.rid = flags, rid

    def is_set(self) -> bool:
        return self.flags is not None and self.flags[self.rid % len(self.flags)] == self.rid


def run(request_text: str, flags=None) -> str:
    """Answer one request (in a worker). Never raises: a bad request or a failed
    search is an error answer."""
    rid = None
    try:
        request = json.loads(request_text)
        rid = request.get("id")
        task = TASKS.get(request.get("task"))
        if task is None:
            raise ValueError(f"no task {request.get('task')!r}")
        stop = Stop(flags if flags is not None else _flags, int(rid))
        if stop.is_set():
            return json.dumps({"id": rid, "ok": False, "error": "cancelled"})
        answer = task(request.get("args") or {}, stop)
        return json.dumps({"id": rid, "ok": True, "answer": answer})
    except Exception as exc:  # noqa: BLE001 - every failure becomes an answer
        return json.dumps({"id": rid, "ok": False, "error": f"{type(exc).__name__}: {exc}"})


_flags = None   # the cancel flags, in a worker process (set by its initializer)


def init_worker(flags) -> None:
    """In each new worker process: the cancel flags; leave when the app is gone;
    Ctrl+C is for the app. (No lower priority: on a crowded machine a niced
    worker starves, and a scene waiting for its answer waits with it.)"""
    global _flags
    _flags = flags
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        # A killed or crashed app runs no exit handler; the worker, which holds
        # both ends of its task queue, would wait for work for ever.
        parent.join()
        os._exit(0)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
