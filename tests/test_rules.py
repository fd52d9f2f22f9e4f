"""The reading rules are a table you can count (`bot.reader.rules.RULES`): every row decides its own example and fires
on generated input, no row is dead (swapping any two neighbours changes some outcome), and docs/reading.md is the
table as today's code reads it."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.errors import UserInputError
from bot.model.calculator import Quantity
from bot.reader.candidates import candidates, reader_for
from bot.reader.grouping_rules import QUESTIONS, Grouping, Question
from bot.reader.numbers import NEIGHBOUR_LOCALES, SLACK_LOCALES
from bot.reader.parsing import parse_command
from bot.reader.reading import RULES, read_number
from bot.reader.recipient import Recipient
from bot.reader.rules import Case, Reading, ReadingRule, Rule, decide
from bot.reader.values import possible_for

ROOT = Path(__file__).resolve().parent.parent

READERS = [*SLACK_LOCALES, *NEIGHBOUR_LOCALES, "en-US@unknown", "de-DE@unknown"]
QUANTITIES = [None, *Quantity]
EVIDENCE = ["", ",", "."]


def outcome(decision: Reading | UserInputError) -> tuple[object, ...]:
    """What a user sees of a decision, and the rule that made it (each outcome carries its rule's name)."""
    if isinstance(decision, Reading):
        return decision.rule, decision.value, decision.kind, decision.alternative
    return decision.rule, decision.code, decision.readings, decision.reason


def case(locale: str, token: str, quantity: str | None, evidence: str) -> Case:
    found = candidates(token, reader_for(Recipient.parse(locale)))
    possible = possible_for(Quantity(quantity)) if quantity else None
    fits = (lambda value: possible(value * found.scale)) if possible else (lambda value: True)
    return Case(found, fits, evidence)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_every_rule_decides_its_own_example(rule: Rule):
    example = rule.example
    possible = possible_for(Quantity(example.quantity)) if example.quantity else None
    try:
        decided = read_number(example.token, Recipient.parse(example.locale), possible, example.evidence).rule
    except UserInputError as error:
        decided = error.rule
    assert decided is rule.name  # the table's member, never a string that only equals it


def written(integer: int, fraction: str, mark: str, group: str, grouped: bool) -> str:
    digits = str(integer)
    if grouped and len(digits) > 3:
        head, tail = digits[:-3], digits[-3:]
        digits = f"{head}{group}{tail}"
    return digits + (mark + fraction if fraction else "")


tokens = st.one_of(
    st.sampled_from([rule.example.token for rule in RULES]),
    st.builds(written, st.integers(0, 99_999), st.sampled_from(["", "0", "5", "25", "000", "500", "125"]),
              st.sampled_from([".", ","]), st.sampled_from([".", ",", " ", "'"]), st.booleans()),
    st.builds(lambda sign, token, suffix: sign + token + suffix, st.sampled_from(["", "-"]),
              st.sampled_from(["1.500", "1,500", "2,5", "0,9", "1.024", "2000,000"]), st.sampled_from(["", "k"])),
)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_every_row_fires_on_generated_input():
    seen: Counter[str] = Counter()

    @settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(token=tokens, locale=st.sampled_from(READERS), quantity=st.sampled_from(QUANTITIES),
           evidence=st.sampled_from(EVIDENCE))
    def check(token, locale, quantity, evidence):
        try:
            decision = decide(case(locale, token, quantity, evidence))
        except UserInputError:  # refused before the rules: no format's marks, or no number at all
            event("refused before the rules")
            return
        event(decision.rule)
        seen[decision.rule] += 1

    check()
    assert {rule.name for rule in RULES} <= set(seen), {rule.name for rule in RULES} - set(seen)


@cache
def corpus() -> tuple[Case, ...]:
    """Every rule's example, and a grid of tokens × readers × quantities × evidence."""
    grid = ["2000", "2000,000", "1234.567", "2000.000", "1.500", "1,500", "2.000", "2,000", "1,234", "0,9", "0.9",
            "2,5", "-1.500", "1.024", "2.000,5", "1'500", "1,2,3", "1,500k", "12,5", "1,00,000", "2,00"]
    cases = [case(r.example.locale, r.example.token, r.example.quantity, r.example.evidence) for r in RULES]
    for locale in READERS:
        for token in grid:
            for quantity in QUANTITIES:
                for evidence in EVIDENCE:
                    try:
                        cases.append(case(locale, token, quantity, evidence))
                    except UserInputError:
                        pass
    return tuple(cases)


@pytest.mark.parametrize("index", range(len(RULES) - 1), ids=lambda i: f"{RULES[i].name}-{RULES[i + 1].name}")
def test_swapping_two_neighbouring_rows_changes_some_outcome(index: int):
    """No row is dead, and none can move past its neighbour without a user seeing the difference."""
    swapped = list(RULES)
    swapped[index], swapped[index + 1] = swapped[index + 1], swapped[index]
    assert any(outcome(decide(each)) != outcome(decide(each, tuple(swapped))) for each in corpus())


def test_an_outcome_carries_the_rule_that_decided_it():
    with pytest.raises(UserInputError) as raised:
        read_number("2.000", Recipient.parse("en-US"))
    assert raised.value.rule is ReadingRule.OTHER_FORMAT_READS_OTHERWISE
    assert read_number("0,9", Recipient.parse("en-US")).rule is ReadingRule.ONE_OTHER_READING
    assert read_number("2000", Recipient.parse("en-US")).rule is ReadingRule.ONLY_READING  # plain digits too
    assert read_number("2,000", Recipient.parse("en-US")) == Reading("2,000", Decimal(2000))  # the rule aside


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda question: question.name)
def test_every_grouping_question_names_itself(question: Question):
    locale, text = question.example
    with pytest.raises(UserInputError) as raised:
        parse_command(text, Recipient.parse(locale))
    assert raised.value.rule is question.name


def test_every_reading_rule_name_has_its_one_row():
    """A name given in code but missing from the table (or twice in it, or a string that only equals it) would
    decide with no row to show."""
    assert [rule.name for rule in RULES] == list(ReadingRule)
    assert all(isinstance(rule.name, ReadingRule) for rule in RULES)


def test_every_grouping_name_has_its_one_row():
    """A question named in code but missing from the table (or twice in it) would be asked with no row to show."""
    assert [question.name for question in QUESTIONS] == list(Grouping)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_docs_reading_is_todays_rule_table():
    done = subprocess.run([sys.executable, "scripts/reading_rules.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
