"""The patience solvers off the frame loop (no pygame here).

A scene hands the service a *copy* of its game (as ``to_json`` data) and asks
for an answer; the search runs in a worker process (a pure-Python search in a
thread would hold the GIL and stall the frames), or in a thread where no
process can be started (``mode="thread"``, also what the tests use to stay
fast). A newer request cancels the older one: only the newest answer is ever
returned.

    service = SolverService().start()
    service.request(game, "hint")          # after each move, say
    ...                                    # every frame:
    result = service.poll()                # never blocks; None until an answer
    if result: show(service.last_purpose, result)   # SolveResult: answer, line …
    service.shutdown()                     # when the scene is left

What a scene makes of an answer:

* hint: ``result.line[0]`` is the next move of a winning line; when
  ``result.answer == "not winnable"`` the hint says the position cannot be won
  any more; ``"unknown"``: the solver gave up (say nothing certain).
* indicator ("still winnable?"): request after every move; the previous
  request is cancelled by the new one.
* demo: play ``result.line`` move by move when winnable.

``winnable_deal(game_id, rng)`` gives a deal number proven winnable, from the
cache lists in ``data/`` (written by ``tools/winnable_deals.py``), else by
solving random deals until one is proven winnable.
"""
from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
import random
import threading
from dataclasses import dataclass
from pathlib import Path

from game import SOLVER_IDS, game_info
from game.parsing import read_deal_list   # bounded, regular file, ASCII digits only
from game.solver_common import WINNABLE, SolveResult, solver_for

__all__ = ["SolverService", "Reply", "winnable_deal", "cached_winnable_deals", "solve_request"]

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


@dataclass(frozen=True)
class Reply:
    rid: int
    purpose: str
    result: SolveResult


def solve_request(game_json: dict, max_states=None, max_seconds=None, stop=None) -> SolveResult:
    """Rebuild the game from its ``to_json`` data and solve from its position."""
    info = game_info(game_json["game"])
    game = info.engine_class().from_json(game_json)
    default_states, default_seconds = info.solver_limits
    return solver_for(info.id)(
        game, max_states=default_states if max_states is None else max_states,
        max_seconds=default_seconds if max_seconds is None else max_seconds, stop=stop)


def _worker_main(conn, cancelled) -> None:
    """The child process: answer requests until the pipe closes."""
    try:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return
            if message is None:
                return
            rid, purpose, game_json, max_states, max_seconds = message
            if cancelled.value >= rid:
                continue
            try:
                result = solve_request(game_json, max_states, max_seconds,
                                       stop=lambda rid=rid: cancelled.value >= rid)
            except Exception as exc:  # noqa: BLE001 - reported, not raised in a child
                result = SolveResult("unknown", reason=f"error: {exc}")
            try:
                conn.send((rid, purpose, result))
            except (EOFError, OSError, BrokenPipeError):
                return
    except KeyboardInterrupt:
        return


