"""What a user's mistake looks like to them (what was wrong, how to write it), and the apology for ours."""

from __future__ import annotations

from decimal import Decimal

from babel import Locale

from bot.calculator import Quantity
from bot.errors import ErrorCode, UserInputError
from bot.replies.blocks import Reply, ReplyKind, code, context, section, warning
from bot.replies.guide import usage_line
from bot.replies.wording import EXAMPLE, Wording

# rules about a value's size: the message says the rule, so the value the user typed goes in front of it
_RULES_WITHOUT_TOKEN = frozenset({ErrorCode.OUT_OF_RANGE, ErrorCode.DEVICES_NOT_WHOLE, ErrorCode.ACTUAL_ABOVE_IDEAL})


def build_error_reply(error: UserInputError, locale: Locale) -> Reply:
    """A localized message that names what was wrong and how to write it, with the usage line."""
    message = describe_error(error, locale)
    blocks = [section(":warning: " + message), context([usage_line(locale)])]
    return Reply(text=message, blocks=blocks, kind=ReplyKind.ERROR)


def build_failure_reply(locale: Locale) -> Reply:
    """The short apology for an unexpected failure: it never says what the exception was."""
    return warning(Wording(locale).gettext("Sorry, something went wrong on our side. Please try again in a moment."))


def describe_error(error: UserInputError, locale: Locale) -> str:
    """One sentence (or two) saying what is wrong and how to write it, in the reader's language."""
    words = Wording(locale)
    token = code(error.token) if error.token is not None else ""
    message = _template(error, words).format(
        token=token,
        quantity=_quantity_name(error.quantity, words),
        limit=error.high or "",
        keys=code("devices= throughput= efficiency= actual= lang="),
        example=_example(error, words),
        options=_options(error, words),
        low=_bound(error.quantity, error.low, words),
        high=_bound(error.quantity, error.high, words),
    )
    if error.value is not None:  # a solved value: what it came out at, and the input it came from
        solved = words.gettext("With {token} it comes out at {value}.").format(
            token=token, value=_solved_value(error.quantity, Decimal(error.value), words)
        )
        return f"{message} {solved}"
    if error.code in _RULES_WITHOUT_TOKEN and error.token is not None:
        return f"{token} — {message}"
    return message


def _solved_value(quantity: str | None, value: Decimal, words: Wording) -> str:
    """A solved value shown with enough digits that it is never mistaken for a bound (0.0099 %, not 0.01 %)."""
    if quantity == Quantity.EFFICIENCY.value:
        percent = value * 100
        return words.percent(value, max(2, 2 - percent.adjusted()) if percent else 2)
    if quantity == Quantity.DEVICES.value:
        return words.number(value, 0)
    return words.number(value)


def _template(error: UserInputError, words: Wording) -> str:
    _ = words.gettext
    if error.code is ErrorCode.OUT_OF_RANGE:
        if error.low not in (None, "0"):
            return _("{quantity} must be from {low} to {high}.")
        return _("{quantity} must be more than 0 and at most {high}.")
    templates = {
        ErrorCode.TOO_LONG: _("That is too long: a command may have at most {limit} characters."),
        ErrorCode.UNKNOWN_WORD: _("I don't know {token}. Use numbers, or the words {keys}."),
        ErrorCode.NOT_A_NUMBER: _("{token} is not a number I can read. Write numbers like {example}."),
        ErrorCode.AMBIGUOUS_NUMBER: _("{token} could mean {options}. Write it as one of those."),
        ErrorCode.AMBIGUOUS_GROUPING: _(
            "In {token} I can't tell where one number ends and the next begins. Write numbers without spaces "
            "inside them, like {example}."
        ),
        ErrorCode.UNKNOWN_SUFFIX: _(
            "{token} has a suffix I don't know; use k (thousand), M (million) or G (billion)."
        ),
        ErrorCode.TOO_MANY_NUMBERS: _(
            "Too many numbers: {token} is one more than devices, throughput and efficiency."
        ),
        ErrorCode.DUPLICATE_QUANTITY: _("{quantity} is given twice ({token}). Give each value once."),
        ErrorCode.MISSING_VALUE: _("{token} has no value after it; write it like {example}."),
        ErrorCode.NOT_ENOUGH_QUANTITIES: _(
            "Give three of devices, throughput, efficiency and actual; the fourth is solved."
        ),
        ErrorCode.TOO_MANY_QUANTITIES: _(
            "Give only three of devices, throughput, efficiency and actual; the fourth is solved."
        ),
        ErrorCode.DEVICES_NOT_WHOLE: _("Devices must be a whole number, such as {example}."),
        ErrorCode.PERCENT_NOT_ALLOWED: _(
            "{token}: only the efficiency can be a percentage; {quantity} is a plain number."
        ),
        ErrorCode.ACTUAL_ABOVE_IDEAL: _(
            "The actual throughput cannot exceed the ideal one ({high}): efficiency would be above 100%."
        ),
        ErrorCode.UNKNOWN_LOCALE: _("{token} is not a language I know; use a tag like {example}."),
    }
    return templates[error.code]


def _options(error: UserInputError, words: Wording) -> str:
    if not error.suggestions:
        return ""
    first, second = error.suggestions[0], error.suggestions[-1]
    return words.gettext("{first} or {second}").format(first=code(first), second=code(second))


def _example(error: UserInputError, words: Wording) -> str:
    if error.code is ErrorCode.UNKNOWN_LOCALE:
        return code("de-DE")
    if error.code is ErrorCode.DEVICES_NOT_WHOLE:
        return code(words.number(EXAMPLE[0], 0))
    if error.code is ErrorCode.MISSING_VALUE and error.quantity:
        key = (error.token or "").rstrip("=:")
        return code(f"{key}={words.number(EXAMPLE[1])}")
    return code(words.number(Decimal("2000"))) + ", " + code(words.number(Decimal("0.9")))


def _bound(quantity: str | None, value: str | None, words: Wording) -> str:
    if value is None:
        return ""
    number = Decimal(value)
    if quantity == Quantity.EFFICIENCY.value:
        return words.percent(number, 2)
    return words.number(number, 2)


def _quantity_name(quantity: str | None, words: Wording) -> str:
    _ = words.gettext
    names = {
        Quantity.DEVICES.value: _("The number of devices"),
        Quantity.THROUGHPUT.value: _("The per-device throughput"),
        Quantity.EFFICIENCY.value: _("The scaling efficiency"),
        Quantity.ACTUAL.value: _("The actual throughput"),
    }
    return names.get(quantity or "", _("The value"))
