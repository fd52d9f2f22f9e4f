"""Choosing one's own number format: the `format=` command word, the App Home menu, and their replies.

The word is read in every language's words (`bot.reader.languages`: `format=`, `zahlenformat=`, `formato=`, `형식=`,
`数値形式=`, `格式=`), with an ASCII or a full-width `=`.

Pure: the Slack layer reads and stores the choice; this module only reads words and builds Block Kit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from babel import Locale

from bot.errors import NUMBER_FORMAT, ErrorCode, UserInputError
from bot.i18n import catalog_name, translations_for
from bot.names import display_name
from bot.reader.formats import NUMBER_FORMATS, example_number
from bot.reader.languages import LANGUAGES
from bot.reader.numbers import resolve_locale
from bot.reader.recipient import Recipient, RecipientLike, as_recipient
from bot.replies.blocks import Reply, ReplyKind, code, context, escape, section
from bot.replies.wording import wording_for

__all__ = ["FOLLOW_SLACK", "FormatChoice", "SELECT_ACTION", "UnknownFormatError", "build_format_blocks",
           "build_format_saved_reply", "build_unknown_format_reply", "normalise_tag", "take_format_choice"]

# `format=de-DE` in every language's words (`formato=`, `형식=`, `格式=`), read whatever the reply's language
FORMAT_KEYS = tuple(dict.fromkeys(word for words in LANGUAGES.values() for word in words.number_format))
FOLLOW_SLACK = "slack"  # the menu's and the command's value for "same as my Slack language"
FOLLOW_SLACK_WORDS = (FOLLOW_SLACK, "default", "auto", "standard")
SELECT_ACTION = "dpscale_number_format"  # the same id as bot.slack.ids.NUMBER_FORMAT_ACTION (a test holds them)
SELECT_BLOCK = "dpscale_number_format_block"
_FORMAT_WORD = re.compile(rf"(?<!\S)(?:{'|'.join(FORMAT_KEYS)})[=＝](\S*)", re.IGNORECASE)  # `format=de-DE`


@dataclass(frozen=True)
class FormatChoice:
    """A `format=` word: `tag` is the chosen locale tag, or None to follow the Slack language again."""

    tag: str | None


def take_format_choice(text: str) -> tuple[FormatChoice | None, str]:
    """The `format=…` word in a command, if any, and the rest of the text as it was typed (a no-break space that
    groups digits still groups them). UnknownFormatError names an unknown format; UserInputError says that the word has
    no value, or is given twice (as for `lang=`)."""
    found = list(_FORMAT_WORD.finditer(text)) if "=" in text or "＝" in text else []  # most commands name nothing
    if not found:
        return None, text
    first = found[0]
    if not first.group(1):
        raise UserInputError(ErrorCode.MISSING_VALUE, token=first.group(0))
    if len(found) > 1:
        raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=found[1].group(0), quantity=NUMBER_FORMAT)
    rest = (text[: first.start()].rstrip() + " " + text[first.end() :].lstrip()).strip()
    return FormatChoice(normalise_tag(first.group(1))), rest


def normalise_tag(value: str) -> str | None:
    """`de-de`, `de_DE` → `de-DE`; `slack` (and its synonyms) → None; raises UserInputError otherwise."""
    if value.strip().lower() in FOLLOW_SLACK_WORDS:
        return None
    wanted = value.strip().replace("_", "-").lower()
    for tag in NUMBER_FORMATS:
        if tag.lower() == wanted:
            return tag
    try:
        locale = resolve_locale(value)
    except UserInputError:
        raise UnknownFormatError(value) from None
    if "@" in value or locale.language == "root":  # no one's format, nor the unknown reader's or a channel's
        raise UnknownFormatError(value)  # (`en@unknown`), which are dpscale's own
    # another name of an offered format (`es-419` for es-LA, `zh-Hant-TW` for zh-TW) is stored as the menu names it
    return next((tag for tag in NUMBER_FORMATS if resolve_locale(tag) == locale), str(locale).replace("_", "-"))


class UnknownFormatError(ValueError):
    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def build_format_saved_reply(tag: str | None, recipient: RecipientLike) -> Reply:
    """Confirms a choice made with `format=`, in the reply's language, with an example in the chosen format."""
    recipient = as_recipient(recipient)
    _ = translations_for(recipient.words).gettext
    if tag is None:
        text = _("Done: your numbers follow your Slack language again.")
    else:
        text = _("Done: your numbers are now read and written in the {name} format, as in {example}. "
                 "`format=slack` switches back to your Slack language.").format(
            example=code(example_number(tag)), name=escape(_format_name(tag, recipient)))
    return Reply(text=text, blocks=[section(":white_check_mark: " + text)], kind=ReplyKind.HELP)


def build_unknown_format_reply(token: str, recipient: RecipientLike) -> Reply:
    recipient = as_recipient(recipient)
    words = wording_for(recipient)
    text = words.gettext("I don't recognize the number format {token}. Use a language and region code such as "
                         "{examples}. To follow your Slack language, use {slack}.").format(
        token=code(token), slack=code("format=slack"),
        examples=words.alternatives([code(f"format={tag}") for tag in ("de-DE", "en-US", "fr-FR")]))
    return Reply(text=text, blocks=[section(":warning: " + text)], kind=ReplyKind.ERROR)


def build_format_blocks(current: str | None, recipient: RecipientLike) -> list[dict[str, Any]]:
    """App Home's "Your number format" menu: every offered format with an example, "same as Slack", and the
    user's current choice, which `format=` may have made from outside the offered ones (`format=tr-TR`)."""
    recipient = as_recipient(recipient)
    _ = translations_for(recipient.words).gettext
    follow = _option(FOLLOW_SLACK, _("Same as my Slack language"))
    offered = [_option(tag, f"{example_number(tag)} · {_format_name(tag, recipient)}") for tag in NUMBER_FORMATS]
    try:
        chosen = follow if current is None else _current_option(current, offered, recipient)
    except UserInputError:  # a stored tag that no longer names a locale (Babel's data changed): as if none
        chosen = follow
    options = [follow, *([chosen] if chosen is not follow and chosen not in offered else []), *offered]
    select = {"type": "static_select", "action_id": SELECT_ACTION, "options": options, "initial_option": chosen}
    explanation = _("How you write numbers, whatever language you read Slack in. Replies stay in your Slack "
                    "language. You can also set the format with `format=de-DE` in a command, and clear it with "
                    "`format=slack`.")
    return [
        {"type": "section", "block_id": SELECT_BLOCK,
         "text": {"type": "mrkdwn", "text": "*" + _("Your number format") + "*"}, "accessory": select},
        context([explanation]),
    ]


def _current_option(current: str, offered: list[dict[str, Any]], recipient: Recipient) -> dict[str, Any]:
    """The offered option for the format `current` names (by any of its names: `es-419` is es-LA), else its own."""
    wanted = resolve_locale(current)
    found = next((option for option in offered if resolve_locale(option["value"]) == wanted), None)
    return found or _option(current, f"{example_number(current)} · {_format_name(current, recipient)}")


def _format_name(tag: str, recipient: Recipient) -> str:
    named = resolve_locale(tag)
    return display_name(named, Locale.parse(catalog_name(recipient.words)))


def _option(value: str, text: str) -> dict[str, Any]:
    return {"text": {"type": "plain_text", "text": text[:75], "emoji": True}, "value": value}
