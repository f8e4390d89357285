"""The engine's view of a Camelot position, off the frame loop (no pygame).

The search itself is the work service's ``camelot-analyse`` task
(:func:`scenes.work.tasks.camelot_analyse`: a position string in, the best
move, a score for White, the depth and the expected line out). :class:`Analyst`
asks it through a :class:`~scenes.work.service.Channel` and hands the answer to
a scene that polls every frame; an answer belongs to the position it was asked
for, and a newer question cancels the older one.
"""
from __future__ import annotations

from .service import Channel
from .tasks import ANALYSIS_DEPTH, ANALYSIS_SECONDS, camelot_analyse as analyse

__all__ = ["Analyst", "analyse", "ANALYSIS_DEPTH", "ANALYSIS_SECONDS"]


class Analyst:
    """One position at a time: ``ask`` (no-op when already asked), ``poll``
    every frame for the answer (a dict from :func:`analyse`, or None)."""

    def __init__(self, seconds: float = ANALYSIS_SECONDS, depth: int = ANALYSIS_DEPTH) -> None:
        self.seconds, self.depth = seconds, depth
        self.position: str | None = None
        self.answer: dict | None = None
        self.error = ""
        self._channel = Channel("camelot-analyse")
        self._retried = False

    def ask(self, position: str) -> None:
        if position == self.position:
            return
        self.position, self.answer, self.error, self._retried = position, None, "", False
        self._send()

    def _send(self) -> None:
        self._channel.ask({"position": self.position, "seconds": self.seconds,
                           "depth": self.depth})

    @property
    def busy(self) -> bool:
        return self._channel.busy

    def _take(self, answer) -> dict | None:
        if answer is not None:
            if answer.ok:
                self.answer = answer.data
            elif answer.error.startswith("the worker stopped") and not self._retried:
                self._retried = True        # a worker died: the service has a new one; once more
                self._send()
            else:
                self.error = answer.error
        return self.answer

    def poll(self) -> dict | None:
        """The answer for the position last asked, once it is in; never blocks."""
        return self._take(self._channel.poll())

    def wait(self, timeout: float) -> dict | None:
        """Block up to ``timeout`` s (tests, tools)."""
        return self._take(self._channel.wait(timeout))

    def forget(self) -> None:
        self._channel.cancel()
        self.position, self.answer = None, None
