"""What the user reads: the reply's numbers in their locale, notes on doubtful readings, errors, help, limits."""

import json
import re

import pytest

from blockkit import assert_no_broadcast, assert_within_limits
from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.reader.numbers import SLACK_LOCALES
from bot.reader.parsing import parse_command
from bot.reader.reading import read_number
from bot.reader.recipient import Recipient
from bot.replies import render_plain_text
from bot.replies.problems import describe_error


def reply_text(text: str, locale: str) -> str:
    return render_plain_text(answer(text, Recipient.parse(locale)))


@pytest.mark.parametrize(
    ("locale", "text", "shown"),
    [
        ("de-DE", "64 2.000 90 %", ["115.200 Samples/s", "128.000 Samples/s", "57,6×", "12.800 Samples/s",
                                     "A = I · E = 128.000 × 0,9 = 115.200", "Was ist die Skalierungseffizienz?"]),
        ("en-US", "64 2000 90%", ["115,200 samples/s", "128,000 samples/s", "57.6×", "12,800 samples/s",
                                  "I = d · v = 64 × 2,000 = 128,000", "Why is scaling not linear?"]),
        ("fr-FR", "64 2 000 90 %", ["115\u202f200 échantillons/s", "57,6×", "90\u00a0%"]),
        ("en-US", "64 2000 actual=115200", ["Measured scaling efficiency: 90%", "E = A / I = 115,200 / 128,000 = 0.9",
                                            "holds for 64 devices"]),
        ("en-US", "v=2000 e=90% actual=115201", ["Devices needed: 65", "⌈115,201 / (2,000 × 0.9)⌉ = 65",
                                                 "which deliver 117,000 samples/s"]),
        ("en-US", "devices=64 e=0.9 actual=115200", ["Per-device throughput needed: 2,000 samples/s"]),
        # one device: the figures use the efficiency given, and the note says so rather than contradict them
        ("en-US", "1 2000 90%", ["Actual throughput (calculated): 1,800 samples/s",
                                 "These figures use the 90% you gave", "scaling efficiency is 100% by definition"]),
        ("en-US", "8 0.004 50%", ["0.004 samples/s", "0.016 samples/s", "4×"]),
        ("de-DE", "2 0,5 100 %", ["0,5 Samples/s", "1 Sample/s"]),  # the unit in the plural CLDR gives the count
        ("fr-FR", "2 2 000 100 %", ["Débit perdu\u202f: 0 échantillon/s", "4\u202f000 échantillons/s"]),
        ("en-US", "2 0.5 100%", ["Ideal throughput: 1 sample/s", "Per-device throughput: 0.5 samples/s"]),
    ],
)
def test_results_are_written_in_the_readers_locale(locale, text, shown):
    output = reply_text(text, locale)
    for fragment in shown:
        assert fragment in output


@pytest.mark.parametrize(
    ("locale", "text", "note"),
    [
        ("de-DE", "64 2000 0.9", "0.9 ist nicht in deinem Zahlenformat geschrieben; ich habe es als 90\u00a0% gelesen"),
        ("en-US", "64 2000 1", "I read 1 as a fraction: 100%. If you meant 1%, write 1%."),
        ("de-DE", "64 2000 1",
         "1 als Anteil gelesen, also 100\u00a0%. Falls du 1\u00a0% gemeint hast, schreibe 1\u00a0%."),
        ("fr-FR", "64 2 000 0.9", "0.9 n’est pas écrit dans votre format de nombres"),
        ("en-US", "64 0,5k 90%", "0,5k is not written in your number format; I read it as 500."),
        ("en-US", "64 2000 90", "I read 90 as a percentage: 90%."),
        # the fraction it suggests is the user's own value, not a fixed 0.9
        ("en-US", "64 2000 95", "I read 95 as a percentage: 95%. To be explicit, write a fraction such as 0.95"),
        ("de-DE", "64 2000 12,5", "Eindeutig wird es als Anteil (0,125) oder mit Prozentzeichen (12,5\u00a0%)."),
        # the value read, every decimal of it: not cut to 0 at six decimals
        ("de-DE", "64 0.0000001 90 %",
         "0.0000001 ist nicht in deinem Zahlenformat geschrieben; ich habe es als 0,0000001 gelesen."),
        ("en-US", "64 0,0000012 90%", "0,0000012 is not written in your number format; I read it as 0.0000012."),
    ],
)
def test_every_doubtful_reading_is_explained_in_the_reply(locale, text, note):
    assert note in reply_text(text, locale)


