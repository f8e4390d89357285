"""One contract for the bus between server nodes: in one process and on a real
Redis. Then Redis's own trials: restarted mid-game, and a sender cut off alone —
where the subscribers learn of the gap and the store, not the bus, has the moves."""
from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from game.camelot.board import START_POSITION
from game.server import bus as bus_module
from game.server.bus import Gap, InProcessBus, InProcessHub, Message
from game.server.leases import SQLiteLeasedStorage
from game.server.storage import TableRecord

SECONDS = 30          # a bound on each test's whole scenario


def run(scenario):
    return asyncio.run(asyncio.wait_for(scenario, SECONDS))


@pytest.fixture(params=["inprocess", "redis"])
def make_bus(request):
    """``make_bus(node)``: a node's bus; every node of a test shares one backend."""
    if request.param == "inprocess":
        hub = InProcessHub()
        return lambda node: InProcessBus(node, hub)
    url = request.getfixturevalue("redis_url")
    from game.server.redis_bus import RedisBus
    return lambda node, address=url: RedisBus(address, node)


@contextlib.asynccontextmanager
async def nodes(make_bus, *names):
    buses = [make_bus(name) for name in names]
    try:
        yield buses
    finally:
        for bus in buses:
            await bus.close()


async def quiet(subscription, seconds: float = 0.3) -> bool:
    """True when nothing arrives for a while."""
    try:
        await subscription.get(seconds)
    except asyncio.TimeoutError:
        return True
    return False


def test_a_message_reaches_every_subscriber_of_its_channel_on_every_node(make_bus):
    async def scenario():
        async with nodes(make_bus, "n1", "n2", "n3") as (n1, n2, n3):
            here, there = await n1.subscribe("table:1"), await n2.subscribe("table:1", "lobby")
            elsewhere = await n3.subscribe("table:2")
            before = time.time()
            n1.publish("table:1", {"type": "moved", "ply": 1, "captures": ("A1", "B2")})
            await n1.flush()
            for subscription in (here, there):
                message = await subscription.get(5)
                assert (message.channel, message.sender) == ("table:1", "n1")
                # JSON on every bus: a tuple arrives as a list, in one process too
                assert message.body == {"type": "moved", "ply": 1, "captures": ["A1", "B2"]}
                assert before - 1 <= message.sent_at <= time.time() + 1
            assert await quiet(elsewhere) and await quiet(there)
    run(scenario())


def test_a_node_s_messages_arrive_in_the_order_it_published_them(make_bus):
    async def scenario():
        async with nodes(make_bus, "n1", "n2") as (n1, n2):
            subscription = await n2.subscribe("table:7")
            for ply in range(1, 301):
                n1.publish("table:7", {"ply": ply})
            await n1.flush()
            got = [(await subscription.get(5)).body["ply"] for _ in range(300)]
            assert got == list(range(1, 301))
    run(scenario())


def test_a_burst_larger_than_one_read_arrives_whole_in_order_with_no_gap(make_bus):
    """A failover's burst of table states (published back to back, run into one
    PUBLISH on Redis) is far more than one read of the socket: it was once taken
    for silence, and every reconnection was a gap."""
    async def scenario():
        async with nodes(make_bus, "n1", "n2") as (n1, n2):
            heard = await n2.subscribe("node:n2")
            states = [{"type": "state", "table": k, "board": "x" * 3000} for k in range(200)]
            for body in states:                          # some 600 kB in all
                n1.publish("node:n2", body)
            await n1.flush()
            got = []
            while len(got) < len(states):
                message = await heard.get(10)
                assert not isinstance(message, Gap), message
                got.append(message.body["table"])
            assert got == list(range(200))
            assert await quiet(heard)
    run(scenario())


