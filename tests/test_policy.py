"""Each policy value (`bot.policy`) is applied where it is used: a connection held to the `Limits` it is given (by
uvicorn's protocol, in a thread of this process, and by the ASGI front), idle work paced by the `Pacing` it is
given, and a repeated library error written once per the interval it is given. Each test sets a value far from
its default, so a place that ignores the value and keeps the default fails it."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import uvicorn

from bot.policy import Limits, Pacing
from bot.settings import load_settings
from bot.web.asgi import Front
from bot.web.workers import bind, hold_back_repeats

SINGLE = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}
REQUEST = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


async def hello(scope, receive, send):  # type: ignore[no-untyped-def]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})


@contextmanager
def serving(limits: Limits) -> Iterator[int]:
    """uvicorn held to `limits` (`bind`, as the worker holds it), in a thread; its port."""
    config = uvicorn.Config(hello, lifespan="off", log_level="warning")
    bind(config, limits)
    server = uvicorn.Server(config)
    listener = socket.create_server(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        yield listener.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(5)
        listener.close()


def closed_after(connection: socket.socket, within: float) -> float | None:
    """Seconds until the server closes `connection` (reading what it sends meanwhile), or None if it stays open."""
    started = time.monotonic()
    connection.settimeout(within)
    try:
        while connection.recv(1024):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - started


def test_settings_build_the_defaults_of_each_value_once():
    settings = load_settings(SINGLE)
    assert settings.limits == Limits() and settings.pacing == Pacing()


def test_a_silent_connection_is_closed_once_its_first_byte_limit_passes():
    with serving(Limits(first_byte=0.3)) as port, socket.create_connection(("127.0.0.1", port)) as connection:
        closed = closed_after(connection, within=1.5)  # the default, 2 s, would leave it open
    assert closed is not None and 0.2 <= closed < 1.5


def test_a_trickled_request_is_closed_once_its_request_limit_passes():
    with serving(Limits(first_byte=5, request=0.5)) as port, \
            socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\n")
        started = time.monotonic()
        closed = None
        while closed is None and time.monotonic() - started < 3:  # the default, 10 s, would leave it open
            try:
                connection.sendall(b"X")  # a header line that never ends, a byte every 0.1 s
            except (BrokenPipeError, ConnectionResetError):
                break
            closed = closed_after(connection, within=0.1)
        elapsed = time.monotonic() - started
    assert 0.4 <= elapsed < 3


def test_headers_over_their_limit_are_answered_431():
    with serving(Limits(header_bytes=200)) as port, socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 300 + b"\r\n\r\n")
        connection.settimeout(2)
        answer = connection.recv(1024)
    assert answer.startswith(b"HTTP/1.1 431 ")


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_an_idle_kept_alive_connection_is_closed_once_its_keep_alive_passes():
    with serving(Limits(keep_alive=1)) as port, socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(REQUEST)
        connection.settimeout(2)
        assert connection.recv(1024).startswith(b"HTTP/1.1 200 ")
        closed = closed_after(connection, within=3)  # uvicorn's own default (5 s) and dpscale's (10 s) would not
    assert closed is not None and 0.8 <= closed < 3


def run(front: Front, requests: list[bytes], idle_started: list[float], announced: int | None = None) -> list[int]:
    """Serve `front` on a loop: its lifespan started, each request (a body, and a Content-Length of `announced`
    if given) sent at once, stopped once its idle work has run; each request's status, in the order they were
    answered. `idle_started` gets when the front started serving."""
    statuses: list[int] = []

    async def main() -> None:
        inbox: asyncio.Queue[dict[str, object]] = asyncio.Queue()
        await inbox.put({"type": "lifespan.startup"})

        async def nothing(message: dict[str, object]) -> None:
            pass

        lifespan = asyncio.create_task(front({"type": "lifespan"}, inbox.get, nothing))
        await asyncio.sleep(0)
        idle_started.append(time.monotonic())

        async def request(body: bytes) -> None:
            messages = [{"type": "http.request", "body": body, "more_body": False}]

            async def receive() -> dict[str, object]:
                return messages.pop() if messages else {"type": "http.disconnect"}

            async def send(message: dict[str, object]) -> None:
                if message["type"] == "http.response.start":
                    statuses.append(int(message["status"]))  # type: ignore[call-overload]

            headers = [] if announced is None else [(b"content-length", str(announced).encode())]
            await front({"type": "http", "method": "POST", "path": "/", "headers": headers}, receive, send)

        await asyncio.gather(*(request(body) for body in requests))
        while front._idle_task is not None and not front._idle_task.done():
            await asyncio.sleep(0.01)
        await inbox.put({"type": "lifespan.shutdown"})
        await lifespan

    asyncio.run(main())
    return statuses


def answer_after(seconds: float):  # type: ignore[no-untyped-def]
    def app(environ, start_response):  # type: ignore[no-untyped-def]
        time.sleep(seconds)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]
    return app


def test_a_body_over_its_limit_is_answered_413_and_one_at_it_is_served():
    front = Front(answer_after(0), threads=2, lifespan=None, drain=1, limits=Limits(body_bytes=10), pacing=Pacing())
    assert sorted(run(front, [b"x" * 10, b"x" * 11], [])) == [200, 413]  # the default, 1 MiB, would serve both
    assert run(front, [b""], [], announced=11) == [413]  # refused as announced, before any of it is read


@pytest.mark.parametrize(("pacing", "app_takes", "earliest", "latest"), [
    (Pacing(idle_quiet=0.6, idle_patience=5), 0, 0.5, 2),  # quiet for 0.6 s after the answer, not 0.2 s
    (Pacing(idle_quiet=0.05, idle_poll=0.6, idle_patience=5), 0, 0.5, 2),  # looked for every 0.6 s, not 0.01 s
    (Pacing(idle_patience=0.2), 0.8, 0.15, 0.7),  # beside a request 0.8 s long, after 0.2 s of patience, not 1 s
], ids=["quiet", "poll", "patience"])
def test_idle_work_is_paced_by_the_pacing_it_is_given(pacing, app_takes, earliest, latest):
    ran: list[float] = []
    started: list[float] = []
    front = Front(answer_after(app_takes), threads=2, lifespan=None, drain=5,
                  idle=[lambda: ran.append(time.monotonic())], limits=Limits(), pacing=pacing)
    run(front, [b""], started)
    assert len(ran) == 1 and earliest <= ran[0] - started[0] < latest, ran[0] - started[0]


@pytest.mark.parametrize(("every", "written"), [(0, 2), (3600, 1)])
def test_a_repeated_library_error_is_written_once_per_the_interval_it_is_given(caplog, every, written):
    logger = logging.getLogger("asyncio")
    held = hold_back_repeats(Pacing(repeat_every=every))
    try:
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            logger.error("socket.accept() out of system resource")
            logger.error("socket.accept() out of system resource")
    finally:
        logger.removeFilter(held)
    assert len(caplog.records) == written
