"""A private result's buttons: Share in channel (a copy for everyone, the private one removed) and Edit (the form,
filled with that result's numbers in the user's format).

Each button carries a `ResultState`; a click recomputes the reply from it rather than trusting what a client sends.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from sqlalchemy.exc import SQLAlchemyError

from bot.engine import answer, answer_form
from bot.errors import UserInputError
from bot.model.calculator import Quantity
from bot.reader.parsing import FieldErrors, parse_command, parse_fields
from bot.reader.recipient import Recipient
from bot.replies import Reply, ReplyKind, build_failure_reply, build_unavailable_reply
from bot.slack.charts import with_shared_chart
from bot.slack.delivery import Delivery, deliver, post_to_response_url
from bot.slack.forms import open_form_or_help
from bot.slack.ids import ANY_ID, EDIT_ACTION, SHARE_ACTION
from bot.slack.plumbing import (
    HANDED_ON,
    acknowledge,
    deadline_of,
    logged,
    read_user_locale,
    recipient_of,
    services_of,
)
from bot.slack.series import edit_series, is_series_state, rebuild_series
from bot.slack.series_form import is_series_reply
from bot.slack.state import BadStateError, FormMetadata, ResultState
from bot.slack.views import form_initial_values, outdated_reply, share_failed_reply, shared_reply, written_in
from bot.slack.workspaces import workspace_of
from bot.store import Job

logger = logging.getLogger(__name__)

SHARE_WORK = "share"


def rebuild(state: ResultState, recipient: Recipient | None = None) -> Reply:
    """Recompute the reply a button stands for (written for `recipient`'s readers, by default the state's)."""
    recipient = recipient or state.recipient
    if state.series is not None:  # a series form's result (`bot.slack.series`)
        return rebuild_series(state, recipient)
    fields = state.form_fields()
    if fields is not None:
        return answer_form(fields, recipient)
    return answer(state.text or "", recipient)


@logged("share")
def accept_share(ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient,
                 context: BoltContext) -> str:
    """Record the Share as work to do before Slack hears the click was received, then share at once. A second
    click on the same result (a double click, perhaps on another process) shares nothing more."""
    services = services_of(context)
    job = Job(SHARE_WORK, share_key(body, action), workspace_of(context), {
        "user_id": body["user"]["id"], "response_url": body.get("response_url"), "value": action.get("value"),
        "locale": context["locale"],
    })
    try:
        accepted = services.followups.accept(job)
    except SQLAlchemyError as error:  # nothing can be promised: said beside the result, to click again later
        ack()
        logger.warning("a Share click could not be recorded (%s)", type(error).__name__)
        note = build_unavailable_reply(recipient_of(context))
        services.background.submit(post_to_response_url, body.get("response_url"),
                                   **note.payload(response_type="ephemeral", replace_original=False))
        return "unavailable"
    ack()
    if not accepted:
        return "duplicate"
    services.followups.run_now(job, client, context)
    return HANDED_ON


def share(job: Job, client: WebClient, context: BoltContext) -> str:
    """Post the result for the whole conversation and remove the private copy; if Slack refuses, say so where
    the button was (or, failing that, by direct message). A post whose answer never came is not said to have
    failed: it may well have landed."""
    user_id, response_url = job.payload["user_id"], job.payload.get("response_url")
    recipient: Recipient = recipient_of(context)  # the clicking user's, until the button says which it was shown in
    reply: Reply | None = None
    state: ResultState | None = None
    try:
        state = ResultState.decode(job.payload.get("value"))
        recipient = state.recipient
        reply = rebuild(state, state.recipient.for_channel())  # the whole channel will read it
    except (BadStateError, UserInputError, FieldErrors):
        pass
    context["locale"] = str(recipient)
    if reply is not None:  # what goes with the result speaks its language, which a `lang=` word may have chosen
        recipient = written_in(reply, recipient)
    if reply is not None and reply.kind is ReplyKind.RESULT:
        copy = shared_reply(reply, user_id=user_id, recipient=recipient)
        if state is not None and is_series_reply(reply):  # the chart goes with it, once (`bot.slack.charts`)
            copy = with_shared_chart(copy, job, client, context, state, state.recipient.for_channel())
        shared = deliver(response_url, **copy.payload(response_type="in_channel", replace_original=False))
        if shared is Delivery.DONE:
            deliver(response_url, delete_original=True)
            return "ok"
        if shared is Delivery.UNKNOWN:
            return "unknown"
    failed = share_failed_reply(recipient)
    if deliver(response_url, **failed.payload(replace_original=True)) is Delivery.REFUSED:
        client.chat_postMessage(channel=user_id, **failed.payload())
    return "share_failed"


def apologize_for_share(job: Job, client: WebClient, context: BoltContext) -> None:
    """The Share could not be done however often it was tried: the apology beside the result."""
    reply = build_failure_reply(recipient_of(context))
    post_to_response_url(job.payload.get("response_url"), **reply.payload(replace_original=False))


@logged("edit")
def edit(ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient, context: BoltContext) -> str:
    try:
        state = known_now(ResultState.decode(action.get("value")), recipient_of(context))
        if is_series_state(state):  # a series: its own form, filled (`bot.slack.series`)
            return edit_series(ack, body, state, client, context)
        fields = state.form_fields()
        if fields is not None:
            command = parse_fields(fields, state.recipient)
        else:
            command = parse_command(state.text or "", state.recipient)
        # the form speaks the language the result was written in (`lang=`), and reads as its command did
        recipient = command.recipient
        initial: dict[Quantity, str] | None = form_initial_values(command.tokens, command.values, recipient)
        outcome = "ok"
    except (BadStateError, UserInputError, FieldErrors):
        recipient, initial, outcome = recipient_of(context), None, "empty_form"
    context["locale"] = str(recipient)
    # a private result is ephemeral; one with buttons that is not came by direct message (`forms`)
    direct = (body.get("container") or {}).get("is_ephemeral") is False
    metadata = FormMetadata.of(recipient, body.get("response_url"), direct)
    services_of(context).background.submit(
        open_form_or_help, client, body.get("trigger_id") or "", recipient, metadata, initial,
        deadline=deadline_of(context),
    )
    ack()
    return outcome


def known_now(state: ResultState, current: Recipient) -> ResultState:
    """A result read for an unknown reader, to edit now that Slack has told the reader's locale: in that locale.
    Its values were read alike by every Slack locale, or asked about, so the user's own reads them so too."""
    if state.recipient.is_unknown and state.own_tag is None and not current.is_unknown:
        return state.model_copy(update={"locale_tag": current.tag})
    return state


