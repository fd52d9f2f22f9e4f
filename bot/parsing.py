"""From the text a user typed, in their locale, to the quantities it names.

`parse_command` is pure: it takes the text and a Babel `Locale`, and returns a `Command` or raises
`UserInputError`; nothing else can come out of it.

Grammar (documented in the help reply):
    [DEVICES [THROUGHPUT [EFFICIENCY]]] [KEY=VALUE ...] [lang=TAG]
Positional numbers are devices, per-device throughput and efficiency, in that order. Named values may
stand in any order; `actual=` (the cluster's measured or wanted throughput) opens the inverse modes.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from babel import Locale

from bot.calculator import Quantity
from bot.errors import ErrorCode, UserInputError
from bot.keywords import help_words, keywords
from bot.numbers import SPACES, reader_modifier, resolve_locale, with_modifier
from bot.reading import Reader, Reading, folded, read_number, reader_for

MAX_INPUT_LENGTH = 500
HELP_WORDS = help_words()
POSITIONAL_ORDER = (Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY)
KEYWORDS = keywords()  # every shipped language's words (bot.keywords)
_LEADING_MENTION = re.compile(r"^\s*<@[A-Z0-9]+(?:\|[^>]*)?>")  # a bot mention the caller left in
_KEY_VALUE = re.compile(r"\s*([=:])\s*")
_KEYED = re.compile(r"([^=:]*)[=:](.*)")
_GROUP_OF_THREE = re.compile(r"\d{3}(?:[.,]\d+)?%?")
_TAKES_GROUP = re.compile(r"(?:[^=:\s]+[=:])?\d{1,3}")
_LEADING_ZERO = re.compile(r"0\d")
MAX_GROUP_CHOICES = 10


@dataclass(frozen=True)
class Note:
    """How one value was read, when the reply must say so."""

    quantity: Quantity
    reading: Reading
    bare_percent: bool = False  # an efficiency above 1 typed without % and read as a percentage
    bare_one: bool = False  # an efficiency of exactly 1 typed without %: the whole, 100 %


@dataclass(frozen=True)
class Command:
    """What the user asked: three quantities (or help), in the locale their numbers were read in."""

    locale: Locale
    values: dict[Quantity, Decimal] = field(default_factory=dict)
    tokens: dict[Quantity, str] = field(default_factory=dict)
    notes: tuple[Note, ...] = ()
    wants_help: bool = False


def parse_command(text: str, locale: Locale) -> Command:
    """Parse the text after `/dpscale` (or after the bot's mention) for a user of `locale`."""
    words, reply_locale = split_words(text, locale)
    return parse_words(words, reply_locale, reader_of(reply_locale, locale))


def split_words(text: str, locale: Locale) -> tuple[list[str], Locale]:
    """The command's words, and the locale to answer in: the user's, or the one a `lang=` word names (written
    for the same readers: an unknown reader or a channel stays so)."""
    if len(text) > MAX_INPUT_LENGTH:
        raise UserInputError(ErrorCode.TOO_LONG, high=str(MAX_INPUT_LENGTH))
    words = _split_words(text)
    chosen = _take_locale_override(words, locale)
    return words, chosen if chosen is locale else with_modifier(chosen, reader_modifier(locale))


def normalized_command(text: str) -> str:
    """The text as the parser reads it (control characters gone, spaces and compatibility forms folded, Slack's
    escapes undone): it parses as `text` does, and is what a result's buttons carry."""
    return " ".join(_split_words(text))


def reader_of(reply_locale: Locale, user_locale: Locale) -> Reader:
    """Whose numbers these are: the user's format, and the `lang=` one too when it chose another."""
    return reader_for(reply_locale, None if reply_locale == user_locale else user_locale)


def parse_words(words: list[str], locale: Locale, reader: Reader | None = None) -> Command:
    """The quantities (or the wish for help) that the words name, answered in `locale` and read by `reader`
    (by default, `locale`'s own)."""
    if not words or (len(words) == 1 and words[0].casefold() in HELP_WORDS):
        return Command(locale=locale, wants_help=True)
    reader = reader or reader_for(locale)
    readings: dict[Quantity, tuple[Reading, Bare | None]] = {}
    positional = iter(POSITIONAL_ORDER)
    for word in _join_space_groups(words):
        quantity, raw = _split_key(word)
        if quantity is None:
            quantity = next(positional, None)
            if quantity is None:
                raise UserInputError(ErrorCode.TOO_MANY_NUMBERS, token=word)
        if quantity in readings:
            raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=word, quantity=quantity.value)
        readings[quantity] = _read_value(quantity, raw, reader)
    return _command_from(readings, locale)


