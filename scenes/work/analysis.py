"""The engine's view of a Camelot position, off the frame loop (no pygame).

:func:`analyse` is the task: a position string in, a small dict out (best move,
score for White, depth, the expected line), shaped like the work service's
tasks (``args, stop``) so it can be registered there. :class:`Analyst` asks it
in a worker process and hands the answer back to a scene that polls every
frame; an answer belongs to the position it was asked for, and is dropped if
the scene has moved on.

Until the one work service (branch ``work``) is on main the Analyst keeps one
spawn process of its own, shared by every Analyst, that leaves with the app.
Where no process can be started it analyses in a thread (slower frames, same
answers); a position with no legal move gets its static score at once.
"""
from __future__ import annotations

import atexit
import multiprocessing
import threading
from concurrent.futures import (BrokenExecutor, CancelledError, Future, ProcessPoolExecutor,
                                ThreadPoolExecutor)

__all__ = ["Analyst", "analyse", "ANALYSIS_DEPTH", "ANALYSIS_SECONDS"]

ANALYSIS_DEPTH = 3       # plies (+ quiescence): the search sees the tactics in reach
ANALYSIS_SECONDS = 0.6   # and never thinks longer than this


def analyse(args: dict, stop=None) -> dict:
    """The search's verdict on ``args["position"]``: ``move`` (WCF or None),
    ``white_score`` (100 ≈ a man, White's view), ``depth`` (plies searched;
    0 with ``static`` true: the static evaluation, no search), ``pv`` (list)."""
    # start-up: the search loads in the worker process, not in the app's
    from game.camelot_ai import WIN_THRESHOLD, choose_move, evaluate
    from game.camelot_board import CamelotBoard
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


def _exit_with_parent() -> None:
    """In the worker: leave when the app is gone (a killed app runs no exit handler)."""
    import os
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(0)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


_pool = None
_pool_lock = threading.Lock()


def _executor():
    global _pool
    with _pool_lock:
        if _pool is None:
            try:
                _pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_exit_with_parent)
            except (OSError, ValueError, RuntimeError, NotImplementedError):
                _pool = ThreadPoolExecutor(1, thread_name_prefix="analysis")
        return _pool


def shutdown(wait: bool = True) -> None:
    """End the worker (at exit; tests; ``wait=False`` for one that died)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=True)


def worker_pids() -> list[int]:
    """The worker processes' ids (tests)."""
    pool = _pool
    return [p.pid for p in (getattr(pool, "_processes", None) or {}).values()]


atexit.register(shutdown)


class Analyst:
    """One position at a time: ``ask`` (no-op when already asked), ``poll``
    every frame for the answer (a dict from :func:`analyse`, or None)."""

    def __init__(self, seconds: float = ANALYSIS_SECONDS, depth: int = ANALYSIS_DEPTH) -> None:
        self.seconds, self.depth = seconds, depth
        self.position: str | None = None
        self._future: Future | None = None
        self.answer: dict | None = None
        self.error = ""
        self._retried = False

    def ask(self, position: str) -> None:
        if position == self.position:
            return
        self.position, self.answer, self.error = position, None, ""
        self._retried = False
        if self._future is not None:
            self._future.cancel()   # still queued: dropped; running: it ends within its time
        args = {"position": position, "seconds": self.seconds, "depth": self.depth}
        for _ in range(2):   # a worker that died is replaced once
            try:
                self._future = _executor().submit(analyse, args)
                return
            except BrokenExecutor:
                shutdown(wait=False)
            except RuntimeError as exc:      # shut down: the app is closing
                self.error = str(exc)
                break
        self._future = None
        self.error = self.error or "the analysis worker could not be started"

    @property
    def busy(self) -> bool:
        return self._future is not None

    def poll(self) -> dict | None:
        """The answer for the position last asked, once it is in; never blocks."""
        future = self._future
        if future is not None and future.done():
            self._future = None
            try:
                self.answer = future.result()
            except BrokenExecutor:    # the worker died: ask once more, of a new one
                shutdown(wait=False)
                position, self.position = self.position, None
                if not self._retried:
                    self.ask(position)
                    self._retried = True
                else:
                    self.position = position
                    self.error = "the analysis worker stopped unexpectedly"
            except CancelledError:
                pass
            except Exception as exc:  # noqa: BLE001 - a failed search is a line, not a crash
                self.error = f"{type(exc).__name__}: {exc}"
        return self.answer

    def wait(self, timeout: float) -> dict | None:
        """Block up to ``timeout`` s (tests, tools)."""
        future = self._future
        if future is not None:
            try:
                future.result(timeout)
            except Exception:  # noqa: BLE001 - poll reports it
                pass
        return self.poll()

    def forget(self) -> None:
        if self._future is not None:
            self._future.cancel()
        self.position, self._future, self.answer = None, None, None
