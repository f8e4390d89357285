"""The terminal client: typed lines → protocol messages, and a session against a server."""
import os
import queue
import subprocess
import sys
import threading
import time

import pytest

from game.server.host import ServerThread
from game.net.terminal import Session, describe

from .helpers import ROOT


def test_typed_lines_become_checked_messages():
    s = Session()
    assert s.to_message("new private 5+3") == {
        "type": "create_table", "private": True, "time": {"base": 300, "increment": 3}}
    assert s.to_message("sit T4 black AB12CD34") == {
        "type": "sit", "table": "T4", "color": "black", "invite": "AB12CD34"}
    assert s.to_message('{"type": "lobby"}') == {"type": "lobby"}
    assert s.to_message("   ") is None
    with pytest.raises(ValueError):
        s.to_message("m F7-F8")                         # no table yet
    s.heard({"type": "seated", "table": "T4", "color": "black", "token": "tok" * 4})
    assert s.to_message("m F10-F9") == {"type": "move", "table": "T4", "token": "tok" * 4,
                                        "move": "F10-F9"}
    assert s.to_message("resign")["type"] == "resign"
    # Ignoring, and a moderator's actions.
    assert s.to_message("ignore Pest") == {"type": "ignore", "name": "Pest"}
    assert s.to_message("mute Pest 30") == {"type": "mod_mute", "name": "Pest", "minutes": 30}
    assert s.to_message("ban Pest spam, twice") == {"type": "mod_ban", "name": "Pest",
                                                    "reason": "spam, twice"}
    assert s.to_message("close T4") == {"type": "mod_close", "table": "T4"}
    assert s.to_message("unban Pest") == {"type": "mod_unban", "name": "Pest"}
    for bad in ("sit T4", "sit", "teleport", "resume T4", "mute Pest", "mute Pest soon", "ban"):
        with pytest.raises(ValueError):
            s.to_message(bad)


def test_describe_shows_a_move_with_its_captures_and_the_board():
    text = describe({"type": "moved", "table": "T1", "ply": 3, "by": "white",
                     "move": "E8xE10", "captures": ["E9"], "clocks": None,
                     "position": "2/8/10/12/12/12/4M7/12/12/12/12/12/12/10/8/2 b 2 2"})
    assert text.startswith("3. white E8xE10 taking E9")
    assert "10 . . . . M . . . . . . ." in text


class Terminal:
    """``python -m game.net.terminal`` as a subprocess, read line by line."""

    def __init__(self, *args: str, **env: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "game.net.terminal", *args],
                                     cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **env},
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        # A thread reads the client's lines into a queue: select() on the pipe would
        # miss a line already read into the file's buffer along with the one before.
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(line) for line in self.proc.stdout],
                         daemon=True).start()

    def read_until(self, fragment: str, seconds: float = 10.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if fragment in line:
                return line
        raise AssertionError(f"no {fragment!r} in time")

    def say(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def quit(self) -> None:
        self.say("quit")
        assert self.proc.wait(10) == 0
        assert "Traceback" not in self.proc.stderr.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


def test_a_terminal_session_creates_a_table_and_sits(tmp_path):
    host = ServerThread(str(tmp_path / "t.sqlite3"))
    host.start()
    terminal = Terminal(host.url, "Tess")
    try:
        assert "a guest" in terminal.read_until("welcome, Tess")
        terminal.say("new")
        terminal.read_until("created T1")
        terminal.say("sit T1 white")
        assert "white at T1" in terminal.read_until("you sit as")
        terminal.say("m F7-F8")
        terminal.read_until("has not started")        # the server's refusal, one line
        terminal.quit()
    finally:
        terminal.kill()
        host.stop()


def test_a_terminal_registers_an_account_with_the_password_from_the_environment(tmp_path):
    host = ServerThread(str(tmp_path / "t.sqlite3"))
    host.start()
    terminal = Terminal(host.url, "Tess", "--register", ROUNDTABLE_PASSWORD="terminal password")
    try:
        assert "signed in" in terminal.read_until("welcome, Tess")
        terminal.say("history tess")
        assert "no rated games; 0 games shown" in terminal.read_until("Tess: ")
        terminal.quit()
    finally:
        terminal.kill()
        host.stop()
