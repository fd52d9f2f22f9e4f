"""Write docs/samples/<language>.txt: the seed example's whole reply in each shipped language, as plain text; and
docs/samples/series/<language>.txt: a measurement series' reply (`bot.reader.series_syntax`) the same way; and
docs/samples/charts/<language>.png: that series' chart with a forecast for 128 devices (`bot.replies.chart`), one per
number format that draws different pixels (the chart holds no words: only its numbers' marks differ), named after
the first language that writes it.

    python scripts/render_samples.py          # rewrite the samples
    python scripts/render_samples.py --check  # exit 1 if a committed sample differs from today's reply (a chart:
                                              # if one is missing; its pixels follow matplotlib's version)

The command-line tool's own output (`dpscale TEXT --locale TAG`), so a reader of that language can review
everything a user sees — result, formula, notes, explanations, limits — in one place.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from bot.engine import answer
from bot.reader.recipient import Recipient
from bot.replies import render_plain_text
from bot.replies.wording import EXAMPLE, Wording

SAMPLES = Path(__file__).resolve().parent.parent / "docs" / "samples"
SERIES = ((2000, None), (8, 15800), (16, 31000), (32, 59000), (64, 108000))  # v, then (devices, measured A)
# one Slack locale per shipped catalog
LOCALES = {"en": "en-US", "en_GB": "en-GB", "de": "de-DE", "es": "es-ES", "es_419": "es-LA", "fr": "fr-FR",
           "it": "it-IT", "ja": "ja-JP", "ko": "ko-KR", "pt_BR": "pt-BR", "zh_Hans": "zh-CN", "zh_Hant": "zh-TW"}


def sample(tag: str) -> str:
    words = Wording(Recipient.parse(tag))
    d, v, e = EXAMPLE
    text = f"{words.number(d, 0)} {words.number(v)} {words.percent(e)}"
    header = f"$ dpscale '{text}' --locale {tag}\n\n"
    return header + render_plain_text(answer(text, Recipient.parse(tag)))


def series_sample(tag: str) -> str:
    """A series written in the locale's own format: `v=2.000 8=15.800 …` for German."""
    words = Wording(Recipient.parse(tag))
    text = " ".join(f"v={words.number(Decimal(d))}" if a is None else f"{d}={words.number(Decimal(a))}"
                    for d, a in SERIES)
    return f"$ dpscale '{text}' --locale {tag}\n\n" + render_plain_text(answer(text, Recipient.parse(tag)))


def charts() -> dict[str, bytes]:
    """Each distinct chart of the series (with `at=128`), under the first language whose numbers draw it."""
    from bot.engine import measured_series
    from bot.replies.chart import series_chart

    drawn: dict[bytes, str] = {}
    for name, tag in LOCALES.items():
        text = " ".join(f"v={d}" if a is None else f"{d}={a}" for d, a in SERIES) + " at=128"
        found = measured_series(text, Recipient.parse("en-US"))
        assert found is not None
        series, command = found
        png = series_chart(series, replace(command, recipient=Recipient.parse(tag)))
        drawn.setdefault(png, name)
    return {name: png for png, name in drawn.items()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    cases = [(SAMPLES / f"{name}.txt", sample(tag)) for name, tag in LOCALES.items()]
    cases += [(SAMPLES / "series" / f"{name}.txt", series_sample(tag)) for name, tag in LOCALES.items()]
    for path, text in cases:
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
    for name, png in charts().items():
        path = SAMPLES / "charts" / f"{name}.png"
        if args.check:
            if not path.exists():
                stale.append(path.name)
        else:
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(png)
    if stale:
        print("stale samples (run python scripts/render_samples.py):", ", ".join(stale), file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
