"""Reading what users type, in their own locale: every accepted form and every error, table by table."""

from decimal import Decimal as D

import pytest

from bot.calculator import Quantity
from bot.errors import ErrorCode, UserInputError
from bot.numbers import ReadingKind, read_number, resolve_locale
from bot.parsing import MAX_INPUT_LENGTH, parse_command

DEV, THR, EFF, ACT = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL
SEED = {DEV: D(64), THR: D(2000), EFF: D("0.9")}
NBSP, NNBSP = "\u00a0", "\u202f"


@pytest.mark.parametrize(
    ("locale", "text"),
    [
        ("de-DE", "64 2.000 90 %"),
        ("de-DE", "64 2000 90%"),
        ("de-DE", "64 2.000 0,9"),
        ("de-DE", f"64 2.000 90{NNBSP}%"),
        ("de-DE", "64 2k 90%"),
        ("en-US", "64 2000 90%"),
        ("en-US", "64 2,000 0.9"),
        ("en-US", "64 2k 90 %"),
        ("en-GB", "64 2,000 90%"),
        ("fr-FR", "64 2 000 90 %"),
        ("fr-FR", f"64 2{NNBSP}000 90{NNBSP}%"),
        ("fr-FR", f"64 2{NBSP}000 0,9"),
        ("es-ES", "64 2.000 90 %"),
        ("es-LA", "64 2,000 90%"),
        ("pt-BR", "64 2.000 0,9"),
        ("it-IT", "64 2.000 90%"),
        ("ja-JP", "64 2,000 90%"),
        ("ja-JP", "６４ ２，０００ ９０％"),
        ("ko-KR", "64 2,000 0.9"),
        ("zh-CN", "64 2,000 90%"),
        ("zh-TW", "64 2,000 90%"),
        ("de-CH", "64 2'000 90%"),
        ("de-CH", "64 2’000 90%"),
        ("en-US", "devices=64 throughput=2000 efficiency=90%"),
        ("en-US", "efficiency = 90% d: 64 v=2k"),
        ("de-DE", "geräte=64 durchsatz=2.000 effizienz=90 %"),
        ("en-US", "<@U123ABC> 64 2000 90%"),
        ("en-US", "64 2000 90%\n"),
    ],
)
def test_the_seed_example_reads_the_same_in_every_locale(locale, text):
    assert parse_command(text, resolve_locale(locale)).values == SEED


@pytest.mark.parametrize(
    ("locale", "token", "value", "kind", "alternative"),
    [
        # unambiguous in the user's format
        ("de-DE", "0,9", D("0.9"), None, None),
        ("de-DE", "1.234,5", D("1234.5"), None, None),
        ("en-US", "0.9", D("0.9"), None, None),
        ("en-US", "1,234.5", D("1234.5"), None, None),
        ("fr-FR", f"1{NNBSP}234,5", D("1234.5"), None, None),
        ("en-US", "1.5M", D(1500000), None, None),
        ("de-DE", "1,5M", D(1500000), None, None),
        # not valid in the user's format, but only one other convention reads it: read, with a note
        ("de-DE", "0.9", D("0.9"), ReadingKind.OTHER_CONVENTION, None),
        ("de-DE", "2.00", D(2), ReadingKind.OTHER_CONVENTION, None),
        ("en-US", "0,9", D("0.9"), ReadingKind.OTHER_CONVENTION, None),
        ("en-US", "1.234,5", D("1234.5"), ReadingKind.OTHER_CONVENTION, None),
        ("en-US", "2'000", D(2000), ReadingKind.OTHER_CONVENTION, None),
        ("de-CH", "1'000'000", D(1000000), None, None),
        ("de-CH", "1’234’567.5", D("1234567.5"), None, None),
        ("hi-IN", "12,34,567.5", D("1234567.5"), None, None),
        # valid in the user's format and, with another value, in another: the user's wins, with a note
        ("en-US", "2.000", D(2), ReadingKind.AMBIGUOUS, D(2000)),
        ("en-US", "2,000", D(2000), ReadingKind.AMBIGUOUS, D(2)),
        ("de-DE", "2.000", D(2000), ReadingKind.AMBIGUOUS, D(2)),
        ("pt-BR", "1.500", D(1500), ReadingKind.AMBIGUOUS, D("1.5")),
        ("ja-JP", "1,500", D(1500), ReadingKind.AMBIGUOUS, D("1.5")),
    ],
)
def test_numbers_are_read_strictly_and_any_doubt_is_recorded(locale, token, value, kind, alternative):
    reading = read_number(token, resolve_locale(locale))
    assert (reading.value, reading.kind, reading.alternative) == (value, kind, alternative)


