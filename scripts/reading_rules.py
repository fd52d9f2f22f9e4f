"""Write docs/reading.md from the reading rules' table (`bot.reader.rules.RULES`): one row per rule, in order, with its
example read by today's code.

    python scripts/reading_rules.py          # rewrite docs/reading.md
    python scripts/reading_rules.py --check  # exit 1 if docs/reading.md is not today's table

tests/test_rules.py runs the check.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.errors import UserInputError  # noqa: E402
from bot.model.calculator import Quantity  # noqa: E402
from bot.reader.reading import RULES, Rule, read_number  # noqa: E402
from bot.reader.recipient import Recipient  # noqa: E402
from bot.reader.values import possible_for  # noqa: E402

DOC = ROOT / "docs" / "reading.md"
INTRO = """# How dpscale reads a number

<!-- written by scripts/reading_rules.py from bot/reader/rules.py: edit the table there, then run the script -->

Every number a user types — a command's values, a form's fields — is read in two phases.

1. **Every reading** (`bot/reader/candidates.py`): the token is read in the reader's own formats (the user's Slack
   locale; for the unknown reader every Slack locale's; for es-LA each of its countries'; with `lang=` the chosen
   one's too), in every other Slack locale's format and in some common neighbours' (de-CH, fr-CA, ru-RU, …), as a
   first group too long to be one (`2000,000`), and as dpscale itself would write the value for the reader. A
   token no format can read is refused here: characters that only look like digits (`10³`, `½`), an unknown
   suffix (`2x`; `k`, `M`, `G`, `千`, `万`, `亿` and their Korean and Traditional forms are known), marks no format
   writes. A number written by myriads is one number (`11만5200`, `1万5千`, `1억2000万`: `bot/reader/myriads.py`)
   where its digits after a unit can mean only one (`1万5` is 15 000 said aloud and 10 005 as written: refused).
2. **The rules** (`bot/reader/rules.py`): the first row below that applies decides, and the outcome carries the row's
   name. A row's condition leaves out what the rows before it decided, so the order is part of the rules. The
   *quantity* a number is for rules out readings that cannot be meant (2.5 devices, a 1500 % efficiency); the
   *evidence* is what the rest of the command says of its writer's format: a number only another format reads
   (`0,9` from an English user), a percent sign written first (`%90`), another language's key words.

Then the value is read for its quantity (`bot/reader/values.py`): a percent sign only on the efficiency; a bare
efficiency from 10 to 100 is a percentage and exactly 1 is 100 %, each with a note; one above 1 and below 10
(`1.5`) is refused: no fraction, and hardly a measured percentage.

Code that reads a number calls one entry point, so that every number goes through this table:
`bot.reader.reading.read_number(token, reader, possible, evidence)` for a bare token (it returns a `Reading` whose
`rule` names the row that decided, or raises the question or refusal, whose `rule` says the same), and
`bot.reader.values.read_value(quantity, raw, reader, evidence)` for a value of one of the four quantities (its percent
sign, its bounds). The evidence of a whole command is gathered first: `bot.reader.values.value_marks` of each of its
numbers and `bot.reader.evidence.clue_marks` of its words.

Words beside the numbers (`64 GPUs at 2000 img/s with 90% efficiency`, `64台`, `64 Geräte`) are read by the
grammar of labelled numbers before the rules (its rows are the last tables below): a unit word names the quantity
of its number, a percent word is its sign, a filler goes; a labelled number is then read as a named value is.

Decided cases: `2,00` from an English user is read as 2 with a note (`one_other_reading`): a mark followed by two
digits groups in no format, and a mistyped group is not guessed at. `2000,000` is asked about
(`first_group_too_long`).

