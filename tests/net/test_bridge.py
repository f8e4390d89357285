"""The thread adapter: a frame loop trades plain dicts with a client on its own thread."""
import time
from collections import Counter

from game.net.bridge import NetBridge
from game.server.host import ServerThread

from .helpers import OPENING

WAIT = 5.0


def wait_for(link, predicate, seconds=WAIT):
    """Take messages one by one until one satisfies ``predicate``; return it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = link.get(timeout=max(0.0, deadline - time.monotonic()))
        if message is not None and predicate(message):
            return message
    raise AssertionError("no such message in time")


def of(kind, **fields):
    return lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())


def test_two_bridges_play_and_one_survives_a_server_restart(tmp_path):
    db = str(tmp_path / "host.sqlite3")
    host = ServerThread(db)
    port = host.start()
    alice, bob = NetBridge(host.url, "Alice", retry_delays=(0.1,)), NetBridge(host.url, "Bob")
    try:
        alice.start()
        bob.start()
        wait_for(alice, of("link", state="online"))
        wait_for(alice, of("welcome", name="Alice"))
        wait_for(bob, of("welcome", name="Bob"))
        time.sleep(0.05)
        assert {m["type"] for m in alice.poll()} == {"lobby"}     # poll never waits
        first = alice.send({"type": "lobby"})          # numbered at once, from the bridge's count
        assert wait_for(alice, of("lobby"))["re"] == first
        alice.send({"type": "create_table", "id": 7})
        table = wait_for(alice, of("table_created", re=7))["table"]
        alice.send({"type": "sit", "table": table, "color": "white"})
        bob.send({"type": "sit", "table": table, "color": "black"})
        token = wait_for(alice, of("seated", table=table))["token"]
        bob_token = wait_for(bob, of("seated", table=table))["token"]
        wait_for(alice, lambda m: m.get("type") == "table" and m["seats"]["black"] is not None)
        alice.send({"type": "start", "table": table, "token": token})
        wait_for(bob, of("table", status="playing"))
        alice.send({"type": "move", "table": table, "token": token, "move": OPENING[0]})
        assert wait_for(bob, of("moved", ply=1))["move"] == OPENING[0]

        # The server goes away: the bridge says so in one message and refuses sends.
        host.stop()
        wait_for(alice, of("link", state="offline"))
        alice.send({"type": "lobby", "id": 9})
        assert wait_for(alice, of("error", code="offline"))["re"] == 9
        # Back on the same port and database: the bridge reconnects and resumes its seat.
        host = ServerThread(db, port=port)
        host.start()
        wait_for(alice, of("link", state="online"))
        resumed = wait_for(alice, of("table", table=table))
        assert resumed["moves"] == OPENING[:1]
        assert resumed["seats"]["white"]["present"] is True
        # The new connection's client numbers from the same count: no id given twice.
        later = alice.send({"type": "lobby"})
        assert later > first + 1
        assert wait_for(alice, of("lobby", re=later))["re"] == later
        wait_for(bob, of("link", state="online"))
        bob_state = wait_for(bob, of("table", table=table))
        assert bob_state["moves"] == OPENING[:1]
        bob.send({"type": "move", "table": table, "token": bob_token, "move": OPENING[1]})
        assert wait_for(alice, of("moved", ply=2))["by"] == "black"
    finally:
        alice.close()
        bob.close()
        host.stop()
    assert not alice.online


def test_a_bridge_to_nowhere_reports_offline_and_closes_promptly():
    link = NetBridge("ws://127.0.0.1:9", "Nobody", retry_delays=(0.05,))
    link.start()
    try:
        message = wait_for(link, of("link", state="offline"))
        assert "cannot reach" in message["detail"]
    finally:
        started = time.monotonic()
        link.close()
        assert time.monotonic() - started < 2.0
    link.send({"type": "lobby"})                   # after close: refused locally, no hang
    assert link.poll()[-1]["code"] == "offline"


def test_a_lost_node_s_clients_come_back_spread_over_the_other_nodes():
    """A node dies: its clients' next tries begin with each of the others about as
    often (they all began with the one after it, which took a whole node's players at
    once while the others idled); the lost one is tried last."""
    from game.net.client import lost_last
    servers = "ws://a:1,ws://b:2,ws://c:3,ws://d:4"
    orders = [lost_last(servers, "ws://b:2").split(",") for _ in range(600)]
    assert all(order[-1] == "ws://b:2" and sorted(order) == sorted(servers.split(","))
               for order in orders)
    firsts = Counter(order[0] for order in orders)
    assert set(firsts) == {"ws://a:1", "ws://c:3", "ws://d:4"}
    assert min(firsts.values()) >= 120, firsts          # 200 each expected; was 600, 0, 0


def test_several_addresses_a_dead_one_is_passed_over_and_a_lost_one_rotated_away(tmp_path):
    from game.net.client import lost_last, server_addresses
    assert server_addresses(" ws://a:1 ,ws://b:2,") == ["ws://a:1", "ws://b:2"]
    servers = "ws://a:1,ws://b:2,ws://c:3"
    assert lost_last(servers, "ws://b:2", pick=lambda n: 0) == "ws://c:3,ws://a:1,ws://b:2"
    assert lost_last(servers, "ws://b:2", pick=lambda n: 1) == "ws://a:1,ws://c:3,ws://b:2"
    assert lost_last("ws://a:1", "ws://a:1") == "ws://a:1"
    first = ServerThread(str(tmp_path / "a.sqlite3"))
    second = ServerThread(str(tmp_path / "b.sqlite3"))
    first.start()
    second.start()
    # Nothing listens on port 9: the bridge goes on to the first server, then — once
    # that one is lost — starts with one of the others (and the lost one comes last).
    link = NetBridge(f"ws://127.0.0.1:9,{first.url},{second.url}", "Alice", retry_delays=(0.1,))
    try:
        link.start()
        wait_for(link, of("welcome", name="Alice"))
        link.send({"type": "create_table", "id": 1})
        wait_for(link, of("table_created", re=1))
        first.stop()
        wait_for(link, of("link", state="offline"))
        wait_for(link, of("welcome", name="Alice"))
        asked = link.send({"type": "lobby"})
        assert wait_for(link, of("lobby", re=asked))["total"] == 0    # the second server's
        order = link.url.split(",")                       # the lost one last
        assert order[-1] == first.url and sorted(order[:2]) == sorted([second.url,
                                                                       "ws://127.0.0.1:9"])
    finally:
        link.close()
        first.stop()
        second.stop()