def _split_words(text: str) -> list[str]:
    if "&" in text:  # each step only where it has something to do: most commands are a few plain numbers
        text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    text = _LEADING_MENTION.sub(" ", text)
    if not text.isprintable():  # control, format and odd space characters become plain spaces
        text = "".join(" " if unicodedata.category(c)[0] in "CZ" and c not in SPACES else c for c in text)
    text = folded(text)
    if "=" in text or ":" in text:
        text = _KEY_VALUE.sub(r"\1", text)
    words = text.split()
    # a percent sign standing alone belongs to the number before it: `90 %`
    joined: list[str] = []
    for word in words:
        if word == "%" and joined:
            joined[-1] += "%"
        else:
            joined.append(word)
    return joined


def _keyed(word: str) -> tuple[str, str] | None:
    """`key=value` or `key:value` → (casefolded key, value); None for a bare word."""
    match = _KEYED.match(word)
    return (match.group(1).casefold(), match.group(2)) if match else None


def _take_locale_override(words: list[str], locale: Locale) -> Locale:
    for index, word in enumerate(words):
        keyed = _keyed(word)
        if keyed and keyed[0] in KEYWORDS and KEYWORDS[keyed[0]] is None:
            del words[index]
            return resolve_locale(keyed[1])
    return locale


def _join_space_groups(words: list[str]) -> list[str]:
    """`2 000` is one number: spaces group digits in many locales (and in ISO 80000-1, which dpscale writes for
    channels), and no locale reads a space as a decimal mark.

    A word of exactly three digits may continue the number before it. Of all ways to join such words, the one
    that gives as many numbers as the command needs wins; if two ways do, the user is asked to write the
    numbers without inner spaces rather than being guessed at.
    """
    joinable = [
        i for i in range(1, len(words)) if _GROUP_OF_THREE.fullmatch(words[i]) and _TAKES_GROUP.fullmatch(words[i - 1])
    ]
    if not joinable:
        return words
    greedy = _segment(words, set(joinable))
    if len(joinable) > MAX_GROUP_CHOICES:
        return greedy
    needed = len(POSITIONAL_ORDER) - sum(1 for word in words if _KEYED.match(word))
    fitting: list[set[int]] = []
    for choice in itertools.product((True, False), repeat=len(joinable)):
        chosen = {i for i, join in zip(joinable, choice, strict=True) if join}
        if _fits(_segment(words, chosen), needed):
            fitting.append(chosen)
    if not fitting:
        return greedy
    if len(fitting) > 1:
        differing = sorted(set().union(*fitting) - fitting[0].intersection(*fitting[1:]))
        raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=" ".join(words[differing[0] - 1 : differing[-1] + 1]))
    return _segment(words, fitting[0])


def _segment(words: list[str], joins: set[int]) -> list[str]:
    segmented: list[str] = []
    for index, word in enumerate(words):
        if index in joins:
            segmented[-1] += " " + word
        else:
            segmented.append(word)
    return segmented


def _fits(segmented: list[str], needed: int) -> bool:
    positional = [word for word in segmented if not _KEYED.match(word)]
    return len(positional) == needed and not any(_LEADING_ZERO.match(_KEYED.sub(r"\2", w)) for w in segmented)


def _split_key(word: str) -> tuple[Quantity | None, str]:
    """`key=value` or `key:value` → (quantity, value); a bare word → (None, word)."""
    keyed = _keyed(word)
    if keyed is None:
        if not any(map(str.isnumeric, word)):
            raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
        return None, word
    key, value = keyed
    quantity = KEYWORDS.get(key)
    if quantity is None:
        raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
    if not value:
        raise UserInputError(ErrorCode.MISSING_VALUE, token=word, quantity=quantity.value)
    return quantity, value


