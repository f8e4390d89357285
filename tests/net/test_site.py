"""What players of game sites expect: rematch, seeks, takebacks, histories, the
archive with every record downloadable, ignoring, and moderators whose every
action is logged."""
import subprocess
import sys

import pytest

from game.net.client import Client, ConnectionLost, ServerRefused
from game.server import members
from game.server.storage import SQLiteStorage

from .helpers import OPENING, PASSWORD, ROOT, play_line, run_scenario, seated_pair, signed_in


def test_a_rematch_swaps_the_colours_when_both_ask():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url, time_control={"base": 300, "increment": 2})
        await play_line(alice, bob, table, OPENING[:2])
        await alice.resign(table)
        await alice.rematch(table)
        asked = await bob.expect("table", table=table, where=lambda m: m["rematch"])
        assert asked["rematch"] == ["white"]
        await bob.rematch(table)
        new_for_bob, new_for_alice = await bob.seated(), await alice.seated()
        assert new_for_bob == new_for_alice != table
        assert bob.color(new_for_bob) == "white" and alice.color(new_for_alice) == "black"
        state = await alice.expect("table", table=new_for_alice, status="playing")
        assert state["time"] == {"base": 300, "increment": 2}
        assert state["seats"]["white"]["name"] == "Bob"
        await bob.move(new_for_bob, OPENING[0])                  # Bob opens this time
    run_scenario(scenario)


def test_seeks_pair_by_time_control_and_rating_range():
    async def scenario(server, url):
        alice, bob, carol = await signed_in(url, "Alice", "Bob", "Carol")
        blitz = {"base": 180, "increment": 0}
        waiting = await alice.seek(blitz, rated=True, min_rating=1400, max_rating=1600)
        assert waiting["type"] == "seek_waiting"
        lobby = await carol.lobby()
        assert [s["name"] for s in lobby["seeks"]] == ["Alice"]
        # Another time control, or a rating outside Alice's range: no pairing.
        assert (await bob.seek({"base": 600, "increment": 0}, rated=True))["type"] == "seek_waiting"
        assert (await carol.seek(blitz, rated=True, min_rating=1700))["type"] == "seek_waiting"
        paired = await bob.seek(blitz, rated=True)        # replaces Bob's first seek
        assert paired["type"] == "seated"
        table = paired["table"]
        assert await alice.seated() == table
        assert {alice.color(table), bob.color(table)} == {"white", "black"}
        state = await bob.expect("table", table=table, status="playing")
        assert state["rated"] and state["time_class"] == "blitz"
        assert [s["name"] for s in (await carol.lobby())["seeks"]] == ["Carol"]
        await carol.cancel_seek()
        assert (await carol.lobby())["seeks"] == []
        guest = await Client.connect(url, "Guest")
        with pytest.raises(ServerRefused) as refusal:
            await guest.seek(blitz, rated=True)
        assert refusal.value.code == "needs_account"
    run_scenario(scenario)


def test_a_takeback_the_opponent_accepts_undoes_the_last_move_and_is_stored():
    async def scenario(server, url):
        alice, bob, _, table = await seated_pair(url)
        await play_line(alice, bob, table, OPENING[:3])
        with pytest.raises(ServerRefused) as refusal:     # only one's own last move
            await bob.takeback(table)
        assert refusal.value.code == "no_takeback"
        offer = await alice.takeback(table)
        assert offer["by"] == "white" and offer["to"] == "black"
        await bob.expect("takeback_offer", table=table)
        await bob.decline_takeback(table)
        assert len(server.tables[table].record.moves) == 3
        await alice.takeback(table)
        taken = await bob.accept_takeback(table)
        assert taken["ply"] == 2 and taken["turn"] == "white"
        assert server.storage.load_table(int(table[1:])).moves == OPENING[:2]
        moved = await alice.move(table, OPENING[2])
        assert moved["ply"] == 3
    run_scenario(scenario)


def test_histories_and_the_archive_find_games_by_player_and_each_record_downloads():
    async def scenario(server, url):
        alice, bob, carol = await signed_in(url, "Alice", "Bob", "Carol")
        finished = []
        for white, black in ((alice, bob), (carol, alice), (bob, carol)):
            table = (await white.create_table())["table"]
            await white.sit(table, "white")
            await black.sit(table, "black")
            await white.start(table)
            await black.resign(table)
            finished.append(table)
        found = await bob.archive("ALICE")
        assert [g["id"] for g in found["games"]] == [int(finished[1][1:]), int(finished[0][1:])]
        assert found["games"][0]["white"] == "Carol" and found["games"][0]["result"] == "1-0"
        assert found["next"] is None
        everyone = await bob.archive()
        assert len(everyone["games"]) == 3
        history = await carol.history("Bob")
        assert history["name"] == "Bob" and len(history["games"]) == 2
        record = await carol.record(finished[0])
        assert '[White "Alice"]' in record["text"] and "1-0" in record["text"]
        with pytest.raises(ServerRefused) as refusal:
            await carol.history("Nobody")
        assert refusal.value.code == "no_player"
    run_scenario(scenario)


