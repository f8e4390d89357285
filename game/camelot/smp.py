"""Both cores in one search: lazy SMP.

The search that answers (the *main* one, in the caller's process) and one or
more *helpers* (processes of their own, kept between moves) search the same
position at once, each its own iterative deepening, and meet only in a
transposition table in shared memory (:class:`SharedTable`): what one has
searched, the others read instead of searching it again, and the helpers'
different move orders (a seeded shuffle at the root, every other one starting a
ply deeper) spread them over the tree. Only the main search's move is played;
the helpers just fill the table. No lock: an entry is three 64-bit words and the
first is the key XOR the other two, so a torn entry (two writers at once) reads
as a miss.

Processes: a :class:`Helpers` pool is started on first use (spawned, never
forked: a fork of a threaded process can deadlock) and kept for the next moves.
A helper stops searching when told (the main search ended, was cancelled, or
ran out of time), at its own deadline, or when its parent is gone (its pipe
closes: it polls the pipe every 32 nodes), so no helper outlives the process
that started it; :func:`shutdown` (also at exit) ends them at once.
"""
from __future__ import annotations

import atexit
import os
import random
import threading
from multiprocessing import get_context
from multiprocessing.shared_memory import SharedMemory

TABLE_ENTRIES = 1 << 20    # 24 MB shared; a power of two (the key's low bits index it)
WORDS = 3                  # a check word (key ^ data ^ move), data, move
SCORE_OFFSET = 1 << 21     # scores are stored unsigned
MAX_CAPTURES = 6           # a move taking more is kept without its move (rare)
STOP_WAIT = 2.0            # seconds a helper is given to leave before it is killed
NO_DEADLINE = 86_400.0     # seconds: a helper of a search with no deadline (until stopped)


def _encode_move(key) -> int:
    """A move key (from, to, captured squares) as one word: each square + 1 in a byte."""
    frm, to, caps = key
    if len(caps) > MAX_CAPTURES:
        return 0
    word = (frm + 1) | ((to + 1) << 8)
    for shift, sq in enumerate(sorted(caps), 2):
        word |= (sq + 1) << (8 * shift)
    return word


def _decode_move(word: int):
    caps = []
    rest = word >> 16
    while rest:
        caps.append((rest & 0xFF) - 1)
        rest >>= 8
    return ((word & 0xFF) - 1, ((word >> 8) & 0xFF) - 1, frozenset(caps))


class SharedTable:
    """A transposition table in shared memory with the part of a dict's face the
    search uses: ``get(key)`` -> (depth, flag, score, move) or None, ``table[key] =
    entry``, ``len`` (0: it never needs emptying, entries are overwritten) and
    ``clear``. ``name``: attach to an existing one (a helper); None: create it."""

    def __init__(self, name: str | None = None, entries: int = TABLE_ENTRIES) -> None:
        if entries & (entries - 1):
            raise ValueError("the table's size must be a power of two")
        if name is None:
            self.memory = SharedMemory(create=True, size=entries * WORDS * 8)
            self.owner = True
        else:
            self.memory = SharedMemory(name=name)
            self.owner = False
            entries = self.memory.size // (WORDS * 8)
            entries = 1 << (entries.bit_length() - 1)
        self.name = self.memory.name
        self.words = self.memory.buf.cast("Q")
        self.mask = entries - 1
        self._moves: dict[int, tuple] = {0: None}    # word -> key, both ways: moves recur
        self._words: dict = {None: 0}

    def get(self, key: int, default=None):
        w = self.words
        i = (key & self.mask) * WORDS
        data = w[i + 1]
        move = w[i + 2]
        if not data or w[i] ^ data ^ move != key:
            return default
        found = self._moves.get(move)
        if found is None and move:
            found = self._moves[move] = _decode_move(move)
        return ((data & 0x7F) - 2, ((data >> 7) & 3) - 1, (data >> 9) - SCORE_OFFSET, found)

    def __setitem__(self, key: int, entry: tuple) -> None:
        depth, flag, score, best = entry
        move = self._words.get(best)
        if move is None:
            move = self._words[best] = _encode_move(best)
        data = (depth + 2) | ((flag + 1) << 7) | ((score + SCORE_OFFSET) << 9)
        w = self.words
        i = (key & self.mask) * WORDS
        w[i + 1] = data
        w[i + 2] = move
        w[i] = key ^ data ^ move

    def __len__(self) -> int:
        return 0

    def clear(self) -> None:
        self.memory.buf[:] = bytes(self.memory.size)

    def close(self) -> None:
        self.words.release()
        self.memory.close()
        if self.owner:
            self.memory.unlink()


