"""Reading a measurement series: one device's throughput and the cluster throughput measured at several sizes.

    v=2000 8=15800 16=31000 64=115200

Each measurement is `DEVICES=THROUGHPUT` (a `:` or a full-width `＝` does as well; the size may carry its word for
devices, `8卡=15800`, `8台=15800`, as the forecast's size may, `予測=128台`, and a throughput its unit,
`v=2000サンプル/秒`): a key that is a number is a cluster size, so a series can never be mistaken for a
command of named values, whose keys are words. The single
device's throughput is named like a value (`v=`, `throughput=`, `durchsatz=`, …) or written as the measurement of
one device, `1=2000`. Two to twelve sizes besides the single device, each once, in any order.

Every number goes through the command's own reading rules (`bot.reader.reading.read_number`, after
`bot.reader.parsing`'s splitting of the words, so `8=15 800` is one measurement where that format groups digits with
spaces): read as its writer meant it, or asked about; an error in a measurement names the measurement. A German
`8=15.800` is 15 800, as German writes it; `8=15.800` from a reader whose format is unknown is asked about. As a
command's, each number is read once, by the same bounds (`bot.reader.values.possible_for`), with the evidence of the
whole series gathered first:
`0,9` anywhere in it casts doubt on `1,234` written as dpscale writes it for an English user.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal

from bot.errors import ErrorCode, UserInputError
from bot.i18n import catalog_name
from bot.model.calculator import BOUNDS, Quantity, check
from bot.model.series import MAX_POINTS, MIN_POINTS
from bot.reader.evidence import clue_marks
from bot.reader.folding import folded, has_numeral
from bot.reader.grouping import BOUNDARY, LIST_CUT, join_space_groups, split_keyed
from bot.reader.keywords import forecast_words_of, keywords
from bot.reader.labels import label_of
from bot.reader.languages import LANGUAGES
from bot.reader.numbers import SPACES
from bot.reader.parsing import Note, visible
from bot.reader.reading import Reader, Reading, read_number, reader_for, token_marks
from bot.reader.recipient import Recipient
from bot.reader.values import possible_for

__all__ = [
    "SERIES_WORDS",
    "Measurement",
    "SeriesCommand",
    "SeriesFieldErrors",
    "is_series",
    "parse_series",
    "parse_series_fields",
    "wants_series_form",
]

# `/dpscale series` (or the word in the user's language) opens the form for a series
SERIES_WORDS = frozenset(word.casefold() for words in LANGUAGES.values() for word in words.series)
_KEYWORDS = keywords()
_LINE = re.compile(r"\s*([^=:]*?)\s*[=:]\s*(.*?)\s*")  # a form's row: `8 = 15 800`
_COUNTED = re.compile(r"(\d[\d.,'’\u202f]*?)\s*([^\d\s.,].*)")  # a size with a word on it: `8卡`, `8 GPUs`


@dataclass(frozen=True)
class Measurement:
    """One measured cluster size, as typed and as read."""

    pair: str  # as it stands in the command (`8=15.800`) or the form's row
    devices: Reading
    actual: Reading


@dataclass(frozen=True)
class SeriesCommand:
    """A series as the user wrote it, read: one device's throughput, and each cluster size's measurement."""

    recipient: Recipient
    throughput: Reading
    measurements: tuple[Measurement, ...]
    notes: tuple[Note, ...] = ()
    at: Reading | None = None  # `at=128`: a cluster size to forecast (`bot.model.forecast`)

    @property
    def pairs(self) -> list[tuple[Decimal, Decimal]]:
        return [(m.devices.value, m.actual.value) for m in self.measurements]


class SeriesFieldErrors(Exception):
    """Errors of the series form, one per field (`throughput` or `rows`), each shown under its own field."""

    def __init__(self, errors: dict[str, UserInputError]) -> None:
        super().__init__(", ".join(f"{field}: {error.code.value}" for field, error in errors.items()))
        self.errors = errors


def wants_series_form(text: str) -> bool:
    """`/dpscale series`: the word alone asks for the form with rows."""
    return folded(text).strip().casefold() in SERIES_WORDS


def is_series(words: list[str]) -> bool:
    """Whether the words are a series: some word's key is a number (`8=15800`), which no named value's is."""
    return any((keyed := split_keyed(word)) is not None and _is_size(keyed[0]) for word in words)


def _is_size(key: str) -> bool:
    """A cluster size's key (`8`, `1.024`), never a percentage (`90% =5` is a stray value, not a measurement)."""
    return has_numeral(key) and not any(sign in key for sign in "%٪％﹪‰")


