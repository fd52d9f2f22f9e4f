"""Seed plausible bugs one at a time and check that the test suite catches each (a test that bites).

    python scripts/mutants.py               # run every mutant, print which tests caught it
    python scripts/mutants.py --write-doc   # also rewrite docs/testing.md's table from this run

Each mutant replaces one exact snippet in one module (it must stand there exactly once, so a mutant that no longer
applies is reported rather than silently skipped), runs the test files named for it, and restores the module.
A mutant that no test catches is a gap: the script exits 1.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "testing.md"
START, END = "<!-- mutants -->", "<!-- /mutants -->"


@dataclass(frozen=True)
class Mutant:
    area: str
    bug: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


MUTANTS = [
    Mutant("numbers", "trailing zeros kept: 115,200.00", "bot/reader/numbers.py",
           'text = text.rstrip("0").removesuffix(style.decimal)', "pass", ("tests/test_messages.py",)),
    Mutant("parsing", "a bare 90 read as 9000 % instead of 90 %", "bot/reader/values.py",
           'return _scaled(reading, Decimal("0.01")), Bare.PERCENT', "return reading, Bare.PERCENT",
           ("tests/test_parsing.py", "tests/test_messages.py")),
    Mutant("parsing", "the German help word is not known", "bot/reader/languages.py",
           'help=("hilfe",),', "help=(),", ("tests/test_parsing.py", "tests/test_keywords.py")),
    Mutant("reading", "another Slack locale's thousand-fold reading computed silently", "bot/reader/rules.py",
           "lambda c: c.ask({c.own, *c.others}, AskReason.OTHER_LOCALES) if c.own is not None and c.others else None",
           "lambda c: c.read(c.own) if c.own is not None and c.others else None",
           ("tests/test_properties.py", "tests/test_parsing.py")),
    Mutant("reading", "superscripts folded: 10³ read as 103", "bot/reader/folding.py",
           'unicodedata.normalize("NFC", text.translate(_FOLDS))', 'unicodedata.normalize("NFKC", text)',
           ("tests/test_parsing.py",)),
    Mutant("numbers", "a channel's figures written in the author's format", "bot/reader/numbers.py",
           "if shared or str(locale) in REGION_MEMBERS:",
           "if str(locale) in REGION_MEMBERS:", ("tests/test_properties.py",)),
    Mutant("calculator", "devices for a target rounded down", "bot/model/calculator.py",
           "to_integral_value(rounding=ROUND_CEILING)", "to_integral_value()", ("tests/test_calculator.py",)),
    Mutant("calculator", "speedup ignores the efficiency", "bot/model/calculator.py",
           "speedup=d * e,", "speedup=d,", ("tests/test_calculator.py",)),
    Mutant("calculator", "an efficiency above 100 % accepted", "bot/model/calculator.py",
           "Quantity.EFFICIENCY: (MIN_EFFICIENCY, ONE, True),", "Quantity.EFFICIENCY: (MIN_EFFICIENCY, ONE * 2, True),",
           ("tests/test_calculator.py", "tests/test_messages.py")),
    Mutant("replies", "user text echoed unescaped (<!channel> pings)", "bot/replies/blocks.py",
           'return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")', "return text",
           ("tests/test_messages.py", "tests/test_properties.py")),
    Mutant("replies", "the bar shows no block for a small efficiency", "bot/replies/result.py",
           "max(1 if efficiency > 0 else 0, filled)", "max(0, filled)", ("tests/test_messages.py",)),
    Mutant("i18n", "Traditional Chinese readers get Simplified Chinese", "bot/i18n.py",
           'f"{locale.language}_{locale.script}" if locale.script else None,', "None,",
           ("tests/test_languages.py", "tests/test_i18n.py")),
    Mutant("listeners", "a mention answered again when Slack delivers it under a new event id", "bot/slack/events.py",
           "if not edited and not services.store.handled.first(EVENT, message.claim, services.policy.memory,",
           "if False and not services.store.handled.first(EVENT, message.claim, services.policy.memory,",
           ("tests/test_payloads.py",)),
    Mutant("listeners", "a user's locale never cached: users.info on every request", "bot/slack/locales.py",
           "self._cache.put(key, locale)", "pass", ("tests/test_locales.py",)),
    Mutant("listeners", "one user's user_not_found pauses every lookup", "bot/slack/locales.py",
           "elif code in APP_ERRORS:", "elif True:", ("tests/test_locales.py",)),
    Mutant("listeners", "Share keeps the private copy", "bot/slack/actions.py",
           "deliver(response_url, delete_original=True)", "pass", ("tests/test_interactive.py",)),
    Mutant("follow-ups", "a job taken while its lease still runs", "bot/store/work.py",
           "due = and_(work.c.done.is_(False), work.c.lease_until <= now, work.c.expires_at > now)",
           "due = and_(work.c.done.is_(False), work.c.expires_at > now)", ("tests/test_followups.py",)),
    Mutant("follow-ups", "a writer whose lease was taken over still writes", "bot/store/work.py",
           "statement = update(work).where(_this(job), work.c.holder == job.holder, work.c.done.is_(False))",
           "statement = update(work).where(_this(job), work.c.done.is_(False))", ("tests/test_followups.py",)),
    Mutant("follow-ups", "the heartbeat extends no lease", "bot/slack/followups.py",
           "return len(self.store.work.hold_all(jobs, self.policy.lease)) if jobs else 0", "return len(jobs)",
           ("tests/test_followups.py",)),
    Mutant("follow-ups", "a sweeper takes up its own process's queued work", "bot/slack/followups.py",
           "lease=self.policy.lease, skip=mine)", "lease=self.policy.lease, skip=())", ("tests/test_followups.py",)),
    Mutant("grouping", "a space join beside a number grouped otherwise read in silence: 64 200 2.000 90 %",
           "bot/reader/grouping.py", 'return " ".join(words[index] for index in joined[0])', "return None",
           ("tests/test_parsing.py",)),
    Mutant("reading", "a first group of four digits taken for a group: 2000,000 read as 2000 with a note",
           "bot/reader/candidates.py",
           'r"([1-9]\\d{3,})([.,])(\\d{3})"', 'r"([1-9]\\d{4,})([.,])(\\d{3})"', ("tests/test_bounds.py",)),
    Mutant("reading", "a bare 9.5 read as 9.5 %", "bot/reader/values.py",
           "BARE_PERCENT_FROM = Decimal(10)", "BARE_PERCENT_FROM = Decimal(9)", ("tests/test_bounds.py",)),
    Mutant("reading", "a bare 1 refused instead of read as 100 %", "bot/reader/values.py",
           "if 1 < reading.value < BARE_PERCENT_FROM:", "if 1 <= reading.value < BARE_PERCENT_FROM:",
           ("tests/test_bounds.py",)),
    Mutant("grouping", "a group of two continues a number: 64 2 00 90% read as 200", "bot/reader/grouping.py",
           'r"\\d{3}(?:\\u202f\\d{3})*(?:[.,]\\d+)?[kKMG]?%?"', 'r"\\d{2,3}(?:\\u202f\\d{3})*(?:[.,]\\d+)?[kKMG]?%?"',
           ("tests/test_bounds.py",)),
    Mutant("grouping", "one way of joining fewer weighed: ten groups joined at once", "bot/reader/grouping.py",
           "MAX_GROUP_CHOICES = 10", "MAX_GROUP_CHOICES = 9", ("tests/test_bounds.py",)),
    Mutant("calculator", "one device more than the limit accepted", "bot/model/calculator.py",
           "Quantity.DEVICES: (ONE, Decimal(MAX_DEVICES), True),",
           "Quantity.DEVICES: (ONE, Decimal(MAX_DEVICES + 1), True),",
           ("tests/test_bounds.py",)),
    Mutant("reading", "a house form read silently beside a number in another format", "bot/reader/rules.py",
           "if c.own is not None and c.found.house and c.doubts else None", "if False else None",
           ("tests/test_parsing.py", "tests/test_rules.py")),
    Mutant("labels", "a unit word names no quantity: 64 GPUs refused", "bot/reader/labels.py",
           "if (quantity := label_quantities().get(key)) is not None:", "if (quantity := None) is not None:",
           ("tests/test_parsing.py",)),
    Mutant("store", "SQL errors quote their values: an installation's bot token in the log", "bot/store/db.py",
           '"hide_parameters": True', '"hide_parameters": False', ("tests/test_faults.py",)),
    Mutant("series", "Karp–Flatt divides by (1 + 1/d)", "bot/model/series.py",
           "(1 / speedup - one_over_d) / (1 - one_over_d)", "(1 / speedup - one_over_d) / (1 + one_over_d)",
           ("tests/test_series.py",)),
    Mutant("series", "E per doubling per e-fold instead (no log 2)", "bot/model/series.py",
           "return (Decimal(high).ln() - Decimal(low).ln()) / Decimal(2).ln()",
           "return Decimal(high).ln() - Decimal(low).ln()", ("tests/test_series.py",)),
    Mutant("series", "a series' numbers read past the reading rules: 8=15.800 from an English user is 15 800",
           "bot/reader/series_syntax.py", "reading = read_number(body, reader, possible_for(quantity), evidence)",
           "reading = Reading(body, Decimal(body.replace(',', '').replace('.', '')))",
           ("tests/test_series_syntax.py",)),
    Mutant("series", "an error in a measurement does not name it", "bot/reader/series_syntax.py",
           "quantity=quantity.value, pair=pair)", "quantity=quantity.value, pair=None)",
           ("tests/test_series_syntax.py",)),
    Mutant("series", "a speedup that falls as devices are added is not said", "bot/replies/series.py",
           "    if series.trend.falling_speedups:", "    if False:", ("tests/test_series_replies.py",)),
    Mutant("series", "a constant e read as Amdahl's fixed serial part, such as data loading", "bot/replies/series.py",
           'SerialTrend.FLAT: lambda _: _(',
           'SerialTrend.FLAT: lambda _: _("The serial fraction e stays about the same at every size: a fixed serial "'
           '"part (such as data loading or a step that is not parallelized) limits the speedup.") or _(',
           ("tests/test_series_replies.py",)),
    Mutant("series", "e judged flat within a quarter: two sizes' +19 % called about the same", "bot/model/series.py",
           'TOLERANCE = Decimal("0.15")', 'TOLERANCE = Decimal("0.25")', ("tests/test_series.py",)),
    Mutant("series", "a flat efficiency's falling e not read as one fixed overhead", "bot/model/series.py",
           "    if abs(exponent + 1) <= TOLERANCE:\n        return SerialTrend.FIXED\n", "",
           ("tests/test_series.py",)),
    Mutant("series", "e's course fitted on d, not d − 1: a fixed overhead's e misread", "bot/model/series.py",
           "pairs = [(p.devices - 1, e)", "pairs = [(p.devices, e)", ("tests/test_series.py",)),
    Mutant("series", "a cluster made slower said to be beyond any single efficiency", "bot/replies/series.py",
           '"slower: communication or contention costs more than they contribute; look for a saturated link or "\n'
           '            "switch."', '"slower, which no single efficiency in this model can describe."',
           ("tests/test_series_replies.py",)),
    Mutant("forecast", "a constant e fitted below zero: a forecast above the ideal", "bot/model/forecast.py",
           "return (max(zero, sum((x * y for x, y in terms), zero) / sum((x * x for x, _ in terms), zero)),)",
           "return (sum((x * y for x, y in terms), zero) / sum((x * x for x, _ in terms), zero),)",
           ("tests/test_forecast.py",)),
    Mutant("series", "a mention's series written in the author's format", "bot/engine.py",
           "command, recipient)\n\n\ndef answer_series_form",
           "command, __import__('dataclasses').replace(recipient, audience=__import__('bot.reader.recipient').recipient"
           ".Audience.USER))\n\n\ndef answer_series_form",
           ("tests/test_series_replies.py",)),
    Mutant("series", "Edit on a series opens an empty form", "bot/slack/series.py",
           "series_initial_values(parse_series(words, recipient))", "None",
           ("tests/test_e2e_series.py",)),
    Mutant("shortcut", "a message's numbers read in the clicker's format, not its author's", "bot/slack/shortcuts.py",
           'or ""), author)', 'or ""), clicker)',
           ("tests/test_shortcuts.py",)),
    Mutant("shortcut", "a number in doubt dropped without a question", "bot/reader/excerpts.py",
           "    return Excerpt(values=values, question=error)\n", "    return Excerpt(values=values)\n",
           ("tests/test_excerpts.py",)),
    Mutant("cli", "Slack markup printed raw (emoji names, bold marks, backticks)", "bot/replies/plain.py",
           "return _unescaped(_emoji(text))", "return text", ("tests/test_cli.py",)),
    Mutant("deploy", "the Heroku recipe without PostgreSQL", "app.json",
           '"plan": "heroku-postgresql:essential-0"', '"plan": "heroku-redis:mini"', ("tests/test_deploy.py",)),
    Mutant("start-up", "slack run's SLACK_CLI_XOXB and SLACK_CLI_XAPP not read", "bot/settings.py",
           'CLI_TOKENS = {"SLACK_BOT_TOKEN": "SLACK_CLI_XOXB", "SLACK_APP_TOKEN": "SLACK_CLI_XAPP"}',
           "CLI_TOKENS: dict[str, str] = {}", ("tests/test_settings.py", "tests/test_startup.py")),
    Mutant("start-up", "a port in use left to the server's retries, PORT never named", "bot/server.py",
           "check_port(settings)  # before anything is built", "None  # before anything is built",
           ("tests/test_startup.py",)),
    Mutant("workflow step", "a wrong input's message does not name the input", "bot/slack/steps.py",
           "parts.append(problem if error.code in COUNT_CODES else words.field_line(labels[quantity], problem))",
           "parts.append(problem)", ("tests/test_steps.py",)),
    Mutant("workflow step", "an outcome Slack could not take acknowledged anyway: never delivered again",
           "bot/slack/steps.py", 'return BoltResponse(status=503, body="")', "ack()", ("tests/test_steps.py",)),
    Mutant("cli", "Slack's /dpscale printed in a terminal", "bot/cli.py",
           "else in_terminal(render_plain_text(reply))", "else render_plain_text(reply)", ("tests/test_cli.py",)),
    Mutant("web server", "a request's deadline ignored: the default 10 s kept", "bot/web/workers.py",
           "self.loop.call_later(self.limits.request, self._too_slow)", "self.loop.call_later(10.0, self._too_slow)",
           ("tests/test_policy.py",)),
    Mutant("web server", "a body past its limit served", "bot/web/asgi.py",
           "if len(body) > self.limits.body_bytes:", "if len(body) > 1 << 20:", ("tests/test_policy.py",)),
    Mutant("web server", "idle work waits its default patience, not the one given", "bot/web/asgi.py",
           "patience = time.monotonic() + pacing.idle_patience", "patience = time.monotonic() + 1.0",
           ("tests/test_policy.py",)),
    Mutant("follow-ups", "an edit waits 10 s for a first answer whatever the policy says", "bot/slack/threads.py",
           "deadline = time.monotonic() + policy.call_timeout", "deadline = time.monotonic() + 10.0",
           ("tests/test_followups.py",)),
    Mutant("follow-ups", "the sweeper beats no heartbeat", "bot/slack/sweeper.py",
           "                    self.heartbeat()\n", "                    pass\n", ("tests/test_sweeper.py",)),
    Mutant("grammar", "a grammar question named by a string equal to its row's name", "bot/reader/marking.py",
           "rule=Doubt.UNKNOWN_UNIT", 'rule="unknown_unit"', ("tests/test_grammar.py",)),
    Mutant("reading", "a reading rule's row named by a string equal to its name", "bot/reader/rules.py",
           "    Rule(R.HOUSE_FORM, Outcome.READ,", '    Rule("house_form", Outcome.READ,', ("tests/test_rules.py",)),
]


def run(mutant: Mutant) -> tuple[str, float]:
    """'caught', 'SURVIVED' or 'does not apply', and the seconds its tests took."""
    path = ROOT / mutant.path
    original = path.read_text(encoding="utf-8")
    if original.count(mutant.old) != 1:
        return "does not apply", 0.0
    path.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *mutant.tests],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        path.write_text(original, encoding="utf-8")
    return ("caught" if done.returncode != 0 else "SURVIVED"), time.monotonic() - started


def table(results: list[tuple[Mutant, str]]) -> str:
    rows = [f"| {m.area} | {m.bug} | `{m.path}` | {', '.join(f'`{t}`' for t in m.tests)} | {outcome} |"
            for m, outcome in results]
    return "\n".join(["| area | seeded bug | module | tests run | outcome |", "|---|---|---|---|---|", *rows])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write-doc", action="store_true")
    args = parser.parse_args()
    results = []
    for mutant in MUTANTS:
        outcome, seconds = run(mutant)
        print(f"{outcome:15} {seconds:6.1f}s  {mutant.area}: {mutant.bug}", flush=True)
        results.append((mutant, outcome))
    if args.write_doc:
        text = DOC.read_text(encoding="utf-8")
        before, rest = text.split(START, 1)
        DOC.write_text(before + START + "\n" + table(results) + "\n" + END + rest.split(END, 1)[1], encoding="utf-8")
    return 0 if all(outcome == "caught" for _, outcome in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
