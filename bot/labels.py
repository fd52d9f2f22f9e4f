"""Commands as people write them: unit and filler words beside the numbers, in every shipped language.

    64 GPUs at 2000 img/s with 90% efficiency   → gpus=64 img/s=2000 efficiency=90%
    2000 img/s 64 GPUs 90%                      → the same: a word that names a quantity settles its place
    64台 2000 90%, 64 Geräte 2.000 90 Prozent    → a unit written on the number; a percent word as its sign

A *label* names the quantity of the number right before it (`64 GPUs`), or, with no number before it, of the one
right after it (`efficiency 90%`); one beside no number (`per GPU`) confirms nothing and goes. A *percent word*
after a number is its percent sign. A *filler* (`at`, `with`, `mit`, `avec`, `で`) says nothing and goes. Any other
word is still named in the error. A labelled number becomes a named value (`label=number`), read by the same
rules as `devices=64`; the throughput's unit word is kept for the reply (`tokens/s` stays `tokens/s`).
Where the number before a label has space-separated groups (`64 200 000 img/s`), the count of numbers decides
where it begins, as it does for any number (`bot.grouping`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.calculator import Quantity
from bot.grouping import KEYED, LABEL
from bot.reading import SUFFIXES

D, V, E = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY
_RATES = ("samples/s", "sample/s", "samples/sec", "img/s", "imgs/s", "images/s", "image/s", "img/sec", "tokens/s",
          "token/s", "tok/s", "seq/s", "seqs/s", "sequences/s")  # every language's engineers write these too
_CHIPS = ("gpu", "gpus", "tpu", "tpus")
LABELS: dict[str, dict[Quantity, tuple[str, ...]]] = {
    "en": {D: ("devices", "device", *_CHIPS, "accelerators", "accelerator", "chips", "cards"), V: _RATES,
           E: ("efficiency", "eff")},
    "de": {D: ("geräte", "gerät", "beschleuniger", "karten"),
           V: ("beispiele/s", "bilder/s", "sequenzen/s"), E: ("effizienz", "skalierungseffizienz")},
    "fr": {D: ("accélérateurs", "accélérateur", "appareils", "cartes"),
           V: ("échantillons/s", "éch/s", "jetons/s", "séquences/s"), E: ("efficacité", "d'efficacité",
                                                                          "d’efficacité")},
    "es": {D: ("dispositivos", "dispositivo", "aceleradores"), V: ("muestras/s", "imágenes/s", "secuencias/s"),
           E: ("eficiencia",)},
    "it": {D: ("dispositivi", "acceleratori", "schede"), V: ("campioni/s", "immagini/s", "sequenze/s"),
           E: ("efficienza",)},
    "pt": {D: ("aceleradores",), V: ("amostras/s", "imagens/s", "sequências/s"), E: ("eficiência",)},
    "ja": {D: ("台", "基", "デバイス"), V: ("サンプル/秒", "枚/秒", "トークン/秒"), E: ("効率",)},
    "ko": {D: ("대", "개", "장", "디바이스", "장치"), V: ("샘플/초", "이미지/초", "토큰/초"), E: ("효율",)},
    "zh_Hans": {D: ("张卡", "块卡", "张", "块", "卡"), V: ("样本/秒", "张/秒", "图像/秒"), E: ("效率",)},
    "zh_Hant": {D: ("張卡", "塊卡", "張", "塊"), V: ("樣本/秒", "張/秒", "影像/秒"), E: ("效率",)},
}
PERCENT_WORDS = {"en": ("percent", "pct", "per cent"), "de": ("prozent",), "fr": ("pour cent", "pourcent"),
                 "es": ("por ciento",), "it": ("per cento", "percento"), "pt": ("por cento",),
                 "ja": ("パーセント",), "ko": ("퍼센트", "프로"), "zh_Hans": (), "zh_Hant": ()}
FILLERS = {"en": ("at", "with", "each", "per", "and", "of", "on", "using", "scaling"),
           "de": ("mit", "bei", "je", "pro", "und", "jeweils", "von", "à"),
           "fr": ("à", "avec", "chacun", "chacune", "par", "et", "de", "d'une", "d’une"),
           "es": ("a", "con", "cada", "uno", "una", "por", "y", "de", "en"),
           "it": ("a", "con", "ciascuno", "ciascuna", "per", "e", "di", "da", "del", "della"),
           "pt": ("a", "com", "cada", "um", "uma", "por", "e", "de", "em"),
           "ja": ("で", "と", "の", "各", "あたり"), "ko": ("에서", "의", "각", "당"),
           "zh_Hans": ("每", "每卡", "个", "和", "的", "在"), "zh_Hant": ("每", "每卡", "個", "和", "的", "在")}
_TWO_WORDS = re.compile(r"(?i)\b(per|pour|por) (cent|ciento|cento)\b")  # `90 per cent`: one percent word
# `64台で2000サンプル/秒`: CJK words and numbers written together, apart (not a suffix: `2万`, `2千`)
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_CJK_EDGE = re.compile(rf"(?<=[\d%])(?=[{_CJK}])(?![千천万萬만亿億억])|(?<=[{_CJK}])(?=\d)")
_PARTICLE = re.compile(r"(?:で|と|の|に|は|を|에서|으로|로|의|을|를|은|는|이|가)$")
_TRAILING = ",;."  # `64 GPUs, 2000 img/s`: a list's comma after a label


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


@lru_cache(maxsize=1)
def _percent_words() -> frozenset[str]:
    return frozenset(word.replace(" ", "") for words in PERCENT_WORDS.values() for word in words)


@lru_cache(maxsize=1)
def _fillers() -> frozenset[str]:
    return frozenset(word for words in FILLERS.values() for word in words)


@lru_cache(maxsize=1)
def _attached() -> re.Pattern[str]:
    """A number with a label written on it: `64台`, `64GPUs`, `2000img/s`."""
    labels = sorted(label_quantities(), key=len, reverse=True)
    return re.compile(rf"(?i)(\d[\d.,'’\u202f]*[%kKMG千천万萬만亿億억]?)({'|'.join(map(re.escape, labels))})")


def has_words(words: list[str]) -> bool:
    """Whether any word is no number and no named value: only then is there a label or a filler to look for."""
    return any(not KEYED.match(word) and any(c.isalpha() and c not in SUFFIXES for c in word) for word in words)


def mark_labels(words: list[str]) -> list[str]:
    """The words with fillers gone, percent words made their number's sign (`90 percent` → `90%`), labels written
    on a number split from it (`64台` → `64`, `台`), and each label a `LABEL` word: no number's space-separated
    groups are joined across it (`bot.grouping.join_space_groups` keeps it in place)."""
    marked: list[str] = []
    text = _TWO_WORDS.sub(r"\1\2", " ".join(words))
    for word in _split_attached(_CJK_EDGE.sub(" ", text).split()):
        key = word.casefold().rstrip(_TRAILING) or word.casefold()
        if (particle := _PARTICLE.search(key)) and key[: particle.start()] in label_quantities():
            word = key = key[: particle.start()]  # `台で`: a label with a Japanese or Korean particle after it
        if key in _fillers():
            continue
        if key in _percent_words() and marked and _is_number(marked[-1]):
            marked[-1] += "%"
        elif key in label_quantities():
            marked.append(LABEL + word.rstrip(_TRAILING))
        else:
            marked.append(word)
    return marked


def apply_labels(words: list[str]) -> tuple[list[str], str | None]:
    """The words (their groups joined) with each `LABEL` word written on the number it names, as
    `number` + `LABEL` + `label`: the one before it, else the one after it; a label beside a named value or no
    number goes. With the throughput's unit word as typed (None if no label named it)."""
    labelled: list[str] = []
    unit = None
    pending: str | None = None  # a label with no number before it: the next number's
    for index, word in enumerate(words):
        if word[:1] != LABEL:
            if pending is not None and _is_number(word):
                word, pending = word + LABEL + pending, None
            labelled.append(word)
            continue
        label = word[1:]
        if label_quantities()[label.casefold()] is Quantity.THROUGHPUT and unit is None:
            unit = label
        if labelled and _is_number(labelled[-1]) and LABEL not in labelled[-1]:
            labelled[-1] += word
        elif not labelled or not (KEYED.match(labelled[-1]) or LABEL in labelled[-1]):  # else it confirms
            pending = label if index + 1 < len(words) and _is_number(words[index + 1]) else None
    return labelled, unit


def _split_attached(words: list[str]) -> list[str]:
    split: list[str] = []
    for word in words:
        match = _attached().fullmatch(word) if word[:1].isdigit() else None
        split.extend(match.groups() if match else (word,))
    return split


def _is_number(word: str) -> bool:
    """A bare number (`64`, `2,000`, `90%`): no named value, no label."""
    return any(map(str.isnumeric, word)) and not KEYED.match(word) and word[:1] != LABEL
