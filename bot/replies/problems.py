"""What a user's mistake looks like to them (what was wrong, how to write it), and the apology for ours."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache
from string import Formatter

from bot.errors import MENTION, ErrorCode, UserInputError
from bot.model.calculator import Quantity
from bot.reader.grammar import Doubt
from bot.reader.grouping import KEYED
from bot.reader.keywords import word_list
from bot.reader.languages import LANGUAGES
from bot.reader.numbers import SPACES
from bot.reader.recipient import Recipient, RecipientLike, as_recipient
from bot.replies.blocks import Reply, ReplyKind, code, context, section, warning
from bot.replies.guide import SERIES_EXAMPLE, command_words, forecast_word, series_example, series_word, usage_line
from bot.replies.quantity_names import quantity_name
from bot.replies.readings import ask_reason, options, padded, written_readings
from bot.replies.series_problems import SERIES_CODES, describe_series_error, in_measurement
from bot.replies.wording import EXAMPLE, Wording, wording_for

# rules about a value's size: the message says the rule, so the value the user typed goes in front of it
_RULES_WITHOUT_TOKEN = frozenset({ErrorCode.OUT_OF_RANGE, ErrorCode.DEVICES_NOT_WHOLE, ErrorCode.ACTUAL_ABOVE_IDEAL})
QUANTITY_NAMES = frozenset(Quantity)  # an error's `quantity` that names one of the four values


def build_error_reply(error: UserInputError, recipient: RecipientLike) -> Reply:
    """A localized message that names what was wrong and how to write it, with the usage line (written for
    both formats after a `lang=` word, as `describe_error` is)."""
    recipient = as_recipient(recipient)
    message = describe_error(error, recipient)
    usage = usage_line(recipient, recipient.second_format is not None)
    blocks = [section(":warning: " + message), context([usage])]
    return Reply(text=message, blocks=blocks, kind=ReplyKind.ERROR, locale=str(recipient))


def build_failure_reply(recipient: Recipient) -> Reply:
    """The short apology for an unexpected failure: it never says what the exception was."""
    return warning(wording_for(recipient).gettext("Sorry, something went wrong on our side. Please try again in a moment."))


def describe_error(error: UserInputError, recipient: RecipientLike) -> str:
    """One sentence (or two) saying what is wrong and how to write it, in the reader's language; where a `lang=`
    word chose a format that reads numbers otherwise than the user's own, its examples read alike in both."""
    recipient = as_recipient(recipient)
    # a measurement series (`bot.replies.series_problems`): its own errors, and the measurement a number is in
    if error.code in SERIES_CODES:
        return describe_series_error(error, wording_for(recipient))
    own = recipient.second_format
    return in_measurement(error, _describe_number_error(error, recipient, own), wording_for(recipient))


def _describe_number_error(error: UserInputError, recipient: Recipient, own: Recipient | None = None) -> str:
    words = wording_for(recipient)
    token = code(error.token) if error.token is not None else ""
    written = written_readings(error, words)
    zero = padded(error, words, written)  # `1.2340` offered beside `1234`: the sentence says what the zero is for
    template = _template(error, words, bool(zero))
    fields: dict[str, Callable[[], object]] = {  # each worked out only where the sentence has its place
        "token": lambda: token,
        "quantity": lambda: quantity_name(error.quantity, words),
        "limit": lambda: error.high or "",
        "keys": lambda: code(command_words(words)),
        "example": lambda: _example(error, words, words.plain if own is not None else words.number),
        "options": lambda: options(error, words, written),
        "hundred": lambda: words.hundred,
        "fraction": lambda: code(words.number(Decimal("0.9"))),
        "grouped": lambda: code(words.number(Decimal(2000))),
        "low": lambda: _bound(error.quantity, error.low, words),
        "high": lambda: _bound(error.quantity, error.high, words),
        "rate": lambda: words.rate(_bound(error.quantity, error.high, words)),  # the ideal throughput it exceeds
    }
    wanted = {name for _, name, _, _ in Formatter().parse(template) if name}
    message = template.format(**zero, **{name: fields[name]() for name in wanted if name in fields})
    if error.value is not None:  # a solved value: what it came out at, and the input it came from
        return words.sentences(message, _solved_sentence(error.quantity, Decimal(error.value), token, words))
    if error.code in _RULES_WITHOUT_TOKEN and error.token is not None:
        return words.gettext("{message} You wrote {token}.").format(token=token, message=message)
    if error.code is ErrorCode.AMBIGUOUS_NUMBER and error.reason:
        return words.sentences(message, ask_reason(error.reason, words))
    return message


