"""Round Table: ``python main.py --help``. The launcher lives in scenes/launcher.py."""
import sys

from scenes.launcher import main

if __name__ == "__main__":
    sys.exit(main())
