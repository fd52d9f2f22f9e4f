"""Reading a number, phase two: an ordered table of named rules decides, from a token's readings
(`bot.reader.candidates`) and the evidence of the rest of its command, whether it is read silently, read with a note,
asked about or refused; the first rule that applies decides, and its outcome carries the rule's name.

`docs/reading.md` is this table, rendered by `scripts/reading_rules.py` (a test keeps it current); a row's name is a
`ReadingRule`. A rule's condition leaves out what the rules before it have decided: the order is part of the rules, and
swapping any two neighbours changes some outcome (`tests/test_rules.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from functools import cached_property

from bot.errors import ErrorCode, UserInputError
from bot.reader.candidates import AskReason, Candidates


class ReadingKind(StrEnum):
    OTHER_CONVENTION = "other_convention"  # not valid in the reader's format; read in the only other that fits
    AMBIGUOUS = "ambiguous"  # read in the reader's format, another's alternative noted (no rule reads so today)


class ReadingRule(StrEnum):
    """The name of a row of `RULES`, which the outcome it decides carries (`Reading.rule`, `UserInputError.rule`)."""

    FIRST_GROUP_TOO_LONG = "first_group_too_long"
    ONLY_READING = "only_reading"
    OWN_READING_BREAKS_A_RULE = "own_reading_breaks_a_rule"
    HOUSE_FORM_IN_DOUBT = "house_form_in_doubt"
    HOUSE_FORM = "house_form"
    OTHER_FORMAT_READS_OTHERWISE = "other_format_reads_otherwise"
    ONE_OWN_READING_POSSIBLE = "one_own_reading_possible"
    OWN_FORMATS_DISAGREE = "own_formats_disagree"
    ONE_OTHER_READING = "one_other_reading"
    ONE_OTHER_FORMAT = "one_other_format"
    OTHER_FORMATS_DISAGREE = "other_formats_disagree"
    EVERY_READING_BREAKS_A_RULE = "every_reading_breaks_a_rule"
    UNREADABLE = "unreadable"


class Outcome(StrEnum):
    READ = "read"
    NOTE = "read, with a note"
    ASK = "asked about"
    REFUSE = "refused"


@dataclass(frozen=True)
class Reading:
    """A number as read from the user's token, how it was read when that needs saying, and the rule that read it."""

    token: str
    value: Decimal
    kind: ReadingKind | None = None
    alternative: Decimal | None = None
    rule: ReadingRule | None = field(default=None, compare=False)  # the row of `RULES` that decided


@dataclass(frozen=True)
class Case:
    """One token's readings judged for one quantity: `fits` tells a value that could be meant for it from one that
    breaks a rule; `evidence` holds the decimal marks that the rest of the command points to (`bot.reader.evidence`, and
    the numbers of it written in another format)."""

    found: Candidates
    fits: Callable[[Decimal], bool]
    evidence: str = ""

    @cached_property
    def own(self) -> Decimal | None:
        """The reader's own formats' one reading, if they agree on one."""
        return next(iter(self.found.natives)) if len(self.found.natives) == 1 else None

    @cached_property
    def fitting_natives(self) -> frozenset[Decimal]:
        return frozenset(value for value in self.found.natives if self.fits(value))

    @cached_property
    def others(self) -> dict[Decimal, tuple[bool, str]]:
        """The other formats' values that fit and differ from the own one: whether a Slack locale's, and the
        decimal marks of the formats that read each so."""
        others: dict[Decimal, tuple[bool, str]] = {}
        for value, is_slack, mark in self.found.foreign:
            if value != self.own and self.fits(value):
                slack, marks = others.get(value, (False, ""))
                others[value] = (slack or is_slack, marks + mark)
        return others

    @cached_property
    def doubts(self) -> frozenset[Decimal]:
        """The Slack locales' other readings that the command's evidence points to."""
        return frozenset(value for value, (slack, marks) in self.others.items()
                         if slack and any(mark in self.evidence for mark in marks))

    @cached_property
    def all_foreign(self) -> frozenset[Decimal]:
        return frozenset(value for value, _, _ in self.found.foreign)

    def read(self, value: Decimal, kind: ReadingKind | None = None, alternative: Decimal | None = None) -> Reading:
        scale = self.found.scale
        return Reading(self.found.token, value * scale, kind, None if alternative is None else alternative * scale)

    def ask(self, values: frozenset[Decimal] | set[Decimal], reason: AskReason) -> UserInputError:
        readings = tuple(sorted(value * self.found.scale for value in values))
        return UserInputError(ErrorCode.AMBIGUOUS_NUMBER, token=self.found.token, readings=readings, reason=reason)

    @property
    def marks(self) -> str:
        """What this token says of its writer: the decimal marks of the formats that read it, where only other
        formats than the reader's read it and they agree (`0,9` from an English user: `,`)."""
        if self.found.natives or len(self.others) != 1:
            return ""
        return next(iter(self.others.values()))[1]


Decision = Reading | UserInputError


@dataclass(frozen=True)
class Example:
    """A token that the rule decides: typed by a reader of `locale` for `quantity` (any, if None), in a command
    whose other words point to formats with the decimal marks `evidence`."""

    locale: str
    token: str
    quantity: str | None = None
    evidence: str = ""


@dataclass(frozen=True)
class Rule:
    """One row of the table: its name, what it decides, the rule in words, an example (reader, token and the
    quantity it is for, or None for any), and how it decides (None: it does not apply)."""

    name: ReadingRule
    outcome: Outcome
    says: str
    example: Example
    decide: Callable[[Case], Decision | None]


