"""What a failover costs the nodes that survive it, counted, not timed: the store
calls of a takeover, and the lobby views and bus calls of a burst of clients coming
back. (That a takeover loses nothing is test_cluster.py's and test_node_local.py's.)"""
from __future__ import annotations

import asyncio

from game.net.client import Client
from game.server import game_server
from game.server.limits import Limits
from game.server.lobby import LobbyView

from .helpers import run_scenario

COMERS = 40                 # clients saying hello at once


def test_clients_saying_hello_at_once_share_lobby_views_and_the_news_brings_them_up_to_date(
        monkeypatch):
    """40 guests arrive at once (as a dead node's clients do at a survivor): their
    welcomes share a few views of the lobby — each view is a pass over every table
    and every name — and the lobby news that follows lists them all."""
    made = [0]

    class CountedView(LobbyView):
        def __init__(self, server) -> None:
            made[0] += 1
            super().__init__(server)
    monkeypatch.setattr(game_server, "LobbyView", CountedView)

    async def scenario(server, url):
        first = await Client.connect(url, "First")
        for _ in range(20):
            await first.create_table()
        # A welcome may show the lobby as it was up to LOBBY_DELAY ago (the news
        # follows within that time): the tables are older than that.
        await asyncio.sleep(game_server.LOBBY_DELAY * 2)
        made[0] = 0
        comers = await asyncio.gather(*(Client.connect(url, f"Guest{i}")
                                        for i in range(COMERS)))
        assert all(c.welcome and c.received for c in comers)
        # Every welcome carried the lobby, with the tables already there.
        lobbies = [next(m for m in c.received if m["type"] == "lobby") for c in comers]
        assert all(lobby["total"] == 20 for lobby in lobbies)
        views = made[0]
        news = await comers[0].expect("lobby", 5, where=lambda m: m["online"] == COMERS + 1)
        return views, news

    views, news = run_scenario(scenario, limits=Limits(connections_per_address=100,
                                                        waiting_per_player=50,
                                                        waiting_per_address=50))
    assert views <= COMERS // 4, views                    # one per welcome: 40
    assert len(news["users"]) == COMERS + 1
