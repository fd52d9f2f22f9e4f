"""A user's own number format: chosen in App Home's menu or with `format=` in a command, kept in the database.

The choice changes how that user's numbers are read and written, everywhere and on every process at once; the
language of replies stays the user's Slack language (a `lang=` word still chooses both for one command).
"""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.format_choice import (
    FOLLOW_SLACK,
    SELECT_ACTION,
    UnknownFormat,
    build_format_saved_reply,
    build_unknown_format_reply,
    normalise_tag,
    take_format_choice,
)
from bot.messages import Reply
from bot.slack.context import Services, logged_request
from bot.slack.home import home_view
from bot.slack.workspaces import workspace_of


def choose_format_by_command(
    services: Services, context: BoltContext, user_id: str | None, text: str | None
) -> tuple[str, Reply | None]:
    """Save a `format=` word's choice, if the command has one; returns the rest of the text and the reply that
    confirms the choice (or names an unknown format, saving nothing)."""
    try:
        choice, rest = take_format_choice(text or "")
    except UnknownFormat as unknown:
        locale = services.locales.locale_for(context, user_id)
        return "", build_unknown_format_reply(unknown.token, locale)
    if choice is None or not user_id:
        return text or "", None
    services.store.preferences.set_number_format(workspace_of(context), user_id, choice.tag)
    return rest, build_format_saved_reply(choice.tag, services.locales.locale_for(context, user_id))


def register(app: App, services: Services) -> None:
    def acknowledge(ack: Ack) -> None:
        ack()

    def save_choice(body: dict[str, Any], action: dict[str, Any], context: BoltContext, client: WebClient) -> None:
        with logged_request("number_format") as outcome:
            user_id = body["user"]["id"]
            value = ((action.get("selected_option") or {}).get("value")) or FOLLOW_SLACK
            try:
                tag = normalise_tag(value)
            except UnknownFormat:
                outcome.result = "unknown_format"
                return
            services.store.preferences.set_number_format(workspace_of(context), user_id, tag)
            locale = services.locales.locale_for(context, user_id)
            outcome.locale = locale
            client.views_publish(user_id=user_id, view=home_view(  # App Home shows the menu: show the choice
                services, context, user_id, locale))
            outcome.result = "ok"

    app.action(SELECT_ACTION)(ack=acknowledge, lazy=[save_choice])
