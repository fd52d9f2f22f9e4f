"""Reading a measurement series in every Slack locale: the same rules as any command's numbers, and every error
naming the measurement it is in."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal as D

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.numbers import SLACK_LOCALES
from bot.reader.parsing import parse_command, split_words
from bot.reader.reading import AskReason, ReadingKind
from bot.reader.recipient import Recipient
from bot.reader.series_syntax import is_series, parse_series, parse_series_fields, wants_series_form
from bot.replies import describe_error
from bot.replies.wording import Wording
from examples import examples

SEED = {"v": D(2000), "pairs": [(D(8), D(15800)), (D(16), D(31000)), (D(64), D(115200))]}
NBSP, NNBSP = "\u00a0", "\u202f"


def read(text: str, tag: str):
    words, chosen = split_words(text, Recipient.parse(tag))
    assert is_series(words)
    return parse_series(words, chosen)


def values(command) -> dict:
    return {"v": command.throughput.value, "pairs": sorted(command.pairs)}


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_a_series_written_as_dpscale_writes_numbers_for_each_locale_is_read_silently(tag):
    words = Wording(Recipient.parse(tag))
    n = words.number
    text = f"v={n(D(2000))} {n(D(8), 0)}={n(D(15800))} {n(D(16), 0)}={n(D(31000))} {n(D(64), 0)}={n(D(115200))}"
    command = read(text, tag)
    assert values(command) == SEED and command.notes == ()


@pytest.mark.parametrize(
    ("tag", "text"),
    [
        ("de-DE", "v=2.000 8=15.800 16=31.000 64=115.200"),  # German groups with dots: 15.800 is 15 800
        ("de-DE", "durchsatz=2k 8=15,8k 16=31k 64=115,2k"),  # German words, decimal commas before k
        ("en-US", "throughput=2k 8=15.8k 16=31,000 64=115.2k"),
        ("en-US", "64=115200 v=2000 16=31000 8=15800"),  # any order
        ("en-US", "v=2000, 8=15800, 16=31000, 64=115200"),  # listed with commas
        ("en-US", "1=2000 8=15800 16=31000 64=115200"),  # one device's measurement is v
        ("en-US", "v: 2000 8 : 15800 16:31000 64=115200"),
        ("fr-FR", "v=2 000 8=15 800 16 = 31 000 64=115 200"),  # spaces group digits
        ("fr-FR", f"v=2{NNBSP}000 8=15{NNBSP}800 16=31{NBSP}000 64=115{NNBSP}200"),
        ("ja-JP", "ｖ＝２０００　８＝１５８００　１６＝３１０００　６４＝１１５２００"),  # full-width forms
        ("ja-JP", "v=2000 8=1.58万 16=3.1万 64=11.52万"),
        ("zh-CN", "v=2,000 8=15,800 16=31,000 64=115,200"),
        ("ko-KR", "v=2000 8=1.58만 16=3.1만 64=11.52만"),
        ("es-LA", f"v=2000 8=15{NNBSP}800 16=31000 64=115{NNBSP}200"),  # es-LA: read alike by both its formats
        ("pt-BR", "v=2.000 8=15.800 16=31.000 64=115.200"),
        ("it-IT", "v=2.000 8=15.800 16=31.000 64=115.200"),
        ("en-US", "v=2000 8=15800 16=31000 64=115200 lang=de"),
    ],
)
def test_a_series_reads_in_the_writers_own_format(tag, text):
    assert values(read(text, tag)) == SEED


@pytest.mark.parametrize(
    ("tag", "text", "token", "readings", "reason"),
    [
        ("en-US", "v=2000 8=15.800 16=31000", "15.800", (D("15.8"), D(15800)), AskReason.OTHER_LOCALES),
        ("de-DE", "v=2000 8=15,800 16=31000", "15,800", (D("15.8"), D(15800)), AskReason.OTHER_LOCALES),
        ("es-LA", "v=2000 8=15.800 16=31000", "15.800", (D("15.8"), D(15800)), AskReason.REGION),
        ("en-US@unknown", "v=2000 8=15,800 16=31000", "15,800", (D("15.8"), D(15800)), AskReason.UNKNOWN_FORMAT),
        ("en-US", "v=2.000 8=15800 16=31000", "2.000", (D(2), D(2000)), AskReason.OTHER_LOCALES),
        ("fr-FR", "v=2000 8=15.800 16=31000", "15.800", (D("15.8"), D(15800)), AskReason.NOT_YOURS),
        # `0,5k` is written in another format: whoever writes it may mean 15.8 by `15,800` too
        ("en-US", "v=2000 8=15,800 16=0,5k", "15,800", (D("15.8"), D(15800)), AskReason.OTHER_LOCALES),
        ("en-US", "v=2000 8=1,500k 16=31000", "1,500k", (D(1500), D(1500000)), AskReason.OTHER_LOCALES),
    ],
)
def test_a_number_other_formats_read_otherwise_is_asked_about_naming_its_measurement(tag, text, token, readings,
                                                                                      reason):
    with pytest.raises(UserInputError) as caught:
        read(text, tag)
    error = caught.value
    assert (error.code, error.token, error.readings, error.reason) == (ErrorCode.AMBIGUOUS_NUMBER, token, readings,
                                                                       reason)
    pair = next(word for word in text.split() if token in word)
    assert error.pair == pair


@pytest.mark.parametrize(
    ("tag", "text", "kind"),
    [
        ("de-DE", "v=2000 8=15800.5 16=31000", ReadingKind.OTHER_CONVENTION),  # German has no decimal point
        ("en-US", "v=2000 8=15800,5 16=31000", ReadingKind.OTHER_CONVENTION),
    ],
)
def test_a_number_only_another_format_reads_is_read_with_a_note(tag, text, kind):
    command = read(text, tag)
    assert [note.reading.kind for note in command.notes] == [kind]
    assert command.pairs[0] == (D(8), D("15800.5"))


@pytest.mark.parametrize(
    ("text", "code", "token", "pair"),
    [
        ("v=2000 8=15.8.00 16=31000", ErrorCode.NOT_A_NUMBER, "15.8.00", "8=15.8.00"),
        ("v=2000 8.5=15800 16=31000", ErrorCode.DEVICES_NOT_WHOLE, "8.5", "8.5=15800"),
        ("v=2000 8=15800 16=", ErrorCode.MISSING_VALUE, "16=", "16="),
        ("v=2000 8=90% 16=31000", ErrorCode.PERCENT_NOT_ALLOWED, "90%", "8=90%"),
        ("v=2000 8=-5 16=31000", ErrorCode.OUT_OF_RANGE, "-5", "8=-5"),
        ("v=2000 2000000=15800 16=31000", ErrorCode.OUT_OF_RANGE, "2000000", "2000000=15800"),
        ("v=2000 8=15800 16=31T", ErrorCode.UNKNOWN_SUFFIX, "31T", "16=31T"),
        ("v=2000 8=15800 8=16000", ErrorCode.SERIES_REPEATED_SIZE, "8=16000", "8=16000"),
        ("v=2000 8=15800 016=31000 16=30000", ErrorCode.SERIES_REPEATED_SIZE, "16=30000", "16=30000"),
        ("v=2000 1=2000 8=15800 16=31000", ErrorCode.DUPLICATE_QUANTITY, "1=2000", None),
        ("v=2000 8=15800", ErrorCode.SERIES_COUNT, None, None),
        ("v=2000 " + " ".join(f"{d}=1000" for d in range(2, 15)), ErrorCode.SERIES_COUNT, None, None),
        ("8=15800 16=31000", ErrorCode.SERIES_NO_THROUGHPUT, None, None),
        ("v=2000 8=15800 16=31000 64", ErrorCode.SERIES_STRAY_WORD, "64", None),
        ("v=2000 8=15800 16=31000 e=90%", ErrorCode.SERIES_STRAY_WORD, "e=90%", None),
        ("v=2000 8=15800 16=31000 bogus=3", ErrorCode.UNKNOWN_WORD, "bogus=3", None),
    ],
)
def test_a_series_that_cannot_be_read_names_what_is_wrong_and_where(text, code, token, pair):
    with pytest.raises(UserInputError) as caught:
        read(text, "en-US")
    assert (caught.value.code, caught.value.token, caught.value.pair) == (code, token, pair)


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_an_error_in_a_measurement_names_it_in_every_language(tag):
    with pytest.raises(UserInputError) as caught:
        read("v=2000 8=15.8.00 16=31000", tag)
    message = describe_error(caught.value, Recipient.parse(tag))
    assert "`8=15.8.00`" in message and "`15.8.00`" in message


def test_a_single_command_is_not_a_series():
    """A stray `= 5` after a percentage (`90%=5`) is no measurement: the command's own reader names it."""
    for text in ("64 2000 90%", "d=64 v=2000 e=90%", "64 2000 a=115200", "help", "64 2000 90% =5", "64 2000 90 % = 5"):
        assert not is_series(split_words(text, Recipient.parse("en-US"))[0])


