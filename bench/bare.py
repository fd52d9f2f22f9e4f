"""The baselines: a minimal Bolt app that acknowledges every slash command with a constant message.

    python -m bench.bare [--defaults]      # served by dpscale's server (bot.server.serve), in-line: the floor

With `--defaults`, Bolt's defaults (the acknowledgement sent apart from the listener) instead of in-line. This
module imports nothing of dpscale's but its server and settings, so the floor's cold start is the server's and
Bolt's alone (bench/cold.py).

Same server, same adapter, same health check and same Web API client settings as dpscale; nothing else.
"""

from __future__ import annotations

import gc

if __name__ == "__main__":  # started as dpscale's web process starts (bot/server.py): no collection until it forks
    gc.disable()

import os
from collections.abc import Callable, Iterable
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk import WebClient

CONSTANT = {"response_type": "ephemeral", "text": "ok"}


def create_bolt_app(inline: bool) -> App:
    """The bare Bolt app itself (bench/instructions.py dispatches to it in-process)."""
    client = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])
    # named, as dpscale's is: unnamed, Bolt looks its caller's file up with inspect.stack() (some 40 ms at start)
    app = App(name="bare", client=client, signing_secret=os.environ["SLACK_SIGNING_SECRET"],
              process_before_response=inline)

    @app.command("/dpscale")
    def constant(ack):  # type: ignore[no-untyped-def]
        ack(**CONSTANT)

    return app


def create_wsgi_app(inline: bool) -> Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]:
    slack = SlackRequestHandler(create_bolt_app(inline), path="/slack/events")

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == "/healthz":
            start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
            return [b"ok"]
        return slack(environ, start_response)

    return application


def main() -> None:
    import sys

    from bot.server import serve
    from bot.settings import load_settings

    serve(load_settings(), app=create_wsgi_app(inline="--defaults" not in sys.argv[1:]))


if __name__ == "__main__":
    main()
