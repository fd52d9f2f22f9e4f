"""A user's own number format: how numbers are read and written, apart from the language replies are in."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from blockkit import MAX_VIEW_BLOCKS, assert_within_limits
from bot.engine import answer
from bot.format_choice import (
    SELECT_ACTION,
    FormatChoice,
    UnknownFormatError,
    build_format_blocks,
    build_unknown_format_reply,
    take_format_choice,
)
from bot.model.calculator import Quantity
from bot.reader.formats import SLACK_LOCALES, example_number, offered_locales
from bot.reader.languages import LANGUAGES
from bot.reader.numbers import number_style, resolve_locale, write_number
from bot.reader.parsing import parse_command
from bot.reader.recipient import Recipient
from bot.replies import render_plain_text
from fake_slack import BOT_USER_ID
from slack_client import mention_body, post, send_command, send_event, send_interaction, send_mention, signed_headers

USER_LOCALES = {"UEN": "en-US", "UDE": "de-DE", "UMENU": "en-US", "UTR": "en-US", "ULA": "en-US", "UFMT": "en-US",
                "UFMT2": "ja-JP", "UFR": "fr-FR", "UMEN": "en-US",
                "UMEN2": "en-US", "UMEN3": "en-US"}


@pytest.mark.parametrize(
    ("text", "choice", "rest"),
    [
        ("format=de-DE", FormatChoice("de-DE"), ""),
        ("format=de_de 64 2.000 90 %", FormatChoice("de-DE"), "64 2.000 90 %"),
        ("64 2000 Format=fr-fr", FormatChoice("fr-FR"), "64 2000"),
        ("format=slack", FormatChoice(None), ""),
        ("zahlenformat=Standard", FormatChoice(None), ""),
        ("format=de-AT", FormatChoice("de-AT"), ""),
        ("format=es-419", FormatChoice("es-LA"), ""),  # another name of an offered format: as the menu names it
        ("format=zh-Hant-TW", FormatChoice("zh-TW"), ""),
        ("format=tr-tr", FormatChoice("tr-TR"), ""),  # not offered in the menu, but a format all the same
        ("64 2000 90%", None, "64 2000 90%"),
    ],
)
def test_the_format_word_is_read_and_taken_out_of_the_command(text, choice, rest):
    assert take_format_choice(text) == (choice, rest)


# `@unknown` and `@channel` are dpscale's own readers (no one's format: saved, every later answer would say Slack
# had not told the user's language); CLDR's root is no one's either
@pytest.mark.parametrize("text", ["format=klingon", "format=12", "format=en@unknown", "format=de-DE@channel",
                                  "format=root"])
def test_an_unknown_format_is_named(text):
    with pytest.raises(UnknownFormatError) as caught:
        take_format_choice(text)
    assert caught.value.token == text.partition("=")[2]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("format=", "`format=` has no value after it; add one, for example `format=de-DE`."),
        ("numbers= 64 2000", "`numbers=` has no value after it; add one, for example `numbers=de-DE`."),
        ("format=fr-FR format=en-US", "The number format is given twice (`format=en-US`). Give each value once."),
    ],
)
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_format_word_without_a_value_or_given_twice_is_said_so_and_saves_nothing(server, text, said):
    """As for `lang=`: an empty `format=` or a second one gets its own message, and no choice is saved (the next
    command is still read in the Slack language's format)."""
    assert send_command(server, text, user="UEN").json()["text"] == said
    assert "2,000 samples/s" in send_command(server, "64 2,000 90%", user="UEN").json()["text"]


@pytest.mark.parametrize(
    ("slack", "chosen", "text", "expected"),
    [
        # English words, the chosen format's numbers
        ("en-US", "de-DE", "64 2.000 90 %", "64 devices × 2.000 samples/s at 90\u00a0% efficiency: "
                                            "115.200 samples/s actual, 57,6× speedup"),
        ("en-US", "fr-FR", "64 2 000 90 %", "64 devices × 2\u202f000 samples/s at 90\u00a0% efficiency: "
                                            "115\u202f200 samples/s actual, 57,6× speedup"),
        ("de-DE", "en-US", "64 2,000 90%", "64 Geräte × 2,000 Samples/s bei 90% Effizienz: "
                                           "tatsächlich 115,200 Samples/s, Speedup 57.6×"),
        ("en-US", "en-US", "64 2,000 90%", "64 devices × 2,000 samples/s at 90% efficiency: "
                                           "115,200 samples/s actual, 57.6× speedup"),
    ],
)
def test_a_chosen_format_reads_and_writes_numbers_and_keeps_the_language(slack, chosen, text, expected):
    locale = Recipient.parse(slack).choosing(resolve_locale(chosen))
    assert answer(text, locale).text == expected
    assert Recipient.parse(str(locale)) == locale  # buttons and forms carry it


def test_the_menu_offers_every_slack_locale_with_an_example_and_same_as_slack():
    blocks = build_format_blocks(None, Recipient.parse("en-US"))
    select = blocks[0]["accessory"]
    assert select["action_id"] == SELECT_ACTION
    values = [o["value"] for o in select["options"]]
    assert values[0] == "slack" and set(SLACK_LOCALES) <= set(values)
    assert select["initial_option"]["text"]["text"] == "Same as my Slack language"
    labels = {o["value"]: o["text"]["text"] for o in select["options"]}
    assert labels["de-DE"] == "1.234.567,89 · German (Germany)"
    assert labels["en-IN"].startswith("12,34,567.89")
    chosen = build_format_blocks("fr-FR", Recipient.parse("de-DE"))[0]["accessory"]["initial_option"]
    assert chosen["value"] == "fr-FR"
    assert chosen["text"]["text"] == example_number("fr-FR") + " · Französisch (Frankreich)"


@pytest.mark.parametrize(("slack_locale", "german"),
                         [("zh-TW", "德文（德國）"), ("zh-CN", "德语（德国）"), ("ja-JP", "ドイツ語（ドイツ）")])
def test_the_menu_names_formats_in_the_script_of_the_readers_language(slack_locale, german):
    """A Taiwanese reader's menu is in Traditional characters, as every reply is, not in the bare language's."""
    labels = {o["value"]: o["text"]["text"]
              for o in build_format_blocks(None, Recipient.parse(slack_locale))[0]["accessory"]["options"]}
    assert labels["de-DE"] == "1.234.567,89 · " + german


def test_a_stored_format_that_names_no_locale_shows_same_as_slack():
    select = build_format_blocks("xx-YY", Recipient.parse("en-US"))[0]["accessory"]
    assert select["initial_option"]["value"] == "slack" and select["initial_option"] in select["options"]


def published_view(fake, before: int) -> dict:
    call = fake.wait_for("views.publish", before + 1)[before]
    view = call.params["view"]
    return json.loads(view) if isinstance(view, str) else view


def menu(view: dict) -> dict:
    return next(b for b in view["blocks"] if b.get("accessory", {}).get("action_id") == SELECT_ACTION)["accessory"]


def choose_in_home(server, value: str, action_ts: str):
    """UMENU picks `value` in App Home's number-format menu (a signed block action, as Slack sends it)."""
    return send_interaction(server, {
        "type": "block_actions", "team": {"id": "T0TEAM"}, "user": {"id": "UMENU"}, "api_app_id": "A1",
        "trigger_id": "1." + action_ts, "view": {"id": "V1", "type": "home"},
        "actions": [{"action_id": SELECT_ACTION, "block_id": "dpscale_number_format_block", "type": "static_select",
                     "action_ts": action_ts,
                     "selected_option": {"value": value, "text": {"type": "plain_text", "text": "x"}}}],
    })


def test_choosing_in_app_home_saves_the_format_and_commands_use_it(server, fake):
    before = len(fake.calls_to("views.publish"))
    send_event(server, {"type": "app_home_opened", "user": "UMENU", "channel": "D1", "tab": "home"}, "EvMenu1")
    view = published_view(fake, before)
    assert_within_limits(view["blocks"], max_blocks=MAX_VIEW_BLOCKS)
    assert menu(view)["initial_option"]["value"] == "slack"
    assert "Your number format" in json.dumps(view)

    before = len(fake.calls_to("views.publish"))
    assert choose_in_home(server, "de-DE", "1").status == 200
    assert menu(published_view(fake, before))["initial_option"]["value"] == "de-DE"
    assert send_command(server, "64 2.000 90 %", user="UMENU").json()["text"].startswith(
        "64 devices × 2.000 samples/s at 90\u00a0% efficiency: 115.200 samples/s actual")
    # another user's numbers are untouched
    assert "Write `2` or `2000` instead" in send_command(server, "64 2.000 90 %", user="UEN").json()["text"]


@pytest.mark.parametrize(
    ("user", "word", "shown"),
    [
        ("UTR", "format=tr-TR", "1.234.567,89 · Turkish (Türkiye)"),  # a format the menu does not offer
        ("ULA", "format=es-419", "1\u202f234\u202f567.89 · Spanish (Latin America)"),  # offered as es-LA
    ],
)
def test_app_homes_menu_shows_the_format_a_command_chose(server, fake, user, word, shown):
    """Before, the menu showed "Same as my Slack language" while commands used the chosen format."""
    assert send_command(server, word, user=user).json()["text"].startswith("Done: your numbers are now read")
    before = len(fake.calls_to("views.publish"))
    send_event(server, {"type": "app_home_opened", "user": user, "channel": "D1", "tab": "home"}, "EvMenu" + user)
    select = menu(published_view(fake, before))
    assert select["initial_option"]["text"]["text"] == shown
    assert select["initial_option"] in select["options"]  # Slack refuses an initial option that is not offered
    assert len([o for o in select["options"] if o == select["initial_option"]]) == 1


@pytest.mark.parametrize(
    ("user", "text", "answered"),
    [
        ("UFMT", "format=de-DE 64 2.000 90 %", "115.200 samples/s actual"),  # a result, read in the new format
        # an ask: the choice is said all the same
        ("UFMT2", "format=de-DE lang=en 64 2,000 90%", "is ambiguous"),
    ],
)
def test_a_format_word_beside_numbers_is_confirmed_above_the_answer(server, user, text, answered):
    """Before, the choice was saved with no word about it: only the answer came back."""
    payload = send_command(server, text, user=user).json()
    assert answered in payload["text"]
    first = json.dumps(payload["blocks"][0], ensure_ascii=False)
    assert "Done: your numbers are now read and written in the German (Germany) format, as in `1.234.567,89`." in first


def test_a_no_break_space_beside_a_format_word_still_only_groups_digits(server):
    """`1 234,5` with a narrow no-break space is one number, as without `format=`: here a number is missing. The word
    was taken out by splitting the text at every space, no-break ones too, and `1` device at 234,5 was computed."""
    text = "format=fr-FR 1\u202f234,5 90\u00a0%"
    payload = send_command(server, text, user="UFR").json()
    assert "211,05" not in payload["text"] and "234,5 échantillons/s" not in payload["text"]
    assert send_command(server, text.removeprefix("format=fr-FR "), user="UFR").json()["text"] == payload["text"]


@pytest.mark.parametrize(
    ("user", "text", "answered"),
    [
        ("UMEN", "format=de-DE 64 2.000 90 %", "115\u202f200 samples/s actual"),  # the channel's copy: no misreading
        ("UMEN2", "format=de-DE", None),  # the choice alone: said, and nothing else
    ],
)
def test_a_mention_saves_a_format_word_as_a_command_does(server, fake, user, text, answered):
    """Before, a mention answered "I don't know `format=de-DE`"."""
    before = len(fake.calls_to("chat.postMessage"))
    response = send_mention(server, f"<@{BOT_USER_ID}> {text}", user, "EvFmt" + user, "1700000001.00" + user[-1])
    assert response.status == 200
    posted = fake.wait_for("chat.postMessage", before + 1)[before].params
    blocks = json.dumps(posted["blocks"], ensure_ascii=False)
    assert "Done: your numbers are now read and written in the German (Germany) format, as in `1.234.567,89`." in blocks
    if answered is not None:
        assert answered in posted["text"]
    # saved: the user's next command reads 2.000 as two thousand
    assert "115.200 samples/s actual" in send_command(server, "64 2.000 90 %", user=user).json()["text"]


def test_an_edited_mention_does_not_save_its_format_word_again(server, fake):
    """A choice made since (here by a command) stands: before, every edit of the mention saved its word again."""
    ts = "1700000002.000300"
    before = len(fake.calls_to("chat.postMessage"))
    send_mention(server, f"<@{BOT_USER_ID}> format=de-DE 64 2.000 90 %", "UMEN3", "EvFmtEdit1", ts)
    fake.wait_for("chat.postMessage", before + 1)
    assert send_command(server, "format=fr-FR", user="UMEN3").json()["text"].startswith("Done")
    body = json.loads(mention_body(f"<@{BOT_USER_ID}> format=de-DE 64 2.000 80 %", "UMEN3", "EvFmtEdit2", ts))
    body["event"]["edited"] = {"user": "UMEN3", "ts": "1700000003.000000"}
    updates = len(fake.calls_to("chat.update"))
    assert post(server.url + "/slack/events", json.dumps(body), signed_headers(json.dumps(body),
                                                                              "application/json")).status == 200
    fake.wait_for("chat.update", updates + 1)  # the answer, updated for the new efficiency
    # still French: `2.000` is not how French writes two thousand, so it is asked about
    assert "is ambiguous" in send_command(server, "64 2.000 90 %", user="UMEN3").json()["text"]


def test_the_format_word_answers_in_the_slack_language(server):
    saved = send_command(server, "format=fr-FR", user="UDE").json()["text"]
    assert saved.startswith("Erledigt: Deine Zahlen werden jetzt im Format „Französisch (Frankreich)“ gelesen und "
                            "geschrieben, etwa `1\u202f234\u202f567,89`.")
    unknown = send_command(server, "format=klingon", user="UDE").json()["text"]
    assert unknown.startswith("Das Zahlenformat `klingon` kenne ich nicht")
    assert send_command(server, "format=slack", user="UDE").json()["text"].startswith("Erledigt")


def test_the_menu_and_its_listener_share_one_action_id():
    from bot.slack.ids import NUMBER_FORMAT_ACTION

    assert SELECT_ACTION == NUMBER_FORMAT_ACTION


def test_a_chosen_regions_format_is_named_as_chosen_when_its_countries_disagree():
    locale = Recipient.parse("en-US").choosing(resolve_locale("es-LA"))
    assert "The Spanish (Latin America) number format you chose is used in countries that read this number " \
        "differently." in answer("64 2.000 90%", locale).text


def test_an_english_reply_names_the_chosen_format_in_english():
    """A Turkish user (no catalog: English replies) who chose US numbers: the note names the format in English."""
    locale = Recipient.parse("tr-TR").choosing(resolve_locale("en-US"))
    text = str(answer("64 2,000 90%", locale).blocks)
    assert "numbers are still read and written in the English (United States) format" in text


def test_every_sentence_about_the_users_format_names_the_chosen_one():
    """Help, the form and an ask, for an English user who chose Swiss German numbers: each names that format
    (and writes its numbers), never English (United States)."""
    from bot.replies import build_help_reply
    from bot.slack.state import FormMetadata
    from bot.slack.views import form_view

    locale = Recipient.parse("en-US").choosing(resolve_locale("de-CH"))
    help_text = str(build_help_reply(locale).blocks)
    assert "Numbers are read in the German (Switzerland) format you chose: two thousand is `2'000`" in help_text
    form = json.dumps(form_view(locale, FormMetadata.of(locale, None)), ensure_ascii=False)
    assert "Numbers are read in your German (Switzerland) format" in form
    ask = answer("64 2,000 90%", locale)
    assert ask.kind == "error" and "your number format, German (Switzerland)," in ask.text
    assert "United States" not in help_text + form + ask.text


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_home_tab_slack_will_not_publish_is_one_log_line_and_the_choice_is_still_saved(server, fake):
    """`views.publish` failing (Slack's 500) when Home opens and after a choice: one line each naming the failure,
    no traceback, and the choice still reads the user's next command."""
    fake.behaviour["views.publish"] = "error"
    try:
        logged = server.log_so_far().count("views.publish failed: HTTP 500 internal_error")
        send_event(server, {"type": "app_home_opened", "user": "UMENU", "channel": "D1", "tab": "home"}, "EvMenuX")
        assert choose_in_home(server, "fr-FR", "2").status == 200
        assert server.wait_for_log("views.publish failed: HTTP 500 internal_error", logged + 2) == logged + 2
        assert server.wait_for_log("kind=number_format locale=en_US@numbers=fr_FR outcome=publish_failed") >= 1
    finally:
        fake.behaviour["views.publish"] = "ok"
    assert "Traceback" not in server.log_so_far()
    assert "2\u202f000 samples/s" in send_command(server, "64 2 000 90 %", user="UMENU").json()["text"]
    send_command(server, "format=slack", user="UMENU")


@pytest.mark.parametrize(("tag", "listed"), [
    ("en-US", "`format=de-DE`, `format=en-US`, or `format=fr-FR`. To follow your Slack language, use `format=slack`"),
    ("en-GB", "`format=de-DE`, `format=en-US` or `format=fr-FR`; to follow your Slack language, write `format=slack`"),
    ("de-DE", "`format=de-DE`, `format=en-US` oder `format=fr-FR` – oder schreibe `format=slack`, um"),
    ("fr-FR", "`format=de-DE`, `format=en-US` ou `format=fr-FR`, ou écrivez `format=slack` pour"),
    ("es-ES", "`format=de-DE`, `format=en-US` o `format=fr-FR`, o escribe `format=slack` para"),
    ("ja-JP", "`format=de-DE` 、 `format=en-US` 、または `format=fr-FR` のような"),  # spans kept off 、
    ("zh-TW", "`format=de-DE` 、 `format=en-US` 或 `format=fr-FR` 這類"),
])
def test_an_unknown_formats_examples_are_alternatives_and_format_slack_its_own_clause(tag, listed):
    """The three codes are listed as the reply's language lists alternatives ("… or …"), and `format=slack`
    follows in a clause of its own, not as a fourth code after a comma."""
    text = build_unknown_format_reply("klingon", Recipient.parse(tag)).text
    assert listed in text, text


# CLDR 47 (Babel 2.19)'s minimumGroupingDigits of 2, among the locales dpscale offers: each writes 2000, not 2.000
MIN_GROUPING_TWO = {"es_ES", "it_IT", "pl_PL", "es_419"}  # es-LA: the region-wide style, as a channel's


@pytest.mark.parametrize("name", sorted(set(offered_locales())))
def test_four_digit_numbers_follow_cldrs_minimum_grouping_digits_and_read_back(name):
    """Spanish writes `2000 muestras/s` (RAE) and `20.000`: a four-digit number is grouped only where CLDR's
    minimum grouping digits allow it; every number dpscale writes reads back as itself, with no note."""
    locale = resolve_locale(name.replace("_", "-"))
    group = number_style(locale).group
    assert (group not in write_number(Decimal(2000), number_style(locale))) == (name in MIN_GROUPING_TWO)
    assert group in write_number(Decimal(20000), number_style(locale))
    for value in (Decimal(2000), Decimal("9999.5"), Decimal(20000), Decimal("1234567.25")):
        written = write_number(value, number_style(locale))
        command = parse_command(f"64 {written} 90%", locale)
        assert command.values[Quantity.THROUGHPUT] == value and not command.notes, (written, command.notes)


def test_a_spanish_user_may_still_group_four_digits():
    """`2.000` is CLDR's pattern too (only not its preference): a Spanish user who types it is read, not asked."""
    command = parse_command("64 2.000 90 %", Recipient.parse("es-ES"))
    assert command.values[Quantity.THROUGHPUT] == Decimal(2000)


@pytest.mark.parametrize(("language", "word"), [(language, word) for language, words in LANGUAGES.items()
                                                for word in words.number_format])
def test_every_languages_word_for_the_number_format_chooses_one(language, word):
    """`formato=es-ES` (every other key is Spanish) was "No reconozco formato=es-ES"; `형식=`, `格式=` likewise."""
    assert take_format_choice(f"64 2000 90% {word}=de-DE") == (FormatChoice("de-DE"), "64 2000 90%")
    assert take_format_choice(f"{word.upper()}＝slack") == (FormatChoice(None), "")


@pytest.mark.parametrize("tag", SLACK_LOCALES)
@pytest.mark.parametrize("audience", ["channel", "unknown"])
def test_a_shared_reply_leaves_four_digits_ungrouped_and_groups_five(tag, audience):
    """A channel's copy and the unknown reader's reply wrote `2 000`, which Spanish rules forbid and everyone reads as
    odd: `2000` reads alike in every format, and `115 200` stays grouped so that no format misreads it."""
    recipient = Recipient.parse(f"{tag}@{audience}")
    assert write_number(Decimal(2000), recipient.style) == "2000"
    assert write_number(Decimal(115200), recipient.style) == "115\u202f200"
    text = render_plain_text(answer("64 2000 90%", recipient))
    assert "2000" in text and "2\u202f000" not in text and "115\u202f200" in text, text
