"""Properties over many values and arbitrary text: numbers round-trip through Babel, and no input escapes."""

from decimal import Decimal

from babel.numbers import format_decimal
from babel.numbers import format_percent as babel_format_percent
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from blockkit import assert_no_broadcast, assert_within_limits
from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.numbers import (
    _parse_in,
    babel_parse,
    format_number,
    format_percent,
    number_style,
    read_number,
    resolve_locale,
    uses_space_grouping,
)
from bot.parsing import parse_command

LOCALES = ["de-DE", "en-US", "en-GB", "fr-FR", "es-ES", "es-LA", "pt-BR", "it-IT", "ja-JP", "ko-KR", "zh-CN", "zh-TW"]
values = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("1e12"), places=2, allow_nan=False)


@given(value=values, locale=st.sampled_from(LOCALES))
def test_a_number_babel_writes_in_a_locale_reads_back_equal(value, locale):
    cldr = resolve_locale(locale)
    assert read_number(format_decimal(value, locale=cldr), cldr).value == value


@given(
    devices=st.integers(min_value=1, max_value=100_000),
    throughput=values,
    percent=st.integers(min_value=1, max_value=100),
    locale=st.sampled_from(LOCALES),
)
def test_a_command_written_in_the_users_format_reads_back_exactly(devices, throughput, percent, locale):
    """Read back equal, or, only where spaces both group digits and separate numbers, asked to disambiguate."""
    cldr = resolve_locale(locale)
    text = f"{format_decimal(devices, locale=cldr)} {format_decimal(throughput, locale=cldr)} {percent}%"
    try:
        command = parse_command(text, cldr)
    except UserInputError as error:
        assert error.code is ErrorCode.AMBIGUOUS_GROUPING and uses_space_grouping(cldr)
        return
    assert list(command.values.values()) == [devices, throughput, Decimal(percent) / 100]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=120), locale=st.sampled_from(LOCALES))
def test_only_the_users_error_can_come_out_of_parsing(text, locale):
    try:
        parse_command(text, resolve_locale(locale))
    except UserInputError:
        pass


tokens = st.one_of(
    st.from_regex(r"[0-9][0-9.,' ]{0,12}[%kMG]?", fullmatch=True),
    st.sampled_from(["<!channel>", "<!here>", "<@U123>", "&lt;!everyone&gt;", "lang=de", "actual=", "e=", "%", "help"]),
    st.text(max_size=8),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(tokens, max_size=6), locale=st.sampled_from(LOCALES))
def test_every_reply_to_any_text_stays_inside_block_kit_limits_and_pings_no_one(words, locale):
    reply = answer(" ".join(words), resolve_locale(locale))
    assert_within_limits(reply.blocks)
    assert_no_broadcast({"text": reply.text, "blocks": reply.blocks})


FORMAT_LOCALES = [*LOCALES, "de-CH", "hi-IN", "pl-PL", "sv-SE", "nb-NO", "ru-RU", "ar-EG", "tr-TR", "nl-NL", "da-DK"]


@given(
    value=st.decimals(min_value=Decimal("-1e15"), max_value=Decimal("1e15"), places=6, allow_nan=False),
    digits=st.integers(min_value=0, max_value=6),
    locale=st.sampled_from(FORMAT_LOCALES),
)
def test_numbers_are_written_exactly_as_babel_writes_them(value, digits, locale):
    cldr = resolve_locale(locale)
    # Babel reads apostrophes in its output as pattern quotes and drops them from 1'000'000 (de-CH writes
    # 1000000 there): only values with at most one group mark can be compared for apostrophe-grouped locales.
    assume(number_style(cldr).group not in "'\u2019" or abs(value) < 999_999)
    integer_part = cldr.decimal_formats[None].pattern.split(";")[0].split(".")[0]  # e.g. #,##,##0 for hi-IN
    pattern = integer_part + ("." + "#" * digits if digits else "")
    assert format_number(value, cldr, max_fraction_digits=digits) == format_decimal(value, pattern, locale=cldr)


@given(
    fraction=st.decimals(min_value=Decimal("0.0001"), max_value=Decimal(1), places=6, allow_nan=False),
    locale=st.sampled_from(FORMAT_LOCALES),
)
def test_percentages_are_written_exactly_as_babel_writes_them(fraction, locale):
    cldr = resolve_locale(locale)
    pattern = cldr.percent_formats[None].pattern.replace("#,##0", "#,##0.##", 1)
    assert format_percent(fraction, cldr) == babel_format_percent(fraction, pattern, locale=cldr)


@given(value=values, locale=st.sampled_from(FORMAT_LOCALES))
def test_every_number_the_bot_writes_it_reads_back_equal(value, locale):
    cldr = resolve_locale(locale)
    assert read_number(format_number(value, cldr), cldr).value == value


SEPARATED = st.from_regex(r"[+-]?[0-9]{0,4}([.,' \u00a0\u202f’][0-9]{0,4}){0,3}", fullmatch=True)


@settings(max_examples=1500)
@given(text=SEPARATED, locale=st.sampled_from(FORMAT_LOCALES))
def test_reading_a_number_agrees_with_babels_strict_parser(text, locale):
    """The direct reading of canonical shapes never differs from what Babel's strict parser says."""
    style = number_style(resolve_locale(locale))
    marks = style.group_marks
    normalised = "".join(style.group if c in marks else c for c in text)
    if any(c in " \u00a0\u202f'’" for c in normalised.replace(style.group, "")):
        return
    assert _parse_in(text, style) == babel_parse(normalised, style)
