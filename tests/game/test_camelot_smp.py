"""Lazy SMP (game/camelot/smp.py): the shared table keeps what is put in it and
misses what is not; a search on two processes plays a legal move; a cancelled
search leaves its helpers idle; a helper whose parent is gone ends; no process
is left behind."""
import threading
import time

from game.camelot import smp
from game.camelot.ai import choose_move
from game.camelot.board import CamelotBoard

MIDDLEGAME = "2/8/10/12/12/2nmmmm1mn2/3nmmmmn3/12/6MN2N1/3NMMMMN3/3MMM1MM3/12/12/10/8/2 b 2 2"


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100   # utime + stime, in ticks of 1/100 s


def test_shared_table_keeps_entries_and_misses_other_keys():
    table = smp.SharedTable(entries=1 << 8)
    try:
        move = (46, 33, frozenset({5, 7}))
        table[0xDEADBEEF12345678] = (7, -1, -250, move)
        table[0x1234] = (-1, 0, 99_950, None)
        assert table.get(0xDEADBEEF12345678) == (7, -1, -250, move)
        assert table.get(0x1234) == (-1, 0, 99_950, None)
        assert table.get(0x1234 + (1 << 8)) is None   # the same slot, another key
        assert table.get(0x99) is None                 # an empty slot
        many = (10, 90, frozenset(range(20, 27)))       # seven captures: kept without its move
        table[0x55] = (3, 1, 40, many)
        assert table.get(0x55) == (3, 1, 40, None)
        # A torn entry (another process wrote half of it) reads as a miss.
        table.words[(0x55 & table.mask) * smp.WORDS + 1] ^= 1 << 20
        assert table.get(0x55) is None
        table.clear()
        assert table.get(0x1234) is None
    finally:
        table.close()


def test_two_processes_play_a_legal_move_and_leave_nothing_behind():
    board = CamelotBoard(MIDDLEGAME)
    try:
        result = choose_move(board, "hard", seed=1, max_depth=3, time_limit=60, threads=2)
        assert result.move in board.legal_moves()
        assert result.depth == 3
        pool = smp.helpers(1)
        assert pool is not None and pool.alive()
        processes = list(pool.processes)
    finally:
        smp.shutdown()
    for process in processes:
        assert not process.is_alive()


def test_a_cancelled_search_stops_its_helpers():
    board = CamelotBoard(MIDDLEGAME)
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    try:
        started = time.monotonic()
        result = choose_move(board, "expert", seed=1, time_limit=600, stop_event=stop, threads=2,
                             book=False)
        assert time.monotonic() - started < 5
        assert result.move in board.legal_moves()
        helper = smp.helpers(1).processes[0]
        time.sleep(0.3)       # the word to stop is on its way
        before = cpu_seconds(helper.pid)
        time.sleep(0.5)
        assert cpu_seconds(helper.pid) - before < 0.2   # idle: no search left running
    finally:
        smp.shutdown()


def test_a_helper_whose_parent_is_gone_ends():
    pool = smp.Helpers(1)
    try:
        pool.start(CamelotBoard(MIDDLEGAME).position, 600.0, 64, False)
        time.sleep(0.5)
        pool.links[0].close()      # as when the parent dies: its end of the pipe closes
        pool.processes[0].join(10)
        assert not pool.processes[0].is_alive()
    finally:
        pool.links = []
        pool.close()
