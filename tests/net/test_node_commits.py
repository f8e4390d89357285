"""Group commit (game/server/node_commits.py): the moves a node receives together are
stored in one call (one transaction on PostgreSQL), counted, not timed; and still
nobody hears of a move before it is stored, nor of one whose write was refused."""
from __future__ import annotations

import asyncio
from dataclasses import replace

from game.net.client import Client, ServerRefused
from game.server.bus import InProcessBus, InProcessHub
from game.server.leases import MoveConflict, SQLiteLeasedStorage, StorageUnavailable
from game.server.node import NodeServer

from .helpers import FAST_HASH, OPENING
from .stores import counting, new_table, stores  # noqa: F401 - fixture

GAMES = 12


def open_counting(stores_):
    """The store, counting the move writes a node asks for: one ``add_move`` or one
    ``add_moves`` of many (each one round trip, one transaction on PostgreSQL)."""
    if stores_.kind == "sqlite":
        return counting(SQLiteLeasedStorage, "add_move", "add_moves")(stores_.address)
    from game.server.pg_storage import PostgresStorage
    return counting(PostgresStorage, "add_move", "add_moves")(stores_.address)


async def started_games(url: str, count: int) -> list[tuple[Client, Client, str]]:
    """``count`` started games of two guests each on the node at ``url``."""
    games = []
    for i in range(count):
        white = await Client.connect(url, f"W{i}")
        black = await Client.connect(url, f"B{i}")
        table = (await white.create_table())["table"]
        await white.sit(table, "white")
        await black.sit(table, "black")
        await white.start(table)
        games.append((white, black, table))
    return games


async def first_moves_at_once(games) -> tuple[list, list]:
    """Every White sends the first move at once: each one's ply acknowledged (or the
    refusal's code), and the plies each Black heard of."""
    sent = await asyncio.gather(*(white.send(white._seat_message("move", table,
                                                                 move=OPENING[0]))
                                  for white, _, table in games))
    answers = []
    for (white, _, table), re_id in zip(games, sent):
        try:
            answers.append((await white.expect("moved", 10, re_id=re_id, table=table))["ply"])
        except ServerRefused as refused:
            answers.append(refused.code)
    await asyncio.sleep(0.3)                             # every Black has read its news
    heard = [[m["ply"] for m in black.drain()
              if m.get("type") == "moved" and m.get("table") == table]
             for _, black, table in games]
    return answers, heard


def test_moves_received_together_are_stored_together_and_a_refused_one_is_told_nobody(stores):
    """Twelve Whites move at once on one node: their moves are stored in a call or
    two (one each before), every mover hears its ``moved`` and the store has the
    move. T1's lease was taken by another node meanwhile: its write is refused with
    the others' (nothing stored for it), its mover is told ``table_moved`` and its
    Black hears of no move."""
    async def main():
        node = NodeServer(open_counting(stores), InProcessBus("n1", InProcessHub()), "n1",
                          ttl=60.0, every=30.0,
                          limits=replace(FAST_HASH, connections_per_address=2 * GAMES))
        url = f"ws://127.0.0.1:{await node.start('127.0.0.1', 0)}"
        try:
            games = await started_games(url, GAMES)
            with stores.apart() as other:                # n9 takes T1 from under n1
                other.release_lease(1, "n1", node.keeper.held[1])
                other.acquire_lease(1, "n9", 60.0)
            node.storage.calls = 0
            answers, blacks_heard = await first_moves_at_once(games)
            return node.storage.calls, answers, blacks_heard
        finally:
            await node.close()
    calls, answers, heard = asyncio.run(main())
    assert answers[0] == "table_moved"
    assert answers[1:] == [1] * (GAMES - 1)
    assert heard == [[]] + [[1]] * (GAMES - 1)
    assert calls <= 3, calls                              # one add_move each: 12
    with stores.apart() as store:
        moves = [store.load_table(n).moves for n in range(1, GAMES + 1)]
    assert moves == [[]] + [[OPENING[0]]] * (GAMES - 1)


def test_the_store_takes_many_fenced_moves_in_one_call_and_refuses_a_stale_fence(stores):
    """add_moves: each move fenced on its own; one already stored refused alone."""
    store = stores.open()
    records = [new_table(store, status="playing") for _ in range(3)]
    fences = {r.id: store.acquire_lease(r.id, "n1", 60.0) for r in records}
    store.release_lease(records[1].id, "n1", fences[records[1].id])
    store.acquire_lease(records[1].id, "n2", 60.0)             # n1's fence is stale there
    for record in records:
        record.moves.append(OPENING[0])
    refused = store.add_moves([(r, fences[r.id]) for r in records])
    assert set(refused) == {records[1].id}
    assert [store.load_table(r.id).moves for r in records] == [[OPENING[0]], [], [OPENING[0]]]
    records[2].moves.append(OPENING[1])
    again = store.add_moves([(records[0], fences[records[0].id]),      # that ply is stored
                             (records[2], fences[records[2].id])])
    assert list(again) == [records[0].id] and isinstance(again[records[0].id], MoveConflict)
    assert store.load_table(records[0].id).moves == [OPENING[0]]
    assert store.load_table(records[2].id).moves == OPENING[:2]


class LostOnce(SQLiteLeasedStorage):
    """The embedded store whose next group commit finds the database gone (as
    PostgreSQL's store says a lost connection: nothing of it was written)."""

    lose_next = False

    def add_moves(self, writes):
        if self.lose_next:
            self.lose_next = False
            raise StorageUnavailable("the database went away: connection lost")
        return super().add_moves(writes)


def test_moves_whose_group_commit_found_no_database_are_refused_and_told_nobody(tmp_path):
    """Three Whites move at once and their commit finds the database gone: each move
    of it is refused (``storage_unavailable``), its Black hears nothing and nothing
    is stored (a move committed in a later call of its own is played as usual); sent
    again, the refused moves are played."""
    async def main():
        store = LostOnce(str(tmp_path / "n.sqlite3"))
        node = NodeServer(store, InProcessBus("n1", InProcessHub()), "n1", ttl=60.0,
                          every=30.0, limits=FAST_HASH)
        url = f"ws://127.0.0.1:{await node.start('127.0.0.1', 0)}"
        try:
            games = await started_games(url, 3)
            store.lose_next = True
            answers, heard = await first_moves_at_once(games)
            stored = [len(store.load_table(n).moves) for n in range(1, 4)]
            for (white, _, table), answer in zip(games, answers):
                if answer != 1:
                    assert (await white.move(table, OPENING[0]))["ply"] == 1
            return answers, heard, stored
        finally:
            await node.close()
    answers, heard, stored = asyncio.run(main())
    assert answers[0] == "storage_unavailable"          # the first call is the lost one
    for answer, plies, count in zip(answers, heard, stored):
        assert (answer, plies, count) in (("storage_unavailable", [], 0), (1, [1], 1))
