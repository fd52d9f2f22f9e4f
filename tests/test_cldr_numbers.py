"""The table of CLDR number data (bot/reader/cldr_numbers.py) is Babel's own, for every locale dpscale offers."""

from __future__ import annotations

import pytest
from babel import Locale

from bot.reader.cldr_numbers import CLDR_NUMBERS
from bot.reader.formats import offered_locales
from bot.reader.numbers import babel_style, cldr_style, resolve_locale


@pytest.mark.parametrize("name", sorted(CLDR_NUMBERS))
def test_each_entry_is_what_the_installed_babel_gives(name):
    """After a Babel upgrade that changes CLDR's data, this fails: `python scripts/cldr_numbers.py` rewrites it."""
    style = babel_style(Locale.parse(name))
    assert CLDR_NUMBERS[name] == (style.decimal, style.group, style.grouping, style.percent_prefix,
                                  style.percent_suffix)


def test_every_locale_offered_is_in_the_table_and_nothing_else():
    assert set(CLDR_NUMBERS) == set(offered_locales())


@pytest.mark.parametrize("tag", ["de-DE", "fr-FR", "en-IN", "tr-TR", "de-CH", "zh-TW", "es-LA"])
def test_a_style_read_from_the_table_equals_babels(tag):
    locale = resolve_locale(tag)
    assert cldr_style(locale) == babel_style(locale)


def test_a_locale_outside_the_table_is_read_from_babel():
    locale = resolve_locale("fi-FI")
    assert str(locale) not in CLDR_NUMBERS
    assert (cldr_style(locale).decimal, cldr_style(locale).group) == (",", "\u00a0")


@pytest.mark.parametrize("tags", [("de-DE", "de_DE", " de-DE "), ("es-LA", "es_419", "es-419"),
                                  ("zh-TW", "zh_TW")])
def test_every_tag_of_a_locale_resolves_to_the_same_object(tags):
    # the caches keyed by a locale (a reply's wording, a reader's formats) then find it by identity, without
    # Babel's `Locale.__eq__`, which is Python code: it was a tenth of a command's instructions
    first, *others = (resolve_locale(tag) for tag in tags)
    assert all(other is first for other in others)
