"""Every Slack language: each reply, help, error, form and Home view stays inside Block Kit's limits in every
locale, and the help's own examples compute what they promise in the reader's format."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from babel import Locale
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blockkit import MAX_VIEW_BLOCKS, assert_no_broadcast, assert_within_limits
from bot.cli import main as cli_main
from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.i18n import catalog_name, shipped_languages
from bot.model.calculator import Quantity
from bot.reader.keywords import keywords
from bot.reader.numbers import SLACK_LOCALES, resolve_locale
from bot.reader.recipient import Recipient
from bot.reader.series_syntax import wants_series_form
from bot.replies import build_error_reply, build_help_reply, explanation_blocks
from bot.replies.series import COLUMNS, legend
from bot.replies.wording import Wording
from bot.slack.modals import TITLE_LIMIT
from bot.slack.state import FormMetadata
from bot.slack.views import form_view, home_view, shared_reply
from examples import examples
from test_resilience import hostile

CATALOG_OF = {"en-US": "en", "en-GB": "en_GB", "en-IN": "en_GB", "de-DE": "de", "es-ES": "es", "es-LA": "es_419",
              "fr-FR": "fr", "it-IT": "it", "ja-JP": "ja", "ko-KR": "ko", "pt-BR": "pt_BR", "zh-CN": "zh_Hans",
              "zh-TW": "zh_Hant"}

TAGS_BY_CATALOG = {catalog: tag for tag, catalog in reversed(CATALOG_OF.items())}  # en_GB: en-GB, not en-IN


def test_every_slack_locale_has_its_catalog_named_here():
    """`bot.reader.numbers.SLACK_LOCALES` is the one list of Slack's locales; this test names the catalog of each."""
    assert sorted(CATALOG_OF) == sorted(SLACK_LOCALES)


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_every_slack_locale_is_answered_from_its_own_catalog(tag):
    assert catalog_name(resolve_locale(tag)) == CATALOG_OF[tag]


@pytest.mark.parametrize(
    ("tag", "catalog"),
    [
        ("pt", "pt_BR"), ("pt-PT", "pt_BR"), ("zh", "zh_Hans"),  # the language's other catalog rather than English
        ("es-MX", "es_419"), ("es-AR", "es_419"), ("es", "es"),  # CLDR's regional parent: Latin American Spanish
        ("fr-CA", "fr"), ("de-AT", "de"), ("en-AU", "en_GB"), ("tr-TR", "en"), ("nl-NL", "en"),
    ],
)
def test_a_locale_slack_does_not_offer_gets_the_closest_catalog_of_its_language(tag, catalog):
    assert catalog_name(resolve_locale(tag)) == catalog


def test_lang_with_a_language_of_another_region_answers_in_that_language():
    reply = answer("64 2000 90% lang=pt", Recipient.parse("de-DE"))
    assert reply.blocks[0]["text"]["text"].startswith("Throughput real")
    assert "doesn't speak" not in str(reply.blocks) and "ainda não fala" not in str(reply.blocks)


def test_every_shipped_catalog_serves_a_slack_locale():
    assert set(shipped_languages()) == set(CATALOG_OF.values()) | {"en"}


@pytest.mark.parametrize("tag", [t for t in SLACK_LOCALES if not t.startswith("en")])
def test_a_result_in_every_language_uses_its_own_words(tag):
    english = answer("64 2000 0.9", Recipient.parse("en-US"))
    reply = answer(_seed(tag), Recipient.parse(tag))
    assert reply.kind == "result"
    assert reply.blocks[0]["text"]["text"] != english.blocks[0]["text"]["text"]
    assert "What is scaling efficiency?" not in str(reply.blocks)


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_views_fit_slacks_limits_in_every_language(tag):
    locale = Recipient.parse(tag)
    words = Wording(locale)
    filled = {Quantity.DEVICES: words.number(Decimal(64), 0), Quantity.EFFICIENCY: words.percent(Decimal("0.9"))}
    for view in (form_view(locale, FormMetadata.of(locale, None)), form_view(locale, FormMetadata.of(locale, None),
                                                                             filled)):
        assert len(view["title"]["text"]) <= TITLE_LIMIT
        assert len(view["submit"]["text"]) <= TITLE_LIMIT and len(view["close"]["text"]) <= TITLE_LIMIT
        assert_within_limits(view["blocks"], max_blocks=MAX_VIEW_BLOCKS)
    assert_within_limits(home_view(locale)["blocks"], max_blocks=MAX_VIEW_BLOCKS)
    assert_within_limits(build_help_reply(locale).blocks)
    shared = shared_reply(answer(_seed(tag), locale), user_id="U1", recipient=locale)
    assert_within_limits(shared.blocks)