def _one_own_reading_possible(case: Case) -> Decision | None:
    return case.read(next(iter(case.fitting_natives))) if len(case.fitting_natives) == 1 else None


R = ReadingRule
RULES: tuple[Rule, ...] = (
    Rule(R.FIRST_GROUP_TOO_LONG, Outcome.ASK,
         "Four or more digits, a mark that is not the reader's decimal mark, three digits: a group mark typed in the "
         "wrong place, or another format's decimal mark, a thousand times apart.", Example("en-US", "2000,000"),
         lambda c: c.ask(set(c.found.loose), AskReason.LOOSE_GROUP)
         if c.found.loose and all(map(c.fits, c.found.loose)) else None),
    Rule(R.ONLY_READING, Outcome.READ,
         "The reader's own formats read it one way, and no other format that could be meant reads it otherwise.",
         Example("de-DE", "2.000,5"),
         lambda c: c.read(c.own) if c.own is not None and not c.others else None),
    Rule(R.OWN_READING_BREAKS_A_RULE, Outcome.READ,
         "The reader's own reading breaks the quantity's rule (`1.024` devices): read so, and the rule says what "
         "is wrong.", Example("en-US", "1.024", "devices"),
         lambda c: c.read(c.own) if c.own is not None and not c.fits(c.own) else None),
    Rule(R.HOUSE_FORM_IN_DOUBT, Outcome.ASK,
         "Written as dpscale writes it for the reader, but the rest of the command (`0,9`, `%90`, German key "
         "words) points to a format that reads it otherwise.", Example("en-US", "1,234", evidence=","),
         lambda c: c.ask({c.own, *c.doubts}, AskReason.OTHER_LOCALES)
         if c.own is not None and c.found.house and c.doubts else None),
    Rule(R.HOUSE_FORM, Outcome.READ,
         "Written exactly as dpscale writes that value for the reader (no k, M or G, which it never writes): a "
         "reply's figures pasted back read silently.", Example("en-US", "2,000"),
         lambda c: c.read(c.own) if c.own is not None and c.found.house else None),
    Rule(R.OTHER_FORMAT_READS_OTHERWISE, Outcome.ASK,
         "The reader's format reads it one way, and another format that could be meant (another Slack locale's "
         "everyday one) reads it otherwise: a thousand times off, so asked.", Example("en-US", "2.000"),
         lambda c: c.ask({c.own, *c.others}, AskReason.OTHER_LOCALES) if c.own is not None and c.others else None),
    Rule(R.ONE_OWN_READING_POSSIBLE, Outcome.READ,
         "The reader's own formats disagree (the unknown format, es-LA, `lang=`), but only one of their readings "
         "could be meant for the quantity.", Example("en-US@unknown", "1.500", "devices"),
         _one_own_reading_possible),
    Rule(R.OWN_FORMATS_DISAGREE, Outcome.ASK,
         "The reader's own formats read it differently: the unknown format, Slack's es-LA, or the user's own "
         "format beside the one `lang=` chose.", Example("es-LA", "2.000"),
         lambda c: c.ask(c.fitting_natives or c.found.natives, c.found.reader.reason) if c.found.natives else None),
    Rule(R.ONE_OTHER_READING, Outcome.NOTE,
         "Not the reader's format, and the other formats read it one way only: read so, with a note (where it "
         "breaks the quantity's rule, the rule says what is wrong).", Example("de-DE", "0.9"),
         lambda c: c.read(next(iter(c.all_foreign)), ReadingKind.OTHER_CONVENTION)
         if len(c.all_foreign) == 1 else None),
    Rule(R.ONE_OTHER_FORMAT, Outcome.NOTE,
         "Not the reader's format; the other formats read it several ways, only one of which could be meant.",
         Example("fr-FR", "1.500", "efficiency"),
         lambda c: c.read(next(iter(c.others)), ReadingKind.OTHER_CONVENTION) if len(c.others) == 1 else None),
    Rule(R.OTHER_FORMATS_DISAGREE, Outcome.ASK,
         "Not the reader's format, and the formats that can read it disagree.", Example("fr-FR", "2.000"),
         lambda c: c.ask(set(c.others), AskReason.NOT_YOURS) if c.others else None),
    Rule(R.EVERY_READING_BREAKS_A_RULE, Outcome.ASK,
         "Not the reader's format, and the formats that read it disagree, every reading breaking the "
         "quantity's rule.", Example("fr-FR", "-1.500", "devices"),
         lambda c: c.ask(c.all_foreign, AskReason.NOT_YOURS) if c.all_foreign else None),
    Rule(R.UNREADABLE, Outcome.REFUSE,
         "No format reads it.", Example("en-US", "1,2,3"),
         lambda c: UserInputError(ErrorCode.NOT_A_NUMBER, token=c.found.token)),
)


def decide(case: Case, rules: tuple[Rule, ...] = RULES) -> Decision:
    """The first rule's decision that applies (`unreadable` always does), with its name."""
    for rule in rules:
        decision = rule.decide(case)
        if decision is None:
            continue
        if isinstance(decision, Reading):
            return Reading(decision.token, decision.value, decision.kind, decision.alternative, rule.name)
        return replace(decision, rule=rule.name)
    raise ValueError("the last rule applies to every case")
