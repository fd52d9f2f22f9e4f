"""Reading and writing numbers the way a given locale does, through Babel's CLDR data.

Every function takes the locale explicitly: Babel falls back to the process locale when none is given, and a
bot that serves many users must never let it.

Reading is strict and compares whole number systems (decimal and group symbols, primary and secondary grouping).
A token is read in the reader's own format(s) — its *natives* — and beside them in every Slack locale's format and
in some common neighbours'. The outcome is one of:

- read silently: the natives read one value and either nobody reads it differently, or it is written exactly as
  dpscale itself writes that value for the reader (so a reply's figures pasted back always read silently);
- read with a note: no native reading, and exactly one foreign value (a German `0.9`), or a native reading whose
  only alternative comes from a neighbour that is not a Slack locale;
- asked about (`AMBIGUOUS_NUMBER`, carrying every reading): the natives disagree (an unknown format, Slack's es-LA,
  a `lang=` format that reads it differently from the user's own), or another Slack locale's everyday reading
  differs (`2.000` from an English user, `2,000` from a German one).

Locale *modifiers* carry two special readers through every layer as plain locale tags: `@unknown` (Slack did not
tell us the user's locale in time: every Slack locale's reading is native, so any disagreement is asked about) and
`@channel` (a message the whole channel sees: written so no locale can misread it).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import cached_property, lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol, get_group_symbol

from bot.errors import ErrorCode, UserInputError

# Slack locale tags that are not CLDR locales, mapped to the CLDR locale that stands for the same region.
SLACK_LOCALE_ALIASES = {"es-la": "es_419"}
SLACK_LOCALES = (
    "en-US", "en-GB", "en-IN", "de-DE", "es-ES", "es-LA", "fr-FR", "it-IT", "ja-JP", "ko-KR", "pt-BR", "zh-CN", "zh-TW",
)
NEIGHBOUR_LOCALES = (
    "de-AT", "de-CH", "fr-CA", "fr-CH", "hi-IN", "ru-RU", "pl-PL", "nl-NL", "sv-SE", "tr-TR", "uk-UA",
)
# A locale standing for countries that write numbers differently: each member's format is equally its own.
REGION_MEMBERS = {"es_419": ("es_MX", "es_AR")}
UNKNOWN = "unknown"  # locale modifier: the reader's format is not known
CHANNEL = "channel"  # locale modifier: written for a whole channel, readers of every locale

SPACES = " \u00a0\u202f\u2009\u2007"
APOSTROPHES = "'\u2019"
NARROW_SPACE = "\u202f"
MINUS_SIGNS = "-\u2212"
SUFFIXES = {"k": Decimal(10) ** 3, "K": Decimal(10) ** 3, "M": Decimal(10) ** 6, "G": Decimal(10) ** 9}
_SEPARATORS = ".,'\u2019" + SPACES
_NUMBER_SHAPE = re.compile(rf"[+{MINUS_SIGNS}]?[\d{_SEPARATORS}]*\d[\d{_SEPARATORS}]*")


@lru_cache(maxsize=256)
def resolve_locale(tag: str) -> Locale:
    """The CLDR locale for a Slack locale tag such as `de-DE`, `es-LA` or `pt_BR` (a modifier `@unknown` kept).

    Raises UserInputError(UNKNOWN_LOCALE) for a tag Babel does not know.
    """
    cleaned, _, modifier = tag.strip().replace("_", "-").partition("@")
    alias = SLACK_LOCALE_ALIASES.get(cleaned.lower(), cleaned)
    if modifier not in ("", UNKNOWN, CHANNEL):
        raise UserInputError(ErrorCode.UNKNOWN_LOCALE, token=tag)
    try:
        locale = Locale.parse(alias.replace("_", "-"), sep="-")
    except (UnknownLocaleError, ValueError, TypeError):
        raise UserInputError(ErrorCode.UNKNOWN_LOCALE, token=tag) from None
    if modifier:
        return Locale(locale.language, locale.territory, locale.script, locale.variant, modifier)
    return locale


def unknown_locale(default: Locale) -> Locale:
    """The reader whose format is unknown, answered in `default`'s language."""
    return with_modifier(default, UNKNOWN)


