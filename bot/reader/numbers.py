"""Number systems, through Babel's CLDR data: each locale's symbols, grouping and percent pattern, and writing
numbers the way a locale (or a whole channel) reads them. Reading them is `bot.reader.reading`'s job.

Every function takes the locale explicitly: Babel falls back to the process locale when none is given, and a
bot that serves many users must never let it.

Two special readers (`bot.reader.recipient.Audience`) come in as arguments: the unknown reader (Slack did not tell us
the user's locale in time: every Slack locale's reading is the user's own, so any disagreement is asked about) and a
whole channel (written so no locale can misread it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import cached_property, lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol, get_group_symbol

from bot.errors import ErrorCode, UserInputError
from bot.reader.cldr_numbers import CLDR_NUMBERS
from bot.reader.min_grouping import is_grouped, min_grouping_digits

__all__ = ["APOSTROPHES", "MINUS_SIGNS", "NARROW_SPACE", "NEIGHBOUR_LOCALES", "NumberStyle", "REGION_MEMBERS",
           "SLACK_LOCALES", "SPACES", "babel_style", "cldr_style", "distinct_styles", "exact_decimals",
           "neighbour_styles", "number_style", "own_styles", "resolve_locale", "round_half_up", "slack_styles",
           "write_number", "write_percent"]

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

SPACES = " \u00a0\u202f\u2009\u2007"
APOSTROPHES = "'\u2019"
NARROW_SPACE = "\u202f"
MINUS_SIGNS = "-\u2212"


@lru_cache(maxsize=256)
def resolve_locale(tag: str) -> Locale:
    """The CLDR locale for a Slack locale tag such as `de-DE`, `es-LA` or `pt_BR`, with no modifier: a reader's
    audience (`de-DE@unknown`) is `bot.reader.recipient.Recipient.parse`'s to read.

    Raises UserInputError(UNKNOWN_LOCALE) for a tag Babel does not know, or one with a modifier.
    """
    cleaned, modifier, _ = tag.strip().replace("_", "-").partition("@")
    alias = SLACK_LOCALE_ALIASES.get(cleaned.lower(), cleaned)
    if modifier:
        raise UserInputError(ErrorCode.UNKNOWN_LOCALE, token=tag)
    try:
        locale = Locale.parse(alias.replace("_", "-"), sep="-")
    except (UnknownLocaleError, ValueError, TypeError):
        raise UserInputError(ErrorCode.UNKNOWN_LOCALE, token=tag) from None
    return _INTERNED.setdefault(str(locale), locale)


# One object per locale, whichever tag named it (`de-DE`, `de_DE`): the caches keyed by a locale find it by
# identity, never through Babel's `Locale.__eq__`, which every lookup of an equal but other object calls.
_INTERNED: dict[str, Locale] = {}


@dataclass(frozen=True)
class NumberStyle:
    """How a locale writes numbers, read once from Babel's CLDR data: symbols, grouping sizes, percent affixes."""

    locale: Locale
    decimal: str
    group: str
    grouping: tuple[int, int]
    percent_prefix: str
    percent_suffix: str
    min_grouping: int = 1  # CLDR's minimumGroupingDigits: `2` writes 2000 but 20.000

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
        return Decimal(body.translate(self._to_plain))

    @cached_property
    def _to_plain(self) -> dict[int, str | None]:
        """What a body of one of this style's shapes becomes for `Decimal`: its group marks (and spaces) gone,
        its decimal mark a point."""
        marks = set(self.group_marks + SPACES) - {self.decimal}
        return {**dict.fromkeys(map(ord, marks)), ord(self.decimal): "."}


@lru_cache(maxsize=256)
def cldr_style(locale: Locale) -> NumberStyle:
    """The locale's own CLDR number format: from `CLDR_NUMBERS` for every locale dpscale offers, from Babel for
    any other."""
    known = CLDR_NUMBERS.get(str(locale))
    if known is None:
        return babel_style(locale)
    decimal, group, grouping, percent_prefix, percent_suffix = known
    return NumberStyle(locale, decimal, group, grouping, percent_prefix, percent_suffix, min_grouping_digits(locale))


def babel_style(locale: Locale) -> NumberStyle:
    """`locale`'s number format as Babel's CLDR data gives it. Loading a locale's data costs some 9 ms, which a
    reader that knows every Slack locale's format would pay 25 times over in its first request: hence the table
    of bot/reader/cldr_numbers.py, written from this function by `python scripts/cldr_numbers.py`."""
    decimal_pattern = locale.decimal_formats[None]
    percent_pattern = locale.percent_formats[None]
    return NumberStyle(
        locale=locale,
        decimal=get_decimal_symbol(locale),
        group=get_group_symbol(locale),
        grouping=decimal_pattern.grouping,
        percent_prefix=percent_pattern.prefix[0],
        percent_suffix=percent_pattern.suffix[0],
        min_grouping=min_grouping_digits(locale),
    )


