"""Every catalog says what its figures show: the one-device note beside the figures it explains, four numbers
answered as one too many, a rate's unit in the plural of its count, the series form's examples apart by the
language's own separator, and the command-line tool writing a terminal's command after CJK punctuation too."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

import pytest

from bot.cli import in_terminal
from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.i18n import catalog_name, shipped_languages
from bot.model.calculator import Quantity
from bot.reader.keywords import word_list
from bot.reader.languages import LANGUAGES as LANGUAGES_WORDS
from bot.reader.numbers import NEIGHBOUR_LOCALES, SLACK_LOCALES, resolve_locale
from bot.reader.parsing import parse_command
from bot.replies import render_plain_text
from bot.replies.blocks import code
from bot.replies.plurals import ZERO_IN_PLURAL
from bot.replies.wording import Wording
from bot.slack.series_form import series_form_view
from bot.slack.state import FormMetadata

TAGS = {"en": "en-US", "en_GB": "en-GB", "de": "de-DE", "es": "es-ES", "es_419": "es-LA", "fr": "fr-FR", "it": "it-IT",
        "ja": "ja-JP", "ko": "ko-KR", "pt_BR": "pt-BR", "zh_Hans": "zh-CN", "zh_Hant": "zh-TW"}
LANGUAGES = sorted(shipped_languages())


def test_every_shipped_language_is_read_here():
    assert set(LANGUAGES) == set(TAGS)


def _note(text: str) -> str:
    """The reply's ℹ️ line (the model's note)."""
    lines = [line for line in text.splitlines() if line.startswith("ℹ️")]
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_one_device_note_agrees_with_the_figures_it_stands_under(language):
    """`1 2000 90%`: the figures apply the 90 % given (1,800 actual, 0.9×), and the note names that 90 % and the
    one device's own rate, instead of saying the real efficiency is 100 % under an actual of 1,800."""
    locale = resolve_locale(TAGS[language])
    words = Wording(locale)
    devices, rate = words.number(Decimal(1), 0), words.number(Decimal(2000), 0)
    text = render_plain_text(answer(f"{devices} {rate} {words.percent(Decimal('0.9'))}", locale))
    note = _note(text)
    assert words.rate(words.number(Decimal(1800))) in text  # the figure shown is the one from 90 %
    assert words.percent(Decimal("0.9")) in note and words.rate(rate) in note and words.hundred in note, note


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_measured_one_device_efficiency_is_explained_by_its_two_throughputs(language):
    """`devices=1 v=2000 actual=1800`: the 90 % is dpscale's own, so the note does not say "you gave", it names
    both throughputs; and no "holds for 1 device, measure again at other sizes" beside it."""
    locale = resolve_locale(TAGS[language])
    words = Wording(locale)
    key = words.key
    command = (f"{key(Quantity.DEVICES)}1 {key(Quantity.THROUGHPUT)}{words.plain(Decimal(2000))} "
               f"{key(Quantity.ACTUAL)}{words.plain(Decimal(1800))}")
    note = _note(render_plain_text(answer(command, locale)))
    assert words.rate(words.number(Decimal(1800))) in note and words.rate(words.number(Decimal(2000))) in note
    assert words.percent(Decimal("0.9")) not in note, note


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_device_worked_out_is_not_told_its_efficiency_drops_as_a_cluster_grows(language):
    """`throughput=2000 efficiency=90% actual=1`: one device is enough, and its note says its efficiency is 100 % by
    definition; the rounding note beside it says it was rounded up to one device, not that 90 % is assumed to hold
    "at that size" and drop as a cluster grows."""
    locale = resolve_locale(TAGS[language])
    words = Wording(locale)
    key = words.key
    command = (f"{key(Quantity.THROUGHPUT)}{words.plain(Decimal(2000))} "
               f"{key(Quantity.EFFICIENCY)}{words.percent(Decimal('0.9'))} {key(Quantity.ACTUAL)}1")
    text = render_plain_text(answer(command, locale))
    rate = words.rate(words.number(Decimal(1800)))
    one = words.gettext(":information_source: Rounded up to one whole device; with these figures it delivers {rate}.")
    cluster = words.ngettext(
        ":information_source: Rounded up to {devices} device, which delivers {rate}. This assumes the efficiency "
        "stays at {efficiency} at that size; it usually drops as a cluster grows.",
        ":information_source: Rounded up to {devices} devices, which deliver {rate}. This assumes the efficiency "
        "stays at {efficiency} at that size; it usually drops as a cluster grows.", 1)
    assert one.format(rate=rate).replace(":information_source:", "ℹ️") in text, text
    assert cluster.format(devices="1", rate=rate, efficiency=words.percent(Decimal("0.9"))) not in text
    assert words.hundred in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_four_plain_numbers_are_one_too_many_in_every_language(language):
    """`64 2000 90 80%`: devices, throughput and (by its sign) efficiency are given; 90 is the one too many —
    not a question about where one number ends."""
    locale = resolve_locale(TAGS[language])
    with pytest.raises(UserInputError) as caught:
        parse_command("64 2000 90 80%", locale)
    assert (caught.value.code, caught.value.token) == (ErrorCode.TOO_MANY_NUMBERS, "90")
    expected = Wording(locale).gettext(
        "Too many numbers: devices, throughput, and efficiency are already given, so {token} is one too many."
    ).format(token="90")
    assert expected in render_plain_text(answer("64 2000 90 80%", locale))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rate_is_written_in_the_plural_cldr_gives_its_count(language):
    """`0 échantillon/s` in French (CLDR's `one` is 0 and 1 there), `1 sample/s` but `0 samples/s` and
    `1.5 samples/s` in English: the catalog's form follows the number as shown, decimals included; where the
    language's usage writes 0 in the plural against CLDR (`ZERO_IN_PLURAL`: Brazilian `0 amostras/s`), 0 does."""
    words = Wording(resolve_locale(TAGS[language]))
    singular, plural = (words.ngettext("{value} sample/s", "{value} samples/s", n) for n in (1, 2))
    for value in (Decimal(0), Decimal(1), Decimal("1.5"), Decimal(2), Decimal(115200)):
        written = words.number(value)
        one = words.language.plural_form(value) == "one" and (value or language not in ZERO_IN_PLURAL)
        wanted = singular if one else plural
        assert words.rate(written) == wanted.format(value=written), (value, words.rate(written))


