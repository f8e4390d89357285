"""Hostile kept files against the real start of ``main.py`` (issue 11).

    python bench/hostile_files.py [--jobs 2] [--timeout 30] [--show 5]

For each kept file (settings, statistics, the save) and each hostile content —
nested 2,000 deep, NaN, Infinity, 1e999, a 4,000-digit number, a version of
``true``, bytes that are not UTF-8, cut short, over the size limit, values
outside the schema, a save that does not fit its game, a FIFO, ``/dev/zero``, a
folder — the two other files are written good, the hostile one put in place,
and ``main.py --frames 30`` started in that home (SDL's dummy drivers). Also: a
home that cannot be entered, is a FIFO or has a name too long, and old temp
files of an interrupted write. Each
run is sorted:

* one line   exit 0, exactly one ``roundtable:`` line on stderr, the file kept
             aside (``*.bad-*``) and the two good files still in place
* accepted   exit 0, nothing said, the file still in place: right for a BOM only
             (any other hostile file is "silently accepted", a failure)
* traceback  a Python traceback on stderr
* hang       still running after ``--timeout`` seconds (then killed)
* other      anything else

Target: every hostile file "one line", 0 tracebacks, 0 hangs.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FILES = {"settings": "settings.json", "stats": "stats.json", "save": "save.json"}


def good(kind: str) -> dict:
    from game import game_class
    if kind == "settings":
        return {"version": 1, "fullscreen": False, "animation_speed": "slow", "sound": False}
    if kind == "stats":
        return {"version": 1, "games": {"clock": {"played": 1, "won": 1, "current_streak": 1,
                                                  "best_streak": 1, "total_time": 60.0,
                                                  "history": [{"date": 1, "won": True, "seconds": 60.0}]}}}
    game = game_class("clock")(seed=3)
    game.play(game.computer_move())
    return {"version": 1, "game_id": "clock", "seed": 3, "seconds": 5.0, "engine": game.to_json(),
            "extra": {}}


def with_field(kind: str, **changes) -> bytes:
    data = good(kind)
    data.update(changes)
    return json.dumps(data).encode()


def contents(kind: str) -> dict[str, object]:
    """name → bytes, or one of "fifo", "/dev/zero", "folder"."""
    out: dict[str, object] = {
        "nested 2,000 deep": b"[" * 2000 + b"]" * 2000,
        "NaN": b'{"version": 1, "x": NaN}',
        "Infinity": b'{"version": 1, "x": Infinity}',
        "1e999": b'{"version": 1, "x": 1e999}',
        "4,000-digit number": b'{"version": 1, "x": ' + b"9" * 4000 + b"}",
        "version true": b'{"version": true}',
        "not UTF-8": b'{"version": 1, "x": "\xff"}',
        "cut short": b'{"version": 1, "x": [',
        "over the size limit": b'{"version": 1, "x": "' + b"a" * (3 << 20) + b'"}',
        "fifo": "fifo", "/dev/zero": "/dev/zero", "folder": "folder",
        "BOM (accepted)": b"\xef\xbb\xbf" + json.dumps(good(kind)).encode(),
    }
    if kind == "settings":
        out["volume 1e308"] = with_field(kind, volume=1e308)
        out["sound 1"] = with_field(kind, sound=1)
    elif kind == "stats":
        out["won > played"] = json.dumps({"version": 1, "games": {"clock": {"played": 1, "won": 2}}}).encode()
        out["total_time 1e300"] = json.dumps({"version": 1, "games": {"clock": {"total_time": 1e300}}}).encode()
    else:
        out["board game's players on Clock"] = with_field(
            kind, extra={"mode": "computer", "human": "black", "level": "hard"})
        out["seconds 1e300"] = with_field(kind, seconds=1e300)
    return out


def place(home: Path, kind: str, content) -> Path:
    for other, name in FILES.items():
        if other != kind:
            (home / name).write_text(json.dumps(good(other)))
    path = home / FILES[kind]
    if content == "fifo":
        os.mkfifo(path)
    elif content == "/dev/zero":
        path.symlink_to("/dev/zero")
    elif content == "folder":
        path.mkdir()
    else:
        path.write_bytes(content)
    return path


def run(home: Path, timeout: float) -> tuple[int | None, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", ROUNDTABLE_HOME=str(home),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    try:
        proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "--frames", "30"], cwd=ROOT, env=env,
                              capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, ""
    return proc.returncode, proc.stderr


def sort(code, err: str, home: Path, kind: str | None, accept: bool = False) -> str:
    if code is None:
        return "hang"
    if "Traceback" in err:
        return "traceback"
    said = [line for line in err.splitlines() if line.strip()]
    if code != 0:
        return "other"
    if kind is None:        # a special home: one line, and the game ran
        return "one line" if len(said) == 1 and said[0].startswith("roundtable:") else "other"
    others_in_place = all((home / name).is_file() for other, name in FILES.items() if other != kind)
    if not said and os.path.lexists(home / FILES[kind]) and others_in_place:
        return "accepted" if accept else "silently accepted"
    kept = list(home.glob(FILES[kind] + ".bad-*"))
    if len(said) == 1 and said[0].startswith("roundtable:") and len(kept) == 1 and others_in_place:
        return "one line"
    return "other"


def case(kind: str, name: str, content, timeout: float) -> tuple[str, str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        place(home, kind, content)
        code, err = run(home, timeout)
        return f"{FILES[kind]}: {name}", sort(code, err, home, kind, "(accepted)" in name), err.strip()


def special_homes(timeout: float) -> list[tuple[str, str, str]]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        blocker = Path(tmp) / "a-file"
        blocker.write_text("not a folder")
        code, err = run(blocker / "home", timeout)
        out.append(("home that cannot be entered", sort(code, err, blocker, None), err.strip()))
        os.mkfifo(Path(tmp) / "fifo")
        code, err = run(Path(tmp) / "fifo", timeout)
        out.append(("home that is a FIFO", sort(code, err, blocker, None), err.strip()))
        code, err = run(Path(tmp) / ("x" * 300) / "home", timeout)
        out.append(("home with a name too long", sort(code, err, blocker, None), err.strip()))
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        stale = [home / "settings.json.k2j3.tmp", home / "stats.jsonab12.tmp", home / "save.json.zz.tmp"]
        for f in stale:
            f.write_text('{"version": 1, "sou')
            os.utime(f, (1_000_000_000, 1_000_000_000))    # left by a write killed long ago
        code, err = run(home, timeout)
        left = [f.name for f in stale if f.exists()]
        kind = "cleaned" if code == 0 and not err.strip() and not left else "other"
        out.append((f"{len(stale)} stale temp files", kind, f"left: {left}"))
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=30.0)
    p.add_argument("--show", type=int, default=5)
    args = p.parse_args()
    jobs = [(kind, name, content) for kind in FILES for name, content in contents(kind).items()]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda j: case(*j, args.timeout), jobs))
    results += special_homes(args.timeout)
    counts: dict[str, int] = {}
    for _, kind, _ in results:
        counts[kind] = counts.get(kind, 0) + 1
    print(f"{len(results)} starts of main.py: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    for label, kind, err in results:
        if kind not in ("one line", "accepted", "cleaned"):
            print(f"  {kind}: {label}: {err[-300:]}")
    for label, kind, err in results[:args.show]:
        print(f"  e.g. {label}: {kind}: {err}")
    bad = sum(counts.get(k, 0) for k in ("traceback", "hang", "other", "silently accepted"))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
