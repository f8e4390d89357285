"""Screenshots of the browser pages, taken by a real headless Chromium.

    python tools/web_screenshots.py [--out docs/screenshots] [--size 1280x720]

A game server on a loopback port with a few games (tests/net/web_games.py), each
page opened and captured once its data is drawn: web-lobby, web-table,
web-game (a finished game stepped back to its 21st move), web-player,
web-leaderboard, web-archive (.png), and web-table-phone at 390x844.
At another --size the names end in the size (web-table-3840x2160.png), no phone.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.server.game_server import GameServer  # noqa: E402
from game.server.storage import SQLiteStorage  # noqa: E402
from tests.chromium import Browser  # noqa: E402
from tests.net.web_games import populate  # noqa: E402

# page → (path, the JavaScript condition that says its data is drawn[, what to do then])
SHOTS = {
    "lobby": ("/", "document.querySelectorAll('#tables tbody tr').length >= 2"),
    "table": ("/table/{live}", "document.querySelector('#board [data-piece]')"),
    "game": ("/table/{won}", "document.querySelector('#step-at')", "showPly(21)"),
    "player": ("/player/Erin", "document.querySelectorAll('#games tbody tr').length >= 2"),
    "leaderboard": ("/leaderboard", "document.querySelectorAll('#classes a').length"),
    "archive": ("/archive", "document.querySelectorAll('#games tbody tr').length >= 2"),
}


async def main(out: Path, width: int, height: int) -> None:
    suffix = "" if (width, height) == (1280, 720) else f"-{width}x{height}"
    server = GameServer(SQLiteStorage(":memory:"))
    port = await server.start("127.0.0.1", 0)
    scene = await populate(f"ws://127.0.0.1:{port}")
    ids = {k: v[1:] for k, v in scene.items() if isinstance(v, str)}
    try:
        async with Browser(width, height) as page:
            for name, (path, ready, *then) in SHOTS.items():
                await page.open(f"http://127.0.0.1:{port}{path.format(**ids)}")
                await page.wait_for(ready)
                for action in then:
                    await page.evaluate(action)
                await asyncio.sleep(0.3)               # fonts and the first clock tick
                await page.screenshot(str(out / f"web-{name}{suffix}.png"))
                print(out / f"web-{name}{suffix}.png")
            if suffix:
                return
            await page.resize(390, 844, mobile=True)
            await page.open(f"http://127.0.0.1:{port}/table/{ids['live']}")
            await page.wait_for(SHOTS["table"][1])
            await asyncio.sleep(0.3)
            await page.screenshot(str(out / "web-table-phone.png"))
            print(out / "web-table-phone.png")
            if page.errors:
                print("page errors:", *page.errors, sep="\n  ")
    finally:
        for client in scene["clients"]:
            await client.close()
        await server.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--size", default="1280x720")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    asyncio.run(main(args.out, w, h))