@pytest.mark.parametrize("tag", SLACK_LOCALES)
@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_error_in_every_language_fits_and_pings_no_one(tag, code):
    error = UserInputError(code, token="<!channel>" + "9" * 400, quantity=Quantity.EFFICIENCY.value, low="0.0001",
                           high="1", suggestions=("2", "2000"))
    reply = build_error_reply(error, Recipient.parse(tag))
    assert_within_limits(reply.blocks)
    assert_no_broadcast(reply.payload())


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=hostile, tag=st.sampled_from(SLACK_LOCALES))
def test_any_text_in_any_language_gets_a_reply_inside_block_kit_limits(text, tag):
    reply = answer(text, Recipient.parse(tag))
    assert_within_limits(reply.blocks)
    assert_no_broadcast(reply.payload())


HELP_EXAMPLE = re.compile(r"`/dpscale ([^`]*)`")
KEYWORDS = keywords()  # every language's key words: None for `lang=`


@pytest.mark.parametrize("tag", [*SLACK_LOCALES, "de_DE@numbers=en_US", "ja_JP@numbers=de_DE", "fr_FR@numbers=en_IN"])
def test_the_helps_examples_compute_what_they_promise_in_every_locale(tag):
    """In every Slack locale, and for users who chose another number format than their language's."""
    locale = Recipient.parse(tag)
    words = Wording(locale)
    help_text = str(build_help_reply(locale).blocks)
    examples = HELP_EXAMPLE.findall(help_text.replace("\\xa0", "\xa0").replace("\\u202f", "\u202f"))
    expected = {
        "actual": words.rate(words.number(Decimal(115200))),
        "efficiency": words.percent(Decimal("0.9")),
        "devices": words.number(Decimal(112), 0),
        "throughput": words.rate(words.number(Decimal(2000))),
    }
    solved = []
    for example in examples:
        if not any(c.isdigit() for c in example):
            continue  # the usage line's placeholders
        reply = answer(example, locale)
        headline = reply.blocks[0]["text"]["text"] if reply.blocks[0]["type"] == "header" else ""
        if "lang=" in example:
            assert reply.is_error or words.number(Decimal(115200)) in str(reply.blocks) or reply.kind == "result"
            continue
        assert reply.kind == "result", (example, reply.text)
        solved += [name for name, figure in expected.items() if figure in headline]
    assert {"actual", "efficiency", "devices", "throughput"} <= set(solved)


def _seed(tag: str) -> str:
    words = Wording(Recipient.parse(tag))
    return f"{words.number(Decimal(64), 0)} {words.number(Decimal(2000))} {words.percent(Decimal('0.9'))}"


@pytest.mark.parametrize(("tag", "name"), [("ru-RU", "Russian"), ("pl-PL", "Polish"), ("nl-NL", "Dutch")])
def test_a_language_without_a_catalog_gets_english_and_the_reply_says_so_once(tag, name):
    """The English note names the language in English, as it names the format beside it (not `русский`)."""
    for reply in (answer(_seed(tag), Recipient.parse(tag)), build_help_reply(Recipient.parse(tag))):
        text = str(reply.blocks)
        assert text.count(f"dpscale doesn't speak {name} yet") == 1


def test_the_note_names_the_format_a_lang_word_chose_not_the_users_own():
    """A German user asking for Turkish gets English words and Turkish numbers, and the note says which."""
    reply = answer("64 2000 %90 lang=tr", Recipient.parse("de-DE"))
    assert "64 devices × 2.000 samples/s at %90 efficiency" in reply.text
    assert "numbers are still read and written in the Turkish format" in str(reply.blocks)
    assert "own format" not in str(reply.blocks)


def test_a_copy_for_the_whole_channel_carries_no_note_about_the_sharers_format():
    """A Turkish user's result shared in a channel is written in the channel's format, so the note saying the
    numbers are in Turkish format, addressed to the sharer, is left out of it."""

    reply = answer("64 2.000 %90", Recipient.parse("tr-TR").for_channel())
    assert "115\u202f200 samples/s actual" in reply.text
    assert "doesn't speak" not in str(reply.blocks)
    unknown = answer("64 2000 %90", Recipient.parse("tr-TR@unknown"))  # nor under one read in the unknown format
    assert unknown.kind == "result" and "doesn't speak" not in str(unknown.blocks)


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_a_language_with_a_catalog_gets_no_such_note(tag):
    assert "doesn't speak" not in str(answer(_seed(tag), Recipient.parse(tag)).blocks)


