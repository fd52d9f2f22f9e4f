"""A reader's number format apart from their language: English words with German numbers, and the like.

Slack's locale is the language a user reads Slack in; many engineers read it in English and write `2.000,5`.
`with_number_format(words, numbers)` is a Babel `Locale` that *is* the language locale (its words, names and
translations) except for everything that reads or writes a number, which comes from the number-format locale.
The pure core takes it wherever it takes a locale; nothing else needs to know.

Its identifier carries both, as a locale modifier (`en_US@numbers=de_DE`), so that a button or a form can carry
it and `parse_reader_locale` rebuild it.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from functools import lru_cache
from typing import Any

from babel import Locale

from bot.numbers import NEIGHBOUR_LOCALES, REGION_MEMBERS, SLACK_LOCALES, number_style, resolve_locale, write_number

__all__ = ["NUMBER_FORMATS", "example_number", "offered_locales", "parse_reader_locale", "with_number_format",
           "written_example"]

MODIFIER = "numbers="
# Slack's own locales (`bot.numbers.SLACK_LOCALES`) are each a number format a user may choose, beside these.
# Other formats engineers commonly write numbers in, which Slack has no language for.
MORE_FORMATS = ("de-CH", "fr-CH", "de-AT", "fr-CA", "nl-NL", "pl-PL", "ru-RU", "sv-SE", "hi-IN")
NUMBER_FORMATS = SLACK_LOCALES + MORE_FORMATS
EXAMPLE = Decimal("1234567.89")


class _NumberFormatLocale(Locale):
    """The language locale `words`, reading and writing numbers the way `numbers` does."""

    def __init__(self, words: Locale, numbers: Locale) -> None:
        super().__init__(words.language, words.territory, words.script, words.variant,
                         modifier=MODIFIER + str(numbers))
        self.numbers = numbers

    # everything Babel reads to parse or format a number
    number_symbols = property(lambda self: self.numbers.number_symbols)
    other_numbering_systems = property(lambda self: self.numbers.other_numbering_systems)
    default_numbering_system = property(lambda self: self.numbers.default_numbering_system)
    decimal_formats = property(lambda self: self.numbers.decimal_formats)
    percent_formats = property(lambda self: self.numbers.percent_formats)
    scientific_formats = property(lambda self: self.numbers.scientific_formats)
    compact_decimal_formats = property(lambda self: self.numbers.compact_decimal_formats)

    def __reduce__(self) -> tuple[Any, ...]:
        return with_number_format, (language_locale(self), self.numbers)


@lru_cache(maxsize=512)
def with_number_format(words: Locale, numbers: Locale) -> Locale:
    """`words`' language with `numbers`' number format (just `words` when that is its own format already)."""
    words = language_locale(words)
    if str(words) == str(numbers):
        return words
    return _NumberFormatLocale(words, numbers)


def language_locale(locale: Locale) -> Locale:
    """The plain locale of `locale`'s language, without a number format of its own."""
    return Locale.parse(str(locale).partition("@")[0]) if isinstance(locale, _NumberFormatLocale) else locale


def parse_reader_locale(tag: str) -> Locale:
    """The locale an identifier written by `str(locale)` stands for, number format included; raises
    UserInputError (as `resolve_locale` does) for a tag that names no locale."""
    words, _, modifier = tag.partition("@")
    if modifier.startswith(MODIFIER):
        return with_number_format(resolve_locale(words), resolve_locale(modifier.removeprefix(MODIFIER)))
    return resolve_locale(tag)  # a plain tag, or an unknown reader's or a channel's (`bot.numbers`)


def example_number(tag: str) -> str:
    """1234567.89 as the format `tag` writes it, for a menu of formats: `1.234.567,89`."""
    return written_example(resolve_locale(tag))


def written_example(locale: Locale) -> str:
    """1234567.89 as `locale` writes it (its chosen number format, if it has one)."""
    return write_number(EXAMPLE, number_style(locale), 2)


def offered_locales() -> Iterator[str]:
    """The CLDR locale of every Slack locale, number format, neighbour and region member dpscale offers: the keys
    of bot/cldr_numbers.py's table."""
    for tag in (*SLACK_LOCALES, *NUMBER_FORMATS, *NEIGHBOUR_LOCALES):
        yield str(resolve_locale(tag))
    for region, members in REGION_MEMBERS.items():
        yield region
        yield from members
