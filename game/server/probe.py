"""What the load bench asks a server to record (``serve --stats FILE``).

The bench splits a move's round trip into its parts; the server's share comes
from here: how late its event loop wakes from a short sleep (a stalled loop
delays every frame waiting to be read) and how long each garbage collection
paused it. Times are ``time.monotonic()``, one clock for every process.
"""
from __future__ import annotations

import asyncio
import gc
import time

TICK = 0.01


class LoadProbe:
    def __init__(self) -> None:
        self.loop_lags: list[float] = []            # seconds late, per TICK sleep
        self.gc_pauses: list[tuple[int, float]] = []    # (generation, seconds)
        self._gc_started = 0.0
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._watch())

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started = time.monotonic()
        else:
            self.gc_pauses.append((info["generation"], time.monotonic() - self._gc_started))

    async def _watch(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(TICK)
            self.loop_lags.append(time.monotonic() - asked - TICK)

    def stop(self) -> dict:
        if self._task is not None:
            self._task.cancel()
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        return {"loop_lags": self.loop_lags, "gc_pauses": self.gc_pauses,
                "objects": len(gc.get_objects())}
