"""The computer player of a patience, off the frame loop when it searches.

Some engines think for a while (Hamilton searches up to thousands of positions
for a way to the next foundation card: a tenth of a second, sometimes more).
:class:`Thinker` asks the work service for ``game.computer_move`` (the game
goes as its ``to_json`` data, the move comes back as notation), so the frames
keep coming; the scene asks, carries on drawing, and collects the answer when
it is there. An answer belongs to the position it was asked for: once the game
has moved on it is thrown away, and the request is cancelled.

This module imports no pygame.
"""
from __future__ import annotations

import random

from game.errors import RoundTableError

from .service import Channel, work_service

__all__ = ["Thinker", "warm_up"]


def _position(game) -> tuple:
    return (id(game), tuple(game.history))


class Thinker:
    """Asks ``computer_move`` of one game position at a time.

    ``background=False`` thinks at once, on the caller's thread (engines that
    answer in well under a millisecond need no process).
    """

    def __init__(self, background: bool = True) -> None:
        self.background = background
        self._channel = Channel("computer-move") if background else None
        self._asked: tuple | None = None     # the position asked about
        self._seed = 0
        self._answer: tuple | None = None    # (position, move)

    def asked(self, game) -> bool:
        """Has ``game`` as it is now been asked about already?"""
        return self._asked == _position(game)

    def ask(self, game, seed: int) -> None:
        """Start thinking about ``game`` as it is now (no-op if already asked)."""
        position = _position(game)
        if self._asked == position:
            return
        self._asked, self._answer, self._seed = position, None, seed
        if self._channel is not None:
            self._channel.ask({"game": game.to_json(), "seed": seed})
        else:
            self._answer = (position, game.computer_move(random.Random(seed)))

    def answer(self, game) -> tuple[bool, object]:
        """(ready, move) for ``game`` as it is now; move None means no move."""
        position = _position(game)
        if self._asked != position:
            return (False, None)
        if self._answer is None and self._channel is not None:
            reply = self._channel.poll()
            if reply is not None:
                self._answer = (position, self._move(game, reply))
        if self._answer is not None:
            return (True, self._answer[1])
        return (False, None)

    def _move(self, game, reply):
        text = reply.data.get("move") if reply.ok else None
        if reply.ok and text is None:
            return None
        if text is not None:
            try:
                return game.parse_move(text)
            except RoundTableError:
                pass
        # The worker failed (or answered nonsense): think here, once.
        return game.computer_move(random.Random(self._seed))

    def forget(self) -> None:
        """The answer is not wanted any more (a new game, the scene left)."""
        if self._channel is not None:
            self._channel.cancel()
        self._asked, self._answer = None, None


def warm_up() -> None:
    """Start the worker processes now, in the background (they take a moment),
    so the first question is answered at once."""
    work_service()
