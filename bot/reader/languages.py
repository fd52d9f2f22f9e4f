"""Every word dpscale reads, by language: one `Words` record per shipped language, each with every table.

    LANGUAGES["de"].keys[Quantity.DEVICES]  → ("geräte", "geraete", "gerate")   `geräte=64`
    LANGUAGES["ja"].labels[Quantity.DEVICES] → ("台", "基", …)                    `64台`

A language's record names every table (no field has a default), so a language added without one of them fails
where it is written, and `tests/test_language_tables.py` fails while a shipped catalog has no record or a record
leaves a table empty that its language writes. The readers of the words are elsewhere: `bot.reader.keywords` (named
values, help, forecast), `bot.reader.labels` (the grammar's words), `bot.reader.series_syntax` and the help (the series
form's word). Every language's words are read at once: a Japanese user may type English keys, a Swiss one German or
French.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.model.calculator import Quantity

__all__ = ["LANG", "LANGUAGES", "Words"]

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
LANG = None  # the key that picks the reply's language


@dataclass(frozen=True)
class Words:
    """One language's words; within each table the first is the one dpscale shows."""

    keys: Mapping[Quantity | None, tuple[str, ...]]  # a named value: `devices=64`, `geräte=64`; None: `lang=`
    help: tuple[str, ...]  # the command alone asks for the help
    forecast: tuple[str, ...]  # `at=128` beside a series: the size to forecast
    series: tuple[str, ...]  # the command alone opens the series form
    number_format: tuple[str, ...]  # `format=de-DE`: the number format the user chooses (`bot.format_choice`)
    labels: Mapping[Quantity, tuple[str, ...]]  # a unit or label beside a number: `64 GPUs`, `64台`, `90% eff`
    # a count of devices as an example shows it (`{}` the number): `{} GPUs`, `{} GPU`, `{}台`; its word is a label
    example_count: str
    rate_nouns: tuple[str, ...]  # what one item of a rate is called: `samples/s`, `Bilder pro Sekunde`
    # a rate noun's singular, to the plural a reply writes in the user's unit where the count needs it: `sample/s`
    # → `7.2 samples/s`; its words are rate nouns too
    plurals: Mapping[str, str]
    per_second: tuple[str, ...]  # after the slash of a rate: `img/sec`
    percent: tuple[str, ...]  # a percent sign written out: `90 Prozent`
    fillers: tuple[str, ...]  # words that say nothing and go: `at`, `mit`, `で`
    per_device: tuple[str, ...]  # the rate beside it is one device's: `each`, `jeweils`, `대당`
    cluster: tuple[str, ...]  # the rate beside it is the whole cluster's: `total`, `insgesamt`, `合計`
    scale: Mapping[str, str]  # a scale word after a number, as the suffix it stands for: `2 thousand` is `2k`
    # the phrases of one device (`bot.reader.grammar`'s `single_device`, `per_device`, `count_on_a_model`):
    device_nouns: tuple[str, ...]  # `per GPU`, `on one card`, `16-GPU`, `pro Gerät`
    per: tuple[str, ...]  # before a device noun: `per GPU`, `pro Gerät`
    on: tuple[str, ...]  # before a count of one: `on 1 GPU`, `auf einer Karte`
    one: tuple[str, ...]  # a count of one, after `on`: `on one GPU`, `sur une seule carte`
    single: tuple[str, ...]  # before a device noun: `single card`, `einzelnen GPU`
    # a device word that counts nodes, each of several devices: `8 nodes` is the count of devices only beside a rate
    # said to be one node's (`per node`, `each`), else asked about (`bot.reader.grammar`'s `count_of_nodes`); each is
    # a label and a device noun too
    nodes: tuple[str, ...]


