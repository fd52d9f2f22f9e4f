"""The timing benchmarks side by side in one run, and docs/benchmarks.md rewritten from it.

    python bench/report.py            # about 5 minutes on 2 cores: what docs/benchmarks.md shows
    python bench/report.py --quick    # about 2 minutes: fewer rounds and shorter runs, for a look

Three measurements, each of dpscale beside the floor (bench/bare.py's Bolt app answering in-line, under the same
server), the two taking turns so that a machine that slows down moves both alike:

- **the cold burst** (bench/burst.py): a freshly started server (it has answered one command), then 200 commands
  of 100 new users in 1 s, half of them en-US, six texts, `users.info` answering in 200 ms; 5 rounds, each on a
  server of its own. Target: ack p99 ≤ 300 ms (1.5× the lookup), none over 3 s, every reply in its
  user's own format.
- **the cold start** (bench/cold.py): process start to the first answered command, 15 rounds. Target: ≤ 1.8×
  the floor's on a database already there (round by round, median), a margin under the 2× goal.
- **throughput** (bench/load.py's wrk runs): requests/s and p99 at 1, 16 and 64 clients over the benchmark's
  mix, 3 runs of 5 s each. Reported, not a target.

`--quick` runs 2 bursts, 5 starts and one 2-second run per level.

Instructions per command are not timed here: CI counts them at every commit (`bench/instructions.py --check`).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.burst import LOOKUP_DELAY, Burst, plan_burst, send_burst  # noqa: E402
from bench.cold import measure_starts, start_table  # noqa: E402
from bench.load import APPS, FLOOR, USERS, Run, Server, command_mix, run_wrk, write_wrk_script  # noqa: E402
from fake_slack import FakeSlack  # noqa: E402

BURST_TARGET_MS = 1.5 * LOOKUP_DELAY * 1000
START_TARGET = 1.8  # × the floor: a margin under the 2× target, which a short run met with none
SETTLE = 3.5  # seconds after a burst before the server is stopped: every lookup's write done


def measure_bursts(rounds: int) -> dict[str, list[Burst]]:
    """`rounds` cold bursts per app, each sent to a server started for it."""
    fake = FakeSlack(behaviour={"users.info": LOOKUP_DELAY}).start()
    bursts: dict[str, list[Burst]] = {"dpscale": [], FLOOR: []}
    try:
        for run in range(rounds):
            for name in bursts:
                planned = plan_burst(run if name == "dpscale" else 50 + run)
                server = Server(name, APPS[name], fake)
                server.start()
                try:
                    bursts[name].append(send_burst(server.url, fake, planned))
                    time.sleep(SETTLE)
                finally:
                    server.stop()
    finally:
        fake.stop()
    return bursts


def measure_throughput(levels: list[int], rounds: int, duration: int) -> dict[tuple[str, int], list[Run]]:
    """wrk over the mix at each level of clients, dpscale and the floor taking turns, `rounds` times."""
    fake = FakeSlack(locales={u: ("de-DE" if i % 2 else "en-US") for i, u in enumerate(USERS)}).start()
    runs: dict[tuple[str, int], list[Run]] = {}
    servers = {name: Server(name, APPS[name], fake) for name in ("dpscale", FLOOR)}
    script = Path(tempfile.mkdtemp(prefix="dpscale-report-")) / "mix.lua"
    texts = command_mix()
    try:
        for server in servers.values():
            server.start()
            write_wrk_script(texts, script)
            run_wrk(server.url, script, 4, 2)  # every user's locale looked up once, code paths loaded
        for _ in range(rounds):
            for level in levels:
                write_wrk_script(texts, script)  # fresh signatures for every batch
                for name, server in servers.items():
                    runs.setdefault((name, level), []).append(run_wrk(server.url, script, level, duration))
    finally:
        for server in servers.values():
            server.stop()
        fake.stop()
    return runs


def burst_section(bursts: dict[str, list[Burst]]) -> list[str]:
    lines = ["| server | ack p50 ms | ack p99 ms | p99 × lookup | max ms | over 3 s | replies in the user's format "
             "| users.info |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, runs in bursts.items():
        p99 = _median(runs, lambda b: b.p(0.99))
        own = f"{_median(runs, lambda b: b.own_format):.0f} of {len(runs[0].ack_ms)}" if name == "dpscale" else "—"
        lines.append(f"| {name} | {_median(runs, lambda b: b.p(0.5)):,.0f} | {p99:,.0f} | "
                     f"{p99 / (LOOKUP_DELAY * 1000):.2f} | {_median(runs, lambda b: max(b.ack_ms)):,.0f} | "
                     f"{_median(runs, lambda b: b.late):.0f} | {own} | {_median(runs, lambda b: b.lookups):.0f} |")
    lines += ["", "Each round's p99, dpscale: " + ", ".join(f"{b.p(0.99):,.0f}" for b in bursts["dpscale"]) + " ms."]
    return lines


def throughput_section(runs: dict[tuple[str, int], list[Run]], levels: list[int]) -> list[str]:
    lines = ["| clients | app | requests/s | × floor | p50 ms | p99 ms | p99 × floor | errors |",
             "|---:|---|---:|---:|---:|---:|---:|---:|"]
    for level in levels:
        floor_rps = statistics.median(r.rps for r in runs[(FLOOR, level)])
        floor_p99 = statistics.median(r.p99_ms for r in runs[(FLOOR, level)])
        for name in ("dpscale", FLOOR):
            rps = statistics.median(r.rps for r in runs[(name, level)])
            p99 = statistics.median(r.p99_ms for r in runs[(name, level)])
            p50 = statistics.median(r.p50_ms for r in runs[(name, level)])
            errors = sum(r.errors for r in runs[(name, level)])
            lines.append(f"| {level} | {name} | {rps:,.0f} | {rps / floor_rps:.2f} | {p50:.2f} | {p99:.2f} | "
                         f"{p99 / floor_p99:.2f} | {errors} |")
    return lines


def _median(runs: list[Burst], what: object) -> float:
    return statistics.median(what(run) for run in runs)  # type: ignore[operator]


def targets_section(bursts: dict[str, list[Burst]], starts: dict[str, list[float]]) -> list[str]:
    dpscale = bursts["dpscale"]
    p99 = _median(dpscale, lambda b: b.p(0.99))
    late = sum(b.late for b in dpscale)
    own = sum(b.own_format for b in dpscale)
    sent = sum(len(b.ack_ms) for b in dpscale)
    ratio = statistics.median(value / base for value, base in zip(starts["dpscale, again"], starts["floor"],
                                                                   strict=True))
    burst_met = p99 <= BURST_TARGET_MS and late == 0 and own == sent
    return [
        "| target | measured | met |", "|---|---|---|",
        f"| cold burst: ack p99 ≤ {BURST_TARGET_MS:.0f} ms (1.5× the lookup), none over 3 s, every reply in the "
        f"user's format | p99 {p99:,.0f} ms (median of {len(dpscale)} rounds), {late} over 3 s, {own} of {sent} "
        f"in the user's format | {'yes' if burst_met else '**no**'} |",
        f"| cold start on a database at the newest revision ≤ {START_TARGET:.1f}× the floor | {ratio:.2f}× "
        f"(median of {len(starts['floor'])} rounds' ratios) | {'yes' if ratio <= START_TARGET else '**no**'} |",
    ]


def render(args: argparse.Namespace, bursts: dict[str, list[Burst]], starts: dict[str, list[float]],
           runs: dict[tuple[str, int], list[Run]], minutes: float) -> str:
    import slack_bolt
    import uvicorn

    machine = (f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, slack-bolt "
               f"{slack_bolt.version.__version__}, uvicorn {uvicorn.__version__}; load average "
               f"{args.load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after it")
    lines = [
        "# Benchmarks", "",
        f"Written by `python bench/report.py{' --quick' if args.quick else ''}` in one run of {minutes:.1f} minutes "
        f"({machine}); every figure on this page comes from that run. dpscale runs as the Procfile starts it, the "
        "floor (bench/bare.py: a bare Bolt app answering in-line with a constant message) under the same server, "
        "both against a fake Slack Web API on loopback, taking turns. Instructions per command are counted in CI "
        "instead (`python bench/instructions.py --check`, docs/performance.md).", "",
        "## Targets", "", *targets_section(bursts, starts), "",
        "## The cold burst", "",
        f"A server started for each round answers one command, then gets 200 signed `/dpscale` commands from 100 "
        f"users new to it (two each, 5 ms apart, a user every 10 ms: 1 s in all), each from a thread and over a "
        f"connection of its own; half the users read en-US, half de-DE; the texts cycle through a result, the help, "
        f"the three inverse questions and decimals written the user's way; `users.info` answers in "
        f"{LOOKUP_DELAY * 1000:.0f} ms. A slash command's reply is its acknowledgement; a reply in the user's format "
        f"is the one the engine gives in their locale. Medians of {args.bursts} rounds.", "",
        *burst_section(bursts), "",
        "## Cold start", "",
        f"Process start to the first answered slash command, {args.starts} rounds, the servers taking turns "
        "(`dpscale`: a new SQLite file, the schema created first; `dpscale, again`: the database a previous start "
        "left, as after a restart or a deploy).", "",
        *start_table(starts), "",
        "## Throughput", "",
        f"wrk over the benchmark's mix of {len(command_mix())} texts from {len(USERS)} users (German and English; "
        f"results, errors, help); medians of {args.rounds} runs of {args.duration} s, the apps taking turns. "
        "Reported, not a target.", "",
        *throughput_section(runs, args.levels), "",
    ]
    wrapped = [line if line.startswith(("|", "#")) or not line else textwrap.fill(line, 115) for line in lines]
    return "\n".join(wrapped)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer rounds and shorter runs (about 2 minutes)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("needs wrk (Debian package `wrk`): apt-get install -y wrk")
    args.bursts, args.starts, args.rounds, args.duration = (2, 5, 1, 2) if args.quick else (5, 15, 3, 5)
    args.levels = [1, 16, 64]
    began, args.load_before = time.monotonic(), os.getloadavg()[0]
    bursts = measure_bursts(args.bursts)
    print("cold bursts done", file=sys.stderr, flush=True)
    starts = measure_starts(args.starts)
    print("cold starts done", file=sys.stderr, flush=True)
    runs = measure_throughput(args.levels, args.rounds, args.duration)
    report = render(args, bursts, starts, runs, (time.monotonic() - began) / 60)
    args.out.write_text(report)
    print(report)


if __name__ == "__main__":
    main()
