"""How the readings of a number the reply asks about are offered: each written the one way no Slack number format
reads otherwise, and, where that took an added zero (`1.2340` beside `1234`), what the zero is for."""

from __future__ import annotations

from decimal import Decimal

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.replies.blocks import code
from bot.replies.wording import Wording

__all__ = ["options", "padded", "written_readings"]

_QUANTITY_VALUES = frozenset(quantity.value for quantity in Quantity)
_SIGN = "%\u00a0\u202f "  # what a percentage ends in after its digits


def written_readings(error: UserInputError, words: Wording) -> list[str]:
    """Each reading of the number `error` asks about, written the one way no Slack number format reads otherwise
    (for `options` and `padded`, which take the list so that it is written once)."""
    return [_written(value, error.quantity, words) for value in error.readings]


def options(error: UserInputError, words: Wording, written: list[str]) -> str:
    """Every reading of an ambiguous number as `written_readings` writes it, joined by the language's "or"
    (`a, b, or c` as CLDR's list has it)."""
    if error.code is ErrorCode.UNPLACED_NUMBER:  # each value the number may be, named with its key
        written = [words.key(Quantity(quantity)) + number if quantity in _QUANTITY_VALUES else choice
                   for choice in error.suggestions for quantity, _, number in (choice.partition(":"),)]
    if not written:
        written = list(error.suggestions)
    if not written:
        return ""
    return words.alternatives([code(text) for text in written])


def padded(error: UserInputError, words: Wording, written: list[str]) -> dict[str, str]:
    """For two readings one of which is written with a zero added so that no format takes its three decimals for a
    group of thousands (`1.2340`, beside `1234`): that one as `padded`, the other as `other`, for the sentence that
    says why the zero is there; else nothing."""
    if error.code is not ErrorCode.AMBIGUOUS_NUMBER or len(written) != 2:
        return {}
    # dpscale writes no trailing zero after the decimal mark but the one that keeps three decimals from a group
    zeroed = [text for text in written if words.style.decimal in text and text.rstrip(_SIGN).endswith("0")]
    if len(zeroed) != 1:
        return {}
    return {"padded": code(zeroed[0]), "other": code(next(text for text in written if text != zeroed[0]))}


def _written(value: Decimal, quantity: str | None, words: Wording) -> str:
    if quantity == Quantity.EFFICIENCY.value:
        return words.percent(value, 4)
    return words.plain(value)
