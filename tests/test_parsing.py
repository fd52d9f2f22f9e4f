"""Reading what users type, in their own locale: every accepted form and every error, table by table."""

from decimal import Decimal as D

import pytest
from babel import localedata

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity, make_scenario
from bot.reader.numbers import cldr_style, resolve_locale
from bot.reader.parsing import MAX_INPUT_LENGTH, FieldErrors, parse_command, parse_fields
from bot.reader.reading import AskReason, Reading, ReadingKind, read_number
from bot.reader.recipient import Recipient
from bot.replies.wording import Wording

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
        ("es-LA", f"64 2{NNBSP}000 90%"),  # es-LA's countries write 2,000 and 2.000: dpscale writes 2 000 for both
        ("es-LA", "64 2000 0.9"),
        ("en-IN", "64 2,000 90%"),
        ("hi-IN", "64 2,000 90%"),
        ("tr-TR", "64 2.000 %90"),
        ("tr-TR", "64 2.000 ٪90"),
        ("ar-EG", "٦٤ ٢٠٠٠ ٩٠٪"),  # Arabic-Indic digits are decimal digits (Unicode Nd)
        ("ja-JP", "６４　２０００　ｅ＝９０％"),  # full-width digits, `＝`, `％` and the ideographic space
        ("en-US", "64 2 000 90%"),  # a space groups digits in every locale: no locale reads it as a decimal mark
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
        ("en-US", "64 2000 90%\n"),
    ],
)
def test_the_seed_example_reads_the_same_in_every_locale(locale, text):
    assert parse_command(text, Recipient.parse(locale)).values == SEED


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
        # written exactly as dpscale writes it for the user: read silently, whatever other locales make of it
        ("en-US", "2,000", D(2000), None, None),
        ("de-DE", "2.000", D(2000), None, None),
        ("de-DE", "115.200", D(115200), None, None),
        ("pt-BR", "1.500", D(1500), None, None),
        ("ja-JP", "1,500", D(1500), None, None),
        ("en-US", "0.875", D("0.875"), None, None),
        ("en-IN", "1,00,000", D(100000), None, None),
        ("en-IN", "100,000", D(100000), None, None),  # en-IN writes international threes too
        ("hi-IN", "10,00,000", D(1000000), None, None),
        ("tr-TR", "1.234,5", D("1234.5"), None, None),
        ("sv-SE", "1 234,5", D("1234.5"), None, None),
    ],
)
def test_numbers_are_read_strictly_and_any_doubt_is_recorded(locale, token, value, kind, alternative):
    reading = read_number(token, Recipient.parse(locale))
    assert (reading.value, reading.kind, reading.alternative) == (value, kind, alternative)


@pytest.mark.parametrize(
    ("locale", "token", "readings", "reason"),
    [
        # the user's format reads it, but another Slack locale's everyday reading is a thousand times different
        ("en-US", "2.000", (D(2), D(2000)), AskReason.OTHER_LOCALES),
        ("en-US", "115.200", (D("115.2"), D(115200)), AskReason.OTHER_LOCALES),
        ("en-US", "1.234", (D("1.234"), D(1234)), AskReason.OTHER_LOCALES),
        ("de-DE", "2,000", (D(2), D(2000)), AskReason.OTHER_LOCALES),
        ("de-DE", "1,500", (D("1.5"), D(1500)), AskReason.OTHER_LOCALES),
        # a mark the user's locale does not use is foreign, never read as native
        ("fr-FR", "2.000", (D(2), D(2000)), AskReason.NOT_YOURS),
        ("ru-RU", "2.000", (D(2), D(2000)), AskReason.NOT_YOURS),
        ("pl-PL", "1.500", (D("1.5"), D(1500)), AskReason.NOT_YOURS),
        ("sv-SE", "2.000", (D(2), D(2000)), AskReason.NOT_YOURS),
        ("sv-SE", "2,000", (D(2), D(2000)), AskReason.OTHER_LOCALES),
        ("de-CH", "1.500", (D("1.5"), D(1500)), AskReason.OTHER_LOCALES),
        ("de-CH", "2,000", (D(2), D(2000)), AskReason.NOT_YOURS),
        # es-LA: Mexico's 2,000 and Argentina's 2.000 are both its own
        ("es-LA", "2.000", (D(2), D(2000)), AskReason.REGION),
        ("es-LA", "2,000", (D(2), D(2000)), AskReason.REGION),
        # the format is not known: every Slack locale's reading is possible
        ("en-US@unknown", "2.000", (D(2), D(2000)), AskReason.UNKNOWN_FORMAT),
        ("en-US@unknown", "2,000", (D(2), D(2000)), AskReason.UNKNOWN_FORMAT),
        ("de-DE@unknown", "1.500", (D("1.5"), D(1500)), AskReason.UNKNOWN_FORMAT),
    ],
)
def test_numbers_two_slack_locales_read_differently_are_asked_about(locale, token, readings, reason):
    with pytest.raises(UserInputError) as raised:
        read_number(token, Recipient.parse(locale))
    assert raised.value.code is ErrorCode.AMBIGUOUS_NUMBER
    assert (raised.value.readings, raised.value.reason) == (readings, reason)


@pytest.mark.parametrize(
    ("locale", "text", "token", "readings"),
    [
        # another number of the command is written the other way: the one written as dpscale writes it is asked
        # about after all, since its writer may write every number that way (1,234 samples/s from a German hand)
        ("en-US", "64 1,234 0,9", "1,234", (D("1.234"), D(1234))),
        ("en-US", "64 2,000 0,95", "2,000", (D(2), D(2000))),
        ("de-DE", "64 1.234 0.9", "1.234", (D("1.234"), D(1234))),
        ("pt-BR", "64 1.500 0.75", "1.500", (D("1.5"), D(1500))),
        ("en-US", "64 2000 12,5% a=1,000", "1,000", (D(1), D(1000))),
        # dpscale never writes a k, M or G: a suffixed number is asked about wherever Slack's locales disagree
        ("en-US", "64 1,500k 90%", "1,500k", (D(1500), D(1500000))),
        ("en-US", "64 2000 a=1,000M", "1,000M", (D(1000000), D(1000000000))),
        ("de-DE", "64 1.500k 90 %", "1.500k", (D(1500), D(1500000))),
    ],
)
def test_a_number_written_as_dpscale_writes_it_is_asked_about_when_the_command_says_it_may_not_be_meant_so(
    locale, text, token, readings
):
    with pytest.raises(UserInputError) as raised:
        parse_command(text, Recipient.parse(locale))
    assert raised.value.code is ErrorCode.AMBIGUOUS_NUMBER
    assert (raised.value.token, raised.value.readings) == (token, readings)


