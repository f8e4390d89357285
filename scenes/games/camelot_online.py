"""Camelot at a network table: a board screen whose other side is remote.

:class:`CamelotOnlineScene` is a composition (``scenes.table.board_screen``):
the same board table as at this computer (same input: mouse, keyboard,
gamepad), a person here for the seat taken (none when watching), a remote
player for the other seat, the column of clocks and chat beside the board, and
a toolbar for a network game. The session feeds the one engine board of the
game: every move arrives from the server (``moved``) and is played there; the
opponent's travels like the computer's, the path first, then the piece. The
player's own move is sent, not played: it is played when the server
acknowledges it, and a refusal is shown in one line. The server's ``table``
message is the truth; when the local game differs from it (a reconnection, a
restart of the server) the board is rebuilt from its moves.

Beside the board: both clocks, who is watching, the table chat (typed; a
gamepad's X, or H, offers a few set phrases), the link in one line when it is
lost. The network never blocks a frame: ``update_table`` polls the session.
"""
from __future__ import annotations


from game.base import Status
from game.camelot.board import CamelotBoard
from game.camelot.moves import path_text
from game.camelot.record import parse as parse_record, write as write_record
from game.errors import RoundTableError

from ..core.actions import Action
from ..core.overlays import DialogScene
from ..core.text_field import TextField
from ..store.terms import SIDES, reason_words, server_refusal, term
from ..core.ui import GOLD, ILLEGAL
from ..store.records import records_dir
from ..table.board_layers import COLORS
from ..table.board_players import Person, RemotePlayer
from ..table.board_screen import BoardScreen, Command
from .camelot_online_column import TableColumn, clock_text
from .online_ignore import chat_speakers, open_ignore
from .online_session import SET_PHRASES, OnlineSession, rating_text
from ..store.words import _, N_, ngettext


# What the opponent may ask: (title, line, (accept label, answer), (decline label, answer)).
QUESTIONS = {
    "draw": (N_("Draw offered"), N_("{who} offers a draw."),
             (N_("Accept the draw"), "accept_draw"), (N_("Decline, play on"), "decline_draw")),
    "takeback": (N_("Take back?"), N_("{who} asks to take back the last move."),
                 (N_("Allow it"), "accept_takeback"), (N_("Decline"), "decline_takeback")),
}


def error_line(message: dict) -> str:
    """An ``error`` message as one line for the player."""
    text = str(message.get("message") or message.get("code") or "refused")
    if message.get("local"):
        return text[:1].upper() + text[1:]
    text = server_refusal(str(message.get("code") or ""), text)
    return _("The server refused: {problem}").format(problem=text[:1].lower() + text[1:])


def game_from_table(table: dict) -> CamelotBoard:
    """The table's game, replayed from its start position and moves."""
    start = table.get("start_position")
    game = CamelotBoard(start) if start else CamelotBoard()
    for move in table.get("moves", []):
        game.play(move)
    return game


def open_phrases(app, say, field: TextField, ignore=None) -> None:
    """A gamepad's way to chat: a few set phrases, or the keyboard (``field``);
    with ``ignore``, a way to the ignore dialog too."""
    def choose(text):
        def run():
            app.scenes.remove(dialog)
            say(text)
        return run

    def type_():
        app.scenes.remove(dialog)
        field.activate()

    buttons = [(phrase, choose(_(phrase))) for phrase in SET_PHRASES]
    buttons.append((N_("Type a message…"), type_))
    if ignore is not None:
        buttons.append((N_("Ignore a player…"), lambda: (app.scenes.remove(dialog), ignore())))
    buttons.append((N_("Cancel"), lambda: app.scenes.remove(dialog)))
    dialog = DialogScene(app, N_("Say"), [], buttons, update_below=True,
                         on_back=lambda: app.scenes.remove(dialog))
    app.scenes.push(dialog)


