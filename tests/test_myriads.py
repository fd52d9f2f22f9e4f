"""Numbers written by myriads (`bot.reader.myriads`), as Korean, Chinese and Japanese writers type them with digits:
`11만5200` is 115 200 wherever it stands (a value, a named value, a measurement of a series), `11만 5200` too as
Korean spaces it, and a form whose digits after a unit could say two numbers (`1万5`, `11만520`) is never read."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import answer
from bot.errors import UserInputError
from bot.model.calculator import Quantity
from bot.reader.myriads import myriad_value
from bot.reader.parsing import parse_command
from bot.reader.recipient import Recipient
from bot.reader.series_syntax import parse_series
from bot.reader.words import split_text
from bot.replies import render_plain_text

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
MYRIAD, THOUSAND = {"ko-KR": "만", "zh-CN": "万", "zh-TW": "萬", "ja-JP": "万"}, {"ko-KR": "천", "zh-CN": "千",
                                                                                "zh-TW": "千", "ja-JP": "千"}


@pytest.mark.parametrize(("text", "value"), [
    ("11만5200", 115200), ("11만5천", 115000), ("11만 5200", 115200), ("1만5천200", 15200), ("3만1천", 31000),
    ("11万5200", 115200), ("11萬5200", 115200), ("1万5千", 15000), ("2千万", 20000000), ("1억2천만", 120000000),
    ("1억2000만", 120000000), ("1亿2000万5000", 120005000), ("5천200", 5200),
    # digits after a unit that could say two numbers, or a form that is a suffixed number: not read here
    ("1万5", None), ("11만520", None), ("1억5천", None), ("1억5000", None), ("1万5千5", None),
    ("2万", None), ("2천", None), ("1.5만", None), ("64", None),
])
def test_a_number_written_by_myriads_is_read_only_where_it_says_one_number(text, value):
    """`1万5` is 15 000 to a Chinese reader (一万五) and 10 005 as written; `1억5천` is 1억 5천만 to a Korean one."""
    assert myriad_value(text) == (None if value is None else Decimal(value))


@pytest.mark.parametrize(("tag", "text", "values"), [
    # the reader's own report: 5200 was read as the devices, and efficiency came out at 1.06 %
    ("ko-KR", "처리량=2000 효율=90% 실제=11만5200", {V: 2000, E: Decimal("0.9"), A: 115200}),
    ("ko-KR", "처리량=2000 효율=90% 실제=11만 5200", {V: 2000, E: Decimal("0.9"), A: 115200}),
    ("zh-CN", "吞吐量=2000 效率=90% 实际=11万5200", {V: 2000, E: Decimal("0.9"), A: 115200}),
    ("ko-KR", "64 11만5200 90%", {D: 64, V: 115200, E: Decimal("0.9")}),
    ("ko-KR", "64 11만 5200 90%", {D: 64, V: 115200, E: Decimal("0.9")}),
    ("ko-KR", "64대 처리량 11만5천 효율 90%", {D: 64, V: 115000, E: Decimal("0.9")}),
    ("ja-JP", "64台 11万5200サンプル/秒 効率90%", {D: 64, V: 115200, E: Decimal("0.9")}),
    ("ko-KR", "64대 초당 11만5200 샘플 효율 90%", {D: 64, V: 115200, E: Decimal("0.9")}),  # never 초당 11만
])
def test_a_number_written_by_myriads_is_one_value_in_a_command(tag, text, values):
    assert parse_command(text, Recipient.parse(tag)).values == {q: Decimal(v) for q, v in values.items()}


@pytest.mark.parametrize(("tag", "text"), [
    ("zh-CN", "64 1万5 90%"), ("ko-KR", "처리량=2000 효율=90% 실제=11만520"), ("ko-KR", "64 11만 520 90%"),
    ("ko-KR", "처리량=2000 효율=90% 실제=1억5천"),
])
def test_digits_after_a_unit_that_could_say_two_numbers_are_never_read(tag, text):
    with pytest.raises(UserInputError):
        parse_command(text, Recipient.parse(tag))


def test_the_reply_to_a_korean_actual_throughput_by_myriads_solves_the_devices():
    """What the reader saw: `실제=11만5200` answered "측정된 스케일링 효율: 1.06%" (5200 devices); it needs 64."""
    text = render_plain_text(answer("처리량=2000 효율=90% 실제=11만5200", Recipient.parse("ko-KR")))
    assert "64" in text.splitlines()[0] and "1.06%" not in text, text


def test_a_series_reads_its_measurements_by_myriads():
    series = parse_series(split_text("v=2000 8=1만5800 16=3만1천 32=5만 9000"), Recipient.parse("ko-KR"))
    assert series.pairs == [(8, 15800), (16, 31000), (32, 59000)]


@given(value=st.integers(1, 99_999_999), tag=st.sampled_from(sorted(MYRIAD)), spaced=st.booleans())
def test_every_number_written_by_myriads_reads_back_as_itself(value, tag, spaced):
    """Any count written as a Korean, Chinese or Japanese writer does with digits (its myriads, and the rest in four
    digits or in thousands) reads back as itself, as the actual throughput."""
    myriads, rest = divmod(value, 10_000)
    thousands, below = divmod(rest, 1000)
    tail = f"{thousands}{THOUSAND[tag]}{below:03d}" if thousands and below else (
        f"{thousands}{THOUSAND[tag]}" if thousands and not below else f"{rest:04d}")
    written = f"{myriads}{MYRIAD[tag]}{' ' if spaced and tag == 'ko-KR' else ''}{tail}" if myriads else str(value)
    command = parse_command(f"처리량=1 효율=1% 실제={written}", Recipient.parse(tag))
    assert command.values[A] == value, written
