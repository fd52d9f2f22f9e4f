"""The one error type a user can cause: it carries data, and the message layer turns it into words."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

__all__ = ["ErrorCode", "LANGUAGE", "MENTION", "NUMBER_FORMAT", "UserInputError"]


class ErrorCode(StrEnum):
    TOO_LONG = "too_long"
    UNKNOWN_WORD = "unknown_word"
    NOT_A_NUMBER = "not_a_number"
    NOT_PLAIN_DIGITS = "not_plain_digits"
    AMBIGUOUS_NUMBER = "ambiguous_number"
    AMBIGUOUS_GROUPING = "ambiguous_grouping"
    UNKNOWN_SUFFIX = "unknown_suffix"
    TOO_MANY_NUMBERS = "too_many_numbers"
    DUPLICATE_QUANTITY = "duplicate_quantity"
    MISSING_VALUE = "missing_value"
    NOT_ENOUGH_QUANTITIES = "not_enough_quantities"
    TOO_MANY_QUANTITIES = "too_many_quantities"
    DEVICES_NOT_WHOLE = "devices_not_whole"
    OUT_OF_RANGE = "out_of_range"
    PERCENT_NOT_ALLOWED = "percent_not_allowed"
    ACTUAL_ABOVE_IDEAL = "actual_above_ideal"
    UNKNOWN_LOCALE = "unknown_locale"
    UNKNOWN_UNIT = "unknown_unit"  # a unit after a number that dpscale does not read (`2000 TFLOPS`)
    UNPLACED_NUMBER = "unplaced_number"  # a number the grammar cannot place with certainty (`bot.reader.grammar`)
    UNCLEAR_EFFICIENCY = "unclear_efficiency"  # bare, above 1 and below 10: no fraction, hardly a percentage
    FORECAST_WITHOUT_SERIES = "forecast_without_series"  # `at=128` in a single calculation: only a series forecasts
    # a measurement series (`bot.reader.series_syntax`)
    SERIES_COUNT = "series_count"
    SERIES_NO_THROUGHPUT = "series_no_throughput"
    SERIES_REPEATED_SIZE = "series_repeated_size"
    SERIES_STRAY_WORD = "series_stray_word"


LANGUAGE = "lang"  # what a `lang=` word's error is about (`UserInputError.quantity`), beside the four quantities
NUMBER_FORMAT = "format"  # and a `format=` word's
MENTION = "mention"  # a `reason`: the token is a mention of someone (`@anna`, `<@U123>`), not a number or a word


@dataclass(eq=False)
class UserInputError(Exception):
    """Raised for anything wrong with what the user typed.

    `token` is the user's own text (escaped by the renderer, never trusted), `quantity` the field it was meant
    for, `low`/`high` the bounds of the violated rule, `suggestions` values the user may have meant,
    and `readings`/`reason` the values an ambiguous number can mean and why it could not simply be read. When a
    *solved* value breaks a rule, `value` is what it came out at and `cause` the input it was solved from.
    """

    code: ErrorCode
    token: str | None = None
    quantity: str | None = None
    low: str | None = None
    high: str | None = None
    suggestions: tuple[str, ...] = field(default_factory=tuple)
    readings: tuple[Decimal, ...] = field(default_factory=tuple)  # every value an ambiguous number can mean
    reason: str | None = None  # why it was asked about rather than read (`bot.reader.numbers.AskReason`)
    value: str | None = None  # a solved value that broke the rule, as computed
    cause: str | None = None  # the given quantity a solved value was computed from
    rule: str | None = None  # the row that asked or refused: `ReadingRule`, `Grouping`, `Doubt` or `MessageDoubt`
    pair: str | None = None  # in a measurement series: the measurement (`8=15800`) the error is in, as typed

    def __str__(self) -> str:  # for logs only; users see the rendered message
        return f"{self.code.value}: token={self.token!r} quantity={self.quantity!r}"
