"""The values a colleague's message states, read in its author's format, to fill the form with.

A message written as a command (`64 2.000 90 %`, `d=64 v=2k e=90%`) is read exactly as that command: the form
holds the values it names. Any other message ("64 GPUs, 115k samples/s, 2k on one") is read by the grammar of
labelled numbers that commands are read by (`bot.reader.grammar`), with what messages carry that commands do not:

1. numbers that are none of the four are left out before anything is read (`LEFT_OUT`: latency in ms, batch
   sizes, epochs and steps, dates and times, versions, model sizes such as `7B`, sequence lengths, utilisation);
2. a number is placed only where a unit or label names it (`64 GPUs`, `2000 img/s`, `90 %`, `efficiency 0,9`);
   a number nothing names is not placed, and is said to have been seen;
3. `1 GPU`, `single GPU`, `one card`, `each`: the rate is one device's (the throughput), never 100 %;
4. a lone rate `on 64 GPUs` (`64台で`) is the cluster's actual throughput; of two rates, the one said to be one
   device's is the throughput and the other the actual throughput;
5. the author's number format applies to every number, spaces between groups too (`115 200` from a French
   author; asked about for an author whose format does not group with spaces); scale words per language
   (`k`, `mil`, `Mio.`, `千`, `万`, `만`).

Three values are enough for the form: when all four are found, actual throughput is left for dpscale to solve.
A number the author's format does not settle, or one the grammar cannot place with certainty, is not placed but
asked about, with the engine's own question.

Pure: the text and its author (`bot.reader.recipient.Recipient`) in, an `Excerpt` out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from bot.errors import LANGUAGE, MENTION, NUMBER_FORMAT, ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.attachment import attach
from bot.reader.folding import folded
from bot.reader.grammar import GrammarRow, is_number, label_word, read_label
from bot.reader.grouping import BOUNDARY, LABEL, LIST_CUT
from bot.reader.grouping_rules import Grouping
from bot.reader.marking import mark_words
from bot.reader.numbers import SPACES
from bot.reader.parsing import FieldErrors, parse_command, parse_fields
from bot.reader.recipient import Recipient
from bot.reader.words import visible

__all__ = ["LEFT_OUT", "Excerpt", "MessageDoubt", "read_message"]

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL


class MessageDoubt(StrEnum):
    """The name a question only a message is asked carries (`UserInputError.rule`), beside the grammar's (`Doubt`)."""

    RANGE_OF_SIZES = "range_of_sizes"  # `from 8 to 64 GPUs`: which size a rate is for is not said
    TWO_NUMBERS_ONE_VALUE = "two_numbers_one_value"  # one value given twice: which is meant is not guessed


MAX_SCANNED = 2000  # characters of a message looked at: a long message's numbers are in its first lines
ASKED = frozenset({ErrorCode.AMBIGUOUS_NUMBER, ErrorCode.AMBIGUOUS_GROUPING, ErrorCode.UNPLACED_NUMBER})
_MARKUP = re.compile(r"<[^<>]*>|:[a-z0-9_+'-]+:|[*_~`]")  # links and mentions, emoji, styling
_N = r"\d+(?:[.,'’]\d{3})*"  # a number in a phrase left out: its groups, never a list's next number (`32,64`)
# numbers a message carries that are none of the four, by name: each left out before the message is read
LEFT_OUT: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("latency", re.compile(rf"(?i)\b(?:p\d{{2,3}}|latency|latenz|latence|latencia|latenza|latência)\b\D{{0,24}}?{_N}"
                           r"(?:\s*(?:ms|µs|us|s)\b)?|(?:レイテンシ|延迟|延遲|지연)\D{0,8}?\d[\d.,]*")),
    ("time_or_size_unit", re.compile(rf"(?i){_N}\s*(?:ms|µs|us|ns|seconds|secs?|minutes|mins?|min|hours|hrs?|h|"
                                     r"days?|GB|GiB|MB|MiB|TB|kW|W|°C|Minuten|Stunden|heures|horas|ore)(?![\w/])|"
                                     r"\d[\d.,]*\s*(?:秒|分|時間|小时|小時|초|분|시간)(?![/\w])")),
    ("batch_size", re.compile(rf"(?i)\b(?:global |micro[- ]?)?(?:batch(?:[ _-]?size)?|bs|gbs|mbs|Batchgröße|lot|lote|"
                              rf"batch)\s*(?:size\s*)?(?:of\s*|=\s*|:\s*|von\s*|de\s*)?{_N}k?(?:\s*(?:per|/|pro|par|por)\s*"
                              rf"(?:gpu|device|card|rank|worker)s?)?|(?:バッチサイズ|批大小|批量|"
                              r"배치\s*크기|배치)\s*[=:]?\s*\d[\d.,]*")),
    ("epochs_and_steps", re.compile(rf"(?i)\b(?:epochs?|steps?|iters?|iterations?|runs?|trials?|lauf|epochen?|époques?|"
                                    rf"épocas?|epoche|epoca)\s*#?{_N}|{_N}\s*(?:epochs?|steps?|Epochen|époques|épocas|"
                                    r"epoche)\b|#\d+|\b\d+:(?!\d)")),
    ("date_or_time", re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{1,2}:\d{2}\b|"
                                r"\d{4}年\d{1,2}月(?:\d{1,2}日)?|\d{1,2}月\d{1,2}日|\d{4}년|\d{1,2}월\s*\d{1,2}일")),
    ("version", re.compile(r"(?i)\bv?\d+\.\d+\.\d+\w*|\b(?:v|version|pytorch|torch|cuda|nccl|python|py|jax|"
                           r"deepspeed|megatron|cudnn|rocm)[\s-]?\d+(?:\.\d+)*")),
    ("model_size", re.compile(r"(?i)(?<![\w.,])\d+(?:[.,]\d+)?\s?b\b(?:\s*param\w*)?|-\d+(?:\.\d+)?[bm]\b")),
    ("sequence_length", re.compile(rf"(?i)\b(?:seq(?:uence)?[ _-]?len(?:gth)?|context(?: length)?|ctx|max_len)\s*"
                                   rf"(?:of\s*|=\s*|:\s*)?{_N}k?")),
    ("not_scaling_percentage", re.compile(r"(?i)\b(?:mfu|hfu|utili[sz]ation|util|memory|mem|auslastung|loss|"
                                          r"accuracy|acc|lr|learning rate|dropout|top-?\d|f1|bleu)\b\s*(?:of\s*|=\s*|"
                                          r":\s*|is\s*|was\s*)?[\d.,]+\s*%?")),
)
_ON_A_CLUSTER = re.compile(r"(?i)\b(?:on|across|auf|über|sur|en|su|em|com)\s+(?=\d[\d.,]*\s*(?:[^\W\d]+))|"
                           r"(?<=[台대枚])\s*(?:で|에서|로)|在(?=\s*\d)")
