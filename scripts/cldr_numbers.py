"""Write bot/reader/cldr_numbers.py: Babel's CLDR number data for every locale dpscale offers, read out of Babel.

    python scripts/cldr_numbers.py          # after a Babel upgrade (tests/test_cldr_numbers.py says when)

Each entry is what `bot.reader.numbers.babel_style` reads for the locale: decimal and group symbols, grouping sizes and
the percent pattern's affixes. The table spares every process the loading of 25 locales' data (some 0.2 s) in
its first request, when a reader compares the user's format with every Slack locale's.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import babel  # noqa: E402
from babel import Locale  # noqa: E402

from bot.reader.formats import offered_locales  # noqa: E402
from bot.reader.numbers import babel_style  # noqa: E402

HEADER = '''"""Babel's CLDR number data for every locale dpscale offers, as `bot.reader.numbers.babel_style` reads it:
decimal and group symbols, grouping sizes (first, then every further group) and the percent pattern's prefix and
suffix.

Written by `python scripts/cldr_numbers.py` from Babel {version}; do not edit. tests/test_cldr_numbers.py holds
every entry to what the installed Babel gives, and the table's keys to `bot.reader.formats.offered_locales`.
"""

from __future__ import annotations

__all__ = ["CLDR_NUMBERS"]

CLDR_NUMBERS: dict[str, tuple[str, str, tuple[int, int], str, str]] = {{
'''

FOOTER = '''}\n'''


def main() -> None:
    lines = [HEADER.format(version=babel.__version__)]
    for name in sorted(set(offered_locales())):
        style = babel_style(Locale.parse(name))
        entry = (style.decimal, style.group, style.grouping, style.percent_prefix, style.percent_suffix)
        lines.append(f"    {name!r}: {entry!r},\n")
    (ROOT / "bot" / "reader" / "cldr_numbers.py").write_text("".join(lines) + FOOTER, encoding="utf-8")


if __name__ == "__main__":
    main()
