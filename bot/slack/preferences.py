"""A user's own number format: chosen in App Home's menu or with `format=` in a command, kept in the database.

The choice changes how that user's numbers are read and written, everywhere and on every process at once; the
language of replies stays the user's Slack language (a `lang=` word still chooses both for one command).
"""

from __future__ import annotations

from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from bot.errors import UserInputError
from bot.format_choice import (
    FOLLOW_SLACK,
    FormatChoice,
    UnknownFormatError,
    build_format_saved_reply,
    build_unknown_format_reply,
    normalise_tag,
    take_format_choice,
)
from bot.reader.recipient import Recipient
from bot.replies import Reply, build_error_reply
from bot.slack.home import home_with_format_menu, publish
from bot.slack.ids import NUMBER_FORMAT_ACTION
from bot.slack.plumbing import acknowledge, logged, services_of
from bot.slack.views import written_in
from bot.slack.workspaces import workspace_of


def choose_format_by_command(
    context: BoltContext, user_id: str | None, text: str | None, *, save: bool = True
) -> tuple[str, Reply | None, FormatChoice | None]:
    """Save a `format=` word's choice, if the command has one (unless not to `save`: the word is then only taken
    out); returns the rest of the text, the reply that confirms the choice (or names an unknown format, saving
    nothing), and the choice saved. The context's locale is brought up to date."""
    services = services_of(context)
    try:
        choice, rest = take_format_choice(text or "")
    except UnknownFormatError as unknown:
        return "", build_unknown_format_reply(unknown.token, services.locales.locale_for(context, user_id)), None
    except UserInputError as error:  # no value, or given twice
        return "", build_error_reply(error, services.locales.locale_for(context, user_id)), None
    if choice is None or not user_id:
        return text or "", None, None
    if not save:
        return rest, None, None
    services.store.preferences.set_number_format(workspace_of(context), user_id, choice.tag)
    recipient = services.locales.locale_for(context, user_id)
    context["locale"] = str(recipient)
    return rest, build_format_saved_reply(choice.tag, recipient), choice


def confirmed_above(reply: Reply, saved: FormatChoice | None, default: Recipient) -> Reply:
    """`reply` with the format choice its command saved (if any) confirmed above it, in the reply's language (a
    `lang=` word's, else `default`'s): the answer itself already reads in the new format."""
    if saved is None:
        return reply
    said = build_format_saved_reply(saved.tag, written_in(reply, default))
    return reply.with_blocks([*said.blocks, *reply.blocks])


@logged("number_format")
def save_choice(body: dict[str, Any], action: dict[str, Any], context: BoltContext, client: WebClient) -> str:
    services = services_of(context)
    user_id = body["user"]["id"]
    value = (action.get("selected_option") or {}).get("value") or FOLLOW_SLACK
    try:
        tag = normalise_tag(value)
    except UnknownFormatError:
        return "unknown_format"
    services.store.preferences.set_number_format(workspace_of(context), user_id, tag)
    context["locale"] = str(services.locales.locale_for(context, user_id))
    return publish(client, user_id, home_with_format_menu(context, user_id))  # show the new choice


def register(app: App) -> None:
    # in memory: a choice lost with its process still shows unsaved in the menu, to be chosen again
    app.action(NUMBER_FORMAT_ACTION)(ack=acknowledge, lazy=[save_choice])