@pytest.mark.parametrize(
    ("locale", "text", "expected", "noted"),
    [
        ("de-DE", "64 2000 0.9", SEED, {EFF}),
        ("en-US", "64 2.000 90%", {DEV: D(64), THR: D(2), EFF: D("0.9")}, {THR}),
        ("en-US", "64 2000 90", SEED, {EFF}),  # bare 90 is read as 90 %, and the reply says so
        ("en-US", "64 2000 1", {DEV: D(64), THR: D(2000), EFF: D(1)}, set()),
        ("fr-FR", "64 2 000 90 %", SEED, set()),
        ("fr-FR", "1 200 90 %", {DEV: D(1), THR: D(200), EFF: D("0.9")}, set()),
        ("fr-FR", "1 000 100 1 %", {DEV: D(1000), THR: D(100), EFF: D("0.01")}, set()),
        ("nb-NO", "64 2 000 90 %", SEED, set()),
        ("en-US", "64 2000 actual=115200", {DEV: D(64), THR: D(2000), ACT: D(115200)}, set()),
        ("fr-FR", "64 2 000 actual=115 200", {DEV: D(64), THR: D(2000), ACT: D(115200)}, set()),
        ("en-US", "target=1M v=2000 e=90%", {ACT: D(1000000), THR: D(2000), EFF: D("0.9")}, set()),
    ],
)
def test_commands_name_their_quantities_and_flag_uncertain_readings(locale, text, expected, noted):
    command = parse_command(text, resolve_locale(locale))
    assert command.values == expected
    assert {note.quantity for note in command.notes} == noted


@pytest.mark.parametrize("text", ["", "   ", "help", "HELP", "hilfe", "?", "<@U0BOT> help", "lang=de"])
def test_empty_text_or_help_asks_for_help(text):
    assert parse_command(text, resolve_locale("en-US")).wants_help


@pytest.mark.parametrize(
    ("text", "language", "territory"),
    [
        ("64 2.000 90 % lang=de-DE", "de", "DE"),
        ("lang=es-LA 64 2,000 90%", "es", "419"),
        ("64 2000 90% locale:pt-BR", "pt", "BR"),
    ],
)
def test_a_language_override_changes_how_numbers_are_read(text, language, territory):
    command = parse_command(text, resolve_locale("en-US"))
    assert (command.locale.language, command.locale.territory) == (language, territory)
    assert command.values == SEED


@pytest.mark.parametrize(
    ("locale", "text", "code", "token"),
    [
        ("en-US", "64 2000 90% banana", ErrorCode.UNKNOWN_WORD, "banana"),
        ("en-US", "<!channel> 64", ErrorCode.UNKNOWN_WORD, "<!channel>"),
        ("en-US", "64 <@U999|bob> 2000 90%", ErrorCode.NOT_A_NUMBER, "<@U999|bob>"),
        ("en-US", "&lt;!here&gt; 64", ErrorCode.UNKNOWN_WORD, "<!here>"),
        ("en-US", "64 2000 90% 5", ErrorCode.TOO_MANY_NUMBERS, "5"),
        ("en-US", "64 2000 NaN", ErrorCode.UNKNOWN_WORD, "NaN"),
        ("en-US", "64 inf 90%", ErrorCode.UNKNOWN_WORD, "inf"),
        ("en-US", "64 1e5 90%", ErrorCode.NOT_A_NUMBER, "1e5"),
        ("en-US", "64 2x 90%", ErrorCode.UNKNOWN_SUFFIX, "2x"),
        ("en-US", "64 1.2.3 90%", ErrorCode.NOT_A_NUMBER, "1.2.3"),
        ("de-CH", "64 2,000 90%", ErrorCode.AMBIGUOUS_NUMBER, "2,000"),
        ("fr-FR", "64 2.000,5.5 90 %", ErrorCode.NOT_A_NUMBER, "2.000,5.5"),
        ("fr-FR", "1 200 300 90 %", ErrorCode.AMBIGUOUS_GROUPING, "1 200 300"),
        ("en-US", "64% 2000 90%", ErrorCode.PERCENT_NOT_ALLOWED, "64%"),
        ("en-US", "64 2000 90% devices=8", ErrorCode.DUPLICATE_QUANTITY, "devices=8"),
        ("en-US", "64 2000 speed=5", ErrorCode.UNKNOWN_WORD, "speed=5"),
        ("en-US", "64 2000 actual=", ErrorCode.MISSING_VALUE, "actual="),
        ("en-US", "64 2000 90% lang=xx-YY", ErrorCode.UNKNOWN_LOCALE, "xx-YY"),
        ("en-US", "64 2000 %", ErrorCode.PERCENT_NOT_ALLOWED, "2000%"),
        ("en-US", "64 2000 " + "9" * MAX_INPUT_LENGTH, ErrorCode.TOO_LONG, None),
    ],
)
def test_bad_input_raises_the_users_error_naming_the_token(locale, text, code, token):
    with pytest.raises(UserInputError) as caught:
        parse_command(text, resolve_locale(locale))
    assert caught.value.code is code
    assert caught.value.token == token


@pytest.mark.parametrize(
    ("tag", "expected"),
    [("de-DE", "de_DE"), ("es-LA", "es_419"), ("pt_BR", "pt_BR"), ("zh-TW", "zh_Hant_TW"), ("EN-us", "en_US")],
)
def test_slack_locale_tags_map_to_cldr_locales(tag, expected):
    assert str(resolve_locale(tag)) == expected
