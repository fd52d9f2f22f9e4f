"""The grammar of labelled numbers is a table you can count (`bot.reader.grammar`): every row decides its own example
and fires on generated input; a sentence's labelled parts may stand in any order; taking a unit away never turns an
answer into another answer."""

from __future__ import annotations

import doctest
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import bot.reader.attachment
import bot.reader.labels
from bot.errors import UserInputError
from bot.model.calculator import Quantity
from bot.reader.grammar import ATTACHMENTS, PHRASES, QUESTIONS, Attachment, Doubt, Phrasing, Row
from bot.reader.numbers import resolve_locale
from bot.reader.parsing import parse_command
from examples import examples

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
ROWS = (*PHRASES, *ATTACHMENTS, *QUESTIONS)


def decided_by(tag: str, text: str) -> tuple[str, ...] | str | None:
    """The rows that read a command, or the one that asked about or refused it."""
    try:
        return parse_command(text, resolve_locale(tag)).grammar
    except UserInputError as error:
        return error.rule


def test_the_rows_have_names_of_their_own():
    assert len({row.name for row in ROWS}) == len(ROWS)


def test_every_grammar_name_has_its_one_row_in_its_own_table():
    """A name given in code but missing from its table (or twice in it) would decide with no row to show."""
    assert [row.name for row in PHRASES] == list(Phrasing)
    assert [row.name for row in ATTACHMENTS] == list(Attachment)
    assert [row.name for row in QUESTIONS] == list(Doubt)
    assert all(isinstance(row.name, Phrasing | Attachment | Doubt) for row in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_every_row_decides_its_own_example(row: Row):
    """Each outcome carries its row's own name: the table's member, never a string that only equals it."""
    decided = decided_by(*row.example)
    if row in QUESTIONS:
        assert decided is row.name, decided
    else:
        assert isinstance(decided, tuple) and row.name in decided, decided
        assert all(isinstance(each, Phrasing | Attachment) for each in decided), decided


@pytest.mark.parametrize("module", [bot.reader.attachment, bot.reader.labels], ids=lambda module: module.__name__)
def test_the_doctests_hold(module):
    assert doctest.testmod(module).failed == 0


# what each row reads, generated: (locale, text, the values meant or None where a question or refusal is meant)
counts = st.integers(2, 512)
rates = st.integers(1000, 99999)  # `64 310 img/s` is asked about where groups may join (`group_before_a_unit`)
percents = st.integers(10, 100)
UNITS = ("img/s", "samples/s", "tokens/s", "seq/s", "it/s")
SPELLED = (("en-US", "samples per second"), ("de-DE", "Samples pro Sekunde"), ("es-ES", "muestras por segundo"),
           ("fr-FR", "échantillons par seconde"), ("it-IT", "campioni al secondo"), ("pt-BR", "amostras por segundo"),
           ("en-US", "examples/sec"))
MODELS = ("A100", "H100", "MI300X", "v5e", "H200", "V100")


def _values(d: int, v: int, e: int) -> dict[Quantity, Decimal]:
    return {D: Decimal(d), V: Decimal(v), E: Decimal(e) / 100}


@st.composite
def generated(draw: st.DrawFn, name: str) -> tuple[str, str, dict[Quantity, Decimal] | None]:
    """A command that row `name` reads (or asks about), with its values drawn."""
    d, v, e = draw(counts), draw(rates), draw(percents)
    unit = draw(st.sampled_from(UNITS))
    read = _values(d, v, e)
    made: dict[str, tuple[str, str, dict[Quantity, Decimal] | None]] = {
        "cjk_written_together": ("ja-JP", f"{d}台で{v}サンプル/秒、効率{e}%", read),
        "per_second_spelled_out": (*(lambda s: (s[0], f"{d} GPUs {v} {s[1]} {e}%"))(draw(st.sampled_from(SPELLED))),
                                   read),
        "per_second_after_the_noun": draw(st.sampled_from([("zh-CN", f"{d}张卡 {v}样本每秒 效率{e}%", read),
                                                           ("zh-TW", f"{d} {v} 個樣本每秒 {e}%", read),
                                                           ("ja-JP", f"{d}台 {v}サンプル毎秒 効率{e}%", read)])),
        "per_second_before_the_number": draw(st.sampled_from([("ko-KR", f"{d}대 초당 {v} 샘플 효율 {e}%", read),
                                                              ("zh-CN", f"{d}张卡 每秒{v}样本 效率{e}%", read),
                                                              ("zh-CN", f"每秒 {v} 个样本 {d} 张卡 {e}%", read),
                                                              ("ja-JP", f"{d}台 毎秒{v}サンプル 効率{e}%", read)])),
        "single_device": ("en-US", f"{d} GPUs, {v} {unit} on 1 GPU, {e}%", read),
        "per_device": ("en-US", f"per GPU {v} {unit}, {d} GPUs, {e}%", read),
        "count_on_a_model": ("en-US", f"{d}-GPU run at {v} {unit}, {e}%".replace(" run", ""), read),
        "model_before_a_device_word": ("en-US", f"{d} {draw(st.sampled_from(MODELS))} GPUs at {v} {unit} {e}%", read),
        "scale_word": ("pt-BR", f"{d} GPUs, {v} mil amostras/s, {e}%", {**read, V: Decimal(v) * 1000}),
        "unit_on_its_number": ("en-US", f"{d} {v}/s {e}%", read),
        "colon_after_a_unit": ("en-US", f"{d} GPUs: {v} {unit}, {e}%", read),
        "unit_after_its_number": ("en-US", f"{v} {unit} {d} GPUs {e}%", read),
        "label_before_its_number": ("en-US", f"efficiency {e}% {d} GPUs {v}", read),
        "unit_beside_a_unit": ("en-US", f"{d} GPUs, {v} {unit} each, {e}%", read),
        "percent_sign": ("en-US", f"{e}% {d} GPUs {v}", read),
        "filler": ("en-US", f"{d} GPUs @ {v} {unit} with {e}%", read),
        "per_device_beside_a_cluster_rate": ("en-US", f"{d} GPUs, {v} {unit} per GPU, {v * d} {unit}",
                                             {D: Decimal(d), V: Decimal(v), A: Decimal(v * d)}),
        "one_device_beside_a_count": ("en-US", f"1 GPU: {v} {unit}, {d} GPUs: {v * d} {unit}",
                                      {D: Decimal(d), V: Decimal(v), A: Decimal(v * d)}),
        "bare_numbers_in_order": ("en-US", f"{d} GPUs {v} {e}%", read),
        "label_between_two_numbers": ("en-US", f"{d} {v} efficiency {e}", None),
        "two_units_on_one_number": ("en-US", f"efficiency {d} GPUs {v} {e}%", None),
        "numbers_out_of_order": ("en-US", f"{v} {unit} {d} {e}", None),
        "group_before_a_unit": ("fr-FR", f"{d} GPU {draw(st.integers(1, 999))} {draw(st.integers(100, 999))} {unit}",
                                None),
        "unknown_unit": ("en-US", f"{d} GPUs {v} {draw(st.sampled_from(['TFLOPS', 'GB/s', 'W/s']))} {e}%", None),
        "count_of_nodes": draw(st.sampled_from([("en-US", f"{d} nodes {v} {unit} {e}%", None),
                                                ("en-US", f"{d * 8} GPUs on {d} nodes, {v} {unit}, {e}%", None),
                                                ("en-US", f"{d} GPUs, {v} {unit} per node, {e}%", None),
                                                ("de-DE", f"{d} Knoten mit {v} {unit}, {e} %", None)])),
        "cluster_word_on_a_bare_number": draw(st.sampled_from([("zh-CN", f"总 {d} 每卡 {v} {e}%", None),
                                                               ("ko-KR", f"총 {d} 대당 {v} {e}%", None),
                                                               ("ja-JP", f"合計{d} 各{v} {e}%", None)])),
    }
    return made[name]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), row=st.sampled_from(ROWS))