_CHIPS = ("gpu", "gpus", "tpu", "tpus", "node", "nodes", "chip", "chips", "card", "cards", "hpus", "npus", "xpus")
LANGUAGES: dict[str, Words] = {
    "en": Words(
        keys={D: ("devices", "device", "d", "gpus", "n"), V: ("throughput", "per-device", "v", "rate"),
              E: ("efficiency", "eff", "e"),
              A: ("actual", "a", "target", "measured"),  # not `cluster`: `cluster=64` is as likely 64 devices
              LANG: ("lang", "locale", "language")},
        help=("help", "?"), forecast=("at", "forecast"), series=("series",), number_format=("format", "numbers"),
        labels={D: ("devices", "device", *_CHIPS, "accelerators", "accelerator", "workers", "ranks"),
                E: ("efficiency", "eff")},
        example_count="{} GPUs",
        plurals={"sample": "samples", "example": "examples", "image": "images", "token": "tokens",
                 "sequence": "sequences"},
        rate_nouns=("samples", "sample", "examples", "example", "img", "imgs", "images", "image", "tokens", "token",
                    "tok", "seq", "seqs", "sequences", "sequence", "it", "iters", "iterations", "frames", "batches",
                    "queries"),
        per_second=("s", "sec", "second"), percent=("percent", "pct", "per cent"),
        fillers=("at", "with", "per", "and", "of", "on", "using", "scaling", "linear", "@", "×", "x", "a", "an"),
        per_device=("each", "apiece"),
        cluster=("total", "overall", "aggregate", "cluster", "combined", "actual", "measured"),
        scale={"thousand": "k", "million": "M", "millions": "M", "billion": "G"},
        device_nouns=("gpu", "gpus", "tpu", "tpus", "device", "devices", "card", "cards", "chip", "chips",
                      "accelerator", "accelerators", "node", "nodes"),
        per=("per", "a"), on=("on", "with", "using"), one=("one", "a single", "a"), single=("single", "one"),
        nodes=("node", "nodes")),
    "de": Words(
        keys={D: ("geräte", "geraete", "gerate"), V: ("durchsatz",), E: ("effizienz",), A: ("ist", "ziel"),
              LANG: ("sprache",)},
        help=("hilfe",), forecast=("bei", "prognose"), series=("messreihe", "reihe"),
        number_format=("zahlenformat", "format"),
        labels={D: ("geräte", "gerät", "gpus", "gpu", "beschleuniger", "karten", "grafikkarten", "knoten"),
                E: ("effizienz", "skalierungseffizienz")},
        example_count="{} GPUs",
        plurals={"bild": "bilder", "beispiel": "beispiele", "sequenz": "sequenzen"},
        rate_nouns=("beispiele", "bilder", "sequenzen"), per_second=("sekunde",), percent=("prozent",),
        fillers=("mit", "bei", "pro", "und", "von", "à", "auf", "linearen", "linear"),
        per_device=("je", "jeweils"), cluster=("insgesamt", "gesamt", "gesamtdurchsatz"),
        scale={"tsd.": "k", "tausend": "k", "mio.": "M", "mio": "M", "millionen": "M", "mrd.": "G"},
        device_nouns=("gerät", "geräte", "geräten", "karte", "karten", "knoten"),
        per=("pro", "je"), on=("auf", "mit"), one=("einer", "einem"), single=("einzelne", "einzelnen"),
        nodes=("knoten",)),
    "fr": Words(
        keys={D: ("accélérateurs", "accelerateurs", "gpu"), V: ("débit", "debit"), E: ("efficacité", "efficacite"),
              A: ("réel", "reel", "cible"), LANG: ("langue",)},
        help=("aide",), forecast=("prévision", "à", "prevision"), series=("série",), number_format=("format",),
        labels={D: ("accélérateurs", "accélérateur", "gpu", "appareils", "cartes", "nœuds", "noeuds", "nœud", "noeud"),
                E: ("efficacité", "d'efficacité", "d’efficacité")},
        example_count="{} GPU",
        plurals={"échantillon": "échantillons", "jeton": "jetons", "séquence": "séquences"},
        rate_nouns=("échantillons", "éch", "jetons", "séquences"), per_second=("seconde",),
        percent=("pour cent", "pourcent"),
        fillers=("à", "avec", "par", "et", "de", "d'une", "d’une", "une", "sur", "linéaire", "au"),
        per_device=("chacun", "chacune"), cluster=("total", "réel", "mesuré"),
        scale={"mille": "k", "millions": "M"},
        device_nouns=("carte", "cartes", "appareil", "appareils", "nœud", "noeud", "nœuds", "noeuds"),
        per=("par", "à"), on=("sur", "avec"), one=("une seule", "une", "un seul", "un"),
        single=("une seule", "un seul"),
        nodes=("nœuds", "noeuds", "nœud", "noeud")),
    "es": Words(
        keys={D: ("dispositivos", "dispositivo", "disp"), V: ("throughput", "tasa"), E: ("eficiencia", "efic"),
              A: ("real", "medido", "objetivo"), LANG: ("idioma",)},
        help=("ayuda",), forecast=("previsión", "prevision", "pronóstico", "pronostico", "con"), series=("serie",),
        number_format=("formato",),
        labels={D: ("dispositivos", "dispositivo", "gpu", "aceleradores", "tarjetas", "nodos", "nodo"),
                E: ("eficiencia",)},
        example_count="{} GPU",
        plurals={"muestra": "muestras", "imagen": "imágenes", "secuencia": "secuencias", "ejemplo": "ejemplos"},
        rate_nouns=("muestras", "imágenes", "secuencias", "ejemplos"), per_second=("segundo", "seg"),
        percent=("por ciento",), fillers=("con", "por", "y", "de", "en", "lineal", "uno", "una"),
        per_device=("cada",), cluster=("total", "real", "medido"),
        scale={"mil": "k", "millones": "M"},
        device_nouns=("dispositivo", "dispositivos", "tarjeta", "tarjetas", "nodo", "nodos"),
        per=("por",), on=("en", "con"), one=("una sola", "una", "uno", "un"), single=("una sola", "un solo"),
        nodes=("nodos", "nodo")),
    "it": Words(
        keys={D: ("dispositivi", "gpu"), V: ("throughput",), E: ("efficienza",),
              A: ("effettivo", "reale", "obiettivo"), LANG: ("lingua",)},
        help=("aiuto",), forecast=("previsione", "prev", "con"), series=("serie",), number_format=("formato",),
        labels={D: ("dispositivi", "gpu", "acceleratori", "schede", "nodi", "nodo"), E: ("efficienza",)},
        example_count="{} GPU",
        plurals={"campione": "campioni", "immagine": "immagini", "sequenza": "sequenze", "esempio": "esempi"},
        rate_nouns=("campioni", "immagini", "sequenze", "esempi"), per_second=("secondo",),
        percent=("per cento", "percento"),
        fillers=("con", "per", "e", "di", "da", "del", "della", "su", "lineare"),
        per_device=("ciascuno", "ciascuna"), cluster=("totale", "complessivo", "reale", "effettivo"),
        scale={"mille": "k", "mila": "k", "milioni": "M"},
        device_nouns=("scheda", "schede", "nodo", "nodi"),
        per=("per",), on=("su", "con"), one=("una sola", "una", "uno", "un"), single=("una sola", "un solo"),
        nodes=("nodi", "nodo")),
    "pt": Words(
        keys={D: ("dispositivos", "dispositivo", "disp"),
              V: ("throughput", "vazão", "vazao", "taxa"),  # the help shows what every label says: throughput
              E: ("eficiência", "eficiencia", "efic"), A: ("real", "medido", "meta"), LANG: ("idioma",)},
        help=("ajuda",), forecast=("previsão", "previsao", "com"), series=("série",), number_format=("formato",),
        labels={D: ("aceleradores", "gpus", "gpu", "placas", "nós", "nó"), E: ("eficiência",)},
        example_count="{} GPUs",
        plurals={"amostra": "amostras", "imagem": "imagens", "sequência": "sequências", "exemplo": "exemplos"},
        rate_nouns=("amostras", "imagens", "sequências", "exemplos"), per_second=("segundo", "seg"),
        percent=("por cento",), fillers=("com", "por", "e", "de", "em", "linear", "no", "na", "ao"),
        per_device=("cada",), cluster=("total", "real", "medido"),
        scale={"mil": "k", "milhões": "M"},
        device_nouns=("dispositivo", "dispositivos", "placa", "placas", "nó", "nós"),
        per=("por",), on=("em", "com"), one=("uma só", "uma", "um"), single=("uma única",),
        nodes=("nós", "nó")),
    # CJK rates are a noun and `/秒` as in every language, so that `tokens/秒` and `样本/s` read too; scale is a suffix
    # on the number (`2万`), and the phrases of one device are written on the count (`1台あたり`, `GPU당`:
    # `bot.reader.grammar`)
    "ja": Words(
        keys={D: ("デバイス", "台数", "デバイス数"), V: ("スループット", "単体"), E: ("効率", "スケーリング効率"),
              A: ("実効", "実測", "実効スループット", "目標"), LANG: ("言語",)},
        help=("ヘルプ", "使い方"), forecast=("予測",), series=("シリーズ", "スケーリング測定", "測定"),
        number_format=("数値形式", "形式"),
        labels={D: ("台", "基", "デバイス", "台のgpu", "枚のgpu", "基のgpu", "ノード"), V: ("スループット",),
                E: ("効率",)},
        example_count="{}台",
        plurals={},
        rate_nouns=("サンプル", "枚", "トークン", "画像"), per_second=("秒",),
        percent=("パーセント",), fillers=("で", "と", "の", "に"),
        per_device=("各", "台あたり", "1台あたり", "あたり", "当たり"), cluster=("合計", "実測", "実効"),
        scale={}, device_nouns=(), per=(), on=(), one=(), single=(),
        nodes=("ノード",)),
    "ko": Words(
        keys={D: ("디바이스", "장치", "기기"), V: ("처리량", "스루풋"), E: ("효율", "스케일링효율"),
              A: ("실제", "실측", "실제처리량", "목표"), LANG: ("언어",)},
        help=("도움말", "사용법"), forecast=("예측",), series=("시리즈",), number_format=("형식",),
        labels={D: ("대", "개", "장", "디바이스", "장치", "노드"), V: ("처리량", "스루풋"), E: ("효율",)},
        example_count="{}개",
        plurals={},
        rate_nouns=("샘플", "이미지", "토큰"), per_second=("초",),
        percent=("퍼센트", "프로"), fillers=("에서", "의", "로"),
        per_device=("각", "당", "대당", "개당", "장당"), cluster=("실측", "총", "전체"),
        scale={}, device_nouns=(), per=(), on=(), one=(), single=(),
        nodes=("노드",)),
    # Chinese writes a percentage as 百分之九十, before the number, which dpscale does not read: no percent words
    "zh_Hans": Words(
        keys={D: ("设备", "设备数", "卡数", "裝置", "设備"), V: ("吞吐量", "吞吐", "单卡吞吐"), E: ("效率", "扩展效率"),
              A: ("实际", "实际吞吐量", "集群吞吐量", "實際", "叢集吞吐量", "目标"), LANG: ("语言",)},
        help=("帮助", "用法"), forecast=("预测",), series=("系列", "多规模测量"), number_format=("格式", "数字格式"),
        labels={D: ("张卡", "块卡", "设备", "台", "张", "块", "颗", "卡", "块gpu", "张gpu", "个gpu", "颗gpu", "节点"),
                V: ("吞吐量",), E: ("效率",)},
        example_count="{} 张卡",
        plurals={},
        rate_nouns=("样本", "图像", "图片", "图", "张"), per_second=("秒",),
        percent=(), fillers=("个", "和", "的", "在", "用"),
        per_device=("各", "每卡", "每张", "每块", "单卡", "每台", "单台", "每台设备", "单设备", "每张卡", "每块卡"),
        cluster=("合计", "总计", "总"),
        scale={}, device_nouns=(), per=(), on=(), one=(), single=(),
        nodes=("节点",)),
    "zh_Hant": Words(
        keys={D: ("裝置", "裝置數", "設備", "设备"), V: ("吞吐量", "吞吐"), E: ("效率", "擴展效率"),
              A: ("實際", "實際吞吐量", "叢集吞吐量", "实际", "集群吞吐量", "目標"), LANG: ("語言",)},
        help=("說明", "幫助"), forecast=("預測",), series=("系列", "多規模量測", "系列量測", "系列測定"),
        number_format=("格式", "數字格式"),
        labels={D: ("張卡", "塊卡", "裝置", "台", "張", "塊", "顆", "gpu", "張gpu", "塊gpu", "個gpu", "顆gpu", "節點"),
                V: ("吞吐量",), E: ("效率",)},
        example_count="{} 張 GPU",
        plurals={},
        rate_nouns=("樣本", "影像", "圖片", "圖", "張"), per_second=("秒",),
        percent=(), fillers=("個", "和", "的", "在", "用"),
        per_device=("各", "每張", "每塊", "單卡", "每卡", "每台", "單台", "每台裝置", "單一裝置", "每張卡", "每塊卡"),
        cluster=("合計", "總計", "總"),
        scale={}, device_nouns=(), per=(), on=(), one=(), single=(),
        nodes=("節點",)),
}
