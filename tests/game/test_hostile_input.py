"""Hostile input (issue 11): every number from outside is read by game.parsing;
bad text is one line naming what was expected, never a traceback, and the
game is left as it was. Each case states the input and the line expected."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.camelot_solitaire import CamelotSolitaire
from game.cards import Card, check_seed, deck_for_seed, deck_text, parse_deck
from game.cli import main
from game.clock import Clock
from game.errors import (BadDeckError, BadNumberError, BadSaveError, BadSeedError,
                         NotationError, RoundTableError)
from game.hamilton import Hamilton
from game.parsing import (MAX_SEED, parse_deal_list, parse_float, parse_int, read_deal_list,
                          read_small_text)

ROOT = Path(__file__).resolve().parents[2]
SEED_LINE = "deal number must be a whole number at least 0 and at most 999999999999999999, not "


# --- the parser ----------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [("7", 7), (" 42\n", 42), ("007", 7), (12, 12)])
def test_parse_int_reads_ascii_digits(text, value):
    assert parse_int(text, "n", 0, 100) == value


@pytest.mark.parametrize("text, shown", [
    ("²", "'²'"), ("③", "'③'"), ("١٢٣", "'١٢٣'"), ("１２", "'１２'"), ("-1", "'-1'"),
    ("1.5", "'1.5'"), ("1_0", "'1_0'"), ("", "''"), ("0x10", "'0x10'"), ("101", "'101'"),
    ("9" * 5000, "'999999999999999999999999'…"), (True, "True"), (None, "a NoneType"),
    (2.0, "2.0"), (b"7", "a bytes"), (101, "101"), ("7\n8", "'7\\n8'"),
])
def test_parse_int_refuses_with_one_line(text, shown):
    with pytest.raises(BadNumberError) as caught:
        parse_int(text, "n", 0, 100)
    assert str(caught.value) == f"n must be a whole number at least 0 and at most 100, not {shown}"
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("3", 3.0), (".25", 0.25), (2, 2.0)])
def test_parse_float_reads_finite_decimals(text, value):
    assert parse_float(text, "s", 0, 10, low_open=True) == value


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "Infinity", "1e3", "1e999", "0", "-1",
                                  "11", "٣", "²", float("nan"), float("inf"), 10**400, True, "1,5"])
def test_parse_float_refuses_what_is_not_finite_or_in_range(text):
    with pytest.raises(BadNumberError, match="^s must be a number more than 0 and at most 10, not "):
        parse_float(text, "s", 0, 10, low_open=True)


# --- deal numbers and decks ------------------------------------------------------------
@pytest.mark.parametrize("seed", ["²", "①", "١٢٣", "-3", "1.5", "abc", "9" * 5000, "", True,
                                  MAX_SEED + 1, -1, 2.0, None, [1]])
def test_a_deal_number_that_is_not_one_is_one_line(seed):
    with pytest.raises(BadSeedError) as caught:
        check_seed(seed)
    assert str(caught.value).startswith(SEED_LINE) and "\n" not in str(caught.value)
    if seed is not None:                          # None means: no deal number given
        with pytest.raises(BadSeedError):
            Clock(seed=seed)


def test_deal_numbers_at_the_ends_of_the_range():
    assert check_seed("0") == 0 and check_seed(f" {MAX_SEED} ") == MAX_SEED
    assert len(deck_for_seed(MAX_SEED)) == 52


@pytest.mark.parametrize("deck, line", [
    ("AS " * 5000, "a deck order is at most 460 characters, this one has 15000"),
    (7, "a deck order is text or a list of cards, not 7"),
    (None, "a deck order is text or a list of cards, not a NoneType"),
    ([1] * 52, "not a card: 1 (expected e.g. AS, 10H, QD)"),
    (["AS"] * 60, "a deck has 52 cards, this one has 60"),
    ("²S " + deck_text(deck_for_seed(1)[1:]), "not a card: '²S' (expected e.g. AS, 10H, QD)"),
    ("1" * 20 + "S " + deck_text(deck_for_seed(1)[1:]),
     "not a card: '11111111111111111111S' (expected e.g. AS, 10H, QD)"),
])
def test_a_deck_that_is_not_one_is_one_line(deck, line):
    with pytest.raises(BadDeckError) as caught:
        parse_deck(deck)
    assert str(caught.value) == line


# --- the numbers inside each game's notation ---------------------------------------------
@pytest.mark.parametrize("game, text, line", [
    (Hamilton(seed=1), "t²>t5", "no pile 't²' in 't²>t5': tableau t0–t6, foundations f0–f3"),
    (Hamilton(seed=1), "t3>t٥", "no pile 't٥' in 't3>t٥': tableau t0–t6, foundations f0–f3"),
    (Hamilton(seed=1), "t3:²>t5",
     "the card count in 't3:²>t5' must be a whole number at least 1 and at most 13, not '²'"),
    (Hamilton(seed=1), "t3:" + "9" * 70 + ">t5", "not a move: 't3:999999999999999999999'… "
                                                  "is over 60 characters"),
    (Hamilton(seed=1), "t3:99>t5",
     "the card count in 't3:99>t5' must be a whole number at least 1 and at most 13, not '99'"),
    (CamelotSolitaire(seed=1), "w>c²", "cannot read Camelot move 'w>c²': write t, w>c5, c3 or c3+c7"),
    (CamelotSolitaire(seed=1), "w>c١٢", "cannot read Camelot move 'w>c١٢': write t, w>c5, c3 or c3+c7"),
    (CamelotSolitaire(seed=1), "c" + "9" * 40, "no cell '999999999999999999999999'… in "
                                               "'c99999999999999999999999'…: they are numbered 0–15"),
    (CamelotSolitaire(seed=1), "c16+c3", "no cell '16' in 'c16+c3': they are numbered 0–15"),
    (Clock(seed=1), "7H-²", "not a Clock pile: '²' (1 … 12 or C)"),
    (Clock(seed=1), "7H-١٢", "not a Clock pile: '١٢' (1 … 12 or C)"),
    (Clock(seed=1), "7H-13", "not a Clock pile: '13' (1 … 12 or C)"),
    (Clock(seed=1), "x" * 10_000, "not a move: 'xxxxxxxxxxxxxxxxxxxxxxxx'… is over 60 characters"),
])
def test_numbers_in_notation_are_read_by_the_one_parser(game, text, line):
    before = game.piles()
    with pytest.raises(NotationError) as caught:
        game.play(text)
    assert str(caught.value) == line
    assert game.piles() == before and game.history == []


# --- saves -------------------------------------------------------------------------------
@pytest.mark.parametrize("data, line", [
    ({"version": True, "game": "clock", "start": {"seed": 1}, "moves": []},
     "save version True is not 1"),
    ({"version": 1.0, "game": "clock", "start": {"seed": 1}, "moves": []},
     "save version 1.0 is not 1"),
    ({"version": 1, "game": "clock", "start": {"seed": "²"}, "moves": []}, "damaged save: " + SEED_LINE),
    ({"version": 1, "game": "clock", "start": {"seed": 1}, "moves": "7H-7"},
     "the moves of a save are a list, not '7H-7'"),
    ({"version": 1, "game": "clock", "start": {"seed": 1}, "moves": [7]},
     "damaged save: not a Clock move: a int"),
    ([], "damaged save: 'list' object has no attribute 'get'"),
])
def test_a_damaged_save_is_one_error(data, line):
    with pytest.raises(BadSaveError) as caught:
        Clock.from_json(data)
    assert str(caught.value).startswith(line)


# --- the winnable-deal cache -------------------------------------------------------------
def test_deal_lists_keep_the_good_numbers():
    assert parse_deal_list("# proven winnable\n3 ²  7\n١٢ -4 9x 11\n" + "9" * 5000 + " 12") == [3, 7, 11, 12]


def test_deal_list_files_that_cannot_be_read_give_nothing(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("\ufeff1 2 3\n", encoding="utf-8")      # a byte-order mark is dropped
    assert read_deal_list(good) == [1, 2, 3]
    assert read_deal_list(tmp_path / "missing.txt") == []
    assert read_deal_list(tmp_path) == []                    # a folder
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert read_deal_list(fifo) == []                       # no writer: must not block
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"1 " * (1 << 20))
    assert read_deal_list(huge) == []
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe1 2")
    assert read_deal_list(binary) == []
    with pytest.raises(BadNumberError, match="is not a regular file"):
        read_small_text(fifo)


# --- the command line ----------------------------------------------------------------------
@pytest.mark.parametrize("args, line", [
    (["moves", "clock", "--seed", "²"], SEED_LINE + "'²'"),
    (["moves", "clock", "--seed", "3", "--deck", "AS"], "give --seed or --deck, not both"),
    (["moves", "camelot-board", "--seed", "abc"],
     "camelot-board takes --position, not --seed (it has no deals)"),
    (["simulate", "camelot-board", "--deals", "2", "--seed", "4"],
     "camelot-board takes no --seed (it has no deals)"),
    (["perft", "--depth", "12"], "argument --depth: --depth must be a whole number at least 0 "
                                 "and at most 4, not '12'"),
    (["simulate", "clock", "--deals", "1000000000"], "argument --deals: --deals must be a whole "
                                                     "number at least 1 and at most 100000, not "
                                                     "'1000000000'"),
    (["simulate", "clock", "--deals", "5", "--seed", str(MAX_SEED)],
     f"deal numbers stop at {MAX_SEED}: start lower or play fewer deals"),
    (["solve", "clock", "--seed", "1", "--max-seconds", "nan"], "argument --max-seconds: "
     "--max-seconds must be a number more than 0.0 and at most 86400, not 'nan'"),
    (["solve", "clock", "--seed", "1", "--max-seconds", "inf"], "argument --max-seconds: "
     "--max-seconds must be a number more than 0.0 and at most 86400, not 'inf'"),
    (["solve", "clock", "--seed", "1", "--max-seconds", "0"], "argument --max-seconds: "
     "--max-seconds must be a number more than 0.0 and at most 86400, not '0'"),
    (["solve", "clock", "--seed", "1", "--max-states", "١٠"], "argument --max-states: "
     "--max-states must be a whole number at least 1 and at most 1000000000, not '١٠'"),
    (["play", "hamilton", "--seed", "1", "--moves", "t " * 200_000],
     "--moves is at most 200000 characters"),
    (["moves", "camelot-board", "--position",
      "²/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2"],
     "rank 16: unexpected '²' (use M N m n or a number)"),
    (["moves", "camelot-board", "--position",
      "2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2 - ²"],
     "the 50-move count must be a whole number at least 0 and at most 100, not '²'"),
    (["moves", "camelot-board", "--position", "x" * 3000], "--position is at most 2000 characters"),
])
def test_bad_command_lines_are_one_line_and_exit_2(capsys, args, line):
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: {line}\n"


def test_play_reports_a_garbage_move_in_one_line(capsys):
    assert main(["play", "hamilton", "--seed", "1", "--moves", "t t²>t5"]) == 1
    out, err = capsys.readouterr()
    assert err == ("error: move 2 (t²>t5): no pile 't²' in 't²>t5': tableau t0–t6, "
                   "foundations f0–f3\n")


def _interrupt(argv: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYTHONPATH": str(ROOT)}
    # As in a terminal: a suite started in the background by a shell without job
    # control inherits SIGINT ignored, and so would the child, which then runs on.
    proc = subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()   # not left running on after the test
        proc.communicate()
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def test_ctrl_c_ends_a_command_quietly():
    done = _interrupt(["-m", "game", "simulate", "hamilton", "--deals", "100000"])
    assert done.returncode == 130 and done.stderr == "" and done.stdout == ""


def test_ctrl_c_ends_the_game_quietly():
    done = _interrupt(["main.py", "--game", "clock", "--frames", "100000", "--size", "640x480"])
    assert done.returncode in (0, 130) and "Traceback" not in done.stderr


def test_main_py_with_a_circled_seed_is_one_line():
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "main.py", "--game", "clock", "--seed", "①"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"roundtable: error: {SEED_LINE}'①'\n"


def test_every_error_is_a_value_error_and_ours():
    assert issubclass(BadNumberError, RoundTableError) and issubclass(BadNumberError, ValueError)
    assert Card.parse("th") == Card(10, "H")


# --- the same slip elsewhere in game/ ------------------------------------------------------
@pytest.mark.parametrize("limits, line", [
    ({"max_seconds": float("nan")}, "a time limit is a finite number of seconds more than 0, not nan"),
    ({"max_seconds": float("inf")}, "a time limit is a finite number of seconds more than 0, not inf"),
    ({"max_seconds": 0}, "a time limit is a finite number of seconds more than 0, not 0"),
    ({"max_seconds": "5"}, "a time limit is a finite number of seconds more than 0, not '5'"),
    ({"max_states": 0}, "a state limit is a whole number at least 1, not 0"),
    ({"max_states": 2.5}, "a state limit is a whole number at least 1, not 2.5"),
])
def test_a_solver_limit_that_would_never_stop_is_refused(limits, line):
    from game.hamilton_solver import solve
    with pytest.raises(BadNumberError) as caught:
        solve(3, **limits)
    assert str(caught.value) == line


@pytest.mark.parametrize("game_id", [["clock"], None, 7, "x" * 100])
def test_a_game_id_that_is_not_text_is_unknown(game_id):
    from game import check_game_id
    from game.errors import UnknownGameError
    from game.solver_common import solver_for
    with pytest.raises(UnknownGameError, match="unknown game|no solver"):
        check_game_id(game_id)
    with pytest.raises(UnknownGameError):
        solver_for(game_id)


@pytest.mark.parametrize("rank, suit", [("7", "H"), (True, "H"), (7.0, "H"), (7, ["H"]), (14, "H")])
def test_a_hand_made_card_that_is_none(rank, suit):
    with pytest.raises(BadDeckError, match="no such card"):
        Card(rank, suit)


# --- board-game records (game/camelot/record.py reads through game.parsing) ------------------
def test_record_files_that_are_no_records(tmp_path):
    from game.camelot.record import BadRecordError, parse, read
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(BadRecordError, match="is not a regular file; it is not a game record"):
        read(fifo)                                    # no writer: must not block
    with pytest.raises(BadRecordError, match="is not a regular file"):
        read(tmp_path)
    for text in ("9" * 5000 + ". F7-F8", "١. F7-F8", "1. F٧-F8"):
        with pytest.raises(BadRecordError):
            parse(text)


def test_a_reader_that_goes_away_ends_the_command_quietly():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "game", "moves", "hamilton", "--seed", "3"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                               # `| head -c 0`
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=30) in (0, 141) and err == b""


# --- second round (issue 20) ------------------------------------------------------------
DEPTH_LINE = "--depth must be a whole number at least 1 and at most 64, not "
SECONDS_LINE = "--seconds must be a number more than 0 and at most 3600, not "


@pytest.mark.parametrize("args, line", [
    (["--depth", "١٢"], f"argument --depth: {DEPTH_LINE}'١٢'"),
    (["--depth", "３"], f"argument --depth: {DEPTH_LINE}'３'"),
    (["--depth", "1_0"], f"argument --depth: {DEPTH_LINE}'1_0'"),
    (["--depth", "9" * 5000], f"argument --depth: {DEPTH_LINE}'{'9' * 24}'…"),
    (["--depth", "65"], f"argument --depth: {DEPTH_LINE}'65'"),
    (["--seconds", "١٢"], f"argument --seconds: {SECONDS_LINE}'١٢'"),
    (["--seconds", "３"], f"argument --seconds: {SECONDS_LINE}'３'"),
    (["--seconds", "1_0"], f"argument --seconds: {SECONDS_LINE}'1_0'"),
    (["--seconds", "1e1"], f"argument --seconds: {SECONDS_LINE}'1e1'"),
    (["--seconds", "9" * 5000], f"argument --seconds: {SECONDS_LINE}'{'9' * 24}'…"),
])
def test_think_reads_its_limits_with_the_one_number_parser(capsys, args, line):
    assert main(["think", "camelot-board", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: {line}\n"


def _engine_answers(*lines: str) -> list[str]:
    import io
    from game.camelot.engine import Engine
    out = io.StringIO()
    engine = Engine(out)
    for line in lines:
        engine.handle(line)
    engine.stop()
    return out.getvalue().splitlines()


@pytest.mark.parametrize("value", ["١٢", "３", "1_0", "9" * 5000, "2.0", "-3", "inf"])
def test_the_engines_go_depth_takes_ascii_digits_only(value):
    shown_value = repr(value) if len(value) <= 24 else repr(value[:24]) + "…"
    assert _engine_answers(f"go depth {value}", "isready") == [
        f"error go depth must be a whole number at least 1 and at most 1000000000, not {shown_value}",
        "readyok"]


@pytest.mark.parametrize("word", ["movetime", "seconds"])
@pytest.mark.parametrize("value", ["١٢", "３", "1_0", "9" * 5000, "nan", "0"])
def test_the_engines_go_times_take_ascii_decimals_only(word, value):
    shown_value = repr(value) if len(value) <= 24 else repr(value[:24]) + "…"
    assert _engine_answers(f"go {word} {value}", "isready") == [
        f"error go {word} must be a number more than 0 and at most 1e+09, not {shown_value}",
        "readyok"]


@pytest.mark.parametrize("value, shown_char", [("Ann\x00", "'\\x00'"), ("\x1b[31mAnn", "'\\x1b'"),
                                              ("A\tB", "'\\t'"), ("A\x85B", "'\\x85'")])
def test_a_control_character_in_a_tag_is_one_line_naming_it(tmp_path, value, shown_char):
    from game.camelot.record import BadRecordError, read
    path = tmp_path / "nul.camelot"
    path.write_text(f'[Event "?"]\n[White "{value}"]\n[Black "Bob"]\n\n1.F7-F8 *\n', encoding="utf-8")
    with pytest.raises(BadRecordError) as caught:
        read(path)
    assert str(caught.value) == f"{path}: line 2: the White tag holds the control character {shown_char}"


def test_play_record_with_a_nul_in_a_tag_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "nul.camelot"
    path.write_text('[White "A\x00nn"]\n\n1.F7-F8 *\n', encoding="utf-8")
    assert main(["play", "camelot-board", "--record", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: {path}: line 1: the White tag holds the control character '\\x00'\n"


def test_a_name_with_control_characters_is_kept_as_a_record_that_reads_back(tmp_path):
    from game.camelot.board import CamelotBoard
    from game.camelot.record import from_game, read, write
    game = CamelotBoard()
    game.play("F7-F8")
    record = from_game(game, White="A\x00nn\x1b", Black="Bob\tthe\nknight")
    write(record, tmp_path / "kept.camelot")
    back = read(tmp_path / "kept.camelot")
    assert (back.tag("White"), back.tag("Black"), back.moves) == ("A nn ", "Bob the knight", ("F7-F8",))
