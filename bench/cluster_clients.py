"""The players of bench/cluster_load.py, spread over several processes.

Each client process runs its share of the games in its own asyncio loop and keeps
only counts: a fixed histogram of round trips (outside the failover window, and
over the whole run), the longest wait, the errors, and each game's acknowledged
moves (what the check against the database needs). The processes set up their
games, wait for one another at a barrier (whose last arrival stamps the start of
play, the same monotonic clock for all on Linux), play until the end, and send
their tallies back; :func:`load` merges them into one.
"""
from __future__ import annotations

import asyncio
import functools
import math
import multiprocessing
import os
import queue
import random
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field

from websockets.exceptions import WebSocketException

from bench.server_load import address, server_memory
from game.net.client import Client, ConnectionLost, ServerRefused, lost_last, server_addresses
from game.net.protocol import PROTOCOL_VERSION
from game.server.game_server import tune_garbage_collector
from game.server.node_cli import run_event_loop

# A lost connection, or a node that closed it mid-handshake (it was being killed).
BROKEN = (ConnectionLost, WebSocketException, OSError, asyncio.TimeoutError)
RETRYABLE = ("storage_unavailable", "table_moved", "table_unavailable", "offline")
REPLY_SECONDS = 20.0
KEPT_MESSAGES = 50            # a bench client's own record of what it received
FAILOVER_WINDOW = 10.0        # seconds after the kill left out of "outside the failover"
GAMES_PER_PROCESS = 250       # the default share of one client process
SLOT = 5.0                    # the round trips' p99 is also told for each 5 s of play
SMALLEST = 1e-4               # the histogram's first bucket: 0.1 ms ...
GROWTH = 1.02                 # ... each bucket 2 % wider than the one before
BUCKETS = int(math.log(1000.0 / SMALLEST, GROWTH)) + 1     # ... up to 1,000 s
# A reconnection after the kill, step by step: when its player noticed the loss and
# when it was back in its seat (seconds after the kill), and each step's seconds.
PHASES = ("noticed", "handshake", "welcome", "seated", "table", "back")


class Histogram:
    """Round trips in log-spaced buckets (2 % wide): a percentile is its bucket's top,
    at most 2 % above the true value; memory fixed whatever the run's length."""

    def __init__(self) -> None:
        self.counts = [0] * BUCKETS
        self.total = 0

    def add(self, seconds: float) -> None:
        index = 0 if seconds <= SMALLEST else int(math.log(seconds / SMALLEST, GROWTH)) + 1
        self.counts[min(BUCKETS - 1, index)] += 1
        self.total += 1

    def merge(self, other: "Histogram") -> None:
        self.counts = [a + b for a, b in zip(self.counts, other.counts)]
        self.total += other.total

    def percentile(self, share: float) -> float:
        if not self.total:
            return 0.0
        rank, seen = min(self.total - 1, int(share * self.total)), 0
        for index, count in enumerate(self.counts):
            seen += count
            if seen > rank:
                return SMALLEST * GROWTH ** index
        return SMALLEST * GROWTH ** (BUCKETS - 1)


@dataclass
class Tally:
    """What the players of one process (or, merged, of all) measured."""

    calm: Histogram = field(default_factory=Histogram)      # outside the failover window
    whole: Histogram = field(default_factory=Histogram)
    longest: float = 0.0
    slots: dict = field(default_factory=dict)               # SLOT seconds of play → Histogram
    acked: dict = field(default_factory=dict)               # game → ply → move
    tables: dict = field(default_factory=dict)              # game → table id
    errors: Counter = field(default_factory=Counter)
    reconnections: int = 0
    games: int = 0                                          # games set up
    cpu: float = 0.0                                        # the processes' CPU seconds
    peak_rss: list = field(default_factory=list)            # KiB, one per process
    failures: list = field(default_factory=list)            # a process's crash, in one line
    phases: dict = field(default_factory=dict)              # PHASES' name → Histogram

    @property
    def moves(self) -> int:
        return self.whole.total

    def error(self, what: str) -> None:
        self.errors[what] += 1

    def merge(self, other: "Tally") -> None:
        self.calm.merge(other.calm)
        self.whole.merge(other.whole)
        self.longest = max(self.longest, other.longest)
        for slot, histogram in other.slots.items():
            self.slots.setdefault(slot, Histogram()).merge(histogram)
        self.acked.update(other.acked)
        self.tables.update(other.tables)
        self.errors.update(other.errors)
        self.reconnections += other.reconnections
        self.games += other.games
        self.cpu += other.cpu
        self.peak_rss += other.peak_rss
        self.failures += other.failures
        for phase, histogram in other.phases.items():
            self.phases.setdefault(phase, Histogram()).merge(histogram)

    def phase(self, name: str, seconds: float) -> None:
        self.phases.setdefault(name, Histogram()).add(max(0.0, seconds))


