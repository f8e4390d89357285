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


def _lobby(tables, offset=0, next_=None, total=None, mine=()):
    return {"type": "lobby", "users": [], "tables": [{"table": t} for t in tables],
            "offset": offset, "next": next_, "total": len(tables) if total is None else total,
            "mine": [{"table": t} for t in mine]}


def _ids(rows):
    return [t["table"] for t in rows]


def test_the_lobby_pages_list_ones_own_tables_first_and_turn_within_the_servers_page():
    state = OnlineState("Ann")
    # A server page of 7 public tables; Ann's own T9 is on it too (and a private T20).
    assert state.apply(_lobby(["T9", "T8", "T7", "T6", "T5", "T4", "T3"], next_=7, total=12,
                              mine=["T20", "T9"])) == "lobby"
    pages = state.pages
    mine, shown = pages.rows(room=5)
    assert _ids(mine) == ["T20", "T9"]                      # own ones first, not twice
    assert _ids(shown) == ["T8", "T7", "T6"]                # 5 rows in all
    assert (pages.first_shown(), pages.has_newer(), pages.has_older(5)) == (0, False, True)
    assert pages.older(room=5) is None                      # within this page: no request
    assert _ids(pages.rows(5)[1]) == ["T5", "T4", "T3"] and pages.first_shown() == 3
    # The end of the page: the next one is asked for; the way back is kept.
    assert pages.older(room=5) == {"type": "lobby", "offset": 7}
    state.apply(_lobby(["T2", "T1"], offset=7, total=12, mine=["T20", "T9"]))
    assert _ids(pages.rows(5)[1]) == ["T2", "T1"] and pages.first_shown() == 7
    assert not pages.has_older(5) and pages.older(room=5) is None
    assert pages.newer(room=5) == {"type": "lobby", "offset": 0}
    state.apply(_lobby(["T9", "T8", "T7", "T6", "T5", "T4", "T3"], next_=7, total=12,
                       mine=["T20", "T9"]))
    assert not pages.has_newer() and pages.newer(room=5) is None
    assert _ids(pages.rows(5)[1]) == ["T8", "T7", "T6"]


def test_a_shorter_page_keeps_the_row_shown_on_it_and_at_most_three_own_tables_lead():
    state = OnlineState("Ann")
    state.apply(_lobby([f"T{n}" for n in range(10, 0, -1)], mine=["T30", "T31", "T32", "T33"]))
    pages = state.pages
    mine, shown = pages.rows(room=4)
    assert _ids(mine) == ["T30", "T31", "T32"] and _ids(shown) == ["T10"]   # one public row, always
    pages.start = 8
    state.apply(_lobby(["T3", "T2"], mine=[]))               # tables went: the page shrank
    assert _ids(pages.rows(room=4)[1]) == ["T2"] and pages.first_shown() == 1


def test_ignoring_is_folded_and_an_ignored_players_lines_leave_every_chat():
    state = OnlineState("Ann")
    state.apply({"type": "welcome", "name": "Ann", "guest": False, "ignoring": ["Zed"]})
    assert state.ignoring == ["Zed"] and state.ignores("zed")
    state.apply({"type": "lobby_chat", "from": "Pest", "text": "spam"})
    state.apply({"type": "lobby_chat", "from": "Bob", "text": "hi"})
    state.apply({"type": "chat", "table": "T1", "from": "Pest", "text": "more spam"})
    state.apply({"type": "chat", "table": "T1", "from": "Bob", "text": "gl"})
    assert state.apply({"type": "ignoring", "name": "pest", "on": True, "count": 2}) == "lobby"
    assert list(state.lobby_chat) == [("Bob", "hi")]
    assert list(state.tables["T1"].chat) == [("Bob", "gl")]
    assert state.ignoring == ["pest", "Zed"]
    state.apply({"type": "ignoring", "name": "Zed", "on": False, "count": 1})
    assert state.ignoring == ["pest"]
    # A guest's welcome (after a reconnection) leaves the list as it was: the app says it again.
    state.apply({"type": "welcome", "name": "Ann", "guest": True, "ignoring": []})
    assert state.ignoring == ["pest"]