@logged("outdated")
def answer_outdated_button(body: dict[str, Any], context: BoltContext) -> str:
    """A button this version does not know (a message from an older version): say so where it was clicked."""
    reply = outdated_reply(recipient_of(context))
    if not post_to_response_url(body.get("response_url"), **reply.payload(response_type="ephemeral",
                                                                           replace_original=False)):
        return "unreachable"
    return "ok"


def share_key(body: dict[str, Any], action: dict[str, Any]) -> str:
    """What makes two Share clicks the same: the user, the message they clicked in, and the result it carries."""
    container = body.get("container") or {}
    parts = [body.get("user", {}).get("id"), container.get("channel_id") or (body.get("channel") or {}).get("id"),
             container.get("message_ts"), action.get("value")]
    return hashlib.sha256("\x1f".join(str(p or "") for p in parts).encode()).hexdigest()


def register(app: App) -> None:
    app.action(SHARE_ACTION, middleware=[read_user_locale])(accept_share)
    app.action(EDIT_ACTION, middleware=[read_user_locale])(edit)


FOLLOW_UPS = {SHARE_WORK: (share, apologize_for_share, "share")}  # bot.slack.app registers them


def register_fallback(app: App) -> None:
    """Registered after every feature (Bolt runs the first listener that matches): any other button."""
    # in memory: a note on an outdated button, lost with its process, is given again at the next click
    app.action(ANY_ID, middleware=[read_user_locale])(ack=acknowledge, lazy=[answer_outdated_button])