def for_channel(locale: Locale) -> Locale:
    """`locale` as written for a whole channel; an unknown reader stays unknown (written the same safe way)."""
    return locale if locale.modifier else with_modifier(locale, CHANNEL)


def with_modifier(locale: Locale, modifier: str | None) -> Locale:
    return Locale(locale.language, locale.territory, locale.script, locale.variant, modifier)


def base_locale(locale: Locale) -> Locale:
    return with_modifier(locale, None) if locale.modifier else locale


def is_unknown(locale: Locale) -> bool:
    return locale.modifier == UNKNOWN


class ReadingKind(StrEnum):
    OTHER_CONVENTION = "other_convention"  # not valid in the reader's format; read in the only other that fits
    AMBIGUOUS = "ambiguous"  # read in the reader's format; a neighbour (not a Slack locale) reads it otherwise


class AskReason(StrEnum):
    """Why a number was asked about rather than read: the reply says it."""

    UNKNOWN_FORMAT = "unknown_format"  # Slack did not tell us the reader's locale in time
    REGION = "region"  # the reader's Slack locale (es-LA) stands for countries that read it differently
    LANG = "lang"  # the user's own format and the one `lang=` asks for read it differently
    OTHER_LOCALES = "other_locales"  # readable in the user's format, but other Slack locales read it otherwise
    NOT_YOURS = "not_yours"  # not written in the user's format, and the formats that can read it disagree


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

    @cached_property
    def key(self) -> tuple[str, str, tuple[int, int]]:
        """What decides how a number is read: two styles with the same key read every number alike."""
        return self.decimal, self.group_marks, self.grouping

    @cached_property
    def _patterns(self) -> tuple[re.Pattern[str], ...]:
        """The shapes this style reads: its own grouping; international threes (en-IN writes both); and digits
        grouped by spaces, which no locale reads as a decimal mark."""
        shapes = [(self.group_marks, self.grouping)]
        if self.grouping != (3, 3):
            shapes.append((self.group_marks, (3, 3)))
        if self.group_marks != SPACES:
            shapes.append((SPACES, (3, 3)))
        decimal = re.escape(self.decimal)
        patterns = []
        for marks, (primary, secondary) in shapes:
            group = "[" + re.escape(marks) + "]"
            grouped = rf"[1-9]\d{{0,{secondary - 1}}}(?:{group}\d{{{secondary}}})*{group}\d{{{primary}}}"
            patterns.append(re.compile(rf"(?:(?:\d+|{grouped})(?:{decimal}\d+)?|{decimal}\d+)"))
        return tuple(patterns)

    def read(self, body: str) -> Decimal | None:
        """`body` (ASCII digits and separators, no sign) read strictly in this style; None if it is not its shape."""
        if not any(pattern.fullmatch(body) for pattern in self._patterns):
            return None
        return Decimal("".join(c for c in body if c.isdigit() or c == self.decimal).replace(self.decimal, "."))


@lru_cache(maxsize=256)
def cldr_style(locale: Locale) -> NumberStyle:
    """The locale's own CLDR number format."""
    locale = base_locale(locale)
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


@lru_cache(maxsize=256)
def number_style(locale: Locale) -> NumberStyle:
    """How dpscale writes numbers for `locale`: its CLDR format; or, where readers of more than one format will
    read it (a channel, an unknown reader, es-LA's countries), digits grouped by narrow no-break spaces (as
    ISO 80000-1 does), which no locale reads as a decimal mark."""
    style = cldr_style(locale)
    if locale.modifier or str(base_locale(locale)) in REGION_MEMBERS:
        return NumberStyle(
            style.locale, style.decimal, NARROW_SPACE, (3, 3), style.percent_prefix, style.percent_suffix
        )
    return style


def uses_space_grouping(locale: Locale) -> bool:
    return number_style(locale).group in SPACES