def test_the_rate_plural_bites_where_a_language_has_one():
    """The table above is not vacuous: French 0 and English 1 take the singular, English 0 the plural."""
    assert Wording(resolve_locale("fr-FR")).rate("0") == "0 échantillon/s"
    assert Wording(resolve_locale("en-US")).rate("1") == "1 sample/s"
    assert Wording(resolve_locale("en-US")).rate("0") == "0 samples/s"
    assert Wording(resolve_locale("en-US")).with_unit("tokens/s").rate("1") == "1 tokens/s"  # the user's own word


@pytest.mark.parametrize(("tag", "unit", "value", "written"), [
    ("en-US", "sample/s", "7.2", "7.2 samples/s"),
    ("en-US", "sample/s", "1", "1 sample/s"),
    ("en-US", "Image/sec", "8", "8 Images/sec"),  # the user's own spelling, in the plural
    ("en-US", "tokens/s", "1", "1 tokens/s"),  # a plural the user typed stays as typed
    ("en-US", "img/s", "8", "8 img/s"),  # an abbreviation has no plural
    ("de-DE", "Bild/s", "2.000", "2.000 Bilder/s"),
    ("fr-FR", "échantillon/s", "1,5", "1,5 échantillon/s"),  # French `one` is below 2
    ("fr-FR", "échantillon/s", "2", "2 échantillons/s"),
    ("es-ES", "muestra/s", "7,2", "7,2 muestras/s"),
    ("zh-TW", "token/秒", "2,000", "2,000 token/秒"),  # a language whose own unit takes no plural keeps the word
    ("ja-JP", "sample/s", "7.2", "7.2 sample/s"),
])
def test_a_singular_unit_the_user_typed_takes_its_plural_where_the_count_needs_it(tag, unit, value, written):
    assert Wording(resolve_locale(tag)).with_unit(unit).rate(value) == written


@pytest.mark.parametrize(("tag", "unit", "written"), [
    ("ja-JP", "サンプル/秒", "115,200サンプル/秒"),  # as the catalog writes its own unit: `{value}サンプル/秒`
    ("ja-JP", "トークン/秒", "115,200トークン/秒"),
    ("ja-JP", "img/s", "115,200 img/s"),  # a Latin unit keeps its space
    ("ja-JP", "tokens/秒", "115,200 tokens/秒"),
    ("zh-CN", "样本/秒", "115,200 样本/秒"),  # `{value} 样本/秒`
    ("ko-KR", "샘플/초", "115,200 샘플/초"),
])
def test_a_unit_the_user_typed_is_spaced_as_the_languages_own_unit(tag, unit, written):
    assert Wording(resolve_locale(tag)).with_unit(unit).rate("115,200") == written


