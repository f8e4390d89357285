"""Whole games between two clients on loopback, watched by a third."""
import asyncio

import pytest

from game.camelot import record as camelot_record
from game.net.client import Client, ServerRefused

from .helpers import (CASTLE_GAME, CASTLE_LINE, CASTLE_POSITION, OPENING, play_line,
                      run_scenario, seated_pair)


def test_a_castle_win_seen_by_both_players_and_a_spectator_and_kept_as_a_record():
    async def scenario(server, url):
        alice, bob, carol, table = await seated_pair(url, CASTLE_POSITION, spectator=True)
        movers = [alice, bob, alice]
        sent = []
        for client, move in zip(movers, CASTLE_LINE):
            sent.append(await client.move(table, move))
        assert [m["move"] for m in sent] == CASTLE_LINE
        assert sent[-1]["status"] == "won" and sent[-1]["winner"] == "white"
        assert sent[-1]["reason"] == "White occupies Black's castle"
        # The spectator saw each move, in order, exactly as the players did.
        seen = [await carol.expect("moved", table=table) for _ in CASTLE_LINE]
        assert seen == sent
        over = await carol.expect("game_over", table=table)
        assert (over["winner"], over["result"]) == ("white", "1-0")
        # Either player downloads the record; it replays to the same result.
        for client in (alice, bob):
            record = await client.record(table)
            assert record["moves"] == CASTLE_LINE
            assert "1.F15-F16 A5-A6 2.G15-G16 1-0" in record["text"]
            assert '[White "Alice"]' in record["text"] and '[Black "Bob"]' in record["text"]
        parsed = camelot_record.parse(record["text"])
        assert parsed.moves == tuple(CASTLE_LINE) and parsed.result == "1-0"
        assert parsed.tag("Termination") == "White occupies Black's castle"
        replay = parsed.to_game()
        assert replay.winner == "white"
        # The move record carries the engine's path, captures and position.
        assert sent[0]["path"] == ["F15", "F16"] and sent[0]["captures"] == []
        assert sent[-1]["position"] == replay.position_text()
        with pytest.raises(ServerRefused) as refused:
            await bob.move(table, "A6-A7")
        assert refused.value.code == "not_playing"
    run_scenario(scenario)


def test_a_whole_game_from_the_start_to_a_castle_win():
    async def scenario(server, url):
        alice, bob, carol, table = await seated_pair(url, spectator=True)
        moved = (await play_line(alice, bob, table, CASTLE_GAME))[-1]
        assert (moved["status"], moved["winner"]) == ("won", "black")
        assert moved["reason"] == "Black occupies White's castle"
        seen = [(await carol.expect("moved", table=table))["move"] for _ in CASTLE_GAME]
        assert seen == CASTLE_GAME
        assert (await carol.expect("game_over", table=table))["result"] == "0-1"
        text = (await alice.record(table))["text"]
        parsed = camelot_record.parse(text)
        assert parsed.moves == tuple(CASTLE_GAME) and parsed.result == "0-1"
        assert parsed.to_game().winner == "black"
    run_scenario(scenario)


def test_a_capture_is_broadcast_with_its_captured_square():
    from game.camelot.board import position_from_pieces
    position = position_from_pieces({"E8": "M", "E9": "m", "L4": "M", "A13": "m"})
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url, position)
        moved = await alice.move(table, "E8xE10")
        assert moved["captures"] == ["E9"] and moved["kind"] == "jump"
        assert moved["path"] == ["E8", "E10"]
    run_scenario(scenario)


def test_a_game_from_the_start_ends_by_resignation():
    async def scenario(server, url):
        alice, bob, carol, table = await seated_pair(url, spectator=True)
        last = (await play_line(alice, bob, table, OPENING))[-1]
        over = await bob.resign(table)
        assert (over["winner"], over["reason"]) == ("white", "Black resigned")
        assert [(await carol.expect("moved"))["move"] for _ in OPENING] == OPENING
        assert (await carol.expect("game_over"))["result"] == "1-0"
        record = await alice.record(table)
        assert record["moves"] == OPENING and record["text"].rstrip().endswith("1-0")
        parsed = camelot_record.parse(record["text"])      # a resignation: the server's result
        assert (parsed.result, parsed.tag("Termination")) == ("1-0", "Black resigned")
        assert parsed.to_game().position_text() == last["position"]
    run_scenario(scenario)


