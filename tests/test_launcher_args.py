"""main.py's arguments (scenes/launcher.py): hostile values are one line and
exit 2 before a window opens (issue 11). Each case: the arguments, the line."""
from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scenes.launcher import build_parser, main, read_plainly

SEED = "deal number must be a whole number at least 0 and at most 999999999999999999, not "


@pytest.mark.parametrize("args, line", [
    (["--seed", "①"], SEED + "'①'"),
    (["--game", "clock", "--seed", "١٢٣"], SEED + "'١٢٣'"),
    (["--game", "clock", "--seed", "9" * 5000], SEED + "'999999999999999999999999'…"),
    (["--seed", "3"], "--seed needs --game, --demo or --timedemo (a deal of which game?)"),
    (["--frames", "²"], "--frames must be a whole number at least 1 and at most 1000000, not '²'"),
    (["--frames", "99999999999"],
     "--frames must be a whole number at least 1 and at most 1000000, not '99999999999'"),
    (["--size", "１９２０x1080"], "size must look like 1920x1080, not '１９２０x1080'"),
    (["--size", "9" * 100 + "x1080"], "size must look like 1920x1080, not '999999999999999999999999'…"),
])
def test_hostile_arguments_are_one_line(capsys, args, line):
    assert main(args) == 2
    _, err = capsys.readouterr()
    assert err == f"roundtable: error: {line}\n"


def test_screenshot_targets_that_cannot_be_written(capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [(tmp_path / "missing" / "shot.png", f"--screenshot: there is no folder "),
             (tmp_path, "is a folder, not a file"),
             (fifo, "is not a regular file"),
             (tmp_path / ("x" * 300), "cannot be written: File name too long")]
    for target, words in cases:
        assert main(["--game", "clock", "--frames", "1", "--screenshot", str(target)]) == 2
        _, err = capsys.readouterr()
        assert err.startswith("roundtable: error: ") and words in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]     # nothing left behind


WORDS = ["--game", "--seed", "--size", "--frames", "--screenshot", "--timedemo", "--record",
         "--demo", "--windowed", "--fullscreen", "--timing", "--help", "--gam", "--time", "--",
         "-h", "-x", "clock", "hamilton", "3", "-5", "1920x1080", "", "x.png", "--game=clock",
         "--demo=", "--demo=clock", "--timing=1", "--frames=", "--seed=-2", "a=b"]


@given(st.lists(st.sampled_from(WORDS), max_size=6))
def test_the_plain_reading_is_argparses_wherever_it_answers(argv):
    """read_plainly (start-up: no argparse) either leaves a command line to
    argparse or reads it exactly as argparse does."""
    plain = read_plainly(argv)
    if plain is None:
        return
    assert vars(plain) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize("argv", [
    [], ["--frames", "1", "--timing", "--size", "3840x2160"], ["--game", "clock", "--seed", "3"],
    ["--demo"], ["--demo", "clock", "--windowed"], ["--timedemo=hamilton", "--frames=600"],
    ["--record", "a.camelot"], ["--fullscreen", "--screenshot", "x.png", "--frames", "2"],
])
def test_the_usual_command_lines_are_read_without_argparse(argv):
    assert read_plainly(argv) is not None


@pytest.mark.parametrize("argv", [
    ["--help"], ["--gam", "clock"], ["--game", "a", "--game", "b"], ["--seed", "-5"],
    ["--windowed", "--fullscreen"], ["--game"], ["clock"], ["--demo", "--game", "clock"],
])
def test_the_rest_is_left_to_argparse(argv):
    assert read_plainly(argv) is None
