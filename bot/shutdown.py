"""Thread pools whose work outlives the request that started it, waited for with a bound when a process stops.

    pool = WorkPool(8, thread_name_prefix="dpscale")
    pool.submit(post_answer, ...)
    pool.finish(deadline)     # the number of its tasks still unfinished at `deadline`
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, ParamSpec, TypeVar

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
