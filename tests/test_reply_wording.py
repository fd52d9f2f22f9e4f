"""Wording fixed in the English source or the code, checked in the reply a user of every catalog reads: why a
percentage keeps its added zero, the language a `lang=` word chose named by its format, where a solved value came
from, the FAQ's all-reduce, a forecast of a rising efficiency, one device rounded up, the FAQ example's plural, a
negative serial fraction, a forecast at or between measured sizes, a forecast with one range, and a message from an
app."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from blockkit import texts_of
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
    return "\n".join(texts_of(reply))


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
    ("en-US@unknown", "64 2.000 90%", "Slack hasn't told me your number format yet, and not all of Slack's "
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
           "takes longer as the cluster grows (more communication rounds, and more traffic over the slower links "
           "between nodes)"),
    "en_GB": ("Before every optimiser step, an all-reduce exchanges gradients",
              "takes longer as the cluster grows (more communication rounds, and more traffic over the slower links "
              "between nodes)"),
    "de": ("Vor jedem Optimizer-Schritt tauscht ein All-Reduce",
           "dauert mit wachsendem Cluster länger (mehr Kommunikationsrunden und mehr Verkehr über die langsameren "
           "Links"),
    "es": ("Antes de cada paso del optimizador, un all-reduce",
           "tarda más a medida que crece el clúster (más rondas de comunicación y más tráfico por los enlaces más "
           "lentos entre nodos)"),
    "es_419": ("Antes de cada paso del optimizador, un all-reduce",
               "tarda más a medida que crece el clúster (más rondas de comunicación y más tráfico por los enlaces"),
    "fr": ("Avant chaque pas d’optimisation, un all-reduce",
           "prend plus de temps quand le cluster grandit (plus d’étapes de communication, et plus de trafic sur les "
           "liens plus lents"),
    "it": ("Prima di ogni step dell’ottimizzatore, un all-reduce",
           "richiede più tempo man mano che il cluster cresce (più passaggi di comunicazione e più traffico sui "
           "collegamenti più lenti"),
    "ja": ("オプティマイザーの各ステップの前に、all-reduceで",
           "クラスターが大きくなるほど時間がかかります（通信の段数が増え、ノード間の低速なリンク"),
    "ko": ("매 옵티마이저 스텝 전에 all-reduce가",
           "클러스터가 커질수록 오래 걸리지만(통신 단계와 노드 간 느린 링크를 지나는 트래픽이 늘어나기 때문)"),
    "pt_BR": ("Antes de cada passo do otimizador, um all-reduce",
              "demora mais à medida que o cluster cresce (mais rodadas de comunicação e mais tráfego pelos links mais "
              "lentos"),
    "zh_Hans": ("之后优化器才能更新参数", "集群越大，这部分通信耗时越长（通信轮次更多，跨节点慢速链路上的流量也更多）"),
    "zh_Hant": ("最佳化器才能更新參數", "叢集越大，這部分通訊耗時越長（通訊輪次更多，跨節點較慢鏈路上的流量也更多）"),
}


@pytest.mark.parametrize("language", sorted(FAQ))
def test_the_faq_puts_the_all_reduce_before_the_step_and_says_what_grows(language):
    """"Every optimizer step ends with an all-reduce" had the order wrong (the next answer overlaps it with the
    backward pass), and "that communication grows with the cluster" is not what a ring all-reduce does: its bytes
    per device barely change; its steps and its traffic between nodes grow."""
    said = text_of(answer("64 2000 90%", resolve_locale(TAGS[language])))
    for fragment in FAQ[language]:
        assert fragment in said, said


PERFECT = {  # `2 2000 95%`: 2 devices do the work of 1.9 perfect ones; the noun after 1.9 takes CLDR's plural
    "en": "2 devices do the work of 1.9 perfect ones.", "en_GB": "2 devices do the work of 1.9 perfect ones.",
    "de": "leisten 2 Geräte so viel wie 1,9 perfekte.", "es": "2 dispositivos rinden como 1,9 perfectos.",
    "es_419": "2 dispositivos rinden como 1.9 perfectos.",
    "fr": "2 accélérateurs font le travail de 1,9 accélérateur parfait.",
    "it": "2 dispositivi fanno il lavoro di 1,9 dispositivi perfetti.",
    "ja": "2台が、単体の性能をそのまま発揮するデバイス1.9台分の働きをします",
    "ko": "디바이스 2개가 이상적인 디바이스 1.9개만큼",
    "pt_BR": "2 dispositivos rendem o mesmo que 1,9 dispositivo perfeito.",
    "zh_Hans": "2 台设备的效果相当于 1.9 台理想设备", "zh_Hant": "2 台裝置的效果相當於 1.9 台理想裝置",
}
ONE_PERFECT = {  # `2 2000 50%`: a speedup of exactly 1, a lone one written as a word ("wie ein perfektes")
    "en": "2 devices do the work of a single perfect one.", "en_GB": "2 devices do the work of a single perfect one.",
    "de": "leisten 2 Geräte so viel wie ein perfektes.",
    "es": "2 dispositivos rinden como un único dispositivo perfecto.",
    "es_419": "2 dispositivos rinden como un único dispositivo perfecto.",
    "fr": "2 accélérateurs font le travail d’un seul accélérateur parfait.",
    "it": "2 dispositivi fanno il lavoro di un solo dispositivo perfetto.",
    "ja": "2台が、単体の性能をそのまま発揮するデバイス1台分の働きをします",
    "ko": "디바이스 2개가 이상적인 디바이스 1개만큼의 일을 합니다",
    "pt_BR": "2 dispositivos rendem o mesmo que um único dispositivo perfeito.",
    "zh_Hans": "2 台设备的效果只相当于 1 台理想设备", "zh_Hant": "2 台裝置的效果只相當於 1 台理想裝置",
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
    "de": "Auf ein ganzes Gerät aufgerundet; mit diesen Werten liefert es", "es": ", que con estas cifras alcanza",
    "es_419": ", que con estas cifras alcanza", "fr": "avec ces chiffres.", "it": "; con questi numeri fornisce",
    "ja": "入力した値で計算すると、1台での実効スループットは", "ko": "입력한 수치대로라면 실제 처리량은",
    "pt_BR": "com estes números.", "zh_Hans": "；按这些数值，这台设备可提供", "zh_Hant": "；依這些數值，這台裝置可提供",
}


@pytest.mark.parametrize("language", sorted(ROUNDED))
def test_one_device_rounded_up_delivers_its_rate_only_with_the_figures_given(language):
    """The note above says a single device delivers its full throughput; "Rounded up to one whole device, which
    delivers 1,800 samples/s" contradicted it: the 1,800 holds only with the 90 % given."""
    said = text_of(answer("v=2000 e=90% actual=1000", resolve_locale(TAGS[language])))
    assert ROUNDED[language] in said, said


