"""The one background-work service: a pool of worker processes for the board
AI, the patience solvers and the computer players (no pygame here).

A pure-Python search in a thread would hold the GIL and stall the frames, so
the work runs in a ``concurrent.futures.ProcessPoolExecutor`` (*spawn*: a
child never inherits SDL's threads or window). Requests and answers are JSON
text (see :mod:`scenes.work.tasks`); nothing is pickled but those strings.

    service = work_service()          # the app's one service (``start`` warms it)
    channel = Channel("solve")        # one per purpose
    channel.ask({"game": game.to_json(), "max_seconds": 2})
    ...                               # every frame:
    answer = channel.poll()           # never blocks; None until the answer is in
    channel.cancel()                  # not wanted any more (the scene is left)

* **Started off the main thread**: the pool is created and its workers started
  in a background thread; a request asked before that is kept and sent the
  moment the pool is up, so opening a game never waits for a process.
* **Cancelled when not wanted**: a newer request on a channel cancels the
  older, and so does ``cancel``. A request still queued is dropped; a running
  one sees its flag in a shared array and its search stops.
* **No process outlives the app**: ``shutdown`` (at exit, before the standard
  library's own exit handler joins the pool) cancels everything and joins the
  workers, killing one that does not stop; each worker also leaves by itself
  when the app's process is gone (see ``tasks.init_worker``).
* **A worker that dies is replaced**: a killed or crashed worker breaks a
  process pool for good; the service starts a new pool, and the request that
  was on the dead worker gets an error answer (its channel may ask again).
* Where no process can be started the work runs in threads (slower frames,
  same answers).
"""
from __future__ import annotations

import atexit
import gc
import itertools
import json
import multiprocessing
import os
import threading
import time
import concurrent.futures
import concurrent.futures.process  # noqa: F401  its exit handler first, so ours runs before it
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field

from . import tasks

__all__ = ["Answer", "Channel", "WorkService", "work_service", "shutdown"]

WORKERS = 2          # a solver and a computer player at once (the machine has few cores)
FLAG_SLOTS = 1024    # request n's cancel flag is slot n % FLAG_SLOTS


@dataclass(frozen=True)
class Answer:
    """One request's answer: ``data`` when ``ok``, else a one-line ``error``."""
    rid: int
    ok: bool
    data: dict = field(default_factory=dict)
    error: str = ""


