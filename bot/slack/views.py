"""The Slack-only surfaces: a result's buttons, the shared copy, the form and App Home, in the reader's locale.

Pure builders like those in `bot.replies`; they live on the Slack side because they carry interaction ids
(`bot.slack.ids`) that only the listeners here understand.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from bot.errors import UserInputError
from bot.model.calculator import Quantity
from bot.reader.recipient import Recipient
from bot.replies import Reply, ReplyKind, describe_error, explanation_blocks
from bot.replies.blocks import Block, context, section, warning
from bot.replies.guide import help_blocks
from bot.replies.wording import EXAMPLE, Wording, wording_for
from bot.slack.ids import EDIT_ACTION, FORM_ACTION_ID, FORM_BLOCK_IDS, FORM_CALLBACK, SHARE_ACTION
from bot.slack.modals import form_modal, form_rule, plain_title, two_formats
from bot.slack.series_form import is_series_reply, with_explain_button
from bot.slack.state import FIELD_LIMIT, FormMetadata, ResultState, submitted_values

FORM_ERROR_LIMIT = 2000


def with_buttons(reply: Reply, state: ResultState) -> Reply:
    """A private result gets Share and Edit; errors and help get none, nor does state too large to carry."""
    if reply.kind is not ReplyKind.RESULT:
        return reply
    try:
        value = state.encode()
    except ValueError:
        return reply
    return with_state_value(reply, state.recipient, value)


def with_text_buttons(reply: Reply, recipient: Recipient, text: str) -> Reply:
    """`with_buttons(reply, ResultState.of_text(locale, text))`, the same buttons and value written directly."""
    if reply.kind is not ReplyKind.RESULT:
        return reply
    try:
        value = ResultState.text_value(recipient, text)
    except ValueError:
        return reply
    return with_state_value(reply, recipient, value)


def with_state_value(reply: Reply, recipient: Recipient, value: str) -> Reply:
    """`reply` with the buttons carrying `value`, in the body's language (a `lang=` word's), else `recipient`'s."""
    recipient = written_in(reply, recipient)
    actions = result_actions(recipient=recipient, value=value)
    if is_series_reply(reply):  # a series' FAQ is a click away, not under its table (`bot.slack.series_form`)
        actions = with_explain_button(actions, recipient)
    return reply.with_blocks([*reply.blocks, actions])


def with_unknown_reader_note(reply: Reply, recipient: Recipient) -> Reply:
    """A private result for `recipient`, a reader whose locale Slack did not tell in time, with a line under its
    headline saying why it is in this language; unchanged for any other reader, any other reply, or one whose
    language a `lang=` word chose. (Not in a copy for the channel: the note speaks to one reader.)"""
    if reply.kind is not ReplyKind.RESULT or not recipient.is_unknown or reply.locale not in (None, str(recipient)):
        return reply
    note = context([wording_for(recipient).unknown_reader_note()])
    return reply.with_blocks([reply.blocks[0], note, *reply.blocks[1:]])


def written_in(reply: Reply, default: Recipient) -> Recipient:
    """The locale `reply`'s body is written in (a `lang=` word's), for what goes with it; else `default`."""
    return Recipient.parse(reply.locale) if reply.locale else default


def result_actions(*, recipient: Recipient, value: str) -> Block:
    """The buttons under a private result: share it in the channel, or edit its numbers in a form."""
    _ = wording_for(recipient).gettext
    return {
        "type": "actions",
        "elements": [
            {"type": "button", "action_id": SHARE_ACTION, "value": value, "style": "primary",
             "text": {"type": "plain_text", "text": _("Share in channel")}},
            {"type": "button", "action_id": EDIT_ACTION, "value": value,
             "text": {"type": "plain_text", "text": _("Edit")}},
        ],
    }


def shared_reply(reply: Reply, *, user_id: str, recipient: Recipient) -> Reply:
    """The result as shown to the whole channel: no buttons, and who shared it."""
    note = wording_for(recipient).gettext("Shared by {user}").format(user=f"<@{user_id}>")
    blocks = [block for block in reply.blocks if block["type"] != "actions"] + [context([note])]
    return reply.with_blocks(blocks)


def direct_message_copy(reply: Reply, recipient: Recipient) -> Reply:
    """A result delivered by direct message: a note saying why it is there, and no Share, which would only share
    it into the DM itself; Edit works anywhere."""
    blocks = [direct_message_note(recipient)]
    for block in reply.blocks:
        if block["type"] == "actions":
            elements = [e for e in block["elements"] if e.get("action_id") != SHARE_ACTION]
            if not elements:
                continue
            block = {**block, "elements": elements}
        blocks.append(block)
    return reply.with_blocks(blocks)


def share_failed_reply(recipient: Recipient) -> Reply:
    return warning(wording_for(recipient).gettext(
        "This result could not be shared in the channel (the button may have expired). Run the command again to "
        "share a new copy."
    ))


def direct_message_note(recipient: Recipient) -> Block:
    return context([wording_for(recipient).gettext(
        ":information_source: I couldn't post in the conversation where you ran the command, so here's your "
        "result."
    )])


