"""How many server processes to run, and what a process does with its heap once it is built.

Nothing here is imported before it is needed: the web process reads how many workers to fork from the database
URL alone, and loads dpscale's replies (bot.engine) only for the warm-up.
"""

from __future__ import annotations

import functools
import gc
import logging
import os
import time
from collections.abc import Callable

from bot.settings import Settings

__all__ = ["default_process_count", "freeze_startup_heap", "shared_database", "warm_steps"]

log = logging.getLogger("bot.server")


def default_process_count(settings: Settings, cpus: int | None = None) -> int:
    """One process per core when the database is shared (PostgreSQL): every process then sees the same handled
    events, Share clicks and preferences, so more processes only add throughput. One process otherwise: an
    SQLite file serialises every write through one lock, and a second host could not see it at all, so extra
    processes would wait on each other rather than help. WEB_CONCURRENCY, when set, overrides this."""
    if not shared_database(settings.database_url):
        return 1
    return max(1, cpus if cpus is not None else (os.cpu_count() or 1))


def shared_database(database_url: str | None) -> bool:
    """Whether DATABASE_URL names a database other processes and hosts can use: anything but SQLite (read from
    the URL's scheme, as SQLAlchemy names the backend, without loading SQLAlchemy)."""
    scheme = (database_url or "sqlite:").split(":", 1)[0]
    return scheme.split("+", 1)[0] != "sqlite"


def freeze_startup_heap() -> None:
    """Warm up, then take everything built so far out of the cyclic garbage collector's sight (`gc.freeze`),
    once the app is built and before it serves: the imported libraries, the app, its clients and settings live as
    long as the process, and a full collection walked all of them again and again while requests came in.
    Measured with `bench/instructions.py --in-process`: 0.28 M of 2.34 M instructions per command were the
    collector's, and freezing gave back all but 0.02 M of them. What the startup left as garbage is collected
    first, so none of it is kept.

    The warm-up answers a result, an error and the help in every offered locale (`bot.engine.warm_up`, about
    200 ms): the first reply in a locale loads Babel's CLDR data for it (some 20 MB, about 28,000 objects the
    collector tracks in all), which would otherwise stay out of the freeze's reach. Socket Mode and the benchmarks
    do this before serving; the web process does the same in steps while its workers are idle (`warm_steps`)."""
    for step in warm_steps():
        step()


def warm_steps() -> list[Callable[[], None]]:
    """The warm-up and the freeze of `freeze_startup_heap` in small steps, for a worker to run while no request
    is in flight: one locale's warm-up each (a few milliseconds), its data frozen at once, then a last collection
    and freeze, with one log line once all are done.

    Each step freezes what it loaded (after collecting the young generations, where its garbage is): a full
    collection that comes while the warm-up is under way, as a burst of requests allocates enough to start one,
    then walks none of the locales' data. Frozen only at the end, half the locales' data (18,000 objects) made
    such a collection take 0.1 s here, and one took 0.43 s of the interpreter in the middle of a cold burst."""
    from bot.engine import warm_up
    from bot.reader.formats import NUMBER_FORMATS

    began: float | None = None  # when the first step ran

    def warm(tag: str) -> None:
        nonlocal began
        began = time.monotonic() if began is None else began
        warm_up((tag,))
        gc.collect(1)
        gc.freeze()

    def collect_and_freeze() -> None:
        gc.collect()
        gc.freeze()
        log.info("warmed up: %d locales loaded and the heap frozen in %.0f ms", len(NUMBER_FORMATS),
                 (time.monotonic() - (began or time.monotonic())) * 1000)

    return [*(functools.partial(warm, tag) for tag in NUMBER_FORMATS), collect_and_freeze]
