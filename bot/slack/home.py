"""The App Home tab, published in the viewer's locale whenever they open it."""

from __future__ import annotations

from typing import Any

from babel import Locale
from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.format_choice import build_format_blocks
from bot.messages import build_home_view
from bot.slack.context import Services, logged_request
from bot.slack.workspaces import workspace_of

EVENT = "app_home_opened"


def register(app: App, services: Services) -> None:
    def acknowledge(ack: Ack) -> None:
        ack()

    def publish_home(event: dict[str, Any], context: BoltContext, client: WebClient) -> None:
        if event.get("tab", "home") != "home":
            return
        with logged_request("home") as outcome:
            locale = services.locales.locale_for(context, event.get("user"))
            outcome.locale = locale
            client.views_publish(user_id=event["user"], view=home_view(services, context, event["user"], locale))
            outcome.result = "ok"

    app.event(EVENT)(ack=acknowledge, lazy=[publish_home])


def home_view(services: Services, context: BoltContext, user_id: str, locale: Locale) -> dict[str, Any]:
    """The Home tab, with the viewer's own number format menu first."""
    view = build_home_view(locale)
    chosen = services.store.preferences.number_format(workspace_of(context), user_id)
    return {**view, "blocks": [*build_format_blocks(chosen, locale), *view["blocks"]]}