def test_an_ignored_player_is_not_heard_and_the_choice_is_kept_with_the_account():
    async def scenario(server, url):
        alice, = await signed_in(url, "Alice")
        pest = await Client.connect(url, "Pest")
        friend = await Client.connect(url, "Friend")
        assert (await alice.ignore("pest"))["on"] is True
        await pest.lobby_chat("spam")
        await friend.lobby_chat("hello")
        heard = await alice.expect("lobby_chat", **{"from": "Friend"})
        assert heard["text"] == "hello"
        assert not any(m.get("type") == "lobby_chat" and m.get("from") == "Pest"
                       for m in alice.received)
        # Nor are they paired by seeks (a guest and an account otherwise would be).
        assert (await pest.seek())["type"] == "seek_waiting"
        assert (await alice.seek())["type"] == "seek_waiting"
        await alice.cancel_seek()
        session = alice.session
        await alice.close()
        again = await Client.with_session(url, session)
        assert again.welcome["ignoring"] == ["pest"]        # a guest's name, by its key
        await pest.lobby_chat("more spam")
        await friend.lobby_chat("still here")
        await again.expect("lobby_chat", **{"from": "Friend"}, text="still here")
        assert not any(m.get("from") == "Pest" for m in again.received)
        # An account ignored is listed by its name as registered; the list is bounded.
        await signed_in(url, "Zed Q")
        await again.ignore("ZEDQ")
        await again.close()
        again = await Client.with_session(url, session)
        assert again.welcome["ignoring"] == ["pest", "Zed Q"]
        members.MAX_IGNORED = 2
        with pytest.raises(ServerRefused) as refusal:
            await again.ignore("Friend")
        assert refusal.value.code == "too_many_ignored"
        assert (await again.ignore("Pest", False))["count"] == 1
        assert (await again.ignore("Friend"))["count"] == 2
    real_limit = members.MAX_IGNORED
    try:
        run_scenario(scenario)
    finally:
        members.MAX_IGNORED = real_limit


def test_moderators_mute_ban_and_close_tables_and_every_action_is_logged(tmp_path):
    db = str(tmp_path / "site.sqlite3")
    storage = SQLiteStorage(db)

    async def scenario(server, url):
        mod, rude, player = await signed_in(url, "Mod", "Rude", "Player")
        with pytest.raises(ServerRefused) as refusal:
            await rude.moderate("mute", name="Mod", minutes=5)
        assert refusal.value.code == "not_moderator"
        # The flag is set from the server's command line, on the same database.
        made = subprocess.run([sys.executable, "-m", "game", "serve", "--db", db,
                               "--make-moderator", "MOD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=30)
        assert made.returncode == 0 and "Mod is now a moderator" in made.stdout
        await mod.moderate("mute", name="rude", minutes=10)
        with pytest.raises(ServerRefused) as refusal:
            await rude.lobby_chat("I am muted")
        assert refusal.value.code == "muted"
        table = (await player.create_table())["table"]
        closed = await mod.moderate("close", table=table, reason="test")
        assert closed["target"] == table
        over = await player.expect("game_over", table=table)
        assert over["result"] == "*" and over["reason"] == "Closed by a moderator: test"
        await mod.moderate("ban", name="Rude", reason="spam")
        with pytest.raises(ConnectionLost):
            while True:
                await rude.next()
        with pytest.raises(ServerRefused) as refusal:
            await Client.with_session(url, rude.session)     # its sessions ended
        assert refusal.value.code == "bad_session"
        with pytest.raises(ServerRefused) as refusal:
            await Client.account(url, "Rude", PASSWORD)
        assert refusal.value.code == "banned"
        await mod.moderate("unban", name="Rude")
        await Client.account(url, "Rude", PASSWORD)
        log = [(a.moderator, a.action, a.target, a.detail) for a in server.storage.moderation_log()]
        assert log == [("Mod", "unban", "Rude", ""), ("Mod", "ban", "Rude", "spam"),
                       ("Mod", "close", table, "test"), ("Mod", "mute", "rude", "10 min")]
    run_scenario(scenario, storage=storage)


def test_the_moderator_command_says_so_for_an_unknown_name(tmp_path):
    out = subprocess.run([sys.executable, "-m", "game", "serve", "--db", str(tmp_path / "x.db"),
                          "--make-moderator", "Nobody"], cwd=ROOT, capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 1 and out.stderr.startswith("error: there is no account named")
    assert "Traceback" not in out.stderr
