"""The board answers from one piece's moves while its whole move list is not made
(game/camelot/board.py: what a game server asks after every move). Every public
answer must be the one the whole list gives: the same board is asked twice, once
fresh (lazy) and once after ``legal_moves()`` made every Move, in positions reached
by random play and in random crowded ones (own castles, charges, blocked pieces).
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.base import Status
from game.camelot.board import START_POSITION, CamelotBoard, position_from_pieces
from game.camelot.moves import CASTLES, SQUARE_NAMES, make_move, move_sort_key, path_text
from game.camelot.position import Position
from game.errors import RoundTableError

from .test_camelot_movegen import random_position
from .test_camelot_movekeys import play_randomly


def every_move(pos: Position) -> list:
    """The rules' whole list, straight from the path generator (the definition)."""
    if pos.outcome_without_moves() is not None:
        return []
    return sorted((make_move(k, p) for k, p in pos.moves(True).items()), key=move_sort_key)


def shown(moves) -> list:
    """Moves with what equality leaves out: the paths and their order, the kind."""
    return [(m, m.paths, m.kind) for m in moves]


def answer(ask):
    """What a question answers, or the error it raises (type and sentence)."""
    try:
        result = ask()
    except RoundTableError as exc:
        return type(exc).__name__, str(exc)
    return (shown([result])[0] if hasattr(result, "paths") else result)


def lazy_and_full(text: str) -> tuple[CamelotBoard, CamelotBoard]:
    lazy, full = CamelotBoard(text), CamelotBoard(text)
    full.legal_moves()              # every Move made: the board answers from the whole list
    return lazy, full


def probe_paths(moves, rng: random.Random) -> list[tuple[int, ...]]:
    """Paths to ask about: some legal ones (every path of a few moves), their
    prefixes (a jump chain stopped short), and plain steps and leaps from each
    piece's square that may or may not be moves."""
    probes = []
    for move in rng.sample(moves, min(6, len(moves))):
        probes += list(move.paths)
        probes += [p[:-1] for p in move.paths if len(p) > 2]
    for _ in range(12):
        a = rng.randrange(160)
        probes.append((a, rng.randrange(160)))
    return probes


def check_position(text: str, rng: random.Random) -> None:
    pos = Position.from_text(text)
    expected = every_move(pos)
    lazy, full = lazy_and_full(text)
    board = CamelotBoard(text)

    def fresh() -> CamelotBoard:
        board.restart()             # back to the start: nothing listed yet (cheaper than parsing)
        return board

    # Whether the game goes on is decided without the list (one glance, mostly).
    assert lazy.status == full.status
    assert (lazy.status is Status.PLAYING) == bool(expected), text
    assert shown(full.legal_moves()) == shown(expected), text
    # One piece at a time, fresh boards: the answers of the whole list.
    for sq in range(160):
        ours = [m for m in expected if m.from_square == sq]
        assert shown(lazy.moves_from(SQUARE_NAMES[sq])) == shown(ours), (text, sq)
        asked = fresh()
        assert shown(asked.moves_from(sq)) == shown(ours), (text, sq)
        assert asked.why_piece_cannot_move(sq) == full.why_piece_cannot_move(sq), (text, sq)
    assert fresh().capture_is_compulsory == (bool(expected)
                                             and all(m.captured for m in expected))
    assert fresh().must_leave_castle() == full.must_leave_castle()
    for path in probe_paths(expected, rng):
        assert answer(lambda: fresh().move_for_path(path)) == \
            answer(lambda: full.move_for_path(path))
        assert fresh().why_refused(path) == full.why_refused(path), (text, path)
        notation = path_text(path) if len(set(path)) == len(path) else None
        if notation:
            assert answer(lambda: fresh().parse_move(notation)) == \
                answer(lambda: full.parse_move(notation)), (text, notation)
            assert fresh().why_illegal(notation) == full.why_illegal(notation)
    for move in rng.sample(expected, min(3, len(expected))):
        path = rng.choice(move.paths)
        played, reference = fresh(), CamelotBoard(text)
        reference.legal_moves()
        got, want = played.play(path_text(path, move.captured)), \
            reference.play(path_text(path, move.captured))
        assert (got.notation, shown([got.move]), got.events, got.status) == \
            (want.notation, shown([want.move]), want.events, want.status)
        assert played.position_text() == reference.position_text()
        assert (played.status, played.status_reason) == (reference.status, reference.status_reason)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 90),
       greed=st.sampled_from([0.0, 0.5, 1.0]))
