"""How many server processes to run, getting the database ready before they start, and a process's heap once
it is built."""

from __future__ import annotations

import gc
import os

from bot.engine import warm_up
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


def freeze_startup_heap() -> None:
    """Take everything built so far out of the cyclic garbage collector's sight (`gc.freeze`), once the app is
    built and before it serves: the imported libraries, the app, its clients and settings live as long as the
    process, and a full collection walked all of them again and again while requests came in. Measured with
    `bench/instructions.py --in-process`: 0.28 M of 2.34 M instructions per command were the collector's, and
    freezing here gave back all but 0.02 M of them. What the startup left as garbage is collected first, so none
    of it is kept.

    Before that, a result, an error and the help are answered in every offered locale (`bot.engine.warm_up`,
    about 150 ms): the first reply a process built used to load Babel's CLDR data then (some 20 MB, about 28,000
    objects the collector tracks), inside that request and out of the freeze's reach, so that every full
    collection walked it again."""
    warm_up()
    gc.collect()
    gc.freeze()
