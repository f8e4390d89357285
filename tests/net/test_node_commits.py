"""Group commit (game/server/node_commits.py): the moves a node receives together are
stored in one call (one transaction on PostgreSQL), counted, not timed; and still
nobody hears of a move before it is stored, nor of one whose write was refused."""
from __future__ import annotations

import asyncio
from dataclasses import replace

from game.net.client import Client, ServerRefused
from game.server.bus import InProcessBus, InProcessHub
from game.server.leases import MoveConflict, SQLiteLeasedStorage
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
            games = []
            for i in range(GAMES):
                white = await Client.connect(url, f"W{i}")
                black = await Client.connect(url, f"B{i}")
                table = (await white.create_table())["table"]
                await white.sit(table, "white")
                await black.sit(table, "black")
                await white.start(table)
                games.append((white, black, table))
            with stores.apart() as other:                # n9 takes T1 from under n1
                other.release_lease(1, "n1", node.keeper.held[1])
                other.acquire_lease(1, "n9", 60.0)
            node.storage.calls = 0
            sent = await asyncio.gather(*(
                white.send(white._seat_message("move", table, move=OPENING[0]))
                for white, _, table in games))
            answers = []
            for (white, _, table), re_id in zip(games, sent):
                try:
                    answers.append(await white.expect("moved", 10, re_id=re_id, table=table))
                except ServerRefused as refused:
                    answers.append(refused.code)
            await asyncio.sleep(0.3)                     # every Black has read its news
            blacks_heard = [[m["ply"] for m in black.drain()
                             if m.get("type") == "moved" and m.get("table") == table]
                            for _, black, table in games]
            return node.storage.calls, answers, blacks_heard
        finally:
            await node.close()
    calls, answers, heard = asyncio.run(main())
    assert answers[0] == "table_moved"
    assert [a["ply"] for a in answers[1:]] == [1] * (GAMES - 1)
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
