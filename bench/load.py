"""Load benchmark: dpscale beside a bare Bolt app, under the same production server, in one run.

    python bench/load.py [--duration 5] [--rounds 3] [--levels 1 16 64]
    python bench/load.py --scale [--duration 5] [--rounds 3] [--clients 16]     # writes docs/scaling.md

Starts, each under the production server (gunicorn with bot/server.py's settings: dpscale by the Procfile's
`web:` command, the baselines by `python -m bench.bare`) and against a fake Slack Web API on
loopback:
  (a) dpscale,
  (b) a minimal Bolt app that acknowledges every /dpscale with a constant message, with Bolt's defaults,
  (c) the same minimal app answering in-line (process_before_response=True): the floor.
A last run at 16 clients measures dpscale again with 32 stalled connections open (headers announcing a
100,000-byte body that never comes), against its own rate without them.
wrk drives signed slash commands — a mix of several hundred different texts, German and English, results,
errors and help, signed in advance — at each concurrency level, round-robin over the apps and repeated, and
the table reports medians and ratios to the floor. Also measured: cold start (process start to the first
answered slash command), peak resident memory of the worker, and the engine's own time per command.

Writes docs/benchmarks.md and docs/benchmarks.png. Needs wrk (Debian package `wrk`) and matplotlib.

`--scale` instead compares layouts side by side on one PostgreSQL database (DPSCALE_TEST_POSTGRES_URL, or a
throwaway server started from the distribution's packages): dpscale serving one workspace beside dpscale serving
many (installed through the store, cached authorization, commands spread over the workspaces), and one process
beside one process per core, each beside the floor under the same layout. Writes docs/scaling.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.burst import LOOKUP_DELAY, Burst, RoundTrips, cold_burst, count_round_trips, median_of  # noqa: E402
from fake_slack import TEAM_ID, FakeSlack  # noqa: E402
from slack_client import (  # noqa: E402
    BOT_TOKEN,
    SIGNING_SECRET,
    free_port,
    post,
    procfile_command,
    signed_headers,
    slash_command_body,
    worker_memory_kib,
)

APPS = {
    "dpscale": "Procfile web",
    "bolt defaults": "bench.bare:create_wsgi_app(inline=False)",
    "bolt in-line (floor)": "bench.bare:create_wsgi_app(inline=True)",
}
FLOOR = "bolt in-line (floor)"
ROOTS: dict[str, Path] = {}  # apps run from another source tree
USERS = [f"UB{i:03d}" for i in range(40)]


@dataclass
class Server:
    name: str
    target: str
    fake: FakeSlack
    root: Path = ROOT  # the source tree it runs from (another checkout for --before)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    extra_env: dict[str, str | None] = field(default_factory=dict)  # None: leave the variable unset
    team: str = TEAM_ID  # the workspace of the first request

    def env(self) -> dict[str, str]:
        env: dict[str, str | None] = {
            "PATH": os.environ["PATH"], "PYTHONPATH": str(self.root), "PORT": str(self.port),
            "SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_API_URL": self.fake.api_url, "LOG_LEVEL": "INFO",
            "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp(prefix='dpscale-bench-')}/dpscale.sqlite3",
            **self.extra_env,
        }
        return {key: value for key, value in env.items() if value is not None}

    def command(self) -> list[str]:
        if self.target == APPS["dpscale"]:  # as the Procfile runs it, from whichever checkout
            command = procfile_command("web", self.root)
            python = shutil.which(command[0], path=str(Path(sys.executable).parent)) or command[0]
            return [python, *command[1:]]
        # the floors: dpscale's server, none of dpscale's app
        return [sys.executable, "-m", "bench.bare", *([] if self.target == APPS[FLOOR] else ["--defaults"])]

    def start(self) -> float:
        """Start the server; seconds from process start to the first answered slash command."""
        started = time.perf_counter()
        self.process = subprocess.Popen(
            self.command(), cwd=self.root, env=self.env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        body = slash_command_body("64 2000 90%", user=USERS[0], team_id=self.team)
        while True:
            try:
                response = post(self.url, body, signed_headers(body, "application/x-www-form-urlencoded"), 2)
                if response.status == 200:
                    return time.perf_counter() - started
            except OSError:
                pass
            if time.perf_counter() - started > 60:  # a busy machine starts it slowly
                raise TimeoutError(self.name)
            time.sleep(0.005)

    def stop(self) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/slack/events"

    def worker_peak_rss_mib(self) -> float:
        """VmHWM of the process serving requests."""
        assert self.process is not None
        return worker_memory_kib(self.process.pid, "VmHWM") / 1024


def command_mix(seed: int = 7) -> list[str]:
    """Several hundred different command texts, as German and English users type them."""
    rng = random.Random(seed)
    texts = []
    for _ in range(150):
        d, v, e = rng.randint(1, 4096), rng.randint(10, 50_000), rng.randint(40, 100)
        texts += [
            f"{d} {v:,} {e}%".replace(",", "."),            # German grouping
            f"{d} {v:,} {e}%",                               # English grouping
            f"{d} {v} 0,{e:02d}" if e < 100 else f"{d} {v} 1",
            f"{d} {v} actual={int(d * v * e / 100)}",
        ]
    texts += ["help", "hilfe", "64 2000 150%", "64 zwei 90 %", "64 2000", "v=2000 e=90% actual=1M"] * 10
    rng.shuffle(texts)
    return texts


def write_wrk_script(texts: list[str], path: Path, teams: tuple[str, ...] = (TEAM_ID,)) -> None:
    """A wrk script that cycles through slash commands signed now (valid for Slack's five minutes), from users
    of `teams` in turn."""
    lines = ["local requests = {}", "local i = 0", "init = function(args)"]
    for n, text in enumerate(texts):
        body = slash_command_body(text, user=USERS[n % len(USERS)], team_id=teams[n % len(teams)])
        headers = signed_headers(body, "application/x-www-form-urlencoded")
        lua_headers = ", ".join(f'["{k}"] = "{v}"' for k, v in headers.items())
        lines.append(f'  requests[{n + 1}] = wrk.format("POST", "/slack/events", {{{lua_headers}}}, "{body}")')
    lines += ["end", "request = function()", "  i = i % #requests + 1", "  return requests[i]", "end"]
    path.write_text("\n".join(lines) + "\n")


@dataclass
class Run:
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int


def run_wrk(url: str, script: Path, connections: int, duration: int) -> Run:
    threads = 1 if connections == 1 else 2
    out = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration}s", "--latency", "-s", str(script),
         "--timeout", "5s", url],
        capture_output=True, text=True, check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"50%\s+([\d.]+\w+)", out).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"99%\s+([\d.]+\w+)", out).group(1))  # type: ignore[union-attr]
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = (int(non_2xx.group(1)) if non_2xx else 0) + (sum(map(int, socket.groups())) if socket else 0)
    return Run(rps, p50, p99, errors)


def _ms(value: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", value).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def engine_time_us() -> dict[str, float]:
    from bot.engine import answer
    from bot.reader.numbers import resolve_locale

    texts = command_mix()[:200]
    result = {}
    for tag in ("de-DE", "en-US"):
        locale = resolve_locale(tag)
        for text in texts:
            answer(text, locale)
        samples = []
        for _ in range(5):
            started = time.perf_counter()
            for text in texts:
                answer(text, locale)
            samples.append((time.perf_counter() - started) / len(texts) * 1e6)
        result[tag] = statistics.median(samples)
    return result


def stall(port: int, count: int) -> list[socket.socket]:
    """Connections that send headers announcing a 100,000-byte body and never send it."""
    held = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(b"POST /slack/events HTTP/1.1\r\nHost: dpscale\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 100000\r\n\r\n")
        held.append(connection)
    return held


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, default=5, help="seconds per wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per app and level (medians reported)")
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--stalled", type=int, default=32, help="stalled connections beside the last run")
    parser.add_argument("--cold-starts", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--before", type=Path, help="a checkout of an earlier dpscale, measured beside this one")
    parser.add_argument("--before-label", help="what to call --before's checkout (default: its git commit)")
    parser.add_argument("--scale", action="store_true", help="compare workspace modes and process layouts")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients for --scale")
    parser.add_argument("--burst-rounds", type=int, default=5, help="cold bursts per server (medians reported)")
    parser.add_argument("--burst-threads", type=int, nargs="+", default=[16, 64],
                        help="WEB_THREADS of the dpscale servers the cold burst is sent to")
    parser.add_argument("--instructions", type=int, default=300, metavar="N",
                        help="commands counted under callgrind for the instruction target (0: skip)")
    args = parser.parse_args()
    if args.scale:
        main_scale(args)
        return
    if args.before:
        label = "dpscale before (" + (args.before_label or subprocess.run(
            ["git", "-C", str(args.before), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()) + ")"
        APPS[label] = APPS["dpscale"]
        ROOTS[label] = args.before.resolve()

    fake = FakeSlack(locales={u: ("de-DE" if i % 2 else "en-US") for i, u in enumerate(USERS)}).start()
    try:
        cold = measure_cold_starts(fake, args.cold_starts)
        servers = {name: Server(name, target, fake, ROOTS.get(name, ROOT)) for name, target in APPS.items()}
        for server in servers.values():
            server.start()
        texts = command_mix()
        script = Path(tempfile.mkdtemp()) / "dpscale.lua"
        for server in servers.values():  # warm-up: every user's locale looked up once, code paths loaded
            write_wrk_script(texts, script)
            run_wrk(server.url, script, 4, 2)
        runs: dict[tuple[str, int], list[Run]] = {}
        for _ in range(args.rounds):
            for level in args.levels:
                write_wrk_script(texts, script)  # fresh signatures for every batch
                for name, server in servers.items():
                    runs.setdefault((name, level), []).append(run_wrk(server.url, script, level, args.duration))
        stalled_runs: list[tuple[Run, Run]] = []
        dpscale = servers["dpscale"]
        for _ in range(args.rounds):  # dpscale at 16 clients, alone and beside stalled connections, in turns
            write_wrk_script(texts, script)
            alone = run_wrk(dpscale.url, script, 16, args.duration)
            held = stall(dpscale.port, args.stalled)
            beside = run_wrk(dpscale.url, script, 16, args.duration)
            for connection in held:
                connection.close()
            stalled_runs.append((alone, beside))
        memory = {name: server.worker_peak_rss_mib() for name, server in servers.items()}
        for server in servers.values():
            server.stop()
    finally:
        fake.stop()
    bursts = measure_cold_bursts(args)
    trips = measure_round_trips()
    instructions = measure_instructions(args.instructions)
    report = render_report(runs, cold, memory, engine_time_us(), args, len(texts), stalled_runs)
    report = render_targets(bursts, trips, instructions, args) + report
    args.out.mkdir(exist_ok=True)
    (args.out / "benchmarks.md").write_text(report)
    try:
        draw_chart(runs, args.levels, args.out / "benchmarks.png")
    except ImportError:  # the report stands without it
        print("docs/benchmarks.png not drawn: pip install -e '.[bench]' (matplotlib)", file=sys.stderr)
    print(report)


def measure_cold_starts(fake: FakeSlack, count: int) -> dict[str, float]:
    samples: dict[str, list[float]] = {name: [] for name in APPS}
    for _ in range(count):
        for name, target in APPS.items():
            server = Server(name, target, fake, ROOTS.get(name, ROOT))
            samples[name].append(server.start())
            server.stop()
    return {name: statistics.median(values) for name, values in samples.items()}


def burst_servers(fake: FakeSlack, threads: list[int]) -> dict[str, Server]:
    """dpscale at each thread count, and the floor, under the same server; all against `fake`."""
    servers = {f"dpscale, WEB_THREADS={n}": Server(f"dpscale {n}", APPS["dpscale"], fake,
                                                   extra_env={"WEB_THREADS": str(n)}) for n in threads}
    servers[FLOOR] = Server(FLOOR, APPS[FLOOR], fake)
    return servers


def measure_cold_bursts(args: argparse.Namespace) -> dict[str, list[Burst]]:
    """Each server gets `--burst-rounds` bursts of users new to it, the servers taking turns; then the last
    dpscale server is restarted on its database (a deploy) and gets the last round's users again."""
    fake = FakeSlack(behaviour={"users.info": LOOKUP_DELAY}).start()
    bursts: dict[str, list[Burst]] = {}
    try:
        servers = burst_servers(fake, args.burst_threads)
        last = list(servers)[len(args.burst_threads) - 1]
        database = f"sqlite:///{tempfile.mkdtemp(prefix='dpscale-bench-')}/dpscale.sqlite3"
        servers[last].extra_env["DATABASE_URL"] = database
        for server in servers.values():
            server.start()
        for run in range(args.burst_rounds):
            for name, server in servers.items():
                bursts.setdefault(name, []).append(cold_burst(server.url, fake, run))
        for server in servers.values():
            server.stop()
        deployed = Server("deployed", APPS["dpscale"], fake, extra_env=dict(servers[last].extra_env))
        deployed.start()
        bursts[f"{last}, restarted (same users)"] = [cold_burst(deployed.url, fake, args.burst_rounds - 1)]
        deployed.stop()
    finally:
        fake.stop()
    return bursts


def measure_round_trips() -> list[RoundTrips]:
    """Database round trips per command, on an SQLite file and (with DPSCALE_TEST_POSTGRES_URL) PostgreSQL."""
    fake = FakeSlack(locales={u: ("de-DE" if i % 2 else "en-US") for i, u in enumerate(USERS)}).start()
    try:
        found = [count_round_trips(f"sqlite:///{tempfile.mkdtemp(prefix='dpscale-bench-')}/d.sqlite3", fake,
                                   "SQLite")]
        if os.environ.get("DPSCALE_TEST_POSTGRES_URL"):
            from postgres_server import fresh_database

            with fresh_database(os.environ["DPSCALE_TEST_POSTGRES_URL"]) as url:
                found.append(count_round_trips(url, fake, "PostgreSQL"))
    finally:
        fake.stop()
    return found


def measure_instructions(requests: int) -> dict[str, float]:
    """Instructions per in-process dispatch (bench/instructions.py --in-process), dpscale and the floor."""
    if not requests or not shutil.which("valgrind"):
        return {}
    from bench.instructions import APPS as COUNTED
    from bench.instructions import dispatch_count

    fake = FakeSlack(locales={u: ("de-DE" if i % 2 else "en-US") for i, u in enumerate(USERS)}).start()
    try:
        return {name: dispatch_count(name, fake, requests) for name in COUNTED}
    finally:
        fake.stop()


def render_targets(bursts: dict[str, list[Burst]], trips: list[RoundTrips], instructions: dict[str, float],
                   args: argparse.Namespace) -> str:
    """The targets, measured side by side in this run, then the cold burst's table."""
    lines = ["# Benchmarks", "", "## Targets, measured side by side in this run", "",
             "| target | measured | met |", "|---|---|---|"]
    for name, runs in bursts.items():
        if name.startswith("dpscale") and "restarted" not in name:
            p99, late = median_of(runs, lambda b: b.p(0.99)), sum(b.late for b in runs)
            lines.append(f"| cold burst, {name}: ack p99 ≤ 300 ms, none over 3 s | p99 {p99:,.0f} ms, {late} over "
                         f"3 s | {'yes' if p99 <= 300 and not late else '**no**'} |")
    for found in trips:
        lines.append(f"| warm path, {found.database}: 0 database round trips per command | {found.warm:.2f} | "
                     f"{'yes' if found.warm == 0 else '**no**'} |")
        lines.append(f"| after a restart, {found.database}: ≤ 1 round trip and no users.info per user | "
                     f"{found.restart:.2f}, {found.restart_lookups} users.info | "
                     f"{'yes' if found.restart <= 1 and not found.restart_lookups else '**no**'} |")
    if instructions:
        dpscale = instructions["dpscale"]
        lines.append(f"| in-process instructions ≤ 1.5 M per command ({args.instructions} of the mix, the "
                     "dispatching thread) | "
                     f"{dpscale / 1e6:.3f} M (floor {instructions['bolt in-line (floor)'] / 1e6:.3f} M) | "
                     f"{'yes' if dpscale <= 1.5e6 else '**no**'} |")
    about = (f"{BURST_DESCRIPTION} Medians of {args.burst_rounds} bursts per server, the servers taking turns; the "
             "restarted row is one burst of the last round's users after that server was restarted on its database. "
             "How these were reached: [`lookups-and-cost.md`](lookups-and-cost.md).")
    lines += [
        "", "## The cold burst", "", *textwrap.wrap(about, 115), "",
        "| server | ack p50 ms | ack p99 ms | max ms | over 3 s | replies in the user's format | users.info |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, runs in bursts.items():
        own = "—" if name == FLOOR else f"{median_of(runs, lambda b: b.own_format):.0f} of 200"
        p50, p99 = median_of(runs, lambda b: b.p(0.5)), median_of(runs, lambda b: b.p(0.99))
        lines.append(f"| {name} | {p50:,.0f} | {p99:,.0f} "
                     f"| {median_of(runs, lambda b: max(b.ack_ms)):,.0f} | {sum(b.late for b in runs)} | {own} "
                     f"| {median_of(runs, lambda b: b.lookups):.0f} |")
    return "\n".join(lines) + "\n\n## Throughput, latency, cold start, memory\n\n"


BURST_DESCRIPTION = ("200 signed `/dpscale` commands from 100 users new to the server (two each, 5 ms apart; a user "
                     "every 10 ms: 1 s in all), Slack's `users.info` answering in 200 ms, one connection per "
                     "command. A slash command's reply is its acknowledgement, so the ack's time is the reply's; "
                     "a reply in the user's format (de-DE) is one whose lookup was in time, any other came in the "
                     "unknown format.")


def render_report(runs, cold, memory, engine, args, mix_size, stalled_runs) -> str:  # type: ignore[no-untyped-def]
    def median(name: str, level: int, attribute: str) -> float:
        return statistics.median(getattr(r, attribute) for r in runs[(name, level)])

    lines = [
        "Written by `python bench/load.py`; every figure on this page comes from one run of it. Each app ran under",
        "the production server (dpscale as the Procfile starts it, the floor through `bot.server.serve`) against a",
        "fake Slack Web API on loopback;",
        f"wrk sent signed `/dpscale` requests cycling through {mix_size} different texts (German and English; results,",
        f"errors, help) from {len(USERS)} users. Each cell is the median of {args.rounds} runs of {args.duration} s,",
        "the apps taking turns, so a noisy machine moves them alike. Ratios are to the floor: a bare Bolt app",
        "answering in-line with a constant message.",
        "",
        f"Machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}; slack-bolt {version('slack-bolt')}, {server_versions()}, "
        f"babel {version('babel')}; wrk on the same machine.",
        "",
        "| clients | app | requests/s | × floor | p50 ms | p99 ms | p99 × floor | errors |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for level in args.levels:
        floor_rps, floor_p99 = median(FLOOR, level, "rps"), median(FLOOR, level, "p99_ms")
        for name in APPS:
            rps, p99 = median(name, level, "rps"), median(name, level, "p99_ms")
            errors = sum(r.errors for r in runs[(name, level)])
            lines.append(
                f"| {level} | {name} | {rps:,.0f} | {rps / floor_rps:.2f} | {median(name, level, 'p50_ms'):.2f} "
                f"| {p99:.2f} | {p99 / floor_p99:.2f} | {errors} |"
            )
    alone = statistics.median(a.rps for a, _ in stalled_runs)
    beside = statistics.median(b.rps for _, b in stalled_runs)
    lines += [
        "",
        f"dpscale at 16 clients with {args.stalled} stalled connections open beside the load (headers announcing a",
        f"100,000-byte body that never comes), runs alternating with runs without them (median of {args.rounds}):",
        "",
        "| run | requests/s | × without | p99 ms | errors |",
        "|---|---:|---:|---:|---:|",
        f"| without | {alone:,.0f} | 1.00 | {statistics.median(a.p99_ms for a, _ in stalled_runs):.2f} "
        f"| {sum(a.errors for a, _ in stalled_runs)} |",
        f"| {args.stalled} stalled beside | {beside:,.0f} | {beside / alone:.2f} "
        f"| {statistics.median(b.p99_ms for _, b in stalled_runs):.2f} | {sum(b.errors for _, b in stalled_runs)} |",
    ]
    lines += [
        "",
        f"Cold start, process start to the first answered slash command (median of {args.cold_starts}):",
        "",
        "| app | seconds | × bolt defaults |",
        "|---|---:|---:|",
    ]
    for name in APPS:
        lines.append(f"| {name} | {cold[name]:.2f} | {cold[name] / cold['bolt defaults']:.2f} |")
    lines += ["", "Peak resident memory of the worker after the load:", "", "| app | MiB |", "|---|---:|"]
    lines += [f"| {name} | {mib:.1f} |" for name, mib in memory.items()]
    lines += [
        "",
        "The engine alone (parse, validate, calculate, render; no HTTP), median µs per command over the same mix:",
        "",
        "| locale | µs |",
        "|---|---:|",
    ]
    lines += [f"| {tag} | {us:.0f} |" for tag, us in engine.items()]
    lines += ["", "![throughput and p99 against clients](benchmarks.png)", ""]
    return "\n".join(lines)


def server_versions() -> str:
    """The installed HTTP servers' versions (the production server is among them)."""
    from importlib.metadata import PackageNotFoundError

    found = []
    for name in ("waitress", "gunicorn", "uvicorn"):
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            pass
    return ", ".join(found)


def draw_chart(runs, levels, path: Path) -> None:  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for name in APPS:
        rps = [statistics.median(r.rps for r in runs[(name, level)]) for level in levels]
        p99 = [statistics.median(r.p99_ms for r in runs[(name, level)]) for level in levels]
        left.plot(levels, rps, marker="o", label=name)
        right.plot(levels, p99, marker="o", label=name)
    for axis, title, unit in ((left, "Throughput", "requests/s"), (right, "p99 latency", "ms")):
        axis.set_xscale("log", base=2)
        axis.set_xticks(levels, [str(level) for level in levels])
        axis.set_xlabel("concurrent clients")
        axis.set_ylabel(unit)
        axis.set_title(title)
        axis.grid(alpha=0.3)
    left.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


# ---------------------------------------------------------------- --scale: workspace modes and process layouts

CLIENT_ID = "1111.2222"
TEAMS = tuple(f"TS{i:02d}" for i in range(20))
TOKEN_KEY = "YmVuY2gta2V5LW9mLXRoZS1zdG9yZWQtdG9rZW5zLS0="  # the stored tokens' key (DPSCALE_TOKEN_KEYS)
MULTI_ENV: dict[str, str | None] = {
    "SLACK_BOT_TOKEN": None, "SLACK_CLIENT_ID": CLIENT_ID, "SLACK_CLIENT_SECRET": "bench-client-secret",
    "DPSCALE_TOKEN_KEYS": TOKEN_KEY,
}
# name → (WSGI target, environment, workspaces the requests come from)
LAYOUTS: dict[str, tuple[str, dict[str, str | None], tuple[str, ...]]] = {
    "dpscale, one workspace, 1 process": (APPS["dpscale"], {"WEB_CONCURRENCY": "1"}, (TEAM_ID,)),
    "dpscale, 20 workspaces, 1 process": (APPS["dpscale"], {**MULTI_ENV, "WEB_CONCURRENCY": "1"}, TEAMS),
    "floor, 1 process": (APPS[FLOOR], {"WEB_CONCURRENCY": "1"}, (TEAM_ID,)),
    "dpscale, one workspace, 1 per core": (APPS["dpscale"], {}, (TEAM_ID,)),
    "floor, 1 per core": (APPS[FLOOR], {}, (TEAM_ID,)),
}
RATIOS = [  # (what, numerator, denominator, target)
    ("many workspaces ÷ one", "dpscale, 20 workspaces, 1 process", "dpscale, one workspace, 1 process", 0.9),
    ("dpscale: 1 per core ÷ 1 process", "dpscale, one workspace, 1 per core", "dpscale, one workspace, 1 process",
     1.6),
    ("floor: 1 per core ÷ 1 process", "floor, 1 per core", "floor, 1 process", None),
    ("dpscale ÷ floor, 1 process", "dpscale, one workspace, 1 process", "floor, 1 process", None),
    ("dpscale ÷ floor, 1 per core", "dpscale, one workspace, 1 per core", "floor, 1 per core", None),
]


def install_workspaces(database_url: str, fake: FakeSlack) -> None:
    """Every bench workspace installed, as the OAuth flow would leave it, and known to the fake Slack."""
    from slack_sdk.oauth.installation_store import Installation

    from bot.store import Database, upgrade
    from bot.store.installations import installation_store
    from bot.store.tokens import TokenCipher

    database = Database(database_url)
    tokens = TokenCipher([TOKEN_KEY])
    upgrade(database, tokens=tokens)
    store = installation_store(database, CLIENT_ID, tokens)
    for team in TEAMS:
        store.save(Installation(app_id="A1", team_id=team, user_id="UINSTALLER", bot_token=f"xoxb-{team}",
                                bot_id="BDPSCALE", bot_user_id="UDPSCALE", bot_scopes="commands,chat:write"))
        fake.tokens[f"xoxb-{team}"] = team
    fake.tokens[BOT_TOKEN] = TEAM_ID
    fake.installs = len(TEAMS)
    database.dispose()


def main_scale(args: argparse.Namespace) -> None:
    from postgres_server import fresh_database, start, stop

    given = os.environ.get("DPSCALE_TEST_POSTGRES_URL")
    directory = Path(tempfile.mkdtemp(prefix="dpscale-bench-pg-"))
    server_url = given or start(directory)
    fake = FakeSlack(locales={u: ("de-DE" if i % 2 else "en-US") for i, u in enumerate(USERS)}).start()
    runs: dict[str, list[Run]] = {}
    try:
        with fresh_database(server_url) as database_url:
            install_workspaces(database_url, fake)
            servers = {
                name: Server(name, target, fake, extra_env={**env, "DATABASE_URL": database_url}, team=teams[0])
                for name, (target, env, teams) in LAYOUTS.items()
            }
            for server in servers.values():
                server.start()
            texts, script = command_mix(), Path(tempfile.mkdtemp()) / "scale.lua"
            for name, server in servers.items():  # warm-up: locales looked up, authorizations cached
                write_wrk_script(texts, script, LAYOUTS[name][2])
                run_wrk(server.url, script, 4, 2)
            for _ in range(args.rounds):
                for name, server in servers.items():
                    write_wrk_script(texts, script, LAYOUTS[name][2])
                    runs.setdefault(name, []).append(run_wrk(server.url, script, args.clients, args.duration))
            for server in servers.values():
                server.stop()
    finally:
        fake.stop()
        if not given:
            stop(directory)
    report = render_scale_report(runs, args)
    args.out.mkdir(exist_ok=True)
    (args.out / "scaling.md").write_text(report)
    print(report)


def render_scale_report(runs: dict[str, list[Run]], args: argparse.Namespace) -> str:
    """Each layout's median over the rounds with its range, and each ratio taken within a round (the layouts of a
    round ran one after another, so a slow moment of the machine moves both sides) with its median and range."""

    def rps(name: str) -> float:
        return statistics.median(r.rps for r in runs[name])

    lines = [
        "# Scaling: many workspaces, several processes",
        "",
        "Written by `python bench/load.py --scale`; every figure comes from one run of it. Each layout ran under",
        "the production server (`python -m bot.server`) against the fake Slack Web API and one PostgreSQL database",
        "(the distribution's server on loopback); wrk sent the benchmark's signed `/dpscale` mix from",
        f"{args.clients} concurrent clients, {args.rounds} rounds of {args.duration} s per layout, the layouts taking",
        "turns within each round. \"20 workspaces\": installed in the store, requests spread over them,",
        "authorization cached per token. \"1 per core\": the process count `bot.server` chooses for a shared database.",
        "",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}; wrk on the same machine (it takes a",
        "share of the same cores), which other work shared during the run.",
        "",
        "| layout | requests/s, median | lowest – highest round | spread | p50 ms | p99 ms | errors |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in LAYOUTS:
        rates = [r.rps for r in runs[name]]
        p50 = statistics.median(r.p50_ms for r in runs[name])
        p99 = statistics.median(r.p99_ms for r in runs[name])
        spread = (max(rates) - min(rates)) / rps(name)
        lines.append(f"| {name} | {rps(name):,.0f} | {min(rates):,.0f} – {max(rates):,.0f} | ±{spread / 2:.0%} "
                     f"| {p50:.2f} | {p99:.2f} | {sum(r.errors for r in runs[name])} |")
    lines += ["", "Ratios, each taken within one round, then the median and range over the rounds:", "",
              "| ratio | median | lowest – highest round | target |", "|---|---:|---:|---:|"]
    widest = 0.0
    for what, numerator, denominator, target in RATIOS:
        ratios = [a.rps / b.rps for a, b in zip(runs[numerator], runs[denominator], strict=True)]
        widest = max(widest, (max(ratios) - min(ratios)) / statistics.median(ratios))
        lines.append(f"| {what} | {statistics.median(ratios):.2f} | {min(ratios):.2f} – {max(ratios):.2f} "
                     f"| {f'≥ {target}' if target else '—'} |")
    worst = max((max(r.rps for r in runs[n]) - min(r.rps for r in runs[n])) / rps(n) for n in LAYOUTS)
    lines += ["", *textwrap.wrap(
        f"How noisy this is: one layout's rounds differed by up to {worst:.0%} of its median, and a ratio taken "
        f"within one round by up to {widest:.0%} of its median from one round to another. A single round, or a "
        "single run of a few rounds, is not a figure to publish alone; the medians above are, with their ranges.",
        115)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