def test_every_row_fires_on_generated_input_and_reads_what_was_meant(data: st.DataObject, row: Row):
    tag, text, meant = data.draw(generated(row.name))
    event(row.name)
    try:
        command = parse_command(text, resolve_locale(tag))
    except UserInputError as error:
        assert meant is None and error.rule is row.name, (text, error)
        return
    assert meant is not None and row.name in command.grammar, (text, command.grammar)
    assert command.values == meant, text


PARTS = {D: ("{d} GPUs", "{d} devices", "{d} H100s", "{d}台"), V: ("{v} img/s", "{v} samples/s per GPU",
                                                                  "{v} tokens/s each"),
         E: ("{e}%", "{e}% efficiency", "efficiency {e}%")}


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=counts, v=rates, e=percents, shapes=st.tuples(*(st.sampled_from(PARTS[q]) for q in (D, V, E))),
       order=st.permutations([0, 1, 2]), joiner=st.sampled_from([" ", ", ", " and "]))
def test_the_labelled_parts_of_a_sentence_may_stand_in_any_order(d, v, e, shapes, order, joiner):
    parts = [shape.format(d=d, v=v, e=e) for shape in shapes]
    text = joiner.join(parts[index] for index in order)
    assert parse_command(text, resolve_locale("en-US")).values == _values(d, v, e), text


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=counts, v=rates, e=percents, order=st.permutations([0, 1, 2]), dropped=st.sampled_from([0, 1, 2]))
def test_taking_a_unit_away_leaves_the_reading_or_asks_never_another_answer(d, v, e, order, dropped):
    """The efficiency without its sign (`efficiency 90`), so that a number left without its unit may be either of
    two values: then it is asked about, or read as the order of the numbers says, the same reading."""
    parts = [(f"{d}", " GPUs"), (f"{v}", " img/s"), ("efficiency ", f"{e}")]
    text = " ".join("".join(part) for part in (parts[index] for index in order))
    assume(not (order.index(2) + 1 == order.index(0) and d >= 100))  # `efficiency 10 100 GPUs`: asked, rightly
    assert parse_command(text, resolve_locale("en-US")).values == _values(d, v, e), text
    unit = parts[dropped][0 if dropped == 2 else 1]
    shorter = " ".join("".join(piece for piece in parts[index] if index != dropped or piece != unit) for index in order)
    try:
        read = parse_command(shorter, resolve_locale("en-US")).values
    except UserInputError:
        event("asked or refused")
        return
    event("read alike")
    assert read == _values(d, v, e), shorter


