"""Round Table's engine: rules, deals, notation, players, solvers — no pygame.

Each game is described once, in :data:`GAMES`: its id, title, engine class,
whether it is dealt from a deal number, and its solver. The command line
(``python -m game``), the solver service and the app's own descriptors
(``scenes.games``) read it; a game's module is imported on first use, so the
menu starts fast.
"""
from __future__ import annotations

import importlib
from typing import NamedTuple

from .errors import UnknownGameError


class GameInfo(NamedTuple):
    """What the engine knows of a game, without importing it. A frozen record
    (a named tuple: the app's start-up makes it in a fraction of a dataclass's time)."""

    id: str
    title: str
    engine: str                      # "module:Class"
    dealt: bool = True               # made from a deal number (a patience), or not (the board game)
    solver: str | None = None        # module with ``solve(game, max_states, max_seconds, stop)``
    solver_limits: tuple[int | None, float | None] = (None, None)  # default states, seconds
    levels: tuple[str, ...] = ()     # the computer player's levels, weakest first (if it has them)

    def engine_class(self):
        """The game's class (UnknownGameError when its module is not written yet)."""
        module_name, class_name = self.engine.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            raise UnknownGameError(f"game {self.id!r} is not available yet") from None
        return getattr(module, class_name)

    def solve_function(self):
        """The solver's ``solve`` (ValueError when the game has none)."""
        if self.solver is None:
            raise ValueError(f"no solver for {self.id!r}; solvers: {', '.join(SOLVER_IDS)}")
        return importlib.import_module(self.solver).solve


# The order is the menu's order.
GAMES: dict[str, GameInfo] = {info.id: info for info in (
    GameInfo("camelot-solitaire", "Camelot (patience)", "game.camelot_solitaire:CamelotSolitaire",
             solver="game.camelot_solver", solver_limits=(2_000_000, 20.0)),
    GameInfo("hamilton", "Hamilton", "game.hamilton:Hamilton",
             solver="game.hamilton_solver", solver_limits=(1_000_000, 20.0)),
    GameInfo("clock", "Clock", "game.clock:Clock", solver="game.clock_solver"),
    GameInfo("camelot-board", "Camelot (board game)", "game.camelot.board:CamelotBoard",
             dealt=False, levels=("easy", "medium", "hard", "expert")),   # game.camelot.ai.LEVELS
)}
GAME_IDS = tuple(GAMES)
SOLVER_IDS = tuple(gid for gid, info in GAMES.items() if info.solver)


def check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or game_id not in GAMES:
        shown = repr(game_id) if len(repr(game_id)) <= 40 else repr(game_id)[:40] + "…"
        raise UnknownGameError(
            f"unknown game {shown}; the games are: {', '.join(GAME_IDS)}")
    return game_id


def game_info(game_id: str) -> GameInfo:
    return GAMES[check_game_id(game_id)]


def game_class(game_id: str):
    """The class of a game. Raises UnknownGameError, or UnknownGameError too when
    the game's module is not written yet."""
    return game_info(game_id).engine_class()


def is_available(game_id: str) -> bool:
    try:
        game_class(game_id)
    except UnknownGameError:
        return False
    return True


def title(game_id: str) -> str:
    return game_info(game_id).title
