"""The computer opponent for Camelot: levels on top of the engine's search.

The search itself is :mod:`game.camelot.search` (alpha-beta with quiescence over
compulsory captures, extensions for forcing moves, null-move and futility
pruning, late-move reductions, a transposition table) and its evaluation
:mod:`game.camelot.eval` (material, progress, the castle race).

``choose_move(board, level)`` reads the board once (a copy of its position) and
keeps no global state of its own (it only pauses Python's cycle collector while it
runs, see ``_collector_paused``), so it can run in a worker thread or process. A
caller that keeps a ``table`` dict between a game's moves gives each search the
last one's results (the ``engine`` command and the match bench do).

Levels (seconds per move, depth cap, random noise on root scores):

- **easy**: 0.2 s, 2 plies (+ quiescence), ±40 noise — less than half a man, so
  it never leaves a free capture untaken (a test checks it), but it sees little
  beyond: a shallow player that makes positional mistakes;
- **medium**: 0.5 s, at most 4 plies (+ quiescence: every compulsory capture
  sequence is played out), no noise;
- **hard**: 1 s, as deep as the time allows: 6–8 plies in the middlegame;
- **expert**: 5 s, as deep as the time allows (a few plies more than hard).

Measured strength (``bench/camelot_match.py``: 20 games a pairing, both
colours, seeded two-ply openings; the opponent is a plain full-width alpha-beta
written apart from the engine, material + advancement, no quiescence):

    ======  ===================  =====  =========  =========  ===========
    level   opponent             games  won-dr-lo  win rate   mean depth
    ======  ===================  =====  =========  =========  ===========
    easy    plain depth 2        20     17-0-3     85 %       1.9
    easy    plain depth 3        20     12-0-8     60 %       1.9
    medium  plain depth 3        20     20-0-0     100 %      3.6
    medium  plain depth 4        20     19-0-1     95 %       3.7
    medium  easy                 20     20-0-0     100 %      3.7
    hard    plain depth 3        20     20-0-0     100 %      6.7
    hard    plain depth 4        20     19-0-1     95 %       6.4
    hard    medium               20     17-1-2     85 %       8.3
    expert  plain depth 4        20     19-0-1     95 %       8.4
    expert  hard                 10     6-0-4      60 %       9.3
    ======  ===================  =====  =========  =========  ===========

(25 November 2026, load average 2–5 on 2 cores shared with other work; the
longest answer was 0.85–1.09× the level's limit in every pairing.)

The plain searches lose mostly to compulsory-capture tactics they cannot see,
so medium already wins nearly all its games against them; ``--versus LEVEL``
plays the engine against itself to tell the levels apart. Expert's five
seconds buy about three plies over hard: over 32 games from the opening suite
at each level's own time (``bench/sprt.py --seconds 1 --test-go 'movetime
5000'``, 28 November) expert scored 76.6 %, +206 ± 124 Elo (95 %: +106 …
+353; README), where ten earlier games had shown no clear edge (6–4).

Easy gives away a man or more in about one move of five (13 of 60 quiet
positions, judged by a 5-ply search: ``bench/camelot_blunders.py``), medium in
one of ten: a beginner who takes what is offered beats easy. No level searches
on more than one core: two processes (``threads=2``, :mod:`game.camelot.smp`)
lost their match on this 2-core machine shared with other work (README).

Every level answers within its time: the search checks the clock every 32
nodes, stops at 95 % of the limit (less 30 ms, at most a tenth, kept back for
load) and does not begin an iteration whose first half it is unlikely to
finish (a cut-short iteration's best move is used).
"""
from __future__ import annotations

import gc
import random
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace

from .moves import Move, make_move, path_text
from .position import Position
from .search import MATE, WIN_THRESHOLD, Search
from .eval import evaluate_from, pst_total
from .book import shared as book_shared
from . import smp

# Entries (about 30 MB) a table kept between moves may hold; beyond, it is
# emptied before the next search (emptying 400k entries took 70 ms and more
# under load, counted in that move's time).
KEPT_TABLE_LIMIT = 150_000
MAX_THREADS = 4         # searches (processes) a level runs at once, at most: one a core
DEADLINE_SHARE = 0.95   # of the time limit; the rest covers building the answer
RESERVE = 0.03          # seconds more kept back (at most a tenth of the limit): load


@dataclass(frozen=True)
class Level:
    seconds: float
    max_depth: int
    noise: int  # random score added to each root move (weak levels)
    tablebase: bool = True   # knows the three-piece endings exactly
    book: bool = True        # plays the opening book's moves
    smp: bool = False        # searches on every core (lazy SMP, game.camelot.smp)


