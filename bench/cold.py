"""Cold start, side by side in one run: process start to the first answered slash command.

    python bench/cold.py [--rounds 9] [--before DIR]

  dpscale         the Procfile's `web:` command (`python -m bot.server`) on a new SQLite file: the schema made,
                  Slack's auth.test asked, the user's locale looked up with users.info, the reply built
  dpscale, again  the same on the database a previous start left (a restart, or a deploy: the schema is there)
  floor           the bare Bolt app of bench/bare.py under the same server (`python -m bench.bare`: gunicorn,
                  dpscale's worker and ASGI front, its settings), none of dpscale's own imports
  before          with `--before DIR` (another checkout, e.g. `git worktree add DIR v1`): its `web:` command on
                  the database a previous start left, for the change a commit made

The servers take turns, round after round, so a noisy machine moves them alike; the table gives each one's
median, its ratio to the floor's median, and the median of its ratios to the floor within each round (what a
machine that slows down or speeds up between rounds moves least). The Python files are compiled first (as a
wheel's install does), so that no start compiles them again.
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.load import APPS, FLOOR, USERS, Server  # noqa: E402
from fake_slack import FakeSlack  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--before", type=Path, help="another checkout of dpscale, started as `before`")
    args = parser.parse_args()
    seconds = measure_starts(args.rounds, args.before)
    print(f"Cold start, process start to the first answered slash command; median of {args.rounds} rounds")
    print()
    print("\n".join(start_table(seconds)))


def measure_starts(rounds: int, before: Path | None = None) -> dict[str, list[float]]:
    """Each server's seconds from process start to its first answer, `rounds` times, the servers taking turns."""
    for tree in (ROOT / "bot", ROOT / "bench", *([before / "bot"] if before else [])):
        compileall.compile_dir(tree, quiet=1)
    fake = FakeSlack(locales={u: "de-DE" for u in USERS}).start()
    kept = f"sqlite:///{tempfile.mkdtemp(prefix='dpscale-cold-')}/dpscale.sqlite3"
    servers = {
        "dpscale": lambda: Server("dpscale", APPS["dpscale"], fake),
        "dpscale, again": lambda: Server("dpscale", APPS["dpscale"], fake, extra_env={"DATABASE_URL": kept}),
        "floor": lambda: Server(FLOOR, APPS[FLOOR], fake),
    }
    if before:
        earlier = f"sqlite:///{tempfile.mkdtemp(prefix='dpscale-cold-')}/dpscale.sqlite3"
        servers["before, again"] = lambda: Server("dpscale", APPS["dpscale"], fake, root=before.resolve(),
                                                  extra_env={"DATABASE_URL": earlier})
    seconds: dict[str, list[float]] = {name: [] for name in servers}
    try:
        for _ in range(rounds):
            for name, make in servers.items():
                server = make()
                try:
                    seconds[name].append(server.start())
                finally:
                    server.stop()
    finally:
        fake.stop()
    return seconds


def start_table(seconds: dict[str, list[float]]) -> list[str]:
    """The cold starts as a Markdown table: medians, ranges, and ratios to the floor (of the medians, and the
    median of each round's)."""
    floor = statistics.median(seconds["floor"])
    lines = ["| server | median s | range s | × floor | × floor, round by round (median) |",
             "|---|---:|---:|---:|---:|"]
    for name, values in seconds.items():
        median = statistics.median(values)
        paired = statistics.median(value / base for value, base in zip(values, seconds["floor"], strict=True))
        lines.append(f"| {name} | {median:.3f} | {min(values):.3f}–{max(values):.3f} | {median / floor:.2f} | "
                     f"{paired:.2f} |")
    return lines


if __name__ == "__main__":
    main()
