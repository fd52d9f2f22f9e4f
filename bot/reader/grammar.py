"""The grammar of labelled numbers: how a unit or a label attaches to a number, as ordered tables of named rows.

    64 GPUs: 2000 img/s, 90%       → devices 64, throughput 2000, efficiency 90 %: a colon after a unit ends it
    per GPU 2000 img/s, 64 GPUs    → `per GPU` says the rate is one device's; it is no count of devices
    64 A100 GPUs @ 2000 img/s      → a model name before a word for devices goes with it; `@` says nothing
    64 2000 efficiency 90          → asked: `efficiency` could be 2000's or 90's

`PHRASES` rewrite the command's text before its words are told apart (a rate spelled out, a single device, a count
written on a model, scale words); `ATTACHMENTS` say which number a label is for; `QUESTIONS` are what is asked or
refused instead of guessed. Every outcome names its row by the table's own enum (`Phrasing`, `Attachment`, `Doubt`), so
a test can count that each row fires, and `docs/reading.md` shows each row with an example computed by today's code
(`scripts/reading_rules.py`). The words themselves are `bot.reader.labels`'; `bot.reader.attachment` applies the rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from bot.model.calculator import Quantity
from bot.reader.folding import has_numeral
from bot.reader.grouping import KEYED, LABEL
from bot.reader.labels import MODELS, NODES, RATE_NOUNS, SCALE_WORDS
from bot.reader.languages import LANGUAGES

__all__ = ["ATTACHMENTS", "CJK", "NUM", "PER", "PER_MARK", "PHRASES", "QUESTIONS", "Attachment", "Doubt",
           "GrammarRow", "Phrase", "Phrasing", "Row", "is_node_phrase", "is_number", "label_word", "read_label",
           "rewrite"]

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
PER = "per"  # what a per-device phrase names: a rate, and that it is one device's
_PAYLOAD = "\ue004"  # between a label's quantity and its word as typed: `\ue003devices\ue004GPUs`
PER_MARK, _SPACE = "\ue010", "\ue011"  # a per-device phrase, kept one word (`per GPU`)


class Phrasing(StrEnum):
    """The name of a row of `PHRASES`, in the rows a command was read by (`Command.grammar`)."""

    SINGLE_DEVICE = "single_device"
    PER_DEVICE = "per_device"
    CJK_WRITTEN_TOGETHER = "cjk_written_together"
    PER_SECOND_SPELLED_OUT = "per_second_spelled_out"
    PER_SECOND_AFTER_THE_NOUN = "per_second_after_the_noun"
    PER_SECOND_BEFORE_THE_NUMBER = "per_second_before_the_number"
    COUNT_ON_A_MODEL = "count_on_a_model"
    MODEL_BEFORE_A_DEVICE_WORD = "model_before_a_device_word"
    SCALE_WORD = "scale_word"


class Attachment(StrEnum):
    """The name of a row of `ATTACHMENTS`, in the rows a command was read by (`Command.grammar`)."""

    UNIT_ON_ITS_NUMBER = "unit_on_its_number"
    COLON_AFTER_A_UNIT = "colon_after_a_unit"
    UNIT_AFTER_ITS_NUMBER = "unit_after_its_number"
    LABEL_BEFORE_ITS_NUMBER = "label_before_its_number"
    UNIT_BESIDE_A_UNIT = "unit_beside_a_unit"
    PERCENT_SIGN = "percent_sign"
    FILLER = "filler"
    PER_DEVICE_BESIDE_A_CLUSTER_RATE = "per_device_beside_a_cluster_rate"
    ONE_DEVICE_BESIDE_A_COUNT = "one_device_beside_a_count"
    BARE_NUMBERS_IN_ORDER = "bare_numbers_in_order"


class Doubt(StrEnum):
    """The name a question of `QUESTIONS` carries (`UserInputError.rule`), one per row."""

    LABEL_BETWEEN_TWO_NUMBERS = "label_between_two_numbers"
    TWO_UNITS_ON_ONE_NUMBER = "two_units_on_one_number"
    NUMBERS_OUT_OF_ORDER = "numbers_out_of_order"
    GROUP_BEFORE_A_UNIT = "group_before_a_unit"
    UNKNOWN_UNIT = "unknown_unit"
    COUNT_OF_NODES = "count_of_nodes"
    CLUSTER_WORD_ON_A_BARE_NUMBER = "cluster_word_on_a_bare_number"


GrammarRow = Phrasing | Attachment | Doubt


@dataclass(frozen=True)
class Row:
    """One row of the grammar: its name, what it says, and an example (locale, text)."""

    name: GrammarRow
    says: str
    example: tuple[str, str]


@dataclass(frozen=True)
class Phrase(Row):
    """A rewrite of a command's text, before its words are told apart."""

    pattern: re.Pattern[str]
    replace: str




