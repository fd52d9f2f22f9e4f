"""Stopping a waitress server gracefully: on SIGTERM or SIGINT, no new connections, and every request already
received answered, within a deadline; thread pools whose work outlives its request can be waited for the same way.

    socket_map = {}
    server = waitress.create_server(app, map=socket_map, ...)
    serve_until_signalled(server, socket_map)        # serves; returns the signal once SIGTERM or SIGINT arrives
    finish_requests(server, socket_map, deadline)    # the number of requests still unanswered at the deadline
    pool.finish(deadline)                            # a WorkPool: the number of its tasks still unfinished then

It is waitress's own machinery, kept running rather than replaced: the same asyncore loop (`wasyncore.loop`) reads
and writes every connection while draining; a channel's `requests`, its half-read `request` and its
`total_outbufs_len` say whether it still has work; the server's `maintenance` goes on closing connections idle
past `channel_timeout`; `task_dispatcher.shutdown` stops the worker threads once they are idle. The signal reaches
the loop through `signal.set_wakeup_fd`: the interpreter's own handler writes the signal's number to a socket the
loop watches, so the loop wakes at once and leaves by asyncore's ExitNow between two events, never inside one.
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, ParamSpec, Protocol, TypeVar

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
LOOP_TIMEOUT = 1.0  # the longest the draining loop sleeps; worker threads wake it sooner as each request ends
MAX_TAKE_IN_PASSES = 256  # zero-timeout passes over what arrived before the signal; each accepts one connection
THREADS_STOP = 1.0  # seconds idle worker threads get to notice they are stopped
SocketMap = dict[int, Any]  # waitress's socket map: file descriptor → dispatcher
P = ParamSpec("P")
T = TypeVar("T")


class Server(Protocol):
    """What `waitress.create_server` returns: a TcpWSGIServer, or a MultiSocketServer over several sockets."""

    adj: Any  # its Adjustments (the options it was created with)
    task_dispatcher: Any  # its ThreadedTaskDispatcher

    def run(self) -> None:
        """Serve: waitress's asyncore loop, until an exception leaves it."""


class SignalWatch(wasyncore.dispatcher):
    """A dispatcher in the server's loop that becomes readable when SIGTERM or SIGINT arrives: the read end of a
    socket pair whose other end is the process's wakeup fd. Reading it leaves the loop. The handlers stay for the
    rest of the process, so that a second signal (the platform signals every process, the parent forwards its
    own) neither interrupts the drain nor kills the process on its way out."""

    def __init__(self, socket_map: SocketMap) -> None:
        """Join `socket_map`'s loop and take over SIGTERM and SIGINT."""
        reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)
        super().__init__(reader, socket_map)
        self.received: signal.Signals | None = None
        signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)  # first: no signal can be missed
        for signum in STOP_SIGNALS:
            signal.signal(signum, _noted)

    def writable(self) -> bool:
        """Never: it only reads."""
        return False

    def handle_read(self) -> None:
        """A signal's number arrived: the first stop signal ends the serving loop; any other is ignored."""
        stops = [number for number in self.recv(64) if number in STOP_SIGNALS]
        if stops and self.received is None:
            self.received = signal.Signals(stops[0])
            raise wasyncore.ExitNow

    def close(self) -> None:
        """Closed with the rest of the loop: signals from now on run the handler alone, writing nowhere."""
        signal.set_wakeup_fd(-1)
        self._writer.close()
        super().close()


def _noted(signum: int, frame: object) -> None:
    """The Python-level handler of the stop signals: nothing to do, the wakeup socket carries them to the loop."""


def serve_until_signalled(server: Server, socket_map: SocketMap) -> str:
    """Run `server` (created with `map=socket_map`) until SIGTERM or SIGINT; the signal's name."""
    watch = SignalWatch(socket_map)
    try:
        server.run()
    except wasyncore.ExitNow:
        pass
    return watch.received.name if watch.received is not None else "exit"


def in_progress(socket_map: SocketMap) -> int:
    """Requests received (or being received) and not yet answered in full, over every connection."""
    return sum(_requests(channel) for channel in _channels(socket_map))


def finish_requests(server: Server, socket_map: SocketMap, deadline: float) -> int:
    """Stop accepting, let every request already received be answered and its response written, until `deadline`
    (a `time.monotonic()` instant), then close every connection; the number of requests unanswered at the deadline.

    The listening sockets are closed, so a new connection is refused at once rather than left in the backlog
    (with several processes on one socket, once the last process has closed it). Idle keep-alive connections are
    closed as they become idle. A request still arriving is read on; if its client stalls, waitress's maintenance
    closes it after `channel_timeout`, as it would at any other time."""
    take_in_what_arrived(server, socket_map)
    listeners = [d for d in socket_map.values() if isinstance(d, BaseWSGIServer)]
    for listener in listeners:
        wasyncore.dispatcher.close(listener)  # not listener.close(): that closes the trigger the workers wake us by
    while in_progress(socket_map) and (left := deadline - time.monotonic()) > 0:
        for listener in listeners:
            listener.maintenance(time.time())
        for channel in _channels(socket_map):
            if not _requests(channel):
                channel.will_close = True  # idle: the loop closes it, as it closes a connection that timed out
        wasyncore.loop(timeout=min(left, LOOP_TIMEOUT), map=socket_map, use_poll=server.adj.asyncore_use_poll, count=1)
    unanswered = in_progress(socket_map)
    if not unanswered:
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=THREADS_STOP)
    wasyncore.close_all(socket_map)
    return unanswered


def take_in_what_arrived(server: Server, socket_map: SocketMap) -> None:
    """Before the listening sockets close: accept the connections already waiting in their backlog and read what
    every connection has already sent, without waiting, so that a request that reached this machine before the
    signal is answered instead of reset. The signal can wake the loop in the same pass as those requests, and
    then, handled first, leaves before they are read. Stops once a pass takes in nothing more."""
    for _ in range(MAX_TAKE_IN_PASSES):
        before = (len(socket_map), in_progress(socket_map))
        wasyncore.loop(timeout=0, map=socket_map, use_poll=server.adj.asyncore_use_poll, count=1)
        if (len(socket_map), in_progress(socket_map)) == before:
            return


def _channels(socket_map: SocketMap) -> list[HTTPChannel]:
    """The loop's client connections (the rest are listeners, triggers and the signal watch)."""
    return [d for d in list(socket_map.values()) if isinstance(d, HTTPChannel)]


def _requests(channel: HTTPChannel) -> int:
    """How many requests `channel` has not answered in full: queued or running, half-read, or not yet written."""
    unfinished = len(channel.requests) + (channel.request is not None)
    return unfinished or int(channel.total_outbufs_len > 0)


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