@pytest.mark.parametrize(
    ("locale", "text"),
    [("en-US", "64 2000 90%"), ("de-DE", "64 2.000 90 %"), ("en-US", "64 2,000 90%"), ("de-DE", "64 115.200 0,9"),
     ("en-IN", "64 1,00,000 90%"), ("tr-TR", "64 2.000 %90"), ("es-LA", "64 2\u202f000 90%"),
     ("en-US", "64 2 000 90%")],  # spaces group digits in every locale: `90%` is not blamed
)
def test_a_number_written_as_dpscale_writes_it_carries_no_reading_note(locale, text):
    output = reply_text(text, locale)
    assert ":mag:" not in output and "🔍" not in output
    assert not answer(text, Recipient.parse(locale)).is_error


@pytest.mark.parametrize(
    ("locale", "text", "question"),
    [
        ("en-US", "64 2.000 90%", "2.000 is ambiguous. Write 2 or 2000 instead: either one reads "
                                  "the same in every number format. Other Slack languages read it differently, so I'd "
                                  "rather ask than show a result that could be off by a factor of a thousand."),
        ("de-DE", "64 2,000 90 %", "2,000 lässt sich unterschiedlich lesen. Schreibe stattdessen 2 oder 2000; beide "
                                   "sind in jedem Zahlenformat eindeutig."),
        ("fr-FR", "64 2.000 90 %", "n’est pas écrit dans votre format de nombres, «\u202ffrançais (France)\u202f»"),
        ("es-LA", "64 2.000 90%", "se usa en países que leen este número de forma distinta"),
        ("en-US", "64 2,000 90% lang=de", "Dein eigenes Zahlenformat und das Format „Deutsch“ der gewählten "
                                           "Sprache lesen diese Zahl unterschiedlich."),
        ("en-US@unknown", "64 2.000 90%", "Slack hasn't told me your number format yet"),
        ("en-US", "64 1.500 90%", "Write 1.5 or 1500 instead:"),
        ("en-US", "64 2000 1.500%", None),  # 1500 % is impossible: not offered, 1.5 % is read
    ],
)
def test_a_number_two_formats_read_differently_is_asked_about_with_both_readings_and_why(locale, text, question):
    reply = answer(text, Recipient.parse(locale))
    assert reply.is_error is (question is not None)
    assert question is None or question in render_plain_text(reply)


CATALOG_LOCALES = ["en-US", "en-GB", "de-DE", "es-ES", "es-LA", "fr-FR", "it-IT", "ja-JP", "ko-KR", "pt-BR", "zh-CN",
                   "zh-TW"]  # one Slack locale per shipped catalog


@pytest.mark.parametrize("locale", CATALOG_LOCALES)
def test_an_ambiguous_numbers_readings_are_offered_as_every_format_reads_them_and_the_added_zero_is_explained(locale):
    """`1.234` (or `1,234`) is 1.234 or 1234. Each reading is offered written so that every Slack number format
    reads it as that value, the decimal one with a fourth decimal (`1.2340`), since three decimals could be a group
    of thousands; and the reply says what the added zero is for, naming `1.2340` beside `1234` again, instead of
    leaving a zero that looks like a slip."""
    recipient = Recipient.parse(locale)
    asked = []
    for text in ("64 1.234 90%", "64 1,234 90%"):
        try:
            parse_command(text, recipient)
        except UserInputError as error:
            if error.code is ErrorCode.AMBIGUOUS_NUMBER:
                asked.append(error)
    assert asked, locale
    for error in asked:
        message = describe_error(error, recipient)
        offered = [span for span in re.findall(r"`([^`]+)`", message) if span != error.token]
        assert len(set(offered)) == 2, message
        for written in set(offered):
            for other in SLACK_LOCALES:
                assert read_number(written, Recipient.parse(other)).value in error.readings, (written, other)
        padded = [written for written in set(offered) if re.search(r"[.,]\d*0$", written)]
        assert len(padded) == 1 and offered.count(padded[0]) == 2, message
        assert all(offered.count(written) == 2 for written in offered), message


