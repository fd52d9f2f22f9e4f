"""Thread pools whose work outlives the request that started it, waited for with a bound when a process stops;
and a Socket Mode process's stop, drained as the web server drains.

    pool = WorkPool(8, thread_name_prefix="dpscale")
    pool.submit(post_answer, ...)
    pool.finish(deadline)     # the number of its tasks still unfinished at `deadline`
    serve_until_stopped(handler, services, drain=20)   # Socket Mode: until SIGTERM or SIGINT, then drained
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class WorkPool(ThreadPoolExecutor):
    """A ThreadPoolExecutor that can be waited for with a bound: `finish(deadline)`. Work submitted after the
    acknowledgement of a request (a mention's answer, a form to open) is given the same drain deadline as the
    requests themselves."""

    def __init__(self, max_workers: int, thread_name_prefix: str = "") -> None:
        """Up to `max_workers` threads, named `thread_name_prefix` and a number, as ThreadPoolExecutor's."""
        super().__init__(max_workers, thread_name_prefix=thread_name_prefix)
        self._lock = threading.Lock()
        self._unfinished: set[Future[Any]] = set()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """As ThreadPoolExecutor's, the task kept track of until it is done."""
        future = super().submit(fn, *args, **kwargs)
        with self._lock:
            self._unfinished.add(future)
        future.add_done_callback(self._forget)
        return future

    def _forget(self, future: Future[Any]) -> None:
        """A task is done (finished, failed or cancelled)."""
        with self._lock:
            self._unfinished.discard(future)

    def finish(self, deadline: float) -> int:
        """Wait until every task submitted so far, and any they submit, has finished, or until `deadline` (a
        `time.monotonic()` instant); the number still unfinished (running or queued) then."""
        while True:
            with self._lock:
                unfinished = [future for future in self._unfinished if not future.done()]
            left = deadline - time.monotonic()
            if not unfinished or left <= 0:
                return len(unfinished)
            wait(unfinished, timeout=left)


class Connection(Protocol):
    """Bolt's Socket Mode handler, as far as a stop needs it."""

    def connect(self) -> None: ...

    def close(self) -> None: ...


class Drainable(Protocol):
    def stop(self, deadline: float, abandoned: int = 0) -> int: ...


def serve_until_stopped(handler: Connection, services: Drainable, drain: float) -> None:
    """Socket Mode: connect, serve until SIGTERM or SIGINT, then stop as a web worker stops: no new envelopes (the
    connection closed; Slack sends them to another connection or again later), what is in hand finished or its
    follow-up work handed back within `drain` seconds."""
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda number, frame: stopping.set())
    handler.connect()
    stopping.wait()
    logging.getLogger("bot.server").info("stopping: no new envelopes; finishing what is in hand within %g s", drain)
    handler.close()
    services.stop(time.monotonic() + drain)
