"""A reader's number format apart from their language: English words with German numbers, and the like.

Slack's locale is the language a user reads Slack in; many engineers read it in English and write `2.000,5`.
The formats a user may choose are listed here; the choice travels as a `bot.reader.recipient.Recipient`'s `numbers`.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from bot.reader.numbers import (
    NEIGHBOUR_LOCALES,
    REGION_MEMBERS,
    SLACK_LOCALES,
    number_style,
    resolve_locale,
    write_number,
)
from bot.reader.recipient import Recipient

__all__ = ["NUMBER_FORMATS", "example_number", "offered_locales", "written_example"]

# Slack's own locales (`bot.reader.numbers.SLACK_LOCALES`) are each a number format a user may choose, beside these.
# Other formats engineers commonly write numbers in, which Slack has no language for.
MORE_FORMATS = ("de-CH", "fr-CH", "de-AT", "fr-CA", "nl-NL", "pl-PL", "ru-RU", "sv-SE", "hi-IN")
NUMBER_FORMATS = SLACK_LOCALES + MORE_FORMATS
EXAMPLE = Decimal("1234567.89")


def example_number(tag: str) -> str:
    """1234567.89 as the format `tag` writes it, for a menu of formats: `1.234.567,89`."""
    return write_number(EXAMPLE, number_style(resolve_locale(tag)), 2)


def written_example(recipient: Recipient) -> str:
    """1234567.89 as `recipient`'s numbers are written (its chosen number format, if it has one)."""
    return write_number(EXAMPLE, recipient.style, 2)


def offered_locales() -> Iterator[str]:
    """The CLDR locale of every Slack locale, number format, neighbour and region member dpscale offers: the keys
    of bot/reader/cldr_numbers.py's table."""
    for tag in (*SLACK_LOCALES, *NUMBER_FORMATS, *NEIGHBOUR_LOCALES):
        yield str(resolve_locale(tag))
    for region, members in REGION_MEMBERS.items():
        yield region
        yield from members
