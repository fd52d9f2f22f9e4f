"""Wording fixed where it starts, read through the engine in every language it applies to: the efficiency's range
with the articles Spanish and Italian give a percentage, the trend sentence naming the forecast model as the model
line does, a rate of 0 in the plural Brazilian usage gives it, no space between Han characters around a rate,
Korean errors that end a clause on the token, the too-many-values error beside its too-few pair, and French's one
device that no longer "delivers its per-device throughput per device"."""

from __future__ import annotations

import re

import pytest

from blockkit import texts_of
from bot.engine import answer
from bot.i18n import shipped_languages
from bot.reader.numbers import resolve_locale
from bot.replies import render_plain_text
from bot.replies.wording import Wording

TAGS = {
    "en": "en-US", "en_GB": "en-GB", "de": "de-DE", "es": "es-ES", "es_419": "es-LA", "fr": "fr-FR", "it": "it-IT",
    "ja": "ja-JP", "ko": "ko-KR", "pt_BR": "pt-BR", "zh_Hans": "zh-CN", "zh_Hant": "zh-TW",
}
NBSP = "\u00a0"


def test_every_shipped_language_is_read_here():
    assert set(shipped_languages()) == set(TAGS)



RANGES = {
    "en": "The scaling efficiency must be between 0.01% and 100%.",
    "en_GB": "The scaling efficiency must be between 0.01% and 100%.",
    "de": f"Die Skalierungseffizienz muss zwischen 0,01{NBSP}% und 100{NBSP}% liegen.",
    "es": f"La eficiencia de escalado tiene que estar entre el 0,01{NBSP}% y el 100{NBSP}%.",
    "es_419": "La eficiencia de escalamiento tiene que estar entre el 0.01% y el 100%.",
    "fr": f"L’efficacité de scaling doit être comprise entre 0,01{NBSP}% et 100{NBSP}%.",
    "it": "L’efficienza di scaling deve essere compresa tra lo 0,01% e il 100%.",
    "ja": "スケーリング効率は0.01%以上100%以下で指定してください。",
    "ko": "스케일링 효율은 0.01% 이상 100% 이하여야 합니다.",
    "pt_BR": "A eficiência de escalabilidade precisa estar entre 0,01% e 100%.",
    "zh_Hans": "扩展效率必须在 0.01% 到 100% 之间。", "zh_Hant": "擴展效率必須介於 0.01% 與 100% 之間。",
}
DEVICE_RANGES = {"es": "entre 1 y 1.000.000", "it": "tra 1 e 1.000.000", "en": "between 1 and 1,000,000"}


@pytest.mark.parametrize("language", sorted(TAGS))
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_efficiencys_range_is_its_own_sentence(language):
    """`64 2000 150%`: the range of a percentage has its own entry, so Spanish and Italian write its articles
    ("entre el 0,01 % y el 100 %", "tra lo 0,01% e il 100%"); a count's range keeps the shared entry."""
    locale = resolve_locale(TAGS[language])
    assert render_plain_text(answer("64 2000 150%", locale)).startswith("⚠️ " + RANGES[language])
    if language in DEVICE_RANGES:
        assert DEVICE_RANGES[language] in render_plain_text(answer("0 2000 90%", locale))


RISING = "v=2000 8=15800 16=28000 64=60000 at=128"  # e rises: the trend's model is supported
SHRINKING = "v=2000 8=15000 16=30500 64=124000 at=128"  # E rises from 93.75 % to 96.88 %: neither model
MODEL = {  # the trend's model as its own line names it, as the sentence under the forecast names it
    "en": "erial fraction following", "en_GB": "erial fraction following",
    "de": "Anteil nach dem gemessenen Verlauf",
    "es": "racción serial que sigue la tendencia medida", "es_419": "racción serial que sigue la tendencia medida",
    "fr": "raction séquentielle suivant la tendance mesurée",
    "it": "razione seriale che segue l’andamento misurato",
    "ja": "逐次部分の割合が測定した傾向に沿って変化", "ko": "측정한 추세를 따르는 직렬 비율",
    "pt_BR": "ração serial que segue a tendência medida", "zh_Hans": "沿实测趋势变化的串行比例",
    "zh_Hant": "沿實測趨勢變化的串列比例",
}
FORMER = (  # the models' former names: Amdahl's, and a serial fraction linear in d
    "growing serial", "wachsenden seriellen", "serial creciente", "séquentielle croissante", "seriale crescente",
    "増加するモデル", "커지는 직렬", "增长的串行", "增加的串列", "neither model describes",
    "keines der beiden Modelle", "ninguno de los dos modelos describe", "aucun des deux modèles ne décrit",
    "nessuno dei due modelli descrive", "nenhum dos dois modelos descreve", "どちらのモデルでも説明できません",
    "두 모델 모두 이를 설명하지 못합니다", "两个模型都无法描述", "兩個模型都無法描述", "Amdahl, e =", "Amdahl，e =",
    "Amdahl、e =", "varying linearly", "linearen seriellen", "serial lineal", "varie linéairement",
    "varia linearmente", "線形に変化", "선형으로 변하는", "线性变化", "線性變化",
)


