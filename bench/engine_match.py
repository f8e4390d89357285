"""Playing games between engine versions through the ``engine`` line protocol
(``python -m game engine``, see game/camelot/engine.py), for ``bench/sprt.py``
and ``bench/ladder.py``.

- :func:`extract_tree` unpacks a git commit's ``game/`` (and ``data/``) into a
  temporary folder with ``git archive``: that version runs from there.
- :class:`EngineProcess` starts one version's engine and asks it for moves
  under a :class:`Limit` (nodes, depth or seconds a move). A version whose
  protocol predates ``go nodes`` is run through a small start-up shim that adds
  the node limit to its search's clock check (``NODE_SHIM``), so old and new
  versions stop after the same number of nodes.
- :func:`play_game` referees one game with the working tree's rules from an
  opening (a list of moves from the start). An engine that crashes, answers
  with an illegal move or takes far too long loses the game (said in the result).
- :func:`load_openings` reads the opening suite (``data/camelot-openings.txt``).
"""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.base import Status  # noqa: E402
from game.camelot.board import CamelotBoard  # noqa: E402

OPENINGS = ROOT / "data" / "camelot-openings.txt"
PLY_CAP = 400          # a game this long is scored a draw ("cap")
HANDSHAKE_SECONDS = 60.0
RACE_REFUSAL = "while thinking"   # an old engine's answer to a command sent too soon
RACE_RETRIES = 5

# Run in an old version's folder when its protocol has no ``go nodes``: the
# limit (an environment variable) is added to its search's clock check.
# (The old module names are built from parts, so that moving this version's
# modules into a package leaves them alone.)
NODE_SHIM = """
import importlib, os, sys
sys.path.insert(0, os.getcwd())
s = importlib.import_module("game." + "camelot_search")
limit = int(os.environ["CAMELOT_NODE_LIMIT"])
check = s.Search._check
def _check(self):
    if self.nodes >= limit:
        raise s.SearchTimeout
    check(self)
s.Search._check = _check
sys.exit(importlib.import_module("game." + "camelot_engine").run())
"""


class EngineFailure(Exception):
    """An engine died, said ``error``, or did not answer in time."""


@dataclass(frozen=True)
class Limit:
    """How long an engine thinks a move: ``nodes``, ``depth`` or ``seconds``."""

    nodes: int | None = None
    depth: int | None = None
    seconds: float | None = None

    def go(self, native_nodes: bool, extra: str = "") -> str:
        """The go line; ``extra`` words come last, so they override the limit's
        (the protocol reads the last value given)."""
        words = ["go"]
        if self.nodes is not None:
            words += ["nodes", str(self.nodes)] if native_nodes else ["depth", "64"]
        if self.depth is not None:
            words += ["depth", str(self.depth)]
        if self.seconds is not None:
            words += ["movetime", str(max(1, round(self.seconds * 1000)))]
        return " ".join(words + extra.split())

    def answer_seconds(self) -> float:
        """How long to wait for a move before the engine is called stuck."""
        if self.seconds is not None:
            return self.seconds * 5 + 10
        return 300.0

    def __str__(self) -> str:
        parts = []
        if self.nodes is not None:
            parts.append(f"{self.nodes} nodes")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " + ".join(parts) + " a move"