@pytest.mark.parametrize(
    ("locale", "text", "values"),
    [
        ("en-US", "64 2,000 90%", (64, 2000, D("0.9"))),  # every number the user's own way: read silently
        ("de-DE", "64 1,5k 90 %", (64, 1500, D("0.9"))),  # no other locale reads `1,5k`
        ("de-DE", "64 2.000 0,9", (64, 2000, D("0.9"))),
        ("en-US", "64 2000 0,9", (64, 2000, D("0.9"))),  # the other way, but nothing else to doubt
    ],
)
def test_numbers_no_other_number_casts_doubt_on_are_read(locale, text, values):
    assert tuple(parse_command(text, Recipient.parse(locale)).values.values()) == values


@pytest.mark.parametrize(
    ("token", "value"),
    [("2000", D(2000)), ("0,9", D("0.9")), ("0.9", D("0.9")), ("2 000", D(2000)), ("1,00,000", D(100000)),
     ("2,5", D("2.5")), ("115 200", D(115200)), ("2k", D(2000))],
)
def test_numbers_every_slack_locale_reads_alike_are_read_in_the_unknown_format(token, value):
    assert read_number(token, Recipient.parse("en-US@unknown")) == Reading(token, value)


@pytest.mark.parametrize("token", ["10³", "2⁶", "½", "①", "1₀", "²2"])
def test_characters_that_only_look_like_digits_are_refused(token):
    with pytest.raises(UserInputError) as raised:
        parse_command(f"64 {token} 90%", Recipient.parse("en-US"))
    assert (raised.value.code, raised.value.token) == (ErrorCode.NOT_PLAIN_DIGITS, token)


@pytest.mark.parametrize(
    ("text", "user", "expected"),
    [
        ("64 2,000 90% lang=de", "en-US", None),  # English reads two thousand, German two: asked
        ("64 2.000 90 % lang=en", "de-DE", None),
        ("64 2000 90% lang=de", "en-US", SEED),  # no separator: every format reads it alike
        ("64 2000 0,9 lang=de", "de-DE", SEED),
        ("64 2 000 90% lang=fr", "en-US", SEED),
    ],
)
def test_lang_numbers_read_differently_by_the_users_and_the_chosen_format_are_asked_about(text, user, expected):
    if expected is None:
        with pytest.raises(UserInputError) as raised:
            parse_command(text, Recipient.parse(user))
        assert (raised.value.code, raised.value.reason) == (ErrorCode.AMBIGUOUS_NUMBER, AskReason.LANG)
    else:
        assert parse_command(text, Recipient.parse(user)).values == expected


