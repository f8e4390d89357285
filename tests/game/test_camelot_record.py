"""Camelot game records (game/camelot/record.py) and ``python -m game play
--record / --write-record``: the format round-trips, a bad record is one line
naming the fault, a replay stops at the first illegal move."""
from __future__ import annotations

import os

import pytest

from game.camelot.board import START_POSITION, CamelotBoard, position_from_pieces
from game.camelot.record import (
    MAX_RECORD_BYTES, BadRecordError, GameRecord, format, from_game, parse, read, write)
from game.cli import main
from game.errors import IllegalMoveError

OPENING = ["F7-F8", "F11-F9", "D7-F7", "E10-E9"]


def played(moves, position=START_POSITION) -> CamelotBoard:
    game = CamelotBoard(position)
    for text in moves:
        game.play(text)
    return game


def test_a_game_round_trips_through_its_text():
    game = played(OPENING)
    record = from_game(game, Event='Club "night"', White="Ann", Black="Bob", Date="2026.11.24")
    text = format(record)
    assert text.splitlines()[:6] == [
        '[Event "Club \\"night\\""]', '[Date "2026.11.24"]', '[White "Ann"]', '[Black "Bob"]',
        '[Result "*"]', ""]
    assert text.splitlines()[6] == "1.F7-F8 F11-F9 2.D7-F7 E10-E9 *"
    assert parse(text) == record
    assert parse(text).to_game().position_text() == game.position_text()


def test_a_finished_game_writes_its_result_and_why():
    position = position_from_pieces({"F15": "M", "G16": "M", "A4": "M", "K13": "m", "L13": "m"})
    game = played(["F15-F16"], position)
    record = from_game(game)
    assert record.result == "1-0" and record.tag("Result") == "1-0"
    assert record.tag("Position") == position and "castle" in record.tag("Termination")
    assert format(record).rstrip().endswith("1.F15-F16 1-0")
    assert parse(format(record)).to_game().winner == "white"


def test_a_record_starting_with_black_numbers_its_first_move_with_dots():
    position = CamelotBoard().position_text().replace(" w ", " b ")
    game = played(["F10-F9", "C6-B6", "E10-E9"], position)
    text = format(from_game(game))
    assert "1...F10-F9 2.C6-B6 E10-E9 *" in text
    assert parse(text).to_game().position_text() == game.position_text()


def test_a_record_counts_its_moves_as_its_move_numbers_do():
    # From the start: 1.W B 2.W is three plies and two moves.
    start = parse(format(from_game(played(["C6-B6", "F10-F9", "D6-C5"]))))
    assert len(start.moves) == 3 and start.full_moves == 2
    # Black first: 1...B 2.W B is three plies and two moves; 1...B 2.W B 3.W is three.
    position = CamelotBoard().position_text().replace(" w ", " b ")
    black = from_game(played(["F10-F9", "C6-B6", "E10-E9"], position))
    assert black.full_moves == 2
    assert from_game(played(["F10-F9", "C6-B6", "E10-E9", "F7-F8"], position)).full_moves == 3
    assert GameRecord(tags=(), moves=()).full_moves == 0


def test_each_ply_has_the_number_and_the_side_the_move_list_gives_it():
    start = from_game(played(["C6-B6", "F10-F9", "D6-C5"]))
    assert [start.move_number(p) for p in range(4)] == [0, 1, 1, 2]
    assert [start.mover(p) for p in (1, 2, 3)] == ["white", "black", "white"]
    position = CamelotBoard().position_text().replace(" w ", " b ")
    black = from_game(played(["F10-F9", "C6-B6", "E10-E9"], position))
    assert [black.move_number(p) for p in (1, 2, 3)] == [1, 2, 2]
    assert [black.mover(p) for p in (1, 2, 3)] == ["black", "white", "black"]


def test_numbers_comments_and_lower_case_are_read():
    record = parse('[Event "x"]\n\n1. f7-f8 {a quiet move} 1... F11-F9\n2.D7-F7 *\n')
    assert record.moves == ("f7-f8", "F11-F9", "D7-F7") and record.result == "*"
    assert record.to_game().history == ["F7-F8", "F11-F9", "D7-F7"]


def test_long_games_wrap_their_lines():
    record = GameRecord((("Event", "x"),), tuple(["F7-F8", "F11-F9", "F8-F7", "F9-F11"] * 10))
    assert all(len(line) <= 79 for line in format(record).splitlines())
    assert parse(format(record)) == record


