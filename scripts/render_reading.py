"""Everything a reader of one language sees, rendered into one text file per locale, for a native reading:

    python scripts/render_reading.py DIR [--locale de-DE ...]   # DIR/<locale>.txt, every shipped locale by default

Each file holds, in the reader's own number format and words (the language's keys, help and series words):
results and the inverse questions, one and two devices, rounding, the unit a user typed, `lang=` and `format=`,
measurement series of every kind with and without a forecast, the help, some thirty errors and questions, the
answer for a reader whose locale Slack did not tell, a channel's copy, the single form, the series form, the
number-format menu and the Home tab. Each reply is the command-line tool's (`bot.cli.answer_with_format`: a
`format=` word is taken as Slack takes it), shown as it prints it (`bot.replies.render_plain_text`); a view as its
texts in order.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli import answer_with_format  # noqa: E402
from bot.model.calculator import Quantity  # noqa: E402
from bot.reader.languages import LANGUAGES  # noqa: E402
from bot.reader.recipient import Audience, Recipient  # noqa: E402
from bot.replies import render_plain_text  # noqa: E402
from bot.replies.wording import Wording  # noqa: E402

LOCALES = ("en-US", "en-GB", "de-DE", "es-ES", "es-LA", "fr-FR", "it-IT", "ja-JP", "ko-KR", "pt-BR", "zh-CN",
           "zh-TW")
D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL


def inputs(tag: str) -> Iterator[tuple[str, str]]:
    """(what the input shows, the command text) for a reader of `tag`, numbers written their way."""
    words = Wording(Recipient.parse(tag))
    table = LANGUAGES[words.language.language if str(words.language) not in LANGUAGES else str(words.language)]

    def n(value: str | int, digits: int = 2) -> str:
        return words.number(Decimal(value), digits)

    def p(value: str) -> str:
        return words.percent(Decimal(value))

    key = {q: table.keys[q][0] for q in Quantity}
    series = table.series[0]
    at = table.forecast[0]
    measured = f"v={n(2000)} 8={n(15800)} 16={n(31000)} 32={n(59000)} 64={n(108000)}"
    other = "fr-FR" if not tag.startswith("fr") else "de-DE"
    yield from [
        ("a result", f"64 {n(2000)} {p('0.9')}"),
        ("another result", f"8 {n(1000)} {p('0.75')}"),
        ("one device", f"1 {n(2000)} {p('0.9')}"),
        ("two devices", f"2 {n(2000)} {p('0.95')}"),
        ("the efficiency as a fraction", f"64 {n(2000)} {n('0.9')}"),
        ("a bare percentage", f"64 {n(2000)} 90"),
        ("devices worked out", f"{key[V]}={n(2000)} {key[E]}={p('0.9')} {key[A]}={n(115200)}"),
        ("devices worked out, rounded up", f"{key[V]}={n(2000)} {key[E]}={p('0.9')} {key[A]}=1M"),
        ("one device is enough", f"{key[V]}={n(2000)} {key[E]}={p('0.9')} {key[A]}=1"),
        ("per-device throughput worked out", f"{key[D]}=64 {key[E]}={p('0.9')} {key[A]}={n(115200)}"),
        ("efficiency worked out", f"64 {n(2000)} {key[A]}={n(100000)}"),
        ("efficiency worked out, one device", f"1 {n(2000)} {key[A]}={n(1800)}"),
        ("a unit typed with the numbers", f"64 {table.labels[D][0]} {n(2000)} img/s {p('0.9')}"),
        ("another language for the reply", f"64 {n(2000)} {p('0.9')} lang={other}"),
        ("another number format for this run", "64 2.000 90 % format=de-DE"),
        ("the help", table.help[0]),
        ("a series", f"{series} {measured}"),
        ("a series, forecast at 128", f"{measured} {at}=128"),
        ("a series, forecast far beyond it", f"{measured} {at}=4096"),
        ("two sizes and a forecast", f"v={n(2000)} 8={n(15800)} 16={n(31000)} {at}=64"),
        ("a series that scales perfectly", f"v={n(2000)} 8={n(16000)} 16={n(32000)} 32={n(64000)}"),
        ("a series whose speedup falls", f"v={n(2000)} 8={n(15000)} 16={n(24000)} 32={n(20000)}"),
        ("a series above ideal", f"v={n(2000)} 8={n(16800)} 16={n(33000)}"),
        ("a series whose efficiency rises, forecast", f"v={n(2000)} 8={n(14000)} 16={n(29000)} 32={n(60000)} {at}=64"),
        ("a series, one size only", f"v={n(2000)} 8={n(15800)}"),
        ("a series without v", f"8={n(15800)} 16={n(31000)}"),
        ("a series, not a number", "v=2000 8=15800 16=abc"),
        ("a series, a value missing", "v=2000 8=15800 16="),
        ("a forecast without a series", f"64 {n(2000)} {p('0.9')} {at}=128"),
        ("an ambiguous number", "64 2.000 90%" if words.style.decimal == "." else "64 2,000 90%"),
        ("a number in another format", "64 2000 0,9" if words.style.decimal == "." else "64 2000 0.9"),
        ("an ambiguous three-decimal number", "64 2000 1.234" if words.style.decimal == "." else "64 2000 1,234"),
        ("an unknown word", "banana"),
        ("too many numbers", f"64 {n(2000)} {p('0.9')} 5"),
        ("four plain numbers", "64 2000 90 80%"),
        ("too few values", f"64 {n(2000)}"),
        ("all four values", f"64 {n(2000)} {p('0.9')} {key[A]}={n(115200)}"),
        ("an efficiency over 100 %", f"64 {n(2000)} {p('1.5')}"),
        ("an efficiency of 1.5 as a fraction", f"64 {n(2000)} {n('1.5')}"),
        ("no devices", f"0 {n(2000)} {p('0.9')}"),
        ("a fraction of a device", f"{n('64.5')} {n(2000)} {p('0.9')}"),
        ("a negative number", f"-64 {n(2000)} {p('0.9')}"),
        ("a value given twice", f"{key[D]}=64 {key[D]}=32 {n(2000)} {p('0.9')}"),
        ("an actual throughput above ideal", f"64 {n(2000)} {key[A]}={n(200000)}"),
        ("a solved value out of range", f"{key[V]}={n('0.001')} {key[E]}={p('0.9')} {key[A]}=1G"),
        ("a percent sign on the throughput", f"64 {n(2000)}% {p('0.9')}"),
        ("a group mark in the wrong place", "64 2000,000 90%" if words.style.decimal == "." else "64 2000.000 90 %"),
        ("a superscript", "64 ²000 90%"),
        ("a number with letters", "64 2000x 90%"),
        ("an unknown unit", f"64 {n(2000)} TFLOPS {p('0.9')}"),
        ("a key without its number", f"{key[D]}= {n(2000)} {p('0.9')}"),
        ("an unknown language", f"64 {n(2000)} {p('0.9')} lang=xx"),
        ("an unknown number format", "format=xx"),
        ("a colleague named", f"@anna 64 {n(2000)} {p('0.9')}"),
        ("a text that tries to ping the channel", "<!channel> 64 2000 90%"),
    ]


def view_texts(view: Any) -> Iterator[str]:
    """The texts a person reads in a view or blocks, in order."""
    if isinstance(view, dict):
        for name in ("title", "submit", "close", "label", "placeholder", "hint", "text"):
            value = view.get(name)
            if isinstance(value, dict) and isinstance(value.get("text"), str):
                yield f"[{name}] {value['text']}"
            elif isinstance(value, str) and name == "text":
                yield value
        for name, value in view.items():
            if name not in ("title", "submit", "close", "label", "placeholder", "hint", "text"):
                yield from view_texts(value)
    elif isinstance(view, list):
        for item in view:
            yield from view_texts(item)


def views(tag: str) -> Iterator[tuple[str, Any]]:
    """The single form, the series form, the number-format menu and the Home tab, as `tag`'s reader sees them."""
    from bot.format_choice import build_format_blocks
    from bot.slack.series_form import series_form_view
    from bot.slack.state import FormMetadata
    from bot.slack.views import form_view, home_view

    recipient = Recipient.parse(tag)
    metadata = FormMetadata.of(recipient, None)
    yield "the form", form_view(recipient, metadata)
    yield "the series form", series_form_view(recipient, metadata)
    yield "the number-format menu", build_format_blocks(None, recipient)
    yield "the Home tab", home_view(recipient)


