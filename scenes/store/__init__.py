"""What the app keeps on disk, with no pygame: settings, statistics, the saved game."""
