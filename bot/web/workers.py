"""The worker processes gunicorn's arbiter runs (bot/server.py): uvicorn's worker serving the ASGI front of
bot/web/asgi.py, with its HTTP connections bounded in time and size.

uvicorn's event loop reads every connection, so a client that connects and sends nothing, or trickles its request,
holds a socket but no thread; what it must not do is hold that socket for ever. `GuardedProtocol` adds the
bounds uvicorn leaves out, through the callbacks httptools' parser calls on it:

- a connection that sends no first byte within `Limits.first_byte` (2 s) is closed: Slack writes its request as
  soon as it has connected, so a connection that stays silent is someone else's, and 2,000 of them reconnecting
  over and over cost their sockets for two seconds each;
- a request must have arrived in full, headers and body, `Limits.request` seconds after its first byte;
- headers over `Limits.header_bytes` are answered 431 and the connection closed.

The limits (`bot.policy.Limits`) come with the app the worker serves (`Front.limits`, built from Settings once, in
the arbiter): `bounded_protocol` binds them to the protocol uvicorn makes for each connection.

A worker dies with its arbiter: on Linux the kernel sends it SIGTERM when the arbiter is gone (prctl's
`PR_SET_PDEATHSIG`), and everywhere it checks its parent whenever it tells the arbiter it is alive; either way it
drains as on any SIGTERM, so that a supervisor that restarts a killed arbiter finds the port free. A library's
error that repeats on every turn of the loop (asyncio's `accept()` failing at the file-descriptor limit, with its
traceback) is written once per `Pacing.repeat_every` with a count of those held back (`OncePerInterval`).

An idle kept-alive connection is closed by uvicorn after `Limits.keep_alive` seconds (`timeout_keep_alive`). httptools
(llhttp) refuses what RFC 9112 calls ambiguous framing — `Content-Length` beside `Transfer-Encoding`, a second
`Content-Length`, a bad chunk size — with 400, and never reads bytes after a chunked body as another request.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, cast

from gunicorn.arbiter import Arbiter
from gunicorn.glogging import Logger
from uvicorn import Config, Server
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from bot.logs import stop_writer
from bot.policy import Limits, Pacing

PR_SET_PDEATHSIG = 1  # linux/prctl.h

log = logging.getLogger("bot.server")
_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
              b"Content-Length: 23\r\nConnection: close\r\n\r\nrequest headers too big")


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the bounds above (`limits`): one timer per connection, armed for the first
    byte when the connection opens, re-armed for the whole request when a request begins, disarmed once it has
    arrived."""

    def __init__(self, *args: Any, limits: Limits, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_bytes = 0
        self._guard: asyncio.TimerHandle | None = self.loop.call_later(self.limits.first_byte, self._too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        self._disarm()
        self._head_bytes = 0
        self._guard = self.loop.call_later(self.limits.request, self._too_slow)
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def _count(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > self.limits.header_bytes and not self.transport.is_closing():
            self.transport.write(_TOO_LARGE)
            self.transport.close()

    def _disarm(self) -> None:
        guard, self._guard = getattr(self, "_guard", None), None
        if guard is not None:
            guard.cancel()

    def _too_slow(self) -> None:
        """The connection sent nothing in time, or its request did not arrive in full by its deadline: closed,
        unanswered (the client may well not be reading)."""
        self._guard = None
        if not self.transport.is_closing():
            self.transport.close()


def bounded_protocol(limits: Limits) -> Callable[..., GuardedProtocol]:
    """`GuardedProtocol` held to `limits`, as uvicorn's `http` protocol class (uvicorn calls it with the rest)."""
    return functools.partial(GuardedProtocol, limits=limits)


def bind(config: Config, limits: Limits) -> None:
    """uvicorn's `config` held to `limits`: each connection's protocol, and how long an idle one is kept alive."""
    config.http = bounded_protocol(limits)  # type: ignore[assignment]
    config.timeout_keep_alive = limits.keep_alive


class Worker(UvicornWorker):
    """gunicorn's worker process for dpscale: uvicorn with `GuardedProtocol` held to the app's `Limits`, the ASGI
    lifespan on (each worker starts and drains its follow-up work there), and no access log (bot/logs.py writes one
    line per request)."""

    CONFIG_KWARGS: dict[str, Any] = {  # `http`, the protocol, is set once the app and its limits are loaded (`_serve`)
        "loop": "asyncio",
        "lifespan": "on",
        "access_log": False,
        "server_header": False,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout
        uvicorn_log = logging.getLogger("uvicorn.error")
        _through_root(uvicorn_log)  # through the process's one handler, as every line
        uvicorn_log.setLevel(max(logging.WARNING, logging.getLogger().level))
        uvicorn_log.addFilter(_said_by_the_drain)

    async def _serve(self) -> None:
        """As uvicorn's worker serves, held to the app's limits and pacing (`Front`), with a server that says when
        it begins to stop (`StoppingServer`)."""
        self.config.app = self.wsgi
        bind(self.config, self.wsgi.limits)
        hold_back_repeats(self.wsgi.pacing)
        # requests in flight get the drain timeout; gunicorn's graceful timeout adds a grace to it
        self.config.timeout_graceful_shutdown = getattr(self.wsgi, "drain", self.cfg.graceful_timeout)
        server = StoppingServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
        if getattr(self.wsgi, "unfinished", 0):  # threads still running what was cut off would hold the exit
            stop_writer()
            logging.shutdown()
            os._exit(0)

    def init_signals(self) -> None:
        """As uvicorn's worker, but a stop signal uvicorn passes on once it has stopped (it re-raises what it
        caught) ends the process by a normal exit, which writes the log lines still queued (bot/logs.py), not by
        the signal's default action, which would drop them. Here, in the new worker process, it is also bound to
        die with its arbiter."""
        super().init_signals()
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
            signal.signal(signum, _stopped)
        die_with(self.ppid)

    async def callback_notify(self) -> None:
        """Every half of gunicorn's timeout: tell the arbiter this worker is alive, or stop if the arbiter is gone
        (where the parent-death signal does not exist, or was missed)."""
        if os.getppid() != self.ppid:
            os.kill(os.getpid(), signal.SIGTERM)
        await super().callback_notify()


class StoppingServer(Server):
    """uvicorn's server, writing one line when a stop signal arrives: what it is still finishing, and for how long."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        first = not self.should_exit
        super().handle_exit(sig, frame)
        if first:  # stop accepting at once (uvicorn's loop would notice within 0.1 s), then say so
            asyncio.get_event_loop().call_soon_threadsafe(self._stop_accepting, signal.Signals(sig).name)

    def _stop_accepting(self, cause: str) -> None:
        """Take in the connections already waiting in the listening socket's backlog (they reached this machine
        before the signal, and would be reset once the socket closes), then close it."""
        loop = asyncio.get_event_loop()
        protocol = functools.partial(cast(Any, self.config.http_protocol_class), config=self.config,
                                     server_state=self.server_state, app_state=self.lifespan.state)
        for listening in getattr(self, "servers", []):  # none yet when the signal comes during start-up
            for waiting in _backlog(listening.sockets):
                loop.create_task(loop.connect_accepted_socket(protocol, waiting))
            listening.close()
        tasks = len(self.server_state.tasks)
        log.info("stopping on %s (pid %d): no new connections; finishing %d request%s within %g s", cause,
                 os.getpid(), tasks, "" if tasks == 1 else "s", self.config.timeout_graceful_shutdown or 0)


class OneLineLogger(Logger):
    """gunicorn's logger (its `logger_class`), writing through the process's one handler (bot/logs.py) like every
    other line, instead of handlers and a format of its own."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        _through_root(self.error_log)
        _through_root(self.access_log)


def _backlog(sockets: Any) -> list[socket.socket]:
    """The connections waiting to be accepted on listening `sockets`, accepted without waiting."""
    accepted = []
    for listening in sockets:
        raw = socket.socket(fileno=os.dup(listening.fileno()))
        raw.setblocking(False)
        with raw:
            while True:
                try:
                    connection, _ = raw.accept()
                except (BlockingIOError, InterruptedError, OSError):
                    break
                connection.setblocking(False)
                accepted.append(connection)
    return accepted


def _said_by_the_drain(record: logging.LogRecord) -> bool:
    """uvicorn's own ERROR line for requests its graceful shutdown cancels: dpscale's WARNING counts them (with
    the follow-up work cut off too), once, when the worker has stopped."""
    return not str(record.msg).startswith("Cancel ")


def die_with(parent: int) -> None:
    """SIGTERM to this process when `parent` dies (Linux; elsewhere `Worker.callback_notify` checks), or now if it
    has died already (before the request to the kernel was made)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):  # no libc to ask: the parent check alone
            pass
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


class OncePerInterval(logging.Filter):
    """Lets a record through once per `interval` seconds for each message (its format string), the next one
    through saying how many were held back meanwhile; its traceback only with the first."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self._clock = clock
        self._seen: dict[str, tuple[float, int]] = {}  # message: when last let through, how many held back since
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key, now = str(record.msg), self._clock()
        with self._lock:
            last, held = self._seen.get(key, (-self.interval, 0))
            if now - last < self.interval:
                self._seen[key] = (last, held + 1)
                return False
            self._seen[key] = (now, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like it in the last {self.interval:g} s, not written)"
            record.exc_info = record.exc_text = None
        return True


def hold_back_repeats(pacing: Pacing) -> OncePerInterval:
    """asyncio's error lines that repeat (its `accept()` failing at the file-descriptor limit) written once per
    `pacing.repeat_every` seconds, with a count of those held back: the filter, installed."""
    held = OncePerInterval(pacing.repeat_every)
    logging.getLogger("asyncio").addFilter(held)
    return held


def _stopped(signum: int, frame: object) -> None:
    """The stop signals' handler once uvicorn has stopped serving: the worker is already on its way out."""


def _through_root(logger: logging.Logger) -> None:
    logger.handlers = []
    logger.propagate = True
