"""Network play for the board game: protocol, storage, server, client.

The only package of ``game`` that imports ``websockets`` (and only in
server.py, client.py and bridge.py); docs/protocol.md describes the wire.
"""