@pytest.mark.parametrize("text, words", [
    ('[Event "x"\n1.F7-F8 *', "line 1"),
    ('[Event "x"]\n[Event "y"]\n*', "given twice"),
    ('[Result "2-0"]\n*', "Result tag"),
    ('[Result "1-0"]\n1.F7-F8 0-1', "Result tag says 1-0"),
    ("1.F7-F8 * F11-F9", "result comes last"),
    ("1.F7-F8 3.F11-F9", "move number 3."),
    ("1.F7-F8 F11F9", "not a move in WCF notation"),
    ('[Position "2/8 w 2 2"]\n*', "Position tag"),
    ("1.F7-F8 {never closed", "not closed"),
    ("", "empty"),
    ("x" * (MAX_RECORD_BYTES + 1), "longer than"),
])
def test_a_bad_record_is_one_line_naming_the_fault(text, words):
    with pytest.raises(BadRecordError, match=words) as info:
        parse(text)
    assert "\n" not in str(info.value)


def test_replaying_stops_at_the_first_illegal_move_and_names_it():
    record = parse("1.F7-F8 F11-F9 2.F8-F10 *")     # F8-F10 is no move (F9 is Black's)
    with pytest.raises(IllegalMoveError, match=r"move 2\. F8-F10"):
        record.to_game()
    assert record.to_game(plies=2).history == ["F7-F8", "F11-F9"]


def test_files_read_bounded_and_written_atomically(tmp_path):
    path = tmp_path / "game.txt"
    record = from_game(played(OPENING), Event="e")
    write(record, path)
    assert read(path) == record
    assert os.listdir(tmp_path) == ["game.txt"]         # no temporary file left
    (tmp_path / "big.txt").write_bytes(b"*" * (MAX_RECORD_BYTES + 10))
    with pytest.raises(BadRecordError, match="bigger than"):
        read(tmp_path / "big.txt")
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe[")
    with pytest.raises(BadRecordError, match="not UTF-8"):
        read(tmp_path / "bin.txt")
    with pytest.raises(BadRecordError, match="cannot read"):
        read(tmp_path / "missing.txt")
    with pytest.raises(BadRecordError, match="cannot write"):
        write(record, tmp_path / "no" / "such" / "folder.txt")


# --- the command line -------------------------------------------------------------
def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_writes_a_record_that_replays_to_the_same_position(capsys, tmp_path):
    path = str(tmp_path / "g.txt")
    code, out, _ = run(capsys, "play", "camelot-board", "--moves", "1.F7-F8 F11-F9 2.D7-F7",
                       "--write-record", path, "--tag", "White=Ann")
    assert code == 0
    assert read(path).tag("White") == "Ann"
    code, again, _ = run(capsys, "play", "camelot-board", "--record", path)
    assert code == 0 and again.splitlines()[0] == out.splitlines()[0]  # the position string


def test_cli_record_exit_codes(capsys, tmp_path):
    bad_move = tmp_path / "illegal.txt"
    bad_move.write_text("1.F7-F8 F11-F9 2.F8-F10 *\n")
    code, _, err = run(capsys, "play", "camelot-board", "--record", str(bad_move))
    assert code == 1 and err.startswith("error: move 3 (F8-F10):") and err.count("\n") == 1
    bad_file = tmp_path / "bad.txt"
    bad_file.write_text("1.F7-F8 F11F9\n")
    code, _, err = run(capsys, "play", "camelot-board", "--record", str(bad_file))
    assert code == 2 and "not a move" in err and err.count("\n") == 1
    code, _, err = run(capsys, "play", "clock", "--seed", "1", "--record", str(bad_file))
    assert code == 2 and "camelot-board" in err
    code, _, err = run(capsys, "play", "camelot-board")
    assert code == 2 and "--moves" in err


@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_a_record_is_never_written_over_what_is_not_a_regular_file(tmp_path, kind):
    # A link to a device: were the check missing, os.replace would swap the link
    # (the test stays harmless as root); the writer must refuse before that.
    target = tmp_path / "target"
    if kind == "device":
        target.symlink_to("/dev/null")
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    game = CamelotBoard()
    game.play("F7-F8")
    with pytest.raises(BadRecordError, match="not a regular file"):
        write(from_game(game), target)
    assert target.is_symlink() if kind == "device" else target.exists()
