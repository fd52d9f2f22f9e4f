"""Every edge pinned where it starts: each quantity's bounds exactly at the limit as every reader writes and reads
them, the bare efficiency's and the long first group's thresholds, and the sizes of space-separated groups."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import MAX_ACTUAL, MAX_DEVICES, MAX_THROUGHPUT, MIN_EFFICIENCY, Quantity, make_scenario
from bot.reader.numbers import SLACK_LOCALES
from bot.reader.parsing import parse_command
from bot.reader.recipient import Recipient
from bot.replies.wording import Wording

DEV, THR, EFF, ACT = Quantity
CENT = D("0.01")
# every reader: each Slack locale's own user, a channel's (a mention's answer), and a user whose locale is unknown
READERS = [*SLACK_LOCALES, *(f"{tag}@channel" for tag in SLACK_LOCALES), "en-US@unknown", "de-DE@unknown"]
# (quantity, the limit, the smallest step past it, whether it is the upper bound)
LIMITS = [
    (DEV, D(1), D(1), False), (DEV, D(MAX_DEVICES), D(1), True),
    (THR, CENT, CENT, False), (THR, MAX_THROUGHPUT, CENT, True),
    (EFF, MIN_EFFICIENCY, D("0.000001"), False), (EFF, D(1), D("0.0001"), True),
    (ACT, CENT, CENT, False), (ACT, MAX_ACTUAL, CENT, True),
]


def locale_of(tag: str):
    return Recipient.parse(tag)


def command_for(quantity: Quantity, value: D, words: Wording) -> str:
    """A command naming three values, `quantity`'s written as `words` writes `value`, the others mid-range."""
    given = {DEV: D(64), THR: D(2000), EFF: D("0.9")}
    if quantity is ACT:
        del given[EFF]
    given[quantity] = value
    written = {q: words.percent(v, 6) if q is EFF else words.number(v, 0 if q is DEV else 6) for q, v in given.items()}
    return " ".join(f"{words.key(q)}{text}" for q, text in written.items())


@pytest.mark.parametrize("tag", READERS)
@pytest.mark.parametrize(("quantity", "limit", "step", "upper"), LIMITS,
                         ids=[f"{q.value}-{'max' if up else 'min'}" for q, _, _, up in LIMITS])
def test_each_bound_holds_exactly_at_its_limit_as_every_reader_writes_it(tag, quantity, limit, step, upper):
    """The limit itself is computed; one step past it is refused as out of range, naming the quantity; in every
    reader's format, as the reply would write it."""
    locale = locale_of(tag)
    words = Wording(locale)
    command = parse_command(command_for(quantity, limit, words), locale)
    assert command.values[quantity] == limit
    make_scenario(**command.values)
    past = limit + step if upper else limit - step
    if quantity is DEV and not upper:
        past = D(0)
    command = parse_command(command_for(quantity, past, words), locale)
    assert command.values[quantity] == past
    with pytest.raises(UserInputError) as refused:
        make_scenario(**command.values)
    assert (refused.value.code, refused.value.quantity) == (ErrorCode.OUT_OF_RANGE, quantity.value)


@pytest.mark.parametrize(
    ("text", "efficiency", "noted"),
    [("64 2000 1", D(1), True), ("64 2000 0.99", D("0.99"), False),
     ("64 2000 10", D("0.1"), True), ("64 2000 100", D(1), True)],
)
def test_a_bare_efficiency_reads_on_each_side_of_its_thresholds(text, efficiency, noted):
    command = parse_command(text, Recipient.parse("en-US"))
    assert command.values[EFF] == efficiency
    assert bool(command.notes) is noted


@pytest.mark.parametrize("bare", ["1.01", "9.99", "2", "9"])
def test_a_bare_efficiency_just_above_1_and_just_below_the_percentages_is_refused(bare):
    with pytest.raises(UserInputError) as refused:
        parse_command(f"64 2000 {bare}", Recipient.parse("en-US"))
    assert (refused.value.code, refused.value.token) == (ErrorCode.UNCLEAR_EFFICIENCY, bare)


