"""Join a game server from a terminal: ``python -m game.net.terminal URL NAME``
(a guest), or with ``--sign-in`` / ``--register`` an account: the password is read
from ROUNDTABLE_PASSWORD when set, else asked for without echo.

A small line client on top of :class:`~game.net.client.Client` (the app's online
screens will use the same library). Type ``help`` for the commands; a line
starting with ``{`` is sent as raw JSON. The table last created, sat at or
watched is the *current* one, so ``m F7-F8`` is enough to move.
"""
from __future__ import annotations

import asyncio
import getpass
import json
import os
import re
import sys

from ..camelot.board import CamelotBoard
from ..camelot.moves import rank_span
from .client import Client, ConnectionLost, ServerRefused

HELP = """commands (T = a table id such as T3; the current table if left out):
  lobby                      who is online and the open tables
  say TEXT                   lobby chat            chat TEXT      table chat
  new [private] [MIN+INC]    create a table, e.g. new 5+3 (5 minutes, 3 s a move)
  watch T [INVITE]           watch a table         sit T white|black [INVITE]
  start                      start (both seats taken)
  m MOVE                     move in WCF notation, e.g. m F7-F8
  draw / accept / decline    offer, accept or decline a draw
  resign | claim | record    resign; claim an abandoned game; print the game record
  resume T TOKEN             take your seat back after a reconnection
  rematch | takeback         after a game: ask for a rematch; ask to take back a move
  history NAME               a player's ratings and games
  ignore NAME | unignore NAME    stop (or start again) hearing a player
  moderators: mute NAME MINUTES | ban NAME [REASON] | unban NAME | close T [REASON]
  leave | board | quit       back to the lobby; print the board; leave"""


class Session:
    def __init__(self) -> None:
        self.table: str | None = None
        self.tokens: dict[str, str] = {}

    def seat(self, kind: str, table: str | None = None, **fields) -> dict:
        table = table or self.table
        if table is None:
            raise ValueError("no current table: create, sit at or watch one first")
        if table not in self.tokens:
            raise ValueError(f"you do not sit at {table}")
        return {"type": kind, "table": table, "token": self.tokens[table], **fields}

    def to_message(self, line: str) -> dict | None:
        """A typed line → the message to send (None: nothing to send).
        Raises ValueError with a sentence for a line it cannot read."""
        line = line.strip()
        if not line:
            return None
        if line.startswith("{"):
            return json.loads(line)
        word, _, rest = line.partition(" ")
        args = rest.split()
        table = next((a for a in args if re.fullmatch(r"T\d+", a)), None)
        if word == "lobby":
            return {"type": "lobby"}
        if word in ("rematch", "takeback"):
            return self.seat(word, table)
        if word == "history" and args:
            return {"type": "history", "name": rest}
        if word in ("ignore", "unignore", "unban") and args:
            return {"type": word if word != "unban" else "mod_unban", "name": rest}
        if word in ("mute", "ban", "close"):
            return _moderation(word, args)
        if word == "say":
            return {"type": "lobby_chat", "text": rest}
        if word == "chat":
            return {"type": "chat", "table": self.table, "text": rest}
        if word == "new":
            message = {"type": "create_table", "private": "private" in args, "time": None}
            clock = next((a for a in args if re.fullmatch(r"\d+\+\d+", a)), None)
            if clock:
                minutes, increment = clock.split("+")
                message["time"] = {"base": int(minutes) * 60, "increment": int(increment)}
            return message
        if word in ("watch", "sit"):
            if table is None:
                raise ValueError(f"{word} which table? e.g. {word} T1")
            message = {"type": word, "table": table}
            if word == "sit":
                colors = [a for a in args if a in ("white", "black")]
                if not colors:
                    raise ValueError("sit as white or black")
                message["color"] = colors[0]
            invite = [a for a in args if a != table and re.fullmatch(r"[A-Z0-9]{4,16}", a)]
            if invite:
                message["invite"] = invite[0]
            return message
        if word == "resume":
            if table is None or len(args) < 2:
                raise ValueError("resume T TOKEN")
            return {"type": "resume", "table": table, "token": args[-1]}
        if word == "leave":
            return {"type": "leave", "table": table or self.table}
        if word == "record":
            message = {"type": "record", "table": table or self.table}
            if message["table"] in self.tokens:
                message["token"] = self.tokens[message["table"]]
            return message
        if word in ("m", "move"):
            if not args:
                raise ValueError("m MOVE, e.g. m F7-F8")
            return self.seat("move", table, move=args[-1])
        simple = {"start": "start", "draw": "offer_draw", "accept": "accept_draw",
                  "decline": "decline_draw", "resign": "resign", "claim": "claim"}
        if word in simple:
            return self.seat(simple[word], table)
        raise ValueError(f"unknown command {word!r} (type help)")

    def heard(self, message: dict) -> None:
        """Follow what the server says: the current table and the seat tokens."""
        kind = message.get("type")
        if kind == "seated":
            self.tokens[message["table"]] = message["token"]
            self.table = message["table"]
        elif kind in ("table_created", "table") and message.get("table"):
            self.table = message["table"]


def _moderation(word: str, args: list[str]) -> dict:
    """mute NAME MINUTES, ban NAME [REASON], close T [REASON] (the name is one word:
    a name with spaces goes as raw JSON)."""
    if word == "mute":
        if len(args) != 2 or not args[1].isdigit():
            raise ValueError("mute NAME MINUTES, e.g. mute Pest 30")
        return {"type": "mod_mute", "name": args[0], "minutes": int(args[1])}
    if not args:
        raise ValueError(f"{word} {'T' if word == 'close' else 'NAME'} [REASON]")
    message = {"type": f"mod_{word}", "table" if word == "close" else "name": args[0]}
    if len(args) > 1:
        message["reason"] = " ".join(args[1:])
    return message