@pytest.mark.parametrize(
    ("locale", "text", "expected", "noted"),
    [
        ("de-DE", "64 2000 0.9", SEED, {EFF}),
        ("en-US", "64 2000 90", SEED, {EFF}),  # bare 90 is read as 90 %, and the reply says so
        ("en-US", "64 2000 1", {DEV: D(64), THR: D(2000), EFF: D(1)}, {EFF}),  # bare 1 is 100 %, and it says so
        ("en-US", "64 2000 12.345%", {DEV: D(64), THR: D(2000), EFF: D("0.12345")}, set()),  # 12345 % impossible
        ("en-US", "64 2 000 90%", SEED, set()),
        ("fr-FR", "64 2 000 90 %", SEED, set()),
        ("fr-FR", "1 200 90 %", {DEV: D(1), THR: D(200), EFF: D("0.9")}, set()),
        ("fr-FR", "1 000 100 1 %", {DEV: D(1000), THR: D(100), EFF: D("0.01")}, set()),
        ("nb-NO", "64 2 000 90 %", SEED, set()),
        ("en-US", "64 2000 actual=115200", {DEV: D(64), THR: D(2000), ACT: D(115200)}, set()),
        ("fr-FR", "64 2 000 actual=115 200", {DEV: D(64), THR: D(2000), ACT: D(115200)}, set()),
        # a reply's figures pasted back: `800` is the actual throughput's, not a second unnamed number
        ("fr-FR", f"64 500 a=28{NNBSP}800", {DEV: D(64), THR: D(500), ACT: D(28800)}, set()),
        ("es-LA", f"64 999.9990 a=57{NNBSP}599.94", {DEV: D(64), THR: D("999.999"), ACT: D("57599.94")}, set()),
        ("fr-FR", "64 1 500k 90 %", {DEV: D(64), THR: D(1500000), EFF: D("0.9")}, set()),  # a suffix after a group
        # a no-break space only groups: a reply's figures pasted back are whole numbers, whatever the count
        ("fr-FR", f"1{NNBSP}200 300 90 %", {DEV: D(1200), THR: D(300), EFF: D("0.9")}, set()),
        ("fr-FR", f"a=28{NNBSP}800 64", {ACT: D(28800), DEV: D(64)}, set()),  # one number short: the engine says so
        ("de-DE", "64 2\u00a0000 90 %", SEED, set()),
        # groups after a named value are its own only where the count of numbers leaves a choice
        ("en-US", "d=64 100,000 a=5,760,000", {DEV: D(64), THR: D(100000), ACT: D(5760000)}, set()),
        # another format with the user's own decimal mark casts no doubt: India's reads 2,000 as English does
        ("en-US", "64 2,000 a=1,15,200", {DEV: D(64), THR: D(2000), ACT: D(115200)}, {ACT}),
        ("tr-TR", "e=90 % d=64 v=2000", SEED, set()),  # a `%` before a word that is no number goes before it
        # a percent sign standing alone goes with the number on the side the locale writes it
        ("tr-TR", "64 2.000 % 90", SEED, set()),
        ("tr-TR", "64 2000 90 %", SEED, set()),
        # unnamed numbers fill the quantities not named, in order
        ("de-DE", "d=64 2.000 90 %", SEED, set()),
        ("fr-FR", "v=2000 64 90 %", SEED, set()),
        ("en-US", "2000 d=64 0.9", SEED, set()),
        ("en-US", "v=2000 90% 64", SEED, set()),  # beside a named value, a percentage is the efficiency
        ("en-US", "a=28800 90% 64", {ACT: D(28800), EFF: D("0.9"), DEV: D(64)}, set()),  # `a=` is named too
        ("tr-TR", "d=64 90 % 2000", SEED, set()),  # 2000 % cannot be: the sign is 90's
        ("tr-TR", "d=64 90 % 2.000", SEED, set()),  # nor can 2.000, read as Turkish writes it
        ("tr-TR", "d=64 e=90 % 2000", SEED, set()),
        # nothing named: the second number is the throughput, so the sign is the third's, whatever the second
        ("tr-TR", "64 12,5 % 90", {DEV: D(64), THR: D("12.5"), EFF: D("0.9")}, set()),
        ("tr-TR", "64 50 % 90", {DEV: D(64), THR: D(50), EFF: D("0.9")}, set()),
        # a k, M or G standing alone is the number's before it
        ("en-US", "64 2 k 90%", SEED, set()),
        ("fr-FR", "64 1 500 k 90 %", {DEV: D(64), THR: D(1500000), EFF: D("0.9")}, set()),
        # where either format read writes the sign first, a `%` standing alone may go with the number after it
        ("en-US", "lang=tr 64 2000 % 90", SEED, set()),
        # beside a named efficiency a bare number is no percentage: the sign is the efficiency's
        ("tr-TR", "e=90 % 64 2000", SEED, set()),
        ("en-US", "64 1 500 100%", {DEV: D(64), THR: D(1500), EFF: D(1)}, set()),  # never 500 100 %
        ("fr-FR", "64 1 500 100 %", {DEV: D(64), THR: D(1500), EFF: D(1)}, set()),
        ("tr-TR", "lang=en 64 2000 % 90", SEED, set()),
        ("de-DE", "lang=tr 64 2000 90 %", SEED, set()),
        ("en-US", "target=1M v=2000 e=90%", {ACT: D(1000000), THR: D(2000), EFF: D("0.9")}, set()),
        # the Arabic decimal and thousands marks mean one thing only, whoever types them
        ("ar-EG", "٦٤ ٢٠٠٠ ٠٫٩", SEED, set()),
        ("en-US", "٦٤ ٢٬٠٠٠ ٩٠٪", SEED, set()),
        ("de-DE", "٦٤ ٢٬٠٠٠ ٠٫٩", SEED, set()),
        ("fa-IR", "۶۴ ۲۰۰۰ ۰٫۹", SEED, set()),
        # the ten thousands and hundred millions of Chinese, Japanese and Korean
        ("ja-JP", "64 0.2万 90%", SEED, set()),
        ("zh-CN", "v=2000 e=90% 实际=23万", {THR: D(2000), EFF: D("0.9"), ACT: D(230000)}, set()),
        ("zh-TW", "v=2000 e=90% 實際=1億", {THR: D(2000), EFF: D("0.9"), ACT: D(100000000)}, set()),
        ("ko-KR", "64 0.2만 90%", SEED, set()),
        # a decimal after a leading zero is no group mark: space groups beside it are the writer's own
        ("fr-FR", "64 1 500 0,925", {DEV: D(64), THR: D(1500), EFF: D("0.925")}, set()),
        ("de-DE", "128 2 500 0,125", {DEV: D(128), THR: D(2500), EFF: D("0.125")}, set()),
        ("en-US", "64 12 500 0.875", {DEV: D(64), THR: D(12500), EFF: D("0.875")}, set()),
        # numbers listed with commas or semicolons: no number ends with a mark
        ("en-US", "64, 2000, 90%", SEED, set()),
        ("en-US", "devices = 64, throughput = 2,000, efficiency = 90%", SEED, set()),
        ("de-DE", "64; 2.000; 0,9", SEED, set()),
        ("en-US", "8, 500, 90%", {DEV: D(8), THR: D(500), EFF: D("0.9")}, set()),  # never 8 500
        # in a list, a comma before an item or standing alone is the list's, never a decimal mark (`,90%`)
        ("de-DE", "64, 2000 ,90%", SEED, set()),
        ("de-DE", "64 ,2000 ,90%", SEED, set()),
        ("en-US", "64 , 2000 , 90 %", SEED, set()),
        ("en-US", "64, 2k, 90%", SEED, set()),
        ("fr-FR", "64 2 000 90 %,", SEED, set()),  # a trailing comma lists nothing
        ("de-DE", "e=,9 64 2000", SEED, set()),  # one comma opening a value: German for 0,9
        ("fr-FR", "64, 1 500, 90 %", {DEV: D(64), THR: D(1500), EFF: D("0.9")}, set()),
        ("en-US", "64, % 90, a=115200", {DEV: D(64), EFF: D("0.9"), ACT: D(115200)}, set()),  # the sign is 90's
        # Slack's emoji say nothing about the numbers, and their colons name no value
        ("en-US", "64 2000 :fire: 90%", SEED, set()),
        ("en-US", ":tada: 64 2000 90% :wave::skin-tone-2:", SEED, set()),
        ("de-DE", "d: 64 :rocket: v: 2.000 e: 90 %", SEED, set()),
    ],
)
def test_commands_name_their_quantities_and_flag_uncertain_readings(locale, text, expected, noted):
    command = parse_command(text, Recipient.parse(locale))
    assert command.values == expected
    assert {note.quantity for note in command.notes} == noted


@pytest.mark.parametrize("text", ["", "   ", "help", "HELP", "hilfe", "?", "lang=de", "help me",
                                  "hilfe bitte", "help, please?"])
def test_empty_text_or_help_asks_for_help(text):
    assert parse_command(text, Recipient.parse("en-US")).wants_help


@pytest.mark.parametrize(
    ("text", "language", "territory"),
    [
        ("64 2000 90 % lang=de-DE", "de", "DE"),
        ("lang=es-LA 64 2000 90%", "es", "419"),
        ("64 2000 90% locale:pt-BR", "pt", "BR"),
    ],
)
def test_a_language_override_chooses_the_reply_locale(text, language, territory):
    command = parse_command(text, Recipient.parse("en-US"))
    assert (command.recipient.words.language, command.recipient.words.territory) == (language, territory)
    assert command.values == SEED