_ON = "\ue012"  # where `on` stood before a count of devices: the rate of the message is the cluster's
_WORD_BREAK = re.compile(r"[^\S\u00a0\u202f\u2007]+")  # a no-break space groups digits (`115 200`)
_EDGES = "()[]{}\"“”«»!?;:"
_WIDE_LIST = re.compile(r"[，、](?!\d{3}(?!\d))")  # `64台、2,000`: a list's comma as a CJK keyboard types it
_RANGE = re.compile(r"(?i)\b(?:from|von|de|desde|da)\s+\d+\s+(?:to|auf|bis|à|a|hasta|até)\s+\d+|\b\d+\s*(?:→|->)\s*\d+")
_NO_BREAK_GROUP = re.compile(r"(?<=\d)[\u00a0\u202f\u2007](?=\d{3}(?!\d))")
_GROUP = re.compile(r"\d{3}(?:[.,]\d+)?[kKMG]?%?")


@dataclass(frozen=True)
class Excerpt:
    """What a message states: its values (read in the author's format), the question about a number the format
    or the grammar did not settle, if any, and the numbers seen but not placed."""

    values: dict[Quantity, Decimal] = field(default_factory=dict)
    question: UserInputError | None = None
    seen: tuple[str, ...] = ()

    @property
    def found_nothing(self) -> bool:
        return not self.values and self.question is None


def read_message(text: str, author: Recipient) -> Excerpt:
    """The values `text` states for a writer of `author`'s format (which may be the unknown reader's)."""
    text = _MARKUP.sub(" ", text[:MAX_SCANNED])
    try:
        command = parse_command(text, author)
    except UserInputError as error:  # prose, or a command with a number in doubt: its other numbers still count
        return _without_the_doubt(text, author, error) or _read_prose(text, author)
    if command.wants_help:
        return _read_prose(text, author)
    values = dict(command.values)
    if len(values) == len(Quantity):
        del values[A]  # three are enough; the form solves the fourth
    return Excerpt(values=values)


def _without_the_doubt(text: str, author: Recipient, error: UserInputError, tries: int = 3) -> Excerpt | None:
    """A command with one number in doubt (`64 2.000 90 %` from an English author): its other values, and the
    question; a command with a mention or a `lang=` word that is no command's (`@anna 64 2000 90%`): the command
    without it. None where the text is no command even so."""
    if error.token and tries and (error.reason == MENTION or error.quantity in (LANGUAGE, NUMBER_FORMAT) or (
            error.code is ErrorCode.MISSING_VALUE)):
        without = re.sub(rf"(?<!\S){re.escape(error.token)}(?!\S)", " ", text, count=1)
        try:
            return Excerpt(values=dict(parse_command(without, author).values)) if without != text else None
        except UserInputError as again:
            return _without_the_doubt(without, author, again, tries - 1)
    if error.code is not ErrorCode.AMBIGUOUS_NUMBER or not error.token or not error.quantity:
        return None
    plain = re.sub(rf"(?<!\S){re.escape(error.token)}(?!\S)", "1", text, count=1)
    try:
        command = parse_command(plain, author)
    except UserInputError:
        return None
    values = {quantity: value for quantity, value in command.values.items() if quantity.value != error.quantity}
    return Excerpt(values=values, question=error)