def board_text(position: str) -> str:
    """The board as text, rank 16 at the top (M N White, m n Black, . empty)."""
    board = CamelotBoard(position)
    lines = []
    for rank in range(16, 0, -1):
        first, last = rank_span(rank)
        cells = []
        for file in range(12):
            if not first <= file <= last:
                cells.append(" ")
                continue
            piece = board.piece_at(f"{'ABCDEFGHIJKL'[file]}{rank}")
            cells.append("." if piece is None else piece.symbol)
        lines.append(f"{rank:>2} " + " ".join(cells))
    lines.append("   " + " ".join("ABCDEFGHIJKL"))
    return "\n".join(lines)


def describe(message: dict) -> str:
    """A server message as one or a few lines for a person."""
    kind = message.get("type")
    if kind == "error":
        return f"! {message.get('message')} ({message.get('code')})"
    if kind == "welcome":
        who = "a guest" if message.get("guest", True) else "signed in"
        return f"welcome, {message['name']} ({who}; protocol {message['version']})"
    if kind == "lobby":
        rows = [f"  {t['table']}: {t['white'] or '-'} v {t['black'] or '-'}, {t['status']}, "
                f"{t['moves']} moves" for t in message["tables"]]
        return "online: " + ", ".join(message["users"]) + "\n" + ("\n".join(rows) or "  no tables")
    if kind == "ignoring":
        return f"{'ignoring' if message['on'] else 'hearing again'} {message['name']}"
    if kind == "moderated":
        return f"done: {message['action']} {message['target']}"
    if kind in ("lobby_chat", "chat"):
        return f"<{message['from']}> {message['text']}"
    if kind == "table_created":
        invite = f", invite code {message['invite']}" if message.get("invite") else ""
        return f"created {message['table']}{invite}"
    if kind == "seated":
        return f"you sit as {message['color']} at {message['table']} (token {message['token']})"
    if kind == "table":
        seats = message["seats"]
        who = " v ".join((s["name"] + ("" if s["present"] else " (away)")) if s else "-"
                         for s in (seats["white"], seats["black"]))
        return (f"{message['table']}: {who}, {message['status']}, {len(message['moves'])} moves, "
                f"{message['turn']} to move\n{board_text(message['position'])}")
    if kind == "moved":
        took = f" taking {', '.join(message['captures'])}" if message["captures"] else ""
        clocks = message.get("clocks")
        shown = (f"  [white {clocks['white'] / 1000:.0f} s, black {clocks['black'] / 1000:.0f} s]"
                 if clocks else "")
        return f"{message['ply']}. {message['by']} {message['move']}{took}{shown}\n" + \
            board_text(message["position"])
    if kind == "game_over":
        return f"game over at {message['table']}: {message['result']} — {message['reason']}"
    if kind == "record":
        return message["text"]
    if kind == "history":
        ratings = ", ".join(f"{kind} {r['rating']:.0f} ±{r['rd']:.0f}"
                            + ("?" if r["provisional"] else "")
                            for kind, r in message["ratings"].items()) or "no rated games"
        return f"{message['name']}: {ratings}; {len(message['games'])} games shown"
    if kind == "draw_offer":
        return f"{message['by']} offers a draw (accept / decline)"
    if kind == "draw_declined":
        return f"{message['by']} declines the draw"
    return json.dumps(message)


async def main_async(url: str, name: str, how: str | None = None,
                     password: str | None = None) -> int:
    try:
        if how is None:
            client = await Client.connect(url, name)
        else:
            client = await Client.account(url, name, password, register=how == "--register")
    except (OSError, asyncio.TimeoutError) as exc:
        print(f"error: cannot reach {url}: {exc}", file=sys.stderr)
        return 1
    except ServerRefused as exc:
        print(f"error: {exc.message.get('message')} ({exc.code})", file=sys.stderr)
        return 1
    session = Session()
    print(describe(client.welcome) + "\ntype help for the commands")
    loop = asyncio.get_running_loop()

    async def printer():
        while True:
            message = await client.next(timeout=None)
            session.heard(message)
            print(describe(message), flush=True)

    shown = loop.create_task(printer())
    try:
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line or line.strip() in ("quit", "exit"):
                break
            if line.strip() == "help":
                print(HELP)
                continue
            if line.strip() == "board":
                state = next((m for m in reversed(client.received)
                              if m.get("position") and m.get("table") == session.table), None)
                print(board_text(state["position"]) if state else "no table yet")
                continue
            try:
                message = session.to_message(line)
            except ValueError as exc:
                print(f"! {exc}")
                continue
            if message is not None:
                await client.ws.send(json.dumps(message))
            if shown.done():
                break
    except ConnectionLost:
        pass
    finally:
        shown.cancel()
        await client.close()
    if shown.done() and not shown.cancelled() and isinstance(shown.exception(), ConnectionLost):
        print("the server closed the connection", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    how = argv[2] if len(argv) == 3 else None
    if len(argv) not in (2, 3) or how not in (None, "--sign-in", "--register"):
        print("usage: python -m game.net.terminal ws://HOST:PORT NAME [--sign-in|--register]",
              file=sys.stderr)
        return 2
    password = None
    if how is not None:
        password = os.environ.get("ROUNDTABLE_PASSWORD") or getpass.getpass("password: ")
    try:
        return asyncio.run(main_async(argv[0], argv[1], how, password))
    except KeyboardInterrupt:
        return 0
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
