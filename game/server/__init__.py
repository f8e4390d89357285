"""The game server: one asyncio node over the rules engine.

It validates every message against ``game.net.protocol``, referees each table with
the engine, stores before it acknowledges (SQLite by default, PostgreSQL with
``--store``), shares events between nodes through a bus (in-process, or Redis with
``--bus``), and serves the HTTP pages and API on the same port. Nothing in the rules
modules imports it; ``python -m game serve`` starts it.
"""
