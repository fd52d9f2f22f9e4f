"""What a process says as it starts: one line naming what serves, where, in how many processes and on which
database; or one line saying why it cannot start and which setting to change. Never a traceback, never a secret.

    settings = load_settings_or_report()  # None: its one line is logged (JSON under LOG_FORMAT=json)
    check_port(settings)                  # StartupError naming PORT or HOST
    store = open_store(settings)          # StartupError naming DATABASE_URL
    log_start(settings, mode, processes)  # "serving over HTTP on 0.0.0.0:3000: 1 process, …"
"""

from __future__ import annotations

import errno
import logging
import os
import socket
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.logs import configure_logging
from bot.processes import shared_database
from bot.settings import Settings, SettingsError, load_settings

if TYPE_CHECKING:  # the store and SQLAlchemy are loaded by the process that opens them, not by every importer
    from bot.store import Store

log = logging.getLogger("bot.server")
DEFAULT_DATABASE = "dpscale.sqlite3"  # where the store puts its SQLite file without DATABASE_URL (bot.store.db)


class StartupError(Exception):
    """Start-up cannot go on; the message says why in one line and names the setting to change."""


def load_settings_or_report(environ: Mapping[str, str] | None = None) -> Settings | None:
    """The settings; or None once one line has named every problem (in LOG_FORMAT's format, as far as it can
    be read: the line is JSON when LOG_FORMAT says json, whatever else is wrong)."""
    try:
        return load_settings(environ)
    except SettingsError as error:
        env = os.environ if environ is None else environ
        as_json = (env.get("LOG_FORMAT") or "").strip().lower() == "json"
        configure_logging(Settings.model_construct(log_format="json" if as_json else "text", log_level="INFO"))
        log.error("not serving: fix these settings: %s", "; ".join(error.problems))
        return None


def check_port(settings: Settings) -> None:
    """StartupError, naming PORT (or HOST), when the server could not listen on HOST:PORT: taken by another
    process, a port below 1024 without the privilege, an address this machine does not have. A quick probe
    before anything is built, where the server itself would retry for five seconds and then say it in 15 lines."""
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: TIME_WAIT is no obstacle
        try:
            probe.bind((settings.host, settings.port))
        except OSError as error:
            raise StartupError(_port_problem(error, settings.host, settings.port)) from None


def _port_problem(error: OSError, host: str, port: int) -> str:
    if error.errno == errno.EADDRINUSE:
        return f"PORT {port} is in use on {host} by another process: stop it, or set PORT to a free port"
    if error.errno == errno.EACCES:
        return f"PORT {port} needs privileges this process does not have: set PORT to 1024 or above"
    if isinstance(error, socket.gaierror) or error.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
        return f"HOST {host} is not an address of this machine: set HOST (0.0.0.0 listens on every one)"
    return f"cannot listen on {host}:{port} ({error.strerror or type(error).__name__}): check HOST and PORT"


def open_store(settings: Settings) -> Store:
    """The store at DATABASE_URL, its schema brought up to date; StartupError naming DATABASE_URL when the
    database cannot be reached, does not exist, refuses the user or cannot be opened."""
    from sqlalchemy.exc import SQLAlchemyError

    from bot.store import Store, upgrade
    from bot.store.tokens import TokenCipher

    store = Store.open(settings.database_url)
    try:
        upgrade(store.database, tokens=TokenCipher(settings.token_keys) if settings.token_keys else None)
    except SQLAlchemyError as error:
        store.close()
        raise StartupError(database_problem(error, settings.database_url)) from None
    return store


def database_problem(error: Exception, database_url: str | None) -> str:
    """What went wrong with the database, in one line that names DATABASE_URL and never its password."""
    detail = str(getattr(error, "orig", None) or error)
    where = describe_database(database_url)
    if '" does not exist' in detail and "database " in detail:
        name = detail.split('database "', 1)[1].split('"', 1)[0]
        return (f'{where} has no database "{name}": create it (createdb {name}), or name an existing one in '
                "DATABASE_URL")
    if "password authentication failed" in detail or ('role "' in detail and "does not exist" in detail):
        return f"{where} refused the user and password of DATABASE_URL: check them"
    if not shared_database(database_url):
        return (f"{where} cannot be opened ({detail[:80]}): check DATABASE_URL, and that its directory exists and "
                "is writable")
    reason = ("connection refused" if "refused" in detail else "unknown host" if "resolve host" in detail
              else "no answer" if "timeout" in detail.lower() else type(error).__name__)
    return f"{where} could not be reached ({reason}): check the host and port in DATABASE_URL, and that it runs"


def describe_database(database_url: str | None) -> str:
    """DATABASE_URL as a log line may show it: `PostgreSQL dpscale@db:5432/dpscale` (no password), or the SQLite
    file's path."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    if not database_url:
        return f"SQLite file {os.path.abspath(DEFAULT_DATABASE)}"
    try:
        url = make_url(database_url)
    except ArgumentError:
        return "the database of DATABASE_URL"
    if url.get_backend_name() == "sqlite":
        return f"SQLite file {os.path.abspath(url.database or DEFAULT_DATABASE)}"
    user = f"{url.username}@" if url.username else ""
    port = f":{url.port}" if url.port else ""
    return f"PostgreSQL {user}{url.host or 'localhost'}{port}/{url.database or ''}"


def log_start(settings: Settings, mode: str, processes: int) -> None:
    """The one line a healthy start writes: the mode, where it listens, how many processes, which database."""
    count = f"{processes} process" if processes == 1 else f"{processes} processes"
    if mode == "http":
        log.info("serving over HTTP on %s:%d: %s, %d threads each, %s", settings.host, settings.port, count,
                 settings.web_threads, describe_database(settings.database_url))
    else:
        log.info("serving over Socket Mode (a connection to Slack, no port): %s, %s", count,
                 describe_database(settings.database_url))