@pytest.mark.parametrize(
    ("locale", "text", "message"),
    [
        ("en-US", "64 2000 150%", "The scaling efficiency must be between 0.01% and 100%. You wrote 150%."),
        ("de-DE", "64 2000 150 %",
         "Die Skalierungseffizienz muss zwischen 0,01\u00a0% und 100\u00a0% liegen. Du hast 150 % angegeben."),
        ("de-DE", "64,5 2000 90%", "Die Gerätezahl muss eine ganze Zahl sein, etwa 64. Du hast 64,5 angegeben."),
        ("en-US", "0 2000 90%", "The number of devices must be between 1 and 1,000,000. You wrote 0."),
        ("en-US", "64 -5 90%",
         "The per-device throughput must be more than 0 and at most 1,000,000,000,000. You wrote -5."),
        ("en-US", "64 2000 apples", "I don't recognize apples."),
        ("de-DE", "64 2000 Äpfel", "Äpfel kenne ich nicht."),
        ("en-US", "64 2000", "Give any three of the four values (devices, per-device throughput, efficiency, actual"),
        ("en-US", "64 2000 actual=200000", "cannot exceed the ideal throughput (128,000 samples/s)"),
        ("de-CH", "64 2,000 90%", "2,000 lässt sich unterschiedlich lesen. Schreibe stattdessen 2 oder 2000;"),
        ("en-US", "64 10³ 90%", "10³ has characters that only look like digits"),
        ("de-DE", "64 2000 actual=200000", "Die Effizienz läge über 100\u00a0%."),
        ("en-US", "64 2000 90% lang=xx", "xx is not a language I recognize; use a language code, such as de or de-DE."),
        ("en-US", "x" * 600, "at most 500 characters"),
        # the user's own reading breaks a rule: the rule says so, and no other reading is offered in its place
        ("en-US", "1.024 2000 90%", "The number of devices must be a whole number, such as 64. You wrote 1.024."),
        ("en-US", "64 2000 12,500", "The scaling efficiency must be between 0.01% and 100%. You wrote 12,500."),
        ("de-DE", "1.500.000 2000 90 %",
         "Die Gerätezahl muss zwischen 1 und 1.000.000 liegen. Du hast 1.500.000 angegeben."),
        # a missing value's example is a value of that quantity, as the reader writes it
        ("de-DE", "64 2000 e=", "Nach e= fehlt der Wert; schreibe etwa e=90\u00a0%."),
        ("en-US", "64 2000 actual=", "add one, for example actual=115,200"),
        ("fr-FR", "2000 90 % d=", "d=64"),
        ("en-US", "64 90% v=", "v=2,000"),
        ("de-DE", "64 2000 90 % sprache=", "Nach sprache= fehlt der Wert; schreibe etwa sprache=de-DE."),
        ("en-US", "64 2000 90% lang=de lang=fr", "The language is given twice (lang=fr)."),
        ("de-DE", "64 2000 90 % sprache=de sprache=fr", "Die Sprache ist doppelt angegeben (sprache=fr)."),
        # a key with a percent sign alone: its number is missing
        ("en-US", "efficiency=% 64 2000", "efficiency=% has no value after it; add one, for example efficiency=90%."),
        # fewer numbers than three, one a percentage: the missing one is the problem, not where the `%` stands
        ("en-US", "64 90%", "Give any three of the four values (devices, per-device throughput, efficiency, actual"),
        ("ja-JP", "2000 90%", "効率・実効スループットのうち、任意の3つを指定してください"),
        ("en-US", "64 2000 %", "Give any three of the four values (devices, per-device throughput, efficiency, actual"),
    ],
)
def test_errors_name_the_problem_in_the_users_language_with_the_usage_line(locale, text, message):
    reply = answer(text, Recipient.parse(locale))
    output = render_plain_text(reply)
    assert reply.is_error
    assert message in output
    assert "/dpscale" in output  # the usage line with an example