class SolverService:
    """Background solving for the scenes; see the module docstring."""

    def __init__(self, mode: str = "process") -> None:
        if mode not in ("process", "thread"):
            raise ValueError("mode is 'process' or 'thread'")
        self.mode = mode
        self._ids = itertools.count(1)
        self._latest = 0
        self.last_purpose: str | None = None
        self.last_reply: Reply | None = None
        self._proc = None
        self._conn = None
        self._cancelled = None
        self._thread = None
        self._jobs: queue.Queue | None = None
        self._replies: queue.Queue | None = None
        self._stop_flags: dict[int, threading.Event] = {}

    # --- life cycle ------------------------------------------------------------
    def start(self) -> "SolverService":
        if self.mode == "process":
            try:
                self._start_process()
                return self
            except (OSError, ValueError, RuntimeError):
                self.mode = "thread"                     # no processes here: a thread
        self._start_thread()
        return self

    def _start_process(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._cancelled = ctx.Value("q", 0, lock=False)
        parent, child = ctx.Pipe()
        self._proc = ctx.Process(target=_worker_main, args=(child, self._cancelled),
                                 daemon=True, name="solver-service")
        self._proc.start()
        child.close()
        self._conn = parent

    def _start_thread(self) -> None:
        self._jobs, self._replies = queue.Queue(), queue.Queue()
        self._thread = threading.Thread(target=self._thread_main, daemon=True,
                                        name="solver-service")
        self._thread.start()

    def _thread_main(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            rid, purpose, game_json, max_states, max_seconds = job
            flag = self._stop_flags.get(rid)
            if flag is None or flag.is_set():
                continue
            try:
                result = solve_request(game_json, max_states, max_seconds, stop=flag)
            except Exception as exc:  # noqa: BLE001
                result = SolveResult("unknown", reason=f"error: {exc}")
            self._replies.put((rid, purpose, result))

    @property
    def running(self) -> bool:
        if self._proc is not None:
            return self._proc.is_alive()
        return self._thread is not None and self._thread.is_alive()

    def shutdown(self) -> None:
        """Stop the worker (cancelling what runs) and wait for it to end."""
        self.cancel()
        if self._conn is not None:
            try:
                self._conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            self._proc.join(timeout=2)
            if self._proc.is_alive():
                self._proc.terminate()
                self._proc.join(timeout=2)
            self._conn.close()
            self._conn = self._proc = None
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=5)
            self._thread = None

    # --- requests --------------------------------------------------------------
    def request(self, game, purpose: str = "hint", max_states: int | None = None,
                max_seconds: float | None = None) -> int:
        """Ask about ``game``'s current position (the game is copied, so the
        scene may go on playing). Cancels the previous request; returns the id."""
        if game.game_id not in SOLVER_IDS:
            raise ValueError(f"no solver for {game.game_id!r}")
        if not self.running:
            self.start()
        self.cancel()
        rid = next(self._ids)
        self._latest = rid
        job = (rid, purpose, game.to_json(), max_states, max_seconds)
        if self._conn is not None:
            self._conn.send(job)
        else:
            self._stop_flags = {rid: threading.Event()}
            self._jobs.put(job)
        return rid

    def cancel(self) -> None:
        """The pending answer is not wanted any more (the search stops soon)."""
        if self._cancelled is not None:
            self._cancelled.value = self._latest
        for flag in self._stop_flags.values():
            flag.set()
        self._latest_cancelled = self._latest

    @property
    def busy(self) -> bool:
        """A request is out and neither answered nor cancelled."""
        return self._latest > getattr(self, "_latest_cancelled", 0) and \
            (self.last_reply is None or self.last_reply.rid != self._latest)

    def poll(self) -> SolveResult | None:
        """The newest request's answer once it is in (once); never blocks."""
        found = None
        for rid, purpose, result in self._drain():
            if rid == self._latest and rid > getattr(self, "_latest_cancelled", 0):
                found = Reply(rid, purpose, result)
        if found is None:
            return None
        self.last_reply, self.last_purpose = found, found.purpose
        return found.result

    def _drain(self):
        if self._conn is not None:
            while True:
                try:
                    if not self._conn.poll():
                        return
                    yield self._conn.recv()
                except (EOFError, OSError):
                    return
        elif self._replies is not None:
            while True:
                try:
                    yield self._replies.get_nowait()
                except queue.Empty:
                    return

    def wait(self, timeout: float = 30.0) -> SolveResult | None:
        """Blocking poll, for scripts and tests (never from the frame loop)."""
        import time
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            result = self.poll()
            if result is not None:
                return result
            time.sleep(0.01)
        return None


# --- winnable deals ----------------------------------------------------------------
def cached_winnable_deals(game_id: str) -> list[int]:
    """Deal numbers proven winnable, from ``data/winnable-GAME.txt`` ([] if none)."""
    return read_deal_list(DATA_DIR / f"winnable-{game_id}.txt")


def winnable_deal(game_id: str, rng: random.Random | None = None,
                  max_seconds: float = 5.0, tries: int = 50) -> int:
    """A deal number proven winnable: from the cache list, else found by solving
    random deals (each within ``max_seconds``). Falls back to an unproven random
    deal only if ``tries`` deals gave no proof."""
    rng = rng or random.Random()
    cached = cached_winnable_deals(game_id)
    if cached:
        return rng.choice(cached)
    solve = solver_for(game_id)
    seed = rng.randrange(1, 1_000_000)
    for _ in range(tries):
        if solve(seed, max_seconds=max_seconds).answer == WINNABLE:
            return seed
        seed = rng.randrange(1, 1_000_000)
    return seed
