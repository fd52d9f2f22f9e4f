"""One call from typed text and a locale to the reply: parse → validate → calculate → render.

The Slack layer and the command-line tool both call `answer`; neither knows how a reply is made.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from bot.errors import UserInputError
from bot.model.calculator import Quantity, Result, make_scenario, solve
from bot.model.series import Series, analyse
from bot.reader.formats import NUMBER_FORMATS
from bot.reader.numbers import resolve_locale
from bot.reader.parsing import Command, FieldErrors, parse_fields, parse_words, split_words
from bot.reader.recipient import Recipient, RecipientLike, as_recipient
from bot.reader.series_syntax import SeriesCommand, is_series, parse_series, parse_series_fields
from bot.replies import Reply, build_error_reply, build_help_reply, build_result_reply
from bot.replies.series import build_series_error_reply, build_series_reply

__all__ = ["answer", "answer_form", "answer_series_form", "calculate", "measured_series", "measured_series_form",
           "solve_form", "warm_up"]


def answer(text: str, recipient: RecipientLike) -> Reply:
    """The reply to `text` for `recipient` (who may be the unknown reader, or a whole channel: `bot.reader.recipient`).

    A user's mistake becomes a localized error reply; nothing else is caught here, so a bug surfaces as one.
    """
    recipient = as_recipient(recipient)
    try:
        words, recipient = split_words(text, recipient)  # from here on, the recipient a `lang=` word made
        if is_series(words):  # a measurement series (`v=2000 8=15800 …`): read and answered on its own
            return _answer_series(words, recipient)
        command = parse_words(words, recipient)
        if command.wants_help:
            return build_help_reply(recipient)
        return build_result_reply(calculate(command), command.notes, recipient, command.unit)
    except UserInputError as error:  # `recipient` is still the user's if the words could not be split
        typed = as_typed(error.token, text)
        return build_error_reply(error if typed == error.token else replace(error, token=typed), recipient)


def as_typed(token: str | None, text: str) -> str | None:
    """A token an error names, as the user typed it: the reader joins a `%` standing alone to its number, and
    `150 %` (as German, French or Spanish write it) is shown back with its space, not as `150%`.

    >>> as_typed("150%", "64 2.000 150 %"), as_typed("150%", "64 2000 150%"), as_typed("banana", "banana")
    ('150 %', '150%', 'banana')
    """
    if token is None or not token.endswith("%") or token in text:
        return token
    return next((typed for space in SPACED_SIGNS if (typed := token[:-1] + space + "%") in text), token)


SPACED_SIGNS = (" ", "\u00a0", "\u202f")  # what may stand between a number and its `%` as typed


def answer_form(fields: dict[Quantity, str | None], recipient: RecipientLike) -> Reply:
    """The reply to a submitted form, its fields read for `recipient` (and its `own`); raises FieldErrors with
    one localized message per field that is wrong."""
    return solve_form(fields, recipient)[1]


def solve_form(fields: dict[Quantity, str | None], recipient: RecipientLike) -> tuple[Result, Reply]:
    """`answer_form`, with the result its reply shows (a workflow step outputs its figures: bot.slack.steps)."""
    recipient = as_recipient(recipient)
    command = parse_fields(fields, recipient)
    try:
        result = calculate(command)
    except UserInputError as error:
        field = Quantity(error.cause or error.quantity) if error.quantity else _first_empty(fields)
        raise FieldErrors({field: error}) from None
    return result, build_result_reply(result, command.notes, recipient)


def _answer_series(words: list[str], recipient: Recipient) -> Reply:
    """The reply to a series' words, read as a command's are (for `recipient`, and its `own` beside a `lang=`)."""
    try:
        command = parse_series(words, recipient)
    except UserInputError as error:
        return build_series_error_reply(error, recipient)
    return build_series_reply(analyse(command.throughput.value, command.pairs), command, recipient)


def answer_series_form(throughput: str | None, rows: str | None, recipient: RecipientLike) -> Reply:
    """The reply to a submitted series form; raises SeriesFieldErrors with one localized message per wrong field."""
    command = parse_series_fields(throughput, rows, as_recipient(recipient))
    return build_series_reply(analyse(command.throughput.value, command.pairs), command, command.recipient)


def measured_series(text: str, recipient: RecipientLike) -> tuple[Series, SeriesCommand] | None:
    """The series `text` names, read as `answer` reads it, for its chart; None for any other text, or a wrong one
    (its reply says what is wrong)."""
    try:
        words, reply = split_words(text, as_recipient(recipient))
        if not is_series(words):
            return None
        command = parse_series(words, reply)
    except UserInputError:
        return None
    return analyse(command.throughput.value, command.pairs), command


def measured_series_form(throughput: str | None, rows: str | None,
                         recipient: RecipientLike) -> tuple[Series, SeriesCommand]:
    """The series a submitted series form names, for its chart; raises SeriesFieldErrors as `answer_series_form`."""
    command = parse_series_fields(throughput, rows, as_recipient(recipient))
    return analyse(command.throughput.value, command.pairs), command


WARM_UP_TEXTS = ("64 2000 90%", "64 2000", "help", "v=2000 8=15800 16=31000")  # a result, an error, help, a series


@cache  # once per process and locale: each web worker warms while idle, Socket Mode before it serves
def warm_up(tags: tuple[str, ...] = NUMBER_FORMATS) -> None:
    """Answer a result, an error and the help in the locale of each of `tags` (by default every locale and
    number format dpscale offers), so that what a reply in it reads is loaded now: Babel's CLDR data for the
    locale, its compiled catalog, its number style and explanations. A server does this before it freezes its
    start-up heap (`bot.processes`), which then holds all of it out of the garbage collector's sight."""
    for tag in tags:
        recipient = Recipient.of(resolve_locale(tag))
        for text in WARM_UP_TEXTS:
            answer(text, recipient)


def _first_empty(fields: dict[Quantity, str | None]) -> Quantity:
    """Where to show an error about how many fields are filled: the last empty field, else actual throughput."""
    return next((q for q in reversed(list(Quantity)) if not (fields.get(q) or "").strip()), Quantity.ACTUAL)


def calculate(command: Command) -> Result:
    """Validate and solve; a broken rule is reported with the token the user typed for that value, or, for a
    solved value, with the actual throughput it was solved from (every inverse question gives one)."""
    try:
        result = solve(make_scenario(**command.values))
    except UserInputError as error:
        if error.value is not None and Quantity.ACTUAL in command.tokens:
            raise replace(error, cause=Quantity.ACTUAL.value, token=command.tokens[Quantity.ACTUAL]) from None
        if error.token is None and error.quantity is not None:
            raise replace(error, token=command.tokens.get(Quantity(error.quantity))) from None
        raise
    # a throughput named as a target (`target=7000`) is what the solved efficiency or throughput must reach
    return replace(result, target=result.actual) if command.aimed and result.target is None else result
