"""Network play for the board game: protocol, storage, server, client.

The only package of ``game`` that uses ``websockets`` (imported by server.py and
client.py alone; ``python -m game`` loads neither until ``serve`` runs).
docs/protocol.md describes the wire.
"""
