"""From the text a user typed, in their locale, to the quantities it names.

`parse_command` is pure: it takes the text and a Babel `Locale`, and returns a `Command` or raises
`UserInputError`; nothing else can come out of it.

Grammar (documented in the help reply):
    [DEVICES [THROUGHPUT [EFFICIENCY]]] [KEY=VALUE ...] [lang=TAG]
Positional numbers are devices, per-device throughput and efficiency, in that order, less those named.
Named values may stand in any order; `actual=` (the cluster's measured or wanted throughput) opens the inverse modes.
Unit and filler words name or confirm a number's quantity as a key does (`64 GPUs at 2000 img/s`: `bot.labels`);
every number is read by the rules of `bot.rules`, with the evidence of the whole command gathered first.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from babel import Locale

from bot.attachment import attach, has_words, mark_words
from bot.calculator import Quantity
from bot.errors import LANGUAGE, MENTION, ErrorCode, UserInputError
from bot.evidence import clue_marks
from bot.folding import folded
from bot.grammar import read_label
from bot.grouping import LABEL, join_percent_signs, join_space_groups, join_suffixes, split_keyed
from bot.keywords import help_words, keywords
from bot.numbers import SPACES, number_style, reader_modifier, resolve_locale, with_modifier
from bot.reading import SUFFIXES, Reader, Reading, own_styles, reader_for
from bot.values import Bare, read_value, value_marks
from bot.words import normalized_command, split_text, visible

__all__ = ["MAX_INPUT_LENGTH", "Command", "FieldErrors", "Note", "normalized_command", "parse_command",
           "parse_fields", "parse_words", "reader_of", "second_format", "split_words", "visible"]

MAX_INPUT_LENGTH = 500
HELP_WORDS = help_words()
POSITIONAL_ORDER = (Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY)
KEYWORDS = keywords()  # every shipped language's words (bot.keywords)
_MENTION = re.compile(r"@[^\W\d]|<@[A-Z0-9]")  # `@anna`, `<@U123>`: as Slack's text gives a colleague's mention
_STANDS_ALONE = re.compile(r"(?!0\d|0%?$)")  # `012`, `00`, `0%`: no number a user writes on its own


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
    unit: str | None = None  # the throughput's unit word as typed (`tokens/s`), which the reply keeps
    grammar: tuple[str, ...] = ()  # the rows of `bot.grammar` that decided where its labelled numbers go


def parse_command(text: str, locale: Locale) -> Command:
    """Parse the text after `/dpscale` (or after the bot's mention) for a user of `locale`."""
    words, reply_locale = split_words(text, locale)
    return parse_words(words, reply_locale, reader_of(reply_locale, locale), locale)


def split_words(text: str, locale: Locale) -> tuple[list[str], Locale]:
    """The command's words, and the locale to answer in: the user's, or the one a `lang=` word names (written
    for the same readers: an unknown reader or a channel stays so)."""
    if len(text) > MAX_INPUT_LENGTH:
        raise UserInputError(ErrorCode.TOO_LONG, high=str(MAX_INPUT_LENGTH))
    words = split_text(text)
    keyed = "=" in text or ":" in text or not text.isascii()  # `＝` is folded to `=` with the words
    chosen = _take_locale_override(words, locale) if keyed else locale
    if not SUFFIXES.keys().isdisjoint(words):
        words = join_suffixes(words)
    reply_locale = chosen if chosen is locale else with_modifier(chosen, reader_modifier(locale))
    if "%" in words:  # a `%` standing alone may go after the number where either format writes the sign first
        first = number_style(locale).percent_prefix or number_style(chosen).percent_prefix
        words = join_percent_signs(words, bool(first), reader_of(reply_locale, locale))
    return words, reply_locale


def reader_of(reply_locale: Locale, user_locale: Locale) -> Reader:
    """Whose numbers these are: the user's format, and the `lang=` one too when it chose another."""
    return reader_for(reply_locale, None if reply_locale == user_locale else user_locale)


def second_format(reply_locale: Locale, user_locale: Locale) -> Locale | None:
    """The user's own locale where a `lang=` word chose one whose format reads numbers otherwise: the examples a
    reply shows are then written so that both read them alike (`2000`, not `2.000`). None otherwise."""
    if reply_locale == user_locale or len(reader_of(reply_locale, user_locale).natives) < 2:
        return None
    return user_locale


def parse_words(words: list[str], locale: Locale, reader: Reader | None = None, user: Locale | None = None) -> Command:
    """The quantities (or the wish for help) that the words name, answered in `locale` and read by `reader`
    (by default, `locale`'s own), for a `user` whose own language's key words are no clue (by default, `locale`'s:
    a `lang=` word chose `locale`)."""
    if not words or (words[0].casefold().rstrip(",.!") in HELP_WORDS and not any(map(str.isnumeric, "".join(words)))):
        return Command(locale=locale, wants_help=True)  # `help`, and `help me`: words but no numbers after it
    reader = reader or reader_for(locale)
    readings: dict[Quantity, tuple[Reading, Bare | None]] = {}
    rows: list[str] = []
    spaced = all(style.group in SPACES for style in own_styles(locale))  # its reader groups digits with spaces
    words = join_space_groups(mark_words(words, rows) if has_words(words) else words, len(POSITIONAL_ORDER), spaced)
    attached = attach(words, rows) if any(LABEL in word for word in words) else None
    keyed = [_split_key(word) for word in (attached.words if attached else words)]
    placed = _placed(keyed, attached is not None, rows)
    clues = clue_marks([(each.key, each.value) for each in keyed], user or locale)
    evidence = clues + "".join(value_marks(quantity, raw, reader) for quantity, raw in placed.items())
    for quantity, raw in placed.items():
        readings[quantity] = read_value(quantity, raw, reader, evidence)
    return _command_from(readings, locale, attached.unit if attached else None, tuple(rows) if attached else ())


def _placed(keyed: list[_Word], labelled: bool, rows: list[str]) -> dict[Quantity, str]:
    """Where each value goes: a named or labelled one where its name says, a percentage to the efficiency
    (`90% 64 2000`), the other numbers to the values left in order (`bot.grammar`'s `bare_numbers_in_order`),
    unless a unit named a number out of that order: then two or more of them are asked about."""
    free = list(_unnamed_order(keyed))
    percents = [index for index, each in enumerate(keyed) if each.quantity is None and "%" in each.value]
    # beside a named value, or among fewer bare numbers than the three a command needs, a percentage is the
    # efficiency wherever it stands (`v=2000 90% 64`; `64 2000%` lacks a value, not a place for its `%`); among
    # three, one that could be an efficiency (`90% 64 2000`, never `64 2000% 90`)
    anywhere = any(each.quantity is not None for each in keyed) or len(keyed) < len(POSITIONAL_ORDER)
    percent_free = Quantity.EFFICIENCY in free and len(percents) == 1 and (
        anywhere or _could_be_percent(keyed[percents[0]].value))
    placed: dict[Quantity, str] = {}
    taken: dict[int, Quantity] = {}  # what each number without a name was placed as
    for index, (word, quantity, raw, _) in enumerate(keyed):
        if quantity is None:
            if not free:
                raise _too_many(keyed, index)
            left = [q for q in free if not (percent_free and q is Quantity.EFFICIENCY)]
            if not left and "%" not in raw:  # `64 2000 90 80%`: the percentage is the efficiency, 90 too many
                raise _too_many(keyed, max(index, percents[0]))
            quantity = taken[index] = Quantity.EFFICIENCY if percent_free and "%" in raw else (left or free)[0]
            free.remove(quantity)
        if quantity in placed:
            raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=word, quantity=quantity.value)
        placed[quantity] = raw
    if labelled:  # the rows of `bot.grammar` that placed the numbers no unit named
        rows.extend(["percent_sign"] if percent_free and Quantity.EFFICIENCY in taken.values() else [])
        rows.extend(["bare_numbers_in_order"] if any("%" not in keyed[i].value for i in taken) else [])
        _ask_out_of_order(keyed, {index: q for index, q in taken.items() if "%" not in keyed[index].value})
    return placed