@pytest.mark.parametrize(
    ("locale", "text", "asked", "readings"),
    [
        # a Turkish `%90`, French or Russian space groups, German key words: a writer who may mean 1.024
        ("en-US", "64 1,024 %90", "1,024", (D("1.024"), D(1024))),
        ("en-GB", "64 1,125 %85", "1,125", (D("1.125"), D(1125))),
        ("en-US", "geräte=64 durchsatz=1,024 effizienz=90 %", "1,024", (D("1.024"), D(1024))),
        ("de-DE", "台数=64 スループット=2.000 効率=90%", "2.000", (D(2), D(2000))),
        ("en-US", "lang=de-CH geräte=64 durchsatz=1,024 effizienz=90 %", "1,024", (D("1.024"), D(1024))),  # the user's
        # the user's own clues, English words, a language whose countries disagree, `90 %`: read as before
        ("tr-TR", "64 2.000 %90", None, SEED),
        ("de-DE", "geräte=64 durchsatz=2.000 effizienz=90 %", None, SEED),
        ("ja-JP", "台数=64 スループット=2,000 効率=90%", None, SEED),
        ("en-US", "gpu=64 v=2,000 e=90%", None, SEED),
        ("es-ES", "dispositivos=64 throughput=2.000 eficiencia=90 %", None, SEED),
        ("en-US", "64 2,000 90 %", None, SEED),
        ("fr-FR", "64 2 000 0,9", None, SEED),
        # spaces group digits in every language (ISO 80000-1), and dpscale writes a channel's figures so
        ("en-US", "64 2,000 a=115\u202f200", None, {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("en-US", "64 2 000 actual=115,200", None, {DEV: D(64), THR: D(2000), ACT: D(115200)}),
        ("en-US", "1 024 2,048 90 %", None, {DEV: D(1024), THR: D(2048), EFF: D("0.9")}),  # `024` is no number
        ("fr-FR", "1 024 2000 90 %", None, {DEV: D(1024), THR: D(2000), EFF: D("0.9")}),  # four digits: never grouped
    ],
)
def test_a_clue_to_another_format_casts_doubt_on_a_number_written_as_dpscale_writes_it(locale, text, asked, readings):
    """As a `0,9` beside it does: `1,024` is how dpscale writes 1024 for an English user, but `%90` is Turkish."""
    if asked is None:
        assert parse_command(text, Recipient.parse(locale)).values == readings
        return
    with pytest.raises(UserInputError) as raised:
        parse_command(text, Recipient.parse(locale))
    assert (raised.value.code, raised.value.token, raised.value.readings) == (
        ErrorCode.AMBIGUOUS_NUMBER, asked, readings)


@pytest.mark.parametrize(
    ("slack", "chosen", "text"),
    [
        ("de-DE", "en-US", "geräte=64 durchsatz=2,000 effizienz=90%"),
        ("fr-FR", "en-US", "accélérateurs=64 débit=2,000 efficacité=90%"),
        ("ja-JP", "de-DE", "台数=64 スループット=2.000 効率=90 %"),
        ("zh-CN", "de-DE", "设备=64 吞吐量=2.000 效率=90 %"),
        ("de-DE", "en-US", "lang=en geräte=64 durchsatz=2,000 effizienz=90%"),  # the user's language, not lang='s
        ("ja-JP", "de-DE", "lang=de デバイス=64 スループット=2.000 効率=90 %"),
    ],
)
def test_the_users_own_languages_key_words_are_no_clue_whatever_format_they_chose(slack, chosen, text):
    """A German Slack user who chose English numbers writes `durchsatz=2,000` for two thousand, as the help shows."""
    locale = Recipient.parse(slack).choosing(resolve_locale(chosen))
    assert parse_command(text, locale).values == SEED


@pytest.mark.parametrize("efficiency", ["%90", "％90", "٪90", " %90"])
def test_a_forms_fields_give_clues_too(efficiency):
    """A form has no key words, but a `%90` in one field (however its sign is typed) casts doubt on the `1,024` in
    another, under its field."""
    fields = {DEV: "64", THR: "1,024", EFF: efficiency, ACT: None}
    with pytest.raises(FieldErrors) as raised:
        parse_fields(fields, Recipient.parse("en-US"))
    assert list(raised.value.errors) == [THR]
    assert raised.value.errors[THR].readings == (D("1.024"), D(1024))
    assert parse_fields({**fields, EFF: "90%"}, Recipient.parse("en-US")).values == {DEV: 64, THR: 1024, EFF: D("0.9")}


def _one_locale_per_number_format() -> list[str]:
    """A locale of each number format CLDR has (symbols, grouping, percent pattern): `lang=` takes any locale."""
    formats: dict[tuple[object, ...], str] = {}
    for tag in sorted(localedata.locale_identifiers()):
        style = cldr_style(resolve_locale(tag))
        shape = (style.decimal, style.group, style.grouping, style.percent_prefix, style.percent_suffix)
        formats.setdefault(shape, tag)
    return sorted(formats.values())


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_numbers_written_as_a_reply_after_lang_writes_them_read_back():
    """Kashmiri's `2،000`, Adlam's `2⹁000`: whatever format `lang=` chooses, a reply's figures typed back read
    the same (before, its own error advised writing numbers like `2،000` and then refused them). One test over
    every format, so that finding the formats (all of CLDR's locales read) costs a run once, not each worker's
    collection."""
    misread = {}
    for tag in _one_locale_per_number_format():
        if tag == "tok":  # Toki Pona groups by twos with no-break spaces: `20 00`, read as two numbers
            continue
        words = Wording(Recipient.parse(tag))
        text = f"64 {words.number(D('2000.5'))} {words.percent(D('0.9'))} lang={tag}"
        try:
            values = parse_command(text, Recipient.parse("en-US")).values
        except UserInputError as error:
            values = {"error": error.code}
        if values != {**SEED, THR: D("2000.5")}:
            misread[text] = values
    assert misread == {}


@pytest.mark.parametrize(
    ("locale", "text", "code", "token"),
    [
        ("en-US", "64 2000 90% banana", ErrorCode.UNKNOWN_WORD, "banana"),
        ("en-US", "<!channel> 64", ErrorCode.UNKNOWN_WORD, "<!channel>"),
        ("en-US", "64 <@U999|bob> 2000 90%", ErrorCode.NOT_A_NUMBER, "<@U999|bob>"),
        ("en-US", "64 2000 90% 5", ErrorCode.TOO_MANY_NUMBERS, "5"),
        ("en-US", "64 2000 NaN", ErrorCode.UNKNOWN_WORD, "NaN"),
        ("en-US", "64 inf 90%", ErrorCode.UNKNOWN_WORD, "inf"),
        ("en-US", "64 1e5 90%", ErrorCode.NOT_A_NUMBER, "1e5"),
        ("en-US", "64 2x 90%", ErrorCode.UNKNOWN_SUFFIX, "2x"),
        ("en-US", "64 1.2.3 90%", ErrorCode.NOT_A_NUMBER, "1.2.3"),
        ("de-CH", "64 2,000 90%", ErrorCode.AMBIGUOUS_NUMBER, "2,000"),
        ("fr-FR", "64 2.000,5.5 90 %", ErrorCode.NOT_A_NUMBER, "2.000,5.5"),
        ("fr-FR", "1 200 300 90 %", ErrorCode.AMBIGUOUS_GROUPING, "1 200 300"),
        # typed with plain spaces, a group of three left apart from the named value before it: asked
        ("fr-FR", "a=28 800 64", ErrorCode.AMBIGUOUS_GROUPING, "a=28 800"),
        ("fr-FR", "e=90% a=115 200", ErrorCode.AMBIGUOUS_GROUPING, "a=115 200"),
        ("en-US", "d=64 500 90%", ErrorCode.AMBIGUOUS_GROUPING, "d=64 500"),
        ("fr-FR", "64 500 a=28 800", ErrorCode.AMBIGUOUS_GROUPING, "64 500 a=28 800"),
        ("en-US", "1 200 e=90 300", ErrorCode.AMBIGUOUS_GROUPING, "1 200 e=90 300"),
        ("fr-FR", "d=64 a=71 107,2", ErrorCode.AMBIGUOUS_GROUPING, "a=71 107,2"),  # a decimal part is no mark
        ("fr-FR", "d=64 a=1 000 200", ErrorCode.AMBIGUOUS_GROUPING, "a=1 000 200"),  # after the value's own group
        ("fr-FR", "a=50 000 128 500", ErrorCode.AMBIGUOUS_GROUPING, "a=50 000 128"),
        ("en-US", "64 500 90% a=28,800", ErrorCode.AMBIGUOUS_GROUPING, "64 500"),  # or all four values, one too many
        # a figure held together by a no-break space may continue the group before it, as a plain-spaced one does
        ("ru-RU", f"64 993 330{NNBSP}925 90%", ErrorCode.AMBIGUOUS_GROUPING, f"64 993 330{NNBSP}925"),
        ("tr-TR", "v=2000 90 % 64", ErrorCode.AMBIGUOUS_GROUPING, "90 % 64"),  # `90 %` or `% 64`: both could be
        # either neighbour of a `%` that may come first could be a percentage, whatever its form: asked
        ("tr-TR", "d=64 92,5 % 80", ErrorCode.AMBIGUOUS_GROUPING, "92,5 % 80"),
        ("en-US", "a=1,500,000 75 % 1,024 lang=tr", ErrorCode.AMBIGUOUS_GROUPING, "75 % 1,024"),  # 1,024 or 1.024
        ("de-DE", "geräte=64 92,5 % 80 lang=tr", ErrorCode.AMBIGUOUS_GROUPING, "92,5 % 80"),
        # digits that only look like digits, beside such a `%`: said so, not a crash
        ("tr-TR", "64 10³ % 90", ErrorCode.NOT_PLAIN_DIGITS, "10³"),
        ("en-US", "64 10³ % 90 lang=tr", ErrorCode.NOT_PLAIN_DIGITS, "10³"),
        ("tr-TR", "① % 90 2000", ErrorCode.NOT_PLAIN_DIGITS, "①"),
        ("en-US", "64% 2000 90%", ErrorCode.PERCENT_NOT_ALLOWED, "64%"),
        ("en-US", "64 2000 90% devices=8", ErrorCode.DUPLICATE_QUANTITY, "devices=8"),
        ("en-US", "64 2000 speed=5", ErrorCode.UNKNOWN_WORD, "speed=5"),
        ("en-US", "cluster=64 2000 90%", ErrorCode.UNKNOWN_WORD, "cluster=64"),  # 64 devices, or 64 samples/s?
        ("en-US", "64 ٢٬٠٠ 90%", ErrorCode.NOT_A_NUMBER, "2٬00"),  # a group of two after an Arabic group mark
        ("en-US", "64 2000 actual=", ErrorCode.MISSING_VALUE, "actual="),
        ("en-US", "64 2000 90% lang=xx-YY", ErrorCode.UNKNOWN_LOCALE, "xx-YY"),
        ("en-US", "64 2000% 90", ErrorCode.PERCENT_NOT_ALLOWED, "2000%"),
        ("en-US", "64 2000 90% e= lang=de", ErrorCode.MISSING_VALUE, "e="),  # an empty value takes no next word
        # four numbers where joining two gives the three needed, but another number shows that its writer groups
        # digits with a mark, or not at all: a typo or a value left in, never 64 200 devices read in silence
        ("de-DE", "64 200 2.000 90 %", ErrorCode.AMBIGUOUS_GROUPING, "64 200"),
        ("en-US", "64 200 2,000 90%", ErrorCode.AMBIGUOUS_GROUPING, "64 200"),
        ("ja-JP", "64 200 2,000 90%", ErrorCode.AMBIGUOUS_GROUPING, "64 200"),
        ("de-DE", "8 192 1.500 90 %", ErrorCode.AMBIGUOUS_GROUPING, "8 192"),
        ("de-CH", "8 192 1'500 90 %", ErrorCode.AMBIGUOUS_GROUPING, "8 192"),
        ("en-US", "64 200 20000 90%", ErrorCode.AMBIGUOUS_GROUPING, "64 200"),
        ("en-US", "lang=de lang=fr 64 2000 90%", ErrorCode.DUPLICATE_QUANTITY, "lang=fr"),
        ("en-US", "64 2000 90% lang=root", ErrorCode.UNKNOWN_LOCALE, "root"),
        ("en-US", "64 2000 90% efficiency=%", ErrorCode.MISSING_VALUE, "efficiency=%"),
        ("en-US", "64 2000 " + "9" * MAX_INPUT_LENGTH, ErrorCode.TOO_LONG, None),
    ],
)
def test_bad_input_raises_the_users_error_naming_the_token(locale, text, code, token):
    with pytest.raises(UserInputError) as caught:
        parse_command(text, Recipient.parse(locale))
    assert caught.value.code is code
    assert caught.value.token == token


@pytest.mark.parametrize(
    ("tag", "expected"),
    [("de-DE", "de_DE"), ("es-LA", "es_419"), ("pt_BR", "pt_BR"), ("zh-TW", "zh_Hant_TW"), ("EN-us", "en_US")],
)
def test_slack_locale_tags_map_to_cldr_locales(tag, expected):
    assert str(Recipient.parse(tag)) == expected


@pytest.mark.parametrize("value", ["64\u200b", "\u202e64", "64\x1b", "\u200e64\u200f"])
def test_a_fields_invisible_characters_are_spaces_as_in_a_command(value):
    """A zero-width space or a direction mark pasted along with a number: invisible, so the message "`64` is not a
    number" would make no sense; the form reads the field as the command reads the same text."""
    fields = {DEV: value, THR: "2000", EFF: "90%", ACT: None}
    assert parse_fields(fields, Recipient.parse("en-US")).values == SEED
    assert parse_command(f"{value} 2000 90%", Recipient.parse("en-US")).values == SEED


@pytest.mark.parametrize("tag", ["de-DE", "fr-FR", "pt-BR", "es-LA", "tr-TR", "en-US", "en-US@unknown"])
@pytest.mark.parametrize("text", [
    "64 1, 250 90 %", "64, 1, 250, 90 %", "v=1, 250 64 90%", "a=115, 200 64 90%", "64, 1, 500, 90%",
    "1, 200 300 90%",  # separated both ways: 1 200 and 300, or 200 300?
    "115 200, 0,9", "1 234,5, 8", "64 250, 100",  # a listed item is one number, never split to make three
    "64 :fire: 200 2000 90%",  # nor joined across an emoji
    "64 200 2٬000 90 %", "64 200 ٢٬٠٠٠ 90 %", "٢٥٦ ١٢٨ ٣٫٧٥ ١٠٠%",  # Arabic marks doubt a space join as any do
    "2,000k 1000 90%",  # never the one reading under a limit, where the reader's own formats disagree
])
def test_groups_are_never_joined_across_a_lists_comma_or_beside_another_group_mark(text, tag):
    """`1, 250` is two numbers (the same reader is asked about `1,250`), and a space join is doubted beside an Arabic
    group mark as beside any other: never one number read in silence."""
    with pytest.raises(UserInputError):
        command = parse_command(text, Recipient.parse(tag))
        make_scenario(**command.values)


@pytest.mark.parametrize("text", ["64 2000 90%, :)", "64, =2000 90%", "64, : 2000 90%", "64; :", "64, %", "64 :x: %",
                                  "64 2000 e= :fire: 90%", "d: :fire: 64 2000 90%", "64 2000 90% lang= :flag-de:"])
def test_what_a_lists_comma_or_an_emoji_leaves_behind_never_reaches_the_user(text):
    """The words that stand where a list's comma or an emoji stood are the parser's own, never part of a token that
    an error shows."""
    with pytest.raises(UserInputError) as caught:
        parse_command(text, Recipient.parse("en-US"))
    assert caught.value.token and not any("\ue000" <= c <= "\uf8ff" for c in caught.value.token), caught.value


@pytest.mark.parametrize(
    ("locale", "text", "token", "readings"),
    [
        # four or more digits, a mark that is not the reader's decimal mark, three digits: a group mark typed one
        # group late (2,000,000) or another format's decimal mark (2000): a thousand times apart, so asked
        ("en-US", "64 2000,000 90%", "2000,000", (D(2000), D(2000000))),
        ("en-US", "64 1234,567 90%", "1234,567", (D("1234.567"), D(1234567))),
        ("de-DE", "64 2000.000 90 %", "2000.000", (D(2000), D(2000000))),
        ("fr-FR", "64 2000.000 90 %", "2000.000", (D(2000), D(2000000))),
        ("en-IN", "64 2000,000 90%", "2000,000", (D(2000), D(2000000))),
        ("es-LA", "64 2000.000 90%", "2000.000", (D(2000), D(2000000))),  # Argentina groups with `.`
        ("en-US@unknown", "64 2000,000 90%", "2000,000", (D(2000), D(2000000))),
        ("en-US", "64 2000,000k 90%", "2000,000k", (D(2000000), D(2000000000))),
        ("en-US", "64 12345,678 90%", "12345,678", (D("12345.678"), D(12345678))),
    ],
)
def test_a_number_whose_first_group_is_too_long_is_asked_about_with_both_readings(locale, text, token, readings):
    with pytest.raises(UserInputError) as raised:
        parse_command(text, Recipient.parse(locale))
    assert (raised.value.code, raised.value.token, raised.value.readings, raised.value.reason) == (
        ErrorCode.AMBIGUOUS_NUMBER, token, readings, AskReason.LOOSE_GROUP)


@pytest.mark.parametrize(
    ("locale", "text", "expected", "noted"),
    [
        # the reader's own decimal mark after a long integer part: three decimals, as the reader's format writes them
        ("en-US", "64 2000.000 90%", SEED, set()),
        ("de-DE", "64 2000,000 90 %", SEED, set()),
        # a mark followed by two digits groups in no format: the one reading there is, with the note (decided)
        ("en-US", "64 2,00 90%", {**SEED, THR: D(2)}, {THR}),
        # a bare efficiency from 10 up is a percentage, with the note; exactly 1 is the whole
        ("en-US", "64 2000 10", {**SEED, EFF: D("0.1")}, {EFF}),
        ("en-US", "64 2000 1", {**SEED, EFF: D(1)}, {EFF}),
        ("en-US", "64 2000 1.5%", {**SEED, EFF: D("0.015")}, set()),  # with its sign, any percentage
        # the thousands of Japanese and Korean, as their ten thousands already are
        ("ja-JP", "64 2千 90%", SEED, set()),
        ("ko-KR", "64 2천 90%", SEED, set()),
        ("zh-CN", "64 0.2万 90%", SEED, set()),
        # a list's comma as a Chinese or Japanese keyboard types it
        ("zh-CN", "64，2000，90%", SEED, set()),
        ("zh-TW", "64，2000，90%", SEED, set()),
        ("ja-JP", "64、2000、90%", SEED, set()),
        ("zh-CN", "６４，２０００，９０％", SEED, set()),
        ("ja-JP", "６４ ２，０００ ９０％", SEED, set()),  # a full-width comma grouping three digits still groups
        ("zh-CN", "64，2，000，90%", SEED, set()),  # beside three digits it groups, elsewhere it lists
        ("zh-CN", "64， 2，000， 90%", SEED, set()),
    ],
)
def test_the_decided_readings_and_the_east_asian_marks(locale, text, expected, noted):
    if expected is None:
        with pytest.raises(UserInputError):
            parse_command(text, Recipient.parse(locale))
        return
    command = parse_command(text, Recipient.parse(locale))
    assert command.values == expected
    assert {note.quantity for note in command.notes} == noted


@pytest.mark.parametrize(
    ("locale", "text", "code", "token"),
    [
        # a bare efficiency above 1 and below 10: above 100 % as a fraction, and hardly a measured percentage
        ("en-US", "64 2000 1.5", ErrorCode.UNCLEAR_EFFICIENCY, "1.5"),
        ("de-DE", "64 2000 9,5", ErrorCode.UNCLEAR_EFFICIENCY, "9,5"),
        ("en-US", "e=2 64 2000", ErrorCode.UNCLEAR_EFFICIENCY, "2"),
        # a colleague's mention is named as one, wherever it stands
        ("en-US", "64 2000 90% <@U123ABC>", ErrorCode.NOT_A_NUMBER, "<@U123ABC>"),
        ("en-US", "64 2000 90% @anna", ErrorCode.NOT_A_NUMBER, "@anna"),
        ("de-DE", "@U123ABC 64 2.000 90 %", ErrorCode.NOT_A_NUMBER, "@U123ABC"),
        # too many numbers: the badly spaced number is named, not the efficiency after it
        ("en-US", "64 20 00 90%", ErrorCode.AMBIGUOUS_GROUPING, "20 00"),
        ("en-US", "64 2000 9 0%", ErrorCode.AMBIGUOUS_GROUPING, "9 0%"),
        ("en-US", "64 1 50 90%", ErrorCode.AMBIGUOUS_GROUPING, "64 1 50"),
        ("de-DE", "64 2 0000 90 %", ErrorCode.AMBIGUOUS_GROUPING, "2 0000"),
        ("en-US", "64 2000 90% 5", ErrorCode.TOO_MANY_NUMBERS, "5"),  # the efficiency is clear: 5 is the extra
        # a group with a leading zero never joins the device count to leave a number missing
        ("en-US", "64 012 90%", ErrorCode.AMBIGUOUS_GROUPING, "64 012"),
        ("fr-FR", "64 012 90 %", ErrorCode.AMBIGUOUS_GROUPING, "64 012"),
        # a labelled value is named as typed, its unit on the number or apart
        ("ja-JP", "64 2000 90% 128台", ErrorCode.DUPLICATE_QUANTITY, "128台"),
        ("ko-KR", "64 2000 90% 128대", ErrorCode.DUPLICATE_QUANTITY, "128대"),
        ("en-US", "64 GPUs 2000 90% 128GPUs", ErrorCode.DUPLICATE_QUANTITY, "128GPUs"),
        ("en-US", "64 2000 90% 128 GPUs", ErrorCode.DUPLICATE_QUANTITY, "128 GPUs"),
        ("zh-CN", "64 2000 90% 128 张卡", ErrorCode.DUPLICATE_QUANTITY, "128 张卡"),
        ("en-US", "64 GPUs 2000img/s 3000img/s", ErrorCode.DUPLICATE_QUANTITY, "3000img/s"),
    ],
)
def test_errors_blame_the_token_that_is_wrong(locale, text, code, token):
    with pytest.raises(UserInputError) as caught:
        parse_command(text, Recipient.parse(locale))
    assert (caught.value.code, caught.value.token) == (code, token)


@pytest.mark.parametrize(
    ("locale", "text"),
    [
        ("en-US", "64 GPUs at 2000 img/s with 90% efficiency"),
        ("en-US", "64 2k samples/s 90%"),
        ("en-US", "64 2000 90 percent"),
        ("en-US", "64 2000 90 per cent"),
        ("en-US", "64 2000 90% efficiency"),
        ("en-US", "2000 img/s 64 GPUs 90%"),  # a word that names a quantity settles its place
        ("en-US", "90% efficiency, 2000 tokens/s per device, 64 devices"),
        ("en-US", "64 TPUs, 2,000 seq/s each, 90% scaling efficiency"),
        ("en-US", "efficiency 90% 64 GPUs 2000"),  # with no number before it, the one after it
        ("en-GB", "64 accelerators at 2,000 samples/s with 90 per cent efficiency"),
        ("de-DE", "64 Geräte mit 2.000 Samples/s und 90 % Effizienz"),
        ("de-DE", "64 GPUs 2.000 Bilder/s 90 Prozent"),
        ("fr-FR", "64 GPU à 2 000 images/s avec 90 % d’efficacité"),
        ("fr-FR", "64 accélérateurs, 2 000 échantillons/s, 90 pour cent"),
        ("es-ES", "64 GPU a 2.000 muestras/s con 90 % de eficiencia"),
        ("es-LA", "64 dispositivos con 2000 imágenes/s y 90 por ciento de eficiencia"),
        ("it-IT", "64 GPU a 2.000 campioni/s con efficienza del 90%"),
        ("it-IT", "64 dispositivi, 2.000 immagini/s, 90 per cento"),
        ("pt-BR", "64 GPUs a 2.000 amostras/s com 90% de eficiência"),
        ("pt-BR", "64 dispositivos 2000 tokens/s 90 por cento"),
        ("ja-JP", "64台 2000 90%"),
        ("ja-JP", "64台で2000サンプル/秒、効率90%"),
        ("ja-JP", "６４台、２０００トークン/秒、効率９０％"),
        ("ko-KR", "64대 2000 샘플/초 효율 90%"),
        ("zh-CN", "64张卡，每卡2000样本/秒，效率90%"),
        ("ko-KR", "64대, 2000샘플/초, 효율 90%"),
        ("ko-KR", "GPU 64개, 2000샘플/초, 효율 90%"),  # 개, the counter the glossary gives for devices
        ("ko-KR", "64장 2,000 90%"),  # 장, cards
        ("zh-TW", "64張卡 2000樣本/秒 效率 90%"),
    ],
)
def test_commands_as_people_write_them_read_their_unit_and_filler_words(locale, text):
    assert parse_command(text, Recipient.parse(locale)).values == SEED, text


@pytest.mark.parametrize(
    ("locale", "text", "code", "token"),
    [
        ("en-US", "64 GPUs 2000 bananas/s 90%", ErrorCode.UNKNOWN_UNIT, "bananas/s"),  # an unknown unit is named
        ("en-US", "64 GPUs 2000 TFLOPS 90%", ErrorCode.UNKNOWN_UNIT, "TFLOPS"),
        ("en-US", "64 GPUs 2000 img/s 90% please", ErrorCode.UNKNOWN_WORD, "please"),  # a word, not a unit
        ("en-US", "64 GPUs 90% GPUs", ErrorCode.DUPLICATE_QUANTITY, "90% GPUs"),
        ("en-US", "64% GPUs 2000 90%", ErrorCode.PERCENT_NOT_ALLOWED, "64%"),
        ("en-US", "64 GPUs 2.000 img/s 90%", ErrorCode.AMBIGUOUS_NUMBER, "2.000"),  # read by the same rules
    ],
)
def test_a_label_is_read_by_the_same_rules_and_an_unknown_word_is_still_named(locale, text, code, token):
    with pytest.raises(UserInputError) as caught:
        parse_command(text, Recipient.parse(locale))
    assert (caught.value.code, caught.value.token) == (code, token)


@pytest.mark.parametrize(
    ("locale", "text", "unit"),
    [("en-US", "64 GPUs at 2000 img/s with 90% efficiency", "img/s"), ("de-DE", "64 2.000 tokens/s 90 %", "tokens/s"),
     ("ja-JP", "64台 2000 トークン/秒 90%", "トークン/秒"), ("zh-CN", "64 2000 tokens/秒 90%", "tokens/秒"),
     ("en-US", "128 GPUs, 3.2k tokens/s per GPU, 85% scaling eff", "tokens/s"),  # a unit beside `per GPU` too
     ("en-US", "per GPU 2000 tokens/s, 64 GPUs, 90%", "tokens/s"), ("en-US", "64 GPUs, 2000 seq/s each, 90%", "seq/s"),
     ("en-US", "64 GPUs 2000 90%", None)],
)
def test_the_command_keeps_the_users_unit_word(locale, text, unit):
    assert parse_command(text, Recipient.parse(locale)).unit == unit


def slack_text(text: str) -> str:
    """The text as the Slack layer hands it to the core: the bot's own mention gone, Slack's escapes undone."""
    from bot.slack.commands import command_text

    return command_text(text, "U0BOT")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<@U0BOT> 64 2000 90%", SEED),  # the bot mention a command's caller left in
        ("<@U0BOT> help", None),
        ("&lt;!here&gt; 64", (ErrorCode.UNKNOWN_WORD, "<!here>")),  # Slack's escapes, undone before the core reads
    ],
)
def test_slacks_markup_is_read_by_the_slack_layer_and_the_core_sees_plain_text(text, expected):
    if expected is None:
        assert parse_command(slack_text(text), Recipient.parse("en-US")).wants_help
    elif isinstance(expected, dict):
        assert parse_command(slack_text(text), Recipient.parse("en-US")).values == expected
    else:
        with pytest.raises(UserInputError) as caught:
            parse_command(slack_text(text), Recipient.parse("en-US"))
        assert (caught.value.code, caught.value.token) == expected