def _any(table: str) -> str:
    """Every language's words of one table of `bot.reader.languages`, as one alternation, the longest first."""
    words = {word for language in LANGUAGES.values() for word in getattr(language, table)}
    return "(?:" + "|".join(sorted(map(re.escape, words), key=lambda word: (-len(word), word))) + ")"


_DEV = _any("device_nouns")
_NOUN = "(?:" + "|".join(sorted(map(re.escape, RATE_NOUNS), key=len, reverse=True)) + ")"
NUM = r"\d[\d.,'’\u202f]*(?:[kKMG]|(?:[千천万萬만亿億억]\d*)+)?"  # `2k`, `2万`, `11만5200` (`bot.reader.myriads`)
_SCALES = "|".join(sorted(map(re.escape, SCALE_WORDS), key=len, reverse=True))
CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_PER_WORDS = _any("per")
# a rate's noun (any language's, or Korean `개`) after `毎秒` and a number, with a measure word: `每秒 2000 个样本`
_CJK_NOUN = rf"(?:(?:个|個|张|張)\s*)?(?:{_NOUN}|개)"
# before `毎秒`, only a noun that counts no devices: `64 张 每秒 2000` is 64 cards, `64枚` 64 boards
_COUNTERS = ("张", "張", "枚")
_RATE_ONLY = r"(?:(?:个|個)\s*)?(?:" + "|".join(
    sorted((re.escape(noun) for noun in RATE_NOUNS if noun not in _COUNTERS), key=len, reverse=True)) + ")"
PHRASES: tuple[Phrase, ...] = (
    Phrase(Phrasing.SINGLE_DEVICE,
           "`on 1 GPU`, `single card`, `on one`: a rate that is one device's, not a count.",
           ("en-US", "64 GPUs, 2000 img/s on 1 GPU, 90%"),
           re.compile(rf"(?i)\b(?:{_any('on')}\s+(?:1|{_any('one')[3:]}\s+{_DEV}|{_any('single')}\s+{_DEV}|on one)\b|"
                      r"(?<![\d.,])1\s*(?:台|枚|基)\s*(?:あたり|当たり)"),
           f" {PER_MARK}single{_SPACE}device "),
    Phrase(Phrasing.PER_DEVICE,
           "`per GPU`, `/GPU`, `pro Gerät`, `GPU당`, `GPU当たり`: the rate beside it is one device's.",
           ("en-US", "per GPU 2000 img/s, 64 GPUs, 90%"),
           re.compile(rf"(?i)(?:\b{_PER_WORDS}[- ]|(?<=\d)/){_DEV}(?![\w/])|(?:gpu|卡|デバイス|장치|기기|디바이스)"
                      r"\s*(?:당|当たり|あたり)"), f" {PER_MARK}per{_SPACE}device "),
    Phrase(Phrasing.CJK_WRITTEN_TOGETHER,
           "CJK words and numbers written together are read apart (not `2万`, nor `11만5200`).",
           ("ja-JP", "64台で2000サンプル/秒、効率90%"),
           re.compile(rf"(?<=[\d%])(?=[{CJK}])(?![千천万萬만亿億억])|(?<=[{CJK}])(?<!\d[千천万萬만亿億억])(?=\d)"),
           " "),
    Phrase(Phrasing.PER_SECOND_SPELLED_OUT,
           "A rate spelled out is a rate: `samples per second`, `Samples pro Sekunde`.",
           ("de-DE", "64 GPUs 2.000 Samples pro Sekunde 90 %"),
           re.compile(rf"(?i)(?<![\w/])({_NOUN})(?:\s+(?:per|a|pro|par|por|al|each)\s+(?:second|sekunde|seconde|"
                      r"segundo|secondo)|/(?:sec|second|seconde|segundo|secondo|sekunde|seg))\b"), r"\1/s"),
    Phrase(Phrasing.PER_SECOND_AFTER_THE_NOUN,
           "`毎秒`, `每秒` after a number and its noun end a rate: `2000 样本每秒`.",
           ("zh-CN", "64 2000 样本每秒 90%"),
           re.compile(rf"(?i)(?<![\w.,])({NUM})\s*{_RATE_ONLY}\s*(?:毎秒|每秒)(?![\w/%])"), r"\1 /s"),
    Phrase(Phrasing.PER_SECOND_BEFORE_THE_NUMBER,
           "`毎秒`, `每秒`, `초당` before a number make it a rate (never before a percentage).",
           ("ko-KR", "64대 초당 2000 샘플 효율 90%"),
           re.compile(rf"(?i)(?:毎秒|每秒|초당)\s*({NUM})(?:\s*{_CJK_NOUN})?(?![\w/%])"), r"\1 /s"),
    Phrase(Phrasing.COUNT_ON_A_MODEL,
           "A count written on a device word or a model: `16-GPU`, `8×A100`, `8x H100`.",
           ("en-US", "8×A100 at 2000 img/s, 90%"),
           re.compile(rf"(?i)(?<=\d)(?:-|\s*[×x]\s*)(?=(?:{_DEV}|{MODELS.pattern[4:]})(?![\w]))"), " "),
    Phrase(Phrasing.MODEL_BEFORE_A_DEVICE_WORD,
           "A model name before a word for devices goes with it: `64 A100 GPUs`.",
           ("en-US", "64 A100 GPUs at 2000 img/s, 90%"),
           re.compile(rf"(?i)(?<![\w-]){MODELS.pattern[4:]}[\s-]+(?={_DEV}\b)"), ""),
    Phrase(Phrasing.SCALE_WORD,
           "A scale word after a number is its suffix: `115,2 mil`, `1,2 Mio.`, `2 thousand`.",
           ("pt-BR", "64 GPUs, 115,2 mil amostras/s, 90%"),
           re.compile(rf"(?i)(?<=\d)\s*({_SCALES})(?![\w.])"), ""),
)


