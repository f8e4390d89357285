"""The drivable board-game engine: ``python -m game think`` and the line protocol
of ``python -m game engine`` (run as a subprocess, every wait bounded)."""
from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.camelot.board import CamelotBoard
from game.camelot.engine import Engine
from game.cli import main

ROOT = Path(__file__).resolve().parents[2]
WIN_IN_ONE = "2/8/10/12/12/12/12/12/12/L/12/12/10/8/2 w 2 2"


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_think_json_gives_a_legal_move_with_score_depth_nodes_and_pv(capsys):
    code, out, _ = run(capsys, "think", "camelot-board", "--depth", "2", "--no-book", "--json")
    assert code == 0
    answer = json.loads(out)
    assert {"move", "score", "depth", "nodes", "pv"} <= set(answer)
    assert answer["source"] == "search"
    game = CamelotBoard()
    assert answer["move"] in {str(m) for m in game.legal_moves()}
    assert answer["depth"] == 2 and answer["nodes"] > 0 and answer["pv"][0] == answer["move"]
    for text in answer["pv"]:          # the principal variation is a playable line
        game.play(text)


def test_think_plays_the_book_move_at_the_start_and_says_so(capsys):
    from game.camelot.book import shared
    entry = shared().entries[" ".join(CamelotBoard().position_text().split()[:4])]
    code, out, _ = run(capsys, "think", "camelot-board", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["source"] == "book" and answer["move"] == entry.move
    assert answer["depth"] == 0 and answer["nodes"] == 0
    out = talk("position start", "go movetime 300")
    assert out[-2:] == ["info string book", f"bestmove {entry.move}"]
    out = talk("position start", "go movetime 300 nobook")
    assert out[0].startswith("info depth 1 ") and "book" not in " ".join(out)
    out = talk("position start", "go depth 1")      # a search of a set depth: no book
    assert out[0].startswith("info depth 1 ") and "book" not in " ".join(out)


def test_think_finds_the_castle_win_in_one(capsys):
    # White holds G16; E15 steps into F16 and wins.
    position = CamelotBoard.from_position
    from game.camelot.board import position_from_pieces
    text = position_from_pieces({"G16": "M", "E15": "M", "A4": "M", "K10": "m", "L10": "m"})
    code, out, _ = run(capsys, "think", "camelot-board", "--position", text, "--seconds", "0.3",
                       "--json")
    answer = json.loads(out)
    game = position(text)
    game.play(answer["move"])
    assert code == 0 and game.winner == "white"


@pytest.mark.parametrize("args, words", [
    (["think", "clock"], "camelot-board"),
    (["think", "camelot-board", "--position", "nonsense"], "position string"),
    (["think", "camelot-board", "--depth", "0"], "at least 1 and at most 64"),
    (["think", "camelot-board", "--seconds", "-1"], "more than 0"),
    (["think", "camelot-board", "--level", "grandmaster"], "unknown level"),
    (["think", "camelot-board", "--depth", "2", "--seconds", "1"], "not allowed with"),
])
def test_think_bad_input_is_one_line_exit_2(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


# --- the protocol, in process (fast) -------------------------------------------------
def talk(*lines: str) -> list[str]:
    out = io.StringIO()
    engine = Engine(out)
    for line in lines:
        if not engine.handle(line):
            break
        if line.startswith("go"):
            engine.wait(timeout=30)
    engine.stop()
    return out.getvalue().splitlines()


class _SlowAnswer(io.StringIO):
    """Output whose "bestmove" line is held a moment: the thinking thread is
    still alive after writing it, as it may be for a moment in a real run."""

    def __init__(self) -> None:
        super().__init__()
        self.answered = threading.Event()
        self.release = threading.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        if text.startswith("bestmove"):
            self.answered.set()
            self.release.wait(2)
        return written


def test_the_next_command_is_taken_as_soon_as_bestmove_is_sent():
    # A client sends its next command when it reads bestmove; the thread that
    # wrote it may not have ended yet. It once answered "error 'position' while
    # thinking", which lost a match game.
    out = _SlowAnswer()
    engine = Engine(out)
    engine.handle("go depth 1")
    assert out.answered.wait(30)
    engine.handle("position start moves F7-F8")
    engine.handle("show")
    out.release.set()
    engine.handle("go depth 1")   # waits for the answered search to end, then thinks
    engine.wait(timeout=30)
    engine.stop()
    lines = out.getvalue().splitlines()
    assert not [line for line in lines if line.startswith("error")]
    game = CamelotBoard()
    game.play("F7-F8")
    assert f"position {game.position_text()}" in lines
    assert [line for line in lines if line.startswith("bestmove")][1].split()[1] in {
        str(m) for m in game.legal_moves()}


def test_the_handshake_opens_the_tablebase_before_camelotok(monkeypatch, tmp_path):
    from game.camelot import tablebase
    monkeypatch.setattr(tablebase, "_shared", None)
    monkeypatch.setenv("ROUNDTABLE_TABLEBASE", str(tmp_path))   # none built there
    assert talk("camelot")[-1] == "camelotok"
    # Opened (and found missing) before the answer, not during the first move.
    assert tablebase._shared is not None and not tablebase._shared.available


def test_protocol_position_go_and_show():
    out = talk("camelot", "isready", "position start moves F7-F8 F11-F9", "show",
               "go depth 2")
    assert out[:4] == ["id name Round Table Camelot engine", "id author the Round Table project",
                       "option levels easy medium hard expert", "camelotok"]
    assert out[4] == "readyok"
    game = CamelotBoard()
    game.play("F7-F8")
    game.play("F11-F9")
    assert out[5] == f"position {game.position_text()}"
    infos = [line for line in out if line.startswith("info depth")]
    assert [line.split()[2] for line in infos] == ["1", "2"]
    best = out[-1].split()
    assert best[0] == "bestmove" and best[1] in {str(m) for m in game.legal_moves()}


def test_protocol_go_nodes_stops_after_that_many_nodes_and_answers_the_same_each_time():
    first = talk("position start moves F7-F8 F11-F9", "go nodes 1500")
    again = talk("position start moves F7-F8 F11-F9", "go nodes 1500")
    infos = [line.split() for line in first if line.startswith("info depth")]
    assert infos and all(int(words[words.index("nodes") + 1]) <= 1500 for words in infos)
    assert first[-1].startswith("bestmove ")
    # The same nodes, the same move and depths whatever the clock did (no time limit).
    strip = [line.split(" nps ")[0] for line in first]
    assert strip == [line.split(" nps ")[0] for line in again]
    # A search that could go on (no depth given) stopped for the node limit.
    deeper = talk("position start moves F7-F8 F11-F9", "go nodes 6000")
    assert len([line for line in deeper if line.startswith("info depth")]) > len(infos)


@pytest.mark.parametrize("line, words", [
    ("bogus", "unknown command"),
    ("position", "position start"),
    ("position start moves F7-F9", "move 1 (F7-F9)"),
    ("position fen 2/8 w", "position string"),
    ("go depth x", "whole number"),
    ("go depth 0", "at least 1"),
    ("go nodes 2.5", "whole number"),
    ("go movetime", "needs a value"),
    ("go level grandmaster", "unknown level"),
    ("go sideways 3", "unknown option"),
    ("x" * 30_000, "longer than"),
])
def test_protocol_bad_input_is_one_error_line_and_the_engine_goes_on(line, words):
    out = talk("position start moves F7-F8", line, "isready", "show")
    errors = [o for o in out if o.startswith("error")]
    assert len(errors) == 1 and words in errors[0]
    assert out[-4] == "readyok"
    game = CamelotBoard()
    game.play("F7-F8")            # a refused command changed nothing
    assert out[-3] == f"position {game.position_text()}"


def test_protocol_game_over_answers_bestmove_none():
    out = talk(f"position fen {CamelotBoard().position_text()} moves F7-F8", "go depth 1")
    assert out[-1].startswith("bestmove ")
    from game.camelot.board import position_from_pieces
    won = position_from_pieces({"F16": "M", "G16": "M", "A4": "M", "K10": "m", "L10": "m"},
                               "black")
    out = talk(f"position fen {won}", "go depth 2")
    assert out[-1] == "bestmove none" and out[-2].startswith("info string no legal move")


# --- the real process: stdin/stdout, stop, quit ---------------------------------------------
def test_engine_process_stops_on_stop_and_exits_on_quit():
    proc = subprocess.Popen([sys.executable, "-m", "game", "engine"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x.rstrip("\n")) for x in proc.stdout],
                     daemon=True).start()

    def expect(prefix: str, timeout: float = 20.0) -> str:
        while True:
            line = lines.get(timeout=timeout)
            if line.startswith(prefix):
                return line

    try:
        proc.stdin.write("camelot\n")
        proc.stdin.flush()
        expect("camelotok")
        proc.stdin.write("position start\ngo infinite\n")
        proc.stdin.flush()
        expect("info depth 1")
        proc.stdin.write("isready\n")          # answered while thinking
        proc.stdin.flush()
        expect("readyok")
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        move = expect("bestmove").split()[1]
        assert move in {str(m) for m in CamelotBoard().legal_moves()}
        proc.stdin.write("nonsense here\nquit\n")
        proc.stdin.flush()
        assert expect("error").startswith("error unknown command")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)
