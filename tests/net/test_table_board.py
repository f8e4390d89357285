"""A table waiting for players keeps no engine board (memory per waiting table:
bench/server_load.py); what its state shows is the board's all the same, and the
board is made when the game needs it — at the start, after a takeback."""
from game.camelot.board import START_POSITION, CamelotBoard
from game.server.storage import TableRecord
from game.server.table import Table

from .helpers import OPENING


def waiting_table(position: str = START_POSITION) -> Table:
    return Table(TableRecord(id=7, private=False, invite=None, start_position=position,
                             time_base=300, time_increment=3), now=0.0)


def test_a_waiting_table_shows_the_start_without_keeping_a_board():
    table = waiting_table()
    fresh = CamelotBoard(START_POSITION)
    state = table.state(0.0)
    assert (state["position"], state["turn"]) == (fresh.position_text(), fresh.turn)
    assert table._game is None                     # nothing held while it waits
    white, black = object(), object()
    table.sit(white, "Ann", "white")
    table.sit(black, "Bob", "black")
    table.start(1.0)
    assert table.state(1.0)["turn"] == "white"
    moved = table.move("white", OPENING[0], 2.0)
    fresh.play(OPENING[0])
    assert moved["position"] == fresh.position_text() == table.state(2.0)["position"]
    table.move("black", OPENING[1], 3.0)
    # A takeback drops the board; the state is the one before the move again.
    table.ask_takeback("black")
    table.answer_takeback("white", True, 4.0)
    state = table.state(4.0)
    assert state["position"] == fresh.position_text() and state["turn"] == "black"
    assert state["moves"] == [OPENING[0]]
