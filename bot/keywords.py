"""The words a user may name a value with (`devices=64`, `geräte=64`, `効率=90%`), in every shipped language.

Each language lists its own natural words, first the one its help shows. The parser accepts the words of every
language at once (a Japanese user may type English keys, a Swiss one German or French), matched as whole words
after case folding: `実効スループット=` is actual throughput, never `スループット=` (per-device throughput) by a
prefix or substring. A word that two languages share must name the same quantity in both; `CONFLICTS_REFUSED`
records the words deliberately left out because they would not (the tests check both).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from bot.calculator import Quantity

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
LANG = None  # the key that picks the reply's language

WORDS: dict[str, dict[Quantity | None, tuple[str, ...]]] = {
    "en": {
        D: ("devices", "device", "d", "gpus", "n"),
        V: ("throughput", "per-device", "v", "rate"),
        E: ("efficiency", "eff", "e"),
        A: ("actual", "a", "target", "measured"),  # not `cluster`: `cluster=64` is as likely 64 devices
        LANG: ("lang", "locale", "language"),
    },
    "de": {
        D: ("geräte", "geraete", "gerate"),
        V: ("durchsatz",),
        E: ("effizienz",),
        A: ("ist", "ziel"),
        LANG: ("sprache",),
    },
    "fr": {
        D: ("accélérateurs", "accelerateurs", "gpu"),
        V: ("débit", "debit"),
        E: ("efficacité", "efficacite"),
        A: ("réel", "reel", "cible"),
        LANG: ("langue",),
    },
    "es": {
        D: ("dispositivos", "dispositivo", "disp"),
        V: ("throughput", "tasa"),
        E: ("eficiencia", "efic"),
        A: ("real", "medido", "objetivo"),
        LANG: ("idioma",),
    },
    "it": {
        D: ("dispositivi", "gpu"),
        V: ("throughput",),
        E: ("efficienza",),
        A: ("effettivo", "reale", "obiettivo"),
        LANG: ("lingua",),
    },
    "pt": {
        D: ("dispositivos", "dispositivo", "disp"),
        V: ("throughput", "vazão", "vazao", "taxa"),  # the help shows what every label says: throughput
        E: ("eficiência", "eficiencia", "efic"),
        A: ("real", "medido", "meta"),
        LANG: ("idioma",),
    },
    "ja": {
        D: ("デバイス", "台数", "デバイス数"),
        V: ("スループット", "単体"),
        E: ("効率", "スケーリング効率"),
        A: ("実効", "実測", "実効スループット"),
    },
    "ko": {
        D: ("디바이스", "장치", "기기"),
        V: ("처리량", "스루풋"),
        E: ("효율", "스케일링효율"),
        A: ("실제", "실측", "실제처리량"),
    },
    "zh_Hans": {
        D: ("设备", "设备数", "卡数", "裝置", "设備"),
        V: ("吞吐量", "吞吐", "单卡吞吐"),
        E: ("效率", "扩展效率"),
        A: ("实际", "实际吞吐量", "集群吞吐量", "實際", "叢集吞吐量"),
    },
    "zh_Hant": {
        D: ("裝置", "裝置數", "設備", "设备"),
        V: ("吞吐量", "吞吐"),
        E: ("效率", "擴展效率"),
        A: ("實際", "實際吞吐量", "叢集吞吐量", "实际", "集群吞吐量"),
    },
}
HELP: dict[str, tuple[str, ...]] = {
    "en": ("help", "?"),
    "de": ("hilfe",),
    "fr": ("aide",),
    "es": ("ayuda",),
    "it": ("aiuto",),
    "pt": ("ajuda",),
    "ja": ("ヘルプ", "使い方"),
    "ko": ("도움말", "사용법"),
    "zh_Hans": ("帮助", "用法"),
    "zh_Hant": ("說明", "幫助"),
}
# `at=128` with a measurement series: the cluster size to forecast (`bot.forecast`); its help shows the first word
FORECAST: dict[str, tuple[str, ...]] = {
    "en": ("at", "forecast"),
    "de": ("bei", "prognose"),
    "fr": ("à", "prévision", "prevision"),
    "es": ("con", "pronóstico", "pronostico"),
    "it": ("con", "previsione"),
    "pt": ("com", "previsão", "previsao"),
    "ja": ("予測",),
    "ko": ("예측",),
    "zh_Hans": ("预测",),
    "zh_Hant": ("預測",),
}
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
def shown_keys(catalog: str) -> Mapping[Quantity | None, str]:
    """The word the help shows for each quantity in a language: its own first word, else the English one."""
    own = WORDS[word_list(catalog)]
    return MappingProxyType({quantity: (own.get(quantity) or WORDS["en"][quantity])[0] for quantity in WORDS["en"]})