@pytest.mark.parametrize(
    ("locale", "token", "asked", "value"),
    [
        # three digits before the mark: a group in the user's own format, read as dpscale writes it
        ("en-US", "999,000", False, D(999000)), ("de-DE", "999.000", False, D(999000)),
        # four before it: a first group too long to be one, and three after it: asked
        ("en-US", "1000,000", True, None), ("de-DE", "1000.000", True, None),
        # two or four after it: no format groups so, the one decimal reading with its note
        ("en-US", "1000,00", False, D(1000)), ("en-US", "1000,0000", False, D(1000)),
        ("de-DE", "1000.00", False, D(1000)),
    ],
)
def test_a_long_first_group_is_asked_about_exactly_where_its_readings_part(locale, token, asked, value):
    if asked:
        with pytest.raises(UserInputError) as raised:
            parse_command(f"64 {token} 90%", Recipient.parse(locale))
        assert raised.value.code is ErrorCode.AMBIGUOUS_NUMBER
        assert raised.value.readings[1] == raised.value.readings[0] * 1000
        return
    assert parse_command(f"64 {token} 90%", Recipient.parse(locale)).values[THR] == value


@pytest.mark.parametrize(
    ("text", "values", "token"),
    [
        ("64 2 000 90%", {DEV: D(64), THR: D(2000), EFF: D("0.9")}, None),  # a group of three continues
        ("100 000 2000 90%", {DEV: D(100000), THR: D(2000), EFF: D("0.9")}, None),  # after three digits too
        ("64 2 00 90%", None, "2 00"),  # two digits: no group, so one number too many, named
        ("64 2 0000 90%", None, "2 0000"),  # four digits: no group either
        ("1000 000 2000 90%", None, "1000 000"),  # a group only follows one to three digits
    ],
)
def test_space_separated_groups_join_only_at_their_sizes(text, values, token):
    if values is not None:
        assert parse_command(text, Recipient.parse("fr-FR")).values == values
        return
    with pytest.raises(UserInputError) as raised:
        parse_command(text, Recipient.parse("fr-FR"))
    assert (raised.value.code, raised.value.token) == (ErrorCode.AMBIGUOUS_GROUPING, token)


def test_the_ways_of_joining_groups_are_weighed_up_to_their_limit_and_no_further():
    """Up to ten groups of three (`bot.reader.grouping.MAX_GROUP_CHOICES`), every way of joining is weighed (and several
    fit: asked); past it, all are joined at once, so the command is short of a number."""
    limit = 10
    at_limit = "1 " + " ".join(["100"] * limit) + " 90%"
    with pytest.raises(UserInputError) as raised:
        parse_command(at_limit, Recipient.parse("en-US"))
    assert raised.value.code is ErrorCode.AMBIGUOUS_GROUPING
    past = parse_command("1 " + " ".join(["100"] * (limit + 1)) + " 90%", Recipient.parse("en-US"))
    assert len(past.values) == 2


@pytest.mark.parametrize("tag", READERS)
@pytest.mark.parametrize(("quantity", "limit", "step", "upper"), LIMITS,
                         ids=[f"{q.value}-{'max' if up else 'min'}" for q, _, _, up in LIMITS])
def test_each_bound_holds_exactly_at_its_limit_in_the_form_too(tag, quantity, limit, step, upper):
    """The form reads each field by the same rules: the limit is read and kept, one step past it is refused."""
    from bot.reader.parsing import parse_fields

    locale = locale_of(tag)
    words = Wording(locale)
    fields = {DEV: "64", THR: words.number(D(2000)), EFF: words.percent(D("0.9")), ACT: None}
    if quantity is ACT:
        fields[EFF] = None

    def written(value: D) -> str:
        return words.percent(value, 6) if quantity is EFF else words.number(value, 0 if quantity is DEV else 6)

    make_scenario(**parse_fields({**fields, quantity: written(limit)}, locale).values)
    past = (limit + step if upper else limit - step) if not (quantity is DEV and not upper) else D(0)
    command = parse_fields({**fields, quantity: written(past)}, locale)
    assert command.values[quantity] == past
    with pytest.raises(UserInputError) as refused:
        make_scenario(**command.values)
    assert (refused.value.code, refused.value.quantity) == (ErrorCode.OUT_OF_RANGE, quantity.value)