def test_the_usage_example_is_written_in_the_users_number_format():
    assert "/dpscale 64 2.000 90\u00a0%" in reply_text("x", "de-DE")
    assert "/dpscale 64 2,000 90%" in reply_text("x", "en-US")


def test_help_shows_examples_in_the_readers_number_format():
    german = reply_text("hilfe", "de-DE")
    assert "/dpscale 64 2.000 ist=115.200" in german
    assert "geräte= durchsatz= effizienz= ist=" in german
    assert "/dpscale 64 2000 90\u00a0% sprache=en" in german  # another language than the reader's, read alike by both
    assert "Zweitausend schreibt man 2.000, neun Zehntel 0,9" in german
    assert "sprache=" in german


def test_a_locale_with_no_catalog_gets_english_words_and_its_own_numbers():
    output = reply_text("64 2 000 90 %", "ru-RU")
    assert "Actual throughput" in output and "115\u00a0200" in output


@pytest.mark.parametrize(
    "text",
    ["<!channel> 64", "&lt;!here&gt;", "64 <@U123ABC|bob> 2000", "<#C123|general> 1", "<https://evil.example|x>",
     "64 2000 <!subteam^S123>"],
)
def test_user_markup_is_echoed_inert(text):
    reply = answer(text, Recipient.parse("en-US"))
    assert_no_broadcast({"text": reply.text, "blocks": reply.blocks})


@pytest.mark.parametrize(
    ("locale", "text"),
    [("en-US", "64 2000 90%"), ("de-DE", "64 2000 0.9"), ("en-US", "help"), ("de-DE", "oops"),
     ("en-US", "v=1000000000000 e=0.0001 actual=1"), ("en-US", "1000000 1000000000000 100%")],
)
def test_replies_stay_inside_block_kit_limits(locale, text):
    reply = answer(text, Recipient.parse(locale))
    assert_within_limits(reply.blocks)
    assert reply.text and len(reply.text) < 3000
    json.dumps(reply.blocks)


def test_the_german_wording_follows_slack_the_source_document_and_german_typography():
    help_text = reply_text("hilfe", "de-DE")
    result = reply_text("64 2.000 90 %", "de-DE")
    for heading in ("Was ist die Skalierungseffizienz?", "Warum ist die Skalierung nicht linear?",
                    "Wie lässt sich die Skalierungseffizienz verbessern?"):
        assert heading in result
    assert "drei der vier Werte" in help_text and "beliebige" not in help_text
    assert "um eindeutig zu sein" not in reply_text("64 2000 90", "de-DE")
    assert "Kanal" not in help_text + result
    assert "100 %" not in reply_text("1 2000 90 %", "de-DE") and "100\u00a0%" in reply_text("1 2000 90 %", "de-DE")
    whole = "Die Gerätezahl muss eine ganze Zahl sein, etwa 64. Du hast 64,5 angegeben."
    assert whole in reply_text("64,5 2000 90 %", "de-DE")