def form_labels(words: Wording) -> dict[Quantity, str]:
    """The form's label for each field, in the order the form shows them (a workflow step names its inputs so too)."""
    _ = words.gettext
    return {
        Quantity.DEVICES: _("Devices"),
        Quantity.THROUGHPUT: _("Per-device throughput (samples/s)"),
        Quantity.EFFICIENCY: _("Scaling efficiency"),
        Quantity.ACTUAL: _("Actual cluster throughput (samples/s)"),
    }


def form_view(
    recipient: Recipient, metadata: FormMetadata, initial: dict[Quantity, str] | None = None, notes: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A modal with one field per quantity: fill in any three and dpscale works out the fourth; `notes` (mrkdwn) under its
    first line say where the values filled in came from."""
    words = wording_for(recipient)
    _ = words.gettext
    d, v, e = EXAMPLE
    # read in two formats (after `lang=`), the examples are ungrouped: `2.000` would be asked about
    number = words.plain if two_formats(metadata) else words.number
    examples = {
        Quantity.DEVICES: number(d, 0),
        Quantity.THROUGHPUT: number(v, 2),
        Quantity.EFFICIENCY: _("{first} or {second}").format(first=words.percent(e), second=number(e, 2)),
        Quantity.ACTUAL: number(d * v * e, 2),
    }
    blocks: list[Block] = [section(_(
        "Fill in any three fields and dpscale works out the fourth. Leave *actual cluster throughput* empty to see "
        "what your cluster delivers."
    ))]
    blocks.extend(context([note[:FORM_ERROR_LIMIT]]) for note in notes)
    for quantity, label in form_labels(words).items():
        blocks.append(_form_input(quantity, label, _("e.g. {example}").format(example=examples[quantity]), initial))
    blocks.append(context([form_rule(words, metadata)]))
    return form_modal(FORM_CALLBACK, metadata, _("Data-parallel scaling"), blocks, words)


def _form_input(quantity: Quantity, label: str, placeholder: str, initial: dict[Quantity, str] | None) -> Block:
    element: dict[str, Any] = {
        "type": "plain_text_input",
        "action_id": FORM_ACTION_ID,
        "max_length": FIELD_LIMIT,
        "placeholder": {"type": "plain_text", "text": placeholder[:150]},
    }
    if initial and initial.get(quantity):
        element["initial_value"] = initial[quantity]
    return {
        "type": "input",
        "block_id": FORM_BLOCK_IDS[quantity],
        "optional": True,
        "label": {"type": "plain_text", "text": label},
        "element": element,
    }


def submitted_fields(view: dict[str, Any]) -> dict[Quantity, str | None]:
    """The text of each field of a submitted form (None where empty); BadStateError where its state is not a form's."""
    values = submitted_values(view)
    return {q: values.get(FORM_BLOCK_IDS[q], {}).get(FORM_ACTION_ID) for q in Quantity}


def form_errors(errors: dict[Quantity, UserInputError], recipient: Recipient) -> dict[str, str]:
    """`response_action: errors` for a form: a localized message under each field that is wrong (written for both
    formats after a `lang=` word, as `describe_error` is)."""
    return {FORM_BLOCK_IDS[q]: describe_error(e, recipient)[:FORM_ERROR_LIMIT] for q, e in errors.items()}


def form_initial_values(
    tokens: dict[Quantity, str], values: dict[Quantity, Decimal], recipient: Recipient
) -> dict[Quantity, str]:
    """A result's given values to pre-fill the form: as the user wrote them (never rounded), or, where that would
    not fit in a field, written in the user's format; a value that fits neither way is left for the user."""
    words = wording_for(recipient)
    initial = {}
    for quantity, value in values.items():
        written = words.percent(value, 8) if quantity is Quantity.EFFICIENCY else words.plain(value, 12)
        for candidate in (tokens.get(quantity) or "", written):
            if candidate.strip() and len(candidate) <= FIELD_LIMIT:
                initial[quantity] = candidate.strip()
                break
    return initial


def outdated_reply(recipient: Recipient) -> Reply:
    """The answer to a button or form this version no longer knows."""
    return warning(wording_for(recipient).gettext(
        "This button or form is from an older version of dpscale and no longer works. Run `/dpscale` again."
    ))


def outdated_view(recipient: Recipient) -> dict[str, Any]:
    """The view a submitted form from an older version is replaced with."""
    _ = wording_for(recipient).gettext
    return {
        "type": "modal",
        "title": plain_title(_("Data-parallel scaling")),
        "close": plain_title(_("Cancel")),
        "blocks": outdated_reply(recipient).blocks,
    }


def home_view(recipient: Recipient) -> dict[str, Any]:
    """The App Home tab: what dpscale computes, how to ask, and the explanations, in the viewer's locale."""
    _, blocks = help_blocks(recipient)
    intro = section(wording_for(recipient).gettext(
        "Type `/dpscale` with no numbers to open a form, or mention @dpscale in a channel and it answers in a thread."
    ))
    return {"type": "home", "blocks": [*blocks, intro, *explanation_blocks(recipient)]}