def test_a_form_whose_two_formats_read_numbers_alike_names_one():
    """`lang=de` from a user who chose German numbers: one format, grouped examples; not "in the German format and
    in your own (German (Germany)) … where the two read differently"."""
    own = Recipient.parse("en-US").choosing(resolve_locale("de-DE"))
    german = own.answering_in(resolve_locale("de"))
    rule = form_view(german, FormMetadata.of(german, None))["blocks"][-1]["elements"][0]["text"]
    assert rule == "Zahlen werden in deinem Format „Deutsch“ gelesen, zum Beispiel `2.000` oder `0,9`."


def _shown_commands(reply) -> list[str]:
    """Every `/dpscale …` example with numbers that a reply shows, as a user would type it back."""
    text = json.dumps(reply.blocks, ensure_ascii=False).replace("&lt;", "<").replace("&gt;", ">")
    return [example for example in HELP_EXAMPLE.findall(text) if any(c.isdigit() for c in example.split()[0])]


@pytest.mark.parametrize(("user", "lang"), [("en-US", "de"), ("de-DE", "en"), ("fr-FR", "ja"), ("es-LA", "de"),
                                            ("en-IN", "it"), ("ja-JP", "pt-BR")])
@pytest.mark.parametrize("text", ["help", "64 2000", "64 1e3 90%", "64 2000 90% e=", "64 x 90%"])
def test_after_lang_every_example_shown_reads_alike_in_both_formats(user, lang, text):
    """After `lang=`, numbers are read in that format and in the user's own, and one the two read differently is
    asked about: so every example the help or an error shows is written so that both read it alike (`2000`, not
    `2.000`), and typed back with the same `lang=` it computes."""
    locale = Recipient.parse(user)
    reply = answer(f"{text} lang={lang}", locale)
    shown = _shown_commands(reply)
    assert shown, reply.text
    for example in shown:
        chooses = any(KEYWORDS.get(word.partition("=")[0].casefold(), ...) is None for word in example.split())
        typed = example if chooses else f"{example} lang={lang}"  # the help's own `lang=` example chooses one
        again = answer(typed, locale)
        assert again.kind == "result", (example, again.text)
    if text == "help":  # and the help says that both formats read the numbers
        rule = reply.blocks[-1]["elements"][-1]["text"]
        assert Wording(Recipient.parse(lang)).format_name(locale) in rule, rule


@pytest.mark.parametrize("tag", SLACK_LOCALES)
@pytest.mark.parametrize(("text", "token"), [("1e400 2000 90%", "1e400"),
                                             ("64 2000 1e3%", "1e3%"), ("① 2000 90%", "①"), ("64 2x000 90%", "2x000")])
def test_the_example_for_a_number_that_cannot_be_read_fits_the_value_it_stands_for(tag, text, token):
    """`1e400` as devices: the example is a number of devices (`64`), which, put in its place, computes; not the
    same `2,000` and `0.9` whatever the value (`0.9` devices are refused)."""
    locale = Recipient.parse(tag)
    reply = answer(text, locale)
    assert reply.is_error
    examples = [span for span in re.findall(r"`([^`]*)`", reply.blocks[0]["text"]["text"]) if span != token]
    assert examples, reply.text
    for example in examples:
        again = answer(text.replace(token, example, 1), locale)
        assert again.kind == "result", (example, again.text)


# --- what every catalog shares: defects that start in one place and show in every language -----------------------

SYNCHRONIZATION = ("synchron", "sincron", "同期", "同步", "동기")  # the stem in each shipped language


def _words(tag: str) -> Wording:
    return Wording(Recipient.parse(tag))


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_the_help_never_offers_the_readers_own_language_as_another(tag):
    """The help's `lang=` examples (for *another* language) never name the reader's own: en-US was told to add
    `lang=en-US`, and German readers `sprache=de`."""
    words = _words(tag)
    text = str(build_help_reply(Recipient.parse(tag)).blocks)
    offered = re.findall(re.escape(words.key(None)) + r"([A-Za-z]{2,3}(?:-[A-Za-z]{2,4})?)", text)
    assert offered, "the help shows no lang= example"
    for other in offered:
        assert Locale.parse(other, sep="-").language != words.language.language, (tag, other)


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_the_help_offers_the_series_form_with_a_word_the_reader_can_type(tag, capsys):
    """The help's series-form example is in the reader's language (`messreihe`, `シリーズ`), the command reads
    it, and the command-line tool explains it rather than answering "I don't recognize series"."""
    words = _words(tag)
    text = str(build_help_reply(Recipient.parse(tag)).blocks)
    lone = [w for w in re.findall(r"`/dpscale ([^`\s]+)`", text) if not any(c.isdigit() or c == "=" for c in w)]
    assert len(lone) == 1, lone
    word = lone[0]
    assert wants_series_form(word)
    if words.language.language != "en":
        assert word != "series", tag  # every other word of the help is the reader's language
    assert cli_main([word, "--locale", tag]) == 0
    out = capsys.readouterr()
    assert word in out.out and "v=" in out.out and not out.err


