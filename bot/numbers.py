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
from functools import lru_cache

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


@lru_cache(maxsize=256)
def _symbols(locale: Locale) -> tuple[str, str]:
    return get_decimal_symbol(locale), get_group_symbol(locale)


def uses_space_grouping(locale: Locale) -> bool:
    return _symbols(locale)[1] in SPACES


def read_number(token: str, locale: Locale) -> Reading:
    """Read one number token (digits, separators, an optional k/M/G suffix) in `locale`."""
    body, multiplier = _split_suffix(token)
    if body.isascii() and body.isdigit():  # no separator: every convention reads it alike
        return Reading(token, Decimal(body) * multiplier)
    if not _NUMBER_SHAPE.fullmatch(body):
        raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)
    own = _parse_in(body, locale)
    others = {value for other in _other_readers(body, locale) if (value := _parse_in(body, other)) is not None}
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
            suggestions=tuple(format_number(v * multiplier, locale) for v in sorted(others)),
        )
    raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)


def _split_suffix(token: str) -> tuple[str, Decimal]:
    if len(token) > 1 and token[-1] in SUFFIXES and token[-2].isdigit():
        return token[:-1], SUFFIXES[token[-1]]
    if token[-1:].isalpha() and any(c.isdigit() for c in token):
        raise UserInputError(ErrorCode.UNKNOWN_SUFFIX, token=token)
    return token, Decimal(1)


@lru_cache(maxsize=8)
def _convention(name: str) -> Locale:
    return Locale.parse(name)


def _other_readers(body: str, locale: Locale) -> list[Locale]:
    """The other conventions that could read `body` differently from `locale` and from each other.

    One that uses a symbol foreign to `body`'s separators cannot read it; two that share a decimal mark and
    whose group marks `body` does not contain would read it alike, so only the first is asked.
    """
    separators = {c for c in body if not c.isdigit() and c not in "+-"}
    readers: list[Locale] = []
    seen = {_reading_key(body, locale)}
    for name in _ALTERNATIVE_CONVENTIONS:
        other = _convention(name)
        decimal_symbol, group_symbol = _symbols(other)
        if not separators <= {decimal_symbol, group_symbol, *_group_variants(group_symbol)}:
            continue
        key = _reading_key(body, other)
        if key not in seen:
            seen.add(key)
            readers.append(other)
    return readers


def _reading_key(body: str, locale: Locale) -> tuple[str, str | None]:
    decimal_symbol, group_symbol = _symbols(locale)
    groups = {group_symbol, *_group_variants(group_symbol)}
    return decimal_symbol, group_symbol if any(c in groups for c in body) else None


def _group_variants(group_symbol: str) -> str:
    if group_symbol in SPACES:
        return SPACES
    if group_symbol in APOSTROPHES:
        return APOSTROPHES
    return ""


def _parse_in(body: str, locale: Locale) -> Decimal | None:
    """Babel's strict reading of `body` in `locale`, with the locale's own group symbol normalised; None if invalid."""
    decimal_symbol, group_symbol = _symbols(locale)
    text = body
    if group_symbol in SPACES:
        text = re.sub(f"[{SPACES}]", group_symbol, text)
    elif group_symbol in APOSTROPHES:
        text = re.sub(f"[{APOSTROPHES}]", group_symbol, text)
    if any(c in SPACES or c in APOSTROPHES for c in text.replace(group_symbol, "")):
        return None
    try:
        value = parse_decimal(text, locale=locale, strict=True)
    except (NumberFormatError, ValueError, ArithmeticError):
        return None
    return value if value.is_finite() else None


@dataclass(frozen=True)
class NumberStyle:
    """How a locale writes numbers, read once from Babel's CLDR data: symbols, grouping sizes, percent affixes."""

    decimal: str
    group: str
    grouping: tuple[int, int]
    percent_prefix: str
    percent_suffix: str


@lru_cache(maxsize=256)
def number_style(locale: Locale) -> NumberStyle:
    decimal_pattern = locale.decimal_formats[None]
    percent_pattern = locale.percent_formats[None]
    decimal_symbol, group_symbol = _symbols(locale)
    return NumberStyle(
        decimal=decimal_symbol,
        group=group_symbol,
        grouping=decimal_pattern.grouping,
        percent_prefix=percent_pattern.prefix[0],
        percent_suffix=percent_pattern.suffix[0],
    )


def format_number(value: Decimal, locale: Locale, *, max_fraction_digits: int = 2, grouping: bool = True) -> str:
    """`value` written in `locale`, with at most `max_fraction_digits` decimals (trailing zeros dropped).

    The same digits, symbols and grouping as Babel's `format_decimal` (the tests hold it to that for every
    supported locale), applied from the locale's CLDR data read once rather than looked up for every number:
    a reply writes some twenty numbers, and this keeps them from costing more than the rest of the reply.
    """
    style = number_style(locale)
    rounded = value.quantize(_QUANTA[max_fraction_digits])
    integer, _, fraction = f"{abs(rounded):f}".partition(".")
    fraction = fraction.rstrip("0")
    if grouping:
        integer = _group_digits(integer, style)
    sign = "-" if value.is_signed() else ""  # as Babel writes it, -0 included
    return sign + integer + (style.decimal + fraction if fraction else "")


def format_percent(fraction: Decimal, locale: Locale, *, max_fraction_digits: int = 2) -> str:
    """`fraction` (0.9) as a percentage (90 %) in `locale`'s own percent pattern."""
    style = number_style(locale)
    number = format_number(fraction.scaleb(2), locale, max_fraction_digits=max_fraction_digits)
    return style.percent_prefix + number + style.percent_suffix


_QUANTA = {digits: Decimal(1).scaleb(-digits) for digits in range(0, 13)}


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
