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
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
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


class SharedCache:
    def __init__(self, database: Database, ttl: float = TTL) -> None:
        self._database = database
        self._ttl = ttl
        self._entries: dict[str, tuple[float, Any]] = {}
        self._lock = threading.Lock()
        self._epoch = 0
        self._listening = threading.Event()
        self._closed = threading.Event()
        self._pid = 0
        path = make_url(database.url).database if database.dialect == "sqlite" else None
        # SQLite: the file whose data_version is watched (None: a memory database, read directly)
        self._sqlite_path = path if path and path != ":memory:" and not path.startswith("file:") else None
        self._watch: Callable[[], None] | None = (
            self._listen if database.dialect == "postgresql" else self._poll if self._sqlite_path else None
        )

    def close(self) -> None:
        """Stop watching (within a second); reads then go to the database."""
        self._closed.set()

    def get(self, key: str, load: Callable[[], V]) -> V:
        """The value for `key`, from this process's memory when it is known to be current, else from `load`."""
        if not self._ready():
            return load()
        now = time.monotonic()
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None and hit[0] > now:
                return hit[1]  # type: ignore[no-any-return]
            epoch = self._epoch
        value = load()
        with self._lock:
            if self._epoch == epoch and self._keeping():
                if len(self._entries) >= MAX_ENTRIES:
                    self._entries.clear()
                self._entries[key] = (now + self._ttl, value)
        return value

    def changed(self, connection: Connection, key: str = EVERYTHING) -> None:
        """Announce, inside the writer's transaction, that `key` (or everything) changed."""
        self._forget(key)
        if self._database.dialect == "postgresql":
            connection.execute(select(func.pg_notify(CHANNEL, key)))

    def _forget(self, key: str) -> None:
        with self._lock:
            self._epoch += 1
            if key == EVERYTHING:
                self._entries.clear()
            else:
                self._entries.pop(key, None)

    def _ready(self) -> bool:
        """Whether memory may serve a read now: the database's changes are being watched in this process."""
        if self._closed.is_set() or self._watch is None:
            return False
        if self._pid != os.getpid():  # first use in this process (or a forked child): start watching
            with self._lock:
                if self._pid != os.getpid():
                    self._pid = os.getpid()
                    self._listening.clear()
                    self._entries.clear()
                    threading.Thread(target=self._watch, name="dpscale-cache", daemon=True).start()
        return self._listening.is_set()

    def _keeping(self) -> bool:
        """Whether what was just read may be kept (lock held): the database's changes are being watched."""
        return self._listening.is_set()

    def _poll(self) -> None:
        """SQLite's watcher: forget everything whenever the file's data_version moves."""
        while not self._closed.is_set():
            try:
                with contextlib.closing(sqlite3.connect(self._sqlite_path or "", isolation_level=None)) as connection:
                    version = connection.execute("PRAGMA data_version").fetchone()[0]
                    self._listening.set()
                    while not self._closed.wait(WATCH_INTERVAL):
                        latest = connection.execute("PRAGMA data_version").fetchone()[0]
                        if latest != version:
                            version = latest
                            self._forget(EVERYTHING)
            except sqlite3.Error as error:
                logger.warning("cache watcher lost the database (%s); reading through until it is back",
                               type(error).__name__)
            finally:
                self._listening.clear()
                self._forget(EVERYTHING)
            self._closed.wait(RECONNECT_AFTER)

    def _listen(self) -> None:
        url = make_url(self._database.url).set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._closed.is_set():
            try:
                with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    while not self._closed.is_set():
                        for notice in connection.notifies(timeout=1.0):
                            self._forget(notice.payload)
            except psycopg.Error as error:
                logger.warning("cache listener lost the database (%s); reading through until it is back",
                               type(error).__name__)
            finally:
                self._listening.clear()
                self._forget(EVERYTHING)
            self._closed.wait(RECONNECT_AFTER)
