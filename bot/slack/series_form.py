"""The Slack-only surfaces of a measurement series: its form (one device's throughput, and the measurements one per
line), the Explanations button under a private series result, and the explanations it shows.

Pure builders, like those of `bot.slack.views`; the listeners are in `bot.slack.series`.
"""

from __future__ import annotations

from decimal import Decimal
from operator import methodcaller
from typing import Any

from bot.errors import UserInputError
from bot.reader.recipient import Recipient
from bot.reader.series_syntax import SeriesCommand
from bot.replies import Reply, ReplyKind, describe_error, explanation_blocks
from bot.replies.blocks import Block, context, section
from bot.replies.series import SERIES_TABLE_BLOCK
from bot.replies.wording import wording_for
from bot.slack.ids import EXPLAIN_ACTION, FORM_ACTION_ID, SERIES_BLOCK_IDS, SERIES_FORM_CALLBACK
from bot.slack.modals import form_modal, form_rule, two_formats
from bot.slack.state import FIELD_LIMIT, SERIES_ROWS_LIMIT, FormMetadata, submitted_values

__all__ = [
    "SeriesValues",
    "explanations_reply",
    "is_series_reply",
    "series_form_errors",
    "series_form_view",
    "series_initial_values",
    "submitted_series",
    "with_explain_button",
]

FORM_ERROR_LIMIT = 2000
SeriesValues = tuple[str | None, str | None]  # (one device's throughput, the measurements, one per line)


def is_series_reply(reply: Reply) -> bool:
    """Whether `reply` is a series' result (its table is there), which gets the Explanations button."""
    return reply.kind is ReplyKind.RESULT and SERIES_TABLE_BLOCK in map(_BLOCK_ID, reply.blocks)


_BLOCK_ID = methodcaller("get", "block_id")


def with_explain_button(actions: Block, recipient: Recipient) -> Block:
    """A result's buttons with Explanations beside them: the FAQ, one click away instead of under the table."""
    button = {"type": "button", "action_id": EXPLAIN_ACTION, "value": str(recipient),
              "text": {"type": "plain_text", "text": wording_for(recipient).gettext("Explanations")}}
    return {**actions, "elements": [*actions["elements"], button]}


def explanations_reply(recipient: Recipient) -> Reply:
    """What Explanations shows: what scaling efficiency is, why it is not linear, how to improve it, the limits."""
    blocks = explanation_blocks(recipient)[1:]  # no divider above: nothing is above it
    return Reply(text=wording_for(recipient).gettext("Explanations"), blocks=blocks, kind=ReplyKind.HELP,
                 locale=str(recipient))


def series_form_view(recipient: Recipient, metadata: FormMetadata,
                     initial: SeriesValues | None = None) -> dict[str, Any]:
    """A modal with one device's throughput and the measurements, one per line (`8 = 15 800`)."""
    words = wording_for(recipient)
    _ = words.gettext
    number = words.plain if two_formats(metadata) else words.number
    throughput, rows = initial or (None, None)
    example_rows = words.examples([f"{words.number(Decimal(d), 0)} = {number(Decimal(a))}"
                                   for d, a in ((8, 15800), (16, 31000), (64, 115200))])
    blocks: list[Block] = [
        section(_("Give the throughput of one device and the cluster throughput you measured at each size; dpscale "
                  "shows the efficiency at every size and how it changes as the cluster grows.")),
        _input("throughput", _("Throughput of one device (samples/s)"),
               _("e.g. {example}").format(example=number(Decimal(2000))), throughput, FIELD_LIMIT, False),
        {**_input("rows", _("Measurements (devices = cluster throughput)"),
                  _("e.g. {example}").format(example=example_rows), rows, SERIES_ROWS_LIMIT, True),
         "hint": {"type": "plain_text", "text": _("One measurement per line, from 2 to 12 cluster sizes.")}},
        context([form_rule(words, metadata)]),
    ]
    return form_modal(SERIES_FORM_CALLBACK, metadata, _("Measurement series"), blocks, words)


def _input(field: str, label: str, placeholder: str, initial: str | None, limit: int, multiline: bool) -> Block:
    element: dict[str, Any] = {
        "type": "plain_text_input",
        "action_id": FORM_ACTION_ID,
        "max_length": limit,
        "multiline": multiline,
        "placeholder": {"type": "plain_text", "text": placeholder[:150]},
    }
    if initial:
        element["initial_value"] = initial[:limit]
    return {"type": "input", "block_id": SERIES_BLOCK_IDS[field], "label": {"type": "plain_text", "text": label},
            "element": element}


def submitted_series(view: dict[str, Any]) -> SeriesValues:
    """The series form's two fields as typed; BadStateError where its state is not a form's."""
    values = submitted_values(view)
    return (values.get(SERIES_BLOCK_IDS["throughput"], {}).get(FORM_ACTION_ID),
            values.get(SERIES_BLOCK_IDS["rows"], {}).get(FORM_ACTION_ID))


def series_form_errors(errors: dict[str, UserInputError], recipient: Recipient) -> dict[str, str]:
    """`response_action: errors`: a localized message under each field that is wrong (the row named in it)."""
    return {SERIES_BLOCK_IDS[field]: describe_error(error, recipient)[:FORM_ERROR_LIMIT]
            for field, error in errors.items()}


def series_initial_values(command: SeriesCommand) -> SeriesValues:
    """A series result's values to fill the form again: every number as its writer wrote it, one row per size."""
    rows = "\n".join(f"{m.devices.token} = {m.actual.token}" for m in command.measurements)
    throughput = command.throughput.token
    return (throughput if len(throughput) <= FIELD_LIMIT else None, rows if len(rows) <= SERIES_ROWS_LIMIT else None)
