"""A private result's buttons: Share in channel (a copy for everyone, the private one removed) and Edit (the form,
filled with that result's numbers in the user's format).

Each button carries a `ResultState`; a click recomputes the reply from it rather than trusting what a client sends.
"""

from __future__ import annotations

import hashlib
from typing import Any

from babel import Locale
from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.engine import answer, answer_form
from bot.errors import UserInputError
from bot.numbers import for_channel
from bot.parsing import FieldErrors, parse_command, parse_fields
from bot.replies import Reply, ReplyKind
from bot.slack.delivery import post_to_response_url
from bot.slack.failures import apologizing_on_failure
from bot.slack.forms import open_form
from bot.slack.ids import EDIT_ACTION, SHARE_ACTION
from bot.slack.plumbing import SHARE_MEMORY_TTL, acknowledge, logged, services_of
from bot.slack.state import BadState, FormMetadata, ResultState
from bot.slack.views import form_initial_values, share_failed_reply, shared_reply
from bot.store import SHARE


def rebuild(state: ResultState, locale: Locale | None = None) -> Reply:
    """Recompute the reply a button stands for (written for `locale`'s readers, by default the state's)."""
    locale = locale or state.locale
    fields = state.form_fields()
    if fields is not None:
        return answer_form(fields, locale)
    return answer(state.text or "", locale)


@logged("share")
def share(body: dict[str, Any], action: dict[str, Any], client: WebClient, context: BoltContext) -> str:
    user_id = body["user"]["id"]
    if not services_of(context).first_time(SHARE, share_key(body, action), SHARE_MEMORY_TTL, context):
        return "duplicate"  # a double click, perhaps on another process: shared once already
    locale: Locale = services_of(context).locales.default
    reply: Reply | None = None
    try:
        state = ResultState.decode(action.get("value"))
        locale = state.locale
        reply = rebuild(state, for_channel(state.locale))  # the whole channel will read it
    except (BadState, UserInputError, FieldErrors):
        pass
    context["locale"] = str(locale)
    response_url = body.get("response_url")
    if reply is not None and reply.kind is ReplyKind.RESULT:
        copy = shared_reply(reply, user_id=user_id, locale=locale)
        if post_to_response_url(response_url, **copy.payload(response_type="in_channel", replace_original=False)):
            post_to_response_url(response_url, delete_original=True)
            return "ok"
    failed = share_failed_reply(locale)
    if not post_to_response_url(response_url, **failed.payload(replace_original=True)):
        with apologizing_on_failure(client, user_id, None, locale):
            client.chat_postMessage(channel=user_id, **failed.payload())
    return "share_failed"


@logged("edit")
def edit(ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient, context: BoltContext) -> str:
    ack()
    try:
        state = ResultState.decode(action.get("value"))
        locale = state.locale
        fields = state.form_fields()
        command = parse_fields(fields, locale) if fields is not None else parse_command(state.text or "", locale)
        locale = command.locale  # the form speaks, and reads, the language the result was written in (`lang=`)
        initial: dict[Any, str] | None = form_initial_values(command.values, locale)
    except (BadState, UserInputError, FieldErrors):
        locale, initial = services_of(context).locales.default, None
    context["locale"] = str(locale)
    metadata = FormMetadata.of(locale, body.get("response_url"))
    return "ok" if open_form(client, body["trigger_id"], locale, metadata, initial) else "failed"


def share_key(body: dict[str, Any], action: dict[str, Any]) -> str:
    """What makes two Share clicks the same: the user, the message they clicked in, and the result it carries."""
    container = body.get("container") or {}
    parts = [body.get("user", {}).get("id"), container.get("channel_id") or (body.get("channel") or {}).get("id"),
             container.get("message_ts"), action.get("value")]
    return hashlib.sha256("\x1f".join(str(p or "") for p in parts).encode()).hexdigest()


def register(app: App) -> None:
    app.action(SHARE_ACTION)(ack=acknowledge, lazy=[share])
    app.action(EDIT_ACTION)(edit)
