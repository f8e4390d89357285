"""Real PostgreSQL and Redis for the network tests: the fixtures live with the
servers they start, in tests/services.py."""
from tests.services import postgres_dsn, postgres_server, redis_server, redis_url  # noqa: F401
