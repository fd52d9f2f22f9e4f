"""The ASGI front the production server runs (bot/server.py, bot/workers.py): each request read in full on the
event loop, then handed to the WSGI app of bot/http.py in a worker thread; and each worker process's start and stop.

    front = Front(wsgi_app, threads=16, lifespan=services_lifespan)

A thread is given to a request only once all of it has arrived: a client that sends its headers and never its
body, or trickles it, waits on the event loop and is closed at its deadline (bot/workers.py), never holding one of
the `threads`. A body announced or grown past `MAX_BODY` is answered 413 without being kept. The request's
arrival (`time.monotonic()` when its headers were read) goes to the WSGI app as `environ[ARRIVED]`, so a request
that waited for a free thread has that much less of Slack's deadline left.

The ASGI lifespan carries a process's start and stop to `lifespan`: `start()` once the worker process runs (after
gunicorn's fork: threads started here belong to the worker), `stop(deadline)` once it has stopped accepting and
answered what it had received; the deadline is `drain` seconds after the stop began.

The bridge from ASGI to WSGI is a2wsgi's, fed a body already complete.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol

from a2wsgi import WSGIMiddleware

from bot.http import ARRIVED, MAX_BODY, WSGIApp

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
_TOO_LARGE = b"request body too large"
_STOPPING = b"stopping: try again"


class Lifespan(Protocol):
    """What a worker process starts when it begins serving and finishes when it stops."""

    def start(self) -> None:
        """Begin: the process now serves."""

    def stop(self, deadline: float, abandoned: int) -> int:
        """Finish what is in hand by `deadline` (a `time.monotonic()` instant), and say what was cut off: the
        `abandoned` requests the server gave up on, and what is returned, the work still unfinished."""


class Front:
    """dpscale's WSGI app (bot/http.py) as an ASGI app whose requests reach a thread only once complete."""

    def __init__(self, app: WSGIApp, threads: int, lifespan: Lifespan | None = None, drain: float = 20.0) -> None:
        self._bridge: Any = WSGIMiddleware(_with_arrival(app), workers=threads)  # type: ignore[arg-type]
        self._lifespan = lifespan
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

            try:
                await self._serve(scope, receive, noting)
            except asyncio.CancelledError:  # the drain timeout passed with this request unanswered: Slack is told
                self.abandoned += 1  # to try again (it redelivers an event answered 5xx), the server stops
                if not started:
                    await _plain(send, 503, _STOPPING)

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        arrived = time.monotonic()
        announced = _content_length(scope)
        if announced is not None and announced > MAX_BODY:
            return await _plain(send, 413, _TOO_LARGE)
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None  # the client went away, or its deadline closed the connection: nothing to answer
            body += message.get("body", b"")
            if len(body) > MAX_BODY:
                return await _plain(send, 413, _TOO_LARGE)
            if not message.get("more_body"):
                break
        complete = bytes(body)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": complete, "more_body": False}
            return await receive()  # after the body: only a disconnect can come

        await self._bridge({**scope, ARRIVED: arrived}, replay, send)

    async def _run_lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self._lifespan is not None:
                    self._lifespan.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.unfinished = self.abandoned
                if self._lifespan is not None:  # in a thread: the loop goes on telling gunicorn it is alive
                    deadline = time.monotonic() + self.drain
                    self.unfinished += await asyncio.to_thread(self._lifespan.stop, deadline, self.abandoned)
                await send({"type": "lifespan.shutdown.complete"})
                return


def _with_arrival(app: WSGIApp) -> WSGIApp:
    """`app`, told when each request arrived (the front's note on the ASGI scope, which a2wsgi passes along)."""

    def application(environ: dict[str, Any], start_response: Any) -> Any:
        environ[ARRIVED] = environ.get("asgi.scope", {}).get(ARRIVED)
        return app(environ, start_response)

    return application


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