@pytest.mark.parametrize("language", sorted(TAGS))
def test_the_trend_sentence_names_the_model_as_its_line_does(language):
    """A rising e supports the model following the measured trend of e, named as its own line names it; neither
    the former names (Amdahl's constant e, a serial fraction linear in d) nor "neither model describes it" is
    left; an efficiency that rises is a rough guess, said in the language."""
    locale = resolve_locale(TAGS[language])
    rising, shrinking = (render_plain_text(answer(command, locale)) for command in (RISING, SHRINKING))
    model_line = next(line for line in rising.splitlines() if "(d − 1)^" in line)
    assert MODEL[language] in model_line and rising.count(MODEL[language]) == 2, rising
    for text in (rising, shrinking):
        assert not [former for former in FORMER if former in text], text
    guess = Wording(locale).gettext("Efficiency rises as the cluster grows, which cannot go on for long: take this "
                                    "forecast as no more than a rough guess.")
    assert guess in shrinking and (language.startswith("en") or guess.split()[0] != "Efficiency"), shrinking


ZERO = {
    "en": "0 samples/s", "en_GB": "0 samples/s", "de": "0 Samples/s", "es": "0 muestras/s", "es_419": "0 muestras/s",
    "fr": "0 échantillon/s", "it": "0 campioni/s", "ja": "0サンプル/秒", "ko": "0 샘플/초", "pt_BR": "0 amostras/s",
    "zh_Hans": "0 样本/秒", "zh_Hant": "0 樣本/秒",
}


@pytest.mark.parametrize("language", sorted(TAGS))
def test_no_scaling_loss_is_written_as_the_language_writes_zero(language):
    """`64 2000 100%`: the loss is `0 amostras/s` in Brazilian Portuguese (CLDR gives 0 Portuguese's `one`, usage
    the plural) and `0 échantillon/s` in French (singular, as French writes it); one sample/s stays singular."""
    locale = resolve_locale(TAGS[language])
    text = render_plain_text(answer("64 2000 100%", locale))
    assert re.search(r"(^|[\s:：])" + re.escape(ZERO[language]) + r"($|[\s(（])", text, re.M), text
    if language == "pt_BR":
        assert Wording(locale).rate("1") == "1 amostra/s" and Wording(locale).rate("0,0") == "0,0 amostras/s"


INPUTS = [
    "64 2000 90%", "1 2000 90%", "2 2000 100%", "64 2000 actual=115200", "throughput=2000 efficiency=90% actual=1M",
    "throughput=2000 efficiency=90% actual=1", "devices=64 efficiency=90% actual=115200", "8 1000 75%",
    "v=2000 8=15800 16=31000 64=115200",
    RISING,
    "v=2000 8=16100 16=31000 64=115200",
    SHRINKING,
    "v=2000 8=15800 16=28000 64=60000",
    SHRINKING.removesuffix(" at=128"),
    "v=2000 8=15000 16=30000 32=60000 at=64", "v=2000 8=15000 16=24000 32=20000 at=128",
    "v=1000 8=7600 16=14720 32=28480 at=64", "v=2000 8=16800 16=33000 at=64",
    "v=2000 8=16000 16=32000", "v=2000 8=15800", "help", "series", "devices=1 v=2000 actual=1800",
    "64 GPUs: 2000 img/s, 90%", "64 2000 150%", "64 2000 0%", "64 2000 90 80%", "64 2000 90% 5", "64 banana 90%",
    "0 2000 90%", "64 2000,000 90%", "64 1.000 90%", "1.5 2000 90%", "64 2000x 90%", "64 2000% 90%", "64 ²000 90%",
    "64 2000", "v=2000 16=abc", "v=2000 16=", "v=2000 16=31000 16=32000", "8=15800 16=31000", "64 2000 actual=200000",
    "devices=64 devices=32 2000 90%", "lang=xx 64 2000 90%", "format=xx 64 2000 90%", "<@U123> 64 2000 90%",
    "64 TFLOPS 90%",
]
HAN_SPACE_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff] [\u3400-\u4dbf\u4e00-\u9fff]")