@dataclass(frozen=True)
class Plan:
    """One client process's share: its games and the run's shape."""

    games: range
    urls: list
    think: float
    seconds: float
    batch: int                      # games set up at once in this process
    kill_at: float | None           # seconds into play (None: no kill)


class Resync(Exception):
    """The player's view of its game is wrong: resume to read it again."""


class Player:
    def __init__(self, tally: Tally, game: int, color: str, line: list[str], urls: list[str],
                 think: float) -> None:
        self.tally, self.game, self.color, self.line = tally, game, color, line
        self.urls, self.think = urls, think
        self.end = 0.0
        self.calm = lambda sent: True            # whether a move sent then counts as calm
        self.start = 0.0                             # of play (monotonic)
        self.name = f"{color[0].upper()}{game}"
        self.client: Client | None = None
        self.table = self.token = None
        self.moves: list[str] = []
        self.pending_since: float | None = None      # my next move, first sent at
        self.thinking_until: float | None = None     # my next move, wanted at
        self.over = False
        self.closing: set[asyncio.Task] = set()      # replaced connections being closed
        self.killed: float | None = None             # when a node was killed (monotonic)
        self.stamps: float | None = None             # a reconnection's last step, at

    async def connect(self) -> None:
        old = self.client
        self.client = await Client.connect(",".join(self.urls), None,
                                           local_addr=address(self.game), timeout=REPLY_SECONDS)
        self.stamp("handshake")
        try:
            self.client.welcome = await self.client.request(
                {"type": "hello", "version": PROTOCOL_VERSION, "name": self.name}, "welcome",
                timeout=REPLY_SECONDS, direct=True)
        except BaseException:
            await self.client.close()
            raise
        self.client.name = self.name
        self.stamp("welcome")
        # The player reads its messages as they come; the client's list of every one is
        # not kept.
        self.client.received = deque(self.client.received, maxlen=KEPT_MESSAGES)
        if old is not None and not old.closed:
            # A connection replaced while still open (a timeout, a resync) would go on
            # queueing the table's news unread: closed in the background.
            task = asyncio.get_running_loop().create_task(old.close())
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)

    def stamp(self, phase: str) -> None:
        """A step of a reconnection after the kill done: its seconds counted."""
        if self.stamps is not None:
            now = time.monotonic()
            self.tally.phase(phase, now - self.stamps)
            self.stamps = now

    def take(self, message: dict) -> None:
        if message.get("table") != self.table:
            return
        if message["type"] == "table":
            self.moves = list(message["moves"])
            self.over = message["status"] == "finished"
        elif message["type"] == "moved" and message["ply"] == len(self.moves) + 1:
            self.moves.append(message["move"])
        elif message["type"] == "game_over":
            self.over = True

    async def resume(self) -> None:
        # As the app's client does (game/net/client.py): one of the other nodes at
        # random first, the one just left last.
        self.urls = server_addresses(lost_last(",".join(self.urls), self.client.url))
        self.stamps = time.monotonic() if self.killed is not None \
            and time.monotonic() >= self.killed else None
        await self.connect()
        self.tally.reconnections += 1
        await self.client.request({"type": "resume", "table": self.table, "token": self.token},
                                  "seated", timeout=REPLY_SECONDS, direct=True)
        self.stamp("seated")
        self.take(await self.client.expect("table", REPLY_SECONDS, table=self.table))
        self.stamp("table")
        if self.stamps is not None:
            self.tally.phase("back", self.stamps - self.killed)
        self.stamps = None

    async def think_on(self) -> None:
        """Until the thinking is over. A connection lost meanwhile is noticed at once
        (ConnectionLost), as the app's client notices it (game/net/bridge.py reads all
        the time and reconnects in a quarter of a second): the player comes back while
        it thinks, not only when it next sends."""
        closed = asyncio.ensure_future(self.client.ws.wait_closed())
        try:
            done, _ = await asyncio.wait(
                {closed}, timeout=max(0.0, self.thinking_until - time.monotonic()))
        finally:
            closed.cancel()
        if done:
            raise ConnectionLost("the connection was lost while thinking")

    async def play(self) -> None:
        while not self.over and time.monotonic() < self.end:
            try:
                await self.turn()
            except (*BROKEN, Resync) as exc:
                waiting = ("for my move's answer" if self.pending_since else
                           "while thinking" if self.thinking_until else "for the other's move")
                late = ", after the end" if time.monotonic() > self.end else ""
                self.tally.error(f"{type(exc).__name__} ({waiting}{late})")
                if self.killed is not None and time.monotonic() >= self.killed:
                    self.tally.phase("noticed", time.monotonic() - self.killed)
                while time.monotonic() < self.end:
                    try:
                        # A resume begun before the end ends soon after it, whatever happens.
                        await asyncio.wait_for(self.resume(),
                                               max(1.0, self.end + 5.0 - time.monotonic()))
                        break
                    except (*BROKEN, ServerRefused):
                        await asyncio.sleep(0.3)

    async def turn(self) -> None:
        mine = (len(self.moves) % 2 == 0) == (self.color == "white")
        if not mine:
            # Once the run is over the other side may not move again: waited for only
            # as long as its last thinking and an answer can take.
            last_chance = self.end + 1.5 * self.think + 5.0 - time.monotonic()
            try:
                self.take(await self.client.next(min(REPLY_SECONDS, max(0.1, last_chance))))
            except asyncio.TimeoutError:
                if time.monotonic() <= self.end or last_chance >= REPLY_SECONDS:
                    raise
                self.over = True                 # the run ended with the other's turn
            return
        ply = len(self.moves) + 1
        if ply > len(self.line):
            self.over = True
            return
        if self.pending_since is None:
            if self.thinking_until is None:
                self.thinking_until = time.monotonic() + self.think * random.uniform(0.5, 1.5)
            if self.thinking_until <= time.monotonic():
                # The thinking ended during a reconnection begun while thinking: the
                # move was wanted from then, and the rest of the reconnection counts.
                self.pending_since = self.thinking_until
            else:
                await self.think_on()
                self.pending_since = time.monotonic()
            self.thinking_until = None
        notation = self.line[ply - 1]
        sent = await self.client.send({"type": "move", "table": self.table, "token": self.token,
                                       "move": notation})
        answer_by = time.monotonic() + REPLY_SECONDS
        while len(self.moves) < ply:
            # Other news may keep coming; the answer must still come in time.
            message = await self.client.next(max(0.0, answer_by - time.monotonic()))
            if message.get("type") == "error" and message.get("re") == sent:
                self.tally.error(message["code"])
                if message["code"] in RETRYABLE:
                    await asyncio.sleep(0.3)
                    return
                raise Resync(message["code"])
            self.take(message)
        if self.moves[ply - 1] == notation:
            wait = time.monotonic() - self.pending_since
            self.tally.whole.add(wait)
            if self.calm(self.pending_since):
                self.tally.calm.add(wait)
            slot = int((self.pending_since - self.start) // SLOT)
            self.tally.slots.setdefault(slot, Histogram()).add(wait)
            self.tally.longest = max(self.tally.longest, wait)
            self.tally.acked.setdefault(self.game, {})[ply] = notation
        self.pending_since = None


async def set_up(game: int, plan: Plan, line, tally: Tally) -> tuple[Player, Player]:
    """Game ``game``'s two guests, White on node ``game % nodes`` and Black on the next,
    each given every node's address (its own first), seated and started."""
    urls, nodes = plan.urls, len(plan.urls)

    def order(first: int) -> list[str]:
        return urls[first:] + urls[:first]
    white = Player(tally, game, "white", line, order(game % nodes), plan.think)
    black = Player(tally, game, "black", line, order((game + 1) % nodes), plan.think)
    await white.connect()
    await black.connect()
    white.table = black.table = (await white.client.create_table())["table"]
    white.token = await white.client.sit(white.table, "white")
    black.token = await black.client.request({"type": "sit", "table": black.table,
                                              "color": "black"}, "seated",
                                             timeout=REPLY_SECONDS, direct=True)
    black.token = black.token["token"]
    black.client.tokens[black.table] = ("black", black.token)
    await white.client.start(white.table)
    return white, black


async def play_share(plan: Plan, lines: list, barrier, began) -> Tally:
    """Set up this process's games, wait for the others, play, close."""
    tally, players = Tally(), []
    for start in range(plan.games.start, plan.games.stop, plan.batch):
        pairs = await asyncio.gather(*(
            set_up(g, plan, lines[g], tally)
            for g in range(start, min(plan.games.stop, start + plan.batch))),
            return_exceptions=True)
        for pair in pairs:
            if isinstance(pair, BaseException):
                tally.error(f"set-up {type(pair).__name__}")
            else:
                players += pair
    tally.games = len(players) // 2
    tune_garbage_collector()          # the players' objects live to the end: no full scans
    # Waited on off the loop: the clients answer the nodes' pings meanwhile.
    await asyncio.get_running_loop().run_in_executor(None, barrier.wait)
    start = began.value
    killed = None if plan.kill_at is None else start + plan.kill_at

    def calm(sent: float) -> bool:
        return killed is None or not killed - 1 <= sent <= killed + FAILOVER_WINDOW
    for p in players:
        p.start, p.end, p.calm = start, start + plan.seconds, calm
        p.killed = killed
    await asyncio.gather(*(p.play() for p in players))
    # All at once: one at a time, a busy node's closing handshakes add up to minutes.
    closing = [p.client.close() for p in players if p.client is not None]
    await asyncio.gather(*closing, *(t for p in players for t in p.closing),
                         return_exceptions=True)
    tally.tables = {p.game: p.table for p in players}
    return tally


def _client_process(plan: Plan, lines: list, barrier, began, results) -> None:
    tally = Tally()
    try:
        tally = run_event_loop(play_share(plan, lines, barrier, began))
    except BaseException as exc:          # told to the coordinator, which reports it
        tally.failures.append(f"client process {os.getpid()}: {exc!r}")
        barrier.abort()
    tally.cpu = time.process_time()
    tally.peak_rss = [server_memory(os.getpid())[1]]
    results.put(tally)


def _stamp(began) -> None:
    began.value = time.monotonic()


def load(urls: list[str], lines: list[list[str]], seconds: float, think: float,
         kill=None, kill_at: float | None = None, batch: int = 25,
         processes: int = 1, playing=None
         ) -> tuple[Tally, float | None, float]:
    """A game per line on the servers at ``urls`` for ``seconds``, played by
    ``processes`` client processes; ``kill()`` at ``kill_at`` seconds into play.
    ``batch`` games are set up at once (shared among the processes); a game whose
    set-up fails is left out (counted); ``playing(True)`` is called as play begins,
    ``playing(False)`` as it ends (before the clients close). Returns the merged tally, when ``kill()`` ran
    (monotonic) and the set-up's seconds."""
    games = len(lines)
    processes = max(1, min(processes, games))
    context = multiprocessing.get_context("fork")   # the lines are inherited, not sent
    began, results = context.Value("d", 0.0), context.Queue()
    # The last to arrive stamps the start of play before anyone goes on.
    barrier = context.Barrier(processes + 1, action=functools.partial(_stamp, began))
    shares = [range(games * i // processes, games * (i + 1) // processes)
              for i in range(processes)]
    each = max(1, batch // processes)
    workers = [context.Process(target=_client_process, daemon=True, args=(
        Plan(share, urls, think, seconds, each, kill_at if kill else None),
        lines, barrier, began, results)) for share in shares]
    setting_up = time.monotonic()
    for worker in workers:
        worker.start()
    tally, killed = Tally(), None
    try:
        try:
            # Generous: a set-up of thousands of games on a loaded machine takes minutes.
            barrier.wait(timeout=120 + games)
            set_up_seconds = began.value - setting_up
        except threading.BrokenBarrierError:
            set_up_seconds = time.monotonic() - setting_up
        else:
            print(f"  set up in {set_up_seconds:.0f} s; playing {seconds:g} s", flush=True)
            if playing is not None:
                playing(True)
            if kill is not None:
                time.sleep(max(0.0, began.value + kill_at - time.monotonic()))
                kill()
                killed = time.monotonic()
            if playing is not None:
                time.sleep(max(0.0, began.value + seconds - time.monotonic()))
                playing(False)
        for _ in workers:
            try:
                tally.merge(results.get(timeout=seconds + 120 + REPLY_SECONDS))
            except queue.Empty:
                tally.failures.append("a client process sent nothing back in time")
                break
    finally:
        for worker in workers:
            worker.join(5)
            if worker.is_alive():
                worker.kill()
    return tally, killed, set_up_seconds