def parse_series(words: list[str], recipient: Recipient) -> SeriesCommand:
    """The series the words name (`bot.reader.parsing.split_words`' words), read for `recipient` (as in
    `bot.reader.parsing.parse_words`); raises UserInputError naming the measurement that is wrong."""
    reader = reader_for(recipient)
    words = [word for word in words if word not in (LIST_CUT, BOUNDARY)]
    if words and folded(words[0]).casefold() in SERIES_WORDS:  # `series v=2000 8=15800 …`: the word says what follows
        words = words[1:]
    joined = join_space_groups(words, 0)  # `8=15 800`: one measurement, where spaces group digits
    keys = [(None if keyed is None or _is_size(keyed[0]) else keyed[0], keyed[1] if keyed else word)
            for word in words for keyed in [split_keyed(word)]]
    forecast = forecast_words_of(catalog_name(recipient.words)) | forecast_words_of(catalog_name(recipient.user.words))
    evidence = clue_marks(keys, recipient.user.words) + _marks(
        [number for word in joined for number in _numbers_of(word, forecast)], reader)
    throughput: tuple[str, Reading] | None = None
    measurements: list[Measurement] = []
    at: Reading | None = None
    for word in joined:
        read = _read_word(word, reader, evidence, forecast)
        if isinstance(read, tuple):
            if at is not None:
                raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=word, quantity=Quantity.DEVICES.value)
            at = read[1]
        elif isinstance(read, Measurement):
            measurements.append(read)
        elif throughput is not None:
            raise UserInputError(ErrorCode.DUPLICATE_QUANTITY, token=word, quantity=Quantity.THROUGHPUT.value)
        else:
            throughput = (word, read)
    return replace(_series_from(throughput, measurements, recipient), at=at)


def _numbers_of(word: str, forecast: frozenset[str]) -> list[tuple[Quantity, str]]:
    """The numbers a word of a series states, each with its quantity (none for a word that is no part of one)."""
    keyed = split_keyed(word)
    if keyed is None:
        return []
    if keyed[0] in forecast:
        return [(Quantity.DEVICES, keyed[1])]
    if _is_size(keyed[0]):
        return [(Quantity.DEVICES, keyed[0]), (Quantity.ACTUAL, keyed[1])]
    return [(Quantity.THROUGHPUT, keyed[1])] if _KEYWORDS.get(keyed[0]) is Quantity.THROUGHPUT else []


def _marks(numbers: list[tuple[Quantity, str]], reader: Reader) -> str:
    """What a series' numbers say of how its writer writes numbers: the evidence each of them is read with, as
    a command's values are (`bot.reader.values.value_marks`), gathered before any is read."""
    return "".join(token_marks(token.strip(SPACES), reader, possible_for(quantity)) for quantity, token in numbers)


def _read_word(word: str, reader: Reader, evidence: str,
               forecast: frozenset[str]) -> Measurement | Reading | tuple[str, Reading]:
    """A word of a series: a measurement (`8=15800`), one device's throughput (`v=2000`, or `1=2000`), or the
    size to forecast (`at=128`, as a pair; `forecast`: `bot.reader.keywords.forecast_words_of`)."""
    keyed = split_keyed(word)
    if keyed is not None and keyed[0] in forecast:
        size = _read(keyed[1], Quantity.DEVICES, word, reader, evidence)
        if size.value < 2:
            raise UserInputError(ErrorCode.OUT_OF_RANGE, token=size.token, pair=word, quantity=Quantity.DEVICES.value,
                                 low="2", high=str(BOUNDS[Quantity.DEVICES][1]))
        return (word, size)
    if keyed is not None and _is_size(keyed[0]):
        measurement = read_measurement(word, *keyed, reader, evidence)
        return measurement.actual if measurement.devices.value == 1 else measurement
    if keyed is not None and _KEYWORDS.get(keyed[0]) is Quantity.THROUGHPUT:
        return _read(keyed[1], Quantity.THROUGHPUT, word, reader, evidence)
    if keyed is not None and keyed[0] not in _KEYWORDS:
        raise UserInputError(ErrorCode.UNKNOWN_WORD, token=word)
    raise UserInputError(ErrorCode.SERIES_STRAY_WORD, token=word)


def parse_series_fields(throughput: str | None, rows: str | None, recipient: Recipient) -> SeriesCommand:
    """The series form's two fields: one device's throughput, and one measurement (`8 = 15800`) per line. Raises
    SeriesFieldErrors naming the field (and in it, the row) that is wrong."""
    reader = reader_for(recipient)
    text = folded(visible(throughput or "")).strip()
    lines = [folded(visible(line)).strip() for line in (rows or "").splitlines() if line.strip()]
    evidence = _form_evidence(text, lines, recipient, reader)
    errors: dict[str, UserInputError] = {}
    reading: Reading | None = None
    measurements: list[Measurement] = []
    try:
        if text:
            reading = _read(text, Quantity.THROUGHPUT, None, reader, evidence)
    except UserInputError as error:
        errors["throughput"] = error
    try:
        measurements = [_read_row(line, reader, evidence) for line in lines]
    except UserInputError as error:
        errors["rows"] = error
    if errors:
        raise SeriesFieldErrors(errors)
    try:
        return _series_from(None if reading is None else (text, reading), measurements, recipient)
    except UserInputError as error:
        field = "throughput" if error.code is ErrorCode.SERIES_NO_THROUGHPUT or (
            error.quantity == Quantity.THROUGHPUT.value and error.pair is None) else "rows"
        raise SeriesFieldErrors({field: error}) from None