@dataclass(frozen=True, eq=False)  # `reader_for` makes one per locale: identity is equality, and hashing is cheap
class Reader:
    """Whose numbers are being read: the formats that are theirs, the forms dpscale writes for them, and every
    other format a colleague in another Slack locale (or a neighbour) might have used."""

    natives: tuple[NumberStyle, ...]
    writers: tuple[NumberStyle, ...]  # dpscale's own forms for this reader, and the natives' CLDR forms
    foreign: tuple[tuple[NumberStyle, bool], ...]  # (style, is a Slack locale's)
    reason: AskReason  # what to say when the natives disagree

    def values(self, body: str) -> set[Decimal]:
        return {value for style in self.natives if (value := style.read(body)) is not None}

    def is_house_form(self, body: str, value: Decimal) -> bool:
        """Written exactly as dpscale writes `value` for this reader (any space or apostrophe for a group mark)."""
        typed = _plain_marks(body)
        return any(_plain_marks(write_number(value, style, 8)) == typed for style in self.writers)


def _plain_marks(text: str) -> str:
    return "".join(" " if c in SPACES else "'" if c in APOSTROPHES else c for c in text)


@lru_cache(maxsize=1)
def slack_styles() -> tuple[NumberStyle, ...]:
    """Every Slack locale's own reading styles (es-LA's as those of its member countries)."""
    return _distinct(style for tag in SLACK_LOCALES for style in _own_styles(resolve_locale(tag)))


@lru_cache(maxsize=1)
def neighbour_styles() -> tuple[NumberStyle, ...]:
    return _distinct(style for tag in NEIGHBOUR_LOCALES for style in _own_styles(resolve_locale(tag)))


def _distinct(styles: object) -> tuple[NumberStyle, ...]:
    found: dict[object, NumberStyle] = {}
    for style in styles:  # type: ignore[attr-defined]
        found.setdefault(style.key, style)
    return tuple(found.values())


def _own_styles(locale: Locale) -> tuple[NumberStyle, ...]:
    if is_unknown(locale):
        return slack_styles()
    members = REGION_MEMBERS.get(str(base_locale(locale)))
    if members:
        return tuple(cldr_style(Locale.parse(member)) for member in members)
    return (cldr_style(locale),)


@lru_cache(maxsize=256)
def reader_for(locale: Locale, also: Locale | None = None) -> Reader:
    """The reader of `locale` (the reply's locale); `also` is the user's own locale when `lang=` chose another."""
    natives = _distinct([*_own_styles(locale), *(_own_styles(also) if also is not None else ())])
    if is_unknown(locale) or (also is not None and is_unknown(also)):
        reason = AskReason.UNKNOWN_FORMAT
    elif also is not None:
        reason = AskReason.LANG
    else:
        reason = AskReason.REGION
    keys = {style.key for style in natives}
    foreign = [(style, True) for style in slack_styles() if style.key not in keys]
    foreign += [(style, False) for style in neighbour_styles() if style.key not in keys | {s.key for s, _ in foreign}]
    writers = (number_style(locale), *((number_style(also),) if also is not None else ()), *natives)
    writers += tuple(_threes(style) for style in natives if style.grouping != (3, 3))  # en-IN writes both
    return Reader(natives, _distinct(writers), tuple(foreign), reason)


def _threes(style: NumberStyle) -> NumberStyle:
    return NumberStyle(style.locale, style.decimal, style.group, (3, 3), style.percent_prefix, style.percent_suffix)


def plain_digits(text: str) -> str:
    """Decimal digits of any script (Unicode category Nd) as ASCII digits; other characters unchanged."""
    if text.isascii():
        return text
    return "".join(str(unicodedata.digit(c)) if unicodedata.category(c) == "Nd" else c for c in text)


