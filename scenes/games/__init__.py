"""One scene per game, each built on the table layer."""
