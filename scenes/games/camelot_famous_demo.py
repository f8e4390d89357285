"""The board game's demo replays famous games in turn with the computer's own.

A demo opens with a famous game (``scenes.store.famous``: people's play, named,
is more to watch than the computer against itself), then the computer plays a
game, then the next famous game, and so on. A famous game's moves come from its
record, one at a time (a :class:`~scenes.table.board_players.RecordPlayer` per
side), shown and travelled like the computer's; when the record ends before the
rules end the game (a resignation, a draw agreed), the line below the board
says how it ended and the next demo game follows. With no famous games shipped
every demo game is the computer's, as before.
"""
from __future__ import annotations

from game.camelot.board import CamelotBoard
from game.errors import RoundTableError

from ..store.famous import list_famous
from ..store.terms import term
from ..table.game_scene import AUTOPLAY_PAUSE
from ..store.words import N_, _

FAMOUS_PAUSE = 4 * AUTOPLAY_PAUSE      # s between a famous game's moves: time to follow them
ENDINGS = {"1-0": N_("White won"), "0-1": N_("Black won"), "1/2-1/2": N_("a draw"), "*": N_("unfinished")}


class FamousDemos:
    """Which demo game comes next: a famous one every other time, starting with one."""

    def __init__(self, rng) -> None:
        self.rng = rng
        self.games_begun = 0
        self._games: list | None = None
        self._first = 0

    def famous_games(self) -> list:
        """The shipped famous games (read once; files that fail are skipped)."""
        if self._games is None:
            self._games, _ = list_famous()
        return self._games

    def next_game(self) -> tuple[CamelotBoard, object | None]:
        """The next demo game and the famous game it replays (None: the computer's)."""
        self.games_begun += 1
        games = self.famous_games()
        if games and self.games_begun % 2 == 1:
            if self.games_begun == 1:
                self._first = self.rng.randrange(len(games))
            famous = games[(self._first + self.games_begun // 2) % len(games)]
            try:
                return CamelotBoard(famous.record.position), famous
            except RoundTableError:
                return CamelotBoard(), None
        return CamelotBoard(), None


def famous_line(famous, record_over: bool) -> str:
    """What the demo says of the famous game on show (where the toolbar would be)."""
    if record_over and famous.is_opening:
        return _("{players}: the published opening ends here").format(players=famous.players)
    if record_over:
        return _("{players}: the record ends here ({result})").format(
            players=famous.players, result=term(ENDINGS, famous.record.result))
    return famous.title


__all__ = ["FamousDemos", "FAMOUS_PAUSE", "famous_line"]