def _could_be_percent(raw: str) -> bool:
    """Whether a percentage may be the efficiency wherever it stands: not `2000%`, which is none."""
    body = raw.strip("%").strip(SPACES)
    return not (body.isascii() and body.isdigit() and int(body) > 100)


def _ask_out_of_order(keyed: list[_Word], taken: dict[int, Quantity]) -> None:
    """Ask about the first of two or more numbers without a name where a unit named a number before it that comes
    later in the order (`2000 img/s 64 90`: 64 devices and 90 %, or 64 % and 90 devices?)."""
    if len(taken) < 2:
        return
    order = {quantity: place for place, quantity in enumerate(POSITIONAL_ORDER)}
    units = [(index, order.get(each.quantity, -1)) for index, each in enumerate(keyed)  # type: ignore[arg-type]
             if each.quantity is not None and "=" not in each.word and ":" not in each.word]
    for index, quantity in taken.items():
        if any(other < index and place > order[quantity] for other, place in units):
            raise UserInputError(ErrorCode.UNPLACED_NUMBER, token=keyed[index].word, rule="numbers_out_of_order",
                                 suggestions=tuple(f"{q.value}:{keyed[index].value}" for q in POSITIONAL_ORDER
                                                   if q in taken.values()))


def _too_many(keyed: list[_Word], extra: int) -> UserInputError:
    """The error for a bare number one more than the command can take (`keyed[extra]`), naming what is wrong: a
    number split by a space where its second part cannot stand alone (`20 00`, `9 0%`), else the bare numbers
    before an extra percentage (`64 1 50 90%`: the efficiency is clear, the space inside one number is not), else
    the extra number itself (`64 2000 90% 5`)."""
    bare = [index for index, each in enumerate(keyed) if each.quantity is None]
    for before, after in itertools.pairwise(bare):
        if after == before + 1 and not _STANDS_ALONE.match(keyed[after].value):
            return UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=f"{keyed[before].word} {keyed[after].word}",
                                  rule="part_that_cannot_stand_alone")
    run = list(itertools.takewhile(lambda index: keyed[index].quantity is None, range(extra - 1, -1, -1)))[::-1]
    joinable = any(len(keyed[a].value) <= 3 and len(keyed[b].value) <= 3 for a, b in itertools.pairwise(run))
    if keyed[extra].value.endswith("%") and len(run) > 1:  # `90%`; a Turkish `%5` may be the one too many
        if not joinable:  # `64 2000 90 80%`: no two of them are one number; the last before the sign is extra
            return UserInputError(ErrorCode.TOO_MANY_NUMBERS, token=keyed[run[-1]].word, rule="one_number_too_many")
        return UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=" ".join(keyed[index].word for index in run),
                              rule="numbers_before_the_percentage")
    return UserInputError(ErrorCode.TOO_MANY_NUMBERS, token=keyed[extra].word, rule="one_number_too_many")


