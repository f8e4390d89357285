"""Round Table: ``python main.py --help``. The launcher lives in scenes/launcher.py."""
import sys

if __name__ == "__main__":
    try:
        from scenes.launcher import main
        sys.exit(main())
    except KeyboardInterrupt:      # Ctrl-C, even while the modules load: quietly
        sys.exit(130)
