"""From a typed token to the number its writer meant, or a question: a token is read in the reader's own formats
— its *natives* — and beside them in every Slack locale's format and some common neighbours' (`bot.numbers`).

- read silently: the natives read one value and nobody reads it differently, or it is written exactly as dpscale
  writes that value for the reader (no k, M or G, which dpscale never writes) and nothing else in the command
  points to another format (`confirm_house_forms`);
- read with a note: no native reading and exactly one foreign value (a German `0.9`), or a native reading whose
  only alternative comes from a neighbour that is not a Slack locale;
- asked about (`AMBIGUOUS_NUMBER`, with every reading and the `AskReason`): the natives disagree (the unknown
  format, es-LA, `lang=`), another Slack locale's everyday reading differs (`2.000` from an English user), or
  a first group too long to be one stands before a mark that is not the reader's decimal (`2000,000`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import cached_property, lru_cache

from babel import Locale

from bot.errors import ErrorCode, UserInputError
from bot.glyphs import plain_digits
from bot.numbers import (
    APOSTROPHES,
    MINUS_SIGNS,
    SPACES,
    NumberStyle,
    distinct_styles,
    is_unknown,
    neighbour_styles,
    number_style,
    own_styles,
    slack_styles,
    write_number,
)

__all__ = ["SUFFIXES", "AskReason", "Reader", "Reading", "ReadingKind", "confirm_house_forms", "neighbour_styles",
           "own_styles", "read_number", "reader_for", "slack_styles"]

SUFFIXES = {"k": Decimal(10) ** 3, "K": Decimal(10) ** 3, "M": Decimal(10) ** 6, "G": Decimal(10) ** 9,
            **dict.fromkeys("千천", Decimal(10) ** 3),  # `2千`, `2천`: 2 000
            **dict.fromkeys("万萬만", Decimal(10) ** 4), **dict.fromkeys("亿億억", Decimal(10) ** 8)}  # `2万`: 20 000
_SEPARATORS = ".,'\u2019" + SPACES
_LOOSE_GROUP = re.compile(r"([1-9]\d{3,})([.,])(\d{3})")  # `2000,000`: the first group is too long to be one
_ARABIC_NUMBER = re.compile(r"(?:\d{1,3}(?:\u066c\d{3})+|\d+)(?:\u066b\d+)?")  # Arabic marks: alike for all


@lru_cache(maxsize=64)
def _shape(rare: str) -> re.Pattern[str]:
    """What a number's body may be made of: digits, the marks of every format read, and `rare` ones."""
    marks = re.escape(_SEPARATORS + rare)
    return re.compile(rf"[+{MINUS_SIGNS}]?[\d{marks}]*\d[\d{marks}]*")


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
    LOOSE_GROUP = "loose_group"  # `2000,000`: four or more digits, a mark, three digits: a group or a decimal mark


@dataclass(frozen=True)
class Reading:
    """A number as read from the user's token, and how it was read when that needs saying."""

    token: str
    value: Decimal
    kind: ReadingKind | None = None
    alternative: Decimal | None = None
    # other Slack locales' readings, each with the decimal marks of the formats that read it so, not asked about
    # because the token is written as dpscale writes it (see `confirm_house_forms`)
    set_aside: tuple[tuple[Decimal, str], ...] = ()
    marks: str = ""  # read in another format (OTHER_CONVENTION): the decimal marks of the formats that read it


@dataclass(frozen=True, eq=False)  # `reader_for` makes one per locale: identity is equality, and hashing is cheap
class Reader:
    """Whose numbers are being read: the formats that are theirs, the forms dpscale writes for them, and every
    other format a colleague in another Slack locale (or a neighbour) might have used."""

    natives: tuple[NumberStyle, ...]
    writers: tuple[NumberStyle, ...]  # dpscale's own forms for this reader, and the natives' CLDR forms
    foreign: tuple[tuple[NumberStyle, bool], ...]  # (style, is a Slack locale's)
    reason: AskReason  # what to say when the natives disagree

    @cached_property
    def shape(self) -> re.Pattern[str]:
        """Digits and marks, with those of the reader's own formats that no common one writes (Kashmiri's `،`,
        Adlam's `⹁`): `lang=` may choose any CLDR locale, and every figure its reply writes must read back."""
        natives = {mark for style in self.natives for mark in style.decimal + style.group_marks}
        return _shape("".join(sorted(natives - set(_SEPARATORS))))

    def values(self, body: str) -> set[Decimal]:
        return {value for style in self.natives if (value := style.read(body)) is not None}

    def is_house_form(self, body: str, value: Decimal) -> bool:
        """Written exactly as dpscale writes `value` for this reader (any space or apostrophe for a group mark)."""
        typed = _plain_marks(body)
        return any(_plain_marks(write_number(value, style, 8)) == typed for style in self.writers)


