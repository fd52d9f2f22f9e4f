"""The message shortcut "Calculate with dpscale": on any message, the form, filled with the numbers it states.

The numbers are the author's, so they are read in the author's format (their Slack locale, or the number format
they chose in dpscale), looked up as every user's is (`bot.slack.locales`); the form itself speaks the language of
whoever clicked, and holds the values written so that their format reads them back unchanged. A number the
author's format does not settle is left empty and asked about above the fields, with the question a command
would get; an author Slack does not describe in time, or an app, is read in the unknown format
(`bot.reader.excerpts` says how a message's numbers are found and placed).
"""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.reader.excerpts import Excerpt, read_message
from bot.reader.formats import written_example
from bot.reader.recipient import Recipient
from bot.replies import describe_error
from bot.replies.blocks import code, escape
from bot.replies.wording import wording_for
from bot.slack.forms import open_form_or_help
from bot.slack.ids import MESSAGE_SHORTCUT
from bot.slack.plumbing import deadline_of, logged, read_user_locale, recipient_of, services_of, time_left
from bot.slack.state import FormMetadata
from bot.slack.views import form_initial_values

VIEW_RESERVE = 0.6  # seconds of the trigger's life kept for views.open after the author's locale is looked up


@logged("message_shortcut")
def calculate_from_message(ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext) -> str:
    """Acknowledge at once; the author's locale and the form follow off the request thread, within the trigger's
    life (the help comes instead where Slack will not open the form in time, as for `/dpscale`)."""
    message = body.get("message") or {}
    services_of(context).background.submit(
        open_filled_form, client, context, message, body.get("response_url"), body.get("trigger_id") or "",
        deadline=deadline_of(context),
    )
    ack()
    return "form"


def open_filled_form(client: WebClient, context: BoltContext, message: dict[str, Any], response_url: str | None,
                     trigger_id: str, *, deadline: float) -> None:
    clicker = recipient_of(context)
    author_id = message.get("user") if not message.get("bot_id") else None
    locales = services_of(context).locales
    if author_id:
        author = locales.locale_for(context, author_id, wait=max(0.0, time_left(deadline) - VIEW_RESERVE))
    else:
        author = locales.unknown
    excerpt = read_message(str(message.get("text") or ""), author)
    initial = form_initial_values({}, excerpt.values, clicker)
    app_name = (message.get("bot_profile") or {}).get("name") or message.get("username")
    notes = excerpt_notes(excerpt, author_id, author, clicker, str(app_name)[:80] if app_name else None)
    open_form_or_help(client, trigger_id, clicker, FormMetadata.of(clicker, response_url), initial,
                      deadline=deadline, notes=notes)


def excerpt_notes(excerpt: Excerpt, author_id: str | None, author: Recipient, reader: Recipient,
                  app_name: str | None = None) -> tuple[str, ...]:
    """What the form says, in the reader's language, about the values it was filled with: whose message they come
    from (a person, or an app by its name) and how they were read, and the question about a number left out."""
    _ = wording_for(reader).gettext
    who = f"<@{author_id}>" if author_id else escape(app_name) if app_name else _("an app")
    if excerpt.found_nothing and excerpt.seen:  # numbers, but nothing that says which value each one is
        seen = wording_for(reader).spans([code(number) for number in excerpt.seen[:6]])
        return (_("I found {numbers} in {author}'s message, but nothing that says which value each one is, "
                  "so I didn't fill anything in.").format(author=who, numbers=seen),)
    if excerpt.found_nothing:
        return (_("I found no numbers to fill in from {author}'s message.").format(author=who),)
    if author.is_unknown or not author_id:
        said = _("Filled in from {author}'s message. Slack didn't tell me their number format, so I filled in only "
                 "the numbers that read the same in every format.").format(author=who)
    else:
        example = code(written_example(author))
        said = _("Filled in from {author}'s message, with its numbers read the way {author} writes them: "
                 "{example}.").format(author=who, example=example)
    if excerpt.question is None:
        return (said,)
    asked = _("Not filled in: {question}").format(question=describe_error(excerpt.question, reader))
    return (said, ":warning: " + asked)


def register(app: App) -> None:
    app.message_shortcut(MESSAGE_SHORTCUT, middleware=[read_user_locale])(calculate_from_message)
