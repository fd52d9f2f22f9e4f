"""Properties over many values, every locale and arbitrary text: a reply's figures read back silently, no two
locales' readings are ever mixed up without a question, and no input escapes."""

from collections import Counter
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext

from babel.numbers import format_decimal
from babel.numbers import format_percent as babel_format_percent
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from blockkit import assert_no_broadcast, assert_within_limits
from bot.engine import answer
from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import Quantity, make_scenario, solve
from bot.reader.numbers import (
    NEIGHBOUR_LOCALES,
    SLACK_LOCALES,
    SPACES,
    cldr_style,
    exact_decimals,
    number_style,
    resolve_locale,
    write_number,
    write_percent,
)
from bot.reader.parsing import parse_command
from bot.reader.reading import read_number, reader_for, slack_styles
from bot.reader.recipient import Recipient
from bot.replies.result import Figures
from bot.replies.wording import Wording
from examples import examples

LOCALES = [*SLACK_LOCALES, *NEIGHBOUR_LOCALES]
# every reader a reply is written for: each locale's own user, a channel, and a user whose locale is unknown
READERS = [*LOCALES, *(f"{tag}@channel" for tag in LOCALES), "en-US@unknown", "de-DE@unknown", "ja-JP@unknown"]
values = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("1e12"), places=2, allow_nan=False)


def scenario(mode: Quantity, devices: int, throughput: Decimal, percent: Decimal):
    given_values = {"devices": Decimal(devices), "throughput": throughput, "efficiency": percent / 100}
    if mode is not Quantity.ACTUAL:
        given_values["actual"] = Decimal(devices) * throughput * percent / 100
        del given_values[mode.value]
    return solve(make_scenario(**given_values))


def spaced(text: str) -> str:
    return "".join(" " if c in SPACES else c for c in text).replace(" %", "%").replace("% ", "%")


def test_every_figure_of_a_reply_pasted_back_reads_to_the_same_value_without_a_note():
    seen: Counter[str] = Counter()

    @settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        mode=st.sampled_from(list(Quantity)),
        devices=st.integers(min_value=1, max_value=200_000),
        throughput=st.decimals(min_value=Decimal("0.01"), max_value=Decimal("1e7"), places=3, allow_nan=False),
        percent=st.decimals(min_value=Decimal("0.5"), max_value=Decimal(100), places=2, allow_nan=False),
        tag=st.sampled_from(READERS),
    )
    def check(mode, devices, throughput, percent, tag):
        locale = Recipient.parse(tag)
        result = scenario(mode, devices, throughput, percent)
        words = Wording(locale)
        figures = Figures.of(result, words)
        key = words.key
        d, v, e, a = Quantity
        texts = [
            f"{key(d)}{figures.devices} {key(v)}{figures.throughput} {key(e)}{figures.efficiency}",
            f"{key(d)}{figures.devices} {key(v)}{figures.throughput} {key(a)}{figures.actual}",
            f"{key(d)}{figures.devices} {key(v)}{figures.throughput} {key(e)}{figures.efficiency_fraction}",
        ]
        for text in texts:
            command = parse_command(text, locale)
            assert command.notes == () or all(n.bare_one for n in command.notes), (tag, text, command.notes)
            for quantity, token in command.tokens.items():
                value = command.values[quantity]
                percent = quantity is e and "%" in token
                # read back, and written again, it is the very same text: the value did not change
                rewritten = words.percent(value, 8) if percent else words.number(value, 8)
                assert spaced(rewritten) == spaced(token), (tag, text, rewritten)
        separators = {c for c in figures.throughput + figures.actual if not c.isdigit()}
        kind = "grouped or decimal" if separators else "plain digits"
        event(kind)
        seen[kind] += 1
        if locale.shared:
            seen["channel or unknown"] += 1

    check()
    total = sum(seen[k] for k in ("grouped or decimal", "plain digits"))
    assert seen["grouped or decimal"] / total > 0.8  # the examples reach the separators, not only plain digits
    assert seen["channel or unknown"] / total > 0.3


def written_in(style_tag: str, value: Decimal, digits: int) -> str:
    locale = resolve_locale(style_tag)
    style = cldr_style(locale)
    integer = locale.decimal_formats[None].pattern.split(";")[0].split(".")[0]
    text = format_decimal(value, integer + ("." + "0" * digits if digits else ""), locale=locale)
    return text.replace("'", style.group) if style.group in "'\u2019" else text


