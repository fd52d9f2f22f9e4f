"""`dpscale TEXT [--locale TAG] [--json]`: the bot's reply without Slack.

Prints the reply as plain text (the same content as the Slack message) or, with --json, the exact Block Kit
payload the bot sends. Exit status 0 for a result or help, 2 for a user error (its message on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys

from bot.engine import answer
from bot.errors import UserInputError
from bot.numbers import resolve_locale
from bot.replies import build_error_reply, render_plain_text

DEFAULT_LOCALE = "en-US"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dpscale", description="Data-parallel scaling: what a cluster delivers.")
    parser.add_argument("text", nargs="*", help='what you would type after /dpscale, e.g. "64 2.000 90 %%"')
    parser.add_argument("--locale", default=DEFAULT_LOCALE, help="Slack locale tag, e.g. de-DE (default en-US)")
    parser.add_argument("--json", action="store_true", help="print the Block Kit payload instead of text")
    args = parser.parse_args(argv)
    try:
        locale = resolve_locale(args.locale)
    except UserInputError as error:
        reply = build_error_reply(error, resolve_locale(DEFAULT_LOCALE))
    else:
        reply = answer(" ".join(args.text), locale)
    output = (
        json.dumps(reply.payload(), ensure_ascii=False, indent=2) + "\n"
        if args.json
        else render_plain_text(reply)
    )
    (sys.stderr if reply.is_error else sys.stdout).write(output)
    return 2 if reply.is_error else 0


if __name__ == "__main__":
    raise SystemExit(main())
