"""`python -m bot`: Socket Mode when SLACK_APP_TOKEN is set, otherwise HTTP on $PORT (bot/server.py).

Under the Slack CLI (`slack run`, through .slack/hooks.json's start hook) the tokens may come only as
SLACK_CLI_XOXB and SLACK_CLI_XAPP: bot/settings.py reads them where SLACK_BOT_TOKEN and SLACK_APP_TOKEN are unset.
"""

from __future__ import annotations

import logging

from bot.settings import Settings
from bot.startup import StartupError, load_settings_or_report, log_start, open_store

log = logging.getLogger("bot.server")


def main() -> int:
    settings = load_settings_or_report()
    if settings is None:
        return 2
    if settings.socket_mode:
        return run_socket_mode(settings)
    return run_http(settings)


def run_socket_mode(settings: Settings) -> int:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    from bot.logs import configure_logging
    from bot.processes import freeze_startup_heap
    from bot.shutdown import serve_until_stopped
    from bot.slack.app import TokenCheckError, create_app, create_services

    assert settings.slack_app_token is not None
    configure_logging(settings)
    try:
        services = create_services(settings, open_store(settings))  # the schema brought up to date first
        app = create_app(settings, services=services)
    except (StartupError, TokenCheckError) as failure:  # one line, as the web process says it (bot/server.py)
        log.error("not serving: %s", failure)
        return 1
    handler = SocketModeHandler(app, settings.slack_app_token.get_secret_value())
    freeze_startup_heap()
    services.start()  # follow-up work left by a process before this one is taken up
    log_start(settings, "socket_mode", 1)
    serve_until_stopped(handler, services, settings.web_drain_timeout)  # drained on SIGTERM as the web server is
    return 0


def run_http(settings: Settings) -> int:
    from bot.server import serve

    serve(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