@pytest.mark.parametrize(("tag", "text"), [("en-US", "series v=2000 8=15800 16=31000 64=115200"),
                                           ("de-DE", "Messreihe v=2.000 8=15.800 16=31.000 64=115.200"),
                                           ("ja-JP", "シリーズ v=2,000 8=15,800 16=31,000 64=115,200"),
                                           ("fr-FR", "série v=2000 8=15800 16=31000 64=115200")])
def test_a_series_may_begin_with_the_series_word_that_opens_its_form(tag, text):
    """The help names the word; a user who types the measurements after it gets the series, not "series is not a
    measurement"."""
    assert values(read(text, tag)) == SEED


@pytest.mark.parametrize(("tag", "text"), [("zh-CN", "系列 v=2000 8卡=15800 16卡=31000 64卡=115200"),
                                           ("zh-TW", "系列 v=2,000 8張卡=15,800 16張卡=31,000 64張卡=115,200"),
                                           ("ja-JP", "シリーズ v=2,000 8台=15,800 16台=31,000 64台=115,200"),
                                           ("ko-KR", "시리즈 v=2,000 8대=15,800 16대=31,000 64대=115,200"),
                                           ("en-US", "series v=2000 8GPUs=15800 16GPUs=31000 64GPUs=115200")])
def test_a_cluster_size_may_carry_its_counter(tag, text):
    """`8卡=15800` is 8 devices, as `8=15800` is (it was "8卡 的后缀无法识别"): a device word on the size only."""
    assert values(read(text, tag)) == SEED