# forms native readers type, each once refused or misread: the values meant (devices, throughput, efficiency %)
NATIVE = [
    ("zh-CN", "64 2000 样本每秒 90%", (64, 2000, 90)),  # 每秒 after the noun ends the rate (it read `每秒 90`)
    ("zh-TW", "64 2000 樣本每秒 90%", (64, 2000, 90)),
    ("ja-JP", "64台 2,000サンプル毎秒 効率90%", (64, 2000, 90)),
    ("zh-CN", "每秒 2000 个样本 64 张卡 90%", (64, 2000, 90)),  # a measure word before the noun
    ("zh-TW", "每秒 2,000 個樣本 64 張卡 90%", (64, 2000, 90)),
    ("zh-CN", "64 张 每秒 2000 90%", (64, 2000, 90)),  # 张 counts the cards here: 64 is no rate
    ("zh-TW", "64 張 每秒 2,000 90%", (64, 2000, 90)),
    ("zh-CN", "64 张卡 2,000 tokens/秒 90%", (64, 2000, 90)),  # a rate's noun and its `/秒` from any language's table
    ("zh-TW", "64 張卡 2,000 token/秒 90%", (64, 2000, 90)),
    ("zh-CN", "64 2000 图/秒 90%", (64, 2000, 90)),
    ("zh-CN", "64 2000 样本/s 90%", (64, 2000, 90)),
    ("ja-JP", "64台 2,000 tokens/秒 90%", (64, 2000, 90)),
    ("ko-KR", "64대 2,000 tokens/초 효율 90%", (64, 2000, 90)),
    ("zh-CN", "64 台设备 2000 90%", (64, 2000, 90)),  # the reply's own words for devices
    ("zh-TW", "64 台裝置 2000 90%", (64, 2000, 90)),
    ("zh-CN", "64台设备，2,000 样本/秒，90%", (64, 2000, 90)),
    ("zh-CN", "64 个设备 每秒 2,000 个样本 效率 90%", (64, 2000, 90)),  # a measure word, glued to its noun or not
    ("zh-CN", "64块卡 2,000个样本/秒 90%", (64, 2000, 90)),
    ("zh-TW", "64 個裝置 2,000 90%", (64, 2000, 90)),
    ("zh-TW", "64 顆 GPU 2000 90%", (64, 2000, 90)),  # 顆, Taiwan's counter for chips
    ("zh-TW", "64顆GPU，每秒2,000樣本，效率90%", (64, 2000, 90)),
    ("zh-CN", "64 颗 GPU 2000 90%", (64, 2000, 90)),
    ("ja-JP", "64GPU 2000 90%", (64, 2000, 90)),  # a device word on its count, its G no giga
    ("ja-JP", "64GPU、2,000サンプル/秒、効率90%", (64, 2000, 90)),
    ("en-US", "64GPUs 2,000 img/s 90%", (64, 2000, 90)),
    ("de-DE", "64Geräte 2.000 Bilder/s 90 %", (64, 2000, 90)),
    ("ko-KR", "64GPU 2,000 샘플/초 효율 90%", (64, 2000, 90)),
    ("fr-FR", "64GPU à 2 000 img/s, 90 %", (64, 2000, 90)),
    ("en-US", "8MI300X at 2,000 tokens/s, 90%", (8, 2000, 90)),
    ("en-US", "64 2Ktokens/s 90%", (64, 2000, 90)),  # a suffix on the number where the rest is the unit
    ("en-US", "64 2000 90pct", (64, 2000, 90)),  # a percent word on its number (it was "not a number")
    ("de-DE", "64 2.000 90Prozent", (64, 2000, 90)),
    ("ko-KR", "디바이스 64 처리량 2000 효율 90%", (64, 2000, 90)),  # a name before its number, as 효율 90% is
    ("ko-KR", "처리량 2000 디바이스 64 효율 90%", (64, 2000, 90)),
    ("zh-CN", "设备 64 吞吐量 2000 效率 90%", (64, 2000, 90)),
    ("ja-JP", "デバイス 64 スループット 2000 効率 90%", (64, 2000, 90)),
    ("ko-KR", "디바이스 64 효율 90", (64, None, 90)),  # the number before 효율 is named: 90 is the efficiency
    ("ko-KR", "64 2만 90%", (64, 20000, 90)),  # a myriad unit on its own: a suffix, as before
]


