"""The help and the errors, as every catalog's user reads them: the words a command may hold (the help's target
example in the language's word for a target, and an error that lists every word the help uses), the help's examples
set apart from what they do, and sentences the English source rewrote (what is folded into one efficiency, a number
checked rather than shown, the ideal throughput with its unit, a language code with or without its region, the
value a cluster size is missing)."""

from __future__ import annotations

import re
from decimal import Decimal
from types import SimpleNamespace

import pytest
from babel import Locale

from blockkit import texts_of
from bot.engine import answer
from bot.model.calculator import Quantity
from bot.reader.keywords import forecast_words, keywords
from bot.reader.numbers import resolve_locale
from bot.reader.series_syntax import SERIES_WORDS
from bot.replies import build_help_reply, render_plain_text
from bot.replies.blocks import code
from bot.replies.guide import forecast_word, series_word, target_key
from bot.replies.wording import Wording
from bot.slack.workspaces import install_pages

TAGS = {"en": "en-US", "en_GB": "en-GB", "de": "de-DE", "es": "es-ES", "es_419": "es-LA", "fr": "fr-FR",
        "it": "it-IT", "ja": "ja-JP", "ko": "ko-KR", "pt_BR": "pt-BR", "zh_Hans": "zh-CN", "zh_Hant": "zh-TW"}


def words_of(language: str) -> Wording:
    return Wording(resolve_locale(TAGS[language]))


def help_lines(language: str) -> list[str]:
    """The help's example lines, as Slack is given them."""
    reply = build_help_reply(resolve_locale(TAGS[language]))
    texts = [block["text"]["text"] for block in reply.blocks if block.get("type") == "section"]
    return [line for text in texts for line in text.splitlines() if line.startswith("• ")]


# --- the words a command may hold -----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", sorted(TAGS))
def test_the_helps_target_example_names_a_target_and_answers_with_the_devices_needed(language):
    """German *Ist* is the measured value, the opposite of *Soll* and *Ziel*: the help's target example showed
    `ist=200.000`. It shows the language's word for a target where its table has one (`ziel=`, `target=`,
    `cible=`), and typed back it answers with the devices needed."""
    words = words_of(language)
    (line,) = [line for line in help_lines(language) if words.number(Decimal(200000)) in line]
    command = re.search(r"`/dpscale ([^`]+)`", line).group(1)  # type: ignore[union-attr]
    assert target_key(words) + words.number(Decimal(200000)) in command
    if language == "de":
        assert "ziel=200.000" in command and "ist=" not in command
    reply = answer(command, resolve_locale(TAGS[language]))
    headline = words.gettext("Devices needed: {devices}").format(devices=words.number(Decimal(112), 0))
    assert not reply.is_error and headline in render_plain_text(reply), reply.text


@pytest.mark.parametrize("language", sorted(TAGS))
def test_an_unknown_word_is_answered_with_every_word_the_help_uses_and_each_is_read(language):
    """`soll=200.000` got "Verwende Zahlen oder die Wörter geräte= durchsatz= effizienz= ist= sprache=", which left
    out the target, the forecast, the number format and the series the help and the other errors name. The list
    holds them all, in the reader's language, and the reader reads every one of them."""
    words = words_of(language)
    said = answer("banana", resolve_locale(TAGS[language])).text
    listed = re.findall(r"`([^`]+)`", said)[-1].split()
    expected = [*(words.key(quantity) for quantity in Quantity), target_key(words), forecast_word(words) + "=",
                words.key(None), "format=", series_word(words)]
    assert sorted(listed) == sorted(set(expected)), said
    for word in listed:
        bare = word.removesuffix("=").casefold()
        assert bare in keywords() or bare in forecast_words() or bare in SERIES_WORDS or bare == "format", word


@pytest.mark.parametrize("language", sorted(TAGS))
def test_every_help_example_is_set_apart_from_what_it_does(language):
    """The Home tab showed "`/dpscale 64 2,000 actual=115,200` your measured efficiency" with nothing between the
    command and its meaning; each line now has the language's dash between them."""
    lines = help_lines(language)
    assert len(lines) == 8
    assert [line for line in lines if not re.match(r"• `[^`]+` (—|–|——) \S", line)] == []


