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


def test_a_replica_of_another_nodes_table_shows_its_state_waiting_or_playing():
    """What a node shows (pages, the lobby) of a table another node referees: the
    board made only when asked, from the stored moves, and made again after news."""
    from game.server.replica import Replica
    record = TableRecord(id=8, private=False, invite=None, start_position=START_POSITION)
    waiting = Replica(record).state(0.0)
    assert (waiting["status"], waiting["position"]) == ("waiting", START_POSITION)
    played = TableRecord(id=9, private=False, invite=None, start_position=START_POSITION,
                         status="playing", moves=[OPENING[0]])
    replica = Replica(played)
    fresh = CamelotBoard(START_POSITION)
    fresh.play(OPENING[0])
    assert replica.state(0.0)["position"] == fresh.position_text()
    played.moves.append(OPENING[1])              # the referee's news, as node.py applies it
    replica._game = None
    fresh.play(OPENING[1])
    assert replica.state(0.0)["position"] == fresh.position_text()