def test_a_japanese_reply_writes_the_users_japanese_unit_on_its_number():
    text = render_plain_text(answer("64 台 2,000 サンプル/秒 90%", resolve_locale("ja-JP")))
    assert "115,200サンプル/秒" in text and " サンプル/秒" not in text


def test_a_reply_in_the_users_singular_unit_writes_its_plural():
    """`8 GPUs 1 sample/s 90%` answered "7.2 sample/s"."""
    text = render_plain_text(answer("8 GPUs 1 sample/s 90%", resolve_locale("en-US")))
    assert "Actual throughput: 7.2 samples/s" in text and "Ideal throughput: 8 samples/s" in text
    assert "Per-device throughput: 1 sample/s" in text


def _spans_touching(text: str) -> list[str]:
    """The code spans of `text` that touch a letter or a full-width character (`、`, `，`, `：`): Slack may not draw
    them."""
    def loose(char: str) -> bool:
        return bool(char) and (char.isalnum() or unicodedata.east_asian_width(char) in "WF")
    return [span.group() for span in re.finditer(r"`[^`]+`", text)
            if loose(text[span.start() - 1:span.start()]) or loose(text[span.end():span.end() + 1])]


@pytest.mark.parametrize("language", LANGUAGES)
def test_code_spans_joined_in_code_are_kept_off_letters_and_full_width_punctuation(language):
    words = Wording(resolve_locale(TAGS[language]))
    spans = [code(f"format={tag}") for tag in ("de-DE", "en-US", "fr-FR")]
    for joined in (words.alternatives(spans), words.alternatives(spans[:2]), words.spans(spans)):
        assert _spans_touching(joined) == [], joined


def test_japanese_choices_keep_a_space_beside_the_ideographic_comma():
    words = Wording(resolve_locale("ja-JP"))
    spans = [code(f"format={tag}") for tag in ("de-DE", "en-US", "fr-FR")]
    assert words.alternatives(spans) == "`format=de-DE` 、 `format=en-US` 、または `format=fr-FR`"
    assert Wording(resolve_locale("en-US")).alternatives(spans) == (
        "`format=de-DE`, `format=en-US`, or `format=fr-FR`")  # a Latin comma needs none


