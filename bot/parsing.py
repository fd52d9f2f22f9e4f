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

import re
from dataclasses import dataclass, field
from decimal import Decimal

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
from bot.placing import POSITIONAL_ORDER, Word, placed_values
from bot.reading import SUFFIXES, Reader, Reading, own_styles, reader_for
from bot.values import Bare, read_value, value_marks
from bot.words import normalized_command, split_text, visible

__all__ = ["MAX_INPUT_LENGTH", "Command", "FieldErrors", "Note", "normalized_command", "parse_command",
           "parse_fields", "parse_words", "reader_of", "second_format", "split_words", "visible"]

MAX_INPUT_LENGTH = 500
HELP_WORDS = help_words()
KEYWORDS = keywords()  # every shipped language's words (bot.keywords)
_MENTION = re.compile(r"@[^\W\d]|<@[A-Z0-9]")  # `@anna`, `<@U123>`: as Slack's text gives a colleague's mention


@dataclass(frozen=True)
class Note:
    """How one value was read, when the reply must say so."""

    quantity: Quantity
    reading: Reading
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
    marked = mark_words(words, rows) if has_words(words) and any(map(str.isnumeric, "".join(words))) else words
    words = join_space_groups(marked, len(POSITIONAL_ORDER),
                              lambda: all(style.group in SPACES for style in own_styles(locale)))
    for word in words if marked is not words else ():  # a word no row knows is named first, as in a bare command
        if word[:1] != LABEL:
            _split_key(word)
    attached = attach(words, rows) if any(LABEL in word for word in words) else None
    keyed = [_split_key(word) for word in (attached.words if attached else words)]
    placed = placed_values(keyed, attached is not None, rows)
    clues = clue_marks([(each.key, each.value) for each in keyed], user or locale)
    evidence = clues + "".join(value_marks(quantity, raw, reader) for quantity, raw in placed.items())
    for quantity, raw in placed.items():
        readings[quantity] = read_value(quantity, raw, reader, evidence)
    return _command_from(readings, locale, attached.unit if attached else None, tuple(rows))












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




def _split_key(word: str) -> Word:
    """`key=value` or `key:value`, or a bare number."""
    if LABEL in word:  # `64` labelled `GPUs` (`bot.grammar`): named as `gpus=64` would be, shown as typed
        value, label = word.split(LABEL, 1)
        name, shown = read_label(LABEL + label)
        return Word(f"{value} {shown}", Quantity(name), value, shown.casefold())
    keyed = split_keyed(word)
    if keyed is None:
        if _MENTION.match(word):  # `@anna`, `<@U123|anna>`: a colleague named in the text, never a number
            raise UserInputError(ErrorCode.NOT_A_NUMBER, token=word, reason=MENTION)
        if not any(map(str.isnumeric, word)):
            raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
        return Word(word, None, word, None)
    key, value = keyed
    quantity = KEYWORDS.get(key)
    if quantity is None:
        raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
    if not value.strip("%").strip(SPACES):  # `efficiency=`, or `efficiency=%`: the number is missing
        raise UserInputError(ErrorCode.MISSING_VALUE, token=word, quantity=quantity.value)
    return Word(word, quantity, value, key)


def _command_from(
    readings: dict[Quantity, tuple[Reading, Bare | None]], locale: Locale, unit: str | None = None,
    grammar: tuple[str, ...] = (),
) -> Command:
    notes = tuple(
        Note(quantity, reading, bare_one=bare is Bare.ONE)
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