def test_channels_can_be_added_and_removed(make_bus):
    async def scenario():
        async with nodes(make_bus, "n1", "n2") as (n1, n2):
            subscription = await n2.subscribe()
            await subscription.add("table:3")
            n1.publish("table:3", {"n": 1})
            await n1.flush()
            assert (await subscription.get(5)).body == {"n": 1}
            await subscription.remove("table:3")
            n1.publish("table:3", {"n": 2})
            await n1.flush()
            assert await quiet(subscription)
            await subscription.close()
            with pytest.raises(StopAsyncIteration):
                await subscription.get(5)
    run(scenario())


def test_a_subscriber_that_falls_behind_gets_gaps_instead(make_bus, monkeypatch):
    monkeypatch.setattr(bus_module, "QUEUE_LIMIT", 5)

    async def scenario():
        async with nodes(make_bus, "n1", "n2") as (n1, n2):
            slow = await n2.subscribe("table:1", "table:2")
            for k in range(6):
                n1.publish("table:1", {"k": k})
            await n1.flush()
            deadline = time.monotonic() + 5
            while slow._events.qsize() < 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.02)          # the sixth arrives (Redis: a moment later)
            assert [await slow.get(5), await slow.get(5)] == [
                Gap("table:1", "the subscriber fell behind"),
                Gap("table:2", "the subscriber fell behind")]
    run(scenario())


