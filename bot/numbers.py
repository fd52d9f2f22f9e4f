"""Reading and writing numbers the way a given locale does, through Babel's CLDR data.

Every function takes the locale explicitly: Babel falls back to the process locale when none is given, and a
bot that serves many users must never let it.

Reading is strict. A token is read in the user's own convention first; two other common conventions (a period
as decimal mark with comma grouping, and a comma as decimal mark with period grouping) are tried beside it, so
that a German `0.9` is read as nine tenths with a note rather than as nine, and an English `2.000` is read as two
with a note saying how to write two thousand. Nothing is ever read silently in a way the user may not mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import cached_property, lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import NumberFormatError, get_decimal_symbol, get_group_symbol, parse_decimal

from bot.errors import ErrorCode, UserInputError

# Slack locale tags that are not CLDR locales, mapped to the CLDR locale that writes numbers the same way.
SLACK_LOCALE_ALIASES = {"es-la": "es_419"}

SPACES = " \u00a0\u202f\u2009\u2007"
APOSTROPHES = "'\u2019"
SUFFIXES = {"k": Decimal(10) ** 3, "K": Decimal(10) ** 3, "M": Decimal(10) ** 6, "G": Decimal(10) ** 9}
_NUMBER_SHAPE = re.compile(r"[+-]?[\d.,'\u2019 \u00a0\u202f\u2009\u2007]*\d[\d.,'\u2019 \u00a0\u202f\u2009\u2007]*")
_ALTERNATIVE_CONVENTIONS = ("en_US", "de_DE", "de_CH")


@lru_cache(maxsize=256)
def resolve_locale(tag: str) -> Locale:
    """The CLDR locale for a Slack locale tag such as `de-DE`, `es-LA` or `pt_BR`.

    Raises UserInputError(UNKNOWN_LOCALE) for a tag Babel does not know.
    """
    cleaned = tag.strip().replace("_", "-")
    alias = SLACK_LOCALE_ALIASES.get(cleaned.lower(), cleaned)
    try:
        return Locale.parse(alias.replace("_", "-"), sep="-")
    except (UnknownLocaleError, ValueError, TypeError):
        raise UserInputError(ErrorCode.UNKNOWN_LOCALE, token=tag) from None


class ReadingKind(StrEnum):
    OTHER_CONVENTION = "other_convention"  # not valid in the user's format; read in the only other that fits
    AMBIGUOUS = "ambiguous"  # valid in the user's format and, with another value, in another


@dataclass(frozen=True)
class Reading:
    """A number as read from the user's token, and how it was read when that needs saying."""

    token: str
    value: Decimal
    kind: ReadingKind | None = None
    alternative: Decimal | None = None


@dataclass(frozen=True)
class NumberStyle:
    """How a locale writes numbers, read once from Babel's CLDR data: symbols, grouping sizes, percent affixes."""

    locale: Locale
    decimal: str
    group: str
    grouping: tuple[int, int]
    percent_prefix: str
    percent_suffix: str

    @cached_property
    def translation(self) -> dict[int, str]:
        """From Python's `,` and `.` to this style's group and decimal symbols."""
        return {ord(","): self.group, ord("."): self.decimal}

    @cached_property
    def group_marks(self) -> str:
        """The group symbol and the characters a user types for it (any space for a space, either apostrophe)."""
        if self.group in SPACES:
            return SPACES
        if self.group in APOSTROPHES:
            return APOSTROPHES
        return self.group


@lru_cache(maxsize=256)
def number_style(locale: Locale) -> NumberStyle:
    decimal_pattern = locale.decimal_formats[None]
    percent_pattern = locale.percent_formats[None]
    return NumberStyle(
        locale=locale,
        decimal=get_decimal_symbol(locale),
        group=get_group_symbol(locale),
        grouping=decimal_pattern.grouping,
        percent_prefix=percent_pattern.prefix[0],
        percent_suffix=percent_pattern.suffix[0],
    )


def uses_space_grouping(locale: Locale) -> bool:
    return number_style(locale).group in SPACES


def read_number(token: str, locale: Locale) -> Reading:
    """Read one number token (digits, separators, an optional k/M/G suffix) in `locale`."""
    body, multiplier = _split_suffix(token)
    if body.isascii() and body.isdigit():  # no separator: every convention reads it alike
        return Reading(token, Decimal(body) * multiplier)
    if not _NUMBER_SHAPE.fullmatch(body):
        raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)
    style = number_style(locale)
    own = _parse_in(body, style)
    others = {value for other in _other_readers(body, style) if (value := _parse_in(body, other)) is not None}
    if own is not None:
        differing = sorted(others - {own})
        if differing:
            return Reading(token, own * multiplier, ReadingKind.AMBIGUOUS, differing[0] * multiplier)
        return Reading(token, own * multiplier)
    if len(others) == 1:
        return Reading(token, others.pop() * multiplier, ReadingKind.OTHER_CONVENTION)
    if len(others) > 1:
        raise UserInputError(
            ErrorCode.AMBIGUOUS_NUMBER,
            token=token,
            suggestions=tuple(write_number(v * multiplier, style) for v in sorted(others)),
        )
    raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)


def _split_suffix(token: str) -> tuple[str, Decimal]:
    if len(token) > 1 and token[-1] in SUFFIXES and token[-2].isdigit():
        return token[:-1], SUFFIXES[token[-1]]
    if token[-1:].isalpha() and any(c.isdigit() for c in token):
        raise UserInputError(ErrorCode.UNKNOWN_SUFFIX, token=token)
    return token, Decimal(1)


