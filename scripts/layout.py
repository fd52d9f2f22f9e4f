"""Write docs/layout.md's table from the tree: every module of bot/ and its docstring's first paragraph, between
the `<!-- layout -->` markers (no line counts: a change that adds a line leaves the table as it was).

    python scripts/layout.py          # rewrite the section
    python scripts/layout.py --check  # exit 1 if the table is not today's tree

tests/test_layout.py runs the check and holds every module to a docstring, ~300 lines and ~40-line functions.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "docs" / "layout.md"
START, END = "<!-- layout -->", "<!-- /layout -->"


def modules() -> list[Path]:
    return sorted((ROOT / "bot").rglob("*.py"))


def summary(path: Path) -> str:
    """The docstring's first paragraph, on one line."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(docstring.strip().split("\n\n", 1)[0].split())


def section() -> str:
    rows = []
    for path in modules():
        rows.append(f"| `{path.relative_to(ROOT)}` | {summary(path).replace('|', '&#124;')} |")
    table = "\n".join(["| module | its one job |", "|---|---|", *rows])
    return f"{START}\n{table}\n{END}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = LAYOUT.read_text(encoding="utf-8")
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    updated = before + section() + after
    if args.check:
        if updated != text:
            print("docs/layout.md is stale: run python scripts/layout.py", file=sys.stderr)
            return 1
        return 0
    LAYOUT.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
