"""Commands as people write them: the words of the grammar of labelled numbers, in every shipped language.

    64 GPUs at 2000 img/s with 90% efficiency   → gpus=64 img/s=2000 efficiency=90%
    2000 img/s 64 GPUs 90%                      → the same: a word that names a quantity settles its place
    64台 2000 90%, 64 Geräte 2.000 90 Prozent    → a unit written on the number; a percent word as its sign

A *label* names the quantity of a number beside it (`bot.reader.grammar` says which one, by its named rows). A *percent
word* after a number is its percent sign. A *filler* (`at`, `with`, `mit`, `avec`, `で`) says nothing and goes.
A *per-device* phrase (`per GPU`, `each`, `GPU당`, `单卡`, `on 1 GPU`) says a rate is one device's, never a count;
a *cluster* word (`total`, `insgesamt`, `合計`) that it is the whole cluster's. Device model names (`A100`,
`H100s`, `MI300X`, `v5e`) name devices with a count, or go before a word for devices. Any other word is still
named in the error. This module gathers the words of every language (`bot.reader.languages`); `bot.reader.grammar` holds
the rows that decide.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.model.calculator import Quantity
from bot.reader.languages import LANGUAGES

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
_ALL = LANGUAGES.values()
# what one sample of a rate is called, in every language: `samples/s`, `examples/sec`, `samples per second`
RATE_NOUNS = tuple(dict.fromkeys(word for words in _ALL
                                  for word in (*words.rate_nouns, *words.plurals, *words.plurals.values())))
PLURALS = {singular: plural for words in _ALL for singular, plural in words.plurals.items()}
PER_SECOND = tuple(dict.fromkeys(word for words in _ALL for word in words.per_second))
LABELS: dict[str, dict[Quantity, tuple[str, ...]]] = {
    language: dict(words.labels) for language, words in LANGUAGES.items()}
PERCENT_WORDS = {language: words.percent for language, words in LANGUAGES.items()}
FILLERS = {language: words.fillers for language, words in LANGUAGES.items()}
# a rate that is one device's: written after the rate (`2000 img/s each`) or before it (`per GPU 2000 img/s`)
PER_DEVICE = tuple(dict.fromkeys(word for words in _ALL for word in words.per_device))
CLUSTER = tuple(dict.fromkeys(word for words in _ALL for word in words.cluster))
NODES = frozenset(word for words in _ALL for word in words.nodes)  # `8 nodes`: several devices each
MODELS = re.compile(r"(?i)(?:a100|a10g?|a30|a40|h100|h200|h800|b100|b200|gh200|gb200|v100|p100|l4|l40s?|t4|"
                    r"mi\d{3}[a-z]?|tpu-?v\d+[a-z]*|v\d+[ep]|gaudi\d?|trn\d|inf\d)s?")
SCALE_WORDS = {word: suffix for words in _ALL for word, suffix in words.scale.items()}
_TWO_WORDS = re.compile(r"(?i)\b(per|pour|por) (cent|ciento|cento)\b")  # `90 per cent`: one percent word


@lru_cache(maxsize=1)
def label_quantities() -> dict[str, Quantity]:
    """Every language's labels, case-folded, to the quantity each names."""
    found: dict[str, Quantity] = {}
    for quantities in LABELS.values():
        for quantity, words in quantities.items():
            for word in words:
                if found.setdefault(word.casefold(), quantity) is not quantity:
                    raise ValueError(f"{word!r} would label two quantities")
    return found


def label_of(word: str) -> Quantity | None:
    """The quantity a word names as a label: a unit word (`GPUs`, `台`), a rate (`img/s`, `examples/sec`,
    `サンプル/秒`), or a device model with a count (`H100s`); None for any other word."""
    key = word.casefold()
    if (quantity := label_quantities().get(key)) is not None:
        return quantity
    noun, slash, per = key.partition("/")
    if slash and noun in _rate_nouns() and per in PER_SECOND:
        return V
    return D if MODELS.fullmatch(key) else None


def plural_unit(unit: str) -> str:
    """A rate's unit with its noun in the plural where the noun is a known singular (`sample/s` → `samples/s`,
    `Bild/s` → `Bilder/s`, as the user capitalised it); any other unit as it is (`tokens/s`, `img/s`).

    >>> plural_unit("Image/sec"), plural_unit("img/s")
    ('Images/sec', 'img/s')
    """
    noun, slash, per = unit.partition("/")
    plural = PLURALS.get(noun.casefold())
    if plural is None or not slash:
        return unit
    return (plural.capitalize() if noun[:1].isupper() else plural) + slash + per


@lru_cache(maxsize=1)
def _rate_nouns() -> frozenset[str]:
    return frozenset(RATE_NOUNS)


@lru_cache(maxsize=1)
def percent_words() -> frozenset[str]:
    return frozenset(word.replace(" ", "") for words in PERCENT_WORDS.values() for word in words)


@lru_cache(maxsize=1)
def fillers() -> frozenset[str]:
    return frozenset(word for words in FILLERS.values() for word in words)


def joined_percent_words(text: str) -> str:
    return _TWO_WORDS.sub(r"\1\2", text)
