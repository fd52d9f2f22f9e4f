"""Interactive parts: the form (`/dpscale` with no numbers, or Edit), Share in channel, and their state.

A result's buttons carry what is needed to rebuild it — the user's text or form fields and the locale it was
read in — so a click recomputes the same reply instead of trusting blocks sent back by a client.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from babel import Locale
from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.webhook import WebhookClient

from bot.calculator import Quantity
from bot.engine import answer, answer_form
from bot.errors import UserInputError
from bot.formats import parse_reader_locale
from bot.messages import (
    FORM_ACTION_ID,
    FORM_BLOCK_IDS,
    Reply,
    build_dm_fallback_note,
    build_form_view,
    build_result_actions,
    build_share_failed_reply,
    build_shared_reply,
    form_errors,
    form_initial_values,
)
from bot.parsing import FieldErrors, parse_command, parse_fields
from bot.slack.context import SHARE_MEMORY_TTL, Services, logged_request, share_key
from bot.slack.failures import apologizing_on_failure
from bot.store import SHARE

logger = logging.getLogger(__name__)

SHARE_ACTION = "dpscale_share"
EDIT_ACTION = "dpscale_edit"
FORM_CALLBACK = "dpscale_form"
MAX_STATE = 2000  # a button's value


# ---------------------------------------------------------------- state carried by buttons and views


def encode_state(locale: Locale, text: str | None = None, fields: dict[Quantity, str | None] | None = None) -> str:
    state: dict[str, Any] = {"l": str(locale)}
    if fields is not None:
        state["f"] = {q.value: v for q, v in fields.items() if v}
    else:
        state["t"] = text or ""
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))


def decode_state(value: str) -> tuple[Locale, str | None, dict[Quantity, str | None] | None]:
    """The locale and the text or fields a button or form carried; BadState if it cannot be read."""
    try:
        state = json.loads(value)
        locale = parse_reader_locale(str(state["l"]))
        fields = state.get("f")
        if fields is not None:
            return locale, None, {q: fields.get(q.value) for q in Quantity}
        return locale, str(state["t"]), None
    except (ValueError, KeyError, TypeError, AttributeError, UserInputError):
        raise BadState(value[:80]) from None


class BadState(ValueError):
    """A button's value or a view's metadata that this app did not write (or no longer understands)."""


def rebuild(value: str) -> tuple[Reply, Locale]:
    """Recompute the reply a button or form stands for."""
    locale, text, fields = decode_state(value)
    if fields is not None:
        return answer_form(fields, locale), locale
    return answer(text or "", locale), locale


def with_buttons(reply: Reply, state: str, locale: Locale) -> Reply:
    """A private result gets Share and Edit; errors and help get none, nor does state too large to carry."""
    if reply.kind != "result" or len(state) > MAX_STATE:
        return reply
    actions = build_result_actions(locale, state, state, SHARE_ACTION, EDIT_ACTION)
    return Reply(text=reply.text, blocks=[*reply.blocks, actions], kind=reply.kind)


def form_metadata(locale: Locale, response_url: str | None) -> str:
    """What the form carries to its submission: the locale it was shown in and where to deliver the result."""
    return json.dumps({"l": str(locale), "r": response_url}, separators=(",", ":"))


def read_form_metadata(view: dict[str, Any]) -> tuple[Locale | None, str | None]:
    """The locale (None if unreadable) and response_url that `form_metadata` wrote into a view."""
    try:
        meta = json.loads(view.get("private_metadata") or "{}")
        return parse_reader_locale(str(meta["l"])), meta.get("r")
    except (ValueError, KeyError, TypeError, AttributeError, UserInputError):
        return None, None


def open_form(
    client: WebClient, trigger_id: str, locale: Locale, metadata: str, initial: dict[Quantity, str] | None = None
) -> bool:
    """Open the form; False if Slack would not (an expired trigger, an API failure)."""
    try:
        client.views_open(trigger_id=trigger_id, view=build_form_view(locale, metadata, FORM_CALLBACK, initial))
    except (SlackApiError, SlackClientError, OSError, ValueError) as error:
        logger.warning("views.open failed: %s", type(error).__name__)
        return False
    return True


# ---------------------------------------------------------------- listeners


def register(app: App, services: Services) -> None:
    def acknowledge(ack: Ack) -> None:
        ack()

    def share(body: dict[str, Any], action: dict[str, Any], client: WebClient, context: BoltContext) -> None:
        with logged_request("share") as outcome:
            user_id = body["user"]["id"]
            if not services.first_time(SHARE, share_key(body, action), SHARE_MEMORY_TTL, context):
                outcome.result = "duplicate"  # a double click, perhaps on another process: shared once already
                return
            locale = services.locales.default
            try:
                reply, locale = rebuild(action["value"])
            except (BadState, UserInputError, FieldErrors):
                reply = None
            outcome.locale = locale
            webhook = WebhookClient(body.get("response_url") or "", timeout=10)
            if reply is not None and reply.kind == "result":
                shared = build_shared_reply(reply, user_id, locale)
                if _send(webhook, **shared.payload(response_type="in_channel", replace_original=False)):
                    _send(webhook, delete_original=True)
                    outcome.result = "ok"
                    return
            failed = build_share_failed_reply(locale)
            if not _send(webhook, **failed.payload(replace_original=True)):
                with apologizing_on_failure(client, user_id, None, locale):
                    client.chat_postMessage(channel=user_id, **failed.payload())
            outcome.result = "share_failed"

    app.action(SHARE_ACTION)(ack=acknowledge, lazy=[share])

    @app.action(EDIT_ACTION)
    def edit(ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        with logged_request("edit") as outcome:
            ack()
            try:
                locale, text, fields = decode_state(action["value"])
                command = parse_fields(fields, locale) if fields is not None else parse_command(text or "", locale)
                initial = form_initial_values(command.values, locale)
            except (BadState, UserInputError, FieldErrors):
                locale, initial = services.locales.default, None
            metadata = form_metadata(locale, body.get("response_url"))
            outcome.locale = locale
            outcome.result = "ok" if open_form(client, body["trigger_id"], locale, metadata, initial) else "failed"

    def validate_form(ack: Ack, view: dict[str, Any]) -> None:
        with logged_request("form") as outcome:
            locale = read_form_metadata(view)[0] or services.locales.default
            outcome.locale = locale
            try:
                answer_form(form_fields(view), locale)
            except FieldErrors as errors:
                ack(response_action="errors", errors=form_errors(errors.errors, locale))
                outcome.result = "invalid"
                return
            ack()
            outcome.result = "ok"

    def deliver_form_result(body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        with logged_request("form_result") as outcome:
            locale, response_url = read_form_metadata(view)
            locale = locale or services.locales.default
            fields = form_fields(view)
            reply = with_buttons(answer_form(fields, locale), encode_state(locale, fields=fields), locale)
            outcome.locale = locale
            user_id = body["user"]["id"]
            webhook = WebhookClient(response_url or "", timeout=10)
            if _send(webhook, **reply.payload(response_type="ephemeral", replace_original=True)):
                outcome.result = "ok"
                return
            blocks = [build_dm_fallback_note(locale), *reply.blocks]
            with apologizing_on_failure(client, user_id, None, locale):
                client.chat_postMessage(channel=user_id, text=reply.text, blocks=blocks)
            outcome.result = "direct_message"

    app.view(FORM_CALLBACK)(ack=validate_form, lazy=[deliver_form_result])


def form_fields(view: dict[str, Any]) -> dict[Quantity, str | None]:
    values = (view.get("state") or {}).get("values") or {}
    return {q: (values.get(FORM_BLOCK_IDS[q]) or {}).get(FORM_ACTION_ID, {}).get("value") for q in Quantity}


def _send(webhook: WebhookClient, **payload: Any) -> bool:
    """Post to a response_url; False when Slack refuses it (expired, too many uses) or cannot be reached."""
    if not webhook.url:
        return False
    try:
        response = webhook.send_dict(payload)
    except (OSError, ValueError) as error:
        logger.warning("response_url post failed: %s", type(error).__name__)
        return False
    if response.status_code != 200:
        logger.warning("response_url answered %s", response.status_code)
    return response.status_code == 200
