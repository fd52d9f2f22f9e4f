"""Where one number of a command ends and the next begins, as tables of named rows: the vetoes that rule out a way
of joining space-separated groups (`VETOES`' names), and the questions asked instead of guessing (`QUESTIONS`),
each with the case it is for and a command it answers.

    fr-FR  1 200 300 90 %   → asked about `1 200 300` (`several_ways_fit`): 1 200 and 300, or 1 and 200 300?
    en-US  64 2000 90% 5    → asked about `5` (`one_number_too_many`)

`bot.reader.grouping` and `bot.reader.placing` raise the questions, `bot.reader.excerpts` one of them for a message;
each error's
`rule` is a `Grouping` name. `docs/reading.md` shows every row with what today's code makes of its example
(`scripts/reading_rules.py`), and a test holds that each row's example is asked by that row.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["QUESTIONS", "Grouping", "Question", "Veto"]


class Veto(StrEnum):
    """What rules out a way of joining a command's space-separated groups (`bot.reader.grouping.VETOES`)."""

    WRONG_COUNT = "wrong_count"  # not as many numbers as the command needs
    LEADING_ZERO = "leading_zero"  # a number would start with a zero (`012`)
    SPACED_PERCENTAGE = "spaced_percentage"  # `64 1 500 100 %` is 1 500 samples/s at 100 %, never 500 100 %


class Grouping(StrEnum):
    """The name a grouping question carries (`UserInputError.rule`), one per row of `QUESTIONS`."""

    SEVERAL_WAYS_FIT = "several_ways_fit"
    GROUPED_OTHERWISE = "grouped_otherwise"
    GROUP_CUT_FROM_A_NAMED_VALUE = "group_cut_from_a_named_value"
    GROUP_WITH_A_LEADING_ZERO = "group_with_a_leading_zero"
    LISTED_ITEM_IS_TWO_NUMBERS = "listed_item_is_two_numbers"
    PERCENT_SIGN_BETWEEN_TWO = "percent_sign_between_two"
    PART_THAT_CANNOT_STAND_ALONE = "part_that_cannot_stand_alone"
    NUMBERS_BEFORE_THE_PERCENTAGE = "numbers_before_the_percentage"
    GROUP_THAT_STANDS_ALONE = "group_that_stands_alone"
    ONE_NUMBER_TOO_MANY = "one_number_too_many"
    MYRIAD_REST_LEFT_APART = "myriad_rest_left_apart"


@dataclass(frozen=True)
class Question:
    """One row: its name, when it is asked, and a command it answers (locale, text)."""

    name: Grouping
    says: str
    example: tuple[str, str]


G = Grouping
QUESTIONS: tuple[Question, ...] = (
    Question(G.SEVERAL_WAYS_FIT, "more than one way of joining the groups survives the vetoes",
             ("fr-FR", "1 200 300 90 %")),
    Question(G.GROUPED_OTHERWISE, "the one way joins groups with a space, but another number of the command is "
             "grouped with a mark or not at all", ("de-DE", "64 200 2.000 90 %")),
    Question(G.GROUP_CUT_FROM_A_NAMED_VALUE, "the one way leaves a group of three apart right after a named value's "
             "digits", ("fr-FR", "a=28 800 64")),
    Question(G.GROUP_WITH_A_LEADING_ZERO, "no way survives, and apart the words would be as many numbers as needed "
             "but for a group with a leading zero", ("en-US", "64 012 90%")),
    Question(G.LISTED_ITEM_IS_TWO_NUMBERS, "an item of a comma list is still two numbers",
             ("fr-FR", "1, 200 300 90 %")),
    Question(G.PERCENT_SIGN_BETWEEN_TWO, "a `%` standing alone between two numbers, where the sign may be written "
             "first, could be either's", ("tr-TR", "v=2000 90 % 64")),
    Question(G.PART_THAT_CANNOT_STAND_ALONE, "one number too many, and a part that no one writes alone (`00`, `012`, "
             "`0%`) follows a number", ("en-US", "64 20 00 90%")),
    Question(G.NUMBERS_BEFORE_THE_PERCENTAGE, "one number too many, and it is the percentage: the space is among "
             "the numbers before it", ("en-US", "64 1 50 90%")),
    Question(G.GROUP_THAT_STANDS_ALONE, "for a reader who does not group digits with spaces, the one way joins two "
             "groups of three that could each stand alone", ("en-US", "128 310 82 80%")),
    Question(G.ONE_NUMBER_TOO_MANY, "one number too many, named", ("en-US", "64 2000 90% 5")),
    Question(G.MYRIAD_REST_LEFT_APART, "the one way leaves apart a count of myriads and the rest that Korean spacing "
             "writes after it (`1만 2천`, one number, 12 000)", ("ko-KR", "1만 2천 90%")),
)
