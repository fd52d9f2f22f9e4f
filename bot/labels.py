"""Commands as people write them: the words of the grammar of labelled numbers, in every shipped language.

    64 GPUs at 2000 img/s with 90% efficiency   → gpus=64 img/s=2000 efficiency=90%
    2000 img/s 64 GPUs 90%                      → the same: a word that names a quantity settles its place
    64台 2000 90%, 64 Geräte 2.000 90 Prozent    → a unit written on the number; a percent word as its sign

A *label* names the quantity of a number beside it (`bot.grammar` says which one, by its named rows). A *percent
word* after a number is its percent sign. A *filler* (`at`, `with`, `mit`, `avec`, `で`) says nothing and goes.
A *per-device* phrase (`per GPU`, `each`, `GPU당`, `单卡`, `on 1 GPU`) says a rate is one device's, never a count;
a *cluster* word (`total`, `insgesamt`, `合計`) that it is the whole cluster's. Device model names (`A100`,
`H100s`, `MI300X`, `v5e`) name devices with a count, or go before a word for devices. Any other word is still
named in the error. This module holds the words; `bot.grammar` the rows that decide.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.calculator import Quantity

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
# what one sample of a rate is called, in every language: `samples/s`, `examples/sec`, `samples per second`
RATE_NOUNS = ("samples", "sample", "examples", "example", "img", "imgs", "images", "image", "tokens", "token", "tok",
              "seq", "seqs", "sequences", "sequence", "it", "iters", "iterations", "frames", "batches", "queries",
              "beispiele", "bilder", "sequenzen", "échantillons", "éch", "jetons", "séquences", "muestras",
              "imágenes", "secuencias", "ejemplos", "campioni", "immagini", "sequenze", "esempi", "amostras",
              "imagens", "sequências", "exemplos")
PER_SECOND = ("s", "sec", "second", "seconde", "segundo", "secondo", "sekunde", "seg")
_CHIPS = ("gpu", "gpus", "tpu", "tpus", "node", "nodes", "chip", "chips", "card", "cards", "hpus", "npus", "xpus")
LABELS: dict[str, dict[Quantity, tuple[str, ...]]] = {
    "en": {D: ("devices", "device", *_CHIPS, "accelerators", "accelerator", "workers", "ranks"),
           E: ("efficiency", "eff")},
    "de": {D: ("geräte", "gerät", "beschleuniger", "karten", "grafikkarten", "knoten"),
           E: ("effizienz", "skalierungseffizienz")},
    "fr": {D: ("accélérateurs", "accélérateur", "appareils", "cartes", "nœuds", "noeuds"),
           E: ("efficacité", "d'efficacité", "d’efficacité")},
    "es": {D: ("dispositivos", "dispositivo", "aceleradores", "tarjetas", "nodos"), E: ("eficiencia",)},
    "it": {D: ("dispositivi", "acceleratori", "schede", "nodi"), E: ("efficienza",)},
    "pt": {D: ("aceleradores", "placas", "nós"), E: ("eficiência",)},
    "ja": {D: ("台", "基", "デバイス", "台のgpu", "枚のgpu", "基のgpu"),
           V: ("サンプル/秒", "枚/秒", "トークン/秒", "画像/秒"), E: ("効率",)},
    "ko": {D: ("대", "개", "장", "디바이스", "장치"), V: ("샘플/초", "이미지/초", "토큰/초"), E: ("효율",)},
    "zh_Hans": {D: ("张卡", "块卡", "张", "块", "卡", "块gpu", "张gpu", "个gpu"), V: ("样本/秒", "张/秒", "图像/秒"),
                E: ("效率",)},
    "zh_Hant": {D: ("張卡", "塊卡", "張", "塊", "張gpu", "塊gpu", "個gpu"), V: ("樣本/秒", "張/秒", "影像/秒"),
                E: ("效率",)},
}
PERCENT_WORDS = {"en": ("percent", "pct", "per cent"), "de": ("prozent",), "fr": ("pour cent", "pourcent"),
                 "es": ("por ciento",), "it": ("per cento", "percento"), "pt": ("por cento",),
                 "ja": ("パーセント",), "ko": ("퍼센트", "프로"), "zh_Hans": (), "zh_Hant": ()}
FILLERS = {"en": ("at", "with", "per", "and", "of", "on", "using", "scaling", "linear", "@", "×", "x", "a", "an"),
           "de": ("mit", "bei", "pro", "und", "von", "à", "auf", "linearen", "linear"),
           "fr": ("à", "avec", "par", "et", "de", "d'une", "d’une", "une", "sur", "linéaire", "au"),
           "es": ("con", "por", "y", "de", "en", "lineal", "uno", "una"),
           "it": ("con", "per", "e", "di", "da", "del", "della", "su", "lineare"),
           "pt": ("com", "por", "e", "de", "em", "linear", "no", "na", "ao"),
           "ja": ("で", "と", "の", "に"), "ko": ("에서", "의", "로"),
           "zh_Hans": ("个", "和", "的", "在", "用"), "zh_Hant": ("個", "和", "的", "在", "用")}
# a rate that is one device's: written after the rate (`2000 img/s each`) or before it (`per GPU 2000 img/s`)
PER_DEVICE = ("each", "apiece", "je", "jeweils", "chacun", "chacune", "cada", "ciascuno", "ciascuna", "各", "각",
              "每卡", "每張", "每张", "每块", "每塊", "单卡", "單卡", "台あたり", "1台あたり", "あたり", "当たり", "당",
              "대당", "개당", "장당")
CLUSTER = ("total", "overall", "aggregate", "cluster", "combined", "actual", "measured", "insgesamt", "gesamt",
           "gesamtdurchsatz", "réel", "mesuré", "real", "medido", "totale", "complessivo", "reale", "effettivo",
           "合計", "合计", "总计", "總計", "总", "總", "실측", "총", "전체", "実測", "実効")
# the words for one device, after which `1` and `one` name a single device (`on 1 GPU`, `single card`)
_DEVICE_WORD = ("gpu|gpus|tpu|tpus|devices?|cards?|chips?|accelerators?|nodes?|geräte?m?|karte|carte|dispositivo|"
                "scheda|placa|tarjeta|appareil")
MODELS = re.compile(r"(?i)(?:a100|a10g?|a30|a40|h100|h200|h800|b100|b200|gh200|gb200|v100|p100|l4|l40s?|t4|"
                    r"mi\d{3}[a-z]?|tpu-?v\d+[a-z]*|v\d+[ep]|gaudi\d?|trn\d|inf\d)s?")
SCALE_WORDS = {"mil": "k", "mille": "k", "mila": "k", "tsd.": "k", "tausend": "k", "thousand": "k",
               "mio.": "M", "mio": "M", "million": "M", "millions": "M", "millionen": "M", "millones": "M",
               "milioni": "M", "milhões": "M", "mrd.": "G", "billion": "G"}
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
