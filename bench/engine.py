"""Median time per command for parse + validate + calculate + render, in every Slack locale side by side.

    python bench/engine.py [--rounds 7] [--repeat 300]

Not a test: it prints a table. Every round times the same mix of commands (the seed example, a fraction, each
inverse mode, help, two errors), written in each locale's own number format, once per locale in the same
process; the table reports the median of the rounds and each locale's ratio to the fastest, so a noisy machine
moves all rows alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import answer  # noqa: E402
from bot.reader.numbers import resolve_locale  # noqa: E402
from bot.replies.wording import Wording  # noqa: E402

SLACK_LOCALES = ["en-US", "en-GB", "en-IN", "de-DE", "es-ES", "es-LA", "fr-FR", "it-IT", "ja-JP", "ko-KR", "pt-BR",
                 "zh-CN", "zh-TW"]


def mix(tag: str) -> list[str]:
    """The same eight commands, written the way a user of `tag` writes numbers."""
    words = Wording(resolve_locale(tag))
    n, pct = words.number, words.percent
    d, v, e, a = n(Decimal(64), 0), n(Decimal(2000)), pct(Decimal("0.9")), n(Decimal(115200))
    return [f"{d} {v} {e}", f"8 {n(Decimal(1500))} {n(Decimal('0.85'))}", f"{d} {v} actual={a}",
            f"v={v} e={e} actual=1M", "help", f"{d} {v} {pct(Decimal('1.5'))}", f"{d} two {e}", f"128 3k {e}"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    locales = {tag: resolve_locale(tag) for tag in SLACK_LOCALES}
    mixes = {tag: mix(tag) for tag in SLACK_LOCALES}
    for tag, texts in mixes.items():  # warm caches (catalogs, static FAQ blocks) before timing
        for text in texts:
            answer(text, locales[tag])
    per_command: dict[str, list[float]] = {tag: [] for tag in SLACK_LOCALES}
    for _ in range(args.rounds):
        for tag, texts in mixes.items():
            started = time.perf_counter()
            for _ in range(args.repeat):
                for text in texts:
                    answer(text, locales[tag])
            per_command[tag].append((time.perf_counter() - started) / (args.repeat * len(texts)))
    medians = {tag: statistics.median(samples) for tag, samples in per_command.items()}
    fastest = min(medians.values())
    print(f"{'locale':8} {'median µs/command':>18} {'min µs':>8} {'max µs':>8} {'× fastest':>10}  "
          f"({args.rounds} rounds × {args.repeat} × {len(mixes['en-US'])} commands)")
    for tag, samples in per_command.items():
        print(f"{tag:8} {medians[tag] * 1e6:18.1f} {min(samples) * 1e6:8.1f} {max(samples) * 1e6:8.1f} "
              f"{medians[tag] / fastest:10.2f}")
    print(f"slowest / fastest: {max(medians.values()) / fastest:.2f}")


if __name__ == "__main__":
    main()
