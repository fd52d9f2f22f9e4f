"""The production HTTP process: waitress serving Bolt behind the checks of bot/http.py.

    python -m bot.server        (the Procfile's `web:`; `python -m bot` does the same without SLACK_APP_TOKEN)

Why waitress (measurements in docs/performance.md): one I/O thread reads every request in full, with no
thread of its own, before any of the `WEB_THREADS` worker threads sees it. A client that sends headers and
never its body, or trickles it, therefore holds a socket but no thread, and is closed once it has been idle
for `READ_TIMEOUT` seconds; a body announced or grown past `MAX_BODY` is answered 413 without being kept.
Worker threads stay for what needs them: a cold `users.info` lookup may wait on Slack for up to
DPSCALE_LOCALE_TIMEOUT. On the benchmark's floor app it served as fast as or faster than gunicorn's threaded
worker and than uvicorn with an ASGI front, and it kept its rate with 32 stalled connections open, where
the threaded worker served nothing.

Processes: `bot.processes.default_process_count` (one per core with PostgreSQL, one with SQLite; WEB_CONCURRENCY
overrides). With more than one, the socket is bound once and the process forks: each process builds its own app
(and so its own database connections) and calls `waitress.serve(app, sockets=[that socket])` with the same
settings, and the kernel spreads connections across them. The schema is migrated once, before the fork.

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

from slack_bolt.adapter.wsgi import SlackRequestHandler

from bot.http import EVENTS_PATH, HEALTH_PATH, MAX_BODY, WSGIApp, guarded
from bot.processes import default_process_count, prepare_database
from bot.settings import Settings, SettingsError, load_settings
from bot.slack.app import configure_logging, create_app

__all__ = ["EVENTS_PATH", "HEALTH_PATH", "create_wsgi_app", "serve"]

READ_TIMEOUT = 10  # seconds a connection may sit idle, mid-request or between requests, before it is closed
CLEANUP_INTERVAL = 2  # how often waitress looks for such connections
CONNECTION_LIMIT = 1000  # open connections before waitress stops accepting; stalled ones cost a socket each
MAX_HEADER = 64 * 1024  # Slack's headers are a few hundred bytes


def create_wsgi_app(settings: Settings | None = None) -> WSGIApp:
    settings = settings or load_settings()
    configure_logging(settings)
    app = create_app(settings)
    flow = app.oauth_flow
    pages = frozenset({flow.install_path, flow.redirect_uri_path}) if flow is not None else frozenset()
    return guarded(SlackRequestHandler(app, path=EVENTS_PATH), browser_paths=pages)


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
        "_quiet": True,
    }


def serve(settings: Settings, app: WSGIApp | None = None) -> None:
    """Serve `app` (dpscale unless given; a given app is built before the fork and shared by every process) in as
    many processes as `process_count` says, on 0.0.0.0:$PORT, until the process is stopped."""
    from waitress import serve as waitress_serve

    options = server_options(settings)
    count = process_count(settings)
    _limit_malloc_arenas()
    if app is None:
        prepare_database(settings)
    if count > 1:
        listener = socket.create_server(("0.0.0.0", settings.port), backlog=1024)
        options = {key: value for key, value in options.items() if key not in ("host", "port")}
        options["sockets"] = [listener]
        fork_servers(count - 1)
    logging.getLogger("bot.server").info(
        "serving on port %d with %d threads in %d processes", settings.port, settings.web_threads, count
    )
    waitress_serve(app or create_wsgi_app(settings), **options)


def process_count(settings: Settings) -> int:
    return settings.web_concurrency or default_process_count(settings)


def fork_servers(extra: int) -> None:
    """Fork `extra` copies of this process, which return and serve; the first process stops them when it stops."""
    children = []
    for _ in range(extra):
        pid = os.fork()
        if pid == 0:
            _die_with_parent()
            return
        children.append(pid)

    def stop_children(signum: int, _frame: object) -> None:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop_children)
    signal.signal(signal.SIGINT, stop_children)


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
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    serve(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
