"""The production HTTP process: waitress serving Bolt behind the checks of bot/http.py.

    python -m bot.server        (the Procfile's `web:`; `python -m bot` does the same without SLACK_APP_TOKEN)

Why waitress (measurements in docs/performance.md): one I/O thread reads every request in full, with no
thread of its own, before any of the `WEB_THREADS` worker threads sees it. A client that sends headers and
never its body, or trickles it, therefore holds a socket but no thread, and is closed once it has been idle
for `READ_TIMEOUT` seconds or once its request is still unfinished `REQUEST_DEADLINE` seconds after its first
byte (`TimedChannel`); a body announced or grown past `MAX_BODY` is answered 413 without being kept.
Worker threads stay for what needs them: a cold `users.info` lookup may wait on Slack for up to
DPSCALE_LOCALE_TIMEOUT. On the benchmark's floor app it served as fast as or faster than gunicorn's threaded
worker and than uvicorn with an ASGI front, and it kept its rate with 32 stalled connections open, where
the threaded worker served nothing.

Processes: `bot.processes.default_process_count` (one per core with PostgreSQL, one with SQLite; WEB_CONCURRENCY
overrides). With more than one, the socket is bound once and the process forks: each process builds its own app
(and so its own database connections) and calls `waitress.serve(app, sockets=[that socket])` with the same
settings, and the kernel spreads connections across them. The schema is migrated once, before the fork.

Stopping (bot/shutdown.py): on SIGTERM, what platforms send on every deploy and restart before a SIGKILL some 30 s
later, or on SIGINT, each process stops accepting connections, answers every request it has already received and
lets the work those requests left in the app's thread pools finish, for up to WEB_DRAIN_TIMEOUT seconds (20 by
default), then exits 0 with a line saying it stopped; a WARNING counts what the timeout cut off. The first process
forwards the signal to the others and waits for them, within the same bound and a grace of `CHILD_GRACE`.

Arrival: each request's WSGI environ says when its first bytes arrived (`ARRIVED`, from `TimedChannel`), so a
request that waited in the queue for a free thread has that much less of Slack's deadline left (bot/http.py
passes it on to the listeners).

All configuration is here and in Settings, so the process starts the same from any working directory.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import socket
import sys
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer
from waitress.task import WSGITask

from bot.engine import warm_up
from bot.http import ARRIVED, EVENTS_PATH, HEALTH_PATH, MAX_BODY, BoltHandler, WSGIApp, guarded
from bot.logs import restart_writer_in_child, stop_writer
from bot.numbers import resolve_locale
from bot.processes import default_process_count, freeze_startup_heap, prepare_database
from bot.settings import Settings, SettingsError, load_settings
from bot.shutdown import Server, SocketMap, WorkPool, finish_requests, in_progress, serve_until_signalled
from bot.slack.app import TokenCheckFailed, configure_logging, create_app, create_services
from bot.slack.plumbing import Services
from bot.slack.workspaces import installation_failed_page

__all__ = ["EVENTS_PATH", "HEALTH_PATH", "create_wsgi_app", "serve"]

READ_TIMEOUT = 10  # seconds a connection may sit idle, mid-request or between requests, before it is closed
# seconds from a request's first byte by which all of it, headers and body, must have arrived: a client that
# trickles a byte now and then is never idle, and would otherwise hold its socket for as long as it likes
REQUEST_DEADLINE = 10
CLEANUP_INTERVAL = 2  # how often waitress looks for such connections
CONNECTION_LIMIT = 1000  # open connections before waitress stops accepting; stalled ones cost a socket each
MAX_HEADER = 64 * 1024  # Slack's headers are a few hundred bytes
CHILD_GRACE = 2.0  # seconds the first process waits past the drain timeout for the others to exit before killing
CHILD_POLL = 0.05  # how often it looks
log = logging.getLogger("bot.server")


class _TimedParser(HTTPRequestParser):
    """waitress's parser of one request, made when the request's first bytes arrive: it notes when."""

    def __init__(self, adj: Any) -> None:
        super().__init__(adj)
        self.arrived = time.monotonic()
        self.deadline = self.arrived + REQUEST_DEADLINE  # see TimedChannel.readable
        self.paused = False


class _TimedTask(WSGITask):
    """waitress's task for one request, whose WSGI environ carries the request's arrival (`ARRIVED`)."""

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ[ARRIVED] = getattr(self.request, "arrived", None)
        return environ


class TimedChannel(HTTPChannel):
    """A connection whose requests say when they arrived, however long they then waited for a thread, and which
    is closed, unanswered, once the request it is reading has had `REQUEST_DEADLINE` seconds to arrive in full and
    has not. The time runs only while waitress reads: a pipelined request waits, through no fault of its client's,
    while an earlier one on the connection is served and its answer sent, and has its whole time from then."""

    parser_class = _TimedParser
    task_class = _TimedTask

    def readable(self) -> bool:
        # waitress's I/O thread asks every connection this before each poll, at least once a second (its loop's
        # timeout); the server's own maintenance, which closes idle connections, is asked here in the same way
        readable = bool(super().readable())
        reading = self.request
        if reading is not None:
            if not readable or self.requests:  # waitress is not reading this connection now
                reading.paused = True
            elif reading.paused:  # reading again: the request has its whole time from now
                reading.paused, reading.deadline = False, time.monotonic() + REQUEST_DEADLINE
            elif time.monotonic() > reading.deadline:
                self.close_when_flushed = True  # nothing is queued to send (it is readable): closed at once
                return False
        return readable


def create_wsgi_app(settings: Settings | None = None) -> WSGIApp:
    """dpscale as a WSGI app, for this server or any other: Bolt behind the checks of bot/http.py."""
    return build(settings or load_settings())[0]


def build(settings: Settings) -> tuple[WSGIApp, Services]:
    """The WSGI app and the services behind it, whose thread pools a stopping server waits for."""
    configure_logging(settings)
    services = create_services(settings)
    app = create_app(settings, services=services)
    flow = app.oauth_flow
    pages = frozenset({flow.install_path, flow.redirect_uri_path}) if flow is not None else frozenset()
    failed = installation_failed_page(resolve_locale(settings.dpscale_default_locale)).body.encode()
    return guarded(BoltHandler(app, path=EVENTS_PATH), browser_paths=pages, browser_failure=failed), services


def server_options(settings: Settings) -> dict[str, object]:
    """waitress's settings for the process; bench/load.py serves its baselines with the same ones."""
    return {
        "host": "0.0.0.0",
        "port": settings.port,
        "threads": settings.web_threads,
        "channel_timeout": READ_TIMEOUT,
        "cleanup_interval": CLEANUP_INTERVAL,
        "connection_limit": CONNECTION_LIMIT,
        "max_request_body_size": MAX_BODY,
        "max_request_header_size": MAX_HEADER,
        "asyncore_use_poll": True,  # select() cannot watch more than 1024 sockets
        "ident": "dpscale",
    }


