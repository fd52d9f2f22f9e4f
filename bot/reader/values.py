"""One value of a command, read for the quantity it stands for: a percent sign only on the efficiency, a bare
efficiency from 10 to 100 read as a percentage (one above 1 and below 10, such as `1.5`, is refused: no
fraction, and hardly a percentage anyone measured), and only readings that could be meant for that quantity offered."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from enum import StrEnum

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.folding import has_numeral
from bot.reader.numbers import SPACES
from bot.reader.reading import Reader, Reading, read_number, token_marks

BARE_PERCENT_FROM = Decimal(10)  # a bare efficiency from here to 100 is a percentage; above 1 and below it, refused


class Bare(StrEnum):
    """How an efficiency typed without a percent sign was read, when the reply must say so."""

    PERCENT = "percent"  # above 1: a percentage
    ONE = "one"  # exactly 1: the whole, 100 %


def possible_for(quantity: Quantity) -> Callable[[Decimal], bool]:
    """Whether a value could be meant for `quantity` at all (efficiency as typed: a fraction or a percentage).

    No upper bound but the efficiency's: a reader whose own formats disagree (the unknown format, es-LA) is asked
    about `2,000k` devices rather than given the one reading under the limit, which its writer may not have meant.
    """
    return _POSSIBLE.get(quantity, _positive)


def _positive(value: Decimal) -> bool:
    return value > 0


_POSSIBLE: dict[Quantity, Callable[[Decimal], bool]] = {
    Quantity.DEVICES: lambda value: value >= 1 and value == value.to_integral_value(),
    Quantity.EFFICIENCY: lambda value: 0 < value <= 100,
}


def read_value(quantity: Quantity, raw: str, reader: Reader, evidence: str = "") -> tuple[Reading, Bare | None]:
    """`raw` read as a value of `quantity` (`evidence` as for `bot.reader.reading.read_number`), with how a bare
    efficiency was read."""
    has_percent, body = _sign_off(quantity, raw)
    try:
        reading = read_number(body, reader, possible_for(quantity), evidence)
    except UserInputError as error:
        readings = error.readings
        if quantity is Quantity.EFFICIENCY:  # as fractions, the way the efficiency is read
            readings = tuple(v / 100 if has_percent or v > 1 else v for v in readings)
        raise replace(error, token=raw, quantity=quantity.value, readings=readings) from None
    if reading.token != raw:  # a percent sign taken off: the reading names the token as typed
        reading = Reading(raw, reading.value, reading.kind, reading.alternative, reading.rule)
    if quantity is not Quantity.EFFICIENCY:
        return reading, None
    if has_percent:
        return _scaled(reading, Decimal("0.01")), None
    if 1 < reading.value < BARE_PERCENT_FROM:
        raise UserInputError(ErrorCode.UNCLEAR_EFFICIENCY, token=raw, quantity=quantity.value,
                             low=str(BARE_PERCENT_FROM / 100), readings=(reading.value / 100,))
    if reading.value > 1:
        return _scaled(reading, Decimal("0.01")), Bare.PERCENT
    if reading.value == 1:
        return reading, Bare.ONE
    return reading, None


def value_marks(quantity: Quantity, raw: str, reader: Reader) -> str:
    """What `raw`, a value of `quantity`, says of how its writer writes numbers (`bot.reader.reading.token_marks`)."""
    if raw.isascii() and raw.rstrip("%").isdigit():  # `64`, `90%`: read alike by every format
        return ""
    try:
        _, body = _sign_off(quantity, raw)
    except UserInputError:
        return ""
    return token_marks(body, reader, possible_for(quantity))


def _sign_off(quantity: Quantity, raw: str) -> tuple[bool, str]:
    """Whether `raw` has a percent sign, and the number without it; raises where there is no number, or a sign on
    another quantity than the efficiency."""
    has_percent = raw.endswith("%") or raw.startswith("%")
    body = raw.strip("%").strip(SPACES) if has_percent else raw
    if not body or not has_numeral(body):
        raise UserInputError(ErrorCode.UNKNOWN_WORD, token=raw)
    if has_percent and quantity is not Quantity.EFFICIENCY:
        raise UserInputError(ErrorCode.PERCENT_NOT_ALLOWED, token=raw, quantity=quantity.value)
    return has_percent, body


def _scaled(reading: Reading, factor: Decimal) -> Reading:
    alternative = None if reading.alternative is None else reading.alternative * factor
    return Reading(reading.token, reading.value * factor, reading.kind, alternative, reading.rule)