@pytest.mark.parametrize("language", ["ja", "zh_Hans", "zh_Hant"])
def test_no_space_between_two_han_characters(language):
    """"实际吞吐量 1,800 样本/秒与单设备吞吐量 2,000 样本/秒不一致": a rate ending in Han takes no space before
    Han text, in any reply to the standard inputs (as Slack draws it: markup stands between a code span or bold
    and Han)."""
    locale = resolve_locale(TAGS[language])
    for command in INPUTS:
        for text in texts_of(answer(command, locale)):
            prose = re.sub(r"`[^`]*`", "`…`", text)  # a code span holds the command as typed: `设备数 吞吐量 效率`
            assert not HAN_SPACE_HAN.search(prose), (command, text)


@pytest.mark.parametrize(
    ("language", "own", "expected"),
    [
        ("zh_Hans", False, "实际吞吐量 1,800 样本/秒与单设备吞吐量 2,000 样本/秒不一致"),
        ("zh_Hans", True, "实际吞吐量 1,800 img/s 与单设备吞吐量 2,000 img/s 不一致"),
        ("zh_Hant", False, "實際吞吐量 1,800 樣本/秒與單一裝置吞吐量 2,000 樣本/秒不一致"),
        ("zh_Hant", True, "實際吞吐量 1,800 img/s 與單一裝置吞吐量 2,000 img/s 不一致"),
    ],
)
def test_a_users_own_unit_keeps_its_space_before_han(language, own, expected):
    """The one-device note measured apart: a unit the user typed (`img/s`) ends in Latin letters and keeps the
    space before Han text; the catalog's own unit, ending in Han, does not."""
    command = "1 GPU 2000 img/s actual=1800" if own else "devices=1 v=2000 actual=1800"
    assert expected in render_plain_text(answer(command, resolve_locale(TAGS[language])))


KOREAN_ERRORS = [
    "64 2000,000 90%", "64 ²000 90%", "64 1.000 90%", "64 2000x 90%", "64 2000 90 80%", "v=2000 16=abc",
    "v=2000 banana", "lang=xx 64 2000 90%", "<@U123> 64 2000 90%", "64 abc 90%",
]


@pytest.mark.parametrize("command", KOREAN_ERRORS)
def test_a_korean_error_ends_its_clause_on_the_token(command):
    """No `2000,000 값은` crutch: the error says what is wrong and ends the clause on the code span after a colon
    ("여러 가지로 읽힐 수 있는 숫자입니다: `2000,000`."), so no particle or filler noun follows it."""
    text = answer(command, resolve_locale("ko-KR")).text
    assert not re.search(r"` (값|입력|언어)", text), text
    assert re.search(r": `[^`]+`", text), text


PER_DEVICE = {
    "en": "per-device throughput", "en_GB": "per-device throughput", "de": "Durchsatz pro Gerät",
    "es": "throughput por dispositivo", "es_419": "throughput por dispositivo", "fr": "débit par accélérateur",
    "it": "throughput per dispositivo", "ja": "デバイスあたりのスループット", "ko": "디바이스당 처리량",
    "pt_BR": "throughput por dispositivo", "zh_Hans": "单设备吞吐量", "zh_Hant": "單一裝置吞吐量",
}


@pytest.mark.parametrize("language", sorted(TAGS))
def test_too_many_values_names_them_as_too_few_does(language):
    """All four values given: the answer says so and asks to leave one out, naming the per-device throughput as
    the too-few answer ("Give any three of the four values (…)") does, not as a bare "throughput" beside a bare
    "actual"."""
    locale = resolve_locale(TAGS[language])
    many = answer("devices=64 v=2000 efficiency=90% actual=115200", locale).text
    few = answer("64 2000", locale).text
    assert PER_DEVICE[language] in many and PER_DEVICE[language] in few, (many, few)
    assert "Give only three" not in many and many != few
    if language == "en":
        assert many == (
            "All four values are given; leave one out (devices, per-device throughput, efficiency, or "
            "actual throughput) and dpscale works it out."
        )


