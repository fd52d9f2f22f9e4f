"""`dpscale TEXT [--locale TAG] [--json] [--chart FILE]`: the bot's reply without Slack.

`--locale unknown` answers as the Slack app does when Slack has not told it the user's locale: in English, with
every number that Slack's locales read differently asked about. A `format=de-DE` word in TEXT reads and writes
that one run's numbers in that format, as the word does in Slack once saved (here nothing is saved; alone, it
shows the help in that format).

Prints the reply as plain text (what the Slack message shows, its markup rendered: `bot.replies.plain`) or, with
--json, the exact Block Kit payload the bot sends. In plain text the command is written as a terminal takes it
(`dpscale 64 2,000 90%`, not Slack's `/dpscale …`). Exit status 0 for a result or help, 2 for a user error (its
message on stderr; also for `--chart` with anything but a series). `--chart scaling.png` writes a series' chart,
the PNG the Slack app uploads (`bot.replies.chart`; a forecast's `at=` drawn too). `dpscale --version` prints the
installed version.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from importlib.metadata import PackageNotFoundError, version

from bot.engine import answer, measured_series
from bot.errors import UserInputError
from bot.format_choice import UnknownFormatError, build_unknown_format_reply, take_format_choice
from bot.reader.numbers import resolve_locale
from bot.reader.recipient import Audience, Recipient
from bot.reader.series_syntax import wants_series_form
from bot.replies import Reply, build_error_reply, render_plain_text
from bot.replies.guide import build_series_form_note
from bot.replies.wording import wording_for
from bot.settings import Settings

DEFAULT_LOCALE: str = Settings.model_fields["dpscale_default_locale"].default  # the app's own default
# Slack's way to type it; a terminal's is `dpscale`. After a space, a quote or any punctuation (`用法：/dpscale`,
# `「/dpscale シリーズ」`), never inside a word or a path (`docs/dpscale`)
SLASH_COMMAND = re.compile(r"(?<![\w/.])/dpscale\b")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dpscale", description="Data-parallel scaling: what a cluster delivers.")
    parser.add_argument("text", nargs="*", help='what you would type after /dpscale, e.g. "64 2.000 90 %%"; '
                        "format=de-DE reads this run's numbers in that format")
    parser.add_argument(
        "--locale",
        default=DEFAULT_LOCALE,
        help="Slack locale tag, e.g. de-DE (default en-US); 'unknown' reads numbers as for a user whose locale "
        "Slack has not told",
    )
    parser.add_argument("--json", action="store_true", help="print the Block Kit payload instead of text")
    parser.add_argument("--version", action="version", version=f"dpscale {installed_version()}")
    parser.add_argument("--chart", metavar="FILE", help="write a measurement series' chart to FILE, as a PNG")
    args = parser.parse_args(argv)
    try:
        default = resolve_locale(DEFAULT_LOCALE)
        unknown = args.locale == Audience.UNKNOWN
        recipient = Recipient.of(default, Audience.UNKNOWN) if unknown else Recipient.parse(args.locale)
    except UserInputError as error:
        reply = build_error_reply(error, Recipient.parse(DEFAULT_LOCALE))
    else:
        reply = answer_with_format(" ".join(args.text), recipient)
    output = (
        json.dumps(reply.payload(), ensure_ascii=False, indent=2) + "\n"
        if args.json
        else in_terminal(render_plain_text(reply))
    )
    (sys.stderr if reply.is_error else sys.stdout).write(output)
    if args.chart and not reply.is_error:
        return write_chart(" ".join(args.text), recipient, args.chart)
    return 2 if reply.is_error else 0


def installed_version() -> str:
    try:
        return version("dpscale")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def in_terminal(text: str) -> str:
    """A reply's plain text with the command written as this tool takes it: `dpscale 64 2,000 90%`."""
    return SLASH_COMMAND.sub("dpscale", text)
def write_chart(text: str, recipient: Recipient, path: str) -> int:
    """The series' chart written to `path`; 2 (and why, on stderr) when `text` is no series."""
    choice, rest = take_format_choice(text)  # read without error: the reply was not one
    if choice is not None and choice.tag is not None:
        recipient = recipient.choosing(resolve_locale(choice.tag))
    found = measured_series(rest, recipient)
    if found is None:
        sys.stderr.write(wording_for(recipient).gettext("Only a measurement series has a chart: nothing was written "
                                                     "to {file}.").format(file=path) + "\n")
        return 2
    from bot.replies.chart import series_chart  # matplotlib, only where a chart is drawn

    with open(path, "wb") as file:
        file.write(series_chart(*found))
    return 0


def answer_with_format(text: str, recipient: Recipient) -> Reply:
    """The reply to `text`, its numbers in the format a `format=` word names, if it names one (`format=slack`:
    the locale's own); an unknown format, or the word without a value, is answered as in Slack."""
    try:
        choice, rest = take_format_choice(text)
    except UnknownFormatError as unknown:
        return build_unknown_format_reply(unknown.token, recipient)
    except UserInputError as error:
        return build_error_reply(error, recipient)
    if choice is not None and choice.tag is not None:
        recipient = recipient.choosing(resolve_locale(choice.tag))
    if wants_series_form(rest):  # in Slack the form opens (bot/slack/series.py); here there is none to open
        return build_series_form_note(recipient, rest.strip())
    return answer(rest, recipient)


if __name__ == "__main__":
    raise SystemExit(main())