class _PipeStop:
    """A helper's stop signal: anything on its pipe (the word to stop, or the
    end of the pipe when the parent is gone)."""

    def __init__(self, conn) -> None:
        self.conn = conn

    def is_set(self) -> bool:
        return self.conn.poll()


def _helper_main(conn, table_name: str, index: int) -> None:
    """A helper process: search each position it is sent until told to stop."""
    import signal
    import time
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl+C is for the parent
    from .position import Position
    from .search import Search
    table = SharedTable(table_name)
    tablebase = None
    rng = random.Random(index)
    stop = _PipeStop(conn)
    try:
        while True:
            message = conn.recv()
            if message[0] == "quit":
                return
            if message[0] != "go":
                continue            # a stop for a search already over
            _, state, seconds, max_depth, use_tablebase = message
            if use_tablebase and tablebase is None:
                from .tablebase import shared as tablebase_shared
                tablebase = tablebase_shared()
            pos = Position(*state)
            keys = list(pos.moves())
            rng.shuffle(keys)
            keys.sort(key=lambda k: -len(k[2]))
            deadline = time.perf_counter() + seconds
            search = Search(pos, deadline, stop, table,
                            tablebase=tablebase if use_tablebase and tablebase.available else None)
            search.run(keys, max_depth, first_depth=1 + index % 2)
            # Wait for the word to stop (the main search is over), then the next go.
            if conn.recv()[0] == "quit":
                return
    except (EOFError, OSError, KeyboardInterrupt):
        return      # the parent is gone
    finally:
        table.close()


class Helpers:
    """``count`` helper processes and the table they share with the main search."""

    def __init__(self, count: int) -> None:
        self.table = SharedTable()
        ctx = get_context("spawn")
        self.links = []
        self.processes = []
        try:
            for index in range(1, count + 1):
                mine, theirs = ctx.Pipe()
                process = ctx.Process(target=_helper_main, args=(theirs, self.table.name, index),
                                      name=f"camelot-helper-{index}", daemon=True)
                process.start()
                theirs.close()
                self.links.append(mine)
                self.processes.append(process)
        except BaseException:
            self.close()
            raise
        self.searching = False

    @property
    def count(self) -> int:
        return len(self.processes)

    def alive(self) -> bool:
        return all(p.is_alive() for p in self.processes)

    def start(self, pos, seconds: float, max_depth: int, tablebase: bool) -> None:
        """Every helper searches ``pos`` (a Position) for at most ``seconds``."""
        state = (pos.board, pos.side, tuple(pos.castle_left), pos.clock, tuple(pos.history))
        for link in self.links:
            link.send(("go", state, seconds, max_depth, tablebase))
        self.searching = True

    def stop(self) -> None:
        if self.searching:
            for link in self.links:
                try:
                    link.send(("stop",))
                except OSError:
                    pass
            self.searching = False

    def close(self) -> None:
        for link in self.links:
            try:
                link.send(("quit",))
            except OSError:
                pass
        for process in self.processes:
            process.join(STOP_WAIT)
            if process.is_alive():
                process.kill()
                process.join()
        for link in self.links:
            link.close()
        self.table.close()
        self.links, self.processes = [], []


_lock = threading.Lock()
_helpers: Helpers | None = None
_failures = 0
MAX_FAILURES = 2   # pools that died or would not start: then one search alone


def helpers(count: int) -> Helpers | None:
    """The process's helper pool with ``count`` helpers (started, or restarted
    when it has another size or lost a process); None where helpers cannot run
    (no shared memory, no processes, or pools that kept dying)."""
    global _helpers, _failures
    with _lock:
        if _helpers is not None and (_helpers.count != count or not _helpers.alive()):
            if not _helpers.alive():
                _failures += 1
            _helpers.close()
            _helpers = None
        if _helpers is None and _failures < MAX_FAILURES:
            try:
                _helpers = Helpers(count)
            except (OSError, ValueError, RuntimeError, AssertionError):
                # AssertionError: a daemonic process may not start processes.
                _failures += 1
                return None
            atexit.register(shutdown)
        return _helpers


def shutdown() -> None:
    """End the helper processes now (they also end when this process does)."""
    global _helpers
    with _lock:
        if _helpers is not None:
            _helpers.close()
            _helpers = None


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


__all__ = ["SharedTable", "Helpers", "helpers", "shutdown", "cores", "TABLE_ENTRIES"]
