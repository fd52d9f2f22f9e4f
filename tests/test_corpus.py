"""Sentences and channel messages as people write them, in every shipped language and for the unknown reader
(tests/corpus/sentences.tsv), each with the reading its writer meant, decided before it was run: none is read
wrong. A reading asked about or refused where one was meant is counted, never a wrong number."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest

from bot.errors import UserInputError
from bot.model.calculator import Quantity
from bot.reader.excerpts import read_message
from bot.reader.numbers import resolve_locale
from bot.reader.parsing import parse_command
from bot.reader.recipient import Audience, Recipient

CORPUS = Path(__file__).parent / "corpus" / "sentences.tsv"
NAMES = {"d": Quantity.DEVICES, "v": Quantity.THROUGHPUT, "e": Quantity.EFFICIENCY, "a": Quantity.ACTUAL}
RIGHT, ASKED, REFUSED, WRONG = "right", "asked", "refused", "wrong"
ASKING = frozenset({"ambiguous_number", "ambiguous_grouping", "unplaced_number"})


def rows() -> list[tuple[str, str, str, str]]:
    """(kind, reader, text, intended) for every row of the corpus."""
    found = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, reader, text, intended, _ = line.split("\t")
            found.append((kind, reader, text, intended))
    return found


def reader(tag: str):
    return Recipient.of(resolve_locale("en-US"), Audience.UNKNOWN) if tag == "unknown" else Recipient.parse(tag)


def values(written: str) -> dict[Quantity, Decimal]:
    """`d=64 v=2000 e=0.9` as values (`-`: none)."""
    pairs = [part.split("=") for part in written.split() if "=" in part]
    return {NAMES[name]: Decimal(value) for name, value in pairs}


def score_command(tag: str, text: str, intended: str) -> str:
    """Right: read as meant, or asked or refused as meant; asked or refused where a reading was meant; wrong: a
    reading other than the one meant, or any reading where a question or a refusal was."""
    try:
        read = parse_command(text, reader(tag)).values
    except UserInputError as error:
        outcome = ASKED if error.code.value in ASKING else REFUSED
        return RIGHT if intended == {ASKED: "ask", REFUSED: "refuse"}[outcome] else outcome
    if intended in ("ask", "refuse"):
        return WRONG  # a guess where a question or a refusal was meant
    return RIGHT if read == values(intended) else WRONG


def score_message(tag: str, text: str, intended: str) -> str:
    """Right: the fields meant, no more; asked: some of them, and a question; wrong: any field filled otherwise."""
    excerpt = read_message(text, reader(tag))
    meant = values(intended)
    if any(meant.get(quantity) != value for quantity, value in excerpt.values.items()):
        return WRONG
    if excerpt.values == meant and (excerpt.question is None) == (not intended.startswith("?")):
        return RIGHT
    return ASKED if excerpt.question is not None or intended.startswith("?") else REFUSED


@cache
def scores() -> tuple[tuple[str, str, str, str, str], ...]:
    scored = []
    for kind, tag, text, intended in rows():
        score = score_command if kind == "command" else score_message
        scored.append((kind, tag, text, intended, score(tag, text, intended)))
    return tuple(scored)


def counts() -> dict[str, Counter[str]]:
    """right / asked / refused / wrong, for the commands and for the messages."""
    found: dict[str, Counter[str]] = {"command": Counter(), "message": Counter()}
    for kind, *_, outcome in scores():
        found[kind][outcome] += 1
    return found


def test_the_corpus_is_as_large_as_promised_in_every_language():
    kinds = Counter(kind for kind, *_ in rows())
    assert kinds["command"] >= 400 and kinds["message"] >= 80
    readers = {tag for kind, tag, *_ in rows() if kind == "command"}
    assert len(readers) == 13  # Slack's twelve locales' languages and their regions, and the unknown reader


def test_no_sentence_and_no_message_is_read_wrong():
    wrong = [(kind, tag, text, intended) for kind, tag, text, intended, outcome in scores() if outcome == WRONG]
    assert wrong == []


@pytest.mark.parametrize("kind", ["command", "message"])
def test_most_of_what_is_meant_is_read(kind):
    """The counts docs/reading.md reports; a question or a refusal is never a wrong number, but it is not an
    answer either."""
    found = counts()[kind]
    assert found[RIGHT] >= 0.97 * sum(found.values()), found
