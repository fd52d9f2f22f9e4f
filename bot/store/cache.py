"""Rows read on every request (a user's number format, a workspace's bot), kept in each process and dropped in
every process the moment one of them changes a row.

On PostgreSQL each process LISTENs on one channel; a writer NOTIFYs the changed key in the same transaction, and
every process forgets it. A read that overlaps a change is not kept (an epoch counter tells), and while a process
is not listening — before its listener is connected, or after it lost the connection — nothing is kept at all:
reads go to the database.

On SQLite each thread holds a connection of its own that asks `PRAGMA data_version` before each read from memory:
the number moves whenever any other connection, in this process or another, has committed a change to the file since
that connection last asked, and then everything kept is forgotten. It costs a few microseconds, where reading the
row through the engine costs a pooled connection, a compiled statement and a result (the largest part of a slash
command's own cost before it was kept). An in-memory SQLite database is read directly.
"""

from __future__ import annotations

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
        # SQLite: each thread's own connection asking data_version, and the number it last saw (no lock is held
        # while SQLite answers: a lock held across a call that releases the interpreter lock makes every thread
        # queue behind it for a whole switch interval)
        self._local = threading.local()
        self._watches: list[tuple[int, sqlite3.Connection]] = []  # with the pid that opened each

    def close(self) -> None:
        """Stop listening (within a second); reads then go to the database."""
        self._closed.set()
        with self._lock:
            watches, self._watches = self._watches, []
        for pid, watch in watches:
            if pid == os.getpid():  # a connection inherited across a fork is never closed (SQLite's advice)
                watch.close()

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
        """Whether memory may serve a read now (see the module's docstring for each database)."""
        if self._closed.is_set():
            return False
        if self._database.dialect == "sqlite":
            return self._sqlite_current()
        if self._database.dialect != "postgresql":
            return False
        if self._pid != os.getpid():  # first use in this process (or a forked child): start listening
            with self._lock:
                if self._pid != os.getpid():
                    self._pid = os.getpid()
                    self._listening.clear()
                    self._entries.clear()
                    threading.Thread(target=self._listen, name="dpscale-cache", daemon=True).start()
        return self._listening.is_set()

    def _keeping(self) -> bool:
        """Whether what was just read may be kept (lock held): the database's changes are being watched."""
        return self._sqlite_path is not None if self._database.dialect == "sqlite" else self._listening.is_set()

    def _sqlite_current(self) -> bool:
        """SQLite: forget everything if any connection committed since this thread last looked; False for a memory
        database (nothing to watch) or a file this thread cannot read, so that reads go to the database."""
        if self._sqlite_path is None:
            return False
        local = self._local
        try:
            if getattr(local, "pid", None) != os.getpid():  # this thread's first read, or the first after a fork
                local.watch, local.pid, local.version = None, os.getpid(), None  # a parent's stays in _watches
                local.watch = sqlite3.connect(self._sqlite_path, check_same_thread=False, isolation_level=None)
                with self._lock:
                    self._watches.append((local.pid, local.watch))
            version = local.watch.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            local.pid = None  # try again with a new connection next time; reads go to the database meanwhile
            return False
        if version != local.version:
            local.version = version
            self._forget(EVERYTHING)
        return True

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