def _number_templates(words: Wording) -> dict[ErrorCode, str]:
    """What is wrong with one number as typed."""
    _ = words.gettext
    return {
        ErrorCode.NOT_A_NUMBER: _("{token} is not a number I can read. Write numbers like {example}."),
        ErrorCode.NOT_PLAIN_DIGITS: _(
            "{token} has characters that only look like digits (superscripts, fractions, or circled numbers). "
            "Write the number with the digits 0 to 9, like {example}."
        ),
        ErrorCode.AMBIGUOUS_NUMBER: _(
            "{token} is ambiguous. Write {options} instead: either one reads the same in every number format."
        ),
        ErrorCode.AMBIGUOUS_GROUPING: _(
            "In {token}, I can't tell where one number ends and the next begins. Write numbers without spaces, "
            "like {example}."
        ),
        ErrorCode.UNKNOWN_SUFFIX: _(
            "{token} has a suffix I don't recognize; use k (thousand), M (million), or G (billion)."
        ),
    }


def _solved_sentence(quantity: str | None, value: Decimal, token: str, words: Wording) -> str:
    """What a refused solved value came out at: a number of devices said as one (`you would need 6,000,000
    devices`), any other value as a figure."""
    written = _solved_value(quantity, value, words)
    # the value it came from is always the actual throughput (`bot.engine.calculate`), named so: its token is only
    # the number, `1` for `actual=1`
    if quantity == Quantity.DEVICES.value:
        return words.ngettext("With an actual throughput of {token}, you would need {value} device.",
                              "With an actual throughput of {token}, you would need {value} devices.",
                              int(value)).format(token=token, value=written)
    return words.gettext("With an actual throughput of {token}, it would come out to {value}.").format(
        token=token, value=written)


def _solved_value(quantity: str | None, value: Decimal, words: Wording) -> str:
    """A solved value shown with enough digits that it is never mistaken for a bound (0.0099 %, not 0.01 %)."""
    if quantity == Quantity.EFFICIENCY.value:
        percent = value * 100
        return words.percent(value, max(2, 2 - percent.adjusted()) if percent else 2)
    if quantity == Quantity.DEVICES.value:
        return words.number(value, 0)
    return words.number(value)


def _template(error: UserInputError, words: Wording, zero: bool = False) -> str:
    _ = words.gettext
    if error.reason == MENTION:
        return _("{token} is a mention, and a command can contain only numbers and the words {keys}. Mention people "
                 "outside the command.")
    if error.code is ErrorCode.AMBIGUOUS_NUMBER and zero:
        return _("{token} is ambiguous. Write {options} instead: either one reads the same in every number format (the "
                 "final zero keeps {padded} from being read as {other}).")
    if error.code is ErrorCode.UNCLEAR_EFFICIENCY and zero:
        return _("{token} is more than 1, so it cannot be a fraction, and a percentage below {low} needs its "
                 "percent sign. For a percentage, write {options} (the final zero keeps it from being read as "
                 "{other}); for a fraction, something like {fraction}.")
    if error.rule == Doubt.COUNT_OF_NODES:  # `8 nodes`: how many devices is not said
        return _("{token}: a node usually holds several devices, so the number of devices is unclear. Give the number "
                 "of devices and one device's throughput, like {example}, or the number of nodes and the throughput "
                 "per node.")
    if error.code is ErrorCode.AMBIGUOUS_GROUPING and _grouped_by_spaces(words):  # as the help writes 2 000
        return _("In {token}, I can't tell where one number ends and the next begins. Group digits in threes, "
                 "like {grouped}, or write numbers without spaces, like {example}.")
    if error.code is ErrorCode.OUT_OF_RANGE:
        if error.quantity == Quantity.EFFICIENCY.value:  # its own entry: a percentage's range takes articles
            return _("The scaling efficiency must be between {low} and {high}.")
        if error.low not in (None, "0"):
            return _("{quantity} must be between {low} and {high}.")
        return _("{quantity} must be more than 0 and at most {high}.")
    return _templates(words)[error.code]


