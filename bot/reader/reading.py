"""Reading one number, the entry point: phase one (`bot.reader.candidates`) finds every reading a token has under every
plausible convention, phase two (`bot.reader.rules`) decides from them, and from the evidence of the rest of the
command, by an ordered table of named rules. `read_number` is what every other reader of numbers calls (a command's
values, a form's fields, a series of measurements), so that all numbers are read by one table.

    >>> from bot.reader.recipient import Recipient
    >>> read_number("2,000", Recipient.parse("en-US")).rule
    <ReadingRule.HOUSE_FORM: 'house_form'>
    >>> read_number("0,9", Recipient.parse("en-US")).rule
    <ReadingRule.ONE_OTHER_READING: 'one_other_reading'>
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from bot.errors import UserInputError
from bot.reader.candidates import SUFFIXES, AskReason, Candidates, Reader, candidates, reader_for
from bot.reader.numbers import neighbour_styles, own_styles, slack_styles
from bot.reader.recipient import RecipientLike, as_recipient
from bot.reader.rules import RULES, Case, Outcome, Reading, ReadingKind, ReadingRule, Rule, decide

__all__ = ["RULES", "SUFFIXES", "AskReason", "Candidates", "Outcome", "Reader", "Reading", "ReadingKind",
           "ReadingRule", "Rule", "neighbour_styles", "own_styles", "read_number", "reader_for", "slack_styles",
           "token_marks"]


def read_number(
    token: str,
    reader: RecipientLike | Reader,
    possible: Callable[[Decimal], bool] | None = None,
    evidence: str = "",
) -> Reading:
    """Read one number token (digits, separators, an optional sign and k/M/G suffix) for a reader (or a locale's).

    `possible` tells a value that could be meant from one that breaks a rule: impossible alternatives are never
    offered. `evidence` holds the decimal marks the rest of the command points to (`token_marks` of its other
    numbers, `bot.reader.evidence`). The reading names the rule that decided (`Reading.rule`). Raises UserInputError:
    AMBIGUOUS_NUMBER (with every reading, the reason and the rule), NOT_A_NUMBER, NOT_PLAIN_DIGITS (superscripts,
    fractions, circled numbers) or UNKNOWN_SUFFIX.
    """
    if token.isascii() and token.isdigit():  # plain digits, most tokens: every format reads them alike
        value = +Decimal(token)  # `+`: to the context's precision, as the arithmetic of the rules rounds
        fits = possible is None or possible(value)
        # as `decide` would: no other reading
        return Reading(token, value, rule=ReadingRule.ONLY_READING if fits else ReadingRule.OWN_READING_BREAKS_A_RULE)
    decision = decide(_case(token, reader, possible, evidence))
    if isinstance(decision, UserInputError):
        raise decision
    return decision


def token_marks(token: str, reader: RecipientLike | Reader, possible: Callable[[Decimal], bool] | None = None) -> str:
    """What `token` says of how its writer writes numbers, as evidence for the command's other numbers: the decimal
    marks of the formats that read it where only formats other than the reader's do and agree (`0,9` from an
    English user: `,`); nothing for a token that cannot be read at all."""
    if token.isascii() and token.isdigit():  # read alike by every format: it says nothing
        return ""
    try:
        return _case(token, reader, possible).marks
    except UserInputError:
        return ""


def _case(token: str, reader: RecipientLike | Reader, possible: Callable[[Decimal], bool] | None,
          evidence: str = "") -> Case:
    found = candidates(token, reader if isinstance(reader, Reader) else reader_for(as_recipient(reader)))
    scale = found.scale
    fits = (lambda value: possible(value * scale)) if possible is not None else (lambda value: True)
    return Case(found, fits, evidence)
