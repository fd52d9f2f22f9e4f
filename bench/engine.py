"""Median time per command for parse + validate + calculate + render, in German and English.

    python bench/engine.py [--rounds 7] [--repeat 2000]

Not a test: it prints a table. Every round times the whole mix of commands once per language, side by side in
the same process, and the table reports the median of the rounds, so a noisy machine moves all rows alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import answer  # noqa: E402
from bot.numbers import resolve_locale  # noqa: E402

MIX = {
    "de-DE": ["64 2.000 90 %", "8 1.500 0,85", "64 2000 actual=115.200", "v=2.000 e=90 % actual=1M", "hilfe",
              "64 2.000 150 %", "64 zwei 90 %", "128 3,5k 0.9"],
    "en-US": ["64 2,000 90%", "8 1500 0.85", "64 2000 actual=115200", "v=2000 e=90% actual=1M", "help",
              "64 2000 150%", "64 two 90%", "128 3.5k 0,9"],
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    locales = {tag: resolve_locale(tag) for tag in MIX}
    for tag, texts in MIX.items():  # warm caches (catalogs, static FAQ blocks) before timing
        for text in texts:
            answer(text, locales[tag])
    per_command: dict[str, list[float]] = {tag: [] for tag in MIX}
    for _ in range(args.rounds):
        for tag, texts in MIX.items():
            started = time.perf_counter()
            for _ in range(args.repeat):
                for text in texts:
                    answer(text, locales[tag])
            per_command[tag].append((time.perf_counter() - started) / (args.repeat * len(texts)))
    print(f"{'locale':8} {'median µs/command':>18} {'min µs':>8} {'max µs':>8}  ({args.rounds} rounds × "
          f"{args.repeat} × {len(MIX['en-US'])} commands)")
    medians = {}
    for tag, samples in per_command.items():
        medians[tag] = statistics.median(samples)
        print(f"{tag:8} {medians[tag] * 1e6:18.1f} {min(samples) * 1e6:8.1f} {max(samples) * 1e6:8.1f}")
    print(f"ratio de-DE / en-US: {medians['de-DE'] / medians['en-US']:.2f}")


if __name__ == "__main__":
    main()
