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


# --- the FAQ and the notes under a result --------------------------------------------------------------------------

FAQ = {  # the all-reduce comes before the optimizer step; what grows with the cluster is its time, and why
    "en": ("Before every optimizer step, an all-reduce exchanges gradients",
           "takes longer as the cluster grows (more steps, and more traffic over the slower links between nodes)"),
    "en_GB": ("Before every optimiser step, an all-reduce exchanges gradients",
              "takes longer as the cluster grows (more steps, and more traffic over the slower links between nodes)"),
    "de": ("Vor jedem Optimizer-Schritt tauscht ein All-Reduce",
           "dauert mit wachsendem Cluster länger (mehr Schritte und mehr Verkehr über die langsameren Links"),
    "es": ("Antes de cada paso del optimizador, un all-reduce",
           "tarda más a medida que crece el clúster (más pasos y más tráfico por los enlaces más lentos entre nodos)"),
    "es_419": ("Antes de cada paso del optimizador, un all-reduce",
               "tarda más a medida que crece el clúster (más pasos y más tráfico por los enlaces más lentos"),
    "fr": ("Avant chaque pas d’optimisation, un all-reduce",
           "prend plus de temps quand le cluster grandit (plus d’étapes, et plus de trafic sur les liens plus lents"),
    "it": ("Prima di ogni step dell’ottimizzatore, un all-reduce",
           "richiede più tempo man mano che il cluster cresce (più passaggi e più traffico sui collegamenti più lenti"),
    "ja": ("オプティマイザーの各ステップの前に、all-reduceで",
           "クラスターが大きくなるほど時間がかかります（通信の段数が増え、ノード間の低速なリンク"),
    "ko": ("매 옵티마이저 스텝 전에 all-reduce가",
           "클러스터가 커질수록 오래 걸리지만(통신 단계가 늘고, 노드 사이의 느린 링크"),
    "pt_BR": ("Antes de cada passo do otimizador, um all-reduce",
              "demora mais à medida que o cluster cresce (mais etapas e mais tráfego pelos links mais lentos"),
    "zh_Hans": ("之后优化器才能更新参数", "集群越大，这部分通信耗时越长（步骤更多，跨节点的较慢链路上的流量也更多）"),
    "zh_Hant": ("最佳化器才能更新參數", "叢集越大，這部分通訊耗時越長（步驟更多，跨節點的較慢鏈路上的流量也更多）"),
}


@pytest.mark.parametrize("language", sorted(FAQ))
def test_the_faq_puts_the_all_reduce_before_the_step_and_says_what_grows(language):
    """"Every optimizer step ends with an all-reduce" had the order wrong (the next answer overlaps it with the
    backward pass), and "that communication grows with the cluster" is not what a ring all-reduce does: its bytes
    per device barely change; its steps and its traffic between nodes grow."""
    said = text_of(answer("64 2000 90%", resolve_locale(TAGS[language])))
    for fragment in FAQ[language]:
        assert fragment in said, said


PERFECT = {  # `2 2000 95%`: 2 devices work like 1.9 perfect ones; the noun after 1.9 takes the plural CLDR gives it
    "en": "2 devices work like 1.9 perfect ones.", "en_GB": "2 devices do the work of 1.9 perfect ones.",
    "de": "arbeiten 2 Geräte wie 1,9 perfekte.", "es": "2 dispositivos rinden como 1,9 perfectos.",
    "es_419": "2 dispositivos rinden como 1.9 perfectos.",
    "fr": "2 accélérateurs travaillent comme 1,9 accélérateur parfait.",
    "it": "2 dispositivi lavorano come 1,9 dispositivi perfetti.", "ja": "2台のデバイスが理想的なデバイス1.9台分",
    "ko": "디바이스 2개가 이상적인 디바이스 1.9개만큼",
    "pt_BR": "2 dispositivos rendem o mesmo que 1,9 dispositivo perfeito.",
    "zh_Hans": "2 台设备的效果相当于 1.9 台理想设备", "zh_Hant": "2 台裝置的效果相當於 1.9 台理想裝置",
}
ONE_PERFECT = {  # `2 2000 50%`: a speedup of exactly 1
    "en": "2 devices work like 1 perfect one.", "de": "arbeiten 2 Geräte wie 1 perfektes.",
    "es": "2 dispositivos rinden como 1 perfecto.", "fr": "2 accélérateurs travaillent comme 1 accélérateur parfait.",
    "it": "2 dispositivi lavorano come 1 dispositivo perfetto.",
    "pt_BR": "2 dispositivos rendem o mesmo que 1 dispositivo perfeito.",
}


@pytest.mark.parametrize("language", sorted(PERFECT))
def test_the_faq_example_inflects_the_perfect_devices_by_the_speedup(language):
    """The example's plural followed the devices (always two or more), so French and Portuguese wrote "1,9
    accélérateurs parfaits", "1,9 dispositivos perfeitos" where a native writes the singular below 2."""
    locale = resolve_locale(TAGS[language])
    assert PERFECT[language] in text_of(answer("2 2000 95%", locale))
    if language in ONE_PERFECT:
        assert ONE_PERFECT[language] in text_of(answer("2 2000 50%", locale))


ROUNDED = {  # one device worked out: what it delivers holds only with the efficiency given
    "en": "Rounded up to one whole device; with these figures it delivers",
    "en_GB": "Rounded up to one whole device; with these figures it delivers",
    "de": "Auf ein ganzes Gerät aufgerundet; mit diesen Werten liefert es", "es": "; con estas cifras, alcanza",
    "es_419": "; con estas cifras, alcanza", "fr": "avec ces chiffres.", "it": "; con questi numeri fornisce",
    "ja": "入力した値で計算すると、1台での実効スループットは", "ko": "입력한 수치대로라면 실제 처리량은",
    "pt_BR": "com estes números.", "zh_Hans": "；按这些数值，这台设备可提供", "zh_Hant": "；依這些數值，這台裝置可提供",
}


@pytest.mark.parametrize("language", sorted(ROUNDED))
def test_one_device_rounded_up_delivers_its_rate_only_with_the_figures_given(language):
    """The note above says a single device delivers its full throughput; "Rounded up to one whole device, which
    delivers 1,800 samples/s" contradicted it: the 1,800 holds only with the 90 % given."""
    said = text_of(answer("v=2000 e=90% actual=1000", resolve_locale(TAGS[language])))
    assert ROUNDED[language] in said, said
