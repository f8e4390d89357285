"""``python -m game engine``: the board-game engine as a line protocol on
stdin/stdout, for other programs to drive (the way chess engines speak UCI).

One command a line; answers are lines too. Commands:

    camelot                      handshake: "id name …", "id author …", "camelotok"
                                 (after the endgame tablebase is opened, so that
                                 the first move's time is not spent on it)
    isready                      "readyok" (at once, even while thinking)
    position start [moves M …]   the usual start, then these moves (WCF notation)
    position fen P [moves M …]   a position string (4 or 6 fields), then moves
    go [depth D] [nodes N] [movetime MS] [seconds S] [level L] [threads T] [infinite] [nobook]
                                 think (nodes: stop after about N nodes, the
                                 same answer whatever the machine's load;
                                 nobook: search even where the opening book
                                 has a move, as infinite does; so does a set
                                 depth or node count; threads: searches at
                                 once, 1-4, default one a core for hard and
                                 expert); "info depth … score …
                                 nodes … nps … time … pv …" after each depth, then "bestmove M" ("bestmove none"
                                 when the game is over). Without limits: the level's
                                 time (hard: 1 s); infinite: until stop.
    stop                         end the thinking now; the best move so far is given
    show                         "position P" and "status …"; "moves M …" (legal moves)
    quit                         stop and exit (end of input does the same)

A move that did not come from a search is announced before ``bestmove`` by
``info depth 0 score …`` (the exact score) and ``info string tablebase win in N``
(also ``loss in N``, ``draw``): three-piece positions are read from the
endgame tablebase (game/camelot/tablebase.py) when it is built; or by
``info string book`` for a move of the opening book (game/camelot/book.py).

Bad input is answered with one line ``error <what is wrong>`` and the engine
keeps running. Scores are from the side to move's view, 100 ≈ a man; a forced
win is reported as ``score win N`` (N plies), a forced loss as ``score loss N``.
"""
from __future__ import annotations

import sys
import threading

from .ai import LEVELS, MAX_THREADS, choose_move, prepare, pv_text
from .board import START_POSITION, CamelotBoard
from .search import MATE, WIN_THRESHOLD
from ..errors import RoundTableError
from ..parsing import parse_int, positive_float

NAME = "Round Table Camelot engine"
AUTHOR = "the Round Table project"
MAX_LINE = 20_000           # characters; a longer line is refused, not read on
MAX_DEPTH = 64
MAX_SECONDS = 3600.0
ASKED_LIMIT = 10**9         # a larger depth or time asked for is read, then held to the above


class ProtocolError(RoundTableError):
    """A command line the engine does not understand."""


def score_text(score: int) -> str:
    if score > WIN_THRESHOLD:
        return f"win {MATE - score}"
    if score < -WIN_THRESHOLD:
        return f"loss {MATE + score}"
    return f"cp {score}"


def source_text(result) -> str:
    """Where a move came from when not from a search: "tablebase win in 7"."""
    if result.source == "tablebase":
        return f"tablebase {result.tablebase}"
    return result.source


