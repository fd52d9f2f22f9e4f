"""The form: opened by `/dpscale` with no numbers or by Edit; on submission each wrong field gets its own message,
and a valid form's result goes back to the conversation (or, failing that, to a direct message)."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from sqlalchemy.exc import SQLAlchemyError

from bot.engine import answer_form
from bot.model.calculator import Quantity
from bot.reader.parsing import FieldErrors
from bot.reader.recipient import Recipient
from bot.replies import Reply, build_failure_reply, build_help_reply, unavailable_text
from bot.slack.delivery import Delivery, deliver, post_to_response_url
from bot.slack.ids import ANY_ID, FORM_BLOCK_IDS, FORM_CALLBACK
from bot.slack.plumbing import logged, read_user_locale, recipient_of, services_of, time_left
from bot.slack.state import BadStateError, FormMetadata, ResultState
from bot.slack.views import (
    direct_message_copy,
    form_errors,
    form_view,
    outdated_view,
    submitted_fields,
    with_buttons,
    with_unknown_reader_note,
)
from bot.slack.workspaces import workspace_of
from bot.store import Job

logger = logging.getLogger(__name__)

FORM_WORK = "form"

MIN_CALL_SECONDS = 0.05  # less than this left, and a call could not even connect


def open_form(
    client: WebClient,
    trigger_id: str,
    recipient: Recipient,
    metadata: FormMetadata,
    initial: dict[Quantity, str] | None = None,
    *,
    deadline: float,
    notes: tuple[str, ...] = (),
) -> bool:
    """Open the form, giving Slack only the time left until `deadline`; False if Slack would not (an expired
    trigger, an API failure, no time left)."""
    seconds = time_left(deadline)
    if seconds < MIN_CALL_SECONDS:
        logger.warning("views.open skipped: the trigger's time had run out")
        return False
    quick = WebClient(
        token=client.token,
        base_url=client.base_url,
        timeout=seconds,  # type: ignore[arg-type]  # urllib takes float seconds
        retry_handlers=[],
    )
    try:
        quick.views_open(trigger_id=trigger_id, view=form_view(recipient, metadata, initial, notes))
    except (SlackApiError, SlackClientError, OSError, ValueError) as error:
        logger.warning("views.open failed: %s", type(error).__name__)
        return False
    return True


def open_form_or_help(
    client: WebClient,
    trigger_id: str,
    recipient: Recipient,
    metadata: FormMetadata,
    initial: dict[Quantity, str] | None = None,
    *,
    deadline: float,
    notes: tuple[str, ...] = (),
) -> None:
    """Run after the acknowledgement (`Services.background`): open the form, or, when Slack will not open it in
    time, post the help where the user asked, as the README promises."""
    try:
        if open_form(client, trigger_id, recipient, metadata, initial, deadline=deadline, notes=notes):
            return
        help_reply = build_help_reply(metadata.recipient)
        post_to_response_url(metadata.response_url, **help_reply.payload(response_type="ephemeral",
                                                                          replace_original=False))
    except Exception:
        logger.exception("opening the form failed")


def submitted_metadata(view: dict[str, Any], context: BoltContext) -> FormMetadata:
    """What the form carried; if it cannot be read, the submitting user's own locale and no way back."""
    try:
        return FormMetadata.decode(view.get("private_metadata"))
    except BadStateError:
        return FormMetadata.of(recipient_of(context), None)


@logged("form")
def validate_form(ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient,
                  context: BoltContext) -> str:
    """Check the form: each wrong field gets its message and the form stays open; a valid one closes once its
    result is recorded as work to do (so that it comes whatever happens next), and the result follows at once.
    Should the database not record it, the form stays open with a note to try again: its values are kept."""
    metadata = submitted_metadata(view, context)
    recipient = metadata.recipient
    context["locale"] = str(recipient)
    try:
        answer_form(submitted_fields(view), recipient)
    except FieldErrors as errors:
        ack(response_action="errors", errors=form_errors(errors.errors, recipient))
        return "invalid"
    except BadStateError:  # not a state this form's inputs send: as a form this version does not know
        ack(response_action="update", view=outdated_view(recipient))
        return "outdated"
    return accept_submission(ack, body, view, client, context, FORM_WORK, FORM_BLOCK_IDS[next(iter(Quantity))])