def _scale(match: re.Match[str]) -> str:
    return SCALE_WORDS[match.group(1).casefold()]


def _one_device(kind: str) -> Callable[[re.Match[str]], str]:
    """A phrase of one device written as one `PER_MARK` word (`per device`, `single device`), naming a node where
    the phrase does (`per node`, `on one node`): a rate of a node is several devices' (`is_node_phrase`)."""
    def marked(match: re.Match[str]) -> str:
        node = any(word in NODES for word in re.findall(r"[^\W\d_]+", match.group(0).casefold()))
        if re.search(f"[{CJK}]", match.group(0)):  # `1台あたり`, `디바이스당`: kept as typed, written before the rate
            return f" {PER_MARK}{_SPACE.join(re.sub(r'[0-9]', '', match.group(0)).split())} "  # no digit to split off
        return f" {PER_MARK}{kind}{_SPACE}{'node' if node else 'device'} "
    return marked


def is_node_phrase(shown: str) -> bool:
    """Whether a phrase of one device (`read_label`'s word) names a node: `per node`, `on one node`."""
    return shown.endswith(" node")


_REPLACED: dict[GrammarRow, Callable[[re.Match[str]], str]] = {
    Phrasing.SCALE_WORD: _scale, Phrasing.PER_DEVICE: _one_device("per"), Phrasing.SINGLE_DEVICE: _one_device("single")}


