"""The board game's demo replays famous games in turn with the computer's own.

A demo opens with a famous game (``scenes.store.famous``: people's play, named,
is more to watch than the computer against itself), then the computer plays a
game, then the next famous game, and so on. A famous game's moves come from its
record, one at a time, shown and travelled like the computer's; when the
record ends before the rules end the game (a resignation, a draw agreed), the
line below the board says how it ended and the next demo game follows. With no famous games
shipped every demo game is the computer's, as before.

:class:`FamousDemo` is a mixin for
:class:`~scenes.games.camelot_board_scene.CamelotBoardScene`, placed before
:class:`~scenes.games.camelot_computer.ComputerTurns`, whose ``_drive_computer``
it takes over while a famous game is on.
"""
from __future__ import annotations

from game.base import Status
from game.camelot.board import CamelotBoard
from game.errors import RoundTableError

from ..core.anim import Timer
from ..core.ui import GOLD
from ..store.famous import list_famous
from ..table.game_scene import AUTOPLAY_PAUSE, DEMO_NEXT_DEAL

FAMOUS_PAUSE = 4 * AUTOPLAY_PAUSE      # s between a famous game's moves: time to follow them
ENDINGS = {"1-0": "White won", "0-1": "Black won", "1/2-1/2": "a draw", "*": "unfinished"}


class FamousDemo:
    """Demo games taken from famous records, every other game (a mixin)."""

    famous = None              # the FamousGame being replayed, or None (the computer plays)
    _script: tuple = ()        # its moves
    _script_over = False       # its record has run out
    _demo_games = 0            # demo games begun by this scene
    _famous_cache = None

    def famous_games(self) -> list:
        """The shipped famous games (read once a scene; files that fail are skipped)."""
        if self._famous_cache is None:
            self._famous_cache, _ = list_famous()
        return self._famous_cache

    def new_demo_game(self) -> CamelotBoard:
        """The next demo game: a famous one every other time, starting with one."""
        self._demo_games += 1
        self.famous, self._script, self._script_over = None, (), False
        games = self.famous_games()
        if games and self._demo_games % 2 == 1:
            if self._demo_games == 1:
                self._famous_first = self.rng.randrange(len(games))
            famous = games[(self._famous_first + self._demo_games // 2) % len(games)]
            try:
                game = CamelotBoard(famous.record.position)
            except RoundTableError:
                return CamelotBoard()
            self.famous, self._script = famous, famous.record.moves
            return game
        return CamelotBoard()

    def _drive_computer(self, dt: float) -> None:
        if self.famous is None:
            super()._drive_computer(dt)
            return
        if self.busy or self.game.status is not Status.PLAYING or self._script_over:
            return
        ply = len(self.game.history)
        if self._ready is None:
            try:
                self._ready = self.game.parse_move(self._script[ply]) \
                    if ply < len(self._script) else None
            except RoundTableError:
                self._ready = None      # the tests keep shipped records legal; end here
            if self._ready is None:
                self._end_script()
                return
        if self._waited(dt, FAMOUS_PAUSE) and self._play_ready() is None:
            self._end_script()

    def _end_script(self) -> None:
        """The record stops with the game still on: say how it ended, then move on."""
        self._script_over = True
        self._timers.append(Timer(DEMO_NEXT_DEAL, lambda: self.start_game("demo")))

    @property
    def famous_line(self) -> str:
        """What the demo says of the famous game on show (where the toolbar would be)."""
        famous = self.famous
        if self._script_over and famous.is_opening:
            return f"{famous.players}: the published opening ends here"
        if self._script_over:
            return f"{famous.players}: the record ends here ({ENDINGS.get(famous.record.result)})"
        return famous.title

    def _hud_texts(self) -> dict[str, list[tuple]]:
        texts = super()._hud_texts()
        if self.famous is not None and self.demo:
            s = self.scale
            w, h = self.size
            texts["famous"] = [(self.famous_line, int(26 * s), (w // 2, h - int(30 * s)), GOLD,
                                "center", True)]
        return texts


__all__ = ["FamousDemo", "FAMOUS_PAUSE"]
