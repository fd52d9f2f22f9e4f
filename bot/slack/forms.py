"""The form: opened by `/dpscale` with no numbers or by Edit; on submission each wrong field gets its own message,
and a valid form's result goes back to the conversation (or, failing that, to a direct message)."""

from __future__ import annotations

import logging
from typing import Any

from babel import Locale
from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.calculator import Quantity
from bot.engine import answer_form
from bot.parsing import FieldErrors
from bot.slack.delivery import post_to_response_url
from bot.slack.failures import apologizing_on_failure
from bot.slack.ids import FORM_CALLBACK
from bot.slack.plumbing import logged, services_of
from bot.slack.state import BadState, FormMetadata, ResultState
from bot.slack.views import direct_message_note, form_errors, form_view, submitted_fields, with_buttons

logger = logging.getLogger(__name__)


def open_form(
    client: WebClient,
    trigger_id: str,
    locale: Locale,
    metadata: FormMetadata,
    initial: dict[Quantity, str] | None = None,
) -> bool:
    """Open the form; False if Slack would not (an expired trigger, an API failure)."""
    try:
        client.views_open(trigger_id=trigger_id, view=form_view(locale, metadata, initial))
    except (SlackApiError, SlackClientError, OSError, ValueError) as error:
        logger.warning("views.open failed: %s", type(error).__name__)
        return False
    return True


def submitted_metadata(view: dict[str, Any], context: BoltContext) -> FormMetadata:
    """What the form carried; the default locale and no way back if it cannot be read."""
    try:
        return FormMetadata.decode(view.get("private_metadata"))
    except BadState:
        return FormMetadata.of(services_of(context).locales.default, None)


@logged("form")
def validate_form(ack: Ack, view: dict[str, Any], context: BoltContext) -> str:
    locale = submitted_metadata(view, context).locale
    context["locale"] = str(locale)
    try:
        answer_form(submitted_fields(view), locale)
    except FieldErrors as errors:
        ack(response_action="errors", errors=form_errors(errors.errors, locale))
        return "invalid"
    ack()
    return "ok"


@logged("form_result")
def deliver_form_result(body: dict[str, Any], view: dict[str, Any], client: WebClient, context: BoltContext) -> str:
    metadata = submitted_metadata(view, context)
    locale = metadata.locale
    context["locale"] = str(locale)
    fields = submitted_fields(view)
    try:
        reply = with_buttons(answer_form(fields, locale), ResultState.of_fields(locale, fields))
    except FieldErrors:  # the acknowledgement already showed these under their fields; the form is still open
        return "invalid"
    if post_to_response_url(metadata.response_url, **reply.payload(response_type="ephemeral", replace_original=True)):
        return "ok"
    user_id = body["user"]["id"]
    with apologizing_on_failure(client, user_id, None, locale):
        client.chat_postMessage(channel=user_id, text=reply.text, blocks=[direct_message_note(locale), *reply.blocks])
    return "direct_message"


def register(app: App) -> None:
    app.view(FORM_CALLBACK)(ack=validate_form, lazy=[deliver_form_result])
