"""How the readings of a number the reply asks about are offered: each written the one way no Slack number format
reads otherwise, and, where that took an added zero (`1.2340` beside `1234`), what the zero is for; and why the
number was asked about rather than read."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.reading import AskReason
from bot.replies.blocks import code, escape
from bot.replies.wording import Wording

__all__ = ["ask_reason", "options", "padded", "written_readings"]

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
    """For a reading written with a zero added so that no format takes its three decimals for a group of thousands
    (`1.2340`): that one as `padded`, and as `other` what it would be read as without the zero, for the sentence
    that says why the zero is there: the other reading beside it (`1234`), or, for the one percentage an
    efficiency such as `1.234` can be, that percentage a thousand times over (`1234%`); else nothing."""
    # dpscale writes no trailing zero after the decimal mark but the one that keeps three decimals from a group
    zeroed = [text for text in written if words.style.decimal in text and text.rstrip(_SIGN).endswith("0")]
    if len(zeroed) != 1:
        return {}
    if error.code is ErrorCode.UNCLEAR_EFFICIENCY and len(written) == 1:
        thousandfold = words.plain(error.readings[0].scaleb(5))  # 0.01234 is 1.234 %: read as grouped, 1234 %
        return {"padded": code(zeroed[0]),
                "other": code(words.style.percent_prefix + thousandfold + words.style.percent_suffix)}
    if error.code is not ErrorCode.AMBIGUOUS_NUMBER or len(written) != 2:
        return {}
    return {"padded": code(zeroed[0]), "other": code(next(text for text in written if text != zeroed[0]))}


def ask_reason(reason: str, words: Wording) -> str:
    """Why a number was asked about rather than read."""
    return _ask_reasons(words)[AskReason(reason)]


@lru_cache(maxsize=64)  # per language and format (`wording_for` makes one Wording per recipient)
def _ask_reasons(words: Wording) -> dict[AskReason, str]:
    _ = words.gettext
    sentences = {
        AskReason.UNKNOWN_FORMAT: _(
            "Slack hasn't told me your number format yet, and not all of Slack's languages read this number "
            "the same way."
        ),
        AskReason.REGION: _("The {name} number format you chose is used in countries that read this number "
                            "differently.") if words.chosen_format else
        _("Your Slack language, {name}, is used in countries that read this number differently. You can choose "
          "your country's number format on dpscale's Home tab."),
        # the format a `lang=` word chose, by its name: the word may have been `idioma=` or `sprache=`
        AskReason.LANG: _("Your own number format and the {name} format of the language you asked for read this "
                          "number differently."),
        AskReason.OTHER_LOCALES: _(
            "Other Slack languages read it differently, so I'd rather ask than show a result that could be "
            "off by a factor of a thousand."
        ),
        AskReason.NOT_YOURS: _(
            "It is not written in your number format, {name}, and other formats read it differently."
        ),
        AskReason.LOOSE_GROUP: _(
            "Its first group has more than three digits, so the separator after it is either a misplaced thousands "
            "separator or a decimal separator, and the two readings differ by a factor of {thousand}."
        ),
    }
    thousand = words.plain(Decimal(1000))  # ungrouped beside a number whose group mark is in doubt, as notes write them
    return {reason: sentence.format(name=escape(words.locale_name), thousand=thousand)
            for reason, sentence in sentences.items()}


def _written(value: Decimal, quantity: str | None, words: Wording) -> str:
    if quantity == Quantity.EFFICIENCY.value:
        return words.percent(value, 4)
    return words.plain(value)
