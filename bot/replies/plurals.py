"""Which of a catalog's plural forms a number takes as dpscale writes it: CLDR's category for the number as shown,
its decimals included (English `1 sample/s`, `1.5 samples/s`; French `1,5 échantillon/s`, since French `one` is below
2), with one language's usage over CLDR's rule (Brazilian `0 amostras/s`).

    >>> plural_count("1", "en"), plural_count("1.5", "en"), plural_count("1.5", "fr"), plural_count("0", "pt_BR")
    (1, 2, 1, 2)
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache

from babel import Locale

__all__ = ["one_below_two", "plural_count"]

# catalogs whose language writes a rate of 0 in the plural where CLDR's rule gives 0 the `one` form: Brazilian
# usage is "0 amostras/s" (CLDR's Portuguese `one` is 0 to below 2); French keeps CLDR's "0 échantillon/s"
ZERO_IN_PLURAL = frozenset({"pt_BR"})


def plural_count(digits: str, catalog: str) -> int:
    """A count that picks, for `ngettext`, the form of `catalog`'s language for `digits` (a number's digits with
    `.` for its decimal mark and no group marks): 1 for CLDR's `one`, else 2 (the other form of every catalog)."""
    whole = digits.partition(".")[0]
    # most rates: no rule to run. A language whose `one` takes no whole number from 2 on gives it to no decimal
    # from 2 on either (CLDR's rules of that kind bound the whole part, `i` or `n`): `2.5 samples/s`
    if whole.isdigit() and int(whole) >= 2 and one_below_two(catalog):
        return 2
    digits = "".join(c for c in digits if c.isdecimal() or c == ".")
    try:
        number = Decimal(digits.strip(".") or "0")
        category = _language(catalog).plural_form(number)
    except ArithmeticError:  # not a number after all: the plural form
        return 2
    if not number and catalog in ZERO_IN_PLURAL:  # the language's usage, not CLDR's rule: `0 amostras/s`
        return 2
    return 1 if category == "one" else 2


@cache  # one per catalog: a dozen
def one_below_two(catalog: str) -> bool:
    """Whether the plural rule of `catalog`'s language gives `one` to no whole number from 2 on. CLDR's `one` rules
    either stop below 2 (English, French, Portuguese) or repeat with the last digits (Russian 21, 101): the latter
    show within the first thousand. Worked out once per language, not once per reader: every reader of a catalog
    shares its rule, and a worker's warm-up makes several dozen readers.

    >>> one_below_two("en"), one_below_two("fr")
    (True, True)
    """
    rule = _language(catalog).plural_form
    return all(rule(n) != "one" for n in range(2, 1001))


@cache
def _language(catalog: str) -> Locale:
    return Locale.parse(catalog)