@lru_cache(maxsize=1)
def _conventions() -> tuple[NumberStyle, ...]:
    return tuple(number_style(Locale.parse(name)) for name in _ALTERNATIVE_CONVENTIONS)


def _other_readers(body: str, style: NumberStyle) -> list[NumberStyle]:
    """The other conventions that could read `body` differently from `style` and from each other.

    One that uses a symbol foreign to `body`'s separators cannot read it; two that share a decimal mark and
    whose group marks `body` does not contain would read it alike, so only the first is asked.
    """
    separators = {c for c in body if not c.isdigit() and c not in "+-"}
    readers: list[NumberStyle] = []
    seen = {_reading_key(body, style)}
    for other in _conventions():
        if not separators <= {other.decimal, *other.group_marks}:
            continue
        key = _reading_key(body, other)
        if key not in seen:
            seen.add(key)
            readers.append(other)
    return readers


def _reading_key(body: str, style: NumberStyle) -> tuple[str, str | None]:
    marks = style.group_marks
    return style.decimal, style.group if any(c in marks for c in body) else None


def _parse_in(body: str, style: NumberStyle) -> Decimal | None:
    """The strict reading of `body` in a style's locale, its group marks normalised; None if invalid.

    A number written the canonical way (`2.000`, `1.234.567,89`, `0,9`) is read directly from the locale's
    symbols; anything else is left to Babel's strict parser. The tests hold the direct reading to Babel's.
    """
    marks = style.group_marks
    text = "".join(style.group if c in marks else c for c in body) if len(marks) > 1 else body
    if any(c in SPACES or c in APOSTROPHES for c in text.replace(style.group, "")):
        return None
    if _canonical(style).fullmatch(text):
        return Decimal(text.replace(style.group, "").replace(style.decimal, "."))
    return babel_parse(text, style)


def babel_parse(text: str, style: NumberStyle) -> Decimal | None:
    """Babel's strict parser, for the shapes the canonical reading does not cover."""
    if style.group in APOSTROPHES and style.group in text:
        # Babel's strict check re-formats the number and, reading apostrophes as pattern quotes, drops them
        # from 1'000'000: check the grouping here and let Babel read the digits without group marks.
        if not _apostrophe_grouped(style).fullmatch(text):
            return None
        text = text.replace(style.group, "")
    try:
        value = parse_decimal(text, locale=style.locale, strict=True)
    except (NumberFormatError, ValueError, ArithmeticError):
        return None
    return value if value.is_finite() else None


@lru_cache(maxsize=64)
def _canonical(style: NumberStyle) -> re.Pattern[str]:
    """Digits grouped by threes from a non-zero lead, or ungrouped, with an optional decimal part."""
    group, decimal = re.escape(style.group), re.escape(style.decimal)
    if style.grouping != (3, 3):
        return re.compile(rf"\d+{decimal}\d+")
    return re.compile(rf"(?:[1-9]\d{{0,2}}(?:{group}\d{{3}})+|\d+)(?:{decimal}\d+)?")


@lru_cache(maxsize=8)
def _apostrophe_grouped(style: NumberStyle) -> re.Pattern[str]:
    group, decimal = re.escape(style.group), re.escape(style.decimal)
    return re.compile(rf"[+-]?\d{{1,3}}(?:{group}\d{{3}})+(?:{decimal}\d*)?")


def format_number(value: Decimal, locale: Locale, *, max_fraction_digits: int = 2, grouping: bool = True) -> str:
    """`value` written in `locale`, with at most `max_fraction_digits` decimals (trailing zeros dropped).

    The same digits, symbols and grouping as Babel's `format_decimal` (the tests hold it to that for every
    supported locale), applied from the locale's CLDR data read once rather than looked up for every number:
    a reply writes some twenty numbers, and this keeps them from costing more than the rest of the reply.
    """
    return write_number(value, number_style(locale), max_fraction_digits, grouping)


def write_number(value: Decimal, style: NumberStyle, max_fraction_digits: int = 2, grouping: bool = True) -> str:
    """`format_number` for a style already looked up (a reply writes many numbers in one style)."""
    if grouping and style.grouping == (3, 3):
        # Python groups by threes with `,` and `.`: map those onto the locale's symbols in one pass
        text = format(value, f",.{max_fraction_digits}f").translate(style.translation)
    else:
        text = format(value, f".{max_fraction_digits}f").replace(".", style.decimal)
        if grouping:
            integer, decimal, fraction = text.partition(style.decimal)
            sign = "-" if integer.startswith("-") else ""
            text = sign + _group_digits(integer.lstrip("-"), style) + decimal + fraction
    if max_fraction_digits:
        text = text.rstrip("0").removesuffix(style.decimal)
    return text


def format_percent(fraction: Decimal, locale: Locale, *, max_fraction_digits: int = 2) -> str:
    """`fraction` (0.9) as a percentage (90 %) in `locale`'s own percent pattern."""
    return write_percent(fraction, number_style(locale), max_fraction_digits)


def write_percent(fraction: Decimal, style: NumberStyle, max_fraction_digits: int = 2) -> str:
    return style.percent_prefix + write_number(fraction.scaleb(2), style, max_fraction_digits) + style.percent_suffix


def _group_digits(integer: str, style: NumberStyle) -> str:
    first, rest = style.grouping
    if len(integer) <= first:
        return integer
    head, tail = integer[:-first], integer[-first:]
    groups = [tail]
    while len(head) > rest:
        groups.append(head[-rest:])
        head = head[:-rest]
    groups.append(head)
    return style.group.join(reversed(groups))