# --- a measurement series and its forecast -------------------------------------------------------------------------

def _t(language: str, message: str) -> str:
    return Wording(resolve_locale(TAGS[language])).gettext(message)


NEGATIVE = {  # `v=2000 8=16800 16=33000`: e is −0.0068 and −0.002, both sizes above ideal
    "en": "The serial fraction e is below zero at the sizes marked ⚠", "en_GB": "The serial fraction e is below zero",
    "de": "Der serielle Anteil e liegt bei den mit ⚠ markierten Größen unter null",
    "es": "La fracción serial e es negativa en los tamaños marcados con ⚠",
    "es_419": "La fracción serial e es negativa en los tamaños marcados con ⚠",
    "fr": "La fraction séquentielle e est négative aux tailles marquées ⚠",
    "it": "La frazione seriale e è negativa alle dimensioni segnate con ⚠",
    "ja": "⚠ の付いた規模では、逐次部分の割合 e が負になっています",
    "ko": "⚠ 표시가 있는 규모에서는 직렬 비율 e가 0보다 작습니다",
    "pt_BR": "A fração serial (e) fica abaixo de zero nos tamanhos marcados com ⚠",
    "zh_Hans": "在标有 ⚠ 的规模下，串行比例 e 小于零", "zh_Hant": "在標有 ⚠ 的規模下，串列比例 e 小於零",
}
NEAR_ZERO = ("The serial fraction e is zero, or close to it, at the sizes measured: nothing in these measurements "
             "limits the speedup, which keeps pace with the cluster.")


@pytest.mark.parametrize("language", sorted(NEGATIVE))
def test_a_serial_fraction_below_zero_is_said_to_be_below_zero(language):
    """Sizes measured above ideal give a negative e (a superlinear speedup); "e is zero or close to it at every size"
    was said of them as of a cluster that scales perfectly."""
    said = text_of(answer("v=2000 8=16800 16=33000", resolve_locale(TAGS[language])))
    assert NEGATIVE[language] in said and _t(language, NEAR_ZERO) not in said, said
    assert _t(language, NEAR_ZERO) in text_of(answer("v=2000 8=16000 16=32000", resolve_locale(TAGS[language])))