def test_one_piece_answers_agree_with_the_whole_list_along_random_games(seed, plies, greed):
    rng = random.Random(seed)
    positions = [pos.text() for pos in play_randomly(seed, plies, greed)]
    for text in rng.sample(positions, min(4, len(positions))):
        check_position(text, rng)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_one_piece_answers_agree_with_the_whole_list_in_random_crowded_positions(seed):
    rng = random.Random(seed)
    check_position(random_position(rng).text(), rng)


def test_the_crowded_positions_reach_the_cases_that_differ():
    """The random positions above include a duty to leave one's own castle and
    compulsory capture (the cases where one piece's moves depend on the others)."""
    rng = random.Random(7)
    seen = {"castle duty": 0, "compulsory": 0}
    for _ in range(200):
        board = CamelotBoard(random_position(rng).text())
        seen["castle duty"] += bool(board.must_leave_castle())
        seen["compulsory"] += board.capture_is_compulsory
    assert seen["castle duty"] > 5 and seen["compulsory"] > 50, seen


# Where a glance at the board cannot tell that a move exists, and where none does.
ONLY_A_CASTLE_MOVE = position_from_pieces({"F16": "M", "A8": "m", "B8": "m"}, "white", (1, 2))
NO_MOVE = position_from_pieces({"F16": "M", "G16": "m", "A8": "m"}, "white", (0, 2))
# White's man on F1 (its own castle) is walled in by its own pieces: it blocks nothing.
STUCK_IN_CASTLE = position_from_pieces(
    {"F1": "M", "E2": "M", "F2": "N", "G2": "M", "D3": "M", "F3": "M", "H3": "M",
     "F12": "m", "G12": "n"}, "white")


def test_the_corner_cases_are_what_they_say():
    only = CamelotBoard(ONLY_A_CASTLE_MOVE)
    assert only.status is Status.PLAYING
    assert [str(m) for m in only.moves_from("F16")] == ["F16-G16"]
    blocked = CamelotBoard(NO_MOVE)
    assert (blocked.status, blocked.winner, blocked.status_reason) == \
        (Status.WON, "black", "White has no legal move")
    assert blocked.moves_from("F16") == [] and not blocked.capture_is_compulsory
    stuck = CamelotBoard(STUCK_IN_CASTLE)
    assert stuck.must_leave_castle() == () and stuck.moves_from("F1") == []
    assert stuck.moves_from("E2")


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=5, deadline=None)
def test_one_piece_answers_agree_with_the_whole_list_in_the_corner_cases(seed):
    for text in (ONLY_A_CASTLE_MOVE, NO_MOVE, STUCK_IN_CASTLE):
        check_position(text, random.Random(seed))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_random_game_played_by_notation_is_the_same_lazy_or_full(seed):
    """The server's way (text in, records out, nothing listed) and the whole
    list's way give the same records, positions and end, move after move."""
    rng = random.Random(seed)
    lazy, full = CamelotBoard(), CamelotBoard()
    while full.status is Status.PLAYING and len(full.moves_played) < 200:
        move = rng.choice(full.legal_moves())
        text = path_text(rng.choice(move.paths), move.captured)
        got, want = lazy.play(text), full.play(text)
        assert (got.notation, shown([got.move]), got.events, got.status, got.score) == \
            (want.notation, shown([want.move]), want.events, want.status, want.score)
        assert lazy.position_text() == full.position_text()
    assert (lazy.status, lazy.winner, lazy.status_reason) == \
        (full.status, full.winner, full.status_reason)
    # Undo and redo land on the same answers too.
    for _ in range(min(5, len(full.moves_played))):
        lazy.undo()
        full.undo()
        assert lazy.position_text() == full.position_text()
        assert lazy.status == full.status
        for sq in range(160):
            assert shown(lazy.moves_from(sq)) == shown(full.moves_from(sq))


def test_odd_squares_are_answered_as_the_whole_list_answers_them():
    lazy, full = lazy_and_full(START_POSITION)
    for sq in (None, -1, 160, 10**30, 1.5, (1,)):
        assert lazy.moves_from(sq) == full.moves_from(sq) == []
    f7 = SQUARE_NAMES.index("F7")
    # A square given as a float equal to it is that square (as == compares).
    assert shown(CamelotBoard().moves_from(float(f7))) == shown(full.moves_from(f7)) != []


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_position_string_reads_back_as_the_position_it_was_written_from(seed):
    """board_text (written without per-square calls: the server sends it after
    every move) against the parser: the same board, every run of empty squares."""
    pos = random_position(random.Random(seed))
    text = pos.text()
    assert Position.from_text(text).state() == pos.state()
    for rank in pos.board_text().split("/"):
        assert not any(a.isdigit() and b.isdigit() and int(a + b) > 12
                       for a, b in zip(rank, rank[1:]))   # one number per run of empties
