"""Reading a number, phase one: every reading a token has under every plausible convention — the reader's own
formats (its *natives*), the other Slack locales', the neighbours' (`bot.reader.numbers`), a first group too long to be
one (`2000,000`), whether it is written exactly as dpscale writes it — computed once, with no decision.

Phase two (`bot.reader.rules`) decides from these and the rest of the command. Only a token that no convention can read
at all is refused here: characters that only look like digits, an unknown suffix, marks no format writes.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from functools import cached_property, lru_cache

from bot.errors import ErrorCode, UserInputError
from bot.reader.folding import plain_digits
from bot.reader.myriads import myriad_value
from bot.reader.numbers import (
    APOSTROPHES,
    MINUS_SIGNS,
    SPACES,
    NumberStyle,
    distinct_styles,
    neighbour_styles,
    slack_styles,
    write_number,
)
from bot.reader.recipient import Recipient

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


class AskReason(StrEnum):
    """Why a number was asked about rather than read: the reply says it."""

    UNKNOWN_FORMAT = "unknown_format"  # Slack did not tell us the reader's locale in time
    REGION = "region"  # the reader's Slack locale (es-LA) stands for countries that read it differently
    LANG = "lang"  # the user's own format and the one `lang=` asks for read it differently
    OTHER_LOCALES = "other_locales"  # readable in the user's format, but other Slack locales read it otherwise
    NOT_YOURS = "not_yours"  # not written in the user's format, and the formats that can read it disagree
    LOOSE_GROUP = "loose_group"  # `2000,000`: four or more digits, a mark, three digits: a group or a decimal mark


@dataclass(frozen=True, eq=False)  # `reader_for` makes one per recipient: identity is equality, and hashing is cheap
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
        forms = (form for style in self.writers for form in _forms(style))
        return any(_plain_marks(write_number(value, form, 8)) == typed for form in forms)


def _forms(style: NumberStyle) -> tuple[NumberStyle, ...]:
    """How `style` writes, and, where CLDR's minimum grouping digits leave 2000 ungrouped (es, it), `2.000` too:
    CLDR's pattern groups it, and it is the reader's own."""
    return (style,) if style.min_grouping == 1 else (style, replace(style, min_grouping=1))


def _plain_marks(text: str) -> str:
    """Any space as a plain space, either apostrophe as `'`."""
    return text.translate(_PLAIN_MARKS)


_PLAIN_MARKS = {**dict.fromkeys(map(ord, SPACES), " "), **dict.fromkeys(map(ord, APOSTROPHES), "'")}


@lru_cache(maxsize=256)
def reader_for(recipient: Recipient) -> Reader:
    """The reader of `recipient`'s numbers: its own formats, and the user's own too where `lang=` chose another."""
    also = recipient.own
    natives = distinct_styles([*recipient.own_styles, *(also.own_styles if also is not None else ())])
    if recipient.is_unknown or (also is not None and also.is_unknown):
        reason = AskReason.UNKNOWN_FORMAT
    elif also is not None:
        reason = AskReason.LANG
    else:
        reason = AskReason.REGION
    keys = {style.key for style in natives}
    foreign = [(style, True) for style in slack_styles() if style.key not in keys]
    foreign += [(style, False) for style in neighbour_styles() if style.key not in keys | {s.key for s, _ in foreign}]
    writers = (recipient.style, *((also.style,) if also is not None else ()), *natives)
    writers += tuple(_threes(style) for style in natives if style.grouping != (3, 3))  # en-IN writes both
    return Reader(natives, distinct_styles(writers), tuple(foreign), reason)


def _threes(style: NumberStyle) -> NumberStyle:
    return NumberStyle(style.locale, style.decimal, style.group, (3, 3), style.percent_prefix, style.percent_suffix)


@dataclass(frozen=True)
class Candidates:
    """Every reading of one token, before any decision: `natives` (the reader's own formats' values), `foreign`
    (each other format's value, whether it is a Slack locale's, and its decimal mark), `loose` (a first group too
    long to be one: the decimal reading and the grouped one), all to be multiplied by `scale` (sign and suffix)."""

    token: str
    body: str
    reader: Reader
    scale: Decimal = Decimal(1)
    suffixed: bool = False
    natives: frozenset[Decimal] = frozenset()
    foreign: tuple[tuple[Decimal, bool, str], ...] = ()
    loose: tuple[Decimal, Decimal] | None = None

    @cached_property
    def house(self) -> bool:
        """Written exactly as dpscale writes its one native value for the reader; never with a k, M or G."""
        return not self.suffixed and len(self.natives) == 1 and self.reader.is_house_form(self.body, *self.natives)


@lru_cache(maxsize=1024)  # a command's tokens are read twice (for the evidence they give, then for their value)
def candidates(token: str, reader: Reader) -> Candidates:
    """Every reading of `token` (digits, marks, an optional sign and k/M/G suffix) for `reader`.

    Raises UserInputError where no convention reads it: NOT_PLAIN_DIGITS (superscripts, fractions, circled
    numbers), UNKNOWN_SUFFIX, NOT_A_NUMBER.
    """
    if token.isascii() and token.isdigit():  # plain digits, most tokens: every convention reads them alike
        return Candidates(token, token, reader, natives=frozenset({+Decimal(token)}))  # `+`: the context's precision
    if not token.isascii() and any(unicodedata.category(c) == "No" for c in token):  # ASCII has none
        raise UserInputError(ErrorCode.NOT_PLAIN_DIGITS, token=token)
    text = plain_digits(token)
    if (myriads := myriad_value(text)) is not None:  # `11만5200`: one number, said in two units
        return Candidates(token, str(myriads), reader, Decimal(1), True, frozenset({myriads}))
    body, multiplier = _split_suffix(text, token)
    sign = Decimal(1)
    if body[:1] in "+" + MINUS_SIGNS and body[:1]:
        sign = Decimal(-1) if body[0] in MINUS_SIGNS else sign
        body = body[1:]
    scale, suffixed = sign * multiplier, multiplier != 1
    if body.isdigit():  # no separator: every convention reads it alike
        return Candidates(token, body, reader, scale, suffixed, frozenset({Decimal(body)}))
    if ("\u066b" in body or "\u066c" in body) and _ARABIC_NUMBER.fullmatch(body):  # `٫` a decimal, `٬` a group
        value = Decimal(body.replace("\u066c", "").replace("\u066b", "."))
        return Candidates(token, body, reader, scale, suffixed, frozenset({value}))
    if not reader.shape.fullmatch(body):
        raise UserInputError(ErrorCode.NOT_A_NUMBER, token=token)
    natives, foreign = _readings(body, reader)
    return Candidates(token, body, reader, scale, suffixed, natives, foreign, _loose_readings(body, reader))


@lru_cache(maxsize=512)  # a few hundred tokens recur (64, 2.000, 90 %); the bound keeps memory flat
def _readings(body: str, reader: Reader) -> tuple[frozenset[Decimal], tuple[tuple[Decimal, bool, str], ...]]:
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


def _split_suffix(text: str, token: str) -> tuple[str, Decimal]:
    body = text[:-1].rstrip(SPACES)
    if text[-1:] in SUFFIXES and body[-1:].isdigit():  # `2k`, and `2 k` in a form's field
        return body, SUFFIXES[text[-1]]
    if text[-1:].isalpha() and any(map(str.isdigit, text)):  # `2T`: a suffix; `2000 samples/s`: no number
        raise UserInputError(ErrorCode.UNKNOWN_SUFFIX if text[-2:-1].isdigit() else ErrorCode.NOT_A_NUMBER, token=token)
    return text, Decimal(1)