def serve(settings: Settings, app: WSGIApp | None = None) -> None:
    """Serve `app` (dpscale unless given; a given app is built before the fork and shared by every process) in as
    many processes as `process_count` says, on 0.0.0.0:$PORT, until SIGTERM or SIGINT; then stop gracefully."""
    from waitress import create_server

    options = server_options(settings)
    count = process_count(settings)
    _limit_malloc_arenas()
    if app is None:
        prepare_database(settings)
    warm_up()  # before the fork: every process then shares the pages of the locales' data
    children: list[int] = []
    if count > 1:
        listener = socket.create_server(("0.0.0.0", settings.port), backlog=1024)
        options = {key: value for key, value in options.items() if key not in ("host", "port")}
        options["sockets"] = [listener]
        children = fork_servers(count - 1)
    pools: tuple[WorkPool, ...] = ()
    if app is None:
        try:
            app, services = build(settings)
        except TokenCheckFailed as failure:
            log.error("not serving: %s", failure)
            raise SystemExit(1) from None
        pools = services.pools
    freeze_startup_heap()
    socket_map: SocketMap = {}
    server = create_server(app, map=socket_map, **options)
    for dispatcher in list(socket_map.values()):  # the listening socket's server: its connections note arrivals
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = TimedChannel
    log.info("serving on port %d with %d threads in %d processes", settings.port, settings.web_threads, count)
    run(server, socket_map, settings.web_drain_timeout, children, pools)