def _plain_marks(text: str) -> str:
    """Any space as a plain space, either apostrophe as `'`."""
    return text.translate(_PLAIN_MARKS)


_PLAIN_MARKS = {**dict.fromkeys(map(ord, SPACES), " "), **dict.fromkeys(map(ord, APOSTROPHES), "'")}


@lru_cache(maxsize=256)
def reader_for(locale: Locale, also: Locale | None = None) -> Reader:
    """The reader of `locale` (the reply's locale); `also` is the user's own locale when `lang=` chose another."""
    natives = distinct_styles([*own_styles(locale), *(own_styles(also) if also is not None else ())])
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
    return Reader(natives, distinct_styles(writers), tuple(foreign), reason)


def _threes(style: NumberStyle) -> NumberStyle:
    return NumberStyle(style.locale, style.decimal, style.group, (3, 3), style.percent_prefix, style.percent_suffix)


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
    if token.isascii() and token.isdigit():  # plain digits, most tokens: every convention reads them alike
        return Reading(token, +Decimal(token))  # `+`: to the context's precision, as the arithmetic below rounds
    reader = locale if isinstance(locale, Reader) else reader_for(locale)
    if not token.isascii() and any(unicodedata.category(c) == "No" for c in token):  # ASCII has none
        raise UserInputError(ErrorCode.NOT_PLAIN_DIGITS, token=token)
    text = plain_digits(token)
    body, multiplier = _split_suffix(text, token)
    sign = Decimal(1)
    if body[:1] in "+" + MINUS_SIGNS and body[:1]:
        sign = Decimal(-1) if body[0] in MINUS_SIGNS else sign
        body = body[1:]
    if body.isdigit():  # no separator: every convention reads it alike
        return Reading(token, sign * Decimal(body) * multiplier)
    if ("\u066b" in body or "\u066c" in body) and _ARABIC_NUMBER.fullmatch(body):  # `٫` a decimal, `٬` a group
        return Reading(token, sign * Decimal(body.replace("\u066c", "").replace("\u066b", ".")) * multiplier)
    if not reader.shape.fullmatch(body):
        raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)
    return _decide(token, body, reader, sign * multiplier, possible, suffixed=multiplier != 1)


def _decide(
    token: str, body: str, reader: Reader, scale: Decimal, possible: Callable[[Decimal], bool] | None,
    suffixed: bool = False,
) -> Reading:
    """Read silently, read with a note, or ask: the rules in this module's docstring."""
    fits = (lambda v: possible(v * scale)) if possible is not None else (lambda v: True)
    if (loose := _loose_readings(body, reader)) and all(map(fits, loose)):
        raise _ask(token, set(loose), scale, AskReason.LOOSE_GROUP)
    native_values, readings = _candidates(body, reader)
    native = set(native_values)
    if len(native) > 1:
        fitting = {value for value in native if fits(value)}
        if len(fitting) == 1:
            return Reading(token, fitting.pop() * scale)
        raise _ask(token, fitting or native, scale, reader.reason)
    foreign: dict[Decimal, bool] = {}
    marks: dict[Decimal, str] = {}  # the decimal marks of the formats that read each value
    for value, is_slack, mark in readings:
        if fits(value):
            foreign[value] = foreign.get(value, False) or is_slack
            marks[value] = marks.get(value, "") + mark
    if native:
        own = native.pop()
        others = {value: is_slack for value, is_slack in foreign.items() if value != own}
        return _beside_own(token, own, others, marks, scale, fits(own), house=not suffixed and bool(others)
                           and reader.is_house_form(body, own))  # dpscale never writes `1,500k`
    if not foreign:  # only readings that break a rule, if any: read one, and let the rule say what is wrong
        foreign = dict.fromkeys((value for value, _, _ in readings), False)
    if len(foreign) == 1:
        value = next(iter(foreign))
        return Reading(token, value * scale, ReadingKind.OTHER_CONVENTION, marks=marks.get(value, ""))
    if foreign:
        raise _ask(token, set(foreign), scale, AskReason.NOT_YOURS)
    raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)


