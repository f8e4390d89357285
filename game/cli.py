"""``python -m game``: the engine's own command line, no display needed.

    games                                   list the game ids
    moves GAME (--seed N | --deck D | --position P)       legal moves
    play GAME (--seed N | --deck D | --position P) --moves "m1 m2 …"
    play camelot-board --record FILE [--moves …] [--write-record FILE [--tag NAME=VALUE]]
    simulate GAME --deals N [--seed S]      the computer player over N deals
    perft [--depth N] [--position P]        board-game move-generator counts
    think camelot-board [--position P] [--seconds S | --depth D] [--level L]
                                            the board-game engine's best move
    engine                                  the board-game engine's line protocol
    solve GAME (--seed N | --deck D) [--max-states N] [--max-seconds S]
                                            exact solver: winnable (with a line),
                                            not winnable, or unknown past a limit
    serve [--host H] [--port P] [--db FILE] the network game server (game/server)

``--json`` on each gives machine-readable output. Bad input (unknown game, a deal
number that is not a number, a deck that is not 52 distinct cards, a bad
position, a number out of its range, an argument the command or game does not
take) prints one line naming what is wrong and exits 2; ``play`` exits 1 at the
first illegal move. Every number is read by ``game.parsing`` (ASCII digits,
bounded, finite, in a stated range). Ctrl-C ends any command quietly (exit
130); a closed output pipe ends it quietly too.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time

from . import GAME_IDS, game_class
from .camelot import cli as camelot_cli
from .base import CardGame, Game, Status
from .cards import check_seed
from .errors import BadPositionError, IllegalMoveError, NotationError, RoundTableError
from .server.cli import add_serve_parser, cmd_serve
from .parsing import MAX_SEED, number_argument as _number, positive_float

EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130     # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_BROKEN_PIPE = 141     # 128 + SIGPIPE
MOVE_CAP = 2000  # a safety net for simulate; no game of ours needs this many

# The ranges of the numbers the commands take (stated in the errors).
MAX_DEALS = 100_000        # simulate: hours of work at most
MAX_PERFT_DEPTH = 4        # perft(4) from the start takes minutes; 5 would take hours
MAX_STATES = 10**9
MAX_SECONDS = 24 * 3600.0
MAX_MOVES_TEXT = 200_000   # characters of --moves (thousands of moves)
MAX_POSITION_TEXT = 2_000  # characters of --position (a real one has about 120)


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one clear line, not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def new_game(game_id: str, seed=None, deck: str | None = None,
             position: str | None = None) -> Game:
    """A game from a deal number, a deck order or a position string."""
    cls = game_class(game_id)
    if issubclass(cls, CardGame):
        if position is not None:
            raise UsageError(f"{game_id} takes --seed or --deck, not --position")
        if seed is not None and deck is not None:
            raise UsageError("give --seed or --deck, not both")
        if deck is not None:
            return cls(deck=deck)
        return cls(seed=check_seed(1 if seed is None else seed))
    if deck is not None:
        raise UsageError(f"{game_id} takes --position, not --deck")
    if seed is not None:
        raise UsageError(f"{game_id} takes --position, not --seed (it has no deals)")
    if position is not None:
        if len(position) > MAX_POSITION_TEXT:
            raise UsageError(f"--position is at most {MAX_POSITION_TEXT} characters")
        try:
            return cls.from_position(position)
        except RoundTableError:
            raise
        except ValueError as exc:
            # The position parser (game/camelot/position.py) still calls int() on
            # what str.isdigit() let through ("²", 5,000 digits); until it reads
            # its numbers with game.parsing, say so in one line here.
            raise BadPositionError(f"not a position string: {_one_line(exc)}") from None
    return cls()


def split_moves(text: str) -> list[str]:
    """'1.F7-F8 F11-F9 2.D7-F7' or 't W>c5' → move texts (numbers dropped)."""
    if len(text) > MAX_MOVES_TEXT:
        raise UsageError(f"--moves is at most {MAX_MOVES_TEXT} characters")
    words = []
    for word in text.replace(",", " ").split():
        word = re.sub(r"^[0-9]+\.+", "", word)
        if word:
            words.append(word)
    return words


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % confidence interval of a proportion (Wilson score interval)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _add_start(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game id: " + ", ".join(GAME_IDS))
    p.add_argument("--seed", help="deal number")
    p.add_argument("--deck", help='deck order, top card first: "AS 10H …"')
    p.add_argument("--position", help="board-game position string")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m game", description="Round Table engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    g = sub.add_parser("games", help="list the game ids")
    g.add_argument("--json", action="store_true")
    _add_start(sub.add_parser("moves", help="list the legal moves"))
    p = sub.add_parser("play", help="play moves, print status and score")
    _add_start(p)
    p.add_argument("--moves", help='"m1 m2 …" in the game\'s notation')
    camelot_cli.add_play_options(p)
    s = sub.add_parser("simulate", help="the computer player over many deals")
    s.add_argument("game")
    s.add_argument("--deals", required=True, type=_number("--deals", 1, MAX_DEALS))
    s.add_argument("--seed", default=None, help="first deal number (default 1)")
    s.add_argument("--json", action="store_true")
    f = sub.add_parser("perft", help="board-game move counts to a depth")
    f.add_argument("--depth", type=_number("--depth", 0, MAX_PERFT_DEPTH), default=3)
    f.add_argument("--position")
    f.add_argument("--json", action="store_true")
    v = sub.add_parser("solve", help="solve a patience deal exactly")
    v.add_argument("game", help="camelot-solitaire, hamilton or clock")
    v.add_argument("--seed", help="deal number")
    v.add_argument("--deck", help='deck order, top card first: "AS 10H …"')
    v.add_argument("--max-states", type=_number("--max-states", 1, MAX_STATES), default=None,
                   help="give up (unknown) after this many states")
    v.add_argument("--max-seconds", default=None,
                   type=_number("--max-seconds", 0.0, MAX_SECONDS, positive_float),
                   help="give up (unknown) after this many seconds")
    v.add_argument("--json", action="store_true")
    add_serve_parser(sub, _number)
    camelot_cli.add_commands(sub)
    return parser


def _summary(game: Game) -> dict:
    out = {"game": game.game_id, "status": game.status.value, "score": game.score,
           "reason": game.status_reason, "moves_played": len(game.history)}
    if hasattr(game, "position_text"):
        out["position"] = game.position_text()
    return out


def cmd_games(args) -> int:
    from . import GAMES, is_available
    rows = [{"id": gid, "title": GAMES[gid].title, "available": is_available(gid)} for gid in GAME_IDS]
    if args.json:
        print(json.dumps(rows))
    else:
        for row in rows:
            print(f"{row['id']:<18} {row['title']}{'' if row['available'] else '  (not yet)'}")
    return 0


def cmd_moves(args) -> int:
    game = new_game(args.game, args.seed, args.deck, args.position)
    game.settle()
    moves = [game.move_text(m) for m in game.legal_moves()]
    if args.json:
        print(json.dumps({**_summary(game), "moves": moves}))
    else:
        print(" ".join(moves) if moves else f"no legal moves ({game.status.value})")
    return 0


def cmd_play(args) -> int:
    if args.moves is None and args.record is None:
        raise UsageError("the following arguments are required: --moves (or --record FILE)")
    camelot_cli.check_write_record(args)
    record, moves = None, []
    if args.record is not None:
        game, moves, record = camelot_cli.start_from_record(args)
    else:
        game = new_game(args.game, args.seed, args.deck, args.position)
    extra = split_moves(args.moves or "")
    for number, text in enumerate(moves + extra, 1):
        try:
            game.play(text)
        except (IllegalMoveError, NotationError) as exc:
            message = f"move {number} ({text}): {exc}"
            if args.json:
                print(json.dumps({**_summary(game), "error": message}))
            else:
                print(f"error: {message}", file=sys.stderr)
            return EXIT_ILLEGAL
    game.settle()                 # end checks kept out of play() (Hamilton's dead ends)
    if args.write_record is not None:
        camelot_cli.write_played(game, args, record, bool(extra))
    summary = _summary(game)
    if args.json:
        print(json.dumps(summary))
    else:
        if "position" in summary:
            print(summary["position"])
        print(f"status: {summary['status']}" + (f" ({summary['reason']})" if summary["reason"] else ""))
        print(f"score: {summary['score']}")
    return 0


def cmd_simulate(args) -> int:
    cls = game_class(args.game)
    if not issubclass(cls, CardGame) and args.seed is not None:
        raise UsageError(f"{args.game} takes no --seed (it has no deals)")
    first = check_seed(1 if args.seed is None else args.seed)
    if first + args.deals - 1 > MAX_SEED:
        raise UsageError(f"deal numbers stop at {MAX_SEED}: start lower or play fewer deals")
    wins = draws = 0
    total_score = 0
    started = time.perf_counter()
    for deal in range(first, first + args.deals):
        game = new_game(args.game, seed=deal) if issubclass(cls, CardGame) else new_game(args.game)
        rng = random.Random(deal)
        for _ in range(MOVE_CAP):
            if game.status is not Status.PLAYING:
                break
            move = game.computer_move(rng)
            if move is None:
                break
            game.play(move)
        game.settle()
        wins += game.status is Status.WON
        draws += game.status is Status.DRAW
        total_score += game.score
    low, high = wilson_interval(wins, args.deals)
    result = {"game": args.game, "deals": args.deals, "first_deal": first, "wins": wins,
              "win_rate": wins / args.deals, "ci95": [low, high], "draws": draws,
              "mean_score": total_score / args.deals,
              "seconds": round(time.perf_counter() - started, 3)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.game}: {args.deals} deals from {first}: won {wins} "
              f"({100 * wins / args.deals:.2f} %, 95 % CI {100 * low:.2f}–{100 * high:.2f} %), "
              f"mean score {total_score / args.deals:.2f}, {result['seconds']} s")
    return 0


def cmd_perft(args) -> int:
    try:
        from .camelot.board import perft
    except ModuleNotFoundError:
        raise UsageError("perft needs the board game, which is not available yet") from None
    board = new_game("camelot-board", position=args.position)
    rows = []
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = perft(board, depth)
        seconds = time.perf_counter() - started
        rows.append({"depth": depth, "nodes": nodes, "seconds": round(seconds, 4),
                     "nps": round(nodes / seconds) if seconds else None})
    if args.json:
        print(json.dumps(rows))
    else:
        for row in rows:
            print(f"perft({row['depth']}) = {row['nodes']}  {row['seconds']} s  {row['nps']} nodes/s")
    return 0


def cmd_solve(args) -> int:
    from . import SOLVER_IDS
    from .solver_common import solver_for
    if args.game not in SOLVER_IDS:
        game_class(args.game)                          # unknown game: its own message
        raise UsageError(f"no solver for {args.game}; solvers: {', '.join(SOLVER_IDS)}")
    game = new_game(args.game, args.seed, args.deck)
    solve = solver_for(args.game)
    kwargs = {"max_seconds": args.max_seconds}
    if args.max_states is not None:
        kwargs["max_states"] = args.max_states
    result = solve(game, **kwargs)
    start = {"seed": game.seed} if game.seed is not None else {"deck": args.deck}
    if args.json:
        print(json.dumps({"game": args.game, **start, **result.to_json()}))
    else:
        print(f"{args.game} {'deal ' + str(game.seed) if game.seed is not None else 'deck'}: "
              f"{result.answer}" + (f" (limit: {result.reason})" if result.reason else ""))
        if result.winnable:
            print("line: " + " ".join(result.line))
        print(f"states: {result.states}")
        print(f"seconds: {result.seconds:.3f}")
    return 0


COMMANDS = {"solve": cmd_solve, "games": cmd_games, "moves": cmd_moves, "play": cmd_play,
            "simulate": cmd_simulate, "perft": cmd_perft, "serve": cmd_serve,
            **camelot_cli.COMMANDS}


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        code = COMMANDS[args.command](args)
        sys.stdout.flush()          # a closed pipe shows here, not at exit
        return code
    except (UsageError, RoundTableError) as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        quiet_broken_pipe()
        return EXIT_BROKEN_PIPE


def _one_line(exc: Exception) -> str:
    """An error as one line, whatever text it quotes."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:300] + "…"


def quiet_broken_pipe() -> None:
    """The reader of our output went away (``| head``): say nothing more, and
    let Python's exit not complain while flushing what is left."""
    import os
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