class CamelotOnlineScene(BoardScreen):
    """The board table, a person for our seat, a remote player for the other,
    the column of clocks and chat, and a network game's toolbar."""

    def __init__(self, app, session: OnlineSession, table: dict, on_leave=None) -> None:
        self.session = session
        self.table_id = table["table"]
        # The table as the server last described it (seats, clocks, chat …), folded
        # from its messages by game.net.view; the engine board is this screen's.
        self.info = session.state.table(self.table_id)
        self.color = session.seat(self.table_id)      # None: watching
        self.pending: str | None = None                # our move, sent, not yet acknowledged
        self.on_leave = on_leave
        self._draw_dialog = None
        self.takeback_to: str | None = None            # the colour asked to allow a takeback
        self.rematch_asked: list = []                  # the colours that asked for a rematch
        self.rematch_table: str | None = None          # the rematch's table, once seated there
        self.column = TableColumn(app, self, self._say)
        commands = [
            Command(N_("Menu"), self.open_pause, (Action.PAUSE,)),
            Command(N_("Offer draw"), self.offer_draw, enabled=self._seated_and_playing),
            Command(N_("Resign"), self.resign, enabled=self._seated_and_playing),
            Command(N_("Take back"), self.ask_takeback, enabled=self._may_take_back),
            Command(N_("Rematch"), self.ask_rematch, enabled=self._may_rematch),
            Command(N_("Chat"), self.chat, (Action.HINT,)),
            Command(N_("Lobby"), self.back_to_lobby),
            # the keys of a game at this computer: here the server keeps the game
            Command("", self.server_keeps_the_game,
                    (Action.UNDO, Action.REDO, Action.RESTART, Action.AUTOPLAY, Action.NEW_DEAL))]
        super().__init__(app, game_from_table(table), {}, commands, on_move=self.send_move,
                         parts=(self.column,))
        self.seat_players()
        self.title = N_("Camelot online")     # (the class's title is the game's, from game/)

    @property
    def chat_field(self) -> TextField:
        return self.column.chat_field

    # --- who plays ------------------------------------------------------------------------
    def seat_players(self) -> None:
        """A person here for our seat (if we sit), a remote player for each other."""
        def seat_of(color):
            return lambda: self.side_label(color)
        self.players = {color: Person("", may_choose=self._may_choose) if color == self.color
                        else RemotePlayer(seat_of(color)) for color in COLORS}
        self.table.shows_focus = True

    def _may_choose(self) -> bool:
        return self._seated_and_playing() and self.pending is None and self.session.online

    def _seat(self, color: str) -> dict | None:
        return (self.info.seats or {}).get(color)

    def _seated_and_playing(self) -> bool:
        return self.color is not None and self.info.status == "playing"

    def _may_take_back(self) -> bool:
        """Our own last move, before the opponent replies, with no question open."""
        return (self._seated_and_playing() and bool(self.game.history) and self.pending is None
                and self.game.turn != self.color and self.takeback_to is None)

    def _may_rematch(self) -> bool:
        return (self.color is not None and self.info.status == "finished"
                and not self.info.no_result and self.color not in self.rematch_asked)

    @property
    def interactive(self) -> bool:
        return self.table.interactive

    @property
    def flipped(self) -> bool:
        return self.color == "black"

    @property
    def result(self) -> tuple | None:
        """(winner, reason) once the server says the game is over."""
        return (self.info.winner, self.info.reason) if self.info.status == "finished" else None

    def side_label(self, color: str) -> str:
        seat = self._seat(color)
        if seat is None:
            return _("empty seat")
        name = rating_text(seat) + (_(" (you)") if color == self.color else "")
        return name + ("" if seat.get("present", True) else _(" · away"))

    def _players_line(self) -> str:
        names = [(self._seat(c) or {}).get("name", _("nobody")) for c in COLORS]
        where = _("Table {table} on {url}").format(table=self.table_id, url=self.session.url)
        if self.color is None:
            return _("{where}: you watch {white} (White) against {black} (Black).").format(
                where=where, white=names[0], black=names[1])
        opponent = names[COLORS.index(self.color) ^ 1]
        return _("{where}: you play {side} against {opponent}.").format(
            where=where, side=term(SIDES, self.color), opponent=opponent)

    def status_line(self) -> str:
        line = self.session.link_line()
        if line:
            return line
        if self.result is not None:
            reason = self.result[1] or _("The game is over")
            asks = [c for c in self.rematch_asked if c != self.color]
            rematch = (_(" · {name} asks for a rematch").format(name=self.side_label(asks[0]))
                       if asks and self.color else "")
            return reason_words(reason, full_stop=False) + rematch
        if self.info.status == "waiting":
            if self.info.invite and self.color is not None:
                return _("Waiting for an opponent: give a friend the code {code}").format(
                    code=f"{self.table_id}-{self.info.invite}")
            return _("Waiting for both seats to be taken")
        if self.pending is not None:
            return _("Sending {move}…").format(move=self.pending)
        game = self.game
        if self.color is not None and game.status is Status.PLAYING and not self.busy \
                and game.turn != self.color:
            return _("{name} is thinking").format(name=self.side_label(game.turn))
        if game.status is not Status.PLAYING:
            return reason_words(game.status_reason, full_stop=False)
        arriving = self.arriving_line()
        if arriving is not None:
            return arriving
        return self.turn_line(_("Your move") if self.color is not None
                              else _("{side} to move").format(side=term(SIDES, game.turn)))

    def score_line(self) -> str:
        counts = {"white": 0, "black": 0}
        for piece in self.table.on_board():
            counts[piece.color] += 1
        return _("White {white} · Black {black}").format(white=counts["white"], black=counts["black"])

    def moves_made(self) -> int:
        return (len(self.game.history) + 1) // 2

    # --- the lifecycle and the toolbar -----------------------------------------------------
    def enter(self) -> None:
        super().enter()             # the card faces of a patience played before go
        self.table.show_game(self.game)
        self.app.sound.play("deal")
        self._sync()

    def leave(self) -> None:
        self.chat_field.deactivate()
        super().leave()

    def server_keeps_the_game(self) -> None:
        self.app.toast(N_("Not in an online game: the server keeps the game"), 2.0)

    def back_to_lobby(self) -> None:
        self.session.send({"type": "leave", "table": self.table_id})
        if self.on_leave is not None:
            self.on_leave(self)
        else:
            self.app.scenes.remove(self)

    def open_help(self) -> None:
        self.app.navigator.open_help(self.game_id)

    def open_pause(self, reason: str = "") -> None:
        def then(action):
            def run():
                self.app.scenes.remove(dialog)
                action()
            return run

        buttons = [(N_("Resume"), then(lambda: None))]
        if self._seated_and_playing():
            buttons += [(N_("Offer a draw"), then(self.offer_draw)), (N_("Resign"), then(self.resign))]
        buttons += [(N_("Back to the lobby"), then(self.back_to_lobby)),
                    (N_("How to play"), self.open_help),
                    (N_("Main menu"), lambda: self.app.navigator.open_menu())]
        lines = ([reason] if reason else []) + [self._players_line()]
        dialog = DialogScene(self.app, N_("Paused"), lines, buttons,
                             on_back=lambda: self.app.scenes.remove(dialog), update_below=True)
        self.app.scenes.push(dialog)

    # --- the player's moves go to the server --------------------------------------------
    def send_move(self, move) -> None:
        """The move chosen on the table is sent; it is played when the server says so."""
        text = path_text(tuple(move.path), move.captured)
        self.pending = text
        self.session.send({"type": "move", "table": self.table_id,
                           "token": self.session.token(self.table_id), "move": text})

    def _seat_request(self, kind: str) -> None:
        if not self._seated_and_playing():
            self.app.toast(_("Only a player in a game in progress can do that"), 2.0)
            return
        self.session.send({"type": kind, "table": self.table_id,
                           "token": self.session.token(self.table_id)})

    def offer_draw(self) -> None:
        self._seat_request("offer_draw")

    def resign(self) -> None:
        if not self._seated_and_playing():
            self._seat_request("resign")
            return

        def sure():
            self.app.scenes.remove(dialog)
            self._seat_request("resign")
        dialog = DialogScene(self.app, N_("Resign?"), [N_("The game ends and your opponent wins.")],
                             [(N_("Resign"), sure), (N_("Play on"), lambda: self.app.scenes.remove(dialog))],
                             on_back=lambda: self.app.scenes.remove(dialog), update_below=True)
        self.app.scenes.push(dialog)

    # --- chat -------------------------------------------------------------------------------
    def chat(self) -> None:
        """H, gamepad X, the Chat button: a few set phrases, or typing."""
        open_phrases(self.app, self._say, self.chat_field, self.ignore_someone)

    def ignore_someone(self) -> None:
        """The players here (seats, watchers, who spoke): ignore one, or hear one again."""
        seated = [seat["name"] for seat in self.info.seats.values() if seat and seat.get("name")]
        open_ignore(self.app, self.session, chat_speakers(self.info.chat) + seated
                    + list(self.info.spectators))

    def _say(self, text: str) -> None:
        self.session.send({"type": "chat", "table": self.table_id, "text": text})
        self.chat_field.text = ""
        self.chat_field.deactivate()

    # --- what arrives ------------------------------------------------------------------------
    def tick(self, dt: float) -> None:
        for message in self.session.poll():
            self.receive(message)
        if self.result is not None and not self.over_shown and not self.busy \
                and self.app.scenes.top is self:
            self.show_game_over()

    def receive(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "link":
            if message["state"] == "online" and self.color is None:
                invite = {"invite": self.info.invite} if self.info.invite else {}
                self.session.send({"type": "watch", "table": self.table_id, **invite})
            elif message["state"] == "offline":
                self.pending = None         # sends were refused; the move is the player's again
            return
        if kind == "error":
            self._refused(message)
            return
        if kind == "seated" and message.get("table") != self.table_id:
            self.rematch_table = message["table"]      # a rematch (both asked): its table follows
            return
        if kind == "table" and message.get("table") == self.rematch_table:
            self._open_rematch(message)
            return
        if message.get("table") != self.table_id:
            return
        if kind == "table":
            self.takeback_to = message.get("takeback_offer")
            self.rematch_asked = list(message.get("rematch") or [])
            self._sync(message.get("moves", []))
        elif kind == "moved":
            self._moved(message)
        elif kind == "seated":
            self.color = message["color"]
            self.seat_players()
        elif kind == "draw_offer":
            if message.get("to") == self.color:
                self._offer_dialog()
            else:
                self.info.chat.append(("", _("{side} offers a draw.").format(side=term(SIDES, message.get("by", "?")))))
        elif kind == "draw_declined":
            self.info.chat.append(("", _("{side} declines the draw.").format(side=term(SIDES, message.get("by", "?")))))
        elif kind == "takeback_offer":
            self.takeback_to = message.get("to")
            if message.get("to") == self.color:
                self._offer_dialog("takeback")
            else:
                self.info.chat.append(("", _("{side} asks to take back the last move.").format(
                    side=term(SIDES, message.get("by", "?")))))
        elif kind in ("takeback_declined", "taken_back"):
            self.takeback_to = None
            self._close_offer_dialog()
            said = (_("The last move was taken back.") if kind == "taken_back"
                    else _("{side} declines the takeback.").format(side=term(SIDES, message.get("by", "?"))))
            self.info.chat.append(("", said))
        elif kind == "record":
            self._save_record(message)
        elif kind == "game_over":
            self._close_offer_dialog()

    def _refused(self, message: dict) -> None:
        if message.get("code") == "offline":
            if message.get("refused") == "move":
                self.pending = None
            self.app.toast(_("Not connected: retrying…"), 2.0)
            return
        if message.get("refused") == "start" and message.get("code") in ("already_started", "not_ready"):
            return                          # the other player's start came first, or a seat emptied
        if message.get("refused") == "move":
            self.pending = None
            self.app.sound.play("invalid")
        self.app.toast(error_line(message), 3.0)

    def clock_ms(self, color: str) -> float | None:
        """What ``color``'s clock shows now (counted down since the server's word)."""
        clocks = self.info.clocks_now()
        return None if clocks is None else clocks.get(color)

    def _moved(self, message: dict) -> None:
        ply, played = message.get("ply", 0), len(self.game.history)
        if ply <= played:
            return                                      # already shown (a resync came first)
        if ply != played + 1:
            self._rebuild_soon()
            return
        try:
            move = self.game.parse_move(message["move"])
        except RoundTableError:
            self._rebuild_soon()
            return
        mine = message.get("by") == self.color
        if mine:
            self.pending = None
        self.play(move, from_afar=not mine)
        if self.result is not None:
            self._close_offer_dialog()

    def _rebuild_soon(self) -> None:
        """The local game lost step: ask for the table's whole state."""
        token = self.session.token(self.table_id)
        if token and self.color is not None:
            self.session.send({"type": "resume", "table": self.table_id, "token": token})
        else:
            self.session.send({"type": "watch", "table": self.table_id})

    def _sync(self, moves: list | None = None) -> None:
        """The server's view of the table replaces ours where they differ."""
        info = self.info
        moves = list(info.moves if moves is None else moves)
        history = list(self.game.history)
        if moves != history:
            if moves[:len(history)] == history and len(moves) == len(history) + 1:
                try:
                    move = self.game.parse_move(moves[-1])
                except RoundTableError:
                    move = None
                if move is not None:
                    self.play(move, from_afar=self.game.turn != self.color)
            if list(self.game.history) != moves:
                try:
                    self.game = game_from_table({"start_position": info.start_position,
                                                 "moves": moves})
                except RoundTableError:
                    self.app.toast(_("The server's game could not be replayed here"), 4.0)
                    return
                self.show_state()
        if self.pending is not None and self.game.turn != self.color:
            self.pending = None
        seats = info.seats or {}
        if (info.status == "waiting" and self.color is not None and len(seats) == 2
                and all(seat and seat.get("present") for seat in seats.values())):
            # Both players are here: the game starts (either may ask; a second ask is refused
            # harmlessly, see _refused).
            self.session.send({"type": "start", "table": self.table_id,
                               "token": self.session.token(self.table_id)})
        asked = self.color is not None and self.result is None
        if asked and info.draw_offer == self.color:
            self._offer_dialog("draw")
        elif asked and self.takeback_to == self.color:
            self._offer_dialog("takeback")
        else:
            self._close_offer_dialog()

    # --- questions from the opponent, takebacks, rematches and the end -------------------------
    def _offer_dialog(self, kind: str = "draw") -> None:
        """The opponent offers a draw or asks to take back a move: the answer."""
        if self._draw_dialog is not None and self._draw_dialog in self.app.scenes.scenes:
            return

        def answer(kind):
            def run():
                self._close_offer_dialog()
                self._seat_request(kind)
            return run
        title, line, (yes, accept), (no, decline) = QUESTIONS[kind]
        opponent = self.side_label(COLORS[COLORS.index(self.color) ^ 1])
        self._draw_dialog = DialogScene(
            self.app, title, [_(line).format(who=opponent)],
            [(yes, answer(accept)), (no, answer(decline))],
            on_back=answer(decline), update_below=True)
        self.app.scenes.push(self._draw_dialog)

    def ask_takeback(self) -> None:
        if self._may_take_back():
            self._seat_request("takeback")

    def ask_rematch(self) -> None:
        """Ask for a rematch (colours swapped); it starts when the opponent asks too."""
        if self._may_rematch():
            self.rematch_asked.append(self.color)
            self.session.send({"type": "rematch", "table": self.table_id,
                               "token": self.session.token(self.table_id)})
            self.info.chat.append(("", _("You asked for a rematch, colours swapped.")))

    def _open_rematch(self, table: dict) -> None:
        """Both asked: the new table (already started) takes this one's place."""
        rematch = CamelotOnlineScene(self.app, self.session, table, on_leave=self.on_leave)
        scenes = self.app.scenes
        while scenes.top is not self and self in scenes.scenes:
            scenes.pop()                               # the game-over dialog
        scenes.replace(rematch)
        # This screen is left in the middle of its update: it stops at the check that it
        # is on top (BoardScreen.update), not at the game-over check of a game resigned.
        self.over_shown = False

    def _close_offer_dialog(self) -> None:
        dialog, self._draw_dialog = self._draw_dialog, None
        if dialog is not None and dialog in self.app.scenes.scenes:
            self.app.scenes.remove(dialog)

    def show_game_over(self) -> None:
        self.over_shown = True
        winner, reason = self.result or (self.game.winner, self.game.status_reason)
        if winner is None:
            title, good = (N_("No result") if self.info.no_result else N_("Draw")), False
        elif self.color is None:
            title, good = _("{side} wins").format(side=term(SIDES, winner)), True
        else:
            good = winner == self.color
            title = N_("You won!") if good else N_("You lost")
        if self.game.status is not Status.DRAW:
            self.app.sound.play("win" if good else "loss")

        def close():
            self.app.scenes.remove(dialog)

        lines = [reason_words(reason) if reason else "",
                 ngettext("{n} move played.", "{n} moves played.", len(self.game.history)).format(
                     n=len(self.game.history))]
        rematch = [(N_("Rematch, colours swapped"), lambda: (close(), self.ask_rematch()))] \
            if self._may_rematch() else []
        dialog = DialogScene(self.app, title, [line for line in lines if line],
                             rematch + [(N_("Back to the lobby"), lambda: (close(), self.back_to_lobby())),
                              (N_("Save the game record"), self.ask_record),
                              (N_("Look at the board"), close),
                              (N_("Main menu"), lambda: self.app.navigator.open_menu())],
                             accent=GOLD if good else ILLEGAL, update_below=True, dim=60,
                             on_back=close)
        self.app.scenes.push(dialog)

    def ask_record(self) -> None:
        """Download the finished game's record (written when it arrives)."""
        message = {"type": "record", "table": self.table_id}
        token = self.session.token(self.table_id)
        if token:
            message["token"] = token
        elif self.info.invite:
            message["invite"] = self.info.invite
        self.session.send(message)

    def _save_record(self, message: dict) -> None:
        folder = records_dir()
        path = folder / f"camelot-online-{self.table_id}.txt"
        try:
            record = parse_record(str(message.get("text", "")))   # the server's text, checked
            folder.mkdir(parents=True, exist_ok=True)
            write_record(record, path)    # atomic, and never over what is not a regular file
        except (RoundTableError, OSError) as exc:
            self.app.toast(_("The record could not be saved: {problem}").format(
                problem=getattr(exc, "strerror", None) or exc), 4.0)
            return
        self.saved_record = path
        self.app.toast(_("Game record saved: {path}").format(path=path), 5.0)


__all__ = ["CamelotOnlineScene", "error_line", "game_from_table", "clock_text", "open_phrases"]
