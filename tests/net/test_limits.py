"""Limits that hold across reconnects: counted per account and per address, never
per connection. Floods on loopback (127.0.0.0/8 is a whole range of addresses, so
a flood can come from 127.0.0.2 while a real player sits at 127.0.0.1)."""
import asyncio

import pytest

from game.net.client import Client, ConnectionLost, ServerRefused
from game.server.limits import AttemptLimiter, Limits

from .helpers import PASSWORD, run_scenario

FLOOD = ("127.0.0.2", 0)


async def try_tables(url: str, name: str, count: int, **options) -> int:
    """Connect, create up to ``count`` tables, leave; how many were made."""
    made = 0
    client = await Client.connect(url, name, **options)
    try:
        for _ in range(count):
            await client.create_table()
            made += 1
    except ServerRefused as refusal:
        assert refusal.code == "too_many_tables"
    await client.close()
    return made


def waiting(server) -> int:
    return sum(t.record.status == "waiting" for t in server.tables.values())


def test_many_short_connections_make_no_more_tables_than_one_guest_may():
    async def scenario(server, url):
        made = 0
        for n in range(60):                  # reconnecting does not reset the count
            made += await try_tables(url, f"Junk{n}", 3, local_addr=FLOOD)
        assert made == waiting(server) == Limits().waiting_per_player
    run_scenario(scenario, seconds=60)


def test_many_accounts_from_one_address_are_limited_twice():
    limits = Limits(scrypt_n=1 << 10, registrations_per_address=3, waiting_per_address=7)

    async def scenario(server, url):
        accounts = []
        for n in range(3):
            accounts.append(await Client.account(url, f"Sock{n}", PASSWORD, register=True,
                                                 local_addr=FLOOD))
        with pytest.raises(ServerRefused) as refusal:
            await Client.account(url, "Sock3", PASSWORD, register=True, local_addr=FLOOD)
        assert refusal.value.code == "rate_limited"
        made = 0
        for client in accounts:              # 5 each would be 15: the address stops at 7
            try:
                for _ in range(5):
                    await client.create_table()
                    made += 1
            except ServerRefused as refusal:
                assert refusal.code == "too_many_tables"
        assert made == waiting(server) == 7
        # Another address registers and creates as usual.
        real, = [await Client.account(url, "Real", PASSWORD, register=True)]
        await real.create_table()
    run_scenario(scenario, limits=limits)


def test_a_flood_from_another_address_does_not_hide_a_real_players_table():
    limits = Limits(scrypt_n=1 << 10, lobby_page=10, waiting_per_player=50,
                    waiting_per_address=50)

    async def scenario(server, url):
        real = await Client.account(url, "Real", PASSWORD, register=True)
        mine = (await real.create_table())["table"]
        await real.leave(mine)
        flooders = [await Client.connect(url, f"Flood{n}", local_addr=FLOOD) for n in range(3)]
        for client in flooders:              # 50 tables from 127.0.0.2, all newer than Real's
            for _ in range(17):
                try:
                    await client.create_table()
                except ServerRefused:
                    break
        lobby = await real.lobby()
        assert [row["table"] for row in lobby["mine"]] == [mine]       # always shown
        assert lobby["total"] == 51 and len(lobby["tables"]) == 10 and lobby["next"] == 10
        tables = [row["table"] for row in lobby["tables"]]
        assert tables == sorted(tables, key=lambda t: -int(t[1:]))    # newest first
        # Paging reaches every table: nothing is cut silently.
        seen, offset = [], 0
        while offset is not None:
            page = await real.request({"type": "lobby", "offset": offset}, "lobby", direct=True)
            seen += [row["table"] for row in page["tables"]]
            offset = page["next"]
        assert len(seen) == 51 and mine == seen[-1]
        # A newer table of a real player is on everyone's first page.
        other = await Client.connect(url, "Other")
        newest = (await real.create_table())["table"]
        assert (await other.lobby())["tables"][0]["table"] == newest
    run_scenario(scenario, limits=limits, seconds=40)


def test_connections_are_limited_per_address():
    limits = Limits(scrypt_n=1 << 10, connections_per_address=4)

    async def scenario(server, url):
        flood = [await Client.connect(url, f"C{n}", local_addr=FLOOD) for n in range(4)]
        extra = await Client.connect(url, None, local_addr=FLOOD)
        with pytest.raises(ConnectionLost):
            await extra.next()
        assert extra.ws.close_code == 1008
        real = await Client.connect(url, "Real")          # 127.0.0.1 is another address
        assert real.welcome["name"] == "Real"
        await flood[0].close()
        await asyncio.sleep(0.1)
        await Client.connect(url, "C9", local_addr=FLOOD)  # a slot came free
    run_scenario(scenario, limits=limits)


def test_a_waiting_table_whose_creator_left_closes_and_one_still_watched_stays():
    limits = Limits(scrypt_n=1 << 10, waiting_close=0.3)

    async def scenario(server, url):
        gone = await Client.connect(url, "Gone")
        left_behind = (await gone.create_table())["table"]
        await gone.sit(left_behind, "white")
        here = await Client.connect(url, "Here", local_addr=FLOOD)
        kept = (await here.create_table())["table"]
        await gone.close()
        # (From another address: guests are known by their address, and a guest from
        # Gone's address would count as Gone still being here.)
        watcher = await Client.connect(url, "Watcher", local_addr=("127.0.0.3", 0))
        deadline = asyncio.get_running_loop().time() + 5
        while left_behind in server.tables and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert left_behind not in server.tables           # closed: its record stays
        closed = server.storage.load_table(int(left_behind[1:]))
        assert closed.status == "finished" and closed.abandoned
        assert closed.reason == "Closed: its creator left and nobody sat down"
        assert kept in server.tables                       # its creator is online
        tables = [row["table"] for row in (await watcher.lobby())["tables"]]
        assert tables == [kept]
    run_scenario(scenario, limits=limits)


def test_the_attempt_counter_slides_and_forgets_the_oldest_keys():
    limiter = AttemptLimiter(2, 10.0, max_keys=3)
    limiter.note("a", 0.0)
    limiter.note("a", 1.0)
    assert limiter.wait("a", 5.0) == pytest.approx(5.0)   # the first one leaves at 10
    assert limiter.wait("a", 10.5) == 0.0
    for key in "bcd":
        limiter.note(key, 11.0)
    assert limiter.wait("a", 11.0) == 0.0 and len(limiter._events) == 3
