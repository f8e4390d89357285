"""Camelot at a network table: the board scene with the other side remote.

:class:`CamelotOnlineScene` is the board scene (same board, same input: mouse,
keyboard, gamepad) whose opponent is a person on a server. Like
:mod:`.camelot_computer`, which plays the computer's answers, it plays what
arrives: the opponent's moves come from the server (``moved``) and travel like
the computer's — the path first, then the piece. The player's own move is sent,
not played: it is played when the server acknowledges it, and a refusal is
shown in one line. The server's ``table`` message is the truth; when the local
game differs from it (a reconnection, a restart of the server) the board is
rebuilt from its moves.

Beside the board: both clocks, who is watching, the table chat (typed; a
gamepad's X, or H, offers a few set phrases), the link in one line when it is
lost. The network never blocks a frame: ``update_table`` polls the session.
"""
from __future__ import annotations


import pygame

from game.base import Status
from game.camelot.board import CamelotBoard
from game.camelot.moves import path_text
from game.camelot.record import parse as parse_record, write as write_record
from game.errors import RoundTableError

from ..core.overlays import DialogScene
from ..core.text_field import TextField
from ..store.records import records_dir
from ..core.ui import GOLD, ILLEGAL, INK, INK_DIM, Button, draw_text, rounded_panel, wrap_text
from ..table.board_layers import COLORS
from .camelot_board_scene import CamelotBoardScene
from .online_session import SET_PHRASES, OnlineSession

CHAT_SHOWN = 40                    # the last chat lines there may be room for
CHAT_LIMIT = 500                   # characters, as the server allows


def error_line(message: dict) -> str:
    """An ``error`` message as one line for the player."""
    text = str(message.get("message") or message.get("code") or "refused")
    if message.get("local"):
        return text[:1].upper() + text[1:]
    return "The server refused: " + text[:1].lower() + text[1:]


def game_from_table(table: dict) -> CamelotBoard:
    """The table's game, replayed from its start position and moves."""
    start = table.get("start_position")
    game = CamelotBoard(start) if start else CamelotBoard()
    for move in table.get("moves", []):
        game.play(move)
    return game