MEASURED = {  # `at=16` where 16 devices were measured: the measurement, and no forecast
    "en": "*16 devices: measured, not forecast*\nThe table above gives 31,000 samples/s at this size, a speedup of "
          "15.5×, and an efficiency of 96.88%;",
    "en_GB": "*16 devices: measured, not forecast*", "de": "*16 Geräte: gemessen, nicht prognostiziert*",
    "es": "*16 dispositivos: un tamaño medido, no una previsión*",
    "es_419": "*16 dispositivos: un tamaño medido, no un pronóstico*",
    "fr": "*16 accélérateurs\u202f: une taille mesurée, pas une prévision*",
    "it": "*16 dispositivi: una dimensione misurata, non una previsione*",
    "ja": "*16台は測定済みのため、予測はしません*",
    "ko": "*디바이스 16개: 측정한 규모이므로 예측하지 않습니다*",
    "pt_BR": "*16 dispositivos: um tamanho medido, não uma previsão*",
    "zh_Hans": "*16 台设备：已实测，不做预测*", "zh_Hant": "*16 台裝置：已實測，不做預測*",
}
BETWEEN = {  # `at=24` between 16 and 32 measured: interpolated, not extrapolated
    "en": "*Forecast for 24 devices* (not measured: interpolated between the sizes above)",
    "en_GB": "(not measured: interpolated between the sizes above)", "de": "(nicht gemessen: zwischen den Größen oben "
    "interpoliert)", "es": "(interpolada entre los tamaños de arriba, no medida)",
    "es_419": "(interpolado entre los tamaños de arriba, no medido)",
    "fr": "(non mesurée\u202f: interpolée entre les tailles ci-dessus)",
    "it": "(non misurata: interpolata tra le dimensioni qui sopra)", "ja": "上の規模の間で内挿した値）*",
    "ko": "예측(측정값이 아닌, 위 규모 사이에서 내삽한 값)*",
    "pt_BR": "(não medida: interpolada entre os tamanhos acima)",
    "zh_Hans": "（非实测，在上表各规模之间内插）*", "zh_Hant": "（非實測，在上表各規模之間內插）*",
}
SERIES = "v=2000 8=15800 16=31000 32=59000"
EXTENDS = ("A forecast extends the measured trend of e to a size you did not measure, and accounts for nothing else: "
           "not an interconnect that saturates (a link or a switch at capacity), not a change of batch size, not "
           "another topology (more nodes, another network).")


@pytest.mark.parametrize("language", sorted(MEASURED))
def test_a_forecast_asked_at_a_measured_size_shows_the_measurement(language):
    """`at=16` with 16 measured was "Forecast for 16 devices (not measured: extrapolated …)" with two model ranges:
    the reply shows the measured row instead, and says nothing is extrapolated."""
    reply = answer(f"{SERIES} at=16", resolve_locale(TAGS[language]))
    said = text_of(reply)
    assert MEASURED[language] in said, said
    assert not [line for line in said.splitlines() if line.startswith("•")] and _t(language, EXTENDS) not in said


@pytest.mark.parametrize("language", sorted(BETWEEN))
def test_a_forecast_between_measured_sizes_is_said_to_be_interpolated(language):
    said = text_of(answer(f"{SERIES} at=24", resolve_locale(TAGS[language])))
    assert BETWEEN[language] in said and _t(language, EXTENDS) not in said, said
    assert _t(language, EXTENDS) in text_of(answer(f"{SERIES} at=64", resolve_locale(TAGS[language])))


def test_the_chart_draws_no_forecast_at_a_measured_size():
    from bot.engine import measured_series
    from bot.replies.chart import chart_png, series_chart

    series, command = measured_series(f"{SERIES} at=16", Recipient.parse("en-US"))
    assert series_chart(series, command) == chart_png(series, Wording(Recipient.parse("en-US")))