class Engine:
    """The protocol's state: the game, the thinking thread, the output."""

    def __init__(self, out=None) -> None:
        self.out = out or sys.stdout
        self.game = CamelotBoard()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        # Set as the thinking thread sends its answer: after "bestmove" the next
        # command is taken, though the thread may not have ended yet.
        self._answered = threading.Event()
        self._table: dict = {}   # the search's table, kept from one go to the next

    def send(self, line: str) -> None:
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    @property
    def thinking(self) -> bool:
        return (self._thread is not None and self._thread.is_alive()
                and not self._answered.is_set())

    # --- commands -----------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one line; False when the engine should exit."""
        if len(line) > MAX_LINE:
            self.send(f"error line longer than {MAX_LINE} characters")
            return True
        words = line.split()
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        try:
            if command == "quit":
                self.stop()
                return False
            if command == "stop":
                self.stop()
            elif command == "isready":
                self.send("readyok")
            elif command == "camelot":
                self.send(f"id name {NAME}")
                self.send(f"id author {AUTHOR}")
                self.send("option levels " + " ".join(LEVELS))
                prepare()   # as a chess engine readies itself before "uciok"
                self.send("camelotok")
            elif command not in ("position", "go", "show"):
                raise ProtocolError(f"unknown command {command!r} (camelot, isready, position, "
                                    f"go, stop, show, quit)")
            elif self.thinking:
                raise ProtocolError(f"'{command}' while thinking; send stop first")
            elif command == "position":
                self.set_position(args)
            elif command == "go":
                self.go(args)
            else:
                self.show()
        except RoundTableError as exc:
            self.send(f"error {exc}")
        return True

    def set_position(self, args: list[str]) -> None:
        if not args:
            raise ProtocolError("position start | position fen P [moves M …]")
        if "moves" in args:
            cut = args.index("moves")
            head, moves = args[:cut], args[cut + 1:]
        else:
            head, moves = args, []
        if head == ["start"]:
            text = START_POSITION
        elif head and head[0] == "fen":
            text = " ".join(head[1:])
        else:
            raise ProtocolError("position start | position fen P [moves M …]")
        game = CamelotBoard(text)
        for number, move in enumerate(moves, 1):
            try:
                game.play(move)
            except RoundTableError as exc:
                raise ProtocolError(f"move {number} ({move}): {exc}") from None
        self.game = game   # only a whole, legal command changes the position

    def go(self, args: list[str]) -> None:
        level, depth, seconds, nodes, book, threads = "hard", None, None, None, None, None
        it = iter(args)
        for word in it:
            word = word.lower()
            if word == "infinite":   # analysis: a search, never the book's answer
                seconds, depth, book = MAX_SECONDS, MAX_DEPTH, False
                continue
            if word == "nobook":
                book = False
                continue
            value = next(it, None)
            if value is None:
                raise ProtocolError(f"go {word} needs a value")
            if word == "level":
                if value not in LEVELS:
                    raise ProtocolError(f"unknown level {value!r}; levels: {', '.join(LEVELS)}")
                level = value
            elif word in ("depth", "nodes"):
                # The one number parser: ASCII digits only ("١٢", "３" and "1_0" are
                # no number), and a 5,000-digit one is refused for its length.
                number = parse_int(value, f"go {word}", 1, ASKED_LIMIT, ProtocolError)
                if word == "depth":
                    depth = min(number, MAX_DEPTH)
                else:
                    nodes = number
            elif word == "threads":
                threads = parse_int(value, "go threads", 1, MAX_THREADS, ProtocolError)
            elif word in ("movetime", "seconds"):
                number = positive_float(value, f"go {word}", 0, ASKED_LIMIT, ProtocolError)
                seconds = min(number / 1000 if word == "movetime" else number, MAX_SECONDS)
            else:
                raise ProtocolError(f"go: unknown option {word!r} "
                                    f"(depth, nodes, movetime, seconds, level, threads, infinite, "
                                    f"nobook)")
        if nodes is not None and depth is None:
            depth = MAX_DEPTH
        if depth is not None and seconds is None:
            seconds = MAX_SECONDS
        self.wait()   # a search that has answered and not yet ended
        self._stop.clear()
        self._answered.clear()
        self._thread = threading.Thread(target=self._think,
                                        args=(level, depth, seconds, nodes, book, threads),
                                        daemon=True)
        self._thread.start()

    def _think(self, level: str, depth: int | None, seconds: float | None,
               nodes: int | None = None, book: bool | None = None,
               threads: int | None = None) -> None:
        game = self.game
        pos = game.position

        def info(it):
            line = pv_text(pos, it.pv)
            nps = int(it.nodes / it.seconds) if it.seconds > 0 else 0
            self.send(f"info depth {it.depth} score {score_text(it.score)} nodes {it.nodes} "
                      f"nps {nps} time {int(it.seconds * 1000)} pv {' '.join(line)}")

        try:
            result = choose_move(game, level, time_limit=seconds, max_depth=depth,
                                 stop_event=self._stop, on_iteration=info, seed=0,
                                 table=self._table, max_nodes=nodes, book=book, threads=threads)
        except Exception as exc:  # the protocol must answer whatever happens
            self.send(f"error the search failed: {exc}")
            self._answer("none")
            return
        if result.move is None:
            self.send(f"info string no legal move: {game.status_reason or 'no moves'}")
            self._answer("none")
            return
        if result.source != "search":
            self.send(f"info depth 0 score {score_text(result.score)} nodes 0 nps 0 time "
                      f"{int(result.seconds * 1000)} pv {' '.join(result.pv)}")
            self.send(f"info string {source_text(result)}")
        self._answer(str(result.move))

    def _answer(self, move: str) -> None:
        """The thinking thread's last word: from now on (not from its end, a
        moment later) the next command is taken, as a client may send it as soon
        as it reads this line."""
        self._answered.set()
        self.send(f"bestmove {move}")

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the thinking to end by itself (a depth or time limit)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def show(self) -> None:
        game = self.game
        self.send(f"position {game.position_text()}")
        self.send(f"status {game.status.value}" +
                  (f" {game.status_reason}" if game.status_reason else f" {game.turn} to move"))
        self.send("moves " + " ".join(str(m) for m in game.legal_moves()))


def run(stdin=None, stdout=None) -> int:
    """Read commands until quit or end of input."""
    stdin = stdin or sys.stdin
    engine = Engine(stdout)
    try:
        while True:
            line = stdin.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE and not line.endswith("\n"):
                while line and not line.endswith("\n"):  # the rest of it: dropped
                    line = stdin.readline(MAX_LINE + 1)
                engine.send(f"error line longer than {MAX_LINE} characters")
                continue
            if not engine.handle(line.strip()):
                break
    except KeyboardInterrupt:
        pass
    finally:
        engine.stop()
    return 0


__all__ = ["Engine", "ProtocolError", "run", "score_text", "source_text"]
