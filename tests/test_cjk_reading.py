"""Chinese, Japanese and Korean commands as their writers type them: a word with 一 in it is a word, a name before
its number names it (`처리량 2000`, `吞吐量 2000`), a series' sizes and rates carry their words (`予測=128台`,
`v=2000サンプル/秒`), the Korean words for `lang=` and `format=` are read, and a percent sign in CJK prose is spaced
as the language writes it, whatever number format the user chose."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.format_choice import FormatChoice, take_format_choice
from bot.model.calculator import Quantity
from bot.reader.parsing import parse_command
from bot.reader.recipient import Recipient
from bot.reader.series_syntax import parse_series, wants_series_form
from bot.reader.words import split_text
from bot.replies import render_plain_text

D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
READ = {D: Decimal(64), V: Decimal(2000), E: Decimal("0.9")}


def reply(text: str, tag: str) -> str:
    return render_plain_text(answer(text, Recipient.parse(tag)))


@pytest.mark.parametrize(("tag", "text", "word"), [
    ("zh-CN", "64 2000 0.9 帮我算一下", "帮我算一下"), ("zh-CN", "算一下 64 2000 90%", "算一下"),
    ("zh-TW", "64 2000 0.9 幫我算一下", "幫我算一下"), ("zh-TW", "算一下 64 2000 90%", "算一下"),
    ("ja-JP", "64 2000 90% 一つ", "一つ"),
])
def test_a_word_with_a_numeral_in_it_gets_the_unknown_word_answer(tag, text, word):
    """`帮我算一下` ("work it out for me") was "too many numbers", and `算一下 64 2000` a question about where its
    numbers end: a word is named as `谢谢` is."""
    with pytest.raises(UserInputError) as raised:
        parse_command(text, Recipient.parse(tag))
    assert (raised.value.code, raised.value.token) == (ErrorCode.UNKNOWN_WORD, word)
    thanks = reply("64 2000 90% 谢谢", tag).splitlines()[0]
    assert reply(text, tag).splitlines()[0] == thanks.replace("谢谢", word)


@pytest.mark.parametrize(("tag", "text"), [
    ("ko-KR", "디바이스 64 처리량 2000 효율 90%"), ("ko-KR", "처리량 2000 디바이스 64 효율 90%"),
    ("ko-KR", "효율 90% 디바이스 64 처리량 2000"), ("ko-KR", "64대 처리량 2000 효율 90%"),
    ("zh-CN", "设备 64 吞吐量 2000 效率 90%"), ("zh-TW", "裝置 64 吞吐量 2,000 效率 90%"),
    ("ja-JP", "デバイス 64 スループット 2,000 効率 90%"),
])
def test_a_name_before_its_number_names_it_as_its_key_would(tag, text):
    """`디바이스 64 처리량 2000 효율 90%` was refused with "알 수 없는 입력입니다: 처리량", a word its own key list
    names."""
    assert parse_command(text, Recipient.parse(tag)).values == READ


@pytest.mark.parametrize("text", ["64 처리량 2000 90%", "64 吞吐量 2000 90%"])
def test_a_name_between_two_unnamed_numbers_is_asked_about_never_read_by_its_side(text):
    """Either number could be the throughput: never 64 samples/s from 2,000 devices."""
    with pytest.raises(UserInputError) as raised:
        parse_command(text, Recipient.parse("ko-KR"))
    assert raised.value.code is ErrorCode.UNPLACED_NUMBER


@pytest.mark.parametrize(("text", "at", "throughput"), [
    ("v=2000 8=15800 16=31000 予測=128台", 128, 2000),
    ("v=2000サンプル/秒 8=15800 16=31000 予測=128", 128, 2000),
    ("v=2000サンプル/秒 8台=15800サンプル/秒 16=31000 予測=128台", 128, 2000),
])
def test_a_series_size_and_rate_carry_their_words_as_a_command_does(text, at, throughput):
    """`予測=128台` was blamed on "a suffix I don't recognize"; `v=2000サンプル/秒`, read in a command, was no
    number."""
    series = parse_series(split_text(text), Recipient.parse("ja-JP"))
    assert (series.at.value, series.throughput.value, series.pairs) == (at, throughput, [(8, 15800), (16, 31000)])


def test_the_japanese_word_for_a_measurement_opens_the_series_form():
    assert wants_series_form("測定")


def test_the_korean_words_for_the_language_and_the_number_format_are_read():
    assert reply("64 2000 90% 언어=de", "ko-KR").startswith("Tatsächlicher Durchsatz: 115.200")
    assert take_format_choice("64 2000 90% 형식=en-US") == (FormatChoice("en-US"), "64 2000 90%")


@pytest.mark.parametrize("tag", ["ja-JP", "ko-KR", "zh-CN", "zh-TW"])
def test_a_chosen_format_writes_the_digits_and_the_language_writes_its_percent_sign(tag):
    """With `format=de-DE`, a Japanese reply said 実効値は理想値の90 %です: the German space before % in CJK prose."""
    recipient = Recipient.parse(tag).choosing(Recipient.parse("de-DE").numbers)
    text = render_plain_text(answer("64 2.000 90 %", recipient))
    assert "12.800" in text and "90%" in text and "90\u00a0%" not in text and "10\u00a0%" not in text, text