@pytest.mark.parametrize(("tag", "text", "meant"), NATIVE)
def test_forms_native_readers_type_are_read_as_meant(tag: str, text: str, meant: tuple[int, int | None, int]):
    expected = {quantity: value for quantity, value in _values(*(value or 0 for value in meant)).items()
                if meant[(D, V, E).index(quantity)] is not None}
    assert parse_command(text, resolve_locale(tag)).values == expected, text


@pytest.mark.parametrize(("tag", "text"), [("zh-CN", "64 张 每秒 2000 90%"), ("zh-TW", "64 張 每秒 2,000 90%"),
                                         ("ja-JP", "64枚 毎秒2000サンプル 効率90%"), ("zh-CN", "64 个 每秒 2000 90%")])
def test_a_counter_before_a_per_second_word_never_makes_its_number_a_rate(tag: str, text: str):
    """`张`, `枚` count cards as readily as images: `64 张 每秒 2000` is never 64 samples/s and 2,000 devices (read,
    or refused where the counter is no word for devices)."""
    try:
        values = parse_command(text, resolve_locale(tag)).values
    except UserInputError:
        return
    assert (values[D], values[V]) == (64, 2000), values


@pytest.mark.parametrize("text", ["64 2000 每秒 90%", "64 2000 90% 每秒"])
def test_a_per_second_word_beside_a_percentage_is_named_never_read_as_a_rate(text: str):
    """`每秒 90%` is no rate: the word is named (it was read `90 /s`, and the error showed `/s%`)."""
    with pytest.raises(UserInputError) as caught:
        parse_command(text, resolve_locale("zh-CN"))
    assert caught.value.token == "每秒", caught.value