@pytest.mark.parametrize("language", sorted(shipped_languages()))
def test_the_series_legend_uses_the_dot_only_for_multiplication(language):
    """`·` in the legend is the product `d · v` and nothing else ("I ideal, d · v · E efficiency" read as one
    formula); each of the table's letters opens its own item with a colon."""
    words = Wording(Recipient.parse(TAGS_BY_CATALOG[language]))
    text = legend(words)
    assert text.count("·") == text.count("d · v") == 1, text
    for letter in COLUMNS:
        if letter:
            assert re.search(rf"(^|[;；、,，]\s*){letter}\s?[:：]", text), (letter, text)


@pytest.mark.parametrize("language", sorted(shipped_languages()))
def test_the_loss_line_claims_no_cause(language):
    """The result's loss row does not call every loss synchronization: the one efficiency folds in stragglers,
    uneven work and input stalls too (the limits say so)."""
    tag = TAGS_BY_CATALOG[language]
    reply = answer(_seed(tag), Recipient.parse(tag))
    fields = " ".join(field["text"] for field in reply.blocks[1]["fields"]).casefold()
    assert "12" in fields and not any(stem in fields for stem in SYNCHRONIZATION), fields


@pytest.mark.parametrize("language", sorted(shipped_languages()))
@pytest.mark.parametrize(("command", "devices", "efficiency", "speedup"), [
    ("8 1000 75%", 8, "0.75", "6"), ("64 2000 90%", 64, "0.9", "57.6"),
    ("throughput=2000 efficiency=90% actual=1M", 556, "0.9", "500.4")])
def test_the_faq_example_is_the_results_own(language, command, devices, efficiency, speedup):
    """Under a result, the FAQ's example uses its figures (`8 1000 75%`: 8 devices do the work of 6), never the fixed
    64 at 90 %; App Home's FAQ keeps the source document's example."""
    locale = Recipient.parse(TAGS_BY_CATALOG[language])
    words = Wording(locale)
    reply = answer(command, locale)
    faq = reply.blocks[-4]["text"]["text"]  # the first question of the FAQ: divider, three answers, the limits
    assert faq.startswith(words.gettext("*What is scaling efficiency?*")), faq
    figures = (words.number(Decimal(devices), 0), words.percent(Decimal(efficiency)), words.number(Decimal(speedup)))
    for figure in figures:
        assert figure in faq, (figure, faq)
    if speedup != "57.6":
        assert words.number(Decimal("57.6")) not in faq, faq
    assert words.number(Decimal("57.6")) in str(explanation_blocks(locale))


@pytest.mark.parametrize(("language", "sizes"), [
    ("ja", "8台と16台"), ("ko", "8개와 16개"), ("zh_Hans", "8 台和 16 台"), ("zh_Hant", "8 台和 16 台"),
    ("en", "8 and 16 devices"), ("de", "8 und 16 Geräten"), ("fr", "8 et 16 accélérateurs")])
def test_a_list_of_device_counts_carries_the_counter_on_every_count(language, sizes):
    """Sizes above ideal are listed by the language's own list pattern, each count with its counter where the
    language puts one ("8和16 台", "8 및 16개" were joined in code)."""
    tag = TAGS_BY_CATALOG[language]
    words = Wording(Recipient.parse(tag))
    text = f"v={words.number(Decimal(1000))} 8={words.number(Decimal(8100))} 16={words.number(Decimal(16200))}"
    reply = answer(text, Recipient.parse(tag))
    assert sizes in str(reply.blocks), str(reply.blocks)


@pytest.mark.parametrize("language", sorted(shipped_languages()))
def test_the_solved_devices_row_keeps_the_headlines_counter(language):
    """`デバイス数（算出）：556台`, as the headline `必要なデバイス数：556台`: a counter on every count."""
    tag = TAGS_BY_CATALOG[language]
    words = Wording(Recipient.parse(tag))
    typed = f"{words.key(Quantity.THROUGHPUT)}{words.number(Decimal(2000))} " \
            f"{words.key(Quantity.EFFICIENCY)}{words.percent(Decimal('0.9'))} {words.key(Quantity.ACTUAL)}1M"
    reply = answer(typed, Recipient.parse(tag))
    headline = reply.blocks[0]["text"]["text"]
    number = words.number(Decimal(556), 0)
    counter = headline.rsplit(number, 1)[1].strip()
    row = next(field["text"] for field in reply.blocks[1]["fields"] if number in field["text"])
    assert row.endswith(counter), (headline, row)
