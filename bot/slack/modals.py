"""What dpscale's two forms share (the calculation's, bot/slack/views.py; the series', bot/slack/series_form.py):
the modal around their blocks, its titles held to Slack's length, and the line saying how numbers are read."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from bot.replies.blocks import Block, code, escape
from bot.replies.guide import two_formats_rule, unknown_format_rule
from bot.replies.wording import Wording
from bot.slack.state import FormMetadata

TITLE_LIMIT = 24  # Slack: a modal's title, submit and close texts


def form_modal(callback_id: str, metadata: FormMetadata, title: str, blocks: list[Block],
               words: Wording) -> dict[str, Any]:
    """A form: `blocks` under `title`, submitted to `callback_id` with `metadata`, Calculate and Cancel below."""
    _ = words.gettext
    return {
        "type": "modal",
        "callback_id": callback_id,
        "private_metadata": metadata.encode(),
        "title": plain_title(title),
        "submit": plain_title(_("Calculate")),
        "close": plain_title(_("Cancel")),
        "blocks": blocks,
    }


def plain_title(text: str) -> dict[str, str]:
    """A modal's title, submit or close text; ValueError past Slack's `TITLE_LIMIT` (a catalog's slip, caught by
    the tests, never a user's)."""
    if len(text) > TITLE_LIMIT:
        raise ValueError(f"modal text {text!r} is longer than Slack's {TITLE_LIMIT} characters")
    return {"type": "plain_text", "text": text}


def form_rule(words: Wording, metadata: FormMetadata) -> str:
    """How the form reads numbers: in the unknown format, in two (after `lang=`: its format and the user's own), or
    in the user's."""
    _ = words.gettext
    own = metadata.recipient.user
    if words.recipient.is_unknown or own.is_unknown:
        return unknown_format_rule(words)
    if two_formats(metadata):
        return two_formats_rule(words, own)
    example = words.alternatives([code(words.number(value, 2)) for value in (Decimal(2000), Decimal("0.9"))])
    return _("Numbers are read in your {name} format, for example {example}.").format(
        name=escape(words.locale_name), example=example)


def two_formats(metadata: FormMetadata) -> bool:
    """Whether the form reads numbers in two formats that read them differently (after `lang=`)."""
    return metadata.recipient.second_format is not None