def test_a_number_two_locales_read_differently_is_never_computed_under_the_wrong_one_without_a_question():
    """A user of locale A types a number as locale B writes it. Whatever A makes of it, the value computed is A's
    own reading (or, when A cannot read it, the one reading anyone has, with a note); where A and a Slack locale
    read it differently, that happens only for the form dpscale itself writes for A; otherwise A is asked, and
    the question offers B's value."""
    seen: Counter[str] = Counter()
    slack_keys = {style.key for style in slack_styles()}

    @settings(max_examples=examples(2500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        value=st.one_of(
            st.integers(min_value=1000, max_value=9_999_999).map(Decimal),
            st.decimals(min_value=Decimal(1), max_value=Decimal(999_999), places=3, allow_nan=False),
        ),
        digits=st.sampled_from([0, 1, 2, 3]),
        writer=st.sampled_from(LOCALES),
        user=st.sampled_from([*LOCALES, "en-US@unknown"]),
    )
    def check(value, digits, writer, user):
        token = written_in(writer, value, digits)
        meant = Decimal(format_decimal(value, "0" + ("." + "0" * digits if digits else ""), locale="en_US"))
        reader = reader_for(Recipient.parse(user))
        own = reader.values(token)
        others = {s.read(token) for s in slack_styles()} - {None}
        differ = bool(own) and bool(others - own)
        seen["read differently" if differ or meant not in own else "read alike"] += 1
        try:
            reading = read_number(token, Recipient.parse(user))
        except UserInputError as error:
            assert error.code is ErrorCode.AMBIGUOUS_NUMBER, (user, token, error)
            if cldr_style(resolve_locale(writer)).key in slack_keys or meant in (others | own):
                assert meant in error.readings, (user, token, error.readings)
            seen["asked"] += 1
            return
        if reading.kind is None:
            assert own == {reading.value}, (user, token, reading)  # silently: only ever the user's own reading
            if others - own:
                assert reader.is_house_form(token, reading.value), (user, token, reading, others)
                seen["house form"] += 1
        else:
            assert not own and reading.value == meant, (user, token, reading)  # the only reading anyone has
            seen["noted"] += 1

    check()
    total = seen["read differently"] + seen["read alike"]
    assert seen["read differently"] / total > 0.3, seen  # most examples reach the disagreement, not the easy case
    assert seen["asked"] / total > 0.05, seen
    assert seen["house form"] > 0 and seen["noted"] > 0, seen


@given(
    devices=st.integers(min_value=1, max_value=100_000),
    throughput=values,
    percent=st.integers(min_value=1, max_value=100),
    locale=st.sampled_from([*LOCALES, "en-US@unknown"]),
)
def test_a_command_written_as_dpscale_writes_for_the_user_reads_back_exactly(devices, throughput, percent, locale):
    """Read back equal, or, only where spaces both group digits and separate numbers, asked to disambiguate."""
    cldr = Recipient.parse(locale)
    words = Wording(cldr)
    text = f"{words.number(Decimal(devices), 0)} {words.number(throughput)} {words.percent(Decimal(percent) / 100)}"
    try:
        command = parse_command(text, cldr)
    except UserInputError as error:
        assert error.code is ErrorCode.AMBIGUOUS_GROUPING, (text, error)
        assert " " in text.replace("\u202f", " ").replace("\u00a0", " ")
        return
    assert list(command.values.values()) == [devices, throughput, Decimal(percent) / 100]
    assert command.notes == ()


@given(
    devices=st.integers(min_value=1, max_value=100_000),
    throughput=values,
    actual=values,
    locale=st.sampled_from(READERS),
)
def test_the_groups_after_a_named_value_are_its_own(devices, throughput, actual, locale):
    """`64 500 a=28 800` (a French reply's figures pasted back): `800` belongs to `a=`, and only a doubt about the
    unnamed numbers (`1 200 300`: one device at 200 300, or 1 200 at 300) can make the user rewrite them."""
    cldr = Recipient.parse(locale)
    words = Wording(cldr)
    text = f"{words.number(Decimal(devices), 0)} {words.number(throughput)} a={words.number(actual)}"
    event("grouped" if " " in text.replace("\u202f", " ").replace("\u00a0", " ").split("a=")[1] else "plain")
    try:
        command = parse_command(text, cldr)
    except UserInputError as error:
        assert error.code is ErrorCode.AMBIGUOUS_GROUPING and "=" not in error.token, (text, error)
        return
    assert list(command.values.values()) == [devices, throughput, actual], text


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=120), locale=st.sampled_from(READERS))
def test_only_the_users_error_can_come_out_of_parsing(text, locale):
    try:
        parse_command(text, Recipient.parse(locale))
    except UserInputError:
        pass


tokens = st.one_of(
    st.from_regex(r"[0-9][0-9.,' ]{0,12}[%kMG]?", fullmatch=True),
    st.sampled_from(["<!channel>", "<!here>", "<@U123>", "&lt;!everyone&gt;", "lang=de", "actual=", "e=", "%", "help",
                     "10³", "½", "①", "٪90", "%90", "６４", "効率＝", "实际吞吐量="]),
    st.text(max_size=8),
)


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(tokens, max_size=6), locale=st.sampled_from(READERS))
def test_every_reply_to_any_text_stays_inside_block_kit_limits_and_pings_no_one(words, locale):
    reply = answer(" ".join(words), Recipient.parse(locale))
    assert_within_limits(reply.blocks)
    assert_no_broadcast({"text": reply.text, "blocks": reply.blocks})
    assert "Traceback" not in reply.text