class WorkService:
    """The pool and its requests; see the module docstring."""

    def __init__(self, use_processes: bool = True, workers: int = WORKERS) -> None:
        self.use_processes = use_processes
        self.workers = workers
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._pool = None
        self._starting: threading.Thread | None = None
        self._waiting: list[tuple[int, str]] = []      # asked before the first worker was up
        self._warm: Future | None = None                # that worker's first (empty) task
        self._futures: dict[int, Future] = {}
        self._answers: dict[int, Answer] = {}
        self._closed = False
        self._flags = None
        self._pids = None        # the pool's workers' process ids, each put there by the worker
        self._pool_of: dict[int, object] = {}           # request id -> the pool it went to

    # --- life cycle -------------------------------------------------------------
    def start(self) -> "WorkService":
        """Create the pool and start its workers in a background thread."""
        with self._lock:
            self._start_locked()
        return self

    def _start_locked(self) -> None:
        if self._pool is not None or self._starting is not None or self._closed:
            return
        self._starting = threading.Thread(target=self._start_pool, name="work-service-start",
                                          daemon=True)
        self._starting.start()

    def _replace_broken_locked(self, broken) -> None:
        """``broken``, the pool a request was sent to, lost a worker (killed, out
        of memory) and takes no more work (it said so with BrokenExecutor): if
        it is still ours, end it in the background and start a new one (lock
        held). A pool replaced already is left alone."""
        if broken is None or broken is not self._pool:
            return
        pids, self._pool, self._pids, self._starting, self._warm = self._pids, None, None, None, None
        threading.Thread(target=_end_pool, args=(broken, pids, 1.0), name="work-service-end",
                         daemon=True).start()
        self._start_locked()

    def _start_pool(self) -> None:
        pool = None
        if self.use_processes:
            try:
                ctx = multiprocessing.get_context("spawn")
                flags = ctx.RawArray("q", FLAG_SLOTS)
                pids = ctx.Array("q", self.workers)
                pool = ProcessPoolExecutor(self.workers, mp_context=ctx,
                                           initializer=_init_worker, initargs=(flags, pids))
                # One worker starts (and imports) now; requests wait for it (see
                # _flush), then the pool starts a second when two are out at once.
                # Two starting together would halve the speed of each on a small
                # machine, and the first answer would come later.
                warm = pool.submit(int)
            except (OSError, ValueError, RuntimeError, ImportError, NotImplementedError):
                pool = None
        if pool is None:        # no processes here: threads, with flags of their own
            self.use_processes = False
            flags = [0] * FLAG_SLOTS
            pool = ThreadPoolExecutor(self.workers, thread_name_prefix="work-service")
            warm = pids = None
        with self._lock:
            closed = self._closed
            if not closed:
                self._flags, self._pool, self._pids, self._warm = flags, pool, pids, warm
                self._flush()
        if closed:           # shut down while starting: end what was started
            _end_pool(pool, pids, 3.0)

    def _flush(self) -> None:
        """Send the requests kept waiting, once the first worker is up (lock held)."""
        if self._pool is None or (self._warm is not None and not self._warm.done()):
            return
        self._warm = None
        waiting, self._waiting = self._waiting, []
        for rid, text in waiting:
            self._send(rid, text)

    @property
    def ready(self) -> bool:
        return self._pool is not None

    def wait_ready(self, timeout: float) -> bool:
        """Block until the pool is up and its first worker started (tests,
        tools; never the frame loop)."""
        end = time.monotonic() + timeout
        self.start()
        thread = self._starting
        if thread is not None:
            thread.join(timeout)
        warm = self._warm
        if warm is not None:
            concurrent.futures.wait([warm], max(0.0, end - time.monotonic()))
        return self.ready

    def shutdown(self, timeout: float = 3.0) -> None:
        """Cancel everything and end the workers (at exit; safe to call twice)."""
        with self._lock:
            self._closed = True
            pool, self._pool, pids = self._pool, None, self._pids
            for rid in list(self._futures):
                self._cancel_locked(rid)
            self._waiting.clear()
        thread = self._starting
        if thread is not None and thread is not threading.current_thread():
            # A pool still starting ends itself (see _start_pool): its workers
            # finish starting, get the word to stop, or are killed.
            thread.join(2 * timeout + 2.0)
        if pool is not None:
            _end_pool(pool, pids, timeout)

    # --- requests ---------------------------------------------------------------
    def submit(self, task: str, args: dict) -> int:
        """Send a request; returns its id. Never blocks (the pool may still be starting)."""
        rid = next(self._ids)
        text = json.dumps({"id": rid, "task": task, "args": args})
        self.start()
        with self._lock:
            if self._closed:
                self._answers[rid] = Answer(rid, False, error="the work service is shut down")
            else:
                self._waiting.append((rid, text))
                self._flush()
        return rid

    def _send(self, rid: int, text: str) -> None:
        if self._pool is None:               # being replaced: sent once the new one is up
            self._waiting.append((rid, text))
            return
        try:
            if self.use_processes:
                future = self._pool.submit(tasks.run, text)
            else:
                future = self._pool.submit(tasks.run, text, self._flags)
        except BrokenExecutor:               # a worker died since the last request
            self._replace_broken_locked(self._pool)
            self._waiting.append((rid, text))
            return
        except Exception as exc:  # noqa: BLE001 - a broken pool: say so, in the answer
            self._answers[rid] = Answer(rid, False, error=f"the worker failed: {exc}")
            return
        self._futures[rid] = future
        self._pool_of[rid] = self._pool

    def cancel(self, rid: int) -> None:
        """The answer to ``rid`` is not wanted: drop it if queued, stop it if running."""
        with self._lock:
            self._cancel_locked(rid)

    def _cancel_locked(self, rid: int) -> None:
        self._waiting = [(r, t) for r, t in self._waiting if r != rid]
        self._answers.pop(rid, None)
        self._pool_of.pop(rid, None)
        future = self._futures.pop(rid, None)
        if future is not None and not future.cancel() and self._flags is not None:
            self._flags[rid % FLAG_SLOTS] = rid

    def poll(self, rid: int) -> Answer | None:
        """The answer to ``rid`` once it is in (given once); never blocks."""
        with self._lock:
            if self._waiting:
                self._flush()
            answer = self._answers.pop(rid, None)
            if answer is not None:
                return answer
            future = self._futures.get(rid)
            if future is None or not future.done():
                return None
            del self._futures[rid]
            pool = self._pool_of.pop(rid, None)
        try:
            data = json.loads(future.result())
        except Exception as exc:  # noqa: BLE001 - a worker died: an error answer
            if isinstance(exc, BrokenExecutor):
                with self._lock:
                    self._replace_broken_locked(pool)
            return Answer(rid, False, error=f"the worker stopped: {type(exc).__name__}")
        if not data.get("ok"):
            return Answer(rid, False, error=str(data.get("error", "failed")))
        return Answer(rid, True, data.get("answer") or {})

    def worker_pids(self) -> list[int]:
        """The worker processes' ids, as each put its own there when it started
        (none while starting, with threads or after shutdown)."""
        return _reported(self._pids)

    @property
    def pending(self) -> int:
        """Requests sent or waiting and not yet collected."""
        return len(self._futures) + len(self._waiting)


