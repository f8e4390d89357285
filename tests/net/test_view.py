"""OnlineState: the client-side picture, folded from the server's messages, matches the server."""
from game.camelot.board import CamelotBoard
from game.net.view import OnlineState

from .helpers import CASTLE_GAME, OPENING, play_line, run_scenario, seated_pair


def test_the_views_of_both_players_and_a_spectator_follow_a_whole_game():
    async def scenario(server, url):
        alice, bob, carol, table = await seated_pair(url, spectator=True)
        await bob.chat(table, "good luck")
        await alice.offer_draw(table)
        await bob.decline_draw(table)
        await play_line(alice, bob, table, CASTLE_GAME[:10])
        await carol.expect("moved", table=table, ply=10)
        truth = server.tables[table].state(0)
        for client in (alice, bob, carol):
            client.drain()
            state = OnlineState(client.name)
            for message in client.received:
                state.apply(message)
            view = state.tables[table]
            assert view.moves == truth["moves"] == CASTLE_GAME[:10]
            board = CamelotBoard(view.start_position)
            for move in view.moves:
                board.play(move)
            assert board.position_text() == truth["position"]
            assert view.seats == truth["seats"] and view.status == "playing"
            assert list(view.chat) == [("Bob", "good luck")]
            assert view.draw_offer is None
            assert view.last_move["move"] == CASTLE_GAME[9]
        mine = OnlineState("Alice")
        for message in alice.received:
            mine.apply(message)
        assert mine.tables[table].my_color == "white" and len(mine.tables[table].moves) % 2 == 0
    run_scenario(scenario)


def test_a_view_counts_the_running_clock_down_and_stops_it_at_the_end():
    state = OnlineState("Ann")
    state.apply({"type": "table", "table": "T1", "start_position":
                 "2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2",
                 "seats": {}, "spectators": [], "status": "playing", "time": {"base": 60,
                 "increment": 0}, "draw_offer": None, "winner": None, "reason": "",
                 "invite": None, "moves": [OPENING[0]],
                 "clocks": {"white": 59000, "black": 60000, "running": "black"}}, now=100.0)
    view = state.tables["T1"]
    assert view.moves == [OPENING[0]]
    assert view.clocks_now(now=102.5) == {"white": 59000, "black": 57500, "running": "black"}
    state.apply({"type": "game_over", "table": "T1", "winner": "white", "result": "1-0",
                 "reason": "Black resigned", "moves": 1}, now=103.0)
    assert view.clocks_now(now=200.0)["black"] == 57000
    assert (view.status, view.winner) == ("finished", "white")


def test_the_view_keeps_the_servers_moves_and_a_gap_waits_for_the_table_state():
    """No board here: the view keeps what the server sent (the table screen's one
    board checks each move as it plays it); a move after a gap is not kept."""
    state = OnlineState("Ann")
    start = "2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2"
    table = {"type": "table", "table": "T1", "start_position": start, "seats": {},
             "spectators": [], "status": "playing", "time": None, "draw_offer": None,
             "winner": None, "reason": "", "invite": None, "moves": [], "clocks": None}
    state.apply(table)
    moved = {"type": "moved", "table": "T1", "by": "white", "clocks": None,
             "status": "playing", "winner": None, "reason": ""}
    state.apply({**moved, "ply": 1, "move": OPENING[0]})
    assert state.tables["T1"].moves == [OPENING[0]]
    assert state.apply({**moved, "ply": 3, "move": OPENING[2]}) == ""
    assert state.tables["T1"].moves == [OPENING[0]]
    state.apply({**table, "moves": OPENING[:3]})
    assert state.tables["T1"].moves == OPENING[:3]