def render(tag: str) -> str:
    out = [f"# Everything a {tag} reader sees", ""]
    for about, text in inputs(tag):
        out += [f"## {about}", f"$ dpscale '{text}' --locale {tag}", "",
                render_plain_text(answer_with_format(text, Recipient.parse(tag))), ""]
    unknown = Recipient.of(Recipient.parse(tag).words, Audience.UNKNOWN)
    channel = Recipient.of(Recipient.parse(tag).words, Audience.CHANNEL)
    for about, recipient, text in (("a reader whose locale Slack did not tell", unknown, "64 2.000 90%"),
                                   ("a reply for a whole channel", channel, "64 2000 90%")):
        reply = answer_with_format(text, recipient)
        out += [f"## {about}", f"$ dpscale '{text}' ({about})", "", render_plain_text(reply), ""]
    for about, view in views(tag):
        out += [f"## {about}", "", *view_texts(view), ""]
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("dir", type=Path)
    parser.add_argument("--locale", nargs="*", default=list(LOCALES))
    parser.add_argument("--json", action="store_true", help="also write each view's JSON beside the text")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    for tag in args.locale:
        (args.dir / f"{tag}.txt").write_text(render(tag), encoding="utf-8")
        if args.json:
            (args.dir / f"{tag}.views.json").write_text(
                json.dumps(dict(views(tag)), ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
