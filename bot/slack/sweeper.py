"""A process's sweeper: one thread that, while the process serves, keeps the leases of the follow-up work it holds
(the heartbeat), takes up work nobody holds, deletes what has expired from the store and cuts finished work's text
from SQLite's write-ahead log, each as often as `FollowUpPolicy` says. While the process drains it only keeps the
leases, until it is stopped.

    sweeper = Sweeper(store, policy, heartbeat=followups.heartbeat, take_up=followups.take_up, draining=event)
    sweeper.start(); …; sweeper.finished.set()  # work was finished: scrub soon; …; sweeper.stop()

`bot.slack.followups.FollowUps` runs one; what it holds and takes up is its own.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.exc import SQLAlchemyError

from bot.policy import FollowUpPolicy
from bot.store import Store

__all__ = ["Sweeper"]

log = logging.getLogger("bot.slack.followups")  # the follow-up work's lines, under the name they have always had


@dataclass
class Sweeper:
    """The sweeping thread of one process, started and stopped with its serving; what it calls is the follow-up
    work's (`heartbeat`, `take_up`), what it cleans is the store's."""

    store: Store
    policy: FollowUpPolicy
    heartbeat: Callable[[], object]  # extends the leases of the work this process holds
    take_up: Callable[[], object]  # takes and queues work nobody holds
    draining: threading.Event  # set while the process drains: no more work taken up, nothing expired
    finished: threading.Event = field(default_factory=threading.Event)  # work finished since the last scrub
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin sweeping (a worker process starts serving), unless it already does."""
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self.draining.clear()
            self._thread = threading.Thread(target=self._sweep, name="dpscale-sweeper", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """End the thread at its next turn: no lease is extended from then on."""
        self._stop.set()

    def _sweep(self) -> None:
        policy = self.policy
        # the first expiry a few seconds after start, not beside the first requests of a process that just started
        expired_at = time.monotonic() - policy.expire_every + min(policy.first_expiry_after, policy.expire_every)
        beaten_at = scrubbed_at = time.monotonic()
        failing, first = False, True
        while not self._stop.wait(0 if first else min(policy.sweep_every, policy.expire_every)):
            first = False
            try:
                if time.monotonic() - beaten_at >= policy.heartbeat:
                    beaten_at = scrubbed_at = time.monotonic()
                    self.heartbeat()
                if self.draining.is_set():
                    continue
                if time.monotonic() - expired_at >= policy.expire_every:
                    expired_at = time.monotonic()
                    self._expire()
                if self.finished.is_set() and time.monotonic() - scrubbed_at >= policy.scrub_every:
                    scrubbed_at = time.monotonic()
                    self.finished.clear()
                    self.store.database.scrub()
                self.take_up()
                if failing:
                    log.info("the database answers again: follow-up work goes on")
                failing = False
            except SQLAlchemyError as error:
                if not failing:
                    log.warning("the database cannot be reached (%s): follow-up work waits for it",
                                type(error).__name__)
                failing = True
            except Exception:
                log.exception("the follow-up sweeper failed; it goes on")

    def _expire(self) -> None:
        deleted = self.store.delete_expired()
        if any(deleted.values()):
            log.info("expired rows deleted: %s", " ".join(f"{t}={n}" for t, n in sorted(deleted.items())))