def extract_tree(commit: str, into: Path | None = None) -> Path:
    """The ``game`` (and ``data``) folders of ``commit`` unpacked into a new
    temporary folder (or ``into``); raises EngineFailure for an unknown commit."""
    target = Path(into or tempfile.mkdtemp(prefix=f"camelot-{commit[:10]}-"))
    have = subprocess.run(["git", "ls-tree", "--name-only", commit], cwd=ROOT,
                          capture_output=True, text=True)
    if have.returncode != 0:
        raise EngineFailure(f"unknown commit {commit!r}: {have.stderr.strip()}")
    folders = [name for name in ("game", "data") if name in have.stdout.split()]
    archive = target / "tree.tar"
    with open(archive, "wb") as out:
        subprocess.run(["git", "archive", "--format=tar", commit, *folders], cwd=ROOT,
                       stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    archive.unlink()
    return target


def commit_name(commit: str) -> str:
    """A commit as its short hash (HEAD names a different commit tomorrow)."""
    found = subprocess.run(["git", "rev-parse", "--short", commit], cwd=ROOT,
                           capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else commit


def knows_nodes(tree: Path) -> bool:
    """Whether that version's protocol takes ``go nodes N``."""
    for place in (("camelot_engine.py",), ("camelot", "engine.py")):   # before/after the package
        path = tree.joinpath("game", *place)
        if path.exists():
            return '"nodes"' in path.read_text(encoding="utf-8")
    return False


class EngineProcess:
    """One engine version thinking in its own process (its folder ``tree``)."""

    def __init__(self, tree: Path, limit: Limit, extra: str = "") -> None:
        self.limit = limit
        self.extra = extra    # more words for every go (``threads 2``)
        self.native = knows_nodes(tree)
        env = dict(os.environ)
        if limit.nodes is not None and not self.native:
            env["CAMELOT_NODE_LIMIT"] = str(limit.nodes)
            command = [sys.executable, "-c", NODE_SHIM]
        else:
            command = [sys.executable, "-m", "game", "engine"]
        self.proc = subprocess.Popen(command, cwd=tree, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        # A thread reads its output into a queue (a buffered pipe and select
        # do not mix: select cannot see lines already read into the buffer).
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()
        self.send("camelot")
        self._read_until("camelotok", HANDSHAKE_SECONDS)

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise EngineFailure(f"the engine has gone ({exc})") from None

    def _reader(self) -> None:
        try:
            for line in self.proc.stdout:
                self._lines.put(line.strip())
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _line(self, deadline: float) -> str:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineFailure("no answer in time") from None
        if line is None:
            self._lines.put(None)
            raise EngineFailure("the engine has gone (end of its output)")
        return line

    def _read_until(self, word: str, seconds: float, refused: str | None = None) -> list[str]:
        """The lines up to one starting with ``word``; an ``error`` line fails,
        except one containing ``refused``, noted: the answer is then empty."""
        deadline = time.monotonic() + seconds
        lines = []
        seen_refusal = False
        while True:
            line = self._line(deadline)
            if refused is not None and line.startswith("error") and refused in line:
                seen_refusal = True
                continue
            if line.startswith("error"):
                raise EngineFailure(line)
            lines.append(line)
            if line.split()[:1] == [word]:
                return [] if seen_refusal else lines

    def best_move(self, moves: list[str]) -> tuple[str, dict]:
        """Its move after ``moves`` from the start, and what its last ``info``
        line said (depth, score, nodes)."""
        return self.answer("position start" + (" moves " + " ".join(moves) if moves else ""))

    def answer(self, position: str) -> tuple[str, dict]:
        """Its move in ``position`` (a protocol ``position …`` line) and what its
        last ``info`` line said (depth, score, nodes, its own time in ms)."""
        self.send(position)
        self.send("isready")
        for _ in range(RACE_RETRIES):
            # A version older than the protocol's fix may refuse a position sent
            # the moment it answered (its thinking thread not yet ended): again.
            if self._read_until("readyok", HANDSHAKE_SECONDS, refused=RACE_REFUSAL):
                break
            time.sleep(0.02)
            self.send(position)
            self.send("isready")
        self.send(self.limit.go(self.native, self.extra))
        lines = self._read_until("bestmove", self.limit.answer_seconds())
        info = {}
        for line in lines:
            words = line.split()
            if words[:1] == ["info"] and "depth" in words:
                info = {name: int(words[words.index(name) + 1])
                        for name in ("depth", "nodes", "time") if name in words}
        return lines[-1].split()[1], info

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(10)
        except (EngineFailure, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            try:
                self.proc.stdin.close()
            except OSError:
                pass


@dataclass(frozen=True)
class GameResult:
    """One game: ``white_points`` (1, ½, 0), plies played, why it ended."""

    white_points: float
    plies: int
    reason: str
    moves: tuple[str, ...]


def play_game(white, black, opening: list[str], cap: int = PLY_CAP) -> GameResult:
    """A game from ``opening`` between two players, each an object with
    ``best_move(moves) -> (text, info)`` (an :class:`EngineProcess` or any other
    player). A failing player loses."""
    game = CamelotBoard()
    for text in opening:
        game.play(text)
    players = {"white": white, "black": black}
    while game.status is Status.PLAYING:
        if len(game.history) >= cap:
            return GameResult(0.5, len(game.history), f"ply cap {cap}", tuple(game.history))
        side = game.turn
        try:
            text, _ = players[side].best_move(list(game.history))
            game.play(text)
        except Exception as exc:  # any failure of a player costs it the game
            points = 0.0 if side == "white" else 1.0
            return GameResult(points, len(game.history), f"{side} failed: {exc}",
                              tuple(game.history))
    if game.status is Status.DRAW:
        points = 0.5
    else:
        points = 1.0 if game.winner == "white" else 0.0
    return GameResult(points, len(game.history), game.status_reason or "", tuple(game.history))


def move_of_key(game: CamelotBoard, key: tuple):
    """The board's legal move with the search's key ``(from, to, captured)``."""
    return next(m for m in game.legal_moves() if (m.from_square, m.to_square, m.captured) == key)


def load_openings(path: Path = OPENINGS) -> list[list[str]]:
    """The opening suite: one opening a line (moves from the start, WCF
    notation), ``#`` starts a comment; each opening is checked legal."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        moves = line.split("#", 1)[0].split()
        if not moves:
            continue
        game = CamelotBoard()
        try:
            for text in moves:
                game.play(text)
        except Exception as exc:
            raise ValueError(f"{path.name} line {number}: {exc}") from None
        out.append(moves)
    return out


def random_start(rng, low: int, high: int) -> CamelotBoard | None:
    """A game ``low``-``high`` random legal plies from the start, drawn from
    ``rng``; None where those plies ended it."""
    game = CamelotBoard()
    for _ in range(rng.randint(low, high)):
        game.play(rng.choice(game.legal_moves()))
        if game.status is not Status.PLAYING:
            return None
    return game


def write_lines(path, header: str, lines: list[str]) -> None:
    """A generated data file: written whole beside it, then renamed into place."""
    out = Path(path)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(out)


def load_average() -> str:
    """The machine's load (1, 5, 15 minutes), to print beside every figure."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load unknown"
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


__all__ = ["EngineFailure", "EngineProcess", "GameResult", "Limit", "commit_name", "extract_tree",
           "knows_nodes", "load_average", "load_openings", "play_game", "random_start",
           "write_lines", "PLY_CAP"]