SEPARATORS = {"fr": "\u202f; ", "ja": "、", "ko": " / ", "zh_Hans": "；", "zh_Hant": "；"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_series_forms_examples_are_apart_by_the_languages_separator(language):
    """The placeholder's three measurements are a list, not a product: no `·` (the legend's multiplication),
    and the language's semicolon between them (`; `, French `\u202f; `, Chinese `；`, Japanese `、`)."""
    locale = resolve_locale(TAGS[language])
    view = series_form_view(locale, FormMetadata.of(locale, None))
    placeholders = [block["element"]["placeholder"]["text"] for block in view["blocks"] if block["type"] == "input"]
    rows = placeholders[-1]
    assert "·" not in rows and rows.count(SEPARATORS.get(language, "; ")) == 2, rows


@pytest.mark.parametrize(("shown", "terminal"), [
    ("用法：/dpscale 设备数", "用法：dpscale 设备数"),
    ("例：/dpscale v=2,000", "例：dpscale v=2,000"),
    ("「/dpscale シリーズ」", "「dpscale シリーズ」"),
    ("Usage: /dpscale 64", "Usage: dpscale 64"),
    ("`/dpscale 64 2,000 90%`", "`dpscale 64 2,000 90%`"),
    ("see docs/dpscale and x./dpscale", "see docs/dpscale and x./dpscale"),  # inside a path: left alone
])
def test_the_terminal_command_is_written_after_any_punctuation(shown, terminal):
    assert in_terminal(shown) == terminal


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_slack_command_is_left_in_the_terminals_help(language, capsys):
    from bot.cli import main

    main(["help", "--locale", TAGS[language]])
    assert "/dpscale" not in capsys.readouterr().out


SERIES_NOTE = (":books: To learn what scaling efficiency is, why it drops as a cluster grows, and how to improve "
               "it, click *Explanations* under a result only you can see, or open dpscale's Home tab. These figures "
               "hold only at the sizes measured; nothing is extrapolated.")
FORECAST_NOTE = (":books: To learn what scaling efficiency is, why it drops as a cluster grows, and how to improve "
                 "it, click *Explanations* under a result only you can see, or open dpscale's Home tab. The table's "
                 "figures hold at the sizes measured; only the forecast is extrapolated.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_forecasts_pointer_to_the_explanations_is_the_series_own(language):
    """Under a forecast (`at=128`) the pointer to *Explanations* says what to do in the same words as under a
    series without one (it was once a verbless "*Explanations* under a private result" there): only the
    sentence on what is extrapolated differs."""
    words = Wording(resolve_locale(TAGS[language]))

    def first(text: str) -> str:
        return re.split(r"(?<=[.。])\s*", text)[0]

    assert words.gettext(FORECAST_NOTE) != FORECAST_NOTE or language in ("en", "en_GB")
    assert first(words.gettext(FORECAST_NOTE)) == first(words.gettext(SERIES_NOTE))


def test_too_few_values_names_the_four_values_as_the_result_labels_them():
    """`64 2000`: the English answer names "per-device throughput" and "actual throughput", not a bare "actual"
    that reads like a keyword list."""
    text = render_plain_text(answer("64 2000", resolve_locale("en-US")))
    assert ("Give any three of the four values (devices, per-device throughput, efficiency, actual "
            "throughput);") in text, text


@pytest.mark.parametrize("command", ["devices=64 v=2000 actual=100000", "64 2000 90%"])
def test_the_limits_note_is_true_whether_the_efficiency_was_given_or_worked_out(command):
    """The limits note under a result whose efficiency dpscale calculated does not say it is the one "you give"."""
    text = render_plain_text(answer(command, resolve_locale("en-US")))
    limits = [line for line in text.splitlines() if "Limits." in line]
    assert len(limits) == 1 and "the one efficiency you give" not in limits[0], limits
    assert "whether you give it or dpscale works it out" in limits[0]


def test_the_taiwanese_unit_example_counts_gpus_as_taiwan_writes_them():
    """`64 張 GPU`, as a Taiwanese reader writes it (it was `64 張卡`)."""
    assert "`64 張 GPU 2,000 樣本/秒 90%`" in answer("64 TFLOPS 90%", resolve_locale("zh-TW")).text


@pytest.mark.parametrize("tag", SLACK_LOCALES + NEIGHBOUR_LOCALES)
def test_the_unit_errors_example_is_written_in_the_readers_words_and_reads_back(tag):
    """The unknown-unit error's example counts devices with its language's own word (`64 GPU` in Italian, French
    and Spanish, `64台`, `64개`, `64 张卡`; the English `64 GPUs` only where the language writes it so), a word its
    table in `bot.reader.languages` reads as devices, and names the rate in the reader's own unit words
    (`muestras/s`, `Samples/s`); typed back in that locale it computes: 64 devices at 2,000 and 90% deliver
    115,200."""
    locale = resolve_locale(tag)
    words = Wording(locale)
    own = LANGUAGES_WORDS[word_list(catalog_name(locale))]
    count = own.example_count.format(words.number(Decimal(64), 0))
    assert {word.casefold() for word in own.example_count.replace("{}", "").split()} <= {
        word.casefold() for word in own.labels[Quantity.DEVICES]}, own.example_count
    error = answer("64 TFLOPS 90%", locale).text
    examples = [example for example in re.findall(r"`([^`]+)`", error) if example.startswith(count + " ")]
    assert len(examples) == 1, (count, error)
    assert words.rate(words.number(Decimal(2000))) in examples[0], error
    again = answer(examples[0], locale)
    assert again.kind == "result", (examples[0], again.text)
    assert words.number(Decimal(115200)) in render_plain_text(again), (examples[0], again.text)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("measurement", ["8=abc", "8=²000", "8=2000x"])
def test_an_error_in_a_measurement_has_one_colon_a_sentence(language, measurement):
    """The measurement an error is in, then the error: Korean once joined two colons in one sentence
    ("8=abc: 읽을 수 없는 숫자입니다: abc."), where its errors already end on the token after a colon."""
    text = answer(f"v=2000 {measurement} 16=31000", resolve_locale(TAGS[language])).text
    assert measurement in text, text
    prose = re.sub(r"`[^`]*`", "C", text)
    for sentence in re.split(r"(?<=[.。])\s*", prose):
        assert len(re.findall("[:：]", sentence)) <= 1, (sentence, text)