def test_a_form_row_may_carry_its_counter_and_a_size_no_other_unit():
    rows = "8 卡 = 15800\n16卡=31000\n64卡=115200"
    assert values(parse_series_fields("2000", rows, Recipient.parse("zh-CN"))) == SEED
    with pytest.raises(UserInputError) as caught:
        read("v=2000 8img/s=15800 16=31000 64=115200", "en-US")
    assert caught.value.pair == "8img/s=15800"


@pytest.mark.parametrize(("text", "wanted"), [("series", True), ("Messreihe", True), ("ＳＥＲＩＥＳ", True),
                                             (" série ", True), ("series 8=1", False), ("", False)])
def test_the_series_word_alone_asks_for_the_form(text, wanted):
    assert wants_series_form(text) is wanted


def test_the_form_reads_one_measurement_per_line_in_the_users_format():
    command = parse_series_fields("2.000", "8 = 15.800\n\n16=31.000\r\n64 ＝ 115 200", Recipient.parse("de-DE"))
    assert values(command) == SEED


@pytest.mark.parametrize(
    ("throughput", "rows", "field", "code"),
    [
        ("", "8=15800\n16=31000", "throughput", ErrorCode.SERIES_NO_THROUGHPUT),
        ("2k", "8=15800", "rows", ErrorCode.SERIES_COUNT),
        ("2k", "8=15800\n16 31000", "rows", ErrorCode.SERIES_STRAY_WORD),
        ("2k", "8=15800\n1=2000", "rows", ErrorCode.OUT_OF_RANGE),
        ("2,000", "8=15.800\n16=31000", "rows", ErrorCode.AMBIGUOUS_NUMBER),
        ("2.000", "8=15800\n16=31000", "throughput", ErrorCode.AMBIGUOUS_NUMBER),
        ("abc", "8=15800\n16=31000", "throughput", ErrorCode.NOT_A_NUMBER),
    ],
)
def test_the_forms_errors_go_under_their_field(throughput, rows, field, code):
    from bot.reader.series_syntax import SeriesFieldErrors

    with pytest.raises(SeriesFieldErrors) as caught:
        parse_series_fields(throughput, rows, Recipient.parse("en-US"))
    assert list(caught.value.errors) == [field]
    assert caught.value.errors[field].code is code


