"""A sign standing alone belongs to a number beside it: a percent sign (`90 %`, or Turkish `% 90`, where the sign
is written first) and a scale suffix (`2 k`)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.grouping import MARKERS, split_keyed
from bot.reader.grouping_rules import Grouping
from bot.reader.keywords import keywords
from bot.reader.reading import SUFFIXES, Reader, read_number

__all__ = ["join_percent_signs", "join_suffixes"]

KEYWORDS = keywords()
_EFFICIENCY_PLACE = 2  # where no value is named: devices, throughput, efficiency


def join_suffixes(words: list[str]) -> list[str]:
    """The words with a k, M or G standing alone joined to the number before it: `2 k` is `2k`."""
    joined: list[str] = []
    for word in words:
        if word in SUFFIXES and joined and joined[-1][-1:].isdigit():
            joined[-1] += word
        else:
            joined.append(word)
    return joined


def join_percent_signs(words: list[str], percent_first: bool, reader: Reader) -> list[str]:
    """The words with each `%` standing alone joined to its number: the one after it where a format of `reader`'s
    writes the sign first (Turkish `% 90`), or where a list's comma or an emoji stands before the sign, else the one
    before it (`90 %`)."""
    could_be = _could_be_percentage(reader, words)
    joined: list[str] = []
    for index, word in enumerate(words):
        cut = bool(joined) and joined[-1] in MARKERS  # after a list's comma or an emoji: only the next number's
        after = (percent_first or cut) and index + 1 < len(words) and words[index + 1][:1].isdigit()
        if after and word == "%" and joined and joined[-1][-1:].isdigit():
            after = _percent_goes_after((joined[-1], index - 1), (words[index + 1], index + 1), could_be)
        signed_after_cut = MARKERS.intersection(joined[-2:-1])  # a `%` standing after a comma or an emoji
        if joined and joined[-1] == "%" and word[:1].isdigit() and (percent_first or signed_after_cut):
            joined[-1] += word
        elif word == "%" and joined and not after and not cut:
            joined[-1] += "%"
        else:
            joined.append(word)
    return joined


def _percent_goes_after(
    before: tuple[str, int], after: tuple[str, int], could_be: Callable[[str, int], bool | None]
) -> bool:
    """Where the sign may come first, whether a `%` between two numbers (each with its place among the words) is
    the one after it's (`2000 % 90`) rather than the one before it's (`90 % 2000`: 2000 cannot be a percentage);
    asked where either could be."""
    before_could, after_could = could_be(*before), could_be(*after)
    if before_could and after_could:
        raise UserInputError(ErrorCode.AMBIGUOUS_GROUPING, token=f"{before[0]} % {after[0]}",
                             quantity=Quantity.EFFICIENCY.value, rule=Grouping.PERCENT_SIGN_BETWEEN_TWO)
    return not (after_could is False and before_could)


def _could_be_percentage(reader: Reader, words: list[str]) -> Callable[[str, int], bool | None]:
    """Whether a word of `words` next to a `%` could be a percentage: a number any reading of which is at most 100
    (`92,5`, `1,024` where it may be 1.024), in the efficiency's place where no value is named (the third number:
    in `64 12,5 % 90`, 12,5 is the throughput); a named efficiency; not another named value. None where it is no
    number."""
    numbers = [index for index, word in enumerate(words) if word[:1].isdigit()]
    keys = [KEYWORDS.get(keyed[0]) for word in words if (keyed := split_keyed(word))]  # what each named word names
    efficiency_named = Quantity.EFFICIENCY in keys

    def could_be(word: str, index: int) -> bool | None:
        """`word`, at `index` among the words."""
        if index in numbers and (efficiency_named or (not keys and numbers.index(index) != _EFFICIENCY_PLACE)):
            return False  # a bare number beside a named efficiency, or out of the efficiency's place
        if keyed := split_keyed(word):
            return KEYWORDS[keyed[0]] is Quantity.EFFICIENCY if keyed[0] in KEYWORDS else None
        try:
            readings: tuple[Decimal, ...] = (read_number(word, reader).value,)
        except UserInputError as error:
            readings = error.readings
        return any(0 < reading <= 100 for reading in readings) if readings else None

    return could_be