LEVELS = {
    "easy": Level(0.2, 2, 40, tablebase=False, book=False),
    "medium": Level(0.5, 4, 0),
    "hard": Level(1.0, 64, 0),
    "expert": Level(5.0, 64, 0),
}


@dataclass(frozen=True)
class SearchResult:
    """What a search found: ``move`` (with its paths; None when there is no legal
    move), its ``score`` for the side to move (100 ≈ a man; ±(MATE − plies) a
    forced result), the last fully searched ``depth`` (0: the move was forced),
    ``nodes`` searched, ``seconds`` taken, nodes/s, and ``pv``, the expected line
    in WCF notation (the move first)."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    nps: float
    pv: tuple[str, ...] = ()
    source: str = "search"        # "search", "book" or "tablebase": where the move came from
    tablebase: str | None = None  # the table's verdict at the root ("win in 7", "draw")


def evaluate(pos: Position) -> int:
    """Static score from the side to move's view (:mod:`game.camelot.eval`)."""
    return evaluate_from(pst_total(pos.board), pos.bits, pos.side)


def pv_text(pos: Position, keys, deadline: float | None = None) -> tuple[str, ...]:
    """A line of move keys as WCF notation, each with its canonical path (listing
    every path can take a while in open positions: it stops at ``deadline``)."""
    out = []
    pushed = 0
    try:
        for key in keys:
            if deadline is not None and time.perf_counter() > deadline:
                break
            paths = pos.moves(want_paths=True).get(key)
            if not paths:
                break
            out.append(str(make_move(key, paths)))
            pos.push(*key)
            pushed += 1
    finally:
        for _ in range(pushed):
            pos.pop()
    return tuple(out)


def choose_move(board, level: str = "medium", seed: int | None = None,
                time_limit: float | None = None, stop_event=None,
                max_depth: int | None = None, on_iteration=None,
                table: dict | None = None, max_nodes: int | None = None,
                tablebase: bool | None = None, book: bool | None = None,
                threads: int | None = None) -> SearchResult:
    """The computer's move for the side to move.

    ``board`` is a CamelotBoard (or a Position); it is not changed. ``level`` is
    easy, medium, hard or expert; ``time_limit`` (seconds; None: the level's) and
    ``max_depth`` override the level's; ``max_nodes`` ends the search after
    about that many nodes (checked every 32: the same moves whatever the load).
    A set depth or node count skips the opening book unless ``book`` is True;
    ``book=False`` never uses it, ``tablebase=False`` never reads the endgame
    tablebase. ``stop_event`` (e.g. a threading.Event)
    ends the search early; ``on_iteration`` is called with each finished
    :class:`~game.camelot.search.Iteration`. ``table`` is a dict the caller keeps
    between the moves of a game (the search's transposition table): the next
    search starts from what this one found (to the same depth in about 40 %
    fewer nodes, two plies later); None: a fresh table. One table may serve
    both sides (a hint, an engine asked for either): each side's entries are
    kept apart, as a draw is scored for the side searched for.

    ``threads``: searches run at once (lazy SMP: helper processes and a table in
    shared memory, see :mod:`game.camelot.smp`; the table then replaces
    ``table``); None: the level's (one a core, at most MAX_THREADS, for a level
    whose ``smp`` is set: none is, see above), and one for any search limited
    by nodes (its length would depend on the helpers' speed).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    with _collector_paused():
        return _choose(board, level, seed, time_limit, stop_event, max_depth, on_iteration, table,
                       max_nodes, tablebase, book, threads)


@contextmanager
def _collector_paused():
    """Python's cycle collector stays off while the search runs: the search makes
    no reference cycles, and a full collection walks every table entry (100 ms
    and more under load with a kept table), which would overrun the time limit.
    Collections resume afterwards, on the caller's time."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def prepare() -> None:
    """Open what a level reads on first use, the endgame tablebase (numpy and
    its memory maps: 0.2-0.4 s on a loaded machine), so that it is not paid
    out of a first move's time. Harmless when the tablebase is not built."""
    from .tablebase import shared as tablebase_shared
    tablebase_shared()


