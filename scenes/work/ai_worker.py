"""The Camelot computer player off the frame loop: a worker process.

A pure-Python search in a thread would hold the GIL and stall the frames, so the
search runs in a separate process (``multiprocessing``, *spawn* start method:
the child never inherits SDL's threads or window). The scene talks to it with
plain data: it sends a position string, it gets back the move in WCF notation.

    worker = AIWorker()
    rid = worker.request(board.position_text(), "medium", seed=7)
    ...                     # every frame:
    reply = worker.poll()   # never blocks; None until the answer is in
    if reply and reply.rid == rid: board.play(reply.notation)
    worker.cancel()         # the answer is not wanted any more
    worker.close()          # when the scene is left (also at interpreter exit)

Cancelling is cheap: a shared counter holds the highest cancelled request id and
the search's ``stop_event`` reads it, so the child stops within a few hundred
nodes. A child that dies is restarted on the next request; where no process can
be started at all the search runs in a thread instead (slower frames, still
correct). The child is a daemon, is joined when closed (no zombies) and exits by
itself when the parent goes away (its end of the pipe reads EOF).

This module imports nothing from pygame, so the child starts light.
"""
from __future__ import annotations

import atexit
import itertools
import multiprocessing
import os
import multiprocessing.util  # noqa: F401  its exit handler is registered before ours,
import signal                # so ours runs first (atexit is last-in, first-out)
import threading
import weakref
from dataclasses import dataclass

__all__ = ["AIWorker", "Reply", "close_all", "search_position"]


@dataclass(frozen=True)
class Reply:
    rid: int
    position: str
    notation: str | None   # None: no legal move, or the search failed
    error: str = ""


def search_position(position: str, level: str, seed: int | None, time_limit: float | None,
                    stop_event=None) -> str | None:
    """The computer's move in ``position`` as WCF notation (None if there is none)."""
    # start-up: the search loads in the worker process, not in the app's
    from game.camelot_ai import choose_move
    from game.camelot_board import CamelotBoard
    board = CamelotBoard.from_position(position)
    result = choose_move(board, level, seed=seed, time_limit=time_limit, stop_event=stop_event)
    return None if result.move is None else board.move_text(result.move)


class _Stop:
    """``stop_event`` for one request: set once that request is cancelled."""

    def __init__(self, cancelled, rid: int) -> None:
        self.cancelled = cancelled
        self.rid = rid

    def is_set(self) -> bool:
        return self.cancelled.value >= self.rid