@pytest.mark.parametrize(
    ("locale", "text", "advice"),
    [
        # a format that groups digits with a space, as its help writes two thousand (`2 000`): both ways it may write
        ("fr-FR", "1 200 300 90 %", "Groupez les chiffres par trois, comme 2\u202f000, ou écrivez chaque nombre sans "
                                    "espace, comme 2000 ou 0,9."),
        ("fr-FR", "64 20 00 90 %", "Groupez les chiffres par trois, comme 2\u202f000,"),
        # one that groups them with a mark, or, as the unknown reader's help, leaves 2000 ungrouped: no spaces inside
        ("en-US@unknown", "64 20 00 90%", "Write numbers without spaces, like 2000 or 0.9"),
        ("en-US", "1 200 300 90%", "Write numbers without spaces, like 2000 or 0.9."),
        ("de-DE", "1 200 300 90 %", "Schreibe Zahlen ohne Leerzeichen darin, etwa 2000 oder 0,9."),
    ],
)
def test_the_grouping_advice_writes_numbers_as_the_readers_format_does(locale, text, advice):
    """"Write each number without spaces" contradicted the help of a format that writes two thousand `2 000`; such a
    reader is told to group digits in threes or to leave the spaces out."""
    assert advice in reply_text(text, locale)


@pytest.mark.parametrize(
    ("locale", "text", "shown"),
    [
        # the efficiency the formula multiplies is the one shown: 12.345 %, not 12.34 % times 0.1234
        ("en-US", "64 2000 12.345%", ["12.3450%", "A = I · E = 128,000 × 0.12345 = 15,801.6",
                                      "S = d · E = 64 × 0.12345"]),
        ("de-DE", "64 2.000,125 90 %", ["I = d · v = 64 × 2.000,1250 = 128.008", "2.000,1250 Samples/s"]),
        # very small values keep two significant digits, never 0
        ("en-US", "64 0.000000004 90%", ["64 × 0.000000004 = 0.00000026", "0.00000023 samples/s"]),
        ("en-US", "64 2000 99.9999999%", ["0.0000001% of ideal", "99.9999999%"]),
    ],
)
def test_the_worked_formula_multiplies_the_numbers_it_shows_and_nothing_small_is_shown_as_zero(
    locale, text, shown
):
    output = reply_text(text, locale)
    for fragment in shown:
        assert fragment in output
    assert " 0 samples/s" not in output and "(0% of ideal)" not in output


@pytest.mark.parametrize(
    ("locale", "text", "shown"),
    [
        ("en-US", "64 2000 actual=12.79",
         "The scaling efficiency must be between 0.01% and 100%. With an actual throughput of 12.79, it would come "
         "out to 0.00999%."),
        ("de-DE", "64 2.000 actual=12,79",
         "Die Skalierungseffizienz muss zwischen 0,01\u00a0% und 100\u00a0% liegen. "
         "Mit einem tatsächlichen Durchsatz von 12,79 ergäbe sich 0,00999\u00a0%."),
        ("en-US", "v=1 e=50% actual=3000000",
         "The number of devices must be between 1 and 1,000,000. With an actual throughput of 3000000, you would need "
         "6,000,000 devices."),
        ("fr-FR", "v=1 e=50% actual=3000000", "il faudrait 6\u202f000\u202f000 d’accélérateurs."),  # CLDR's *many*
        ("ja-JP", "v=1 e=50% actual=3000000", "6,000,000台のデバイスが必要になります。"),
    ],
)
def test_a_solved_value_that_breaks_a_rule_is_shown_with_the_input_it_came_from(locale, text, shown):
    assert shown in reply_text(text, locale)


def test_in_the_form_a_solved_value_that_breaks_a_rule_is_shown_under_the_input_it_came_from():
    from bot.engine import answer_form
    from bot.model.calculator import Quantity
    from bot.reader.parsing import FieldErrors

    fields = {Quantity.DEVICES: "64", Quantity.THROUGHPUT: "2000", Quantity.EFFICIENCY: None,
              Quantity.ACTUAL: "12.79"}
    with pytest.raises(FieldErrors) as raised:
        answer_form(fields, Recipient.parse("en-US"))
    assert set(raised.value.errors) == {Quantity.ACTUAL}


