"""Named values in every shipped language: each language's own words, matched whole, with no word naming two
quantities across languages, and each language's help showing its own."""

from decimal import Decimal as D

import pytest

from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.i18n import shipped_languages
from bot.model.calculator import Quantity
from bot.reader.keywords import CONFLICTS_REFUSED, WORDS, keywords, shown_keys
from bot.reader.numbers import resolve_locale
from bot.reader.parsing import parse_command
from bot.replies import render_plain_text

DEV, THR, EFF, ACT = Quantity


def test_every_languages_words_name_their_own_quantity_in_the_parser():
    table = keywords()
    for language, words in WORDS.items():
        for quantity, spellings in words.items():
            for word in spellings:
                assert table[word.casefold()] is quantity, (language, word)


def test_words_two_languages_share_name_the_same_quantity_and_refused_words_are_not_keys():
    shared: dict[str, set] = {}
    for words in WORDS.values():
        for quantity, spellings in words.items():
            for word in spellings:
                shared.setdefault(word.casefold(), set()).add(quantity)
    assert all(len(quantities) == 1 for quantities in shared.values())
    assert {"gpu", "throughput", "real", "eficiencia", "效率", "吞吐量"} <= {w for w in shared if len(w) > 1}
    for word in CONFLICTS_REFUSED:
        with pytest.raises(UserInputError) as raised:
            parse_command(f"{word}=5 64 2000", resolve_locale("en-US"))
        assert raised.value.code is ErrorCode.UNKNOWN_WORD


@pytest.mark.parametrize(
    ("locale", "text", "expected"),
    [
        ("ja-JP", "デバイス=64 スループット=2000 実効スループット=115200", {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("ja-JP", "台数＝６４　単体＝２０００　効率＝９０％", {DEV: D(64), THR: D(2000), EFF: D("0.9")}),
        ("ko-KR", "장치=64 처리량=2000 실제처리량=115200", {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("zh-CN", "设备=64 吞吐量=2000 集群吞吐量=115200", {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("zh-TW", "裝置=64 吞吐量=2000 叢集吞吐量=115200", {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("fr-FR", "accélérateurs=64 débit=2 000 efficacité=90 %", {DEV: D(64), THR: D(2000), EFF: D("0.9")}),
        ("fr-FR", "ACCELERATEURS=64 debit=2000 reel=115 200", {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("it-IT", "dispositivi=64 throughput=2000 effettivo=115.200", {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("es-ES", "dispositivos=64 tasa=2000 eficiencia=90 %", {DEV: D(64), THR: D(2000), EFF: D("0.9")}),
        ("pt-BR", "dispositivos=64 vazão=2000 meta=115.200", {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("en-US", "eff=90% d=64 v=2000", {DEV: D(64), THR: D(2000), EFF: D("0.9")}),
    ],
)
def test_each_language_names_values_in_its_own_words_matched_whole(locale, text, expected):
    assert parse_command(text, resolve_locale(locale)).values == expected


@pytest.mark.parametrize(
    "text", ["ヘルプ", "使い方", "도움말", "帮助", "說明", "aide", "ayuda", "ajuda", "aiuto", "hilfe"]
)
def test_each_languages_word_for_help_gets_the_help(text):
    assert parse_command(text, resolve_locale("en-US")).wants_help


@pytest.mark.parametrize("language", shipped_languages())
def test_each_languages_help_shows_its_own_words(language):
    locale = resolve_locale({"zh_Hans": "zh-CN", "zh_Hant": "zh-TW", "es_419": "es-LA"}.get(language, language))
    help_text = render_plain_text(answer("help", locale))
    keys = shown_keys(language)
    assert " ".join(keys[q] + "=" for q in Quantity) in help_text


def test_labels_fillers_and_key_words_never_name_two_things():
    """A unit word names one quantity in every language, the same one as a key word spelled alike, and is never
    a filler that another language drops (`bot.reader.labels`)."""
    from bot.reader.labels import FILLERS, PERCENT_WORDS, label_quantities

    labels = label_quantities()
    fillers = {word for words in FILLERS.values() for word in words}
    percent = {word.replace(" ", "") for words in PERCENT_WORDS.values() for word in words}
    assert not fillers & set(labels), fillers & set(labels)
    assert not percent & (set(labels) | fillers)
    assert {word: quantity for word, quantity in labels.items() if keywords().get(word, quantity) != quantity} == {}
    assert set(FILLERS) == set(PERCENT_WORDS) == {language for language in WORDS}