@lru_cache(maxsize=64)
def _templates(words: Wording) -> dict[ErrorCode, str]:
    _ = words.gettext
    return {
        ErrorCode.TOO_LONG: _("That's too long: a command can have at most {limit} characters."),
        ErrorCode.UNKNOWN_WORD: _("I don't recognize {token}. Use numbers, or the words {keys}."),
        **_number_templates(words),
        ErrorCode.TOO_MANY_NUMBERS: _(
            "Too many numbers: devices, throughput, and efficiency are already given, so {token} is one too many."
        ),
        ErrorCode.DUPLICATE_QUANTITY: _("{quantity} is given twice ({token}). Give each value once."),
        ErrorCode.MISSING_VALUE: _("{token} has no value after it; add one, for example {example}."),
        ErrorCode.NOT_ENOUGH_QUANTITIES: _(
            "Give any three of the four values (devices, per-device throughput, efficiency, actual throughput); "
            "dpscale works out the fourth."
        ),
        ErrorCode.TOO_MANY_QUANTITIES: _(
            "All four values are given; leave one out (devices, per-device throughput, efficiency, or actual "
            "throughput) and dpscale works it out."
        ),
        ErrorCode.DEVICES_NOT_WHOLE: _("The number of devices must be a whole number, such as {example}."),
        ErrorCode.PERCENT_NOT_ALLOWED: _(
            "{token}: only the efficiency can be a percentage. {quantity} is a plain number."
        ),
        ErrorCode.ACTUAL_ABOVE_IDEAL: _(
            "The actual throughput cannot exceed the ideal throughput ({rate}): efficiency would be above {hundred}."
        ),
        **_word_templates(words),
    }


def _word_templates(words: Wording) -> dict[ErrorCode, str]:
    """What is wrong with a word of the command or what it names: a language, a unit, a forecast outside a series, a
    number no unit places, an efficiency that no reading makes one."""
    _ = words.gettext
    return {
        ErrorCode.UNKNOWN_LOCALE: _("{token} is not a language I recognize; use a language code, such as {example}."),
        ErrorCode.UNKNOWN_UNIT: _(
            "I don't recognize the unit {token}. I expect a device count, a per-device throughput (such as "
            "samples/s), and an efficiency, as in {example}."
        ),
        ErrorCode.UNPLACED_NUMBER: _(
            "I can't tell what {token} stands for: write {options}, or name each number with a unit, like {example}."
        ),
        ErrorCode.FORECAST_WITHOUT_SERIES: _(
            "{token} asks for a forecast, and a forecast needs a measurement series: the throughput of one device "
            "and the cluster throughput at two or more sizes, such as {example}."
        ),
        ErrorCode.UNCLEAR_EFFICIENCY: _(
            "{token} is more than 1, so it cannot be a fraction, and a percentage below {low} needs its percent "
            "sign. For a percentage, write {options}; for a fraction, something like {fraction}."
        ),
    }


