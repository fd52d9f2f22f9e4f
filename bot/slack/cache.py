"""Small thread-safe memories with a size bound and an expiry, so a long-running worker never grows."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class ExpiringCache(Generic[V]):
    """At most `max_entries` values, each forgotten `ttl` seconds after it was stored (least recent go first)."""

    def __init__(self, max_entries: int, ttl: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._entries: OrderedDict[object, tuple[float, V]] = OrderedDict()
        self._max_entries = max_entries
        self._ttl = ttl
        self._clock = clock
        self._lock = threading.Lock()

    def get(self, key: object) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            expires, value = entry
            if expires <= self._clock():
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return value

    def expires(self, key: object) -> float | None:
        """When `key`'s value will be forgotten (on this cache's clock); None if it is not held."""
        entry = self._entries.get(key)
        return entry[0] if entry is not None and entry[0] > self._clock() else None

    def put(self, key: object, value: V, ttl: float | None = None) -> None:
        with self._lock:
            self._store(key, value, self._ttl if ttl is None else ttl)

    def _store(self, key: object, value: V, ttl: float) -> None:
        """Store as the most recent entry, forgetting the least recent beyond the bound (lock held)."""
        self._entries[key] = (self._clock() + ttl, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)
