"""The engine's exception classes.

Every one is a ValueError, so a caller that only cares about "bad input" can
catch ValueError; a caller that cares which input was bad catches the class.
"""


class RoundTableError(ValueError):
    """Base of every error the engine raises on bad input."""


class UnknownGameError(RoundTableError):
    """A game id that is not one of ours."""


class BadDeckError(RoundTableError):
    """A deck order that is not 52 distinct, well-formed cards."""


class BadSeedError(RoundTableError):
    """A deal number that is not a non-negative whole number."""


class BadNumberError(RoundTableError):
    """A number written outside the program (command line, file) that is not
    plain ASCII digits, too long, not finite or out of its stated range."""


class BadPositionError(RoundTableError):
    """A position string (board game) that does not parse."""


class NotationError(RoundTableError):
    """A move written in a notation we cannot read."""


class IllegalMoveError(RoundTableError):
    """A well-formed move that the rules forbid in this position.

    The game state is untouched when this is raised.
    """


class BadSaveError(RoundTableError):
    """A serialised game (JSON) that is damaged or of another version."""