@pytest.mark.parametrize(
    ("locale", "throughput", "expected"),
    [
        ("en-US", "2 k", "115,200 samples/s actual"),  # a suffix after a space, in a field of its own
        ("fr-FR", "1 500 k", "86\u202f400\u202f000 échantillons/s"),
        ("en-US", "2000 samples/s", "`2000 samples/s` is not a number I can read. Write numbers like `2,000`"),
        ("ja-JP", "2000サンプル/秒", "`2000サンプル/秒` は数値として読み取れません"),
        ("en-US", "2T", "`2T` has a suffix I don't recognize; use k (thousand), M (million), or G (billion)."),
    ],
)
def test_a_form_field_reads_a_spaced_suffix_and_says_a_unit_is_no_number(locale, throughput, expected):
    """`2 k` is 2000, as `2k` is; a unit typed after the number is not called an unknown suffix."""
    from bot.engine import answer_form
    from bot.model.calculator import Quantity
    from bot.reader.parsing import FieldErrors
    from bot.replies import describe_error

    fields = {Quantity.DEVICES: "64", Quantity.THROUGHPUT: throughput, Quantity.EFFICIENCY: "90 %",
              Quantity.ACTUAL: None}
    try:
        shown = answer_form(fields, Recipient.parse(locale)).text
    except FieldErrors as raised:
        assert set(raised.errors) == {Quantity.THROUGHPUT}
        shown = describe_error(raised.errors[Quantity.THROUGHPUT], Recipient.parse(locale))
    assert expected in shown


@pytest.mark.parametrize(("efficiency", "filled"), [("1%", 1), ("0.01%", 1), ("2%", 1), ("50%", 10), ("100%", 20)])
def test_the_bar_shows_at_least_one_block_for_any_working_cluster(efficiency, filled):
    output = reply_text(f"64 2000 {efficiency}", "en-US")
    bar = next(line for line in output.splitlines() if "░" in line or "█" * 20 in line)
    assert bar.count("█") == filled and bar.count("░") == 20 - filled


def test_the_form_asks_under_the_field_when_the_readers_format_is_unknown():
    from bot.engine import answer_form
    from bot.model.calculator import Quantity
    from bot.reader.parsing import FieldErrors

    unknown = Recipient.parse("en-US@unknown")
    fields = {Quantity.DEVICES: "64", Quantity.THROUGHPUT: "2.000", Quantity.EFFICIENCY: "90 %", Quantity.ACTUAL: None}
    with pytest.raises(FieldErrors) as raised:
        answer_form(fields, unknown)
    error = raised.value.errors[Quantity.THROUGHPUT]
    assert error.readings == (2, 2000) and error.reason == "unknown_format"
    fields[Quantity.THROUGHPUT] = "2 000"
    assert "115\u202f200 samples/s" in answer_form(fields, unknown).text


@pytest.mark.parametrize("locale", ["en-US", "de-DE", "fr-FR", "ja-JP", "zh-TW", "en_US@unknown"])
@pytest.mark.parametrize("text", ["64 2000 90%", "64 2.000 90 %", "help", "64 zwei 90", "v=2000 e=90% actual=1M", ""])
def test_a_reply_written_as_json_text_is_the_same_message_as_its_payload(locale, text):
    reply = answer(text, Recipient.parse(locale))
    written = reply.json(response_type="ephemeral")
    assert json.loads(written) == reply.payload(response_type="ephemeral")


def test_a_reply_orjson_refuses_is_written_as_json_all_the_same():
    from bot.replies.blocks import Reply, section

    reply = Reply(text="lone \ud800 surrogate", blocks=[section("lone \ud800 surrogate")])
    assert json.loads(reply.json()) == reply.payload()


