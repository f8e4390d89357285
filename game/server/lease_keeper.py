"""A node's table leases, kept: renewed, the lost ones noticed, the lapsed ones taken.

One :class:`LeaseKeeper` per node. Every ``every`` seconds it renews all the node's
leases in one call; a table missing from the answer is lost (another node took
it over, or the lease lapsed while the node was stalled) and the node must stop
refereeing it. Then it takes over the open tables whose lease lapsed (their node
died or stopped): for each, the node loads the table from the store and referees
it from there — the same replay as a restart.

The keeper's view may lag the store's: that is safe, because every write carries
the fence and the store refuses a stale one (game/server/leases.py). While the store
cannot be reached the keeper keeps trying; the leases lapse meanwhile, and the
first answer after that reports them lost.

Each node runs one (game/server/node.py); the store calls are the blocking ones
the server makes (a renewal of every lease is one statement).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from .leases import LeasedStorage, StorageUnavailable

TTL = 3.0            # seconds a lease lasts unless renewed
EVERY = 1.0          # seconds between rounds: a dead node's tables are taken within TTL + EVERY


@dataclass(frozen=True)
class LeaseChange:
    """A table this node started or stopped refereeing, and under which fence."""

    table: int
    fence: int
    change: str              # "taken", "lost" or "released"


class LeaseKeeper:
    def __init__(self, store: LeasedStorage, node: str, *, ttl: float = TTL,
                 every: float = EVERY, take_over: bool = True,
                 on_change: Callable[[LeaseChange], None] | None = None,
                 share: Callable[[], tuple[int, int]] | None = None) -> None:
        """``share()``: (this node's place, how many nodes are live) — lapsed tables are
        then shared out: a node takes those whose number falls to its place, and the
        rest only if they are still lapsed a round later (their node may be dead too).
        Without it the first node to look takes them all."""
        if not 0 < every < ttl:
            raise ValueError(f"renew more often than a lease lasts: every {every} s, ttl {ttl} s")
        self.store, self.node, self.ttl, self.every = store, node, ttl, every
        self.take_over = take_over
        self.on_change = on_change
        self.share = share
        self._left: set[int] = set()              # lapsed tables left to others last round
        self.held: dict[int, int] = {}            # table -> fence, as far as this node knows
        self.unavailable: StorageUnavailable | None = None   # the last round's failure

    def _changed(self, table: int, fence: int, change: str) -> LeaseChange:
        event = LeaseChange(table, fence, change)
        if self.on_change is not None:
            self.on_change(event)
        return event

    def claim(self, table: int) -> int | None:
        """Take a table's lease now (a table just created here); its fence, or None."""
        fence = self.store.acquire_lease(table, self.node, self.ttl)
        if fence is not None:
            self.held[table] = fence
            self._changed(table, fence, "taken")
        return fence

    def step(self) -> list[LeaseChange]:
        """One round: renew, notice what was lost, take over what lapsed."""
        changes = []
        try:
            still = self.store.renew_leases(self.node, self.ttl)
            for table, fence in sorted(self.held.items()):
                if still.get(table) != fence:
                    del self.held[table]
                    changes.append(self._changed(table, fence, "lost"))
            # Leases in this node's name that it does not know of: an earlier run of
            # a node of the same name. Taken afresh, so a new fence shuts that one out.
            wanted = set(still) - set(self.held)
            if self.take_over:
                wanted.update(self._to_take(self.store.unleased_tables()))
            if wanted:        # one statement; a table another node was quicker to is left out
                taken = self.store.acquire_leases(sorted(wanted), self.node, self.ttl)
                for table, fence in sorted(taken.items()):
                    self.held[table] = fence
                    changes.append(self._changed(table, fence, "taken"))
            self.unavailable = None
        except StorageUnavailable as error:
            self.unavailable = error                  # try again next round
        return changes

    def _to_take(self, lapsed: list[int]) -> list[int]:
        if self.share is None:
            return lapsed
        place, count = self.share()
        mine = [t for t in lapsed if t % max(1, count) == place or t in self._left]
        self._left = set(lapsed) - set(mine)
        return mine

    async def run(self) -> None:
        """Rounds every ``every`` seconds until cancelled."""
        while True:
            self.step()
            await asyncio.sleep(self.every)

    def release_all(self) -> list[LeaseChange]:
        """A clean stop: every lease given up, for other nodes to take at once."""
        try:
            self.store.release_leases(self.node, dict(self.held))
        except StorageUnavailable:
            pass                                      # they lapse by themselves
        changes = [self._changed(table, fence, "released")
                   for table, fence in sorted(self.held.items())]
        self.held.clear()
        return changes