def read_number(
    token: str,
    locale: Locale | Reader,
    possible: Callable[[Decimal], bool] | None = None,
) -> Reading:
    """Read one number token (digits, separators, an optional k/M/G suffix) for a reader (or a locale's).

    `possible` tells a value that could be meant from one that breaks a rule: impossible alternatives are never
    offered. Raises UserInputError: AMBIGUOUS_NUMBER (with every reading and the reason), NOT_A_NUMBER,
    NOT_PLAIN_DIGITS (superscripts, fractions, circled numbers) or UNKNOWN_SUFFIX.
    """
    reader = locale if isinstance(locale, Reader) else reader_for(locale)
    if any(unicodedata.category(c) == "No" for c in token):
        raise UserInputError(ErrorCode.NOT_PLAIN_DIGITS, token=token)
    text = plain_digits(token)
    body, multiplier = _split_suffix(text, token)
    sign = Decimal(1)
    if body[:1] in "+" + MINUS_SIGNS and body[:1]:
        sign = Decimal(-1) if body[0] in MINUS_SIGNS else sign
        body = body[1:]
    if body.isdigit():  # no separator: every convention reads it alike
        return Reading(token, sign * Decimal(body) * multiplier)
    if not _NUMBER_SHAPE.fullmatch(body):
        raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)
    scale = sign * multiplier
    fits = (lambda v: possible(v * scale)) if possible is not None else (lambda v: True)
    native_values, readings = _candidates(body, reader)
    native = set(native_values)
    if len(native) > 1:
        fitting = {value for value in native if fits(value)}
        if len(fitting) == 1:
            return Reading(token, fitting.pop() * scale)
        raise _ask(token, fitting or native, scale, reader.reason)
    foreign: dict[Decimal, bool] = {}
    for value, is_slack in readings:
        if fits(value):
            foreign[value] = foreign.get(value, False) or is_slack
    if native:
        own = native.pop()
        others = {value: is_slack for value, is_slack in foreign.items() if value != own}
        if not others or reader.is_house_form(body, own):
            return Reading(token, own * scale)
        if any(others.values()):
            raise _ask(token, {own, *others}, scale, AskReason.OTHER_LOCALES)
        return Reading(token, own * scale, ReadingKind.AMBIGUOUS, min(others) * scale)
    if not foreign:  # only readings that break a rule, if any: read one, and let the rule say what is wrong
        foreign = dict.fromkeys((value for value, _ in readings), False)
    if len(foreign) == 1:
        return Reading(token, next(iter(foreign)) * scale, ReadingKind.OTHER_CONVENTION)
    if foreign:
        raise _ask(token, set(foreign), scale, AskReason.NOT_YOURS)
    raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)


@lru_cache(maxsize=4096)
def _candidates(body: str, reader: Reader) -> tuple[frozenset[Decimal], tuple[tuple[Decimal, bool], ...]]:
    """How the reader's own formats, and every other, read `body`: the same few tokens come again and again."""
    foreign = tuple((value, is_slack) for style, is_slack in reader.foreign if (value := style.read(body)) is not None)
    return frozenset(reader.values(body)), foreign


def _ask(token: str, values: set[Decimal], scale: Decimal, reason: AskReason) -> UserInputError:
    return UserInputError(
        ErrorCode.AMBIGUOUS_NUMBER, token=token, readings=tuple(sorted(v * scale for v in values)), reason=reason
    )


def _split_suffix(text: str, token: str) -> tuple[str, Decimal]:
    if len(text) > 1 and text[-1] in SUFFIXES and text[-2].isdigit():
        return text[:-1], SUFFIXES[text[-1]]
    if text[-1:].isalpha() and any(c.isdigit() for c in text):
        raise UserInputError(ErrorCode.UNKNOWN_SUFFIX, token=token)
    return text, Decimal(1)


def format_number(value: Decimal, locale: Locale, *, max_fraction_digits: int = 2, grouping: bool = True) -> str:
    """`value` written in `locale`, with at most `max_fraction_digits` decimals (trailing zeros dropped).

    The same digits, symbols and grouping as Babel's `format_decimal` (the tests hold it to that for every
    supported locale), applied from the locale's CLDR data read once rather than looked up for every number,
    with one exception: a number of one or more never ends in exactly three decimals (`1.2340`, not `1.234`),
    which half of Slack's locales would read as a thousand times more.
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
        if max_fraction_digits >= 3 and len(text) > 4 and text[-4] == style.decimal and abs(value) >= 1:
            text += "0"
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
