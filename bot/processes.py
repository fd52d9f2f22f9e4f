"""How many server processes to run, and getting the database ready before they start."""

from __future__ import annotations

import os

from bot.settings import Settings
from bot.store import Database, upgrade


def default_process_count(settings: Settings, cpus: int | None = None) -> int:
    """One process per core when the database is shared (PostgreSQL): every process then sees the same handled
    events, Share clicks and preferences, so more processes only add throughput. One process otherwise: an
    SQLite file serialises every write through one lock, and a second host could not see it at all, so extra
    processes would wait on each other rather than help. WEB_CONCURRENCY, when set, overrides this."""
    if not Database(settings.database_url).shared:
        return 1
    return max(1, cpus if cpus is not None else (os.cpu_count() or 1))


def prepare_database(settings: Settings) -> None:
    """Create or migrate the schema once, before any worker starts; the migrating engine is closed again so that
    no connection is inherited by a forked worker."""
    database = Database(settings.database_url)
    try:
        upgrade(database)
    finally:
        database.dispose()