async def _until(condition, seconds: float = 8.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = await condition()
        if value:
            return value
        await asyncio.sleep(0.05)
    return await condition()


def test_presence_is_per_node_replaced_on_refresh_and_gone_when_not_refreshed(make_bus):
    async def scenario():
        async with nodes(make_bus, "n1", "n2") as (n1, n2):
            await n1.set_presence({"Ann", "Bo"}, ttl=60)
            await n2.set_presence(["Cy"], ttl=0.5)
            assert await n2.presence() == {"n1": {"Ann", "Bo"}, "n2": {"Cy"}}
            await n1.set_presence(["Bo"], ttl=60)               # Ann left
            assert (await n2.presence())["n1"] == {"Bo"}
            # n2 stops refreshing (it died): its players go by themselves
            gone = await _until(lambda: _without(n1, "n2"))
            assert gone == {"n1": {"Bo"}}
            await n1.set_presence([], ttl=60)                    # nobody left on n1
            assert await n1.presence() == {}
    run(scenario())


async def _without(bus, node):
    found = await bus.presence()
    return found if node not in found else None


def test_counters_are_shared_by_the_nodes_and_start_again_after_their_window(make_bus):
    async def scenario():
        async with nodes(make_bus, "n1", "n2") as (n1, n2):
            assert [await n1.incr("signin:ann", 60), await n2.incr("signin:ann", 60),
                    await n1.incr("signin:ann", 60, by=3)] == [1, 2, 5]
            assert await n2.incr("connections:1.2.3.4", 60, by=-1) == -1
            assert await n1.incr("window", 0.4) == 1
            assert await n2.incr("window", 0.4) == 2         # the window is not extended
            restarted = await _until(lambda: _fresh(n1, "window"))
            assert restarted
    run(scenario())


def test_a_claim_is_held_by_one_owner_renewed_by_it_and_let_go(make_bus):
    async def scenario():
        async with nodes(make_bus, "n1", "n2") as (n1, n2):
            both = await asyncio.gather(n1.claim({"name:ann": "n1", "x": "n1"}, 60),
                                        n2.claim({"name:ann": "n2"}, 60))
            winner = both[0]["name:ann"]
            assert winner in ("n1", "n2") and both[1]["name:ann"] == winner   # one, told both
            assert both[0]["x"] == "n1" and await n2.holder("x") == "n1"
            assert await n2.claim({"x": "n2"}, 60) == {"x": "n1"}
            await n2.release("x", "n2")                       # not its to let go
            assert await n1.holder("x") == "n1"
            await n1.release("x", "n1")
            assert await n2.holder("x") is None
            assert await n2.claim({"x": "n2"}, 60) == {"x": "n2"}
            assert await n1.claim({"short": "n1"}, 0.4) == {"short": "n1"}
            assert await n1.claim({"short": "n1"}, 0.4) == {"short": "n1"}   # renewed
            assert await _until(lambda: _free(n2, "short"))   # not renewed: let go
            assert await n2.claim({"short": "n2"}, 60) == {"short": "n2"}
    run(scenario())


def test_the_holders_of_many_keys_are_one_answer(make_bus):
    async def scenario():
        async with nodes(make_bus, "n1", "n2") as (n1, n2):
            await n1.claim({"a": "n1", "b": "n1"}, 60)
            await n2.claim({"c": "n2"}, 60)
            assert await n2.holders(["c", "a", "none", "b"]) == {
                "c": "n2", "a": "n1", "none": None, "b": "n1"}
    run(scenario())


async def _free(bus, key):
    return await bus.holder(key) is None


async def _fresh(bus, key):
    value = await bus.incr(key, 0.4, by=0)
    return value == 0


# --- Redis's own trials: the bus breaks, the store keeps the game -------------------


class Watcher:
    """A node's view of a table, as the server keeps it: a message with the next ply
    is applied; a gap, or a message that skips a ply, means "read the store"."""

    def __init__(self, store, table: int) -> None:
        self.store, self.table = store, table
        self.moves: list[str] = []
        self.gaps: list[Gap] = []

    def take(self, event) -> None:
        if isinstance(event, Message) and event.body["ply"] == len(self.moves) + 1:
            self.moves.append(event.body["move"])
        elif isinstance(event, Message) and event.body["ply"] <= len(self.moves):
            pass                                    # already read from the store
        else:
            if isinstance(event, Gap):
                self.gaps.append(event)
            self.moves = self.store.load_table(self.table).moves


def _referee(store):
    record = TableRecord(id=0, private=False, invite=None, start_position=START_POSITION)
    store.create_table(record)
    fence = store.acquire_lease(record.id, "n1", 60)

    def move(bus, notation):
        record.moves.append(notation)
        store.add_move(record, fence=fence)               # the database first ...
        bus.publish(f"table:{record.id}", {"ply": len(record.moves), "move": notation})
    return record, move                             # ... then the bus says "look"


async def _watch_until(watcher, subscription, moves: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while len(watcher.moves) < moves and time.monotonic() < deadline:
        try:
            watcher.take(await subscription.get(0.2))
        except asyncio.TimeoutError:
            pass


def test_redis_restarted_mid_game_subscribers_resubscribe_and_no_move_is_lost(
        redis_server, redis_url):
    from game.server.redis_bus import RedisBus
    store = SQLiteLeasedStorage(":memory:")
    record, move = _referee(store)

    async def scenario():
        n1, n2 = RedisBus(redis_url, "n1"), RedisBus(redis_url, "n2")
        watcher = Watcher(store, record.id)
        subscription = await n2.subscribe(f"table:{record.id}")
        for notation in ("D6-C5", "D11-C12"):
            move(n1, notation)
        await _watch_until(watcher, subscription, 2)
        assert watcher.moves == ["D6-C5", "D11-C12"] and watcher.gaps == []

        redis_server.kill()
        move(n1, "I6-J5")                          # stored; the bus cannot carry it
        await asyncio.sleep(0.5)
        redis_server.start()
        await _watch_until(watcher, subscription, 3)
        assert watcher.gaps and watcher.moves == store.load_table(record.id).moves

        move(n1, "I11-J12")                        # after the restart: carried again
        await _watch_until(watcher, subscription, 4)
        assert watcher.moves == ["D6-C5", "D11-C12", "I6-J5", "I11-J12"]
        await n1.close()
        await n2.close()
    run(scenario())


def test_a_channel_added_while_redis_is_down_is_subscribed_when_it_is_back(
        redis_server, redis_url):
    from game.server.redis_bus import RedisBus

    async def scenario():
        n1, n2 = RedisBus(redis_url, "n1"), RedisBus(redis_url, "n2")
        subscription = await n2.subscribe("table:1")
        redis_server.kill()
        await asyncio.wait_for(subscription.add("table:9"), 5)     # returns, does not hang
        redis_server.start()
        events = [await subscription.get(10) for _ in range(2)]
        assert all(isinstance(e, Gap) for e in events)              # both: "read the store"
        assert {e.channel for e in events} == {"table:1", "table:9"}
        n1.publish("table:9", {"ply": 1})
        await n1.flush()
        assert (await subscription.get(10)).body == {"ply": 1}
        await n1.close()
        await n2.close()
    run(scenario())


class CutOff:
    """One node's Redis user, which the test can switch off (its connections killed,
    new ones refused) and on again, while the other nodes stay connected."""

    def __init__(self, redis_server, redis_url, user: str) -> None:
        import redis
        self.user, self.admin = user, redis.Redis.from_url(redis_url)
        self.admin.execute_command("ACL", "SETUSER", user, "on", ">pw", "+@all", "~*", "&*")
        self.url = f"redis://{user}:pw@127.0.0.1:{redis_server.port}/0"

    def cut(self) -> None:
        self.admin.execute_command("ACL", "SETUSER", self.user, "off")
        self.admin.execute_command("CLIENT", "KILL", "USER", self.user)

    def restore(self) -> None:
        self.admin.execute_command("ACL", "SETUSER", self.user, "on")


@pytest.mark.parametrize("alone", ["sender", "watcher"])
def test_a_node_cut_off_alone_learns_or_tells_what_was_missed(redis_server, redis_url, alone):
    """Only one node loses Redis. The sender cut off: the watcher's connection never
    breaks, so only the sender's gap notice, once it is back, can tell it. The
    watcher cut off: the sender publishes to nobody without knowing it, so only the
    watcher's own mended connection can tell it."""
    from game.server.redis_bus import RedisBus
    node = CutOff(redis_server, redis_url, alone)
    store = SQLiteLeasedStorage(":memory:")
    record, move = _referee(store)
    expected = {"sender": "a sender could not reach the bus (node n1)",
                "watcher": "the bus connection was mended"}[alone]

    async def scenario():
        n1 = RedisBus(node.url if alone == "sender" else redis_url, "n1")
        n2 = RedisBus(node.url if alone == "watcher" else redis_url, "n2")
        watcher = Watcher(store, record.id)
        subscription = await n2.subscribe(f"table:{record.id}")
        move(n1, "D6-C5")
        await _watch_until(watcher, subscription, 1)

        node.cut()
        move(n1, "D11-C12")
        await n1.flush()
        await asyncio.sleep(0.5)
        assert watcher.moves == ["D6-C5"] and await quiet(subscription)   # nothing came
        node.restore()
        await _watch_until(watcher, subscription, 2)
        assert watcher.moves == ["D6-C5", "D11-C12"]
        assert watcher.gaps == [Gap(f"table:{record.id}", expected)]
        await n1.close()
        await n2.close()
    run(scenario())
    node.admin.close()


def test_presence_and_counters_refuse_in_one_line_while_redis_is_down(redis_server, redis_url):
    from game.server.bus import BusUnavailable
    from game.server.redis_bus import RedisBus

    async def scenario():
        bus = RedisBus(redis_url, "n1", timeout=1)
        redis_server.kill()
        for call in (bus.incr("k", 60), bus.set_presence(["Ann"], 60), bus.presence(),
                     bus.claim({"k": "n1"}, 60), bus.holder("k"), bus.release("k", "n1")):
            with pytest.raises(BusUnavailable, match=r"^the bus is unavailable \(\w+\): [^\n]+$"):
                await call
        redis_server.start()
        assert await bus.incr("k", 60) == 1
        await bus.close()
    run(scenario())

