"""From the text a user typed, in their locale, to the quantities it names.

`parse_command` is pure: it takes the text and its reader (`bot.reader.recipient.Recipient`), and returns a `Command` or
raises
`UserInputError`; nothing else can come out of it.

Grammar (documented in the help reply):
    [DEVICES [THROUGHPUT [EFFICIENCY]]] [KEY=VALUE ...] [lang=TAG]
Positional numbers are devices, per-device throughput and efficiency, in that order, less those named.
Named values may stand in any order; `actual=` (the cluster's measured or wanted throughput) opens the inverse modes.
Unit and filler words name or confirm a number's quantity as a key does (`64 GPUs at 2000 img/s`: `bot.reader.labels`);
every number is read by the rules of `bot.reader.rules`, with the evidence of the whole command gathered first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from babel import Locale

from bot.errors import LANGUAGE, MENTION, ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.attachment import attach
from bot.reader.evidence import clue_marks
from bot.reader.folding import folded, has_numeral
from bot.reader.grammar import GrammarRow, read_label
from bot.reader.grouping import LABEL, join_space_groups, split_keyed
from bot.reader.keywords import TARGET_WORDS, forecast_words, help_words, keywords
from bot.reader.marking import has_words, mark_words
from bot.reader.numbers import SPACES, resolve_locale
from bot.reader.placing import POSITIONAL_ORDER, Word, placed_values
from bot.reader.reading import SUFFIXES, Reading, reader_for
from bot.reader.recipient import Recipient, RecipientLike, as_recipient
from bot.reader.signs import join_percent_signs, join_suffixes
from bot.reader.values import Bare, read_value, value_marks
from bot.reader.words import normalized_command, split_text, visible

__all__ = ["MAX_INPUT_LENGTH", "Command", "FieldErrors", "Note", "normalized_command", "parse_command",
           "parse_fields", "parse_words", "split_words", "visible"]

MAX_INPUT_LENGTH = 500
HELP_WORDS = help_words()
KEYWORDS = keywords()  # every shipped language's words (bot.reader.keywords)
_MENTION = re.compile(r"@[^\W\d]|<@[A-Z0-9]")  # `@anna`, `<@U123>`: as Slack's text gives a colleague's mention


@dataclass(frozen=True)
class Note:
    """How one value was read, when the reply must say so."""

    quantity: Quantity
    reading: Reading
    bare_one: bool = False  # an efficiency of exactly 1 typed without %: the whole, 100 %


@dataclass(frozen=True)
class Command:
    """What the user asked: three quantities (or help), for the recipient whose numbers were read."""

    recipient: Recipient
    values: dict[Quantity, Decimal] = field(default_factory=dict)
    tokens: dict[Quantity, str] = field(default_factory=dict)
    notes: tuple[Note, ...] = ()
    wants_help: bool = False
    unit: str | None = None  # the throughput's unit word as typed (`tokens/s`), which the reply keeps
    grammar: tuple[GrammarRow, ...] = ()  # the rows of `bot.reader.grammar` that decided where its labelled numbers go
    aimed: bool = False  # the cluster's throughput was named as a target (`target=`, `ziel=`), not as measured


def parse_command(text: str, recipient: RecipientLike) -> Command:
    """Parse the text after `/dpscale` (or after the bot's mention) for `recipient`."""
    return parse_words(*split_words(text, as_recipient(recipient)))


def split_words(text: str, recipient: Recipient) -> tuple[list[str], Recipient]:
    """The command's words, and the recipient to answer: `recipient`, or the one a `lang=` word makes (written
    for the same readers: an unknown reader or a channel stays so; `Recipient.answering_in`)."""
    if len(text) > MAX_INPUT_LENGTH:
        raise UserInputError(ErrorCode.TOO_LONG, high=str(MAX_INPUT_LENGTH))
    words = split_text(text)
    keyed = "=" in text or ":" in text or not text.isascii()  # `＝` is folded to `=` with the words
    chosen = _take_locale_override(words) if keyed else None
    if not SUFFIXES.keys().isdisjoint(words):
        words = join_suffixes(words)
    reply = recipient if chosen is None else recipient.answering_in(chosen)
    if "%" in words:  # a `%` standing alone may go after the number where either format writes the sign first
        first = recipient.format_style.percent_prefix or reply.format_style.percent_prefix
        words = join_percent_signs(words, bool(first), reader_for(reply))
    return words, reply


def parse_words(words: list[str], recipient: Recipient) -> Command:
    """The quantities (or the wish for help) that the words name, for `recipient` (whose `own`, where a `lang=`
    word chose its language, reads numbers too, and whose own language's key words are then no clue)."""
    if not words or (words[0].casefold().rstrip(",.!") in HELP_WORDS and not has_numeral("".join(words))):
        return Command(recipient=recipient, wants_help=True)  # `help`, and `help me`: words but no numbers after it
    reader = reader_for(recipient)
    readings: dict[Quantity, tuple[Reading, Bare | None]] = {}
    rows: list[GrammarRow] = []
    typed = " ".join(words)
    marked = mark_words(words, rows) if has_words(words) and has_numeral("".join(words)) else words
    words = join_space_groups(marked, len(POSITIONAL_ORDER),
                              lambda: all(style.group in SPACES for style in recipient.own_styles))
    for word in words if marked is not words else ():  # a word no row knows is named first, as in a bare command
        if word[:1] != LABEL:
            _split_key(word)
    attached = attach(words, rows) if any(LABEL in word for word in words) else None
    keyed = [_split_key(word, typed) for word in (attached.words if attached else words)]
    placed = placed_values(keyed, attached is not None, rows)
    clues = clue_marks([(each.key, each.value) for each in keyed], recipient.user.words)
    evidence = clues + "".join(value_marks(quantity, raw, reader) for quantity, raw in placed.items())
    for quantity, raw in placed.items():
        readings[quantity] = read_value(quantity, raw, reader, evidence)
    aimed = Quantity.ACTUAL in placed and any(each.key in TARGET_WORDS for each in keyed)  # `target=200000`
    return _command_from(readings, recipient, attached.unit if attached else None, tuple(rows), aimed)


def _take_locale_override(words: list[str]) -> Locale | None:
    """The locale a `lang=` word names (taken out of the words), else None."""
    chosen = [(index, keyed[1]) for index, word in enumerate(words)
              if (keyed := split_keyed(word)) and keyed[0] in KEYWORDS and KEYWORDS[keyed[0]] is None]
    if not chosen:
        return None
    if len(chosen) > 1:
        raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=words[chosen[1][0]], quantity=LANGUAGE)
    index, tag = chosen[0]
    if not tag:
        raise UserInputError(ErrorCode.MISSING_VALUE, token=words[index])
    del words[index]
    # an audience after the tag is the reader's, not the language's: the reply is written for the same readers
    chosen_locale = resolve_locale(tag.removesuffix("@unknown").removesuffix("@channel"))
    if chosen_locale.language == "root":  # CLDR's root is no one's language
        raise UserInputError(ErrorCode.UNKNOWN_LOCALE, token=tag)
    return chosen_locale