def _unnamed_order(keyed: list[_Word]) -> tuple[Quantity, ...]:
    """What the unnamed numbers stand for: the quantities not named (`d=64 2000 90%`: 2000 is the throughput),
    unless there are too many of them for that."""
    named = [each.quantity for each in keyed if each.quantity in POSITIONAL_ORDER]
    if not named or sum(1 for each in keyed if each.quantity is None) + len(named) > len(POSITIONAL_ORDER):
        return POSITIONAL_ORDER
    return tuple(quantity for quantity in POSITIONAL_ORDER if quantity not in named)


def _take_locale_override(words: list[str], locale: Locale) -> Locale:
    """The locale a `lang=` word names (taken out of the words), else `locale`."""
    chosen = [(index, keyed[1]) for index, word in enumerate(words)
              if (keyed := split_keyed(word)) and keyed[0] in KEYWORDS and KEYWORDS[keyed[0]] is None]
    if not chosen:
        return locale
    if len(chosen) > 1:
        raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=words[chosen[1][0]], quantity=LANGUAGE)
    index, tag = chosen[0]
    if not tag:
        raise UserInputError(ErrorCode.MISSING_VALUE, token=words[index])
    del words[index]
    chosen_locale = resolve_locale(tag)
    if chosen_locale.language == "root":  # CLDR's root is no one's language
        raise UserInputError(ErrorCode.UNKNOWN_LOCALE, token=tag)
    return chosen_locale


