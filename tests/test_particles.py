"""Korean particles follow the value before them: each row is how a Korean reader says the value aloud."""

from __future__ import annotations

import pytest

from bot.reader.numbers import resolve_locale
from bot.replies.particles import fill, particle
from bot.replies.wording import wording_for

# (the rendered value, the marker, the form a native reader expects; the reading that decides it)
ROWS = [
    ("스케일링 효율", "은/는", "은"),  # 효율: 율 ends in ㄹ
    ("스케일링 효율", "으로/로", "로"),  # ㄹ takes 로: 효율로
    ("디바이스 수", "이/가", "가"),  # 수: no final consonant
    ("처리량", "을/를", "을"),  # 량: ㅇ
    ("한국어", "으로/로", "로"),  # 어
    ("영어(미국)", "을/를", "를"),  # a gloss is skipped: 영어를
    ("‘한국어(대한민국)’", "이/가", "가"),  # quotes and gloss skipped
    ("64", "이/가", "가"),  # 육십사
    ("1", "으로/로", "로"),  # 일: ㄹ takes 로
    ("1", "은/는", "은"),  # 일
    ("3", "과/와", "과"),  # 삼
    ("6", "을/를", "을"),  # 육
    ("0", "이/가", "이"),  # 영
    ("0.9", "으로/로", "로"),  # 영 점 구
    ("0.90", "으로/로", "으로"),  # 영 점 구영
    ("10", "이/가", "이"),  # 십
    ("100", "으로/로", "으로"),  # 백
    ("2,000", "은/는", "은"),  # 이천
    ("2,000", "이라/라", "이라"),  # 이천
    ("20,000", "이/가", "이"),  # 이만
    ("115,200", "으로/로", "으로"),  # 십일만 오천이백
    ("57.6", "을/를", "을"),  # 오십칠 점 육
    ("90%", "으로/로", "로"),  # 구십 퍼센트
    ("0.01 %", "을/를", "를"),  # 퍼센트
    ("57.6×", "이/가", "가"),  # 오십칠 점 육 배
    ("115,200 샘플/초", "이/가", "가"),  # 초
    ("dpscale", "은/는", "는"),  # ends in e: 이
    ("URL", "이/가", "이"),  # 유알엘
    ("M", "으로/로", "으로"),  # 엠
    ("lang=en-US", "을/를", "를"),  # 에스
    ("`2.000`", "은/는", "은"),  # code span's backticks are skipped: 이 점 영영영
    ("*처리량*", "이/가", "이"),  # bold markup skipped
    ("디바이스.", "과/와", "와"),  # trailing punctuation skipped
]


@pytest.mark.parametrize(("value", "pair", "expected"), ROWS)
def test_the_particle_follows_how_the_value_is_read(value, pair, expected):
    assert particle(value, pair) == expected


def test_a_decimal_comma_is_read_as_a_decimal():
    assert particle("2,000", "으로/로", decimal=",") == "으로"  # 이 점 영영영
    assert particle("2,10", "으로/로", decimal=",") == "으로"  # 이 점 일영
    assert particle("0,9", "으로/로", decimal=",") == "로"  # 영 점 구
    assert particle("1.000", "이/가", decimal=",") == "이"  # grouped: 천


def test_a_particle_after_a_code_span_stands_apart_so_slack_still_draws_the_span():
    assert fill("{token}{은/는} 숫자가 아닙니다.", {"token": "`abc`"}) == "`abc` 는 숫자가 아닙니다."


def test_a_korean_reply_string_chooses_its_particles_when_formatted():
    words = wording_for(resolve_locale("ko-KR"))
    text = words.gettext("{quantity} must be between {low} and {high}.").format(
        quantity=words.gettext("The scaling efficiency"), low="0.01%", high="100%")
    assert text.startswith("스케일링 효율은 ")
    assert "{" not in text


def test_other_languages_leave_braces_to_str_format():
    words = wording_for(resolve_locale("de-DE"))
    assert type(words.gettext("Devices")) is str