def left_out(text: str) -> str:
    """The text without the numbers that are none of the four (`LEFT_OUT`)."""
    for _, pattern in LEFT_OUT:
        text = pattern.sub(f" {BOUNDARY} ", text)
    return text


def _read_prose(text: str, author: Recipient) -> Excerpt:
    held = _NO_BREAK_GROUP.sub("\ue000", _WIDE_LIST.sub(", ", visible(text)))  # `115 200`: one number
    if (series := _RANGE.search(held)) is not None:  # `from 8 to 64 GPUs`: which size a rate is for is not said
        return Excerpt(question=UserInputError(ErrorCode.UNPLACED_NUMBER, token=series.group(0),
                                               quantity=D.value, rule=MessageDoubt.RANGE_OF_SIZES))
    words = _prose_words(_ON_A_CLUSTER.sub(f" {_ON} ", left_out(folded(held).replace("\ue000", "\u202f"))))
    rows: list[GrammarRow] = []
    try:
        marked, doubt = _joined(mark_words(words, rows, prose=True), author)
        attached = attach(marked, rows, prose=True)
    except UserInputError as error:
        seen = tuple(word for word in words if is_number(word))
        return Excerpt(question=error if error.code in ASKED else None, seen=seen)
    placed: dict[Quantity, str] = {}
    question = doubt
    for word in attached.words:
        if LABEL not in word and is_number(word) and "%" in word and E not in placed:
            word += label_word(E, "%")  # a percentage is the efficiency (`bot.reader.grammar`'s `percent_sign`)
        if LABEL not in word:
            continue
        value, label = word.split(LABEL, 1)
        quantity = Quantity(read_label(LABEL + label)[0])
        if quantity in placed:  # the same value given twice in a message: which is meant is not guessed
            question = question or UserInputError(ErrorCode.UNPLACED_NUMBER, token=value, quantity=quantity.value,
                                                  rule=MessageDoubt.TWO_NUMBERS_ONE_VALUE, suggestions=(
                                                      f"{quantity.value}:{placed[quantity]}",
                                                      f"{quantity.value}:{value}"))
            placed[quantity] = ""
            continue
        placed[quantity] = value
    placed = {k: v for k, v in placed.items() if v}
    if not attached.per_device:
        placed = _on_a_cluster(words, placed)
    if len(placed) == len(Quantity):
        del placed[A]  # three are enough; the form solves the fourth
    seen = tuple(word for word in attached.words if LABEL not in word and is_number(word))
    return _checked(placed, author, question, seen)


def _prose_words(text: str) -> list[str]:
    """A message's words, with the marks around them gone (`(64`, `GPUs:`), and `,` that lists gone."""
    words: list[str] = []
    for word in _WORD_BREAK.split(text.strip()):
        word = word.strip(_EDGES)
        ends = word.endswith(",") or word.endswith(".") or word.endswith(";")
        word = word[:-1] if ends else word
        if word in ("%", "％") and words and is_number(words[-1]):
            words[-1] += "%"  # `90 %`
        elif word:
            words.append(word)
        if ends:
            words.append(LIST_CUT)  # a phrase ends at a comma: `per GPU, 64 GPUs`
    return words


def _joined(words: list[str], author: Recipient) -> tuple[list[str], UserInputError | None]:
    """The words with each group of three joined to the number before it where the author's format groups digits
    with spaces (`115 200` from a French author); where it does not, or is not known, neither is placed, and the
    question is why."""
    joined: list[str] = []
    question = None
    spaced = not author.is_unknown and author.style.group in SPACES
    for word in words:
        previous = joined[-1] if joined else ""
        if _GROUP.fullmatch(word) and re.fullmatch(r"\d{1,3}(?:\u202f\d{3})*", previous):
            if not spaced:
                question = question or UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=f"{previous} {word}",
                                                       rule=Grouping.GROUPED_OTHERWISE)
                joined[-1] = BOUNDARY
                continue
            joined[-1] = f"{previous}\u202f{word}"
            continue
        joined.append(word)
    return joined, question


def _on_a_cluster(words: list[str], given: dict[Quantity, str]) -> dict[Quantity, str]:
    """A lone rate `on 64 GPUs`: the cluster's actual throughput, not one device's (`_ON` before the count)."""
    if _ON in words and V in given and A not in given and D in given:
        given[A] = given.pop(V)
    return given


def _checked(placed: dict[Quantity, str], author: Recipient, question: UserInputError | None,
             seen: tuple[str, ...]) -> Excerpt:
    """The placed values read together, as the form will read them: one number can cast doubt on another
    (`1,234` beside `0,9`). A field in doubt is left empty and asked about; one that cannot be read, left empty."""
    while placed:
        try:
            command = parse_fields(dict(placed), author)
        except FieldErrors as errors:
            for quantity, error in errors.errors.items():
                if error.code in ASKED and question is None:
                    question = error
                placed.pop(quantity, None)
            continue
        return Excerpt(values=dict(command.values), question=question, seen=seen)
    return Excerpt(question=question, seen=seen)
