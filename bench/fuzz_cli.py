"""Hostile command lines against ``python -m game`` and ``main.py`` (issue 11).

    python bench/fuzz_cli.py [--game-lines 450] [--main-lines 100] [--jobs 2]
                             [--seed 1] [--timeout 10] [--show 5]

Generates command lines a hostile user would type — digits of other scripts
("²", "①", "١٢٣"), huge numbers, nan and inf, conflicting or inapplicable
arguments, garbage moves, arguments that are not UTF-8, very long text, and for the
file arguments (``--record``, ``--write-record``, ``--screenshot``) missing
files and folders, a folder, a FIFO, devices, a file too big, not UTF-8 or
full of 5,000-digit numbers, a name too long — runs each (main.py with SDL's dummy drivers and
``--frames 1``, every process in a fresh empty home folder so no real settings
are read or written), and sorts how each ended:

* ok        exit 0
* one line  a non-zero exit with exactly one line on stderr
* traceback a Python traceback on stderr
* hang      still running after ``--timeout`` seconds (then killed)
* other     anything else (several lines, killed by a signal …)

The target is 0 tracebacks and 0 hangs. Prints the counts and, for each kind
that is not ok or one line, the first few command lines.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATIENCE = ["camelot-solitaire", "hamilton", "clock"]
GAMES = PATIENCE + ["camelot-board"]

# Numbers as a hostile user writes them.
BAD_NUMBERS = ["²", "①", "١٢٣", "９", "߃", "Ⅻ", "-1", "-0", "1e9", "1E400", "nan", "NaN", "inf",
               "-inf", "Infinity", "0x10", "1_000", "", " ", "1.5", "3,5", "+3", "9" * 5000,
               "9" * 25, "10" + "0" * 20, "٣.٥", "0.0000", "1 2", "\t7", "7\n", "✓", "null",
               "true", "[]", "{}", "%s%n", "../../etc/passwd", "\u202e12", "1\u200b"]
GOOD_NUMBERS = ["0", "1", "3", "42", "007"]
GARBAGE_MOVES = ["t²>t5", "t3:²>t5", "t3:99999999999999999999>t5", "w>c١٢", "c²+c3", "7H-²",
                 "7H-١٢", "KS-13", "E٩-E8", "E²-E8", "E9-E8" + "-E8" * 300, "x" * 10_000,
                 "t t t t t", "ch>f9", "f0>f0", "1.", "1.E9-E8 ²...", "\u0000"[:0] + "t\u00a0d",
                 "ï»¿t", "🂡", "t>" * 40, "c0+c0", "tableau:99>foundation:1", "%(x)s", "{t}"]
DECKS = ["AS", "AS " * 52, "AS " * 30_000, "²S " * 52, "10H,JH,QH", "🂡 " * 52,
         " ".join(["AS", "2S"] * 26), "x" * 120_000]
POSITIONS = ["²/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2",
             "9" * 5000 + "/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2",
             "2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 2 2 - ²",
             "2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 w 9 9",
             "x", "/" * 5000, "2/8/10/12/12/12/12/12/12/12/12/12/12/10/8/2 w 2 2"]
NOT_UTF8 = [b"\xff", b"\xc3\x28", b"--seed=\xfe", b"\xed\xa0\x80"]


def pick(rng: random.Random, *pools):
    return rng.choice(rng.choice(pools))


def file_targets(scratch: Path) -> list[Path]:
    """Files a hostile user names: missing, a folder, a FIFO, devices, too big,
    not UTF-8, numbers of 5,000 digits or of other scripts, a name too long."""
    return [scratch / "missing.txt", scratch / "no-folder" / "x.txt", scratch, scratch / "fifo",
            scratch / "zero", scratch / "null", scratch / "full", scratch / "big.txt",
            scratch / "binary.txt", scratch / "digits.txt", scratch / "unicode.txt",
            scratch / ("x" * 300)]


def make_files(scratch: Path) -> None:
    os.mkfifo(scratch / "fifo")
    # Devices only through links in the scratch folder: a write that replaces its
    # target then replaces the link, never the device itself (we may run as root).
    for name in ("zero", "null", "full"):
        (scratch / name).symlink_to(f"/dev/{name}")
    (scratch / "big.txt").write_bytes(b"1. E6-E7 " * 300_000)
    (scratch / "binary.txt").write_bytes(b"\xff\xfe\x00" * 100)
    (scratch / "digits.txt").write_text("9" * 5000 + ". F7-F8\n", encoding="utf-8")
    (scratch / "unicode.txt").write_text("١. F7-F8 ². F11-F9\n", encoding="utf-8")


def game_line(rng: random.Random, scratch: Path) -> list:
    """One hostile command line for ``python -m game``."""
    kind = rng.randrange(10)
    game = rng.choice(GAMES + ["nope", "CLOCK", "", "²"])
    if kind == 0:
        args = ["moves", game, "--seed", pick(rng, BAD_NUMBERS, GOOD_NUMBERS)]
    elif kind == 1:                                   # conflicting or inapplicable arguments
        args = ["moves", game] + rng.sample(
            ["--seed", "3", "--deck", "AS", "--position", "x", "--json", "--moves", "t"],
            k=rng.randrange(1, 6))
    elif kind == 2:
        args = ["play", rng.choice(GAMES), "--seed", pick(rng, GOOD_NUMBERS, BAD_NUMBERS),
                "--moves", " ".join(rng.choice(GARBAGE_MOVES) for _ in range(rng.randrange(1, 4)))]
    elif kind == 3:
        args = ["perft", "--depth", pick(rng, BAD_NUMBERS, ["12", "5", "100", "-3", "0", "1"])]
        if rng.random() < 0.4:
            args += ["--position", rng.choice(POSITIONS)]
    elif kind == 4:
        args = ["simulate", game, "--deals", pick(rng, BAD_NUMBERS, ["1000000000", "100001", "0"])]
        if rng.random() < 0.5:
            args += ["--seed", pick(rng, BAD_NUMBERS, ["999999999999999999"])]
    elif kind == 5:
        args = ["solve", rng.choice(PATIENCE + ["camelot-board", "x"]),
                "--seed", pick(rng, GOOD_NUMBERS, BAD_NUMBERS),
                rng.choice(["--max-seconds", "--max-states"]), pick(rng, BAD_NUMBERS)]
    elif kind == 6:
        args = ["moves", rng.choice(PATIENCE), "--deck", rng.choice(DECKS)]
    elif kind == 7:
        args = ["moves", "camelot-board", "--position", rng.choice(POSITIONS)]
    elif kind == 8:                                   # the file arguments
        target = str(rng.choice(file_targets(scratch)))
        if rng.random() < 0.6:
            args = ["play", rng.choice(["camelot-board"] * 3 + GAMES), "--record", target]
        else:
            args = ["play", "camelot-board", "--moves", "F7-F8", "--write-record", target]
    else:                                             # bytes that are not UTF-8, odd options
        args = [rng.choice(["moves", "play", "games", "solve", "--help", "-h", "--"]),
                rng.choice(NOT_UTF8), rng.choice(["--json", "--seed", "-", "--=", "---x"])]
    return [sys.executable, "-m", "game", *args]


def main_line(rng: random.Random, scratch: Path) -> list:
    """One hostile command line for ``main.py`` (always ``--frames 1`` unless the
    frames themselves are the hostile part)."""
    kind = rng.randrange(7)
    frames = ["--frames", "1"]
    if kind == 0:
        args = ["--game", rng.choice(GAMES), "--seed", pick(rng, BAD_NUMBERS, GOOD_NUMBERS)]
    elif kind == 1:
        args = ["--game", rng.choice(GAMES + ["nope", "²", ""])]
    elif kind == 2:                                   # the frames and the size
        frames = []
        args = ["--game", "clock", "--frames", pick(rng, BAD_NUMBERS, ["0", "99999999999"]),
                "--size", pick(rng, ["1920x1080", "１９２０x1080", "0x0", "99999x99999", "²x²",
                                     "1e3x1e3", "x", "640x480x2", "-640x480", "nanxinf"])]
    elif kind == 3:                                   # the file argument
        target = rng.choice([scratch / "missing" / "shot.png", scratch, scratch / "fifo",
                             scratch / "null", Path("/proc/self/status"), scratch / ("x" * 300),
                             "", scratch / "shot.png"])
        args = ["--game", "clock", "--size", "640x480", "--screenshot", str(target)]
    elif kind == 4:                                   # conflicting arguments
        args = rng.sample(["--windowed", "--fullscreen", "--demo", "--timedemo", "clock",
                           "--seed", "1", "--screenshot", "x.png", "--timing"],
                          k=rng.randrange(1, 6))
    elif kind == 5:
        args = ["--demo", rng.choice(GAMES + ["", "nope"]), "--seed", pick(rng, BAD_NUMBERS)]
    else:
        args = [rng.choice(NOT_UTF8), "--game", rng.choice(GAMES)]
    return [sys.executable, str(ROOT / "main.py"), *args, *frames]


def run(argv: list, timeout: float) -> tuple[str, str]:
    """Run one command line in a fresh empty home; (kind, stderr's last line)."""
    home = tempfile.mkdtemp(prefix="fuzz-home-")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "SDL_"))}
    env.update(HOME=home, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home, XDG_STATE_HOME=home,
               XDG_CACHE_HOME=home, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT), PYGAME_HIDE_SUPPORT_PROMPT="1")
    try:
        # Run in the throwaway home: a relative --screenshot lands there, not in the repo.
        proc = subprocess.Popen(argv, cwd=home, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)               # our own child's process group only
            proc.communicate()
            return "hang", ""
    finally:
        shutil.rmtree(home, ignore_errors=True)
    text = err.decode("utf-8", "replace")
    lines = text.splitlines()
    if "Traceback (most recent call last)" in text:
        return "traceback", lines[-1] if lines else ""
    if proc.returncode == 0:
        return "ok", ""
    if proc.returncode > 0 and len(lines) == 1:
        return "one line", lines[0]
    return "other", f"exit {proc.returncode}: " + " | ".join(lines[-3:])


