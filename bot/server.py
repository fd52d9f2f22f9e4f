"""The WSGI application the production server runs: Slack's request path, a health check, 404 elsewhere.

    gunicorn 'bot.server:create_wsgi_app()'   (see bot/gunicorn_config.py and the Procfile)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from slack_bolt.adapter.wsgi import SlackRequestHandler

from bot.settings import Settings, load_settings
from bot.slack.app import configure_logging, create_app

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"

StartResponse = Callable[..., Any]


def create_wsgi_app(settings: Settings | None = None) -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    settings = settings or load_settings()
    configure_logging(settings)
    slack = SlackRequestHandler(create_app(settings), path=EVENTS_PATH)

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == HEALTH_PATH and environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            start_response("200 OK", [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "2")])
            return [b"ok"]
        return slack(environ, start_response)

    return application
