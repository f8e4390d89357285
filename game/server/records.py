"""The server's records: what storage keeps and gives back (tables with their
seats and moves, accounts, rating changes, moderators' actions). Plain values;
no I/O here.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .ratings import Rating, time_class


@dataclass
class SeatRecord:
    name: str
    token_hash: str     # sha256 of the seat token: the database never holds a usable token
    account: int | None = None    # the account that sits here; None for a guest


@dataclass(frozen=True)
class AccountRecord:
    id: int
    name: str
    key: str                      # accounts.name_key(name): unique
    password_hash: str
    created: float
    moderator: bool = False
    banned: bool = False
    muted_until: float = 0.0      # wall-clock; a moderator's mute on chat


@dataclass(frozen=True)
class RatingChange:
    """One player's rating before and after a rated game."""
    account: int
    time_class: str
    before: Rating
    after: Rating


@dataclass(frozen=True)
class ModAction:
    """What a moderator did, kept in the store with the change it made."""
    moderator: str
    action: str                   # mute, ban, unban, close
    target: str                   # a name or a table id
    detail: str
    at: float


@dataclass
class TableRecord:
    """Everything the server needs to rebuild a table after a restart."""

    id: int
    private: bool
    invite: str | None
    start_position: str
    time_base: int | None = None          # seconds; None = untimed
    time_increment: int = 0
    seats: dict[str, SeatRecord] = field(default_factory=dict)   # color → seat
    status: str = "waiting"               # waiting, playing, finished
    moves: list[str] = field(default_factory=list)               # WCF notation
    clocks: dict[str, int] = field(default_factory=dict)         # color → ms left at turn start
    winner: str | None = None
    reason: str = ""
    record_text: str = ""
    created: float = field(default_factory=time.time)
    # Wall-clock time (time.time) since which no player has held a seat at this
    # table; None while one does. Kept in the database so that the time counts
    # across restarts: a table deserted long enough is closed as abandoned.
    deserted_since: float | None = None
    rated: bool = False
    owner: str | None = None              # who created it: "account:ID" or "guest:ADDRESS"
    # Wall-clock time the running clock's turn began: after a crash the side to move
    # is charged what it had used up to the server's last sign of life.
    turn_wall: float | None = None
    ended: float | None = None            # wall-clock time the game finished

    @property
    def time_class(self) -> str:
        return time_class(None if self.time_base is None
                          else (self.time_base, self.time_increment))

    @property
    def table_id(self) -> str:
        return f"T{self.id}"          # table_number reads it back

    @property
    def abandoned(self) -> bool:
        """Closed because nobody came back: over, with no winner, while deserted
        (a draw is agreed or played by players who are there)."""
        return self.status == "finished" and self.winner is None and self.deserted_since is not None


def table_number(table_id: str) -> int:
    """A table's number from its id (``T12`` -> 12, as TableRecord.table_id writes it)."""
    return int(table_id[1:])
