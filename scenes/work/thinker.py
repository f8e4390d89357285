"""The computer player off the frame loop.

Some engines think for a while (Hamilton searches up to thousands of positions
for a way to the next foundation card: a tenth of a second, sometimes more).
:class:`Thinker` runs ``game.computer_move`` in a worker process so the frames
keep coming; the scene asks, carries on drawing, and collects the answer when it
is there. An answer belongs to the position it was asked for: once the game has
moved on it is thrown away.

This module imports no pygame: the worker process imports it to run
:func:`_think`.
"""
from __future__ import annotations

import multiprocessing
import pickle
import random
from concurrent.futures import Future, ProcessPoolExecutor

_executor: ProcessPoolExecutor | None = None
_broken = False


def _think(game, seed: int):
    """The engine's choice in this position."""
    return game.computer_move(random.Random(seed))


def _think_pickled(data: bytes, seed: int):
    """In the worker: the game arrives pickled (taken on the caller's thread, so
    it is the position as it was when asked, whatever happens to it since)."""
    return _think(pickle.loads(data), seed)


def _exit_with_parent() -> None:
    """In the worker: leave when the app is gone. A killed or crashed app never
    runs its exit handlers, and the pool's worker, which holds both ends of its
    task queue, would otherwise wait for work for ever, an orphan."""
    import os
    import threading
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(0)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _get_executor() -> ProcessPoolExecutor | None:
    """One worker process for the whole app, started on first use."""
    global _executor, _broken
    if _executor is None and not _broken:
        try:
            _executor = ProcessPoolExecutor(max_workers=1,
                                            mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_exit_with_parent)
        except (OSError, NotImplementedError, ValueError):  # no processes here: think inline
            _broken = True
    return _executor


def _position(game) -> tuple:
    return (id(game), tuple(game.history))


class Thinker:
    """Asks ``computer_move`` of one game position at a time.

    ``background=False`` thinks at once, on the caller's thread (engines that
    answer in well under a millisecond need no process).
    """

    def __init__(self, background: bool = True) -> None:
        self.background = background
        self._asked: tuple | None = None     # the position asked about
        self._future: Future | None = None
        self._answer: tuple | None = None    # (position, move)

    def asked(self, game) -> bool:
        """Has ``game`` as it is now been asked about already?"""
        return self._asked == _position(game)

    def ask(self, game, seed: int) -> None:
        """Start thinking about ``game`` as it is now (no-op if already asked)."""
        position = _position(game)
        if self._asked == position:
            return
        self._asked, self._answer, self._future = position, None, None
        executor = _get_executor() if self.background else None
        if executor is not None:
            try:
                data = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
                self._future = executor.submit(_think_pickled, data, seed)
                return
            except Exception:  # a broken pool: think inline from now on
                self._reset_pool()
        self._answer = (position, _think(game, seed))

    def answer(self, game) -> tuple[bool, object]:
        """(ready, move) for ``game`` as it is now; move None means no move."""
        position = _position(game)
        if self._asked != position:
            return (False, None)
        if self._answer is None and self._future is not None and self._future.done():
            try:
                move = self._future.result()
            except Exception:  # the worker died: answer here, and stop using it
                self._reset_pool()
                move = _think(game, random.randrange(1 << 30))
            self._answer, self._future = (position, move), None
        if self._answer is not None and self._answer[0] == position:
            return (True, self._answer[1])
        return (False, None)

    def forget(self) -> None:
        self._asked, self._answer, self._future = None, None, None

    @staticmethod
    def _reset_pool() -> None:
        global _executor, _broken
        if _executor is not None:
            _executor.shutdown(wait=False, cancel_futures=True)
        _executor, _broken = None, True


def warm_up() -> None:
    """Start the worker process now (it takes a moment), so the first question
    is answered at once."""
    executor = _get_executor()
    if executor is not None:
        try:
            executor.submit(int)
        except Exception:
            Thinker._reset_pool()
