"""The App Home tab, published in the viewer's locale whenever they open it."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.messages import build_home_view
from bot.slack.context import Services, logged_request

EVENT = "app_home_opened"


def register(app: App, services: Services) -> None:
    def acknowledge(ack: Ack) -> None:
        ack()

    def publish_home(event: dict[str, Any], context: BoltContext, client: WebClient) -> None:
        if event.get("tab", "home") != "home":
            return
        with logged_request("home") as outcome:
            locale = services.locales.locale_of(context.team_id, event.get("user"))
            outcome.locale = locale
            client.views_publish(user_id=event["user"], view=build_home_view(locale))
            outcome.result = "ok"

    app.event(EVENT)(ack=acknowledge, lazy=[publish_home])