# --- sentences the source rewrote ----------------------------------------------------------------------------------

LIMITS = {  # "every loss is folded into a single efficiency": an ML reader takes *loss* for the training loss
    "en": "every source of overhead is folded into a single efficiency,",
    "en_GB": "every source of overhead is folded into a single efficiency figure,",
    "de": "jede Art von Overhead fließt in einen einzigen Effizienzwert ein",
    "es": "todas las fuentes de sobrecarga se resumen en una sola eficiencia",
    "es_419": "todas las fuentes de sobrecarga se resumen en una sola eficiencia",
    "fr": "toutes les sources de surcoût sont ramenées à une seule efficacité",
    "it": "ogni fonte di overhead confluisce in un’unica efficienza",
    "ja": "あらゆるオーバーヘッドの要因を1つの効率にまとめて扱います",
    "ko": "모든 오버헤드 요인을 효율 하나에 반영합니다",
    "pt_BR": "todas as fontes de overhead ficam embutidas em uma única eficiência",
    "zh_Hans": "所有开销来源都归入同一个效率值", "zh_Hant": "所有額外開銷的來源都併入同一個效率值",
}


@pytest.mark.parametrize("language", sorted(LIMITS))
def test_the_limits_fold_every_source_of_overhead_not_every_loss(language):
    said = render_plain_text(answer("64 2000 90%", resolve_locale(TAGS[language])))
    assert LIMITS[language] in said, said


CHECKED = {  # a number read two ways: the reply asks nothing, it asks the user to write one of two forms
    "en-US": "2.000 is ambiguous. Write 2 or 2000 instead: either one reads the same in every number format. "
             "Other Slack languages read it differently, so I'd rather ask than show a result that could be off by a "
             "factor of a thousand.",
    "en-GB": "2.000 is ambiguous. Write 2 or 2000 instead: either one reads the same in every number format. "
             "Other Slack languages read it differently, so I'd rather ask than show a result that might be out by a "
             "factor of a thousand.",
    "fr-FR": "je préfère vous demander de préciser plutôt que de risquer un résultat mille fois trop grand",
    "it-IT": "preferisco chiederti di precisare piuttosto che mostrare un risultato",
}


@pytest.mark.parametrize("tag", sorted(CHECKED))
def test_an_ambiguous_number_is_checked_not_said_to_be_asked(tag):
    said = render_plain_text(answer("64 2.000 90%" if tag.startswith("en") else "64 2,000 90 %",
                                    resolve_locale(tag)))
    assert CHECKED[tag] in said, said


def test_a_misplaced_separator_says_how_far_apart_the_readings_are():
    said = answer("64 2000,000 90%", resolve_locale("en-US")).text
    assert said.endswith("and the two readings differ by a factor of 1000."), said


@pytest.mark.parametrize("tag", ["en-US", "en-GB"])
def test_the_help_hyphenates_nine_tenths(tag):
    rules = build_help_reply(resolve_locale(tag)).blocks[-1]["elements"][-1]["text"]
    assert "two thousand is `2,000`, nine-tenths `0.9`." in rules, rules


@pytest.mark.parametrize("language", sorted(TAGS))
def test_an_actual_throughput_above_ideal_names_the_ideal_throughput_with_its_unit(language):
    """"cannot exceed the ideal one (128,000)": the ideal is a throughput, and it is shown with its unit."""
    words = words_of(language)
    said = answer("64 2000 actual=200000", resolve_locale(TAGS[language])).text
    assert words.rate(words.number(Decimal(128000))) in said, said


@pytest.mark.parametrize("language", sorted(TAGS))
def test_an_unknown_language_is_answered_with_a_code_with_and_without_its_region(language):
    """The help teaches `idioma=de`, a language alone; "use a language and region code, such as de-DE" contradicted
    it. The example offers both."""
    said = answer("64 2000 90% lang=xx", resolve_locale(TAGS[language])).text
    assert code("de") in said and code("de-DE") in said, said


