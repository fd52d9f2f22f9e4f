"""The App Home tab, published in the viewer's locale whenever they open it."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from sqlalchemy.exc import SQLAlchemyError

from bot.format_choice import build_format_blocks
from bot.slack.ids import HOME_EVENT
from bot.slack.plumbing import acknowledge, logged, read_user_locale, recipient_of, services_of
from bot.slack.views import home_view
from bot.slack.workspaces import workspace_of

log = logging.getLogger(__name__)


@logged("home")
def publish_home(event: dict[str, Any], context: BoltContext, client: WebClient) -> str:
    if event.get("tab", "home") != "home":
        return "other_tab"
    return publish(client, event["user"], home_with_format_menu(context, event["user"]))


def publish(client: WebClient, user_id: str, view: dict[str, Any]) -> str:
    """`views.publish`, and the outcome: "ok", or "publish_failed" with one line saying why (Slack's error code, or
    the kind of network failure). The Home tab is no conversation, so there is no one to tell but the log."""
    try:
        client.views_publish(user_id=user_id, view=view)
    except SlackApiError as error:
        log.warning("views.publish failed: HTTP %s %s", error.response.status_code, error.response.get("error"))
        return "publish_failed"
    except (SlackClientError, OSError) as error:
        log.warning("views.publish failed: %s", type(error).__name__)
        return "publish_failed"
    return "ok"


def home_with_format_menu(context: BoltContext, user_id: str) -> dict[str, Any]:
    """The Home tab, with the viewer's own number format menu first."""
    recipient = recipient_of(context)
    view = home_view(recipient)
    try:
        chosen = services_of(context).store.preferences.number_format(workspace_of(context), user_id)
    except SQLAlchemyError as error:  # the tab still opens, its menu showing no choice
        log.warning("a saved number format could not be read for the Home tab (%s)", type(error).__name__)
        chosen = None
    return {**view, "blocks": [*build_format_blocks(chosen, recipient), *view["blocks"]]}


def register(app: App) -> None:
    # in memory: a tab lost with its process is published again the next time it is opened
    app.event(HOME_EVENT, middleware=[read_user_locale])(ack=acknowledge, lazy=[publish_home])
