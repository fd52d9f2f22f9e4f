"""Wording fixed in the English source or the code, checked in the reply a user of every catalog reads: why a
percentage keeps its added zero, the language a `lang=` word chose named by its format, where a solved value came
from, the FAQ's all-reduce, a forecast that breaks down, one device rounded up, the FAQ example's plural, a negative
serial fraction, a forecast at or between measured sizes, a forecast with one range, and a message from an app."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.reader.numbers import resolve_locale
from bot.reader.parsing import parse_command
from bot.reader.recipient import Recipient
from bot.replies import render_plain_text
from bot.replies.blocks import code
from bot.replies.wording import Wording

TAGS = {"en": "en-US", "en_GB": "en-GB", "de": "de-DE", "es": "es-ES", "es_419": "es-LA", "fr": "fr-FR",
        "it": "it-IT", "ja": "ja-JP", "ko": "ko-KR", "pt_BR": "pt-BR", "zh_Hans": "zh-CN", "zh_Hant": "zh-TW"}


def text_of(reply) -> str:
    """Every text of the reply's blocks, markup included, as Slack is given it."""
    found = [reply.text]

    def walk(node) -> None:
        if isinstance(node, dict):
            found.extend([node["text"]] if isinstance(node.get("text"), str) else [])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(reply.blocks)
    return "\n".join(found)


# --- a number asked about, and why ---------------------------------------------------------------------------------


@pytest.mark.parametrize("tag", sorted(TAGS.values()))
def test_a_percentage_offered_with_an_added_zero_says_what_the_zero_is_for(tag):
    """`1.234` as an efficiency is no fraction and too small a bare percentage: the reply offers `1.2340%`, and says
    the zero keeps it from being read as `1234%` (as the ambiguous-number question says of its `1.2340`), instead
    of leaving a zero that looks like a slip."""
    locale = resolve_locale(tag)
    words = Wording(locale)
    token = "1" + words.style.decimal + "234"
    with pytest.raises(UserInputError) as raised:
        parse_command(f"64 2000 {token}", Recipient.of(locale))
    assert raised.value.code is ErrorCode.UNCLEAR_EFFICIENCY
    reply = answer(f"64 2000 {token}", locale).text
    padded, other = (code(words.percent(Decimal("0.01234"), 4)),
                     code(words.style.percent_prefix + "1234" + words.style.percent_suffix))
    assert padded in reply and reply.count(other) == 1, reply


def test_a_bare_percentage_below_ten_is_told_it_needs_its_sign():
    reply = answer("64 2000 1.234", resolve_locale("en-US")).text
    assert ("`1.234` is more than 1, so it cannot be a fraction, and a percentage below 10% needs its percent sign. "
            "For a percentage, write `1.2340%` (the final zero keeps it from being read as `1234%`); for a fraction, "
            "something like `0.9`.") in reply
    assert "and a percentage below 10% needs its percent sign. For a percentage, write `1.5%`;" in answer(
        "64 2000 1.5", resolve_locale("en-US")).text


@pytest.mark.parametrize(("tag", "text", "said"), [
    ("en-US@unknown", "64 2.000 90%", "Slack didn't tell me your number format in time, and not all of Slack's "
                                      "languages read this number the same way."),
    ("en-US", "64 2000,000 90%", "Its first group has more than three digits, so the separator after it is either a "
                                 "misplaced thousands separator or a decimal separator"),
])
def test_why_a_number_is_asked_about_says_which_languages_and_which_mark(tag, text, said):
    assert said in render_plain_text(answer(text, Recipient.parse(tag)))


def _asked_after_a_language_word(language: str) -> tuple[str, object, Wording]:
    """A command whose number the user's own format and the one its language word (`sprache=`, `idioma=`, or
    `lang=` where the language has no word of its own) chose read differently, and the reply to it."""
    chosen = resolve_locale(TAGS[language])
    key = Wording(chosen).key(None)
    for user in ("en-US", "de-DE"):
        for number in ("2.000", "2,000"):
            text = f"64 {number} 90% {key}{TAGS[language]}"
            reply = answer(text, resolve_locale(user))
            try:
                parse_command(text, Recipient.parse(user))
            except UserInputError as error:
                if error.reason == "lang":
                    return key, reply, Wording(Recipient.parse(user).answering_in(chosen))
    raise AssertionError(f"no command asked about for {language}")


@pytest.mark.parametrize("language", sorted(TAGS))
def test_the_format_a_language_word_chose_is_named_not_the_word_lang(language):
    """`idioma=es-419` was answered "… el que pides con lang= …": the reply names the chosen language's format
    (its name is right whichever word chose it) and never a word the user did not type."""
    key, reply, words = _asked_after_a_language_word(language)
    said = reply.text
    assert words.locale_name in said, said
    if key != "lang=":
        assert "lang=" not in said, said


# --- a solved value that breaks a rule -----------------------------------------------------------------------------

FROM_ACTUAL = {
    "en": "With an actual throughput of `1`, it would come out to", "en_GB": "With an actual throughput of `1`,",
    "de": "Mit einem tatsächlichen Durchsatz von `1` ergäbe sich", "es": "Con un throughput real de `1`,",
    "es_419": "Con un throughput real de `1`,", "fr": "Avec un débit réel de `1`,",
    "it": "Con un throughput effettivo di `1` risulterebbe", "ja": "実効スループットを `1` として計算すると",
    "ko": "실제 처리량 `1` 기준으로 계산하면", "pt_BR": "Com um throughput real de `1`,",
    "zh_Hans": "按实际吞吐量 `1` 计算", "zh_Hant": "依實際吞吐量 `1` 計算",
}


@pytest.mark.parametrize("language", sorted(FROM_ACTUAL))
def test_a_solved_value_out_of_range_names_the_actual_throughput_it_came_from(language):
    """`devices=64 actual=1 throughput=1M`: the efficiency would be 0.00000156 %. "With 1, …" lost the key the 1
    was typed with; the sentence names the value it came from, the actual throughput."""
    reply = answer("devices=64 actual=1 throughput=1M", resolve_locale(TAGS[language]))
    assert reply.is_error and FROM_ACTUAL[language] in reply.text, reply.text