@pytest.mark.parametrize("command", ["1 2000 90%", "devices=1 v=2000 actual=1800"])
def test_french_one_device_delivers_its_full_throughput_once(command):
    """ "Seul, un accélérateur fournit tout son débit par accélérateur" said "per device" of one device."""
    text = render_plain_text(answer(command, resolve_locale("fr-FR")))
    assert "Un accélérateur seul fournit la totalité de son débit" in text, text
    assert "débit par accélérateur" not in text.split("Un accélérateur seul", 1)[1].split("efficacité")[0]
    assert "Seul, un accélérateur" not in text


def test_the_han_rule_leaves_other_languages_alone():
    """Only languages that set Han without spaces lose a space: German keeps its template as written."""
    words = Wording(resolve_locale("de-DE"))
    assert words.fill("{a} 与 {b}", a="甲", b="乙") == "甲 与 乙"
    assert Wording(resolve_locale("zh-CN")).fill("{a} 与 {b}", a="甲", b="乙") == "甲与乙"
    assert Wording(resolve_locale("zh-CN")).fill("{a} 与 {b}", a="img/s", b="2,000") == "img/s 与 2,000"


WRITTEN = ["0", "1", "1.5", "2", "2.5", "21", "21.1", "101", "1000000", "1000000.5", "0.5", "115200", "57.6"]


@pytest.mark.parametrize("language", sorted(TAGS))
def test_a_rates_unit_takes_the_plural_form_cldr_gives_the_number_as_written(language):
    """The shortcut for rates of 2 and more (decimals too) picks the form CLDR's rule picks for the number as the
    reply writes it; only Brazilian Portuguese's zero, plural by usage, differs from the rule."""
    from decimal import Decimal

    words = Wording(resolve_locale(TAGS[language]))
    for text in WRITTEN:
        written = words.number(Decimal(text))
        category = words.language.plural_form(Decimal(text))
        expected = 2 if language == "pt_BR" and text == "0" else (1 if category == "one" else 2)
        assert words.plural_count(written) == expected, (written, category)


@pytest.mark.parametrize("language", sorted(TAGS))
def test_devices_worked_out_exactly_are_not_said_to_be_rounded(language):
    """115,200 samples/s at 1,800 a device is exactly 64 devices: the note keeps the efficiency's assumption and
    says nothing of rounding; 115,201 needs a 65th device, and the note says so."""
    recipient = resolve_locale(TAGS[language])

    def notes(text: str) -> list[str]:
        reply = answer(text, recipient)
        return [e["text"] for b in reply.blocks if b["type"] == "context" for e in b["elements"]
                if e["text"].startswith(":information_source:")]

    words = Wording(recipient)
    rounded = words.ngettext(
        ":information_source: Rounded up to {devices} device, which delivers {rate}. This assumes the efficiency "
        "stays at {efficiency} at that size; it usually drops as a cluster grows.",
        ":information_source: Rounded up to {devices} devices, which deliver {rate}. This assumes the efficiency "
        "stays at {efficiency} at that size; it usually drops as a cluster grows.", 65)
    assumed = words.gettext(":information_source: This assumes the efficiency stays at {efficiency} at that "
                            "size; it usually drops as a cluster grows.")
    assert rounded != assumed
    exact, over = notes("v=2000 E=90% A=115200"), notes("v=2000 E=90% A=115201")
    opening = rounded.split("{devices}")[0]
    assert not any(note.startswith(opening) for note in exact) and len(exact) == 1
    assert exact[0].startswith(assumed.split("{efficiency}")[0])
    assert any(note.startswith(opening) for note in over)


@pytest.mark.parametrize("tag", ["en-US", "en-GB"])
def test_the_help_says_to_name_any_three_values_with_the_keys(tag):
    """"Give any three of devices, throughput, efficiency and actual (cluster throughput), named with `devices= …`"
    ran a list of values into a list of keys; the help now says to name any three values with the keys, and what
    the one key that is no plain word, actual, stands for."""
    text = render_plain_text(answer("help", resolve_locale(tag)))
    keys = Wording(resolve_locale(tag)).key_list()
    line = next(line for line in text.splitlines() if keys in line)
    assert "Give any three of" not in line and "named with" not in line, line
    assert re.search(rf"name any three values with {re.escape(keys)} \(actual (is|being) the", line), line
