"""The board game's part of ``python -m game``: game records on ``play``
(``--record FILE`` replays one, ``--write-record FILE`` keeps the game played),
``think`` (the engine's move in a position) and ``engine`` (a line protocol).

:mod:`game.cli` owns the command line; it calls the hooks here so that the
board game's options live next to the board game.
"""
from __future__ import annotations

import argparse
import json
import math

from .ai import LEVELS, choose_move
from .board import CamelotBoard
from .engine import run as run_engine, score_text, source_text
from .record import GameRecord, from_game, read, write
from ..errors import RoundTableError

BOARD_GAME = CamelotBoard.game_id


class BoardUsageError(RoundTableError):
    """A board-game option used where it does not apply."""


def add_play_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--record", metavar="FILE",
                        help="camelot-board: replay this game record (then any --moves)")
    parser.add_argument("--write-record", metavar="FILE",
                        help="camelot-board: write the game played as a record (atomically)")
    parser.add_argument("--tag", action="append", default=[], metavar='NAME="VALUE"',
                        help="a tag for --write-record, e.g. --tag White=Ann (repeatable)")


def start_from_record(args) -> tuple[CamelotBoard, list[str], GameRecord]:
    """The start of ``play --record FILE``: the game at the record's start, the
    record's moves (played by ``play`` like --moves) and the record."""
    if args.game != BOARD_GAME:
        raise BoardUsageError(f"--record is for {BOARD_GAME}, not {args.game}")
    if args.position is not None or args.seed is not None or args.deck is not None:
        raise BoardUsageError("--record gives the start position; leave out --position")
    record = read(args.record)
    return CamelotBoard(record.position), list(record.moves), record


def check_write_record(args) -> None:
    """Refuse --write-record/--tag before anything is played, not after."""
    if (args.write_record is not None or args.tag) and args.game != BOARD_GAME:
        raise BoardUsageError(f"--write-record is for {BOARD_GAME}, not {args.game}")
    if args.tag and args.write_record is None:
        raise BoardUsageError("--tag goes with --write-record FILE")
    parse_tags(args.tag)


def parse_tags(items: list[str]) -> dict[str, str]:
    tags = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier() or name == "Result":
            raise BoardUsageError(f"--tag {item!r}: write NAME=VALUE (the Result is the game's)")
        tags[name] = value.strip('"')
    return tags


def write_played(game: CamelotBoard, args, record: GameRecord | None,
                 extra_moves: bool) -> None:
    """Write the game played to ``args.write_record`` (tags: the record's, then --tag)."""
    tags = {k: v for k, v in (record.tags if record else ()) if k not in ("Result", "Position")}
    tags.update(parse_tags(args.tag))
    out = from_game(game, **tags)
    if record is not None and not extra_moves and out.result == "*" and record.result != "*":
        # A record may end in a resignation or an agreed result: keep it.
        out = GameRecord(tuple((k, record.result if k == "Result" else v) for k, v in out.tags),
                         out.moves, record.result)
    write(out, args.write_record)


# --- think and engine -----------------------------------------------------------
def add_commands(sub) -> None:
    """The ``think`` and ``engine`` subcommands."""
    t = sub.add_parser("think", help="the board-game engine's move in a position")
    t.add_argument("game", help=BOARD_GAME)
    t.add_argument("--position", help="position string (default: the start)")
    limit = t.add_mutually_exclusive_group()
    limit.add_argument("--seconds", type=float, help="think this long (default: the level's)")
    limit.add_argument("--depth", type=int, help="search to this depth, however long it takes")
    t.add_argument("--level", default="hard", help="easy, medium, hard or expert (default hard)")
    t.add_argument("--no-book", action="store_true",
                   help="search even where the opening book has a move")
    t.add_argument("--json", action="store_true")
    sub.add_parser("engine", help="the board-game engine as a line protocol on stdin/stdout")


def cmd_think(args) -> int:
    if args.game != BOARD_GAME:
        raise BoardUsageError(f"think is for {BOARD_GAME}, not {args.game}")
    if args.level not in LEVELS:
        raise BoardUsageError(f"unknown level {args.level!r}; levels: {', '.join(LEVELS)}")
    if args.seconds is not None and not 0 < args.seconds <= 3600:
        raise BoardUsageError("--seconds must be more than 0 and at most 3600")
    if args.depth is not None and not 1 <= args.depth <= 64:
        raise BoardUsageError("--depth must be 1-64")
    game = CamelotBoard.from_position(args.position) if args.position else CamelotBoard()
    seconds = math.inf if args.depth is not None else args.seconds
    result = choose_move(game, args.level, seed=0, time_limit=seconds, max_depth=args.depth,
                         book=False if args.no_book else None)
    move = None if result.move is None else str(result.move)
    out = {"move": move, "score": result.score, "depth": result.depth, "nodes": result.nodes,
           "pv": list(result.pv), "seconds": round(result.seconds, 3),
           "nps": round(result.nps), "source": result.source}
    if result.tablebase is not None:
        out["tablebase"] = result.tablebase
    if move is None:
        out["reason"] = game.status_reason or "no legal move"
    if args.json:
        print(json.dumps(out))
    elif move is None:
        print(f"no move: {out['reason']}")
    else:
        known = "" if result.source == "search" else f"  ({source_text(result)})"
        print(f"{move}  score {score_text(result.score)}  depth {result.depth}  "
              f"nodes {result.nodes}  {out['seconds']} s{known}")
        print("pv " + " ".join(result.pv))
    return 0


def cmd_engine(args) -> int:
    return run_engine()


COMMANDS = {"think": cmd_think, "engine": cmd_engine}