class Bare(StrEnum):
    """How an efficiency typed without a percent sign was read, when the reply must say so."""

    PERCENT = "percent"  # above 1: a percentage
    ONE = "one"  # exactly 1: the whole, 100 %


def _possible(quantity: Quantity) -> Callable[[Decimal], bool]:
    """Whether a value could be meant for `quantity` at all (efficiency as typed: a fraction or a percentage)."""
    return _POSSIBLE.get(quantity, _positive)


def _positive(value: Decimal) -> bool:
    return value > 0


_POSSIBLE: dict[Quantity, Callable[[Decimal], bool]] = {
    Quantity.DEVICES: lambda value: value >= 1 and value == value.to_integral_value(),
    Quantity.EFFICIENCY: lambda value: 0 < value <= 100,
}


def _read_value(quantity: Quantity, raw: str, reader: Reader) -> tuple[Reading, Bare | None]:
    has_percent = raw.endswith("%") or raw.startswith("%")
    body = raw.strip("%").strip(SPACES) if has_percent else raw
    if not body or not any(map(str.isnumeric, body)):
        raise UserInputError(ErrorCode.UNKNOWN_WORD, token=raw)
    if has_percent and quantity is not Quantity.EFFICIENCY:
        raise UserInputError(ErrorCode.PERCENT_NOT_ALLOWED, token=raw, quantity=quantity.value)
    try:
        reading = read_number(body, reader, _possible(quantity))
    except UserInputError as error:
        error.token, error.quantity = raw, quantity.value
        if quantity is Quantity.EFFICIENCY:
            error.readings = tuple(v / 100 if has_percent or v > 1 else v for v in error.readings)
        raise
    if reading.token != raw:  # a percent sign was taken off: the reading names the token as typed
        reading = Reading(raw, reading.value, reading.kind, reading.alternative)
    if quantity is not Quantity.EFFICIENCY:
        return reading, None
    if has_percent:
        return _scaled(reading, Decimal("0.01")), None
    if reading.value > 1:
        return _scaled(reading, Decimal("0.01")), Bare.PERCENT
    if reading.value == 1:
        return reading, Bare.ONE
    return reading, None


def _scaled(reading: Reading, factor: Decimal) -> Reading:
    alternative = None if reading.alternative is None else reading.alternative * factor
    return Reading(reading.token, reading.value * factor, reading.kind, alternative)


def _command_from(readings: dict[Quantity, tuple[Reading, Bare | None]], locale: Locale) -> Command:
    notes = tuple(
        Note(quantity, reading, bare is Bare.PERCENT, bare is Bare.ONE)
        for quantity, (reading, bare) in readings.items()
        if reading.kind is not None or bare is not None
    )
    values = {quantity: reading.value for quantity, (reading, _) in readings.items()}
    tokens = {quantity: reading.token for quantity, (reading, _) in readings.items()}
    return Command(locale=locale, values=values, tokens=tokens, notes=notes)


class FieldErrors(Exception):
    """Errors of a form, one per field (quantity), so each can be shown under the field that is wrong."""

    def __init__(self, errors: dict[Quantity, UserInputError]) -> None:
        super().__init__(", ".join(f"{q.value}: {e.code.value}" for q, e in errors.items()))
        self.errors = errors


def parse_fields(fields: dict[Quantity, str | None], locale: Locale) -> Command:
    """Read a form's fields, each holding one value read by `locale`'s reader; empty fields are the ones to solve.

    Raises FieldErrors naming every field that cannot be read.
    """
    readings: dict[Quantity, tuple[Reading, Bare | None]] = {}
    errors: dict[Quantity, UserInputError] = {}
    reader = reader_for(locale)
    for quantity, raw in fields.items():
        text = folded(raw or "").strip()
        if not text:
            continue
        try:
            readings[quantity] = _read_value(quantity, text, reader)
        except UserInputError as error:
            if error.code is ErrorCode.UNKNOWN_WORD:  # a field holds one value: say what a number looks like
                error = UserInputError(ErrorCode.NOT_A_NUMBER, token=error.token)
            errors[quantity] = error
    if errors:
        raise FieldErrors(errors)
    return _command_from(readings, locale)
