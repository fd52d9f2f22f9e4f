"""Chinese, Japanese and Korean commands as their writers type them: a percent sign in CJK prose is spaced as the
language writes it, whatever number format the user chose."""

from __future__ import annotations

import pytest

from bot.engine import answer
from bot.reader.recipient import Recipient
from bot.replies import render_plain_text


@pytest.mark.parametrize("tag", ["ja-JP", "ko-KR", "zh-CN", "zh-TW"])
def test_a_chosen_format_writes_the_digits_and_the_language_writes_its_percent_sign(tag):
    """With `format=de-DE`, a Japanese reply said 実効値は理想値の90 %です: the German space before % in CJK prose."""
    recipient = Recipient.parse(tag).choosing(Recipient.parse("de-DE").numbers)
    text = render_plain_text(answer("64 2.000 90 %", recipient))
    assert "12.800" in text and "90%" in text and "90\u00a0%" not in text and "10\u00a0%" not in text, text
