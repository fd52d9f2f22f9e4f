"""From the text a user typed, in their locale, to the quantities it names.

`parse_command` is pure: it takes the text and a Babel `Locale`, and returns a `Command` or raises
`UserInputError`; nothing else can come out of it.

Grammar (documented in the help reply):
    [DEVICES [THROUGHPUT [EFFICIENCY]]] [KEY=VALUE ...] [lang=TAG]
Positional numbers are devices, per-device throughput and efficiency, in that order, less those named.
Named values may stand in any order; `actual=` (the cluster's measured or wanted throughput) opens the inverse modes.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from babel import Locale

from bot.calculator import Quantity
from bot.clues import clue_marks
from bot.errors import LANGUAGE, ErrorCode, UserInputError
from bot.glyphs import folded
from bot.grouping import BOUNDARY, LIST_CUT, join_percent_signs, join_space_groups, join_suffixes, split_keyed
from bot.keywords import help_words, keywords
from bot.numbers import NARROW_SPACE, SPACES, number_style, reader_modifier, resolve_locale, with_modifier
from bot.reading import SUFFIXES, Reader, Reading, confirm_house_forms, reader_for
from bot.values import Bare, read_value

MAX_INPUT_LENGTH = 500
HELP_WORDS = help_words()
POSITIONAL_ORDER = (Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY)
KEYWORDS = keywords()  # every shipped language's words (bot.keywords)
_LEADING_MENTION = re.compile(r"^\s*<@[A-Z0-9]+(?:\|[^>]*)?>")  # a bot mention the caller left in
# `e = 90%`; but `e= lang=de` is two words, and so is a key beside where an emoji stood (`e= :fire: 90%`)
_KEY_VALUE = re.compile(rf"(?<!{BOUNDARY})\s*([=:])(?:\s+(?![^\s=:]+[=:]|{BOUNDARY}))?")
_EMOJI = re.compile(r"(?<!\S)(?::[a-z0-9_+'-]+:)+(?!\S)")  # Slack's emoji (`:fire:`), standing alone
EMOJI_STAND_IN = ":_:"  # an emoji as the normalized text writes it: read again, it is one
_LIST_SEPARATOR = re.compile(r"(?<=[\d%kKMG万萬만亿億억])[,;](?=\s)|(?<!\S)[,;](?!\S)")  # `64, 2k, 90 %`, `64 , 2000`
_TRAILING_SEPARATOR = re.compile(r"(?<=[\d%])[,;]\s*$")  # `64 2000 90%,`: nothing listed after it
_OPENING_SEPARATOR = re.compile(r"(?<!\S)[,;](?=[\d%])")  # `64, 2000 ,90%`: in a list, `,90%` is no decimal
_NO_BREAK_GROUP = re.compile(r"(?<=\d)[\u00a0\u202f\u2007](?=\d{3}(?!\d))")
_HELD = "\ue000"  # a no-break group space, held through folding and splitting (a private-use character)


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
    return parse_words(words, reply_locale, reader_of(reply_locale, locale), locale)


def split_words(text: str, locale: Locale) -> tuple[list[str], Locale]:
    """The command's words, and the locale to answer in: the user's, or the one a `lang=` word names (written
    for the same readers: an unknown reader or a channel stays so)."""
    if len(text) > MAX_INPUT_LENGTH:
        raise UserInputError(ErrorCode.TOO_LONG, high=str(MAX_INPUT_LENGTH))
    words = _split_words(text)
    keyed = "=" in text or ":" in text or not text.isascii()  # `＝` is folded to `=` with the words
    chosen = _take_locale_override(words, locale) if keyed else locale
    if not SUFFIXES.keys().isdisjoint(words):
        words = join_suffixes(words)
    reply_locale = chosen if chosen is locale else with_modifier(chosen, reader_modifier(locale))
    if "%" in words:  # a `%` standing alone may go after the number where either format writes the sign first
        first = number_style(locale).percent_prefix or number_style(chosen).percent_prefix
        words = join_percent_signs(words, bool(first), reader_of(reply_locale, locale))
    return words, reply_locale


def normalized_command(text: str) -> str:
    """The text as the parser reads it (control characters gone, spaces and compatibility forms folded, Slack's
    escapes undone): it parses as `text` does, and is what a result's buttons carry."""
    return " ".join(_split_words(text)).replace(f" {LIST_CUT}", ",").replace(BOUNDARY, EMOJI_STAND_IN)


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
    keyed = [_split_key(word) for word in join_space_groups(words, len(POSITIONAL_ORDER))]
    free = list(_unnamed_order(keyed))
    # beside a named value, or among fewer bare numbers than the three a command needs, a percentage is the
    # efficiency wherever it stands (`v=2000 90% 64`; `64 90%` lacks the throughput, not a place for its `%`)
    anywhere = any(each.quantity is not None for each in keyed) or len(keyed) < len(POSITIONAL_ORDER)
    for word, quantity, raw, _ in keyed:
        if quantity is None:
            if not free:
                raise UserInputError(ErrorCode.TOO_MANY_NUMBERS, token=word)
            percent = anywhere and "%" in raw and Quantity.EFFICIENCY in free
            quantity = Quantity.EFFICIENCY if percent else free[0]
            free.remove(quantity)
        if quantity in readings:
            raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=word, quantity=quantity.value)
        readings[quantity] = read_value(quantity, raw, reader)
    clues = clue_marks([(each.key, each.value) for each in keyed], user or locale)
    return _command_from(readings, locale, clues)