@pytest.mark.parametrize(
    ("locale", "text", "expected"),
    [
        # a colon after a unit or device word is punctuation: never 2,000 devices at 64 img/s
        ("en-US", "64 GPUs: 2000 img/s, 90%", SEED),
        ("de-DE", "64 GPUs: 2.000 Samples/s, 90 %", SEED),
        ("fr-FR", "64 GPU : 2 000 img/s, 90 %", SEED),
        ("en-US", "64 GPUs: 90%, 2000 img/s", SEED),
        # "given twice" only where a value is: a model name, a per-device phrase, `H100s`
        ("en-US", "64 A100 GPUs at 2000 img/s 90%", SEED),
        ("en-US", "per GPU 2000 img/s, 64 GPUs, 90%", SEED),
        ("en-US", "64 H100s at 2000 img/s 90%", SEED),
        ("ja-JP", "台数=64 2,000 実効=115,200", {DEV: D(64), THR: D(2000), ACT: D(115200)}),  # a key is no unit
        ("en-US", "90% 64 2000", SEED),  # the sign settles the efficiency as firmly as a word
        ("en-US", "64 2000/s 90%", SEED),
        ("en-US", "2000 GPUs at 64 img/s 90%", {DEV: D(2000), THR: D(64), EFF: D("0.9")}),  # read as said
    ],
)
def test_a_unit_settles_its_own_number_and_nothing_else(locale, text, expected):
    assert parse_command(text, Recipient.parse(locale)).values == expected


@pytest.mark.parametrize(
    ("locale", "text", "code", "token"),
    [
        ("en-US", "64 2000 90 80%", ErrorCode.TOO_MANY_NUMBERS, "90"),  # four plain numbers: one too many
        ("en-US", "64 2000 90% 5%", ErrorCode.TOO_MANY_NUMBERS, "5%"),  # two efficiencies: the last typed
        ("en-US", "2000 img/s 64 90", ErrorCode.UNPLACED_NUMBER, "64"),  # devices or efficiency?
        ("en-US", "64 2000 efficiency 90", ErrorCode.UNPLACED_NUMBER, "2000 efficiency 90"),
        ("en-US", "64 GPUs 2000 img/s 3000 img/s", ErrorCode.DUPLICATE_QUANTITY, "3000 img/s"),  # truly twice
    ],
)
def test_a_number_the_grammar_cannot_place_is_asked_about_naming_it(locale, text, code, token):
    with pytest.raises(UserInputError) as caught:
        parse_command(text, Recipient.parse(locale))
    assert (caught.value.code, caught.value.token) == (code, token)
