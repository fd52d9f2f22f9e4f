"""`python -m bot`: Socket Mode when SLACK_APP_TOKEN is set, otherwise HTTP on $PORT (bot/server.py)."""

from __future__ import annotations

import logging
import sys

from bot.settings import Settings, SettingsError, load_settings


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    if settings.socket_mode:
        return run_socket_mode(settings)
    return run_http(settings)


def run_socket_mode(settings: Settings) -> int:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    from bot.logs import configure_logging
    from bot.processes import freeze_startup_heap
    from bot.shutdown import serve_until_stopped
    from bot.slack.app import TokenCheckFailed, create_app, create_services

    assert settings.slack_app_token is not None
    configure_logging(settings)
    services = create_services(settings)  # the schema brought up to date first
    try:
        app = create_app(settings, services=services)
    except TokenCheckFailed as failure:  # one line, as the web process says it (bot/server.py)
        logging.getLogger("bot.server").error("not serving: %s", failure)
        return 1
    handler = SocketModeHandler(app, settings.slack_app_token.get_secret_value())
    freeze_startup_heap()
    services.start()  # follow-up work left by a process before this one is taken up
    serve_until_stopped(handler, services, settings.web_drain_timeout)  # drained on SIGTERM as the web server is
    return 0


def run_http(settings: Settings) -> int:
    from bot.server import serve

    serve(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
