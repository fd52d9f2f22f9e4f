"""Workflow Builder's custom step, "Data-parallel throughput": a workflow's numbers in, dpscale's figures out.

Slack runs the step with a `function_executed` event carrying its inputs (every manifest's `functions` entry
declares them): devices, per-device throughput, and the scaling efficiency or the measured cluster throughput,
each a text read as the form's fields are (`bot.engine.solve_form`), in the number format of the person the
optional `user_id` input names (their Slack language, or the format they chose), else DPSCALE_DEFAULT_LOCALE.
The step completes with the figures and the reply's one-line summary in that person's language, or fails with one
localized sentence naming the input that is wrong: a number dpscale would ask about fails too, since a workflow
cannot answer a question.

The outcome is given to Slack before the event is acknowledged, so a process that dies first leaves the event
to Slack's redelivery; a second outcome for the same execution is refused by Slack and counts as given.
"""

from __future__ import annotations

import logging
import time
from decimal import Decimal
from typing import Any

from slack_bolt import Ack, App, BoltContext, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.engine import solve_form
from bot.errors import ErrorCode
from bot.model.calculator import Quantity, Result
from bot.reader.parsing import FieldErrors
from bot.reader.recipient import Recipient
from bot.replies import Reply, build_failure_reply, describe_error
from bot.replies.plain import plain
from bot.replies.wording import wording_for
from bot.slack.ids import THROUGHPUT_STEP
from bot.slack.plumbing import deadline_of, request_log, services_of, time_left
from bot.slack.views import form_labels

logger = logging.getLogger(__name__)

# the step's inputs, as the manifests name them
INPUTS = {Quantity.DEVICES: "devices", Quantity.THROUGHPUT: "throughput", Quantity.EFFICIENCY: "efficiency",
          Quantity.ACTUAL: "actual"}
READER_INPUT = "user_id"  # whose language and number format: e.g. the person who used the workflow
COUNT_CODES = {ErrorCode.NOT_ENOUGH_QUANTITIES, ErrorCode.TOO_MANY_QUANTITIES}  # about the inputs, not one input
ERROR_LIMIT = 1000  # characters of a failed step's message
DONE_ALREADY = {"execution_not_in_running_state", "function_execution_not_found"}  # an earlier delivery's outcome


def step_fields(inputs: dict[str, Any]) -> dict[Quantity, str | None]:
    """The step's inputs as the form's fields: text, or None where a workflow left an input empty."""
    fields: dict[Quantity, str | None] = {}
    for quantity, name in INPUTS.items():
        value = inputs.get(name)
        fields[quantity] = None if value is None or value == "" else str(value)
    return fields


def step_outputs(result: Result, reply: Reply) -> dict[str, Any]:
    """What a completed step gives the workflow's next steps: the figures as numbers (the efficiency a fraction
    from 0 to 1), and the reply's one-line summary as plain text."""
    return {
        "ideal_throughput": _number(result.ideal), "actual_throughput": _number(result.actual),
        "speedup": _number(result.speedup), "efficiency": _number(result.efficiency),
        "summary": plain(reply.text.splitlines()[0]),
    }


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def step_problem(errors: FieldErrors, recipient: Recipient) -> str:
    """One message for a failed step, in `recipient`'s language: each wrong input named by the form's label for it."""
    words = wording_for(recipient)
    labels = form_labels(words)
    parts = []
    for quantity, error in errors.errors.items():
        problem = plain(describe_error(error, recipient))
        parts.append(problem if error.code in COUNT_CODES else words.field_line(labels[quantity], problem))
    return words.sentences(*parts)[:ERROR_LIMIT]


def outcome_of(inputs: dict[str, Any], recipient: Recipient) -> tuple[str, dict[str, Any] | str]:
    """("ok", outputs), ("invalid", the message naming what is wrong), or ("failed", the apology): pure."""
    try:
        result, reply = solve_form(step_fields(inputs), recipient)
    except FieldErrors as errors:
        return "invalid", step_problem(errors, recipient)
    return "ok", step_outputs(result, reply)


def run_step(ack: Ack, context: BoltContext, client: WebClient) -> BoltResponse | None:
    """Read the inputs, give Slack the step's outcome, then acknowledge; HTTP 503 (Slack delivers the event again)
    when Slack could not be told within the acknowledgement's time. Bolt's `complete` and `fail` call the same two
    methods with the step's own token; here each call gets only the time that is left."""
    started = time.perf_counter()
    deadline = deadline_of(context)
    inputs = dict(context.get("inputs") or {})
    recipient = Recipient.parse(_reader_tag(inputs, context, deadline))
    context["locale"] = str(recipient)
    try:
        outcome, detail = outcome_of(inputs, recipient)
    except Exception:  # a bug: logged in full, and the workflow told in a sentence, never the exception
        logger.exception("the workflow step failed")
        outcome, detail = "failed", plain(build_failure_reply(recipient).text)
    told = tell_slack(client, context.function_execution_id, detail, deadline)
    request_log.info("kind=workflow_step locale=%s outcome=%s duration_ms=%.1f", recipient,
                     outcome if told else "not_told", (time.perf_counter() - started) * 1000)
    if not told:
        return BoltResponse(status=503, body="")
    ack()
    return None


def _reader_tag(inputs: dict[str, Any], context: BoltContext, deadline: float) -> str:
    user = inputs.get(READER_INPUT)
    locales = services_of(context).locales
    if not isinstance(user, str) or not user:
        return str(locales.default)
    return locales.tag_for(context, user, wait=time_left(deadline))


def tell_slack(client: WebClient, execution: str | None, detail: dict[str, Any] | str, deadline: float) -> bool:
    """`functions.completeSuccess` with the outputs, or `functions.completeError` with the message, within the
    time left; True once Slack has the outcome (or had it from an earlier delivery of the same event)."""
    seconds = time_left(deadline)
    if execution is None or seconds <= 0:
        return False
    quick = WebClient(token=client.token, base_url=client.base_url, timeout=seconds,  # type: ignore[arg-type]
                      retry_handlers=[])
    try:
        if isinstance(detail, dict):
            quick.functions_completeSuccess(function_execution_id=execution, outputs=detail)
        else:
            quick.functions_completeError(function_execution_id=execution, error=detail)
    except SlackApiError as error:
        code, status = str(error.response.get("error") or "")[:64], error.response.status_code
        if code in DONE_ALREADY:
            return True
        if status == 200:  # refused, not an outage: a redelivery would be refused alike
            logger.warning("Slack refused the workflow step's outcome (%s)", code)
            return True
        logger.warning("the workflow step's outcome could not be given to Slack (HTTP %s): the event is left to "
                       "redelivery", status)
        return False
    except (SlackClientError, OSError) as error:
        logger.warning("the workflow step's outcome could not be given to Slack (%s): the event is left to "
                       "redelivery", type(error).__name__)
        return False
    return True


def register(app: App) -> None:
    app.function(THROUGHPUT_STEP, auto_acknowledge=False)(run_step)
