"""The message shortcut "Calculate with dpscale": on any message, the form, filled with the numbers it states.

The numbers are the author's, so they are read in the author's format (their Slack locale, or the number format
they chose in dpscale), looked up as every user's is (`bot.slack.locales`); the form itself speaks the language of
whoever clicked, and holds the values written so that their format reads them back unchanged. A number the
author's format does not settle is left empty and asked about above the fields, with the question a command
would get; an author Slack does not describe in time, or an app, is read in the unknown format
(`bot.reader.excerpts` says how a message's numbers are found and placed).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.reader.excerpts import Excerpt, read_message
from bot.reader.formats import written_example
from bot.reader.reading import AskReason
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
    words = wording_for(reader)
    _ = words.gettext
    if not author_id:  # an app has sentences of its own: a person's may say what only a person is (Korean 님)
        return _app_notes(excerpt, reader, escape(app_name) if app_name else _("an app"))
    who = f"<@{author_id}>"
    if excerpt.found_nothing and excerpt.seen:  # numbers, but nothing that says which value each one is
        return (_("I found {numbers} in {author}'s message, but nothing that says which value each one is, "
                  "so I didn't fill anything in.").format(author=who, numbers=_seen(excerpt, reader)),)
    if excerpt.found_nothing:
        return (_("I found no numbers to fill in from {author}'s message.").format(author=who),)
    if author.is_unknown:
        said = _("Filled in from {author}'s message. Slack didn't tell me their number format, so I filled in only "
                 "the numbers that read the same in every format.").format(author=who)
    else:
        example = code(written_example(author))
        said = _("Filled in from {author}'s message, with its numbers read the way {author} writes them: "
                 "{example}.").format(author=who, example=example)
    return _asking(said, excerpt, reader)


def _app_notes(excerpt: Excerpt, reader: Recipient, app: str) -> tuple[str, ...]:
    """`excerpt_notes` for an app's message (`app`: its name, or "an app"), always read in the unknown format."""
    words = wording_for(reader)
    _ = words.gettext
    if excerpt.found_nothing and excerpt.seen:
        return (words.fill(_("I found {numbers} in {app}'s message, but nothing that says which value each one is, "
                             "so I didn't fill anything in."), app=app, numbers=_seen(excerpt, reader)),)
    if excerpt.found_nothing:
        return (words.fill(_("I found no numbers to fill in from {app}'s message."), app=app),)
    return _asking(words.fill(_("Filled in from {app}'s message. Apps have no number format in Slack, so I filled in "
                                "only the numbers that read the same in every format."), app=app), excerpt, reader)


def _seen(excerpt: Excerpt, reader: Recipient) -> str:
    return wording_for(reader).spans([code(number) for number in excerpt.seen[:6]])


def _asking(said: str, excerpt: Excerpt, reader: Recipient) -> tuple[str, ...]:
    """`said`, and the question about a number left out, if one was (not why Slack gave no number format: `said`
    says it of the author, where the question's reason would say it of the reader)."""
    if excerpt.question is None:
        return (said,)
    question = excerpt.question
    if question.reason == AskReason.UNKNOWN_FORMAT:
        question = replace(question, reason=None)
    asked = wording_for(reader).gettext("Not filled in: {question}").format(question=describe_error(question, reader))
    return (said, ":warning: " + asked)


def register(app: App) -> None:
    app.message_shortcut(MESSAGE_SHORTCUT, middleware=[read_user_locale])(calculate_from_message)
