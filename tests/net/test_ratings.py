"""Glicko-2 as Glickman published it, time classes, and rated games on the wire:
between accounts only, one rating per time class, the result and both rating
changes in one transaction (a crash between them leaves neither)."""
import asyncio
import sqlite3

import pytest

from game.net.client import Client, ConnectionLost, ServerRefused
from game.server.ratings import TIME_CLASSES, Rating, period, rate_game, time_class, update
from game.server.storage import SQLiteStorage

from .helpers import OPENING, ServerProcess, run_scenario, signed_in


def test_the_worked_example_of_glickmans_paper_to_its_printed_digits():
    """"Example of the Glicko-2 system" (Glickman, 2013), section "Example": a
    player rated 1500, RD 200, volatility 0.06 plays three opponents and scores
    1, 0, 0 with tau = 0.5. The paper prints v = 1.7785, Δ = -0.4834, σ' = 0.05999,
    φ' = 0.8722, μ' = -0.2069, r' = 1464.06, RD' = 151.52 — each figure rounded
    from intermediate values rounded in print, so each is checked to within one
    unit of its last printed digit."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]
    steps = period(player, games, tau=0.5)
    assert steps.phi == pytest.approx(1.1513, abs=1e-4)
    assert steps.v == pytest.approx(1.7785, abs=1e-3)        # the paper used rounded g and E
    assert steps.delta == pytest.approx(-0.4834, abs=1e-3)
    assert steps.sigma == pytest.approx(0.05999, abs=1e-5)
    assert steps.phi_star == pytest.approx(1.152862, abs=1e-4)
    assert steps.phi_new == pytest.approx(0.8722, abs=1e-4)
    assert steps.mu_new == pytest.approx(-0.2069, abs=1e-4)
    after = update(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.sigma == pytest.approx(0.05999, abs=1e-5)
    assert after.games == 3


def test_one_game_moves_the_winner_up_and_the_loser_down_by_the_same_amount_between_equals():
    white, black = rate_game(Rating(), Rating(), "white")
    assert white.rating > 1500 > black.rating
    assert white.rating - 1500 == pytest.approx(1500 - black.rating)
    assert white.rd < 350 and white.provisional                # one game: still provisional
    drawn, _ = rate_game(Rating(1600, 80), Rating(1400, 80), None)
    assert drawn.rating < 1600 and not drawn.provisional


@pytest.mark.parametrize("control, kind", [(None, "untimed"), ({"base": 180, "increment": 2}, "blitz"),
                                           ({"base": 300, "increment": 5}, "rapid"),
                                           ("600+0", "rapid"), ((900, 15), "classical"),
                                           ({"base": 1800, "increment": 0}, "classical")])
def test_time_classes_by_base_plus_forty_increments(control, kind):
    assert time_class(control) == kind


async def rated_game(url, alice, bob, control=None, rated=True):
    table = (await alice.create_table(time=control, rated=rated))["table"]
    await alice.sit(table, "white")
    await bob.sit(table, "black")
    await alice.start(table)
    for ply, move in enumerate(OPENING[:2]):
        await (alice if ply % 2 == 0 else bob).move(table, move)
    return table


def test_rated_games_change_both_ratings_in_their_time_class_and_the_leaderboard():
    async def scenario(server, url):
        alice, bob = await signed_in(url, "Alice", "Bob")
        blitz = {"base": 180, "increment": 0}
        table = await rated_game(url, alice, bob, blitz)
        over = await bob.resign(table)
        assert over["result"] == "1-0"
        assert over["ratings"]["white"]["after"] > 1500 > over["ratings"]["black"]["after"]
        assert over["ratings"]["white"]["provisional"] is True
        page = await alice.history("alice")
        assert set(page["ratings"]) == {"blitz"} and page["ratings"]["blitz"]["games"] == 1
        assert page["ratings"]["blitz"]["provisional"] is True
        assert page["games"][0]["id"] == int(table[1:]) and page["games"][0]["rated"]
        # The next table shows the ratings at the seats, in the lobby and at the table.
        second = (await alice.create_table(time=blitz, rated=True))["table"]
        await alice.sit(second, "white")
        state = await alice.expect("table", table=second, where=lambda m: m["seats"]["white"])
        seat = state["seats"]["white"]
        assert seat["rating"] == over["ratings"]["white"]["after"] and seat["provisional"]
        assert seat["guest"] is False and state["rated"] and state["time_class"] == "blitz"
        summary = server.tables[second].site_summary()           # what the web pages read
        assert (summary["id"], summary["white"], summary["black"], summary["time_control"],
                summary["time_class"], summary["rated"], summary["ply"]) == \
            (int(second[1:]), {k: seat[k] for k in ("name", "guest", "rating", "rd",
                                                    "provisional")},
             None, "180+0", "blitz", True, 0)
        row = next(r for r in (await bob.lobby())["tables"] if r["table"] == second)
        assert row["seats"]["white"]["rating"] == seat["rating"] and row["time_class"] == "blitz"
        # Another class starts from the default rating.
        casual_class = await rated_game(url, bob, alice, None)
        await alice.resign(casual_class)
        board = await bob.leaderboard("untimed")
        assert [r["name"] for r in board["rows"]] == ["Bob", "Alice"]
        assert board["rows"][0]["rank"] == 1 and board["time_classes"] == list(TIME_CLASSES)
        assert (await bob.leaderboard("blitz"))["rows"][0]["name"] == "Alice"
    run_scenario(scenario)


def test_guests_play_casual_games_only_and_casual_games_change_no_rating():
    async def scenario(server, url):
        alice, bob = await signed_in(url, "Alice", "Bob")
        guest = await Client.connect(url, "Guest")
        with pytest.raises(ServerRefused) as refusal:
            await guest.create_table(rated=True)
        assert refusal.value.code == "rated_needs_account"
        rated = (await alice.create_table(rated=True))["table"]
        with pytest.raises(ServerRefused) as refusal:
            await guest.sit(rated, "black")
        assert refusal.value.code == "rated_needs_account"
        table = await rated_game(url, alice, bob, rated=False)
        over = await bob.resign(table)
        assert "ratings" not in over
        assert (await alice.history("Alice"))["ratings"] == {}
    run_scenario(scenario)


def test_a_crash_between_the_result_and_the_rating_change_leaves_neither(tmp_path):
    db = str(tmp_path / "rated.sqlite3")

    async def set_up(url):
        alice, bob = await signed_in(url, "Alice", "Bob")
        table = await rated_game(url, alice, bob)
        return alice, bob, table

    first = ServerProcess(db, 60.0, fault="between_result_and_rating")
    try:
        async def crash():
            alice, bob, table = await set_up(first.url)
            await bob.send(bob._seat_message("resign", table))
            with pytest.raises(ConnectionLost):       # killed inside the transaction
                await bob.expect("game_over", 10)
            return table, alice.session, bob.session, bob.token(table)
        table, alice_session, bob_session, bob_token = asyncio.run(asyncio.wait_for(crash(), 30))
        first.proc.wait(10)
        assert first.proc.returncode == -9
    finally:
        first.proc.poll() is None and first.kill()
    with sqlite3.connect(db) as check:
        status, = check.execute("SELECT status FROM tables").fetchone()
        changes = check.execute("SELECT COUNT(*) FROM rating_changes").fetchone()[0]
        ratings = check.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    assert (status, changes, ratings) == ("playing", 0, 0)     # neither the result nor a rating

    second = ServerProcess(db)
    try:
        async def resign_again():
            bob = await Client.with_session(second.url, bob_session)
            await bob.resume(table, bob_token)
            over = await bob.resign(table)
            assert over["ratings"]["black"]["after"] < 1500
        asyncio.run(asyncio.wait_for(resign_again(), 30))
    finally:
        second.stop()
    storage = SQLiteStorage(db)
    try:
        record = storage.load_table(int(table[1:]))
        assert record.status == "finished" and record.winner == "white"
        white, black = (storage.rating(record.seats[c].account, "untimed") for c in ("white", "black"))
        assert white.games == black.games == 1 and white.rating > 1500 > black.rating
    finally:
        storage.close()
