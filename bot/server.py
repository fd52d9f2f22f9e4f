"""The production HTTP process: gunicorn's arbiter managing uvicorn workers that serve dpscale's ASGI front.

    python -m bot.server        (the Procfile's `web:`; `python -m bot` does the same without SLACK_APP_TOKEN)

Process management is gunicorn's (its arbiter, docs/performance.md says why): the app is built once in the first
process (the schema migrated if it is behind, Slack's `auth.test` asked) and `WEB_CONCURRENCY` workers are
forked from it, each warming up (every locale's data loaded, its heap frozen) while it is idle, after its first
answer; a worker that dies, however it dies, is replaced within a second and its exit status logged; on
SIGTERM or SIGINT every worker stops accepting, answers what it has received and finishes or hands back its
follow-up work within `WEB_DRAIN_TIMEOUT`; SIGHUP replaces the workers with new ones, gracefully; SIGTTIN and
SIGTTOU add and remove one.

Each worker (bot/web/workers.py) reads requests on uvicorn's event loop and runs dpscale in one of `WEB_THREADS`
threads only once a request has arrived in full (bot/web/asgi.py); connections are bounded in time, so no client can
hold them (`bot.policy.Limits`): silent ones are closed after 2 s, unfinished requests 10 s after their first byte,
idle kept-alive ones after 10 s. The limit on open connections is the file-descriptor limit alone, raised to its
hard maximum.

All configuration is here and in Settings, so the process starts the same from any working directory. Nothing
of dpscale's app is imported until `serve` builds it: a server that serves another app (bench/bare.py) starts
without it.
"""

from __future__ import annotations

import gc

if __name__ == "__main__":  # the web process: no collection while it starts, as gc.freeze's documentation advises
    gc.disable()  # for a process that forks (re-enabled, the start-up heap frozen, just before it does: `serve`)

import contextlib
import logging
import math
import os
import resource
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.logs import configure_logging, hold_writer_for_fork, release_writer_after_fork, restart_writer_in_child
from bot.settings import Settings, load_settings
from bot.startup import StartupError, check_port, load_settings_or_report, log_start, open_store
from bot.web.asgi import Front, Lifespan
from bot.web.http import EVENTS_PATH, HEALTH_PATH, WSGIApp

if TYPE_CHECKING:
    from bot.slack.plumbing import Services

__all__ = ["EVENTS_PATH", "HEALTH_PATH", "create_asgi_app", "create_wsgi_app", "serve"]

BACKLOG = 2048  # connections the kernel queues before a worker accepts them
WORKER_TIMEOUT = 30  # seconds a worker may go without telling the arbiter it is alive before it is replaced
GRACE = 2  # seconds past the drain timeout a stopping worker has before the arbiter kills it
log = logging.getLogger("bot.server")


def create_wsgi_app(settings: Settings | None = None) -> WSGIApp:
    """dpscale as a WSGI app, for any WSGI server: Bolt behind the checks of bot/web/http.py."""
    return build(settings or load_settings())[0]


def create_asgi_app(settings: Settings | None = None) -> Front:
    """dpscale as an ASGI app, as this server runs it (its follow-up work started and drained by the lifespan,
    its warm-up done while idle)."""
    from bot.processes import warm_steps

    settings = settings or load_settings()
    app, services = build(settings)
    return Front(app, settings.web_threads, services, settings.web_drain_timeout, idle=warm_steps(),
                 limits=settings.limits, pacing=settings.pacing)


def build(settings: Settings) -> tuple[WSGIApp, Services]:
    """The WSGI app and the services behind it, which each worker starts and drains; the schema is brought up to
    date on the way (once: a database already there costs one query)."""
    from bot.reader.numbers import resolve_locale
    from bot.slack.app import create_app, create_services
    from bot.slack.workspaces import installation_failed_page
    from bot.web.http import BoltHandler, guarded

    configure_logging(settings)
    services = create_services(settings, open_store(settings))  # StartupError naming DATABASE_URL
    app = create_app(settings, services=services)
    flow = app.oauth_flow
    pages = frozenset({flow.install_path, flow.redirect_uri_path}) if flow is not None else frozenset()
    failed = installation_failed_page(resolve_locale(settings.dpscale_default_locale)).body.encode()
    return guarded(BoltHandler(app, path=EVENTS_PATH), browser_paths=pages, browser_failure=failed), services