"""


def example_result(rule: Rule) -> str:
    """What today's code makes of the rule's example, and which rule decided it."""
    example = rule.example
    possible = possible_for(Quantity(example.quantity)) if example.quantity else None
    try:
        reading = read_number(example.token, Recipient.parse(example.locale), possible, example.evidence)
    except UserInputError as error:
        readings = " or ".join(f"`{value.normalize():f}`" for value in error.readings)
        return (f"asked: {readings}" if readings else f"refused: {error.code.value}"), error.rule or ""
    note = f", noted ({reading.kind.value})" if reading.kind else ""
    return f"`{reading.value.normalize():f}`{note}", reading.rule


def table() -> str:
    rows = ["| # | rule | outcome | when | example | read by today's code |", "|---:|---|---|---|---|---|"]
    for number, rule in enumerate(RULES, 1):
        example = rule.example
        where = f"{example.locale}, `{example.token}`"
        if example.quantity:
            where += f" for {example.quantity}"
        if example.evidence:
            where += f", beside a number with `{example.evidence}` as its decimal mark"
        result, decided_by = example_result(rule)
        if decided_by != rule.name:
            result += f" (decided by `{decided_by}`!)"
        rows.append(f"| {number} | `{rule.name}` | {rule.outcome.value} | {rule.says} | {where} | {result} |")
    return "\n".join(rows) + "\n"


def grouping_table() -> str:
    from bot.reader.grouping import VETOES
    from bot.reader.grouping_rules import QUESTIONS
    from bot.reader.parsing import parse_command

    vetoes = ", ".join(f"`{name}`" for name, _ in VETOES)
    rows = ["", "## Where one number ends and the next begins", "",
            "A word of exactly three digits may continue the number before it (`2 000`; `115 200` as a channel's "
            "figures are written), and so may a myriad's rest (`11만 5200`, as Korean spaces it). Every way of "
            "joining is weighed, and one is ruled out by a veto: "
            f"{vetoes} (`bot.reader.grouping.VETOES`). The one way that survives is read; otherwise the command is "
            "asked about, each question naming the words in doubt (`bot.reader.grouping_rules.QUESTIONS`):", "",
            "| question | when | example | asked about |", "|---|---|---|---|"]
    for question in QUESTIONS:
        name, (tag, text), when = question.name, question.example, question.says
        try:
            parse_command(text, Recipient.parse(tag))
            asked = "read (!)"
        except UserInputError as error:
            asked = f"`{error.token}`" + ("" if error.rule == name else f" (by `{error.rule}`!)")
        rows.append(f"| `{name}` | {when} | {tag}, `{text}` | {asked} |")
    return "\n".join(rows) + "\n"


def grammar_result(tag: str, text: str, name: str) -> str:
    """What today's code makes of a grammar row's example, and whether that row decided it."""
    from bot.reader.parsing import parse_command

    try:
        command = parse_command(text, Recipient.parse(tag))
    except UserInputError as error:
        said = f"asked about `{error.token}`" if error.code.value in ASKING else f"refused: {error.code.value}"
        return said + ("" if error.rule == name else f" (by `{error.rule}`!)")
    read = ", ".join(f"{quantity.value} {value.normalize():f}" for quantity, value in command.values.items())
    return read + ("" if name in command.grammar else " (row not used!)")


def grammar_table() -> str:
    """The grammar of labelled numbers (`bot.reader.grammar`), row by row, and the corpus's counts."""
    from bot.reader.grammar import ATTACHMENTS, PHRASES, QUESTIONS

    rows = ["", "## Sentences: the grammar of labelled numbers", "", GRAMMAR_INTRO, ""]
    for title, table_rows in (("Phrases, rewritten before the words are told apart", PHRASES),
                              ("Which number a unit or label names", ATTACHMENTS),
                              ("Asked about or refused instead of guessed", QUESTIONS)):
        rows += [f"### {title}", "", "| row | says | example | read by today's code |", "|---|---|---|---|"]
        for row in table_rows:
            tag, text = row.example
            rows.append(f"| `{row.name}` | {row.says} | {tag}, `{text}` | {grammar_result(tag, text, row.name)} |")
        rows.append("")
    return "\n".join(rows) + "\n" + corpus_counts()


def corpus_counts() -> str:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_corpus import counts

    rows = ["## The corpus", "", CORPUS_INTRO, "", "| | right | asked | refused | wrong |", "|---|---:|---:|---:|---:|"]
    for kind, found in counts().items():
        rows.append(f"| {kind}s | {found['right']} | {found['asked']} | {found['refused']} | {found['wrong']} |")
    return "\n".join(rows) + "\n"


ASKING = frozenset({"ambiguous_number", "ambiguous_grouping", "unplaced_number"})
GRAMMAR_INTRO = """Words beside the numbers (`64 GPUs: 2000 img/s, 90%`, `per GPU 2000 img/s, 64 GPUs`,
`64台で2000サンプル/秒`) are read by the grammar of labelled numbers (`bot/reader/grammar.py`, applied by
`bot/reader/marking.py` and `bot/reader/attachment.py`; its words are in `bot/reader/labels.py`): phrases are
rewritten first, then each unit or label is written on the number it names, and the numbers no unit names take the
values left in order. `key=value` and `key: value` stay, for known keys only; a colon after a unit or device word is
punctuation. A word the grammar does not understand never moves a number into another field: it is named in the
error, and a number the grammar cannot place with certainty is asked about, naming the number and the values it
could be. Every outcome names its row (`Command.grammar`, or the error's `rule`). The message shortcut reads a
message by the same rows, and first leaves out the numbers that are none of the four
(`bot.reader.excerpts.LEFT_OUT`: latency, batch sizes, epochs and steps, dates, versions, model sizes, sequence
lengths, utilisation); there only a number a unit or label names is placed."""
CORPUS_INTRO = """`tests/corpus/sentences.tsv` holds commands and channel messages as people write them in the twelve
shipped languages and for the unknown reader, traps included (a unit on the other number, latency and batch
numbers in messages), each with the reading its writer meant, written before it was run (`tests/test_corpus.py`).
*Right* is the reading meant (or the question or refusal meant); *asked* and *refused* are a question or a
refusal where a reading was meant; *wrong* is any other reading, and must stay 0."""


def render() -> str:
    return INTRO + table() + grouping_table() + grammar_table()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not DOC.exists() or DOC.read_text(encoding="utf-8") != text:
            print("docs/reading.md is not today's rule table: run python scripts/reading_rules.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