def _form_evidence(throughput: str, rows: list[str], recipient: Recipient, reader: Reader) -> str:
    """What the form's numbers say of how its writer writes numbers, gathered before any of them is read."""
    pairs = [match.groups() for row in rows if (match := _LINE.fullmatch(row)) is not None]
    numbers = [(Quantity.THROUGHPUT, throughput)]
    for size, actual in pairs:
        numbers += [(Quantity.DEVICES, size), (Quantity.ACTUAL, actual)]
    clues = clue_marks([(None, throughput), *((None, actual.strip(SPACES)) for _, actual in pairs)], recipient.words)
    return clues + _marks(numbers, reader)


def _read_row(row: str, reader: Reader, evidence: str) -> Measurement:
    match = _LINE.fullmatch(row)
    if match is None or not match.group(1):
        raise UserInputError(ErrorCode.SERIES_STRAY_WORD, token=row)
    measurement = read_measurement(row, match.group(1), match.group(2), reader, evidence)
    if measurement.devices.value == 1:  # in the form, the single device has its own field
        raise UserInputError(ErrorCode.OUT_OF_RANGE, token=measurement.devices.token, pair=row,
                             quantity=Quantity.DEVICES.value, low="2", high=str(BOUNDS[Quantity.DEVICES][1]))
    return measurement


def read_measurement(pair: str, devices: str, actual: str, reader: Reader, evidence: str = "") -> Measurement:
    """One measurement: its devices (a word for devices on them goes: `8卡`, `8台`, `8 GPUs`) and its cluster
    throughput (its unit goes: `15800img/s`), each read by the command's rules with the series' `evidence`; an
    error in either names the measurement."""
    devices_read = _read(devices, Quantity.DEVICES, pair, reader, evidence)
    return Measurement(pair, devices_read, _read(actual, Quantity.ACTUAL, pair, reader, evidence))


def _without_unit(token: str, quantity: Quantity) -> str:
    """`token` without the word for its quantity written on it: a size's word for devices (`8卡`, `128台`,
    `8 GPUs`), a throughput's unit (`2000サンプル/秒`, `15800img/s`); any other word stays, to be named."""
    counted = _COUNTED.fullmatch(token)
    if counted is None:
        return token
    unit = counted.group(2)
    named = Quantity.THROUGHPUT if unit.casefold() in ("/s", "/sec") else label_of(unit)
    return counted.group(1) if named is (Quantity.DEVICES if quantity is Quantity.DEVICES else
                                         Quantity.THROUGHPUT) else token


def _read(token: str, quantity: Quantity, pair: str | None, reader: Reader, evidence: str) -> Reading:
    """`token` read once as `quantity`, by the command's rules, bounds and `evidence`, and held to its rule; an
    error carries the token, the quantity and the pair."""
    body = token.strip(SPACES)
    try:
        body = _without_unit(body, quantity)
        if not body:
            raise UserInputError(ErrorCode.MISSING_VALUE)
        if "%" in body:
            raise UserInputError(ErrorCode.PERCENT_NOT_ALLOWED)
        reading = read_number(body, reader, possible_for(quantity), evidence)
        check(quantity, reading.value)
    except UserInputError as error:
        raise replace(error, token=pair if error.code is ErrorCode.MISSING_VALUE and pair else body or token,
                      quantity=quantity.value, pair=pair) from None
    return reading


def _series_from(throughput: tuple[str, Reading] | None, measurements: list[Measurement],
                 recipient: Recipient) -> SeriesCommand:
    if throughput is None:
        raise UserInputError(ErrorCode.SERIES_NO_THROUGHPUT, quantity=Quantity.THROUGHPUT.value)
    if not MIN_POINTS <= len(measurements) <= MAX_POINTS:
        raise UserInputError(ErrorCode.SERIES_COUNT, low=str(MIN_POINTS), high=str(MAX_POINTS),
                             value=str(len(measurements)))
    seen: dict[Decimal, Measurement] = {}
    for measurement in measurements:
        earlier = seen.setdefault(measurement.devices.value, measurement)
        if earlier is not measurement:
            raise UserInputError(ErrorCode.SERIES_REPEATED_SIZE, token=measurement.pair,
                                 suggestions=(earlier.pair, measurement.pair), pair=measurement.pair)
    readings = [("throughput", throughput[1])]
    for m in measurements:
        readings += [(Quantity.DEVICES.value, m.devices), (Quantity.ACTUAL.value, m.actual)]
    notes = tuple(Note(Quantity(name), reading) for name, reading in readings if reading.kind is not None)
    return SeriesCommand(recipient, throughput[1], tuple(measurements), notes)
