"""The words a user may name a value with (`devices=64`, `geräte=64`, `効率=90%`), in every shipped language.

Each language lists its own natural words, first the one its help shows (`bot.reader.languages`, by language). The
parser accepts the words of every language at once (a Japanese user may type English keys, a Swiss one German
or French), matched as whole words after case folding: `実効スループット=` is actual throughput, never
`スループット=` (per-device throughput) by a prefix or substring. A word that two languages share must name the
same quantity in both; `CONFLICTS_REFUSED` records the words deliberately left out because they would not (the
tests check both).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from bot.model.calculator import Quantity
from bot.reader.languages import LANGUAGES

WORDS: dict[str, dict[Quantity | None, tuple[str, ...]]] = {
    language: dict(words.keys) for language, words in LANGUAGES.items()}
HELP: dict[str, tuple[str, ...]] = {language: words.help for language, words in LANGUAGES.items()}
# `at=128` with a measurement series: the cluster size to forecast (`bot.model.forecast`); its help shows the first word
FORECAST: dict[str, tuple[str, ...]] = {language: words.forecast for language, words in LANGUAGES.items()}
# Words a language would offer but that would name another quantity elsewhere, or two in one language.
CONFLICTS_REFUSED = {
    "rendimiento": "es: throughput and efficiency alike",
    "rendimento": "pt: throughput and efficiency alike",
    "效能": "efficiency in zh_Hans, performance (throughput) in zh_Hant",
    "速度": "ja/zh: speed, heard as speedup",
    "속도": "ko: collides with 속도 향상 (speedup)",
    "mesure": "fr: a common noun; `measured` covers it",
    "velocità": "it: heard as speedup",
}


# each language's word for a target throughput, an actual-throughput key (`target=200000`, `ziel=200.000`): the help's
# target example shows it, and a result solved from it says what is needed, not what was measured
TARGET_KEYS = {"en": "target", "de": "ziel", "fr": "cible", "es": "objetivo", "it": "obiettivo", "pt": "meta",
               "ja": "目標", "ko": "목표", "zh_Hans": "目标", "zh_Hant": "目標"}
TARGET_WORDS = frozenset(TARGET_KEYS.values())


def word_list(catalog: str) -> str:
    """The word list for a catalog name: `pt_BR` → `pt`, `es_419` → `es`, `en_GB` → `en`."""
    return catalog if catalog in WORDS else catalog.split("_")[0] if catalog.split("_")[0] in WORDS else "en"


@lru_cache(maxsize=1)
def keywords() -> dict[str, Quantity | None]:
    """Every language's words, case-folded, to the quantity they name (None: `lang=`)."""
    found: dict[str, Quantity | None] = {}
    for language in WORDS.values():
        for quantity, words in language.items():
            for word in words:
                key = word.casefold()
                if found.get(key, quantity) != quantity:
                    raise ValueError(f"{word!r} would name two quantities")
                found[key] = quantity
    return found


@lru_cache(maxsize=1)
def help_words() -> frozenset[str]:
    return frozenset(word.casefold() for words in HELP.values() for word in words)


@lru_cache(maxsize=1)
def forecast_words() -> frozenset[str]:
    return frozenset(word.casefold() for words in FORECAST.values() for word in words)


@lru_cache(maxsize=64)
def forecast_words_of(catalog: str) -> frozenset[str]:
    """The words that ask for a forecast beside a series, for a reader of `catalog`'s language: every language's,
    and the reader's own typed without its accents (French `à=` as `a=`). Beside a series `a=` is no other key:
    a series has no actual throughput, which the English `a=` names in a command.

    >>> sorted(forecast_words_of("fr") - forecast_words_of("en"))
    ['a']
    """
    own = {"".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
           for word in FORECAST[word_list(catalog)]}
    return forecast_words() | own


@lru_cache(maxsize=64)
def shown_keys(catalog: str) -> Mapping[Quantity | None, str]:
    """The word the help shows for each quantity in a language: its own first word, else the English one."""
    own = WORDS[word_list(catalog)]
    return MappingProxyType({quantity: (own.get(quantity) or WORDS["en"][quantity])[0] for quantity in WORDS["en"]})
