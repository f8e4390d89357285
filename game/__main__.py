"""``python -m game``: the engine's command line (game/cli.py). Ctrl-C, even
while the modules load, ends it quietly with exit 130."""
import sys

try:
    from .cli import main
    sys.exit(main())
except KeyboardInterrupt:
    sys.exit(130)
