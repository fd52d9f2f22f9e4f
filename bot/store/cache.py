"""Rows read on every request (a user's number format, a workspace's bot), kept in each process and dropped in
every process soon after one of them changes a row: at once in the process that changed it, within moments in
the others.

Each process runs one watcher thread, and keeps nothing while the watcher is not watching (before it has started,
or after it lost the database): reads then go to the database. A read that overlaps a change is not kept (an
epoch counter tells).

- PostgreSQL: the watcher LISTENs on one channel; a writer NOTIFYs the changed key in the same transaction, and
  every process forgets that key when the notice arrives.
- SQLite: the watcher asks `PRAGMA data_version` every `WATCH_INTERVAL` on a connection of its own. The number
  moves whenever any other connection, in this process or another, has committed a change to the file since the
  last time, and then everything kept is forgotten. Asked by the watcher, not before each read: the call lets go
  of the interpreter lock, and on a busy server each request that let go of it mid-way waited for it behind the
  other threads (at 16 clients that cost 24 % of the throughput). An in-memory SQLite database is read directly.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sqlite3
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, make_url

from bot.store.db import Database

logger = logging.getLogger(__name__)

V = TypeVar("V")
CHANNEL = "dpscale_cache"
EVERYTHING = "*"
TTL = 600.0  # a safety net only: changes are announced
MAX_ENTRIES = 50_000
RECONNECT_AFTER = 1.0
WATCH_INTERVAL = 0.05  # SQLite: seconds between two looks at the file's data_version


class _Memory:
    """What a process keeps, and whether it may keep it now. The watcher thread holds this rather than the cache,
    so that a cache nobody holds any more is collected, and its watcher, told by `weakref.finalize`, ends."""

    def __init__(self) -> None:
        self.entries: dict[str, tuple[float, Any]] = {}
        self.lock = threading.Lock()
        self.epoch = 0
        self.watching = threading.Event()  # changes are being watched: what is read may be kept
        self.closed = threading.Event()

    def forget(self, key: str) -> None:
        with self.lock:
            self.epoch += 1
            if key == EVERYTHING:
                self.entries.clear()
            else:
                self.entries.pop(key, None)

    def watch(self, look: Callable[[_Memory], None], name: str) -> None:
        """Run `look` (one connection's watch, which returns or raises when it ends) until the cache is closed;
        a database that went away is tried again after `RECONNECT_AFTER`."""
        while not self.closed.is_set():
            try:
                look(self)
            except _lost_database() as error:
                logger.warning("cache %s lost the database (%s); reading through until it is back",
                               name, type(error).__name__)
            finally:
                self.watching.clear()
                self.forget(EVERYTHING)
            self.closed.wait(RECONNECT_AFTER)


class SharedCache:
    def __init__(self, database: Database, ttl: float = TTL) -> None:
        self._database = database
        self._ttl = ttl
        self._memory = memory = _Memory()
        weakref.finalize(self, memory.closed.set)
        self._pid = 0
        path = make_url(database.url).database if database.dialect == "sqlite" else None
        # SQLite: the file whose data_version is watched (None: a memory database, read directly)
        sqlite_path = path if path and path != ":memory:" and not path.startswith("file:") else None
        # how this process watches the database's changes, and what the log calls it (None: it does not)
        self._watch: tuple[Callable[[_Memory], None], str] | None = None
        if database.dialect == "postgresql":
            url = make_url(database.url).set(drivername="postgresql").render_as_string(hide_password=False)
            self._watch = functools.partial(_listen, url), "listener"
        elif sqlite_path is not None:
            self._watch = functools.partial(_poll, sqlite_path), "watcher"

    @property
    def watching(self) -> bool:
        """Whether this process watches the database's changes now, and so keeps what it reads."""
        return self._memory.watching.is_set()

    def close(self) -> None:
        """Stop watching (within a second); reads then go to the database."""
        self._memory.closed.set()

    def get(self, key: str, load: Callable[[], V]) -> V:
        """The value for `key`, from this process's memory when it is known to be current, else from `load`."""
        memory = self._memory
        if not self._ready():
            return load()
        now = time.monotonic()
        with memory.lock:
            hit = memory.entries.get(key)
            if hit is not None and hit[0] > now:
                return hit[1]  # type: ignore[no-any-return]
            epoch = memory.epoch
        value = load()
        with memory.lock:
            if memory.epoch == epoch and memory.watching.is_set():
                if len(memory.entries) >= MAX_ENTRIES:
                    memory.entries.clear()
                memory.entries[key] = (now + self._ttl, value)
        return value

    def start(self) -> None:
        """Start watching the database's changes in this process now, before the first read needs it."""
        self._ready()

    @property
    def version(self) -> int | None:
        """The epoch of what this process keeps (it moves whenever anything is forgotten); None while nothing is
        kept, changes not being watched."""
        return self._memory.epoch if self._ready() else None

    def snapshot(self) -> int:
        """A mark taken before reading a value elsewhere, for `offer` to tell whether a change overlapped the read."""
        return self._memory.epoch

    def offer(self, key: str, value: object, snapshot: int) -> None:
        """Keep `value`, read by another query than `get`'s own load (it began after `snapshot`), as `get` keeps
        what it loads: unless a change overlapped the read, or changes are not watched."""
        memory = self._memory
        if not self._ready():
            return
        with memory.lock:
            if memory.epoch == snapshot and memory.watching.is_set():
                if len(memory.entries) >= MAX_ENTRIES:
                    memory.entries.clear()
                memory.entries[key] = (time.monotonic() + self._ttl, value)

    def changed(self, connection: Connection, key: str = EVERYTHING) -> None:
        """Announce, inside the writer's transaction, that `key` (or everything) changed."""
        self._memory.forget(key)
        if self._database.dialect == "postgresql":
            connection.execute(select(func.pg_notify(CHANNEL, key)))

    def _ready(self) -> bool:
        """Whether memory may serve a read now: the database's changes are being watched in this process."""
        memory = self._memory
        if memory.closed.is_set() or self._watch is None:
            return False
        if self._pid != os.getpid():  # first use in this process (or a forked child): start watching
            with memory.lock:
                if self._pid != os.getpid():
                    self._pid = os.getpid()
                    memory.watching.clear()
                    memory.entries.clear()
                    threading.Thread(target=memory.watch, args=self._watch, name="dpscale-cache", daemon=True).start()
        return memory.watching.is_set()


def _poll(path: str, memory: _Memory) -> None:
    """SQLite: forget everything whenever the file's data_version moves."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as connection:
        version = connection.execute("PRAGMA data_version").fetchone()[0]
        memory.watching.set()
        while not memory.closed.wait(WATCH_INTERVAL):
            latest = connection.execute("PRAGMA data_version").fetchone()[0]
            if latest != version:
                version = latest
                memory.forget(EVERYTHING)


def _lost_database() -> tuple[type[Exception], ...]:
    """What a watch raises when its database goes away: sqlite3's errors, and psycopg's once it is loaded (only
    where PostgreSQL is used: it is a twentieth of a second of every start-up otherwise)."""
    psycopg = sys.modules.get("psycopg")
    return (sqlite3.Error,) if psycopg is None else (sqlite3.Error, psycopg.Error)


def _listen(url: str, memory: _Memory) -> None:
    """PostgreSQL: forget each key a NOTIFY names."""
    import psycopg

    with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
        connection.execute(f"LISTEN {CHANNEL}")
        memory.watching.set()
        while not memory.closed.is_set():
            for notice in connection.notifies(timeout=1.0):
                memory.forget(notice.payload)