def _choose(board, level, seed, time_limit, stop_event, max_depth, on_iteration,
            table, max_nodes=None, use_tablebase=None, use_book=None,
            threads=None) -> SearchResult:
    lv = LEVELS[level]
    seconds = lv.seconds if time_limit is None else time_limit
    depth_cap = lv.max_depth if max_depth is None else max_depth
    started = time.perf_counter()
    pos = board.copy() if isinstance(board, Position) else board.position
    rng = random.Random(seed)

    if pos.outcome_without_moves() is not None:
        return SearchResult(None, 0, 0, 0, 0.0, 0.0)
    paths = pos.moves(want_paths=True)
    if not paths:
        return SearchResult(None, 0, 0, 0, 0.0, 0.0)
    keys = list(paths)
    rng.shuffle(keys)  # seeded tie-breaking: equal moves keep this random order

    def finish(key, score, depth, nodes, line):
        used = time.perf_counter() - started
        move = make_move(key, paths[key])  # equal to the board's own Move, same paths
        pv = (str(move),) + pv_text_after(key, line[1:])
        return SearchResult(move, score, depth, nodes, used, nodes / used if used > 0 else 0.0, pv)

    def pv_text_after(key, rest):
        pos.push(*key)
        try:
            return pv_text(pos, rest, None if seconds is None else started + seconds * 0.97)
        finally:
            pos.pop()

    # The book answers a level's move; a search of a set depth or size is a search.
    if use_book or (use_book is None and lv.book and max_depth is None and max_nodes is None):
        found = book_shared().lookup(pos)
        if found is not None:
            return replace(finish(found[0], 0, 0, 0, (found[0],)), source="book")
    tb = None
    if lv.tablebase if use_tablebase is None else use_tablebase:
        from .tablebase import shared as tablebase_shared   # start-up: numpy when needed
        tb = tablebase_shared()
        tb = tb if tb.available else None
    if tb is not None:
        verdict = tb.probe(pos)
        if verdict is not None:
            key, score, line = tablebase_move(tb, pos, keys)
            result = finish(key, score, 0, 0, line)
            return replace(result, source="tablebase", tablebase=str(verdict))
    if len(keys) == 1:
        return finish(keys[0], 0, 0, 0, (keys[0],))
    noise = {k: rng.randint(-lv.noise, lv.noise) for k in keys} if lv.noise else {}
    deadline = None if seconds is None else (
        started + seconds * DEADLINE_SHARE - min(RESERVE, seconds * 0.1))
    if threads is None:
        threads = min(smp.cores(), MAX_THREADS) if lv.smp and max_nodes is None else 1
    pool = smp.helpers(threads - 1) if threads > 1 else None
    if pool is not None:
        if table is None:
            pool.table.clear()   # a fresh table was asked for
        table = pool.table
    elif table is not None and len(table) > KEPT_TABLE_LIMIT:
        table.clear()   # a kept table grows by a search's worth a move: bounded memory
    search = Search(pos, deadline, stop_event, table, max_nodes, tb)
    search.started = started
    keys.sort(key=lambda k: -len(k[2]))  # captures first at depth 1 (stable: seeded order)
    try:
        if pool is not None:
            left = (smp.NO_DEADLINE if deadline is None
                    else max(0.0, deadline - time.perf_counter()))
            pool.start(pos, left, depth_cap, tb is not None)
        done = search.run(keys, depth_cap, noise, budget=seconds, on_iteration=on_iteration)
    finally:
        if pool is not None:
            pool.stop()
    if done is None:  # not even one root move searched in time: the best-ordered one
        return finish(keys[0], 0, 0, search.nodes, (keys[0],))
    return finish(done.best, done.score, done.depth, search.nodes, done.pv)


def tablebase_move(tb, pos: Position, keys: list, line_plies: int = 12) -> tuple:
    """The table's best root move: the quickest win, else a draw, else the
    longest defence; its score (MATE - plies for a win) and the line the
    table expects (each side's best, at most ``line_plies``)."""
    def value(key):
        pos.push(*key)
        try:
            ended = pos.outcome_without_moves()
            if ended is not None:   # the move ends the game: won, or drawn
                return (2, -1) if ended[1] == 1 - pos.side else (1, 0)
            hit = tb.probe(pos)
            if hit is None or hit.result == "draw":
                return (1, 0)
            # The opponent's view: its loss in N is our win in N + 1.
            return (2, -hit.plies - 1) if hit.result == "loss" else (0, hit.plies + 1)
        finally:
            pos.pop()

    best = max(keys, key=value)
    kind, plies = value(best)
    score = {2: MATE + plies, 1: 0, 0: -(MATE - plies)}[kind]
    line = [best]
    pushed = 0
    try:
        pos.push(*best)
        pushed += 1
        while len(line) < line_plies and pos.outcome_without_moves() is None:
            moves = list(pos.moves())
            if not moves or tb.probe(pos) is None:
                break
            step = max(moves, key=value)
            line.append(step)
            pos.push(*step)
            pushed += 1
    finally:
        for _ in range(pushed):
            pos.pop()
    return best, score, tuple(line)


__all__ = ["choose_move", "prepare", "tablebase_move", "evaluate", "SearchResult", "LEVELS", "Level", "MATE",
           "WIN_THRESHOLD", "pv_text"]