FORMAT_LOCALES = [tag for tag in LOCALES if tag != "es-LA"] + ["nb-NO", "ar-EG", "da-DK"]


def three_decimals_padded(text: str, decimal: str, value: Decimal) -> str:
    """dpscale never ends a number of one or more in exactly three decimals: it adds a zero."""
    integer, mark, fraction = text.rpartition(decimal)
    return text + "0" if mark and len(fraction) == 3 and abs(value) >= 1 else text


@given(
    value=st.decimals(min_value=Decimal("-1e15"), max_value=Decimal("1e15"), places=6, allow_nan=False),
    digits=st.integers(min_value=0, max_value=6),
    locale=st.sampled_from(FORMAT_LOCALES),
)
def test_numbers_are_written_as_babel_writes_them(value, digits, locale):
    cldr = resolve_locale(locale)
    # Babel reads apostrophes in its output as pattern quotes and drops them from 1'000'000 (de-CH writes
    # 1000000 there): only values with at most one group mark can be compared for apostrophe-grouped locales.
    assume(number_style(cldr).group not in "'\u2019" or abs(value) < 999_999)
    integer_part = cldr.decimal_formats[None].pattern.split(";")[0].split(".")[0]  # e.g. #,##,##0 for hi-IN
    pattern = integer_part + ("." + "#" * digits if digits else "")
    with localcontext(rounding=ROUND_HALF_UP):  # dpscale rounds a half up, as its readers do (78.125 % is 78.13 %)
        babel = format_decimal(value, pattern, locale=cldr)
    style = number_style(cldr)
    integer_digits = len(babel.lstrip("-").split(style.decimal)[0].replace(style.group, ""))
    if integer_digits < style.grouping[0] + style.min_grouping:  # CLDR's minimumGroupingDigits, which Babel ignores
        babel = babel.replace(style.group, "")
    written = write_number(value, style, digits)
    assert written == three_decimals_padded(babel, number_style(cldr).decimal, Decimal(written.replace(
        number_style(cldr).group, "").replace(number_style(cldr).decimal, ".")))


@given(
    value=st.decimals(allow_nan=False, allow_infinity=False),
    least=st.integers(min_value=0, max_value=10),
    most=st.integers(min_value=0, max_value=12),
)
def test_the_decimals_a_value_is_shown_with_are_the_ones_it_has(value, least, most):
    """Every decimal a given value has, and no more (within the bounds): the worked formula shows 0.78125 whole,
    and a value of more digits than Decimal's default precision keeps its last one (`normalize` in that precision
    would round 1000000000000000000000000000.5 to a whole number)."""
    exponent = value.normalize(Context(prec=1000)).as_tuple().exponent
    assert exact_decimals(value, least, most) == min(most, max(least, -exponent if exponent < 0 else 0))


@given(
    fraction=st.decimals(min_value=Decimal("0.0001"), max_value=Decimal(1), places=6, allow_nan=False),
    locale=st.sampled_from(FORMAT_LOCALES),
)
def test_percentages_are_written_exactly_as_babel_writes_them(fraction, locale):
    cldr = resolve_locale(locale)
    pattern = cldr.percent_formats[None].pattern.replace("#,##0", "#,##0.##", 1)
    with localcontext(rounding=ROUND_HALF_UP):
        babel = babel_format_percent(fraction, pattern, locale=cldr)
    assert write_percent(fraction, number_style(cldr)) == babel


@given(value=values, locale=st.sampled_from([*LOCALES, "en-US@unknown"]))
def test_every_number_the_bot_writes_it_reads_back_equal_and_silently(value, locale):
    for reader in (Recipient.parse(locale), Recipient.parse(locale).for_channel()):
        reading = read_number(write_number(value, reader.style), reader_for(reader))
        assert (reading.value, reading.kind) == (value, None)


@given(value=values, locale=st.sampled_from(LOCALES), reader=st.sampled_from([*LOCALES, "en-US@unknown"]))
def test_a_channel_message_is_misread_by_no_locale(value, locale, reader):
    """A figure in a shared result or a mention reply reads to the same value, or is asked about, for anyone."""
    written = write_number(value, number_style(resolve_locale(locale), True))
    try:
        reading = read_number(written, Recipient.parse(reader))
    except UserInputError as error:
        raise AssertionError((written, reader, error.readings)) from None
    assert reading.value == value, (written, reader)


def test_the_unknown_reader_writes_channel_safe_numbers():
    assert write_number(Decimal("115200.5"), number_style(resolve_locale("de-DE"), True)) == "115\u202f200,5"