def accept_submission(ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient, context: BoltContext,
                      kind: str, first_block_id: str) -> str:
    """A valid form's result recorded as follow-up work of `kind`, then the form closed and the result started; if
    the database cannot record it, the form stays open with a note to try again under `first_block_id`."""
    followups = services_of(context).followups
    job = Job(kind, submission_key(view), workspace_of(context), {
        "user_id": body["user"]["id"], "locale": context["locale"],
        "view": {"private_metadata": view.get("private_metadata"), "state": view.get("state")},
    })
    try:
        accepted = followups.accept(job)
    except SQLAlchemyError as error:
        logger.warning("a form's result could not be recorded (%s): the form stays open", type(error).__name__)
        ack(response_action="errors", errors={first_block_id: unavailable_text(recipient_of(context))})
        return "unavailable"
    ack()
    if accepted:
        followups.run_now(job, client, context)
    return "ok"


def submission_key(view: dict[str, Any]) -> str:
    """What makes two submissions the same: the view (its id, its hash and what it carries) and what was typed."""
    parts = [str(view.get("id")), str(view.get("hash")), str(view.get("private_metadata")),
             json.dumps(view.get("state"), sort_keys=True)]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def deliver_form_result(job: Job, client: WebClient, context: BoltContext) -> str:
    view = job.payload["view"]
    metadata = submitted_metadata(view, context)
    recipient = metadata.recipient
    context["locale"] = str(recipient)
    try:
        fields = submitted_fields(view)
        reply = with_unknown_reader_note(answer_form(fields, recipient), recipient)
        reply = with_buttons(reply, ResultState.of_fields(recipient, fields))
    except FieldErrors:  # the acknowledgement already showed these under their fields; the form is still open
        return "invalid"
    except BadStateError:  # the acknowledgement replaced the form with a note
        return "outdated"
    return deliver_result(job, client, reply, metadata)


def deliver_result(job: Job, client: WebClient, reply: Reply, metadata: FormMetadata) -> str:
    """A form's result where its command was run, or by direct message if Slack refuses it there (never both: a post
    whose answer did not come may have landed)."""
    copy = direct_message_copy(reply, metadata.recipient)
    if metadata.direct:  # edited from a result that came by direct message: it stays such a copy, in place
        reply = copy
    delivered = deliver(metadata.response_url, **reply.payload(response_type="ephemeral", replace_original=True))
    if delivered is Delivery.DONE:
        return "ok"
    if delivered is Delivery.UNKNOWN:
        return "unknown"
    client.chat_postMessage(channel=job.payload["user_id"], **copy.payload())
    return "direct_message"


def apologize_for_form(job: Job, client: WebClient, context: BoltContext) -> None:
    """The form's result could not be delivered however often it was tried: the apology by direct message."""
    client.chat_postMessage(channel=job.payload["user_id"], **build_failure_reply(recipient_of(context)).payload())


@logged("outdated_form")
def answer_outdated_form(ack: Ack, context: BoltContext) -> str:
    """A form this version does not know (opened by an older version): replaced by a note saying so."""
    ack(response_action="update", view=outdated_view(recipient_of(context)))
    return "ok"


def register(app: App) -> None:
    app.view(FORM_CALLBACK, middleware=[read_user_locale])(validate_form)


FOLLOW_UPS = {FORM_WORK: (deliver_form_result, apologize_for_form, "form_result")}  # bot.slack.app registers them


def register_fallback(app: App) -> None:
    """Registered after every feature (Bolt runs the first listener that matches): any other form."""
    app.view(ANY_ID, middleware=[read_user_locale])(answer_outdated_form)
