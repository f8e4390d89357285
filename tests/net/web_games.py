"""Games on a loopback server for the browser pages: a live one, a waiting
table and finished ones (a castle win, a resignation). Shared by the browser
tests and tools/web_screenshots.py."""
from __future__ import annotations

from game.net.client import Client

from .helpers import CASTLE_GAME, play_line, seated_pair

LIVE_PLIES = 12          # the live game's first moves (captures among them)


async def finished_game(url: str, white: str, black: str, line: list[str],
                        resign: str | None = None, time_control=None) -> str:
    """A game between ``white`` and ``black``: ``line`` played, then ``resign``
    (a colour) resigns if given. Returns the table id."""
    w, b = await Client.connect(url, white), await Client.connect(url, black)
    table = (await w.create_table(time=time_control))["table"]
    await w.sit(table, "white")
    await b.sit(table, "black")
    await w.start(table)
    await play_line(w, b, table, line)
    if resign:
        await (w if resign == "white" else b).resign(table)
    await w.close()
    await b.close()
    return table


async def populate(url: str) -> dict:
    """The scene: two finished games, a live timed game with a spectator, a
    waiting table. Returns the clients kept open and the tables' ids."""
    won = await finished_game(url, "Erin", "Frank", CASTLE_GAME)
    resigned = await finished_game(url, "Alice", "Erin", CASTLE_GAME[:9], resign="white",
                                   time_control={"base": 300, "increment": 3})
    alice, bob, carol, live = await seated_pair(url, time_control={"base": 600, "increment": 5},
                                                spectator=True)
    await play_line(alice, bob, live, CASTLE_GAME[:LIVE_PLIES])
    dave = await Client.connect(url, "Dave")
    waiting = (await dave.create_table())["table"]
    await dave.sit(waiting, "white")
    return {"clients": [alice, bob, carol, dave], "live": live, "waiting": waiting,
            "won": won, "resigned": resigned}