@lru_cache(maxsize=256)
def number_style(locale: Locale, shared: bool = False) -> NumberStyle:
    """How dpscale writes numbers for readers of `locale`'s format: its CLDR format; or, where readers of more than
    one format will read it (`shared`: a channel, an unknown reader; es-LA's countries), digits grouped by narrow
    no-break spaces (as ISO 80000-1 does), which no locale reads as a decimal mark, from five digits on: `2000`
    reads alike in every format ungrouped, where `2 000` breaks Spanish and Italian rules (RAE: "2000 muestras")
    and reads oddly to everyone else."""
    style = cldr_style(locale)
    if shared or str(locale) in REGION_MEMBERS:
        return NumberStyle(
            style.locale, style.decimal, NARROW_SPACE, (3, 3), style.percent_prefix, style.percent_suffix, 2
        )
    return style


def write_number(value: Decimal, style: NumberStyle, max_fraction_digits: int = 2, grouping: bool = True) -> str:
    """`value` written in `style` (`number_style(locale)`, looked up once for all of a reply's numbers), with at
    most `max_fraction_digits` decimals (trailing zeros dropped).

    The same digits, symbols and grouping as Babel's `format_decimal` (the tests hold it to that for every
    supported locale), applied from the locale's CLDR data read once rather than looked up for every number,
    with one exception: a number of one or more never ends in exactly three decimals (`1.2340`, not `1.234`),
    which half of Slack's locales would read as a thousand times more. A half is rounded up, away from zero, as
    readers and spreadsheets round (78.125 % is 78.13 %), where Decimal's own context rounds it to the even digit.
    """
    value = round_half_up(value, max_fraction_digits)  # exact now: `format` rounds no more
    if grouping and style.min_grouping > 1:  # 2000, not 2.000, where CLDR's minimum grouping digits say so
        grouping = is_grouped(value, max_fraction_digits, style.grouping[0], style.min_grouping)
    if grouping and style.grouping == (3, 3):
        # Python groups by threes with `,` and `.`: map those onto the locale's symbols in one pass
        text = format(value, _spec(max_fraction_digits, True)).translate(style.translation)
    else:
        text = format(value, _spec(max_fraction_digits, False)).replace(".", style.decimal)
        if grouping:
            integer, decimal, fraction = text.partition(style.decimal)
            sign = "-" if integer.startswith("-") else ""
            text = sign + _group_digits(integer.lstrip("-"), style) + decimal + fraction
    if max_fraction_digits:
        text = text.rstrip("0").removesuffix(style.decimal)
        if max_fraction_digits >= 3 and len(text) > 4 and text[-4] == style.decimal and abs(value) >= 1:
            text += "0"
    return text


_HALF_UP = Context(prec=1000, rounding=ROUND_HALF_UP)  # a precision no figure reaches: quantize never raises


def round_half_up(value: Decimal, fraction_digits: int) -> Decimal:
    """`value` to `fraction_digits` decimals, a half rounded up (away from zero): what `write_number` writes.

    >>> round_half_up(Decimal("78.125"), 2), round_half_up(Decimal("-2.5"), 0)
    (Decimal('78.13'), Decimal('-3'))
    """
    return value.quantize(_unit(fraction_digits), None, _HALF_UP)  # the context by position: cheaper than by name


@lru_cache(maxsize=64)
def _unit(fraction_digits: int) -> Decimal:
    """The last decimal place kept: `0.01` for two decimals."""
    return Decimal(1).scaleb(-fraction_digits)


@lru_cache(maxsize=64)
def _spec(fraction_digits: int, grouped: bool) -> str:
    """The format spec for `fraction_digits` decimals, grouped by threes with `,` or not."""
    return f"{',' if grouped else ''}.{fraction_digits}f"


def exact_decimals(value: Decimal, least: int, most: int) -> int:
    """How many decimals show `value` exactly (between `least` and `most`): the first count from `least` on that
    shifts it to a whole number (cheaper than taking its digits apart with `as_tuple`).

    >>> exact_decimals(Decimal("115200.00"), 2, 8), exact_decimals(Decimal("0.78125"), 2, 8)
    (2, 5)
    """
    for decimals in range(least, most):
        shifted = value.scaleb(decimals, _HALF_UP)  # its precision is beyond any figure's: the shift is exact
        if shifted == shifted.to_integral_value():
            return decimals
    return most


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


@lru_cache(maxsize=1)
def slack_styles() -> tuple[NumberStyle, ...]:
    """Every Slack locale's own reading styles (es-LA's as those of its member countries)."""
    return distinct_styles(style for tag in SLACK_LOCALES for style in own_styles(resolve_locale(tag)))


@lru_cache(maxsize=1)
def neighbour_styles() -> tuple[NumberStyle, ...]:
    """The neighbours' reading styles: formats engineers write in that have no Slack language."""
    return distinct_styles(style for tag in NEIGHBOUR_LOCALES for style in own_styles(resolve_locale(tag)))


def distinct_styles(styles: Iterable[NumberStyle]) -> tuple[NumberStyle, ...]:
    """The styles in order, each way of reading numbers once (`NumberStyle.key`)."""
    found: dict[object, NumberStyle] = {}
    for style in styles:
        found.setdefault(style.key, style)
    return tuple(found.values())


def own_styles(locale: Locale, unknown: bool = False) -> tuple[NumberStyle, ...]:
    """The styles that are all equally the own of a reader of `locale`'s format: every Slack locale's for the
    `unknown` reader, each member country's for a region (es-LA), else its one CLDR format."""
    if unknown:
        return slack_styles()
    members = REGION_MEMBERS.get(str(locale))
    if members:
        return tuple(cldr_style(Locale.parse(member)) for member in members)
    return (cldr_style(locale),)
