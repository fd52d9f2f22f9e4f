"""Every reply dpscale gives to a fixed set of inputs, written to one file, to compare two versions of the code.

    python scripts/differential.py OUT            # with this checkout's `bot` first on the path
    PYTHONPATH=/path/to/other/checkout python scripts/differential.py OUT2 && diff OUT OUT2

The inputs: every (reader, text) pair of tests/corpus/sentences.tsv, and the inputs of docs/languages.md's third
reading (with a few `lang=` and `format=` words beside them) for every Slack locale, as one user, as the unknown
reader (`@unknown`) and as a channel (`@channel`). A command is answered through the command-line tool, in its
plain text and its Block Kit payload; a message (a colleague's, read by the message shortcut) gives the values it
states and the question about it. The reader is built from its tag with whichever API the checkout has: the
`Recipient` value (`bot.reader.recipient`), or a locale tag read by `bot.formats.parse_reader_locale` in versions
before it.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "sentences.tsv"
LANGUAGES = ROOT / "docs" / "languages.md"
SLACK_TAGS = ("en-US", "en-GB", "de-DE", "es-ES", "es-LA", "fr-FR", "it-IT", "ja-JP", "ko-KR", "pt-BR", "zh-CN",
              "zh-TW")
AUDIENCES = ("", "@unknown", "@channel")
MORE_INPUTS = ("lang=de 64 2.000 90%", "lang=fr-FR help", "lang=en-US 64 2,000 90%", "lang=ja v=2000 8=15800 16=31000",
               "format=de-DE 64 2.000,5 90%", "format=fr-CH 64 2000 90%", "format=slack 64 2000 90%",
               "format=en-IN 64 20,00,000 90%", "64 2 000 90 %", "64 2,000.5 0,9")


def third_reading_inputs() -> list[str]:
    """The inputs docs/languages.md's third reading lists (each a code span), with `at=128` added as it says."""
    text = LANGUAGES.read_text(encoding="utf-8")
    block = text.split("Inputs (each run as", 1)[1].split("\n\n", 1)[0]
    inputs = [found for found in re.findall(r"`([^`]+)`", block) if "--locale" not in found and found != "at=128"]
    return [*inputs, "v=2000 8=15800 16=31000 64=115200 at=128"]


def corpus_pairs() -> list[tuple[str, str, str]]:
    """(kind, reader tag, text) of every line of the corpus."""
    pairs = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        kind, reader, text = line.split("\t")[:3]
        pairs.append((kind, "en-US@unknown" if reader == "unknown" else reader, text))
    return pairs


def reader_of(tag: str) -> Any:
    """The reader a tag stands for, in this checkout's own terms (its modules in bot/reader/, or in bot/ before)."""
    import importlib

    try:
        recipient = importlib.import_module("bot.reader.recipient")
    except ImportError:
        try:
            recipient = importlib.import_module("bot.recipient")
        except ImportError:  # a version before the `Recipient` value: a locale tag
            return importlib.import_module("bot.formats").parse_reader_locale(tag)
    return recipient.Recipient.parse(tag)


def cli_reply(text: str, tag: str, json_out: bool) -> str:
    """What `dpscale TEXT --locale TAG` (with `--json`) prints, and its exit status."""
    from bot.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([text, "--locale", tag, *(["--json"] if json_out else [])])
    return f"status {status}\n{out.getvalue()}{err.getvalue()}"


def message_reading(text: str, tag: str) -> str:
    """The values a message states for its author, and the question about it, as the message shortcut reads it."""
    import importlib

    try:
        read_message = importlib.import_module("bot.reader.excerpts").read_message
    except ImportError:  # a version with its modules in bot/
        read_message = importlib.import_module("bot.excerpts").read_message
    excerpt = read_message(text, reader_of(tag))
    values = " ".join(f"{quantity.value}={value}" for quantity, value in sorted(excerpt.values.items()))
    question = excerpt.question
    asked = "" if question is None else f" ask={question.code.value}:{question.token}:{question.rule}"
    return f"values {values or '-'}{asked}\n"


def cases() -> list[tuple[str, str, str]]:
    found = corpus_pairs()
    for text in [*third_reading_inputs(), *MORE_INPUTS]:
        found += [("command", tag + audience, text) for tag in SLACK_TAGS for audience in AUDIENCES]
    return found


def main(out_path: str) -> int:
    lines = []
    for kind, tag, text in cases():
        lines.append(f"=== {kind} {tag} {text}\n")
        if kind == "message":
            lines.append(message_reading(text, tag))
        else:
            lines.append(cli_reply(text, tag, json_out=False))
            lines.append(cli_reply(text, tag, json_out=True))
    Path(out_path).write_text("".join(lines), encoding="utf-8")
    import bot

    print(f"{len(lines)} lines for {len(cases())} cases from {Path(bot.__file__).parent}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
