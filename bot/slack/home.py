"""The App Home tab, published in the viewer's locale whenever they open it."""

from __future__ import annotations

from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from bot.slack.ids import HOME_EVENT
from bot.slack.plumbing import acknowledge, locale_of, logged, read_user_locale
from bot.slack.views import home_view


@logged("home")
def publish_home(event: dict[str, Any], context: BoltContext, client: WebClient) -> str:
    if event.get("tab", "home") != "home":
        return "other_tab"
    client.views_publish(user_id=event["user"], view=home_view(locale_of(context)))
    return "ok"


def register(app: App) -> None:
    app.event(HOME_EVENT, middleware=[read_user_locale])(ack=acknowledge, lazy=[publish_home])
