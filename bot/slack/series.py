"""A measurement series in Slack: its form (opened by `/dpscale series` or by Edit on a series result, filled with
that result's numbers), the form's submission, and the Explanations button under a private series result.

A series typed in a command or a mention needs nothing here: `bot.engine.answer` reads it, and Share rebuilds it
from the text it carries like any result.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.engine import answer_series_form
from bot.errors import UserInputError
from bot.reader.parsing import split_words
from bot.reader.recipient import Recipient
from bot.reader.series_syntax import SeriesFieldErrors, is_series, parse_series
from bot.replies import Reply, build_help_reply
from bot.slack.charts import chart_for, start_chart
from bot.slack.delivery import post_to_response_url
from bot.slack.forms import accept_submission, apologize_for_form, deliver_result, submitted_metadata
from bot.slack.ids import EXPLAIN_ACTION, SERIES_BLOCK_IDS, SERIES_FORM_CALLBACK
from bot.slack.plumbing import acknowledge, deadline_of, logged, read_user_locale, recipient_of, services_of, time_left
from bot.slack.series_form import (
    SeriesValues,
    explanations_reply,
    series_form_errors,
    series_form_view,
    series_initial_values,
    submitted_series,
)
from bot.slack.state import BadStateError, FormMetadata, ResultState
from bot.slack.views import outdated_view, with_buttons, with_unknown_reader_note
from bot.store import Job

logger = logging.getLogger(__name__)

SERIES_FORM_WORK = "series_form"  # a series form's result, as follow-up work (`bot.slack.followups`)

MIN_CALL_SECONDS = 0.05  # less than this left, and a call could not even connect


def is_series_state(state: ResultState) -> bool:
    """Whether a result's buttons stand for a series: its form's fields, or a command that is one."""
    if state.series is not None:
        return True
    try:
        return state.text is not None and is_series(split_words(state.text, state.recipient)[0])
    except UserInputError:
        return False


def rebuild_series(state: ResultState, recipient: Recipient) -> Reply:
    """The reply a series form's result stands for, written for `recipient`'s readers (Share: the channel's)."""
    series = state.series
    if series is None:
        raise BadStateError("no series")
    try:
        return answer_series_form(series.throughput, series.rows, recipient)
    except SeriesFieldErrors as errors:
        raise next(iter(errors.errors.values())) from None


def series_initial(state: ResultState) -> tuple[Recipient, SeriesValues | None]:
    """The recipient a series result was written for (a `lang=` word's, the user's own beside it), and its fields
    as written."""
    if state.series is not None:
        return state.recipient, (state.series.throughput, state.series.rows)
    try:
        words, recipient = split_words(state.text or "", state.recipient)
        return recipient, series_initial_values(parse_series(words, recipient))
    except UserInputError:
        return state.recipient, None


def edit_series(ack: Ack, body: dict[str, Any], state: ResultState, client: WebClient, context: BoltContext) -> str:
    """Edit on a series result: its form, filled with the result's numbers as they were written."""
    recipient, initial = series_initial(state)
    context["locale"] = str(recipient)
    direct = (body.get("container") or {}).get("is_ephemeral") is False
    metadata = FormMetadata.of(recipient, body.get("response_url"), direct)
    services_of(context).background.submit(open_series_form_or_help, client, body.get("trigger_id") or "", recipient,
                                           metadata, initial, deadline=deadline_of(context))
    ack()
    return "series" if initial is not None else "empty_series_form"


def open_series_form_or_help(client: WebClient, trigger_id: str, recipient: Recipient, metadata: FormMetadata,
                             initial: SeriesValues | None = None, *, deadline: float) -> None:
    """Run after the acknowledgement: open the series form, or, when Slack will not open it in time, post the
    help where the user asked."""
    try:
        if _open(client, trigger_id, series_form_view(recipient, metadata, initial), deadline):
            return
        help_reply = build_help_reply(metadata.recipient)
        post_to_response_url(metadata.response_url, **help_reply.payload(response_type="ephemeral",
                                                                          replace_original=False))
    except Exception:
        logger.exception("opening the series form failed")


def _open(client: WebClient, trigger_id: str, view: dict[str, Any], deadline: float) -> bool:
    seconds = time_left(deadline)
    if seconds < MIN_CALL_SECONDS:
        logger.warning("views.open skipped: the trigger's time had run out")
        return False
    quick = WebClient(token=client.token, base_url=client.base_url, timeout=seconds,  # type: ignore[arg-type]
                      retry_handlers=[])
    try:
        quick.views_open(trigger_id=trigger_id, view=view)
    except (SlackApiError, SlackClientError, OSError, ValueError) as error:
        logger.warning("views.open failed: %s", type(error).__name__)
        return False
    return True


@logged("series_form")
def validate_series_form(ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient,
                         context: BoltContext) -> str:
    """As `bot.slack.forms.validate_form`: each wrong field gets its message and the form stays open; a valid one
    closes once its result is recorded as follow-up work, and the result follows at once."""
    metadata = submitted_metadata(view, context)
    recipient = metadata.recipient
    context["locale"] = str(recipient)
    try:
        answer_series_form(*submitted_series(view), recipient)
    except SeriesFieldErrors as errors:
        ack(response_action="errors", errors=series_form_errors(errors.errors, recipient))
        return "invalid"
    except BadStateError:
        ack(response_action="update", view=outdated_view(recipient))
        return "outdated"
    return accept_submission(ack, body, view, client, context, SERIES_FORM_WORK, SERIES_BLOCK_IDS["throughput"])


def deliver_series_result(job: Job, client: WebClient, context: BoltContext) -> str:
    """The series form's result where the command was run, or by direct message if it cannot go there."""
    view = job.payload["view"]
    metadata = submitted_metadata(view, context)
    recipient = metadata.recipient
    context["locale"] = str(recipient)
    try:
        throughput, rows = submitted_series(view)
        reply = with_unknown_reader_note(answer_series_form(throughput, rows, recipient), recipient)
        state = ResultState.of_series(recipient, throughput, rows)
        reply = with_buttons(reply, state)
    except SeriesFieldErrors:  # shown under their fields by the acknowledgement; the form is still open
        return "invalid"
    except BadStateError:
        return "outdated"
    try:  # its chart follows it where it was delivered (`bot.slack.charts`)
        reply, chart = chart_for(reply, recipient, state.encode(), ["form", job.key], metadata.response_url, context)
    except ValueError:  # too long to carry: no buttons, and no chart
        chart = None
    outcome = deliver_result(job, client, reply, metadata)
    if outcome == "ok" and chart is not None:
        start_chart(chart, client, context)
    return outcome


@logged("explain")
def explain(body: dict[str, Any], action: dict[str, Any], context: BoltContext) -> str:
    """Explanations under a series result: the FAQ and the limits, privately, in the result's language."""
    try:
        recipient = Recipient.parse(str(action.get("value") or ""))
    except UserInputError:
        recipient = recipient_of(context)
    context["locale"] = str(recipient)
    reply = explanations_reply(recipient)
    if not post_to_response_url(body.get("response_url"), **reply.payload(response_type="ephemeral",
                                                                           replace_original=False)):
        return "unreachable"
    return "ok"


# bot.slack.app registers them
FOLLOW_UPS = {SERIES_FORM_WORK: (deliver_series_result, apologize_for_form, "series_result")}


def register(app: App) -> None:
    app.view(SERIES_FORM_CALLBACK, middleware=[read_user_locale])(validate_series_form)
    # in memory: an explanation lost with its process is given again at the next click
    app.action(EXPLAIN_ACTION, middleware=[read_user_locale])(ack=acknowledge, lazy=[explain])
