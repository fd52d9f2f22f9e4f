"""`python -m bot`: Socket Mode when SLACK_APP_TOKEN is set, otherwise HTTP on $PORT (bot/server.py)."""

from __future__ import annotations

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

    from bot.processes import freeze_startup_heap, prepare_database
    from bot.slack.app import configure_logging, create_app

    assert settings.slack_app_token is not None
    configure_logging(settings)
    prepare_database(settings)
    handler = SocketModeHandler(create_app(settings), settings.slack_app_token.get_secret_value())
    freeze_startup_heap()
    handler.start()
    return 0


def run_http(settings: Settings) -> int:
    from bot.server import serve

    serve(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
