"""CLDR's minimum grouping digits: from how many digits a locale groups a number at all (Spanish writes 2000 and
20.000; RAE: "2000 muestras"). Babel's locale data has no such field, so `bot.reader.numbers` looks it up here.
"""

from __future__ import annotations

from decimal import Decimal

from babel import Locale
from babel.core import get_global

__all__ = ["MIN_GROUPING_DIGITS", "is_grouped", "min_grouping_digits"]

# CLDR's minimumGroupingDigits where it is not 1 (CLDR 46 and later, as Babel 2.19 ships CLDR 47): a number is
# grouped only when its first group would have at least that many digits, so Spanish, Italian and Polish write
# 2000 and 20.000 (RAE: "2000 muestras"). Babel's data has no such field, so it is kept here, looked up by
# CLDR's inheritance (es_MX → es_419 → es); es_419 and the countries under it group from the first digit.
MIN_GROUPING_DIGITS = {"es": 2, "es_419": 1, "it": 2, "pl": 2, "pt_PT": 2}
_PARENT_EXCEPTIONS: dict[str, str] = dict(get_global("parent_exceptions"))


def min_grouping_digits(locale: Locale) -> int:
    """CLDR's minimumGroupingDigits for `locale`, found as CLDR inherits it (`es_MX` from `es_419`, `es_ES` from
    `es`).

    >>> [min_grouping_digits(Locale.parse(tag)) for tag in ("es_ES", "es_MX", "es_AR", "it_IT", "de_DE")]
    [2, 1, 1, 2, 1]
    """
    name = str(Locale(locale.language, locale.territory, locale.script, locale.variant))
    while name:
        if name in MIN_GROUPING_DIGITS:
            return MIN_GROUPING_DIGITS[name]
        name = _PARENT_EXCEPTIONS.get(name) or name.rpartition("_")[0]
    return 1


def is_grouped(value: Decimal, fraction_digits: int, primary: int, minimum: int) -> bool:
    """Whether `value`, rounded to `fraction_digits`, has enough digits before its decimal mark to be grouped: at
    least `minimum` in its first group (`primary` digits are the last group).

    >>> [is_grouped(Decimal(value), 2, 3, 2) for value in ("2000", "20000", "9999.996")]
    [False, True, True]
    """
    integer = format(value.copy_abs(), f".{fraction_digits}f").partition(".")[0]
    return len(integer) >= primary + minimum
