"""``python -m game serve``: bad arguments are one line, and other commands never load the network."""
import os
import subprocess
import sys

from game.cli import main

from .helpers import ROOT


def test_bad_serve_arguments_are_one_line_and_exit_2(capsys):
    for bad in (["--port", "70000"], ["--port", "x"], ["--port", "８０"], ["--grace", "-1"],
                ["--grace", "nan"]):
        assert main(["serve", *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1 and bad[0] in err


def test_an_unusable_database_is_one_line_and_exit_1(tmp_path, capsys):
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "no" / "such" / "x.db")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("server: cannot open the database") and "Traceback" not in err


def test_the_command_line_does_not_import_websockets_until_serve():
    code = "import sys, game.cli; game.cli.build_parser(); print('websockets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=30)
    assert out.stdout.strip() == "False"
