"""The program of the installed app (``dist/roundtable/roundtable``; see
tools/build_app.py): the game, as ``python main.py`` starts it, with the same
options; and the engine's command line as its first word ``game``, since an app
with no Python cannot run ``python -m game``:

    roundtable [--game ID] [--size WxH] …           the game (scenes/launcher.py)
    roundtable game serve --port 8765                the engine's commands (game/cli.py)
"""
import multiprocessing
import sys

ENGINE_WORD = "game"


def main() -> int:
    # A frozen program is also what the work service spawns as its worker
    # processes (scenes/work/service.py): in one of those, freeze_support runs
    # the worker and exits, before any of the game loads.
    multiprocessing.freeze_support()
    if sys.argv[1:2] == [ENGINE_WORD]:
        from game.cli import main as engine
        return engine(sys.argv[2:])
    from scenes.launcher import main as game
    return game(sys.argv[1:])


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:      # Ctrl-C, even while the modules load: quietly
        sys.exit(130)
