"""Production server settings: `gunicorn --config python:bot.gunicorn_config` (inside the package, so any working
directory will do).

One process with threads: listeners answer slash commands in-line in microseconds of CPU, but a cold
`users.info` lookup may wait on Slack for up to DPSCALE_LOCALE_TIMEOUT, and threads keep such a wait from
holding up other requests. One process also keeps the memory of handled event ids in one place, so an
event Slack delivers again is recognised whichever thread receives it. Scale out with WEB_CONCURRENCY
only where duplicate answers to re-delivered events are acceptable.
"""

import os
import sys

bind = f"0.0.0.0:{os.environ.get('PORT', '3000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def on_starting(server):
    """Check the settings once, before any worker starts, and stop with one clear message if they are wrong."""
    from bot.settings import SettingsError, load_settings

    try:
        load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
