"""What a mistake in a measurement series looks like to its writer: the series' own errors, and any other error
of a number named with the measurement it is in (`In 8=15.800: …`)."""

from __future__ import annotations

from decimal import Decimal

from bot.errors import ErrorCode, UserInputError
from bot.replies.blocks import code
from bot.replies.wording import Wording

__all__ = ["SERIES_CODES", "describe_series_error", "in_measurement"]

SERIES_CODES = frozenset({ErrorCode.SERIES_COUNT, ErrorCode.SERIES_NO_THROUGHPUT, ErrorCode.SERIES_REPEATED_SIZE,
                          ErrorCode.SERIES_STRAY_WORD})


def describe_series_error(error: UserInputError, words: Wording) -> str:
    """One sentence or two for an error of the series as a whole, in the reader's language."""
    _ = words.gettext
    measurement = code(f"{words.number(Decimal(8), 0)}={words.number(Decimal(15800))}")
    single = code(f"v={words.number(Decimal(2000))}")
    if error.code is ErrorCode.SERIES_COUNT:
        return _("Besides the throughput of one device, a series needs {low} to {high} cluster sizes, each written "
                 "as {example}; this one has {given}.").format(
            low=error.low or "", high=error.high or "", example=measurement, given=error.value or "0")
    if error.code is ErrorCode.SERIES_NO_THROUGHPUT:
        return _("A series needs the throughput of one device, such as {example} or {one}: every efficiency is "
                 "measured against it.").format(example=single, one=code(f"1={words.number(Decimal(2000))}"))
    if error.code is ErrorCode.SERIES_REPEATED_SIZE:
        first, second = (list(error.suggestions) + ["", ""])[:2]
        return _("{first} and {second} are both for the same number of devices. Give each cluster size once.").format(
            first=code(first), second=code(second))
    return _("{token} is not a measurement. Write each measurement as devices=throughput, such as {example}, and "
             "the single-device throughput as {one}.").format(token=code(error.token or ""), example=measurement, one=single)


def in_measurement(error: UserInputError, message: str, words: Wording) -> str:
    """`message` about a number of a series, naming the measurement it is in (unless the message names it already:
    `16=` has no value after it)."""
    if error.pair is None or error.token == error.pair:
        return message
    return words.gettext("In {pair}: {message}").format(pair=code(error.pair), message=message)
