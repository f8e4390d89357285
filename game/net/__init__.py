"""The client side of network play: the protocol every message follows, the client
library, the app's bridge to it, the lobby view and a line terminal.

Importable with the base install alone (``websockets``); the server lives in
``game.server``, whose PostgreSQL and Redis parts need the ``server`` extra.
docs/protocol.md describes the wire.
"""