def _split_key(word: str, typed: str = "") -> Word:
    """`key=value` or `key:value`, or a bare number; a labelled one shown as `typed` has it: `128台`, `64 GPUs`."""
    if LABEL in word:  # `64` labelled `GPUs` (`bot.reader.grammar`): named as `gpus=64` would be, shown as typed
        value, label = word.split(LABEL, 1)
        name, shown = read_label(LABEL + label)
        on = re.search(rf"(?<![\d.,]){re.escape(value + shown)}", typed)  # the unit written on its number
        return Word(f"{value}{'' if on else ' '}{shown}", Quantity(name), value, shown.casefold())
    keyed = split_keyed(word)
    if keyed is None:
        if _MENTION.match(word):  # `@anna`, `<@U123|anna>`: a colleague named in the text, never a number
            raise UserInputError(ErrorCode.NOT_A_NUMBER, token=word, reason=MENTION)
        if not has_numeral(word):
            raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
        return Word(word, None, word, None)
    key, value = keyed
    quantity = KEYWORDS.get(key)
    if quantity is None and key in forecast_words():  # `at=128`: a forecast, which only a series can make
        raise UserInputError(ErrorCode.FORECAST_WITHOUT_SERIES, token=word)
    if quantity is None:
        raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
    if not value.strip("%").strip(SPACES):  # `efficiency=`, or `efficiency=%`: the number is missing
        raise UserInputError(ErrorCode.MISSING_VALUE, token=word, quantity=quantity.value)
    return Word(word, quantity, value, key)


def _command_from(
    readings: dict[Quantity, tuple[Reading, Bare | None]], recipient: Recipient, unit: str | None = None,
    grammar: tuple[GrammarRow, ...] = (), aimed: bool = False,
) -> Command:
    notes = tuple(
        Note(quantity, reading, bare_one=bare is Bare.ONE)
        for quantity, (reading, bare) in readings.items()
        if reading.kind is not None or bare is not None
    )
    values = {quantity: reading.value for quantity, (reading, _) in readings.items()}
    tokens = {quantity: reading.token for quantity, (reading, _) in readings.items()}
    return Command(recipient=recipient, values=values, tokens=tokens, notes=notes, unit=unit, grammar=grammar,
                   aimed=aimed)


class FieldErrors(Exception):
    """Errors of a form, one per field (quantity), so each can be shown under the field that is wrong."""

    def __init__(self, errors: dict[Quantity, UserInputError]) -> None:
        super().__init__(", ".join(f"{q.value}: {e.code.value}" for q, e in errors.items()))
        self.errors = errors


def parse_fields(fields: dict[Quantity, str | None], recipient: Recipient) -> Command:
    """Read a form's fields, each holding one value read for `recipient` (with its `own`: a form opened for a
    `lang=` result reads as its command did); empty fields are the ones to solve.

    Raises FieldErrors naming every field that cannot be read.
    """
    readings: dict[Quantity, tuple[Reading, Bare | None]] = {}
    errors: dict[Quantity, UserInputError] = {}
    reader = reader_for(recipient)
    # `％90` is `%90`; a zero-width space pasted along is gone, as in a command
    typed = {quantity: folded(visible(raw or "")).strip() for quantity, raw in fields.items()}
    filled = {quantity: text for quantity, text in typed.items() if text}
    evidence = clue_marks([(None, text) for text in filled.values()], recipient.words) + "".join(
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
    return _command_from(readings, recipient)
