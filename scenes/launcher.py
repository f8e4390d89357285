"""The command line of the game itself (``python main.py`` / ``roundtable``).

    roundtable [--game ID] [--seed N] [--windowed | --fullscreen] [--demo [ID]]
               [--size WxH] [--frames N] [--screenshot FILE]
    roundtable --timedemo ID [--size 1920x1080] [--frames 600]
    roundtable --record FILE            (replay a Camelot game record)
    roundtable ... --speech-log FILE    (announcements on, each appended to FILE)
    roundtable ... --lang CODE          (this language: en, fr, de, es, he; or system)

Bad input is one clear line and exit code 2, never a traceback; every number
is read by ``game.parsing`` (ASCII digits, bounded, in a stated range). Ctrl-C
ends the program quietly (exit 130).
"""
from __future__ import annotations

import gc
import os
import sys
import time
from types import SimpleNamespace

STARTED = time.perf_counter()
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
MAX_FRAMES = 1_000_000     # --frames: about 4.6 hours at 60 frames a second
MAX_SIDE = 16384


class UsageError(Exception):
    pass


def _usage_error(message: str) -> None:
    raise UsageError(message)


def _number(text: str, what: str, low: int, high: int) -> int:
    """A number of the command line, read by the engine's one number parser."""
    from game.errors import RoundTableError  # start-up: see resolve()
    from game.parsing import parse_int
    try:
        return parse_int(text, what, low, high)
    except RoundTableError as exc:
        raise UsageError(str(exc)) from None


def parse_size(text: str) -> tuple[int, int]:
    from game.parsing import shown  # start-up: see resolve()
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
        raise UsageError(f"size must look like 1920x1080, not {shown(text)}")
    w, h = int(parts[0]), int(parts[1])
    if not (320 <= w <= MAX_SIDE and 240 <= h <= MAX_SIDE):
        raise UsageError(f"size {shown(text)} is out of range (320x240 … 16384x16384)")
    return (w, h)


def check_screenshot(path: str) -> str:
    """--screenshot: a PNG file to write, in a folder that exists."""
    from game.parsing import shown  # start-up: see resolve()
    if not path or "\0" in path or len(path) > 4096:
        raise UsageError(f"--screenshot needs a file name, not {shown(path)}")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"--screenshot {shown(path)} is a folder, not a file")
    if os.path.exists(path) and not os.path.isfile(path):   # a FIFO would block, a device …
        raise UsageError(f"--screenshot {shown(path)} is not a regular file")
    if not os.path.isdir(folder):
        raise UsageError(f"--screenshot: there is no folder {shown(folder)}")
    existed = os.path.exists(path)
    try:                            # a name too long, a read-only disk …: found now, not at the end
        with open(path, "ab"):
            pass
    except OSError as exc:
        raise UsageError(f"--screenshot {shown(path)} cannot be written: "
                         f"{exc.strerror or exc}") from None
    if not existed:
        os.remove(path)
    return path


def check_speech_log(path: str) -> str:
    """--speech-log: a file announcements are appended to, which can be written."""
    from game.parsing import shown  # start-up: see resolve()
    if not path or "\0" in path or len(path) > 4096:
        raise UsageError(f"--speech-log needs a file name, not {shown(path)}")
    if os.path.exists(path) and not os.path.isfile(path):   # a folder, a FIFO that would block …
        raise UsageError(f"--speech-log {shown(path)} is not a regular file")
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"--speech-log {shown(path)} cannot be written: "
                         f"{exc.strerror or exc}") from None
    return path


def check_record(path: str) -> str:
    """--record: a Camelot game record whose moves the rules accept."""
    from game.camelot.record import BadRecordError, read  # start-up: see resolve()
    from game.errors import RoundTableError
    from game.parsing import shown
    if not path or "\0" in path or len(path) > 4096:
        raise UsageError(f"--record needs a file name, not {shown(path)}")
    try:
        read(path).to_game()
    except BadRecordError as exc:
        raise UsageError(f"--record: {exc}") from None
    except RoundTableError as exc:
        raise UsageError(f"--record {shown(path)}: {exc}") from None
    return path