BREAKS = {  # an e fitted below zero at 256 devices gave no speedup at all: no model fitted now goes below zero
    "en": "predicts no meaningful speedup", "en_GB": "predicts no meaningful speedup",
    "de": "sagt bei 256 Geräten keinen sinnvollen Speedup voraus", "es": "no da un speedup con sentido",
    "es_419": "no da un speedup con sentido", "fr": "aucun speedup plausible prévu",
    "it": "nessuno speedup sensato previsto", "ja": "意味のある高速化率は求められません",
    "ko": "의미 있는 속도 향상을 예측하지 못합니다", "pt_BR": "nenhum speedup com sentido previsto",
    "zh_Hans": "得不出有意义的加速比", "zh_Hant": "得不出有意義的加速比",
}
ROUGH = {  # an efficiency that rises with the cluster: a rough guess, said as the language says it
    "en": "take this forecast as no more than a rough guess.", "en_GB": "take this forecast as no more than a rough "
    "guess.", "de": "Nimm diese Prognose nur als grobe Schätzung.",
    "es": "toma esta previsión solo como una estimación aproximada.",
    "es_419": "toma este pronóstico solo como una estimación aproximada.",
    "fr": "ne voyez dans cette prévision qu’une estimation grossière.",
    "it": "prendi questa previsione solo come una stima di massima.",
    "ja": "この予測は大まかな目安としてとらえてください。", "ko": "이 예측은 대략적인 추정치로만 보세요.",
    "pt_BR": "encare esta previsão apenas como um palpite.", "zh_Hans": "这一预测只能当作粗略的估计。",
    "zh_Hant": "這項預測只能當作粗略的估計。",
}


@pytest.mark.parametrize("language", sorted(ROUGH))
def test_an_efficiency_that_rises_is_forecast_as_a_rough_guess_by_models_that_hold(language):
    """E rising from 87.5 % to 93.75 % (`v=2000 8=14000 16=29000 32=60000 at=256`): a falling e fitted by a line
    reached zero and "predicted no meaningful speedup" there; both models now give a range below the ideal, and the
    sentence says why the forecast is no more than a rough guess ("non è più di una stima" said nothing: every
    forecast is an estimate)."""
    said = text_of(answer("v=2000 8=14000 16=29000 32=60000 at=256", resolve_locale(TAGS[language])))
    ranges = [line for line in said.splitlines() if line.startswith("•")]
    assert len(ranges) == 2 and not [line for line in ranges if BREAKS[language] in line], ranges
    assert ROUGH[language] in said, said


# --- the message shortcut ------------------------------------------------------------------------------------------

MESSAGES = {"filled": "64 devices, 2,000 samples/s, 90 %", "none": "Lunch at noon?",
            "seen": "we tried 64 and 2000 and 90"}
PERSON = {  # a person's sentences, which Korean and Japanese write with 님 and さん, Portuguese with "pessoa"
    "filled": "Filled in from {author}'s message. Slack didn't tell me their number format, so I filled in only the "
              "numbers that read the same in every format.",
    "none": "I found no numbers to fill in from {author}'s message.",
    "seen": "I found {numbers} in {author}'s message, but nothing that says which value each one is, so I didn't fill "
            "anything in.",
}


@pytest.mark.parametrize("language", sorted(TAGS))
def test_a_message_from_an_app_is_not_named_as_a_persons(language):
    """"Calculate with dpscale" on a bot's message said "앱 님의 메시지", "GitHub 님의 메시지" (님 is for people) and
    "Slack didn't tell me their number format": an app has sentences of its own, and the question about a number in
    it does not say "your number format" of the reader's."""
    from bot.reader.excerpts import read_message
    from bot.slack.shortcuts import excerpt_notes

    reader = Recipient.parse(TAGS[language])
    words, unknown = Wording(reader), Recipient.parse("en-US@unknown")
    for case, text in MESSAGES.items():
        excerpt = read_message(text, unknown)
        for app in ("GitHub", None):
            notes = excerpt_notes(excerpt, None, unknown, reader, app)
            name = app or words.gettext("an app")
            seen = words.comma.join(code(number) for number in excerpt.seen[:6])
            person = words.gettext(PERSON[case]).format(author=name, numbers=seen)
            assert case != "filled" or notes[0] != person, notes  # "Slack didn't tell me their number format"
            assert not re.search("님|さん|pessoa", notes[0]), notes  # words a person takes, not an app
            if len(notes) > 1:  # the question about `2,000`: why Slack gave no format is said of the app already
                assert words.gettext("Slack hasn't told me your number format yet, and not all of Slack's "
                                     "languages read this number the same way.") not in notes[1], notes