def clock_text(ms: float) -> str:
    seconds = max(0, int(ms + 999) // 1000)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def open_phrases(app, say, field: TextField) -> None:
    """A gamepad's way to chat: a few set phrases, or the keyboard (``field``)."""
    def choose(text):
        def run():
            app.scenes.remove(dialog)
            say(text)
        return run

    def type_():
        app.scenes.remove(dialog)
        field.activate()

    buttons = [(phrase, choose(phrase)) for phrase in SET_PHRASES]
    buttons += [("Type a message…", type_), ("Cancel", lambda: app.scenes.remove(dialog))]
    dialog = DialogScene(app, "Say", [], buttons, update_below=True,
                         on_back=lambda: app.scenes.remove(dialog))
    app.scenes.push(dialog)


class CamelotOnlineScene(CamelotBoardScene):
    holds_game = False             # an online game lives on the server, not in the save file

    def __init__(self, app, session: OnlineSession, table: dict, on_leave=None) -> None:
        self.session = session
        self.table_id = table["table"]
        # The table as the server last described it (seats, clocks, chat …), folded
        # from its messages by game.net.view; the board below is the scene's own.
        self.info = session.state.table(self.table_id)
        self.color = session.seat(self.table_id)      # None: watching
        self.pending: str | None = None                # our move, sent, not yet acknowledged
        self.chat_field = TextField(app, "Chat: click here or press H", CHAT_LIMIT, self._say)
        self.on_leave = on_leave
        self._draw_dialog = None
        self._side_drawn = None
        self.side_rect = pygame.Rect(0, 0, 0, 0)
        super().__init__(app, game=game_from_table(table), mode="online",
                         human=self.color or "white")
        self.title = "Camelot online"     # (the class's title is the game's, from game/)

    # --- modes and lifecycle ---------------------------------------------------------
    @property
    def flipped(self) -> bool:
        return self.color == "black"

    def enter(self) -> None:
        super().enter()
        self._sync()

    def leave(self) -> None:
        super().leave()
        self.chat_field.deactivate()

    def _make_buttons(self) -> list[Button]:
        return [Button("Menu", self.open_pause), Button("Offer draw", self.offer_draw),
                Button("Resign", self.resign), Button("Chat", self.hint),
                Button("Lobby", self.back_to_lobby)]

    def _not_here(self) -> None:
        self.app.toast("Not in an online game: the server keeps the game", 2.0)

    undo = redo = restart = toggle_autoplay = _not_here

    def new_deal(self, seed: int | None = None) -> None:
        self._not_here()

    def open_setup(self, first: bool = False) -> None:
        self.back_to_lobby()

    def back_to_lobby(self) -> None:
        self.session.send({"type": "leave", "table": self.table_id})
        if self.on_leave is not None:
            self.on_leave(self)
        else:
            self.app.scenes.remove(self)

    def open_pause(self, reason: str = "") -> None:
        def then(action):
            def run():
                self.app.scenes.remove(dialog)
                action()
            return run

        buttons = [("Resume", then(lambda: None))]
        if self._seated_and_playing():
            buttons += [("Offer a draw", then(self.offer_draw)), ("Resign", then(self.resign))]
        buttons += [("Back to the lobby", then(self.back_to_lobby)),
                    ("How to play", self.open_help),
                    ("Main menu", lambda: self.app.navigator.open_menu())]
        lines = ([reason] if reason else []) + [self._players_line()]
        dialog = DialogScene(self.app, "Paused", lines, buttons,
                             on_back=lambda: self.app.scenes.remove(dialog), update_below=True)
        self.app.scenes.push(dialog)

    # --- who plays ----------------------------------------------------------------------
    def _seat(self, color: str) -> dict | None:
        return (self.info.seats or {}).get(color)

    def _seated_and_playing(self) -> bool:
        return self.color is not None and self.info.status == "playing"

    @property
    def result(self) -> tuple | None:
        """(winner, reason) once the server says the game is over."""
        return (self.info.winner, self.info.reason) if self.info.status == "finished" else None

    def _computer_side(self, color: str) -> bool:
        return False

    @property
    def interactive(self) -> bool:
        return (self._seated_and_playing() and self.game.status is Status.PLAYING
                and self.game.turn == self.color and self.pending is None
                and not self.busy and self.session.online)

    def _players_line(self) -> str:
        names = [(self._seat(c) or {}).get("name", "nobody") for c in COLORS]
        where = f"Table {self.table_id} on {self.session.url}"
        if self.color is None:
            return f"{where}: you watch {names[0]} (White) against {names[1]} (Black)."
        opponent = names[COLORS.index(self.color) ^ 1]
        return f"{where}: you play {self.color.capitalize()} against {opponent}."

    def _side_name(self, color: str) -> str:
        seat = self._seat(color)
        if seat is None:
            return "empty seat"
        name = seat["name"] + (" (you)" if color == self.color else "")
        return name + ("" if seat.get("present", True) else " · away")

    def status_line(self) -> str:
        line = self.session.link_line()
        if line:
            return line
        if self.result is not None:
            reason = self.result[1] or "The game is over"
            return reason[:1].upper() + reason[1:]
        if self.info.status == "waiting":
            if self.info.invite and self.color is not None:
                return f"Waiting for an opponent: give a friend the code {self.table_id}-{self.info.invite}"
            return "Waiting for both seats to be taken"
        if self.pending is not None:
            return f"Sending {self.pending}…"
        if self.color is not None and self.game.status is Status.PLAYING and not self.busy \
                and self.game.turn != self.color:
            return f"{self._side_name(self.game.turn)} is thinking"
        line = super().status_line()
        if self.color is not None and line.startswith(f"{self.game.turn.capitalize()} to move"):
            line = "Your move" + line[len(self.game.turn) + len(" to move"):]
        return line

    # --- the player's moves go to the server --------------------------------------------
    def _play_alternative(self, alt) -> None:
        move, path = alt
        text = path_text(tuple(path), move.captured)
        token = self.session.token(self.table_id)
        self.pending = text
        self.session.send({"type": "move", "table": self.table_id, "token": token, "move": text})
        self._deselect()
        self.focus_sq = move.to_square

    def _update_toolbar(self) -> None:
        super()._update_toolbar()
        for b in self.toolbar.buttons:
            if b.label in ("Offer draw", "Resign"):
                b.enabled = self._seated_and_playing()

    def _seat_request(self, kind: str) -> None:
        if not self._seated_and_playing():
            self.app.toast("Only a player in a game in progress can do that", 2.0)
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
        dialog = DialogScene(self.app, "Resign?", ["The game ends and your opponent wins."],
                             [("Resign", sure), ("Play on", lambda: self.app.scenes.remove(dialog))],
                             on_back=lambda: self.app.scenes.remove(dialog), update_below=True)
        self.app.scenes.push(dialog)

    # --- chat -------------------------------------------------------------------------------
    def hint(self) -> None:
        """H, gamepad X, the Chat button: a few set phrases, or typing."""
        open_phrases(self.app, self._say, self.chat_field)

    def _say(self, text: str) -> None:
        self.session.send({"type": "chat", "table": self.table_id, "text": text})
        self.chat_field.text = ""
        self.chat_field.deactivate()

    def handle(self, event) -> None:
        if self.chat_field.handle(event):
            return
        super().handle(event)

    # --- what arrives ------------------------------------------------------------------------
    def update_table(self, dt: float) -> None:
        super().update_table(dt)
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
        if message.get("table") != self.table_id:
            return
        if kind == "table":
            self._sync(message.get("moves", []))
        elif kind == "moved":
            self._moved(message)
        elif kind == "seated":
            self.color = message["color"]
        elif kind == "draw_offer":
            if message.get("to") == self.color:
                self._offer_dialog()
            else:
                self.info.chat.append(("", f"{message.get('by', '?').capitalize()} offers a draw."))
        elif kind == "draw_declined":
            self.info.chat.append(("", f"{message.get('by', '?').capitalize()} declines the draw."))
        elif kind == "record":
            self._save_record(message)
        elif kind == "game_over":
            self._close_offer_dialog()

    def _refused(self, message: dict) -> None:
        if message.get("code") == "offline":
            if message.get("refused") == "move":
                self.pending = None
            self.app.toast("Not connected: retrying…", 2.0)
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
        self.play(move, by_computer=not mine)
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
                    self.play(move, by_computer=self.game.turn != self.color)
            if list(self.game.history) != moves:
                try:
                    self.game = game_from_table({"start_position": info.start_position,
                                                 "moves": moves})
                except RoundTableError:
                    self.app.toast("The server's game could not be replayed here", 4.0)
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
        if info.draw_offer == self.color and self.color is not None and self.result is None:
            self._offer_dialog()
        elif info.draw_offer is None:
            self._close_offer_dialog()

    # --- draw offers and the end ----------------------------------------------------------
    def _offer_dialog(self) -> None:
        if self._draw_dialog is not None and self._draw_dialog in self.app.scenes.scenes:
            return

        def answer(kind):
            def run():
                self._close_offer_dialog()
                self._seat_request(kind)
            return run
        opponent = self._side_name(COLORS[COLORS.index(self.color) ^ 1])
        self._draw_dialog = DialogScene(
            self.app, "Draw offered", [f"{opponent} offers a draw."],
            [("Accept the draw", answer("accept_draw")), ("Decline, play on", answer("decline_draw"))],
            on_back=answer("decline_draw"), update_below=True)
        self.app.scenes.push(self._draw_dialog)

    def _close_offer_dialog(self) -> None:
        dialog, self._draw_dialog = self._draw_dialog, None
        if dialog is not None and dialog in self.app.scenes.scenes:
            self.app.scenes.remove(dialog)

    def show_game_over(self) -> None:
        self.over_shown = True
        self.autoplay = False
        winner, reason = self.result or (self.game.winner, self.game.status_reason)
        if winner is None:
            title, good = ("No result" if self.info.no_result else "Draw"), False
        elif self.color is None:
            title, good = f"{winner.capitalize()} wins", True
        else:
            good = winner == self.color
            title = "You won!" if good else "You lost"
        self.sound_of_end(good)

        def close():
            self.app.scenes.remove(dialog)

        lines = [reason[:1].upper() + reason[1:] + "." if reason else "",
                 f"{len(self.game.history)} move{'' if len(self.game.history) == 1 else 's'} played."]
        dialog = DialogScene(self.app, title, [line for line in lines if line],
                             [("Back to the lobby", lambda: (close(), self.back_to_lobby())),
                              ("Save the game record", self.ask_record),
                              ("Look at the board", close),
                              ("Main menu", lambda: self.app.navigator.open_menu())],
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
            self.app.toast(f"The record could not be saved: {getattr(exc, 'strerror', None) or exc}", 4.0)
            return
        self.saved_record = path
        self.app.toast(f"Game record saved: {path}", 5.0)

    # --- the column beside the board ----------------------------------------------------------
    def layout(self, area: pygame.Rect) -> None:
        s = self.scale
        side_w = int(min(320 * s, area.w * 0.26))
        gap = int(18 * s)
        self.side_rect = pygame.Rect(area.right - side_w, area.y + int(6 * s), side_w,
                                     area.h - int(12 * s))
        self.view.layout(pygame.Rect(area.x, area.y, area.w - side_w - gap, area.h), s, self.flipped)
        field_h = int(36 * s)
        pad = int(12 * s)
        self.chat_field.rect = pygame.Rect(self.side_rect.x + pad, self.side_rect.bottom - pad - field_h,
                                           self.side_rect.w - 2 * pad, field_h)
        self._side_drawn = None

    def _side_state(self) -> tuple:
        clocks = tuple(None if (ms := self.clock_ms(c)) is None else clock_text(ms) for c in COLORS)
        running = (self.info.clocks or {}).get("running") if self.result is None else None
        watchers = tuple(self.info.spectators)
        return (clocks, running, watchers, tuple(self.info.chat)[-CHAT_SHOWN:], self.chat_field.text,
                self.chat_field.active,
                tuple(self._side_name(c) for c in COLORS), self.info.invite)

    def resting_changes(self) -> list[pygame.Rect]:
        rects = super().resting_changes()
        state = self._side_state()
        if state != self._side_drawn:
            self._side_drawn = state
            rects.append(self.side_rect.inflate(4, 4))
        return rects

    def resting_rebuilt(self) -> None:
        super().resting_rebuilt()
        self._side_drawn = self._side_state()

    def draw_resting(self, surface: pygame.Surface, clip) -> None:
        super().draw_resting(surface, clip)
        if clip is None or clip.colliderect(self.side_rect):
            self._draw_side(surface)

    def _draw_side(self, surface: pygame.Surface) -> None:
        s = self.scale
        rect = self.side_rect
        surface.blit(rounded_panel(rect.size, radius=int(14 * s)), rect)
        pad = int(14 * s)
        x, y, width = rect.x + pad, rect.y + pad, rect.w - 2 * pad
        state = self._side_state()
        (clocks, running, watchers, chat, _, _, names, invite) = state
        draw_text(surface, f"Table {self.table_id}" + (f" · invite code {self.table_id}-{invite}" if invite else ""),
                  22 * s, (x, y), INK_DIM)
        y += int(30 * s)
        for color, name, clock in zip(COLORS, names, clocks):
            live = running == color
            draw_text(surface, f"{color.capitalize()}: {name}", 21 * s, (x, y),
                      GOLD if live else INK)
            draw_text(surface, clock if clock else "no clock", (30 if clock else 19) * s,
                      (rect.right - pad, y + int(10 * s)), GOLD if live else INK_DIM, anchor="midright")
            y += int(34 * s)
        who = ", ".join(watchers) if watchers else "nobody"
        for line in wrap_text(f"Watching: {who}", int(19 * s), width)[:2]:
            draw_text(surface, line, 19 * s, (x, y), INK_DIM)
            y += int(22 * s)
        y += int(6 * s)
        pygame.draw.line(surface, (90, 120, 100), (x, y), (rect.right - pad, y), max(1, int(s)))
        y += int(8 * s)
        draw_text(surface, "Chat", 21 * s, (x, y), INK_DIM)
        y += int(26 * s)
        px = int(19 * s)
        line_h = int(22 * s)
        lines: list[tuple[str, tuple]] = []
        for who, text in chat:
            said = f"{who}: {text}" if who else text
            lines += [(line, INK if who else GOLD) for line in wrap_text(said, px, width)]
        room = max(0, (self.chat_field.rect.y - int(8 * s) - y) // line_h)
        for line, color in lines[-room:] if room else []:
            draw_text(surface, line, px, (x, y), color)
            y += line_h
        self.chat_field.draw(surface, s)


__all__ = ["CamelotOnlineScene", "error_line", "game_from_table", "clock_text", "open_phrases"]