def run(
    server: Server, socket_map: SocketMap, timeout: float, children: list[int], pools: tuple[WorkPool, ...]
) -> None:
    """Serve until SIGTERM or SIGINT; then pass SIGTERM on to `children`, finish the requests received and the
    work left in `pools` within `timeout` seconds, and wait for the children as long again and `CHILD_GRACE`."""
    cause = serve_until_signalled(server, socket_map)
    started = time.monotonic()
    deadline = started + timeout
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    log.info("stopping on %s (pid %d): no new connections; finishing %s within %g s",
             cause, os.getpid(), _count(in_progress(socket_map), "request"), timeout)
    requests = finish_requests(server, socket_map, deadline)
    tasks = sum(pool.finish(deadline) for pool in pools)  # at once, if the requests took all the time
    killed = wait_for_children(children, deadline + CHILD_GRACE)
    if requests or tasks:
        log.warning("the drain timeout of %g s (WEB_DRAIN_TIMEOUT) abandoned %s and %s",
                    timeout, _count(requests, "request"), _count(tasks, "background task"))
    if killed:
        log.warning("killed %s still running %g s after the drain timeout", _count(killed, "process"), CHILD_GRACE)
    log.info("stopped (pid %d) %.1f s after %s", os.getpid(), time.monotonic() - started, cause)
    if requests or tasks:  # their threads would hold the interpreter's exit past the bound
        stop_writer()
        logging.shutdown()
        os._exit(0)


def _count(number: int, thing: str) -> str:
    """`1 request`, `2 requests`, `2 processes`."""
    return f"{number} {thing}" + ("" if number == 1 else "es" if thing.endswith("s") else "s")


def process_count(settings: Settings) -> int:
    """WEB_CONCURRENCY, or bot.processes' choice for the database."""
    return settings.web_concurrency or default_process_count(settings)


def fork_servers(extra: int) -> list[int]:
    """Fork `extra` copies of this process, which return and serve; the first process gets their ids, to pass a
    stop signal on to them and wait for them."""
    children = []
    for _ in range(extra):
        pid = os.fork()
        if pid == 0:
            _die_with_parent()
            return []
        children.append(pid)
    return children


def wait_for_children(children: list[int], deadline: float) -> int:
    """Wait until every child has exited, for as long as `deadline` (a `time.monotonic()` instant) allows; one
    still running then is killed. How many were killed."""
    killed = 0
    for pid in children:
        while not _exited(pid) and time.monotonic() < deadline:
            time.sleep(CHILD_POLL)
        if not _exited(pid):
            with contextlib.suppress(ProcessLookupError, ChildProcessError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            killed += 1
    return killed


def _exited(pid: int) -> bool:
    """Whether child `pid` has exited (and is now reaped)."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return done != 0


os.register_at_fork(after_in_child=restart_writer_in_child)  # a forked server writes its own log lines

M_ARENA_MAX = -8  # glibc's mallopt parameter
MALLOC_ARENAS = 2


def _limit_malloc_arenas() -> None:
    """glibc gives threads that contend for malloc arenas of their own (up to eight per core) and keeps what each
    once held, so a threaded server's memory creeps up with every burst of new users (each lookup waits in a
    thread of its own). Two arenas serve threads that mostly wait on the network; MALLOC_ARENA_MAX, where the
    platform sets it, wins."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, MALLOC_ARENAS)


def _die_with_parent() -> None:
    """Linux: a forked server stops when the first one dies, however it dies (PR_SET_PDEATHSIG)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)


def main() -> int:
    """`python -m bot.server`: 2 if the settings are wrong, 1 if Slack refused the bot token or could not be
    asked about it at start-up, else serve until stopped, then 0."""
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    serve(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