def test_a_draw_offer_lapses_when_the_side_offered_moves_and_can_be_accepted():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        offer = await alice.offer_draw(table)
        assert (offer["by"], offer["to"]) == ("white", "black")
        with pytest.raises(ServerRefused) as refused:
            await alice.accept_draw(table)          # one cannot accept one's own offer
        assert refused.value.code == "no_offer"
        await alice.move(table, OPENING[0])
        await bob.move(table, OPENING[1])             # Bob moved on: the offer lapsed
        with pytest.raises(ServerRefused):
            await bob.accept_draw(table)
        await bob.offer_draw(table)
        declined = await alice.decline_draw(table)
        assert declined["by"] == "white"
        await bob.offer_draw(table)
        over = await alice.accept_draw(table)
        assert (over["winner"], over["result"], over["reason"]) == (None, "1/2-1/2", "Draw agreed")
    run_scenario(scenario)


def test_the_clock_runs_with_increment_and_a_flag_fall_ends_the_game():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url, time_control={"base": 1, "increment": 2})
        moved = await alice.move(table, "F7-F8")
        # White spent a little of 1 s and gained 2 s; Black's clock now runs.
        assert 2000 < moved["clocks"]["white"] <= 3000
        assert moved["clocks"]["black"] == 1000 and moved["clocks"]["running"] == "black"
        over = await alice.expect("game_over", table=table, timeout=3)
        assert (over["winner"], over["reason"]) == ("white", "Black's time ran out")
        with pytest.raises(ServerRefused) as refused:
            await bob.move(table, "F10-F9")
        assert refused.value.code == "not_playing"
    run_scenario(scenario)


def test_a_dropped_player_reconnects_with_the_token_and_plays_on():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        await alice.move(table, OPENING[0])
        token = alice.token(table)
        await alice.close()
        state = await bob.expect("table", table=table,
                                 where=lambda m: not m["seats"]["white"]["present"])
        assert state["seats"]["white"]["name"] == "Alice" and state["moves"] == OPENING[:1]
        alice = await Client.connect(url, "Alice")
        resumed = await alice.resume(table, token)
        assert resumed["moves"] == OPENING[:1] and resumed["turn"] == "black"
        assert resumed["seats"]["white"]["present"] is True
        await bob.move(table, OPENING[1])
        moved = await alice.move(table, OPENING[2])
        assert moved["ply"] == 3
    run_scenario(scenario)


def test_an_abandoned_game_is_won_by_claim_only_after_the_grace_period():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        await alice.move(table, "F7-F8")
        await bob.close()
        with pytest.raises(ServerRefused) as refused:
            await alice.claim(table)
        assert refused.value.code == "cannot_claim"
        await asyncio.sleep(0.35)
        over = await alice.claim(table)
        assert over["winner"] == "white"
        assert over["reason"] == "Black left the game and did not come back"
    run_scenario(scenario, grace=0.3)


def test_a_private_table_needs_its_invite_and_is_not_listed():
    async def scenario(server, url):
        alice = await Client.connect(url, "Alice")
        created = await alice.create_table(private=True)
        table, invite = created["table"], created["invite"]
        bob = await Client.connect(url, "Bob")
        assert all(row["table"] != table for row in (await bob.lobby())["tables"])
        with pytest.raises(ServerRefused) as refused:
            await bob.sit(table, "black")
        assert refused.value.code == "bad_invite"
        await bob.sit(table, "black", invite=invite)
        state = await bob.expect("table", table=table)
        assert state["seats"]["black"]["name"] == "Bob"
    run_scenario(scenario)


def test_the_lobby_lists_who_is_online_and_the_open_tables_and_carries_chat():
    async def scenario(server, url):
        alice = await Client.connect(url, "Alice")
        assert alice.welcome["version"] == 1
        bob = await Client.connect(url, "Bob")
        table = (await bob.create_table(time={"base": 300, "increment": 5}))["table"]
        await bob.leave(table)
        lobby = await alice.lobby()
        assert lobby["users"] == ["Alice", "Bob"]
        row = next(r for r in lobby["tables"] if r["table"] == table)
        assert row["status"] == "waiting" and row["time"] == {"base": 300, "increment": 5}
        await bob.lobby_chat("anyone for a game?")
        heard = await alice.expect("lobby_chat")
        assert (heard["from"], heard["text"]) == ("Bob", "anyone for a game?")
        await alice.sit(table, "white")
        said = await alice.chat(table, "hello table")
        assert said["text"] == "hello table"
    run_scenario(scenario)