@pytest.mark.parametrize(
    ("locale", "text", "shown"),
    [
        ("tr-TR", "d=64 92,5 % 80", "In 92,5 % 80, I can't tell where one number ends and the next begins. "
                                    "Write numbers without spaces, like 2000 or %90."),
        ("de-DE", "geräte=64 92,5 % 80 lang=tr", "Schreibe Zahlen ohne Leerzeichen darin, etwa 2000 oder 90%."),
    ],
)
def test_asked_which_number_a_percent_sign_belongs_to_the_example_is_a_percentage_without_a_space(
    locale, text, shown
):
    assert shown in reply_text(text, locale)


@pytest.mark.parametrize(
    ("locale", "text", "expected"),
    [
        ("en-US", "1 200 300 90%", "like `2000` or `0.9`."),  # spaces that may group or separate: unspaced examples
        ("de-DE", "1 200 300 90 %", "etwa `2000` oder `0,9`."),
        ("ja-JP", "1 200 300 90%", "`2000` または `0.9`"),
        ("zh-CN", "1 200 300 90%", "`2000` 或 `0.9`"),
        ("zh-TW", "1 200 300 90%", "`2000` 或 `0.9`"),
    ],
)
def test_a_list_of_examples_is_separated_as_the_replys_language_separates_a_list(locale, text, expected):
    """CLDR's list pattern: Japanese and Chinese list with `、`, not an ASCII comma."""
    reply = answer(text, Recipient.parse(locale))
    assert reply.is_error
    assert expected in reply.text, reply.text


@pytest.mark.parametrize(
    ("locale", "text", "shown"),
    [
        ("en-US", "64 2000,000 90%", ["2000,000 is ambiguous. Write 2000 or 2000000",
                                            "a misplaced thousands separator"]),
        ("de-DE", "64 2000.000 90 %", ["2000.000", "2000", "2000000", "Faktor 1000"]),
        ("en-US", "64 2000 1.5", ["1.5 is more than 1", "below 10%", "write 1.5%", "like 0.9"]),
        ("fr-FR", "64 2000 1,5", ["1,5 est supérieur à 1", "1,5\u00a0%", "0,9"]),
        ("en-US", "64 2000 90% <@U123ABC>", ["<@U123ABC> is a mention", "devices="]),
        ("ja-JP", "64 2000 90% @anna", ["@anna はメンションです"]),
        ("en-US", "64 20 00 90%", ["In 20 00, I can't tell where one number ends"]),
        ("en-US", "64 012 90%", ["In 64 012, I can't tell"]),
    ],
)
def test_errors_name_the_token_that_is_wrong_and_how_to_write_it(locale, text, shown):
    output = reply_text(text, locale)
    for fragment in shown:
        assert fragment in output, output


@pytest.mark.parametrize(
    ("locale", "text", "shown"),
    [
        ("en-US", "64 GPUs at 2000 img/s with 90% efficiency", ["Actual throughput: 115,200 img/s", "2,000 img/s"]),
        ("de-DE", "64 Geräte 2.000 tokens/s 90 %", ["115.200 tokens/s", "128.000 tokens/s"]),
        ("fr-FR", "64 GPU à 2 000 images/s avec 90 % d’efficacité", ["115\u202f200 images/s"]),
        ("ja-JP", "64台 2000 90%", ["115,200サンプル/秒"]),  # no unit word: the catalog's own
    ],
)
def test_the_reply_keeps_the_users_unit_word(locale, text, shown):
    output = reply_text(text, locale)
    for fragment in shown:
        assert fragment in output, output


@pytest.mark.parametrize(("tag", "text", "shown"), [
    ("de-DE", "64 2.000 150 %", "`150 %`"),  # German, French and Spanish write a space before the sign
    ("fr-FR", "64 2000 150\u00a0%", "`150\u00a0%`"),
    ("es-ES", "64 2.000 150 %", "`150 %`"),
    ("en-US", "64 2,000 150%", "`150%`"),  # typed without one: shown without one
])
def test_an_error_shows_a_percentage_as_the_user_typed_it(tag, text, shown):
    """The reader joins a `%` standing alone to its number; the error names it with the space the user typed."""
    reply = answer(text, Recipient.parse(tag)).text
    assert shown in reply, reply
