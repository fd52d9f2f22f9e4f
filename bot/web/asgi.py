"""The ASGI front the production server runs (bot/server.py, bot/web/workers.py): each request read in full on the
event loop, then handed to the WSGI app of bot/web/http.py in a worker thread; and each worker process's start and stop.

    front = Front(wsgi_app, settings.web_threads, services_lifespan, settings.web_drain_timeout,
                  limits=settings.limits, pacing=settings.pacing)

A thread is given to a request only once all of it has arrived: a client that sends its headers and never its
body, or trickles it, waits on the event loop and is closed at its deadline (bot/web/workers.py), never holding one of
the `threads`. A body announced or grown past `limits.body_bytes` is answered 413 without being kept. The request's
arrival (`time.monotonic()` when its headers were read) goes to the WSGI app as `environ[ARRIVED]`, so a request
that waited for a free thread has that much less of Slack's deadline left.

The ASGI lifespan carries a process's start and stop to `lifespan`: `start()` once the worker process runs (after
gunicorn's fork: threads started here belong to the worker), `stop(deadline)` once it has stopped accepting and
answered what it had received; the deadline is `drain` seconds after the stop began.

Work that can wait (`idle`: a worker's warm-up, bot/processes.py) runs a step at a time in one of the threads
once the process serves, each step once no request has been in flight for `pacing.idle_quiet` seconds (the first
request of a process that just started, which is often what started it, goes first); under load that never
pauses, a step goes ahead after waiting `pacing.idle_patience` seconds, so the work is done all the same. The
`limits` and the `pacing` (`bot.policy`) are the front's to hand on: the worker process serving it holds each
connection to the limits too (bot/web/workers.py).

The bridge to WSGI is this module's own and small, since every request reaches it complete and every answer of
dpscale's WSGI app is a few kilobytes in one piece: the environ built from the ASGI scope (PEP 3333), the app
called in one of `threads` threads, its answer sent once it has returned. a2wsgi, which streams both ways through a
queue between the thread and the loop, served half as many requests on the floor app (bench/servers.py).
"""

from __future__ import annotations

import asyncio
import io
import logging
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from bot.policy import Limits, Pacing
from bot.web.http import ARRIVED, WSGIApp

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
_TOO_LARGE = b"request body too large"
_STOPPING = b"stopping: try again"
log = logging.getLogger("bot.server")


class Lifespan(Protocol):
    """What a worker process starts when it begins serving and finishes when it stops."""

    def start(self) -> None:
        """Begin: the process now serves."""

    def stop(self, deadline: float, abandoned: int) -> int:
        """Finish what is in hand by `deadline` (a `time.monotonic()` instant), and say what was cut off: the
        `abandoned` requests the server gave up on, and what is returned, the work still unfinished."""


class Front:
    """dpscale's WSGI app (bot/web/http.py) as an ASGI app whose requests reach a thread only once complete."""

    def __init__(self, app: WSGIApp, threads: int, lifespan: Lifespan | None, drain: float,
                 idle: Sequence[Callable[[], None]] = (), *, limits: Limits, pacing: Pacing) -> None:
        self._app = app
        self.limits = limits
        self.pacing = pacing
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="dpscale-http")
        self._lifespan = lifespan
        self._idle = tuple(idle)
        self._idle_task: asyncio.Task[None] | None = None
        self.in_flight = 0  # requests between their first byte and their answer
        self._busy_until = 0.0  # `time.monotonic()` until which the worker does not count as idle
        self.drain = drain
        self.abandoned = 0  # requests cut off by the drain timeout (cancelled by the server)
        self.unfinished = 0  # what the drain timeout cut off, requests and follow-up work: set once stopped

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._run_lifespan(receive, send)
        elif scope["type"] == "http":
            started = False

            async def noting(message: Message) -> None:
                nonlocal started
                started = started or message["type"] == "http.response.start"
                await send(message)

            self.in_flight += 1
            try:
                await self._serve(scope, receive, noting)
            except asyncio.CancelledError:  # the drain timeout passed with this request unanswered: Slack is told
                self.abandoned += 1  # to try again (it redelivers an event answered 5xx), the server stops
                if not started:
                    await _plain(send, 503, _STOPPING)
            finally:
                self.in_flight -= 1
                self._busy_until = time.monotonic() + self.pacing.idle_quiet

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        arrived = time.monotonic()
        announced = _content_length(scope)
        if announced is not None and announced > self.limits.body_bytes:
            return await _plain(send, 413, _TOO_LARGE)
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None  # the client went away, or its deadline closed the connection: nothing to answer
            body += message.get("body", b"")
            if len(body) > self.limits.body_bytes:
                return await _plain(send, 413, _TOO_LARGE)
            if not message.get("more_body"):
                break
        environ = wsgi_environ(scope, bytes(body), arrived)
        status, headers, content = await asyncio.get_running_loop().run_in_executor(self._threads, self._call, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def _call(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """Run the WSGI app on `environ` (in a worker thread): its status, headers and whole body."""
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[..., None]:
            started[:] = [status, headers]
            return lambda data: None  # the app never writes through it (PEP 3333's legacy path)

        result = self._app(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started
        return int(status.split(" ", 1)[0]), [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers], \
            content

    async def _run_lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self._lifespan is not None:
                    self._lifespan.start()
                if self._idle:
                    self._busy_until = time.monotonic() + self.pacing.idle_quiet
                    self._idle_task = asyncio.create_task(self._run_idle())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self._idle_task is not None:
                    self._idle_task.cancel()
                self.unfinished = self.abandoned
                if self._lifespan is not None:  # in a thread: the loop goes on telling gunicorn it is alive
                    deadline = time.monotonic() + self.drain
                    self.unfinished += await asyncio.to_thread(self._lifespan.stop, deadline, self.abandoned)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _run_idle(self) -> None:
        """Each step of `idle` in turn, in one of the threads, once the worker is idle (or after waiting
        `pacing.idle_patience`); a step that fails is logged and the next one runs."""
        loop, pacing = asyncio.get_running_loop(), self.pacing
        for step in self._idle:
            patience = time.monotonic() + pacing.idle_patience
            while (self.in_flight or time.monotonic() < self._busy_until) and time.monotonic() < patience:
                await asyncio.sleep(pacing.idle_poll)
            try:
                await loop.run_in_executor(self._threads, step)
            except Exception as error:  # noqa: BLE001 - idle work is an optimisation: serving goes on without it
                log.warning("idle work failed (%s); serving goes on without it", type(error).__name__)


def wsgi_environ(scope: Scope, body: bytes, arrived: float) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of a complete HTTP request, from its ASGI scope; `ARRIVED` says when it came."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": "",
        "PATH_INFO": scope["path"].encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": server[0], "SERVER_PORT": str(server[1] or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0], "REMOTE_PORT": str(client[1]),
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.version": (1, 0), "wsgi.url_scheme": scope.get("scheme", "http"), "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
        ARRIVED: arrived,
    }
    for raw_name, raw_value in scope.get("headers", ()):
        name, value = raw_name.decode("latin-1").upper().replace("-", "_"), raw_value.decode("latin-1")
        if name == "CONTENT_LENGTH":
            continue  # the body's own length stands
        key = name if name == "CONTENT_TYPE" else f"HTTP_{name}"
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return int(value) if value.isdigit() else None
    return None


async def _plain(send: Send, status: int, text: bytes) -> None:
    """A short text answer, after which the connection is closed."""
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(text)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": text})
