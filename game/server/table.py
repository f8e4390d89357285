"""One table of the game server: seats, the authoritative game, clocks, draw offers.

No network and no storage here: the server calls these methods, stores the
:class:`~game.server.storage.TableRecord` they changed, and only then sends the
messages they return. Every rule question goes to the engine
(:class:`~game.camelot.board.CamelotBoard`); a refusal is a
:class:`~game.net.protocol.ProtocolError` raised before anything changes.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import replace

from ..camelot import record as camelot_record
from ..base import Status
from ..camelot.board import CamelotBoard
from ..camelot.record import GameRecord
from ..camelot.moves import SQUARE_NAMES
from ..errors import IllegalMoveError, NotationError
from ..net.protocol import COLORS, ProtocolError
from .ratings import Rating
from .storage import SeatRecord, TableRecord

RESULTS = {"white": "1-0", "black": "0-1", None: "1/2-1/2"}


def other(color: str) -> str:
    return "black" if color == "white" else "white"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_record(record: TableRecord, game: CamelotBoard) -> GameRecord:
    """The finished game as a game record (game/camelot/record.py): the tags, the
    moves as played and the result — which the server decides when a game ends by
    resignation, agreement, time or abandonment, where the engine still says
    "playing"."""
    names = {c: (record.seats[c].name if c in record.seats else "?") for c in COLORS}
    tags = {"Event": f"Round Table online, table {record.table_id}",
            "Date": time.strftime("%Y.%m.%d", time.gmtime(record.created)),
            "White": names["white"], "Black": names["black"]}
    if record.time_base is not None:
        tags["TimeControl"] = f"{record.time_base}+{record.time_increment}"
    made = camelot_record.from_game(game, **tags)
    over = record.status == "finished" and not record.abandoned
    result = RESULTS[record.winner] if over else "*"        # abandoned: no result
    ended = [("Termination", record.reason)] if record.reason else []
    kept = tuple((k, result if k == "Result" else v) for k, v in made.tags if k != "Termination")
    return replace(made, tags=kept + tuple(ended), result=result)


def seat_view(seat: SeatRecord, rating: Rating | None) -> dict:
    """A seat as the lobby, the table and the pages show it (docs/protocol.md)."""
    return {"name": seat.name, "guest": seat.account is None,
            "rating": None if rating is None else round(rating.rating, 1),
            "rd": None if rating is None else round(rating.rd, 1),
            "provisional": rating is not None and rating.provisional}


class Table:
    # No board until one is asked for (a Replica never makes one unless a page asks);
    # a waiting table shows what it kept of its start instead.
    _game: CamelotBoard | None = None
    _waiting_view: tuple[str, str] | None = None

    def __init__(self, record: TableRecord, now: float | None = None,
                 used: float = 0.0) -> None:
        """``used``: seconds the side to move had already thought before a restart
        (charged again; the time the server was down is not)."""
        self.record = record
        # A table waiting for players keeps no board (7 KiB; 30 when a board had its
        # legal moves listed): what its state shows is kept, the board is made at the start.
        # Any other table's board is made from its moves when first asked for (a node
        # taking a dead node's hundreds of tables replays each as its players come back,
        # not all of them at once while its loop stands still).
        if record.status == "waiting":
            self._waiting_view = (self.game.position_text(), self.game.turn)
            self._game = None
        now = time.monotonic() if now is None else now
        self.turn_started = now - used
        self.seat_conn: dict[str, object | None] = {c: None for c in COLORS}
        self.absent_since: dict[str, float] = {c: now for c in COLORS}
        self.watchers: set = set()             # every connection that gets this table's news
        self.draw_offer: str | None = None
        self.takeback_offer: str | None = None  # the colour that must answer a takeback request
        self.rematch: set[str] = set()          # colours that asked for a rematch
        self.ratings: dict[str, Rating | None] = {c: None for c in COLORS}   # the seats'
        self.owner_address: str | None = None   # where its creator connected from (limits)
        self.timer = None                      # the server's flag-fall timer handle

    @property
    def game(self) -> CamelotBoard:
        """The authoritative board: the start and the stored moves (checked when played)."""
        if self._game is None:
            self._game = CamelotBoard(self.record.start_position)
            for notation in self.record.moves:
                self._game.play(notation)
        return self._game

    @property
    def id(self) -> str:
        return self.record.table_id

    @property
    def timed(self) -> bool:
        return self.record.time_base is not None

    # --- seats -----------------------------------------------------------------
    def color_of(self, token: str) -> str | None:
        digest = hash_token(token)
        for color, seat in self.record.seats.items():
            if hmac.compare_digest(seat.token_hash, digest):
                return color
        return None

    def seated_color(self, conn, token: str) -> str:
        """The seat ``token`` opens, if ``conn`` sits in it; else a refusal."""
        color = self.color_of(token)
        if color is None:
            raise ProtocolError("bad_token", f"that is not a seat token of table {self.id}")
        if self.seat_conn[color] is not conn:
            raise ProtocolError("not_seated", f"send resume with your token to take the "
                                              f"{color} seat of {self.id} on this connection")
        return color

    def sit(self, conn, name: str, color: str, account: int | None = None,
            rating: Rating | None = None) -> str:
        """Seat ``name`` as ``color``; returns the seat's secret token."""
        if self.record.status != "waiting":
            raise ProtocolError("already_started", f"the game at {self.id} has started")
        if color in self.record.seats:
            raise ProtocolError("seat_taken", f"the {color} seat of {self.id} is taken")
        if any(c is conn for c in self.seat_conn.values()):
            raise ProtocolError("already_seated", f"you already sit at {self.id}")
        if self.record.rated and account is None:
            raise ProtocolError("rated_needs_account", f"{self.id} is rated: sign in to play "
                                                       f"there (guests play casual games)")
        token = secrets.token_urlsafe(24)
        self.record.seats[color] = SeatRecord(name, hash_token(token), account)
        self.seat_conn[color] = conn
        self.ratings[color] = rating
        return token

    def stand(self, color: str) -> None:
        if self.record.status != "waiting":
            raise ProtocolError("already_started", f"the game at {self.id} has started: "
                                                   f"resign instead")
        del self.record.seats[color]
        self.seat_conn[color] = None

    def take_seat(self, conn, color: str, now: float) -> None:
        """A (re)connected player takes back the seat its token opens."""
        self.seat_conn[color] = conn
        self.absent_since[color] = now

    def drop(self, conn, now: float) -> list[str]:
        """A connection closed: the seats it held become absent (they are kept)."""
        self.watchers.discard(conn)
        dropped = [c for c in COLORS if self.seat_conn[c] is conn]
        for color in dropped:
            self.seat_conn[color] = None
            self.absent_since[color] = now
        return dropped

    def note_presence(self, wall: float) -> bool:
        """Keep ``record.deserted_since`` (wall-clock) up to date after seats
        changed hands: set when no connection holds a seat, cleared when one
        does. True when it changed (the record is then to be stored)."""
        if self.record.status == "finished":
            return False
        deserted = all(conn is None for conn in self.seat_conn.values())
        if deserted == (self.record.deserted_since is not None):
            return False
        self.record.deserted_since = wall if deserted else None
        return True

    def deserted_for(self, wall: float) -> float | None:
        """Seconds since no player held a seat (None: one does, or it is over)."""
        since = self.record.deserted_since
        return None if since is None or self.record.status == "finished" else wall - since

    def abandon(self, now: float, after: str) -> None:
        """Close the table: nobody held a seat for ``after`` ("24 h"). No winner
        and no result: neither player stayed to claim, and neither lost."""
        reason = (f"Abandoned: both players were away for {after}"
                  if self.record.status == "playing" else f"Closed: nobody played here for {after}")
        self.close(now, reason)

    def close(self, now: float, reason: str) -> None:
        """End the game with no result (abandoned, or closed by a moderator)."""
        self._stop_clock(now)
        if self.record.deserted_since is None:      # what marks a game with no result
            self.record.deserted_since = time.time()
        self.finish(None, reason)

    def absent_for(self, color: str, now: float) -> float | None:
        return None if self.seat_conn[color] is not None else now - self.absent_since[color]

    # --- the game --------------------------------------------------------------
    def _require_playing(self) -> None:
        if self.record.status != "playing":
            word = "has not started" if self.record.status == "waiting" else "is over"
            raise ProtocolError("not_playing", f"the game at {self.id} {word}")

    def start(self, now: float) -> None:
        if self.record.status != "waiting":
            raise ProtocolError("already_started", f"the game at {self.id} has started")
        if set(self.record.seats) != set(COLORS):
            raise ProtocolError("not_ready", "both seats must be taken before the start")
        self.record.status = "playing"
        if self.timed:
            self.record.clocks = {c: self.record.time_base * 1000 for c in COLORS}
        self.turn_started = now
        self.record.turn_wall = time.time()

    def clocks(self, now: float) -> dict | None:
        """Each side's time left in ms (the side to move's clock is running)."""
        if not self.timed or not self.record.clocks:
            return None
        left = dict(self.record.clocks)
        running = self.game.turn if self.record.status == "playing" else None
        if running:
            left[running] = max(0, left[running] - int((now - self.turn_started) * 1000))
        return {**left, "running": running}

    def time_left(self, now: float) -> float | None:
        """Seconds until the running clock falls (None when no clock runs)."""
        clocks = self.clocks(now)
        if clocks is None or clocks["running"] is None:
            return None
        return clocks[clocks["running"]] / 1000

    def check_flag(self, now: float) -> bool:
        """End the game if the side to move has run out of time; True if it did."""
        left = self.time_left(now)
        if left is None or left > 0:
            return False
        loser = self.game.turn
        self.record.clocks = {k: v for k, v in self.clocks(now).items() if k in COLORS}
        self.finish(other(loser), f"{loser.capitalize()}'s time ran out")
        return True

    def move(self, color: str, text: str, now: float) -> dict:
        """Play ``text`` for ``color``; returns the ``moved`` message."""
        self._require_playing()
        if color != self.game.turn:
            raise ProtocolError("not_your_turn", f"it is {self.game.turn}'s turn")
        try:
            played = self.game.play(text)
        except NotationError as exc:
            raise ProtocolError("bad_notation", str(exc)) from None
        except IllegalMoveError as exc:
            raise ProtocolError("illegal_move", str(exc)) from None
        if self.timed:
            spent = int((now - self.turn_started) * 1000)
            self.record.clocks[color] += self.record.time_increment * 1000 - spent
        self.turn_started = now
        self.record.turn_wall = time.time()
        self.record.moves.append(played.notation)
        if self.draw_offer == color:            # offered a draw, the side moved on instead
            self.draw_offer = None
        self.takeback_offer = None              # a request is about the position it was made in
        if played.status is not Status.PLAYING:
            self.finish(self.game.winner, self.game.status_reason)
        move = played.move
        return {"type": "moved", "table": self.id, "ply": len(self.record.moves), "by": color,
                "move": played.notation, "path": [SQUARE_NAMES[s] for s in move.path],
                "captures": sorted(SQUARE_NAMES[s] for s in move.captured),
                "kind": move.kind, "status": played.status.value,
                "winner": self.game.winner, "reason": self.game.status_reason,
                "position": self.game.position_text(), "turn": self.game.turn,
                "clocks": self.clocks(now)}

    def finish(self, winner: str | None, reason: str) -> None:
        self.record.status = "finished"
        self.record.winner = winner
        self.record.reason = reason
        self.record.ended = time.time()
        self.draw_offer = self.takeback_offer = None
        self.record.record_text = camelot_record.format(game_record(self.record, self.game))

    def resign(self, color: str, now: float) -> None:
        self._require_playing()
        self._stop_clock(now)
        self.finish(other(color), f"{color.capitalize()} resigned")

    def offer_draw(self, color: str) -> None:
        self._require_playing()
        if self.draw_offer is not None:
            raise ProtocolError("offer_pending", f"{self.draw_offer} has a draw offer to answer")
        self.draw_offer = other(color)          # who must answer it

    def answer_draw(self, color: str, accept: bool, now: float) -> None:
        self._require_playing()
        if self.draw_offer != color:
            raise ProtocolError("no_offer", "there is no draw offer for you to answer")
        self.draw_offer = None
        if accept:
            self._stop_clock(now)
            self.finish(None, "Draw agreed")

    def ask_takeback(self, color: str) -> None:
        """``color`` asks to take back its last move (the opponent has not moved since)."""
        self._require_playing()
        if not self.record.moves or self.game.turn == color:
            raise ProtocolError("no_takeback", "you can take back only your own last move, "
                                               "before your opponent replies")
        if self.takeback_offer is not None:
            raise ProtocolError("offer_pending", "a takeback request is waiting for an answer")
        self.takeback_offer = other(color)

    def answer_takeback(self, color: str, accept: bool, now: float) -> None:
        """The opponent answers; on yes the last move is undone (the game is rebuilt
        from its start and the moves before it) and the mover's clock runs again."""
        self._require_playing()
        if self.takeback_offer != color:
            raise ProtocolError("no_offer", "there is no takeback request for you to answer")
        self.takeback_offer = None
        if not accept:
            return
        self._stop_clock(now)
        self.record.moves.pop()
        self._game = None                       # made again from the start and the moves left
        self.turn_started = now
        self.record.turn_wall = time.time()

    def claim(self, color: str, now: float, grace: float) -> None:
        """Win against an opponent who has been away longer than the grace period."""
        self._require_playing()
        away = self.absent_for(other(color), now)
        if away is None or away < grace:
            wait = "is here" if away is None else f"may come back for {grace - away:.0f} s more"
            raise ProtocolError("cannot_claim", f"your opponent {wait}")
        self._stop_clock(now)
        self.finish(color, f"{other(color).capitalize()} left the game and did not come back")

    def _stop_clock(self, now: float) -> None:
        clocks = self.clocks(now)
        if clocks is not None:
            self.record.clocks = {c: clocks[c] for c in COLORS}

    # --- views -------------------------------------------------------------------
    def state(self, now: float) -> dict:
        """The ``table`` message: everything a newcomer needs to draw the table."""
        r = self.record
        kept = self._waiting_view if self._game is None and r.status == "waiting" else None
        position, turn = kept or (self.game.position_text(), self.game.turn)
        seats = {c: ({**seat_view(r.seats[c], self.ratings[c]),
                      "present": self.seat_conn[c] is not None}
                     if c in r.seats else None) for c in COLORS}
        seated = {id(c) for c in self.seat_conn.values() if c is not None}
        spectators = sorted(w.name for w in self.watchers if id(w) not in seated and w.name)
        return {"type": "table", "table": self.id, "private": r.private,
                "invite": r.invite if r.private else None,
                "time": ({"base": r.time_base, "increment": r.time_increment}
                         if self.timed else None),
                "start_position": r.start_position, "seats": seats, "spectators": spectators,
                "status": r.status, "moves": list(r.moves), "position": position,
                "turn": turn, "clocks": self.clocks(now), "draw_offer": self.draw_offer,
                "takeback_offer": self.takeback_offer, "rated": r.rated,
                "time_class": r.time_class, "rematch": sorted(self.rematch),
                "winner": r.winner, "reason": r.reason, "result": self.result()}

    def result(self) -> str | None:
        """1-0, 0-1, 1/2-1/2; ``*`` for a table closed as abandoned; None in play."""
        r = self.record
        if r.status != "finished":
            return None
        return "*" if r.abandoned else RESULTS[r.winner]

    def game_over(self) -> dict:
        r = self.record
        return {"type": "game_over", "table": self.id, "winner": r.winner, "reason": r.reason,
                "result": self.result(), "moves": len(r.moves)}

    def site_summary(self) -> dict:
        """The table as the web pages' TableSummary shows it (docs/http-api.md)."""
        r = self.record
        seated = sum(c is not None for c in self.seat_conn.values())
        return {"id": r.id, "status": r.status,
                **{c: seat_view(r.seats[c], self.ratings[c]) if c in r.seats else None
                   for c in COLORS},
                "time_control": (f"{r.time_base}+{r.time_increment}" if self.timed
                                 else "untimed"),
                "time_class": r.time_class, "rated": r.rated, "ply": len(r.moves),
                "spectators": max(0, len(self.watchers) - seated)}

    def summary(self) -> dict:
        """A row of the lobby's table list."""
        r = self.record
        return {"table": self.id, "status": r.status,
                "white": r.seats["white"].name if "white" in r.seats else None,
                "black": r.seats["black"].name if "black" in r.seats else None,
                "time": ({"base": r.time_base, "increment": r.time_increment}
                         if self.timed else None),
                "moves": len(r.moves), "watchers": len(self.watchers),
                "rated": r.rated, "time_class": r.time_class,
                "seats": {c: seat_view(r.seats[c], self.ratings[c]) if c in r.seats else None
                          for c in COLORS}}