ATTACHMENTS: tuple[Row, ...] = (
    Row(Attachment.UNIT_ON_ITS_NUMBER,
        "A unit written on its number is that number's: `64台`, `2000img/s`, `2000/s`.",
        ("en-US", "64 2000/s 90%")),
    Row(Attachment.COLON_AFTER_A_UNIT,
        "A colon after a unit or device word ends it: `64 GPUs: 2000 img/s` (a key word's "
        "colon, `d: 64`, still names the number after it).", ("en-US", "64 GPUs: 2000 img/s, 90%")),
    Row(Attachment.UNIT_AFTER_ITS_NUMBER,
        "A unit or label right after a number names it: `64 GPUs`, `90% efficiency`.",
        ("en-US", "2000 img/s 64 GPUs 90%")),
    Row(Attachment.LABEL_BEFORE_ITS_NUMBER,
        "A label with no number before it names the one after it: `efficiency 90%`, "
        "`GPU 64개`; so does a CJK word that says whose a rate is, written before the rate even after a count "
        "(`64 单卡2000`, `64 대당 2000`, `总115200`).", ("en-US", "efficiency 90% 64 GPUs 2000")),
    Row(Attachment.UNIT_BESIDE_A_UNIT,
        "A unit right after another one of the same number confirms it: `2000 img/s per "
        "GPU`, `actual throughput: 115200`.", ("en-US", "64 GPUs, 2000 img/s each, 90%")),
    Row(Attachment.PERCENT_SIGN,
        "A percent sign settles the efficiency, wherever it stands.", ("en-US", "90% 64 2000")),
    Row(Attachment.FILLER,
        "A filler says nothing and goes: `at`, `@`, `×`, `with`, `mit`, `avec`, `で`.",
        ("en-US", "64 GPUs @ 2000 img/s with 90%")),
    Row(Attachment.PER_DEVICE_BESIDE_A_CLUSTER_RATE,
        "Of two rates, the one said to be one device's is the throughput, the "
        "other the cluster's actual throughput.", ("en-US", "64 GPUs, 2000 img/s per GPU, 115200 img/s")),
    Row(Attachment.ONE_DEVICE_BESIDE_A_COUNT,
        "`1 GPU` beside another count of devices: the rate after it is one device's.",
        ("en-US", "1 GPU: 2000 img/s, 64 GPUs: 115200 img/s")),
    Row(Attachment.BARE_NUMBERS_IN_ORDER,
        "Numbers no unit names take the values left in the order devices, throughput, "
        "efficiency.", ("en-US", "64 GPUs 2000 90%")),
)
QUESTIONS: tuple[Row, ...] = (
    Row(Doubt.LABEL_BETWEEN_TWO_NUMBERS,
        "A label that could name the number before it or the one after it is asked "
        "about.", ("en-US", "64 2000 efficiency 90")),
    Row(Doubt.TWO_UNITS_ON_ONE_NUMBER,
        "A number two units name differently (`efficiency 64 GPUs`) is asked about.",
        ("en-US", "efficiency 64 GPUs 2000 90%")),
    Row(Doubt.NUMBERS_OUT_OF_ORDER,
        "Where a unit names a number out of the order devices, throughput, efficiency, two "
        "or more numbers without a unit are asked about, not placed by order.", ("en-US", "2000 img/s 64 90")),
    Row(Doubt.GROUP_BEFORE_A_UNIT,
        "A unit after a group of three that a number stands right before, left apart by "
        "the count of numbers (`115 200 img/s`), is asked about.", ("fr-FR", "64 GPU 115 200 img/s")),
    Row(Doubt.UNKNOWN_UNIT,
        "A word written as a unit after a number that dpscale does not know (`TFLOPS`) is named.",
        ("en-US", "64 GPUs 2000 TFLOPS 90%")),
    Row(Doubt.COUNT_OF_NODES,
        "A count of nodes is the count of devices only beside a rate said to be one node's (`per node`, `each`) "
        "and no other count of devices; otherwise it, or a rate per node, is asked about: a node holds several "
        "devices.", ("en-US", "8 nodes 2000 90%")),
    Row(Doubt.CLUSTER_WORD_ON_A_BARE_NUMBER,
        "A CJK word for the whole cluster (`总`, `合計`, `총`) on a number with no rate unit is asked about: the "
        "cluster's throughput, or its count of devices?", ("zh-CN", "总 64 每卡 2000 90%")),
)

def label_word(quantity: Quantity | str, shown: str) -> str:
    """A `LABEL` word: the quantity it names (or `PER`) and the word as typed."""
    name = quantity.value if isinstance(quantity, Quantity) else quantity
    return f"{LABEL}{name}{_PAYLOAD}{shown}"

def read_label(word: str) -> tuple[str, str]:
    """A `LABEL` word's quantity name and its word as typed."""
    name, _, shown = word[1:].partition(_PAYLOAD)
    return name, shown.replace(_SPACE, " ").lstrip(PER_MARK)

def rewrite(text: str, rows: list[GrammarRow]) -> str:
    """The text with every phrase of `PHRASES` rewritten, each row that did so named in `rows`."""
    for phrase in PHRASES:
        replace = _REPLACED.get(phrase.name, phrase.replace)
        text, count = phrase.pattern.subn(replace, text)  # type: ignore[call-overload]
        if count:
            rows.append(phrase.name)
    return text

def is_number(word: str) -> bool:
    """A bare number (`64`, `2,000`, `90%`): no named value, no label."""
    return has_numeral(word) and not KEYED.match(word) and word[:1] != LABEL