def _unnamed_order(keyed: list[_Word]) -> tuple[Quantity, ...]:
    """What the unnamed numbers stand for: the quantities not named (`d=64 2000 90%`: 2000 is the throughput),
    unless there are too many of them for that."""
    named = [each.quantity for each in keyed if each.quantity in POSITIONAL_ORDER]
    if not named or sum(1 for each in keyed if each.quantity is None) + len(named) > len(POSITIONAL_ORDER):
        return POSITIONAL_ORDER
    return tuple(quantity for quantity in POSITIONAL_ORDER if quantity not in named)


def _split_words(text: str) -> list[str]:
    """The words, with a percent sign standing alone still a word of its own (`split_words` joins it to its
    number, once it knows the formats the numbers are read in)."""
    if "&" in text:  # each step only where it has something to do: most commands are a few plain numbers
        text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    text = _LEADING_MENTION.sub(" ", text)
    if not text.isprintable():
        text = visible(text)
    if not text.isascii():  # a no-break space between digits only groups them: `28 800` as dpscale writes it
        text = _NO_BREAK_GROUP.sub(_HELD, text)
    text = folded(text)
    if ":" in text:  # an emoji says nothing about the numbers, and its colons are no key's; no groups join across it
        text = _EMOJI.sub(f" {BOUNDARY} ", text)
    if "=" in text or ":" in text:
        text = _KEY_VALUE.sub(r"\1", text)
    if ", " in text or " ," in text or ";" in text or text.endswith(","):  # `64, 2000, 90%`: no number ends with a
        # mark, so one there lists them (spaces are all plain ones by now; `2,000` alone never looks further)
        text = _LIST_SEPARATOR.sub(f" {LIST_CUT} ", _TRAILING_SEPARATOR.sub("", text))
        if LIST_CUT in text or len(_OPENING_SEPARATOR.findall(text)) > 1:  # a list, its commas before the items
            text = _OPENING_SEPARATOR.sub(f" {LIST_CUT} ", text)
    words = text.split()
    if _HELD in text:
        words = [word.replace(_HELD, NARROW_SPACE) for word in words]
    return words


def visible(text: str) -> str:
    """Control, format and odd space characters (a zero-width space, a direction mark) as plain spaces: a space,
    never nothing, so that `64\u200b2000` is never read as one number."""
    return "".join(" " if unicodedata.category(c)[0] in "CZ" and c not in SPACES else c for c in text)


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
    keyed = split_keyed(word)
    if keyed is None:
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


def _command_from(readings: dict[Quantity, tuple[Reading, Bare | None]], locale: Locale, clues: str) -> Command:
    notes = tuple(
        Note(quantity, reading, bare is Bare.PERCENT, bare is Bare.ONE)
        for quantity, (reading, bare) in readings.items()
        if reading.kind is not None or bare is not None
    )
    if notes or clues:  # a number read in another format is noted: it, or a clue, may cast doubt on the others
        confirm_house_forms([(quantity.value, reading) for quantity, (reading, _) in readings.items()], clues)
    values = {quantity: reading.value for quantity, (reading, _) in readings.items()}
    tokens = {quantity: reading.token for quantity, (reading, _) in readings.items()}
    return Command(locale=locale, values=values, tokens=tokens, notes=notes)


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
    for quantity, text in typed.items():
        if not text:
            continue
        try:
            readings[quantity] = read_value(quantity, text, reader)
        except UserInputError as error:
            if error.code is ErrorCode.UNKNOWN_WORD:  # a field holds one value: say what a number looks like
                error = UserInputError(ErrorCode.NOT_A_NUMBER, token=error.token, quantity=quantity.value)
            errors[quantity] = error
    if errors:
        raise FieldErrors(errors)
    try:
        return _command_from(readings, locale, clue_marks([(None, text) for text in typed.values() if text], locale))
    except UserInputError as error:  # a number another field casts doubt on: asked about under its own field
        raise FieldErrors({Quantity(error.quantity or Quantity.THROUGHPUT): error}) from None