@pytest.mark.parametrize("language", sorted(TAGS))
def test_a_cluster_size_without_its_value_is_shown_one_that_fits_it(language):
    """`v=2000 8=15800 16=` was told "write it as 16=115,200" (the throughput of 64 devices), and `16=abc` "write
    numbers like 115,200"; the example is the series' own for that size, and one at 90 % for another size."""
    words = words_of(language)
    for text, example in (("v=2000 8=15800 16=", f"16={words.number(Decimal(31000))}"),
                          ("v=2000 8=15800 32=", f"32={words.number(Decimal(57600))}"),
                          ("v=2000 8=15800 16=abc", words.number(Decimal(31000)))):
        said = answer(text, resolve_locale(TAGS[language])).text
        assert code(example) in said and words.number(Decimal(115200)) not in said.split("\n")[0], said


def test_the_region_question_points_to_the_number_format_menu():
    """A Mexican user's `2,000` is asked about because es-LA covers countries that read it differently: the question
    now says where to choose their own format for good."""
    said = answer("64 2,000 90%", resolve_locale("es-LA")).text
    assert "Puedes elegir el formato numérico de tu país en la pestaña Inicio de dpscale." in said, said


def test_the_unit_error_asks_for_a_per_device_throughput():
    said = answer("64 2,000 TFLOPS 90%", resolve_locale("en-US")).text
    assert "I expect a device count, a per-device throughput (such as samples/s), and an efficiency" in said, said


def test_an_expired_install_link_says_the_installation_was_started_in_another_browser():
    page = install_pages(Locale.parse("en")).failure(SimpleNamespace(reason="invalid_browser"))
    assert "or the installation was started in another browser." in page.body, page.body


# --- each catalog as its own readers write it ----------------------------------------------------------------------

