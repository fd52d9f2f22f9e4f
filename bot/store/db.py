"""One database per process, reached through SQLAlchemy: an SQLite file by default, PostgreSQL for many processes.

The engine is created the first time it is needed in a process, never inherited across a fork: a server that
forks its workers after start-up (gunicorn) gives each worker its own pool of connections. Should an engine
exist before a fork, the child drops the inherited pool without closing the parent's connections.
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table, create_engine, event
from sqlalchemy.engine import Engine, make_url

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql, sqlite

DEFAULT_URL = "sqlite:///dpscale.sqlite3"
SQLITE_PAGE_CACHE_KIB = 256
# how long a write waits for another's lock: a write made before an acknowledgement (a `format=` word's) must leave
# time within Slack's 3 s for the answer, the apology included
POSTGRES_CONNECT_TIMEOUT_S = 3  # libpq's connect_timeout, unless DATABASE_URL sets one
SQLITE_BUSY_TIMEOUT_MS = 2000


def sqlalchemy_url(database_url: str | None) -> str:
    """The SQLAlchemy URL for DATABASE_URL: `postgresql://…` (or `postgres://…`) uses psycopg 3, unset means
    the SQLite file `dpscale.sqlite3` in the working directory."""
    if not database_url:
        return DEFAULT_URL
    for prefix in ("postgres://", "postgresql://"):
        if database_url.startswith(prefix):
            return "postgresql+psycopg://" + database_url.removeprefix(prefix)
    return database_url


class Database:
    """Where dpscale keeps what must outlive a request or be shared between processes."""

    def __init__(self, database_url: str | None) -> None:
        self.url = sqlalchemy_url(database_url)
        self.dialect = make_url(self.url).get_backend_name()  # "sqlite" or "postgresql"
        self._engine: Engine | None = None
        self._pid = 0
        self._lock = threading.Lock()

    @property
    def shared(self) -> bool:
        """True when other processes or hosts can use the same database (a server, not a local file)."""
        return self.dialect != "sqlite"

    def insert(self, table: Table) -> postgresql.Insert | sqlite.Insert:
        """An INSERT into `table` in this database's dialect, which can take `on_conflict_do_update` (an upsert).
        The dialect's module is imported here, once the engine has loaded it: the other's is never loaded."""
        if self.dialect == "postgresql":
            from sqlalchemy.dialects import postgresql

            return postgresql.insert(table)
        from sqlalchemy.dialects import sqlite

        return sqlite.insert(table)

    @property
    def engine(self) -> Engine:
        """This process's engine, created on first use."""
        with self._lock:
            if self._engine is None or self._pid != os.getpid():
                self._engine = _create(self.url)
                self._pid = os.getpid()
            return self._engine

    def scrub(self) -> None:
        """SQLite: copy the write-ahead log into the file and cut it to nothing, so that the earlier versions of
        the pages it held (finished jobs' payloads, the user's text) are gone from it too. PostgreSQL: nothing
        (its own VACUUM does the like)."""
        if self.dialect == "sqlite":
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def dispose(self) -> None:
        with self._lock:
            if self._engine is not None and self._pid == os.getpid():
                self._engine.dispose()
            self._engine = None


def _create(url: str) -> Engine:
    parsed = make_url(url)
    # an error's message never quotes the statement's values: a bot token being stored, a user's id
    options: dict[str, Any] = {"pool_pre_ping": True, "hide_parameters": True}
    if parsed.get_backend_name() == "sqlite":
        options["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "check_same_thread": False}
    elif "connect_timeout" not in parsed.query:  # a server that takes the connection and never answers (a host
        # gone, a failover under way) fails the connection in seconds instead of holding a request's thread
        options["connect_args"] = {"connect_timeout": POSTGRES_CONNECT_TIMEOUT_S}
    engine = create_engine(url, **options)
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _tune_sqlite)
    _drop_pool_in_forked_children(engine)
    return engine


def _tune_sqlite(connection: Any, _record: Any) -> None:
    """WAL lets readers go on while one thread writes; the busy timeout makes writers queue instead of failing.

    Each pooled connection keeps its own page cache (2 MiB by default); the rows read on a request are a few
    index pages, so 256 KiB each keeps a worker's memory from growing with the database file.
    """
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA cache_size=-{SQLITE_PAGE_CACHE_KIB}")
    # what is deleted or overwritten (a finished job's payload: the user's text) is overwritten with zeros, and the
    # write-ahead log is cut back to nothing at each checkpoint that empties it (`Database.scrub`)
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.execute("PRAGMA journal_size_limit=0")
    cursor.close()


def _drop_pool_in_forked_children(engine: Engine) -> None:
    ref = weakref.ref(engine)

    def after_fork() -> None:
        forked = ref()
        if forked is not None:
            forked.dispose(close=False)

    os.register_at_fork(after_in_child=after_fork)
