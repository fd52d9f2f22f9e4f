"""Production server settings: `gunicorn --config python:bot.gunicorn_config` (inside the package, so any working
directory will do).

Threads in each process: listeners answer slash commands in-line in microseconds of CPU, but a cold
`users.info` lookup may wait on Slack for up to DPSCALE_LOCALE_TIMEOUT, and threads keep such a wait from
holding up other requests. Processes: one per core when DATABASE_URL names a shared database (PostgreSQL),
where handled events, Share clicks and preferences live, so that any process recognises what another already
did; one process with the default SQLite file, which serialises writes and which no second host could share
(`bot.processes.default_process_count`). WEB_CONCURRENCY overrides the count.
"""

import os
import sys

bind = f"0.0.0.0:{os.environ.get('PORT', '3000')}"


def _workers() -> int:
    if os.environ.get("WEB_CONCURRENCY"):
        return int(os.environ["WEB_CONCURRENCY"])
    from bot.processes import default_process_count
    from bot.settings import SettingsError, load_settings

    try:
        return default_process_count(load_settings())
    except SettingsError:
        return 1  # on_starting names the problem and stops


workers = _workers()
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def on_starting(server):
    """Check the settings and bring the database schema up to date once, before any worker starts; stop with one
    clear message if either fails."""
    from sqlalchemy.exc import SQLAlchemyError

    from bot.processes import prepare_database
    from bot.settings import SettingsError, load_settings

    try:
        prepare_database(load_settings())
    except SettingsError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
    except SQLAlchemyError as error:
        cause = getattr(error, "orig", None) or error  # the driver's message: what failed, never the password
        print(f"dpscale cannot start: the database at DATABASE_URL is not usable ({type(error).__name__}: {cause})",
              file=sys.stderr)
        sys.exit(2)