NATIVE = [  # (Slack locale, command, what the reply says, what it no longer says)
    ("de-DE", "64 2000 1,5", "1,5` ist größer als 1 und kann daher kein Anteil sein", "Dezimalzahl"),
    ("de-DE", "64 2000 90", "Eindeutig wird es als Anteil (`0,9`) oder mit Prozentzeichen (90\u00a0%).",
     "Eindeutig schreibst du"),
    ("de-DE", "64 2000 90 %", "Straggler (langsame Geräte, auf die alle anderen warten). Deshalb", "sodass jedes"),
    ("de-DE", "durchsatz=2000 effizienz=90% ist=200000", "dass die Effizienz auch bei dieser Größe 90\u00a0% beträgt",
     "bei dieser Größe bei"),
    ("fr-FR", "64 2000 90 %", "Débit perdu\u202f: 12\u202f800 échantillons/s", "Perte de scaling"),
    ("fr-FR", "64 2000 90 %", "faites se chevaucher la communication des gradients et la passe arrière", "recouvrez"),
    ("it-IT", "64 2000 90%", "` throughput effettivo: 90% dell’ideale", "effettivo/ideale"),
    ("it-IT", "64 2000 90%", "*Come migliorare l’efficienza?*", "migliorarla?"),
    ("it-IT", "64 2000 90%", "(quello in cui ogni dispositivo contribuisce con tutto il proprio throughput)",
     "(ogni dispositivo che contribuisce"),
    ("it-IT", "v=2000 8=15800 16=31000", "clicca su «Spiegazioni»", "fai clic su"),
    ("es-ES", "1 2000 90 %", "la eficiencia solo tiene sentido a partir de dos dispositivos", "cuenta a partir"),
    ("es-ES", "64 2000 90 % 5", "Sobran números: ya has indicado dispositivos, throughput y eficiencia", "ya tienes"),
    ("es-ES", "64 2000 90 %", "(con cada dispositivo aportando todo su throughput individual)", "(cada dispositivo"),
    ("es-LA", "64 2000 90%", "Pérdida por escalamiento", "escalado"),
    ("es-LA", "64 2000 1.5", "no puede ser una proporción entre 0 y 1", "decimal entre 0 y 1"),
    ("es-LA", "64 2000 90", "Escríbelo como proporción (por ejemplo, `0.9`)", "como decimal"),
    ("es-LA", "64 2000 90% 5", "Sobran números: ya indicaste dispositivos", "ya tienes"),
    ("pt-BR", "64 2000 90%", "Throughput perdido: 12.800 amostras/s", "Perda de escalabilidade"),
    ("ja-JP", "64 2000 90%", "` 実効スループットは理想の90%です", "実効値"),
    ("ja-JP", "64 2000 90%",
     "今回の数値では、効率90%の64台が、単体の性能をそのまま発揮するデバイス57.6台分の働きをします。", "として働きます"),
    ("ja-JP", "デバイス=64 効率=90% 実効=115200", "デバイスあたりに必要なスループット：2,000サンプル/秒",
     "必要なデバイスあたり"),
    ("ja-JP", "64 2000 90% 予測=128", "` を使うには、スケーリング測定の値が必要です。", "で予測を求めるには"),
    ("ja-JP", "1 2000 実効=1800", "測定したためと考えられます。", "測定したためです。"),
    ("ja-JP", "v=2000 8=15800 16=abc", "`16=abc` の入力：", "について"),
    ("ja-JP", "64 2000 90%", "純粋なデータ並列を前提としています。パイプライン並列", "前提としており"),
    ("ja-JP", "ヘルプ", "`/dpscale デバイス数 スループット 効率`", "台数 スループット"),
    ("ko-KR", "64 2000 90%", "*계산 모델의 한계*\n이 계산은 1차 근사로,", "모델의 한계*\n이 모델은"),
    ("ko-KR", "64 2000 1.234", "끝의 0은 이 수가 1000배 큰 수(`1234%`)로 읽히지 않도록", "값으로 읽히지"),
    ("ko-KR", "64 2000 90% 예측=128", "`예측=128` 옵션을 쓰려면 규모별 측정값이 필요합니다.",
     "요청하는 입력입니다"),
    ("ko-KR", "1 2000 90%", "이 결과는 입력한 효율 90%를 적용해 계산했지만,", "그대로 적용한 것입니다"),
    ("ko-KR", "도움말", "(예: 2천은 `2,000`, 10분의 9는 `0.9`)", "이천"),
    ("ko-KR", "abc", "사용법: `/dpscale 디바이스 처리량 효율` (예: `/dpscale 64 2,000 90%`)", "효율`, 예:"),
    ("ko-KR", "v=2000 8=15800 16=31000", "나만 볼 수 있는 결과 아래의", "비공개 결과"),
    ("zh-CN", "64 2000 90%", "（通信轮次更多，跨节点慢速链路上的流量也更多），而每台设备上的有效计算量", "每个设备"),
    ("zh-CN", "64 2000 90% 预测=128", "` 只能用于多规模测量：需要单设备吞吐量", "要求给出预测"),
    ("zh-CN", "v=2000 8=15800 16=31000", "点击仅你可见的结果下方的“说明”按钮", "私密结果"),
    ("zh-TW", "64 2000 90% 預測=128", "` 只能用於多規模量測：需要單一裝置吞吐量", "要求產生預測"),
    ("zh-TW", "v=2000 8=15800 16=31000", "請點選只有你看得到的結果下方的「說明」按鈕", "私人結果"),
    ("zh-TW", "8=15800 16=31000", "多規模量測需要單一裝置的吞吐量", "系列量測"),
    ("en-GB", "64 2000 90", ":mag: I've taken `90` as a percentage: 90%.", "I've read"),
    ("en-US", "2 1000 50%", "2 devices do the work of a single perfect one.", "work like"),
]


@pytest.mark.parametrize(("tag", "text", "said", "unsaid"), NATIVE)
def test_each_catalog_says_it_as_its_readers_do(tag, text, said, unsaid):
    reply = answer(text, resolve_locale(tag))
    shown = "\n".join([reply.text, *(str(block) for block in reply.blocks)])
    rendered = render_plain_text(reply)
    full = shown + "\n" + rendered
    assert said in full or said in "\n".join(texts_of(reply)), rendered
    assert unsaid not in full, rendered

