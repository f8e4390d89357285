"""Camelot, the board game: rules, search, evaluation, tablebase, book."""