def _serve(conn, cancelled) -> None:
    """The child's loop: one request at a time until told to stop or orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl+C is for the parent
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        os.nice(10)  # on a busy machine the frames come first; the search is timed anyway
    except (AttributeError, OSError):
        pass
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if message is None:
            return
        rid, position, level, seed, time_limit = message
        if cancelled.value >= rid:
            reply = (rid, position, None, "cancelled")
        else:
            try:
                notation = search_position(position, level, seed, time_limit, _Stop(cancelled, rid))
                reply = (rid, position, notation, "")
            except Exception as exc:  # report, keep serving
                reply = (rid, position, None, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (OSError, EOFError):
            return


_LIVE: "weakref.WeakSet[AIWorker]" = weakref.WeakSet()


def close_all() -> None:
    """Close every worker still running (at exit, and for tests)."""
    for worker in list(_LIVE):
        worker.close()


atexit.register(close_all)


class AIWorker:
    """One search at a time in a child process; see the module docstring."""

    def __init__(self, use_process: bool = True) -> None:
        self.use_process = use_process
        self._ids = itertools.count(1)
        self._current = 0          # id of the request whose answer is wanted
        self._pending = 0          # requests sent and not yet answered
        self._proc = None
        self._conn = None
        self._cancelled = None
        self._thread_replies: list[tuple] = []
        self._thread_lock = threading.Lock()
        self._thread_stop: threading.Event | None = None
        self.failures = 0
        _LIVE.add(self)

    # --- the child -----------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    def start(self) -> None:
        """Start the child now (it takes a moment to import the engine)."""
        if not self.use_process or self.alive:
            return
        self._reap()
        try:
            ctx = multiprocessing.get_context("spawn")
            self._cancelled = ctx.RawValue("q", 0)
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(child, self._cancelled),
                               name="camelot-ai", daemon=True)
            proc.start()
            child.close()
        except (OSError, ValueError, RuntimeError, ImportError):
            self.use_process = False  # no processes here: search in a thread
            return
        self._proc, self._conn = proc, parent
        self._pending = 0
        _LIVE.add(self)

    def _reap(self) -> None:
        """Forget a child that died, joining it (never leave a zombie)."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass
        if proc is not None:
            proc.join(timeout=0.5)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=1.0)

    # --- requests ------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """A wanted answer is on its way."""
        return self._current != 0

    def request(self, position: str, level: str, seed: int | None = None,
                time_limit: float | None = None) -> int:
        """Ask for a move; any earlier request is cancelled. Returns its id."""
        self.cancel()
        rid = next(self._ids)
        self._current = rid
        message = (rid, position, level, seed, time_limit)
        if self.use_process:
            if not self.alive:
                if self._proc is not None:
                    self.failures += 1
                self.start()
            if self.use_process and self.failures < 3:
                try:
                    self._conn.send(message)
                    self._pending += 1
                    return rid
                except (OSError, AttributeError):
                    self.failures += 1
                    self._reap()
            if self.failures >= 3:
                self.use_process = False
        self._start_thread(message)
        return rid

    def _start_thread(self, message) -> None:
        rid, position, level, seed, time_limit = message
        stop = self._thread_stop = threading.Event()

        def run():
            try:
                reply = (rid, position, search_position(position, level, seed, time_limit, stop), "")
            except Exception as exc:
                reply = (rid, position, None, f"{type(exc).__name__}: {exc}")
            with self._thread_lock:
                self._thread_replies.append(reply)

        threading.Thread(target=run, name="camelot-ai", daemon=True).start()

    def cancel(self) -> None:
        """The current request's answer is no longer wanted (the search stops)."""
        if self._current and self._cancelled is not None:
            self._cancelled.value = self._current
        if self._thread_stop is not None:
            self._thread_stop.set()
        self._current = 0

    def poll(self) -> Reply | None:
        """The answer to the current request, once it is in; never blocks."""
        replies = []
        if self._conn is not None:
            try:
                while self._conn.poll():
                    replies.append(self._conn.recv())
                    self._pending -= 1
            except (EOFError, OSError):
                self._reap()  # the child died; the next request restarts it
                if self._current:
                    rid, self._current = self._current, 0
                    return Reply(rid, "", None, "the computer player stopped unexpectedly")
        with self._thread_lock:
            replies += self._thread_replies
            self._thread_replies.clear()
        for rid, position, notation, error in replies:
            if rid == self._current and rid:
                self._current = 0
                return Reply(rid, position, notation, error)
        return None

    def wait(self, timeout: float) -> Reply | None:
        """Block up to ``timeout`` seconds for the answer (tests, tools)."""
        import time
        end = time.monotonic() + timeout
        while True:
            reply = self.poll()
            if reply is not None or not self.busy:
                return reply
            left = end - time.monotonic()
            if left <= 0:
                return None
            if self._conn is not None:
                try:
                    self._conn.poll(min(left, 0.05))
                except (EOFError, OSError):
                    pass
            else:
                time.sleep(min(left, 0.01))

    def close(self, timeout: float = 1.0) -> None:
        """Stop the child and join it. Safe to call more than once."""
        self.cancel()
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        _LIVE.discard(self)
        if conn is not None:
            try:
                conn.send(None)
            except (OSError, EOFError):
                pass
        if proc is not None:
            proc.join(timeout=timeout)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=1.0)
                if proc.is_alive():
                    proc.kill()
                    proc.join(timeout=1.0)
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass

    def __del__(self) -> None:  # a scene dropped without leave(): still no orphan
        try:
            if self._proc is not None:
                self.close(timeout=0.2)
        except Exception:
            pass