def build_parser():
    """The command line as argparse reads it: ``--help``, and every form
    :func:`read_plainly` leaves to it (mistakes, abbreviations, repeats)."""
    import argparse  # start-up: only for --help and the rarer forms (see read_plainly)

    from game import GAME_IDS  # start-up: the engine's list of games, without its modules
    p = argparse.ArgumentParser(prog="roundtable", description="Round Table: four classic games")
    p.error = _usage_error      # one line and exit 2 (see main), never argparse's usage text
    p.add_argument("--game", help=f"start this game: {', '.join(GAME_IDS)}")
    p.add_argument("--seed", help="deal number")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--windowed", action="store_true", help="start in a window")
    mode.add_argument("--fullscreen", action="store_true", help="start full screen")
    p.add_argument("--demo", nargs="?", const="", metavar="ID",
                   help="the computer plays by itself (a game id, or all in turn)")
    p.add_argument("--size", help="window size, e.g. 1920x1080 (implies a window)")
    p.add_argument("--frames", help="run this many frames (1/60 s each) then exit")
    p.add_argument("--screenshot", help="save the last frame to this PNG file")
    p.add_argument("--timedemo", metavar="ID", help="play the demo uncapped and print frame times")
    p.add_argument("--timing", action="store_true", help="print the time to the first frame")
    p.add_argument("--record", metavar="FILE", help="replay this Camelot game record")
    p.add_argument("--speech-log", metavar="FILE",
                   help="announcements on: append every one to this file, a line each")
    p.add_argument("--lang", metavar="CODE",
                   help="the language for this run: en, fr, de, es, he (or system)")
    return p


VALUE_OPTIONS = ("game", "seed", "size", "frames", "screenshot", "timedemo", "record", "speech_log",
                 "lang")
FLAG_OPTIONS = ("windowed", "fullscreen", "timing")


def read_plainly(argv: list[str]) -> SimpleNamespace | None:
    """The command line in its plain forms, read without argparse (which takes
    some ms to load and build, at every launch): each option at most once and
    spelled in full, its value in the next word or after ``=``, a value that
    does not start with ``-``. The same namespace as :func:`build_parser`'s;
    None for anything else, which argparse then reads (help, mistakes,
    abbreviations, repeats), so every answer and message is argparse's own."""
    args = SimpleNamespace(**dict.fromkeys(VALUE_OPTIONS + ("demo",)),
                           **dict.fromkeys(FLAG_OPTIONS, False))
    seen: set[str] = set()
    words = iter(argv)
    for word in words:
        name, equals, value = word.partition("=")
        option = name[2:].replace("-", "_")     # --speech-log: args.speech_log, as argparse names it
        if not name.startswith("--") or "_" in name or option in seen:
            return None
        seen.add(option)
        if option in FLAG_OPTIONS and not equals:
            setattr(args, option, True)
            continue
        if option not in VALUE_OPTIONS and option != "demo":
            return None
        if not equals:
            value = next(words, None)
            if value is None and option == "demo":
                args.demo = ""                 # a bare --demo at the end: every game in turn
                continue
        if not value or value.startswith("-"):
            return None
        setattr(args, option, value)
    if args.windowed and args.fullscreen:
        return None                            # argparse says they do not go together
    return args


def parse_arguments(argv: list[str] | None) -> SimpleNamespace:
    argv = sys.argv[1:] if argv is None else list(argv)
    plain = read_plainly(argv)
    return plain if plain is not None else build_parser().parse_args(argv)