def shown(argv: list) -> str:
    parts = []
    for a in argv[1:]:
        a = a.decode("utf-8", "backslashreplace") if isinstance(a, bytes) else str(a)
        parts.append(repr(a[:60] + ("…" if len(a) > 60 else "")))
    return " ".join(parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game-lines", type=int, default=450)
    ap.add_argument("--main-lines", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--show", type=int, default=5, help="command lines shown per bad kind")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    scratch = Path(tempfile.mkdtemp(prefix="fuzz-cli-"))
    make_files(scratch)
    lines = [game_line(rng, scratch) for _ in range(args.game_lines)]
    lines += [main_line(rng, scratch) for _ in range(args.main_lines)]
    started = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda argv: run(argv, args.timeout), lines))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.perf_counter() - started
    counts: dict[str, int] = {}
    for kind, _ in results:
        counts[kind] = counts.get(kind, 0) + 1
    print(f"{len(lines)} hostile command lines ({args.game_lines} python -m game, "
          f"{args.main_lines} main.py) in {seconds:.1f} s with {args.jobs} jobs:")
    for kind in ("ok", "one line", "traceback", "hang", "other"):
        print(f"  {kind:<10} {counts.get(kind, 0)}")
    for kind in ("traceback", "hang", "other"):
        bad = [(argv, last) for argv, (k, last) in zip(lines, results) if k == kind]
        for argv, last in bad[:args.show]:
            print(f"  {kind}: {shown(argv)}\n      {last}")
    return 1 if counts.get("traceback") or counts.get("hang") else 0


if __name__ == "__main__":
    sys.exit(main())