class _Word(NamedTuple):
    """A word of a command: a value, named or not."""

    word: str  # as it stands in the command
    quantity: Quantity | None  # what its key names; None for a bare number
    value: str  # the value after its key, or the whole word
    key: str | None  # its key, casefolded (`durchsatz`); None for a bare number


def _split_key(word: str) -> _Word:
    """`key=value` or `key:value`, or a bare number."""
    if LABEL in word:  # `64` labelled `GPUs` (`bot.grammar`): named as `gpus=64` would be, shown as typed
        value, label = word.split(LABEL, 1)
        name, shown = read_label(LABEL + label)
        return _Word(f"{value} {shown}", Quantity(name), value, shown.casefold())
    keyed = split_keyed(word)
    if keyed is None:
        if _MENTION.match(word):  # `@anna`, `<@U123|anna>`: a colleague named in the text, never a number
            raise UserInputError(ErrorCode.NOT_A_NUMBER, token=word, reason=MENTION)
        if not any(map(str.isnumeric, word)):
            raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
        return _Word(word, None, word, None)
    key, value = keyed
    quantity = KEYWORDS.get(key)
    if quantity is None:
        raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
    if not value.strip("%").strip(SPACES):  # `efficiency=`, or `efficiency=%`: the number is missing
        raise UserInputError(ErrorCode.MISSING_VALUE, token=word, quantity=quantity.value)
    return _Word(word, quantity, value, key)


def _command_from(
    readings: dict[Quantity, tuple[Reading, Bare | None]], locale: Locale, unit: str | None = None,
    grammar: tuple[str, ...] = (),
) -> Command:
    notes = tuple(
        Note(quantity, reading, bare is Bare.PERCENT, bare is Bare.ONE)
        for quantity, (reading, bare) in readings.items()
        if reading.kind is not None or bare is not None
    )
    values = {quantity: reading.value for quantity, (reading, _) in readings.items()}
    tokens = {quantity: reading.token for quantity, (reading, _) in readings.items()}
    return Command(locale=locale, values=values, tokens=tokens, notes=notes, unit=unit, grammar=grammar)


class FieldErrors(Exception):
    """Errors of a form, one per field (quantity), so each can be shown under the field that is wrong."""

    def __init__(self, errors: dict[Quantity, UserInputError]) -> None:
        super().__init__(", ".join(f"{q.value}: {e.code.value}" for q, e in errors.items()))
        self.errors = errors


def parse_fields(fields: dict[Quantity, str | None], locale: Locale, reader: Reader | None = None) -> Command:
    """Read a form's fields, each holding one value read by `reader` (by default `locale`'s own: a form opened for a
    `lang=` result reads as its command did); empty fields are the ones to solve.

    Raises FieldErrors naming every field that cannot be read.
    """
    readings: dict[Quantity, tuple[Reading, Bare | None]] = {}
    errors: dict[Quantity, UserInputError] = {}
    reader = reader or reader_for(locale)
    # `％90` is `%90`; a zero-width space pasted along is gone, as in a command
    typed = {quantity: folded(visible(raw or "")).strip() for quantity, raw in fields.items()}
    filled = {quantity: text for quantity, text in typed.items() if text}
    evidence = clue_marks([(None, text) for text in filled.values()], locale) + "".join(
        value_marks(quantity, text, reader) for quantity, text in filled.items())
    for quantity, text in filled.items():
        try:
            readings[quantity] = read_value(quantity, text, reader, evidence)
        except UserInputError as error:
            if error.code is ErrorCode.UNKNOWN_WORD:  # a field holds one value: say what a number looks like
                error = UserInputError(ErrorCode.NOT_A_NUMBER, token=error.token, quantity=quantity.value)
            errors[quantity] = error
    if errors:
        raise FieldErrors(errors)
    return _command_from(readings, locale)
