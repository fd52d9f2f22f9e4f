"""Babel's CLDR number data for every locale dpscale offers, as `bot.reader.numbers.babel_style` reads it:
decimal and group symbols, grouping sizes (first, then every further group) and the percent pattern's prefix and
suffix.

Written by `python scripts/cldr_numbers.py` from Babel 2.19.0; do not edit. tests/test_cldr_numbers.py holds
every entry to what the installed Babel gives, and the table's keys to `bot.reader.formats.offered_locales`.
"""

from __future__ import annotations

__all__ = ["CLDR_NUMBERS"]

CLDR_NUMBERS: dict[str, tuple[str, str, tuple[int, int], str, str]] = {
    'de_AT': (',', '.', (3, 3), '', '\xa0%'),
    'de_CH': ('.', "'", (3, 3), '', '%'),
    'de_DE': (',', '.', (3, 3), '', '\xa0%'),
    'en_GB': ('.', ',', (3, 3), '', '%'),
    'en_IN': ('.', ',', (3, 2), '', '%'),
    'en_US': ('.', ',', (3, 3), '', '%'),
    'es_419': ('.', ',', (3, 3), '', '%'),
    'es_AR': (',', '.', (3, 3), '', '%'),
    'es_ES': (',', '.', (3, 3), '', '\xa0%'),
    'es_MX': ('.', ',', (3, 3), '', '%'),
    'fr_CA': (',', '\xa0', (3, 3), '', '\xa0%'),
    'fr_CH': (',', "'", (3, 3), '', '%'),
    'fr_FR': (',', '\u202f', (3, 3), '', '\xa0%'),
    'hi_IN': ('.', ',', (3, 2), '', '%'),
    'it_IT': (',', '.', (3, 3), '', '%'),
    'ja_JP': ('.', ',', (3, 3), '', '%'),
    'ko_KR': ('.', ',', (3, 3), '', '%'),
    'nl_NL': (',', '.', (3, 3), '', '%'),
    'pl_PL': (',', '\xa0', (3, 3), '', '%'),
    'pt_BR': (',', '.', (3, 3), '', '%'),
    'ru_RU': (',', '\xa0', (3, 3), '', '\xa0%'),
    'sv_SE': (',', '\xa0', (3, 3), '', '\xa0%'),
    'tr_TR': (',', '.', (3, 3), '%', ''),
    'uk_UA': (',', '\xa0', (3, 3), '', '%'),
    'zh_Hans_CN': ('.', ',', (3, 3), '', '%'),
    'zh_Hant_TW': ('.', ',', (3, 3), '', '%'),
}