def resolve(args) -> dict:
    """Check everything before a window opens; raise UsageError with one line."""
    # Imported here, not at the top, for start-up: `--help` and a bad option
    # answer before the engine and pygame load.
    from game import GAME_IDS, check_game_id
    from game.errors import RoundTableError
    from scenes.games import playable_games  # start-up: see above

    def playable(game_id: str, what: str) -> str:
        try:
            check_game_id(game_id)
        except RoundTableError as exc:
            raise UsageError(str(exc)) from None
        if game_id not in playable_games():
            raise UsageError(f"{what} {game_id!r} is not playable yet")
        return game_id

    out: dict = {}
    if args.game:
        out["game"] = playable(args.game, "game")
    if args.seed is not None:
        from game.cards import check_seed  # start-up: the cards load only for a deal number
        try:
            out["seed"] = check_seed(args.seed)
        except RoundTableError as exc:
            raise UsageError(str(exc)) from None
    if args.demo is not None:
        out["demo"] = playable(args.demo, "demo") if args.demo else (out.get("game") or "all")
    if args.timedemo:
        out["timedemo"] = playable(args.timedemo, "timedemo")
    if args.frames is not None:
        args.frames = _number(args.frames, "--frames", 1, MAX_FRAMES)
    if args.timedemo and args.frames is None:
        args.frames = 600
    if args.screenshot is not None:
        if args.frames is None:
            raise UsageError("--screenshot needs --frames (how many frames to run first)")
        check_screenshot(args.screenshot)
    if args.seed is not None and not (out.get("game") or out.get("demo") or args.timedemo):
        raise UsageError("--seed needs --game, --demo or --timedemo (a deal of which game?)")
    if args.record is not None:
        if out.get("game") or out.get("demo") or args.timedemo:
            raise UsageError("--record replays a record: it does not go with --game, --demo "
                             "or --timedemo")
        out["record"] = check_record(args.record)
    if args.speech_log is not None:
        out["speech_log"] = check_speech_log(args.speech_log)
    if args.lang is not None:
        from scenes.store.words import UnknownLanguageError, check_language  # start-up: as above
        try:
            out["lang"] = check_language(args.lang)
        except UnknownLanguageError as exc:
            raise UsageError(f"--lang: {exc}") from None
    out["size"] = parse_size(args.size) if args.size else ((1920, 1080) if args.timedemo else None)
    out["known_games"] = GAME_IDS
    return out


def main(argv: list[str] | None = None) -> int:
    # Start-up: no garbage collection until the first frame is on screen.
    # Loading the modules makes many objects and next to no garbage, and the
    # collector walking them over and over costs some ms of every launch.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv, gc.enable if collecting else None)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    finally:
        if collecting:
            gc.enable()


def _main(argv: list[str] | None, after_first_frame) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        args = parse_arguments(argv)
        chosen = resolve(args)
    except UsageError as exc:
        print(f"roundtable: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT

    # start-up: the app's modules load once the command line is known to be good
    from scenes.core.app import App, AppOptions
    from scenes.games import playable_games  # start-up: as above
    from scenes.screens.navigation import open_game, open_menu  # start-up: as above

    options = AppOptions(game=chosen.get("game"), seed=chosen.get("seed"),
                         fullscreen=True if args.fullscreen else False if args.windowed else None,
                         demo=chosen.get("demo"), frames=args.frames, screenshot=args.screenshot,
                         timedemo=chosen.get("timedemo"), size=chosen["size"], started_at=STARTED,
                         after_first_frame=after_first_frame,
                         speech_log=chosen.get("speech_log"), lang=chosen.get("lang"))
    app = App(options)
    if options.timedemo:
        open_game(app, options.timedemo, seed=options.seed or 1, demo=True)
    elif options.demo:
        demo = options.demo if options.demo != "all" else playable_games()[0]
        open_game(app, demo, seed=options.seed, demo=True)
    elif options.game:
        open_game(app, options.game, seed=options.seed)
    else:
        open_menu(app)
        if chosen.get("record"):
            app.navigator.open_replay(chosen["record"])   # over the menu: Back returns there
    code = app.run()
    if args.timing:
        # Wall-clock time of the first frame, so a caller can measure from the
        # moment it started the process (bench/startup.py).
        print(f"first frame after {app.first_frame_seconds:.3f} s in-process; "
              f"at wall time {app.first_frame_wall:.6f}; process CPU {app.first_frame_cpu:.6f} s")
    if options.timedemo:
        r = app.frame_report()
        c = r["cpu"]
        print(f"timedemo {options.timedemo} at {r['size'][0]}x{r['size'][1]}: {r['frames']} frames, "
              f"{r['fps']:.0f} fps; frame time ms: min {r['min']:.2f} / median {r['median']:.2f} / "
              f"p99 {r['p99']:.2f} / max {r['max']:.2f} (first frame {r['first_frame_ms']:.1f})")
        print(f"  main-thread CPU time per frame ms: min {c['min']:.2f} / median {c['median']:.2f} / "
              f"p99 {c['p99']:.2f} / max {c['max']:.2f}")
    app.close()         # no background thread left drawing when pygame lets go of its data
    import pygame  # start-up: loaded by the app by now; named here only to quit it
    pygame.quit()
    return code


if __name__ == "__main__":
    sys.exit(main())