def _beside_own(
    token: str, own: Decimal, others: dict[Decimal, bool], marks: dict[Decimal, str], scale: Decimal, fits: bool,
    house: bool,
) -> Reading:
    """The reader's own one reading of a token, beside the `others` (value: whether a Slack locale's) that fit."""
    if not others or not fits:  # alone, or breaking a rule (`1.024` devices in English): the rule says what is wrong
        return Reading(token, own * scale)
    if house:
        set_aside = tuple((value * scale, marks[value]) for value, is_slack in others.items() if is_slack)
        return Reading(token, own * scale, set_aside=set_aside)
    if any(others.values()):
        raise _ask(token, {own, *others}, scale, AskReason.OTHER_LOCALES)
    return Reading(token, own * scale, ReadingKind.AMBIGUOUS, min(others) * scale)


def confirm_house_forms(readings: list[tuple[str, Reading]], clues: str = "") -> None:
    """Ask after all about a number read silently because it is written as dpscale writes it (`1,234` from an
    English user), when another number of the same command (`0,9`) was written in another format, or `clues` (the
    decimal marks of formats that the command's other clues point to: `bot.clues`) say so: its writer may well
    write every number that way: asked where a format with the same decimal mark reads it otherwise
    (`64 2,000 a=1,15,200` is not asked about: India's format reads `2,000` as the user's does). `readings` pairs
    each quantity's name with its reading."""
    evidence = clues + "".join(r.marks for _, r in readings if r.kind is ReadingKind.OTHER_CONVENTION)
    if not evidence:
        return
    for quantity, reading in readings:
        doubts = {value for value, marks in reading.set_aside if any(mark in evidence for mark in marks)}
        if doubts:
            raise UserInputError(
                ErrorCode.AMBIGUOUS_NUMBER, token=reading.token, quantity=quantity,
                readings=tuple(sorted({reading.value, *doubts})), reason=AskReason.OTHER_LOCALES,
            )


@lru_cache(maxsize=512)  # a few hundred tokens recur (64, 2.000, 90 %); the bound keeps memory flat
def _candidates(body: str, reader: Reader) -> tuple[frozenset[Decimal], tuple[tuple[Decimal, bool, str], ...]]:
    """How the reader's own formats, and every other, read `body` (with each other format's decimal mark): the
    same few tokens come again and again."""
    foreign = tuple((value, is_slack, style.decimal) for style, is_slack in reader.foreign
                    if (value := style.read(body)) is not None)
    return frozenset(reader.values(body)), foreign


def _loose_readings(body: str, reader: Reader) -> tuple[Decimal, Decimal] | None:
    """`2000,000` and `1234.567`, unless the mark is the decimal mark of every format of the reader's: its first
    group is too long to be one, so a writer who groups with that mark slipped (2,000,000) and one whose decimal
    mark it is wrote three decimals (2000) — a thousand times apart, both plausible."""
    match = _LOOSE_GROUP.fullmatch(body)
    if match is None or all(style.decimal == match.group(2) for style in reader.natives):
        return None
    integer, _, fraction = match.groups()
    return Decimal(f"{integer}.{fraction}"), Decimal(integer + fraction)


def _ask(token: str, values: set[Decimal], scale: Decimal, reason: AskReason) -> UserInputError:
    return UserInputError(
        ErrorCode.AMBIGUOUS_NUMBER, token=token, readings=tuple(sorted(v * scale for v in values)), reason=reason
    )


def _split_suffix(text: str, token: str) -> tuple[str, Decimal]:
    body = text[:-1].rstrip(SPACES)
    if text[-1:] in SUFFIXES and body[-1:].isdigit():  # `2k`, and `2 k` in a form's field
        return body, SUFFIXES[text[-1]]
    if text[-1:].isalpha() and any(map(str.isdigit, text)):  # `2T`: a suffix; `2000 samples/s`: no number
        raise UserInputError(ErrorCode.UNKNOWN_SUFFIX if text[-2:-1].isdigit() else ErrorCode.NOT_A_NUMBER, token=token)
    return text, Decimal(1)