def server_options(settings: Settings) -> dict[str, Any]:
    """gunicorn's settings for the process; bench/load.py serves its baselines with the same ones."""
    return {
        "bind": [f"{_bracketed(settings.host)}:{settings.port}"],
        "workers": process_count(settings),
        "worker_class": "bot.web.workers.Worker",
        "graceful_timeout": math.ceil(settings.web_drain_timeout + GRACE),
        "timeout": WORKER_TIMEOUT,
        "backlog": BACKLOG,
        "preload_app": True,  # built once, before the fork: a replaced worker is serving within a second
        "proc_name": "dpscale",
        "control_socket_disable": True,  # gunicornc's socket: nothing here uses it, and it is one path per user
        "logger_class": "bot.web.workers.OneLineLogger",
        "accesslog": None,
        "loglevel": settings.log_level.lower(),
    }


def serve(settings: Settings, app: WSGIApp | None = None) -> None:
    """Serve `app` (dpscale unless given; a given WSGI app runs behind the same front, with no follow-up work)
    on $HOST:$PORT in as many worker processes as `process_count` says, until SIGTERM or SIGINT."""
    from bot.web.arbiter import Gunicorn  # only now: gunicorn reads WEB_CONCURRENCY as it is imported

    _raise_file_limit()
    configure_logging(settings)
    lifespan: Lifespan | None = None
    idle: list[Callable[[], None]] = []
    try:
        check_port(settings)  # before anything is built: a port in use is named at once, in one line
        if app is None:
            app, lifespan = build_or_fail(settings)  # before any worker: each is forked with it built
            from bot.processes import warm_steps

            idle = warm_steps()  # in each worker, once it serves and whenever it has nothing else to do
    except StartupError as failure:
        log.error("not serving: %s", failure)
        raise SystemExit(1) from None
    front = Front(app, settings.web_threads, lifespan, settings.web_drain_timeout, idle, limits=settings.limits,
                  pacing=settings.pacing)
    # everything built so far lives as long as the process: out of the collector's sight, in this process and in
    # every worker forked from it (so that no worker's first full collection walks it, nor copies its pages); the
    # collector, off while the process started (some 15 % of its imports' time), runs again from here
    gc.freeze()
    gc.enable()
    log_start(settings, "http", process_count(settings))
    Gunicorn(front, server_options(settings)).run()


def build_or_fail(settings: Settings) -> tuple[WSGIApp, Services]:
    """`build`, with Slack's refusal of the token (or no answer) as the StartupError it is."""
    from bot.slack.app import TokenCheckError

    try:
        return build(settings)
    except TokenCheckError as failure:
        raise StartupError(str(failure)) from None


def process_count(settings: Settings) -> int:
    """WEB_CONCURRENCY, or bot.processes' choice for the database."""
    from bot.processes import default_process_count

    return settings.web_concurrency or default_process_count(settings)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _raise_file_limit() -> None:
    """Open connections are bounded by the file-descriptor limit alone: the soft limit raised to the hard one."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# a forked worker writes its own log lines; no fork happens while the parent's writer is in the middle of a write
os.register_at_fork(before=hold_writer_for_fork, after_in_parent=release_writer_after_fork,
                    after_in_child=restart_writer_in_child)


def main() -> int:
    """`python -m bot.server`: 2 if the settings are wrong, 1 if Slack refused the bot token or could not be
    asked about it at start-up, else serve until stopped, then 0."""
    settings = load_settings_or_report()
    if settings is None:
        return 2
    if settings.slack_signing_secret is None:  # SLACK_APP_TOKEN let the settings pass: that is `python -m bot`
        configure_logging(settings)
        log.error("not serving: fix these settings: SLACK_SIGNING_SECRET is required over HTTP (python -m "
                  "bot.server); for Socket Mode with SLACK_APP_TOKEN, run python -m bot")
        return 2
    serve(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