def _init_worker(flags, pids) -> None:
    """In each new worker process: say its process id (the pool keeps its
    processes to itself), then the tasks' own set-up."""
    with pids.get_lock():
        free = next((i for i, pid in enumerate(pids) if pid == 0), None)
        if free is not None:
            pids[free] = os.getpid()
    tasks.init_worker(flags)


def _reported(pids) -> list[int]:
    if pids is None:
        return []
    with pids.get_lock():
        return [pid for pid in pids if pid]


def _end_pool(pool, pids, timeout: float) -> None:
    """Stop a pool whose requests are cancelled and join its workers, killing
    one that has not stopped within ``timeout`` seconds. The pool is shut down
    waiting, in a thread of ours that is joined: its queues hold named
    semaphores, unlinked and struck off the resource tracker's list when the
    last reference to them goes, and that must happen on a thread that ends
    before the interpreter does (cut off between the two: a "leaked
    semaphore" warning)."""
    def shut() -> None:
        pool.shutdown(wait=True, cancel_futures=True)
        gc.collect()        # and any cycle the queues are in, here too

    ender = threading.Thread(target=shut, name="work-service-end-pool", daemon=True)
    try:
        ender.start()
    except RuntimeError:    # no thread to be had: the flags stop a running search within moments
        shut()
        return
    ender.join(timeout)     # the flags stop a running search within moments
    if ender.is_alive():
        # A worker that did not stop: killed, through multiprocessing's own
        # handles of this process's children (those whose ids the pool's
        # workers reported), and the pool then ends as for a crashed worker.
        ours = set(_reported(pids))
        for proc in multiprocessing.active_children():
            if proc.pid in ours:
                proc.kill()
        ender.join(timeout + 1.0)


_service: WorkService | None = None
_service_lock = threading.Lock()


def work_service() -> WorkService:
    """The app's one service (created, and started in the background, on first use)."""
    global _service
    with _service_lock:
        if _service is None or _service._closed:
            _service = WorkService()
        service = _service
    return service.start()


def shutdown() -> None:
    """End the app's service, if any (at exit; also for tests)."""
    global _service
    with _service_lock:
        service, _service = _service, None
    if service is not None:
        service.shutdown()


# The standard library joins a process pool's workers at exit, waiting for
# their work; ours cancels it first. Threading's exit hooks run before atexit's
# and last-registered first, so this one runs before concurrent.futures' own.
_register = getattr(threading, "_register_atexit", None)
if _register is not None:
    _register(shutdown)
else:  # pragma: no cover - other Pythons
    atexit.register(shutdown)


class Channel:
    """One purpose's requests: a new one cancels the one before, and only the
    newest answer is ever given."""

    def __init__(self, task: str, service: WorkService | None = None) -> None:
        self.task = task
        self._service = service
        self._rid = 0
        self.requests = 0      # asked so far

    @property
    def service(self) -> WorkService:
        if self._service is None or self._service._closed:
            self._service = work_service()
        return self._service

    def ask(self, args: dict) -> int:
        self.cancel()
        self.requests += 1
        self._rid = self.service.submit(self.task, args)
        return self._rid

    def cancel(self) -> None:
        if self._rid:
            if self._service is not None:
                self._service.cancel(self._rid)
            self._rid = 0

    @property
    def busy(self) -> bool:
        """A wanted answer is on its way."""
        return self._rid != 0

    def poll(self) -> Answer | None:
        if not self._rid or self._service is None:
            return None
        answer = self._service.poll(self._rid)
        if answer is not None:
            self._rid = 0
        return answer

    def wait(self, timeout: float) -> Answer | None:
        """Block up to ``timeout`` seconds for the answer (tests, tools)."""
        end = time.monotonic() + timeout
        while True:
            answer = self.poll()
            if answer is not None or not self.busy or time.monotonic() >= end:
                return answer
            time.sleep(0.005)