def test_a_series_written_in_the_readers_own_format_reads_back_to_its_values():
    """Every figure written as dpscale writes it for the reader (grouped, with decimals) reads back silently, in
    every Slack locale; most examples reach grouped figures."""
    seen: Counter[str] = Counter()

    @settings(max_examples=examples(200), deadline=None)
    @given(
        tag=st.sampled_from(SLACK_LOCALES),
        throughput=st.decimals(min_value=D("0.01"), max_value=D("1e6"), places=2),
        sizes=st.lists(st.integers(min_value=2, max_value=100_000), min_size=2, max_size=12, unique=True),
        share=st.decimals(min_value=D("0.05"), max_value=D("1"), places=4),
    )
    def check(tag, throughput, sizes, share):
        words = Wording(Recipient.parse(tag))
        pairs = [(D(d), (D(d) * throughput * share).quantize(D("0.01"))) for d in sizes]
        assume(all(a > 0 for _, a in pairs))
        text = " ".join([f"v={words.number(throughput)}"]
                        + [f"{words.number(d, 0)}={words.number(a)}" for d, a in pairs])
        command = read(text, tag)
        assert values(command) == {"v": throughput, "pairs": sorted(pairs)} and command.notes == ()
        kind = "grouped" if any(a >= 1000 for _, a in pairs) else "ungrouped"
        event(kind)
        seen[kind] += 1

    check()
    assert seen["grouped"] > seen["ungrouped"]


@pytest.mark.parametrize("tag", SLACK_LOCALES)
def test_three_decimals_after_the_readers_own_decimal_mark_are_asked_about_in_every_locale(tag):
    """`8=15,800` from a German user, `8=15.800` from a Japanese one: another Slack locale reads 15 800."""
    decimal = Wording(Recipient.parse(tag)).number(D("1.5"))[1]
    with pytest.raises(UserInputError) as caught:
        read(f"v=2000 8=15{decimal}800 16=31000", tag)
    assert caught.value.code is ErrorCode.AMBIGUOUS_NUMBER and caught.value.pair == f"8=15{decimal}800"
    assert caught.value.readings == (D("15.8"), D(15800))


@pytest.mark.parametrize(("text", "pair"), [("v=2000 1.000=2000 8=15800 16=31000", "1.000=2000"),
                                            ("v=2000 8=15800 16=31000 1.000=900000", "1.000=900000")])
def test_a_size_a_thousand_times_apart_is_asked_about_in_a_series_as_in_a_command(text, pair):
    """`1.000` devices from an English user: 1 or 1000, both whole, so asked, by the same bounds as a command's
    devices, the question naming the measurement it is in."""
    from bot.reader.parsing import parse_command

    with pytest.raises(UserInputError) as in_a_command:
        parse_command("1.000 2000 90%", Recipient.parse("en-US"))
    with pytest.raises(UserInputError) as in_a_series:
        read(text, "en-US")
    for error in (in_a_command.value, in_a_series.value):
        assert (error.code, error.quantity, set(error.readings)) == (ErrorCode.AMBIGUOUS_NUMBER, "devices",
                                                                     {D(1), D(1000)})
    assert in_a_series.value.pair == pair


def test_a_figure_written_as_dpscale_writes_it_is_doubted_by_a_later_number_of_the_series():
    """`8=1,234` reads as 1234 for an English user, until `0,9` later in the series shows a comma decimal mark:
    each number is read once, with the evidence of the whole series."""
    with pytest.raises(UserInputError) as raised:
        read("v=2000 8=1,234 16=31000 64=0,9", "en-US")
    assert (raised.value.code, raised.value.pair, set(raised.value.readings)) == (
        ErrorCode.AMBIGUOUS_NUMBER, "8=1,234", {D("1.234"), D(1234)})
    assert values(read("v=2000 8=1,234 16=31000 64=9", "en-US"))["pairs"][0] == (D(8), D(1234))


@pytest.mark.parametrize(("tag", "text"), [
    ("fr-FR", "série v=2000 8=15800 16=31000 a=64"),  # à= typed without its accent, as French keyboards tempt
    ("fr-FR", "série v=2000 8=15800 16=31000 à=64"),
    ("it-IT", "serie v=2000 8=15800 16=31000 prev=64"),
    ("it-IT", "serie v=2000 8=15800 16=31000 previsione=64"),
])
def test_a_french_a_and_an_italian_prev_beside_a_series_ask_for_the_forecast(tag, text):
    """`a=64` beside a series was "a=64 n'est pas une mesure", `prev=64` "Non riconosco prev=64"."""
    assert read(text, tag).at.value == 64


def test_a_beside_a_series_is_the_forecast_only_for_a_reader_whose_forecast_word_it_is():
    """An English `a=` is the actual throughput; beside a series it is still no forecast for an English reader."""
    with pytest.raises(UserInputError) as raised:
        read("series v=2000 8=15800 16=31000 a=64", "en-US")
    assert raised.value.code is ErrorCode.SERIES_STRAY_WORD


def test_a_french_a_outside_a_series_is_still_the_actual_throughput():
    command = parse_command("64 2 000 a=115 200", Recipient.parse("fr-FR"))
    assert command.values[Quantity.ACTUAL] == 115200