def _example(error: UserInputError, words: Wording, number: Callable[[Decimal], str]) -> str:
    """What to write instead, as code: for the value the error is about, where it is one of the four, with
    `number` (grouped, or not where two formats read the command)."""
    if error.code is ErrorCode.UNKNOWN_LOCALE:  # a language alone, or with its region: what `lang=` reads
        return _listed(words, "de", "de-DE")
    if error.code is ErrorCode.DEVICES_NOT_WHOLE:
        return code(words.number(EXAMPLE[0], 0))
    if error.code is ErrorCode.AMBIGUOUS_GROUPING:  # the advice is "no spaces inside": so is the example
        if error.quantity == Quantity.EFFICIENCY.value:  # which number a `%` between two belongs to
            return _listed(words, words.plain(Decimal("2000")), _unspaced(words.percent(EXAMPLE[2])))
        return _listed(words, words.plain(Decimal("2000")), words.plain(Decimal("0.9")))
    if error.code in (ErrorCode.UNKNOWN_UNIT, ErrorCode.UNPLACED_NUMBER):  # every value named by its unit
        count = LANGUAGES[word_list(str(words.language))].example_count.format(words.number(EXAMPLE[0], 0))
        return code(f"{count} {words.rate(words.number(EXAMPLE[1]))} "  # in the reader's own words: `64 GPU`, `64台`
                    f"{words.percent(EXAMPLE[2])}")  # and the rate in its unit words: `muestras/s`
    if error.code is ErrorCode.FORECAST_WITHOUT_SERIES:  # a series in the reader's words, with the size asked for
        size = (error.token or "").partition("=")[2].strip()
        return code(f"/dpscale {series_word(words)} {series_example(words, number == words.plain)} "
                    f"{forecast_word(words)}={size if size.isdecimal() else words.number(Decimal(128), 0)}")
    if error.code is ErrorCode.MISSING_VALUE:
        keyed = KEYED.match(error.token or "")  # `efficiency=` or `efficiency=%`: `efficiency`
        key = keyed.group(1) if keyed else error.token or ""
        if key.isdecimal():  # a cluster size of a series (`16=`): its throughput, as the series' example has it
            return code(f"{key}={number(_series_value(int(key)))}")
        return code(f"{key}={_example_value(error.quantity, words, number) if error.quantity else 'de-DE'}")
    size = (error.pair or "").partition("=")[0]
    if size.isdecimal() and error.quantity == Quantity.ACTUAL.value:  # a cluster size's throughput (`16=31,000`)
        return code(number(_series_value(int(size))))
    if error.quantity in QUANTITY_NAMES:  # a number for one value: an example that fits it (`64` devices)
        return code(_example_value(error.quantity, words, number))
    return _listed(words, number(Decimal("2000")), number(Decimal("0.9")))


def _series_value(size: int) -> Decimal:
    """A cluster throughput for `size` devices: the series example's (`16=31,000`), else one at 90 % efficiency."""
    return SERIES_EXAMPLE.get(size, size * EXAMPLE[1] * EXAMPLE[2])


def _grouped_by_spaces(words: Wording) -> bool:
    """Whether the reader's format groups digits with a space (`2 000`), as its help says it writes numbers."""
    return any(mark in SPACES for mark in words.number(Decimal(2000)))


def _listed(words: Wording, *examples: str) -> str:
    """Examples as code, joined by the language's "or" (`2000` ou `0,9`: never a list comma beside a decimal one)."""
    return words.alternatives([code(example) for example in examples])


def _unspaced(text: str) -> str:
    return "".join(text.split())


def _example_value(quantity: str, words: Wording, number: Callable[[Decimal], str]) -> str:
    """The source document's value of `quantity`, as `number` writes it: `90 %` for an efficiency."""
    if quantity == Quantity.EFFICIENCY.value:
        return words.percent(EXAMPLE[2])
    if quantity == Quantity.DEVICES.value:
        return words.number(EXAMPLE[0], 0)
    if quantity == Quantity.ACTUAL.value:
        return number(EXAMPLE[0] * EXAMPLE[1] * EXAMPLE[2])
    return number(EXAMPLE[1])


def _bound(quantity: str | None, value: str | None, words: Wording) -> str:
    if value is None:
        return ""
    number = Decimal(value)
    if quantity == Quantity.EFFICIENCY.value:
        return words.percent(number, 2)
    return words.number(number, 2)
