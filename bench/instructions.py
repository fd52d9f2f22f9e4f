"""Instructions per slash command, dpscale beside the floor, counted by callgrind (not moved by machine noise).

    python bench/instructions.py --in-process [--requests 300]     # the request and Bolt's dispatch: repeatable
    python bench/instructions.py --check                            # CI: dpscale's in-process count ≤ the target
    python bench/instructions.py [--requests 300] [--warmup 60]     # the whole server process

`--in-process` runs each app's `App.dispatch` on signed commands of the benchmark's mix in a process of its own
under callgrind. The app is built and warmed up with 100 commands (every user's locale looked up and stored,
every catalog loaded) and left to settle; Slack's side of the counted commands (each form body encoded and
signed) is done; then callgrind's counters are dumped just before the first counted command and just after the
last (the process waits on a pipe while its parent dumps them, so the dumps cost it nothing). That second dump of
the dispatching thread, divided by `--requests`, is one command's cost: the request built from its body and
headers, the signature check, parsing, listener, reply and its JSON, the log line. Nothing else is in it: not the
start-up, the warm-up or the settling, whose length depends on how fast valgrind runs on a busy machine (when a
count was the difference of two whole processes, one with a single command, those made repeated counts of one
commit differ by up to 7 %). Only that thread's instructions are counted (`--separate-threads`): the threads that
wake on the clock (the SQLite watcher, the log writer, every 50 ms) are not. Strings hash with one seed
(`PYTHONHASHSEED`), so that dicts and sets lay out alike from one count to the next. The server in front of
either app is the same.

`--check` counts dpscale alone and exits 1 above `COMMAND_TARGET` by more than `TOLERANCE`: a count at the commit
being tested, against the target, never against a stored figure.

The whole-process count below includes the server too, but also whatever the process's threads do while it waits
for each request: under valgrind, which runs one thread at a time, threads handing the interpreter lock to each
other cost instructions that depend on how the machine schedules them, and repeated runs on a busy machine
have differed by more than dpscale's own cost.

Each app runs under the production server (`python -m bot.server`; the floor through `python -m bench.bare`,
with the same server settings) inside `valgrind --tool=callgrind`. After `--warmup` signed commands from the
benchmark's mix (every user's locale looked up, code paths loaded), the counters are dumped and reset; then
`--requests` more are sent one at a time and the counters dumped again. That second dump, divided by the number
of requests, is the whole process's cost per command: server, Bolt, dpscale, logging. dpscale's extra cost is
its count less the floor's. Needs valgrind (Debian package `valgrind`).
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.load import USERS, command_mix  # noqa: E402
from fake_slack import FakeSlack  # noqa: E402
from slack_client import BOT_TOKEN, SIGNING_SECRET, free_port, post, signed_headers, slash_command_body  # noqa: E402

TARGET = 0.5e6  # extra instructions per command over the floor that dpscale aims at
COMMAND_TARGET = 1.5e6  # the goal: instructions per command in-process (`--in-process`); `--check` holds it in CI
TOLERANCE = 0.02  # `--check`'s margin over COMMAND_TARGET: a count above 1.53 M fails
HASH_SEED = "0"  # one string hash for every count: with a random one, dicts and sets lay out and probe differently

APPS = {
    "dpscale": ["-m", "bot.server"],
    "bolt in-line (floor)": ["-m", "bench.bare"],
}


def count(name: str, fake: FakeSlack, texts: list[str], warmup: int, requests: int, out: Path,
          extra_env: dict[str, str] | None = None) -> float:
    """Instructions per request of `name`'s whole process, over `requests` commands after a warm-up."""
    port = free_port()
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "PORT": str(port), "SLACK_BOT_TOKEN": BOT_TOKEN,
           "SLACK_SIGNING_SECRET": SIGNING_SECRET, "SLACK_API_URL": fake.api_url, "LOG_LEVEL": "INFO",
           **(extra_env or {})}
    prefix = out / name.split()[0]
    process = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={prefix}.%p", sys.executable, *APPS[name]],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/slack/events"
    try:
        send(url, texts, 0, 1, deadline=time.monotonic() + 600)  # valgrind starts slowly on a busy machine
        send(url, texts, 1, warmup)
        dump(process.pid)
        send(url, texts, warmup, requests)
        files = dump(process.pid)
    finally:
        process.terminate()
        process.wait(60)
    return total_instructions(files[-1]) / requests


def dispatch_count(name: str, fake: FakeSlack, requests: int) -> float:
    """Instructions per `App.dispatch` of one command (see the module's docstring): callgrind's counters of the
    dispatching thread dumped just before the first counted command and just after the last, so that nothing
    else the process did (its start-up, the warm-up, waiting for the warm-up's lookups to settle) is in them."""
    out = OUT / f"dispatch-{name.split()[0]}.out"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SLACK_BOT_TOKEN": BOT_TOKEN,
           "SLACK_SIGNING_SECRET": SIGNING_SECRET, "SLACK_API_URL": fake.api_url, "PYTHONHASHSEED": HASH_SEED}
    child = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}",
         sys.executable, __file__, "--dispatch", name, "--requests", str(requests)],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert child.stdin and child.stdout
    dumped: list[Path] = []
    for _ in child.stdout:  # a checkpoint: the counted commands begin, or they are done
        dumped.append(dump_thread(child.pid, out))
        child.stdin.write("go\n")
        child.stdin.flush()
    if child.wait(120) != 0 or len(dumped) != 2:
        raise RuntimeError(f"counting {name} failed")
    return total_instructions(dumped[1]) / requests


def dump_thread(pid: int, out: Path) -> Path:
    """Have callgrind write (and reset) its counters; the new dump of the first thread, the one that dispatches."""
    before = set(OUT.glob(out.name + ".*-01"))
    subprocess.run(["callgrind_control", "--dump", str(pid)], check=True, capture_output=True)
    deadline = time.monotonic() + 120
    while not (new := set(OUT.glob(out.name + ".*-01")) - before) and time.monotonic() < deadline:
        time.sleep(0.1)
    if not new:
        raise TimeoutError(f"callgrind wrote no dump for {pid}")
    return new.pop()


def dispatch_requests(name: str, requests: int) -> None:
    """Inside callgrind: build the app, warm it up and let it settle; sign `requests` commands as Slack would
    (not counted: Slack's side); then, between two checkpoints at which the parent dumps the counters, build each
    request from its body and headers as they arrive (`BoltRequest` parses the body) and dispatch it."""
    from slack_bolt import BoltRequest

    app, _ = prepared_app(name)
    arrived = [sent_command(i) for i in range(WARMUP, WARMUP + requests)]
    checkpoint()
    for body, headers in arrived:
        assert app.dispatch(BoltRequest(body=body, headers=headers)).status == 200
    checkpoint()


def checkpoint() -> None:
    """Tell the parent (`dispatch_count`) to dump the counters, and wait until it has."""
    sys.stdout.write("checkpoint\n")
    sys.stdout.flush()
    sys.stdin.readline()


@functools.cache
def mix() -> list[str]:
    return command_mix()


def sent_command(i: int) -> tuple[str, dict[str, Any]]:
    """The mix's `i`-th command as Slack sends it: its form body, and headers signed for it."""
    texts = mix()
    body = slash_command_body(texts[i % len(texts)], user=USERS[i % len(USERS)])
    return body, signed_headers(body, "application/x-www-form-urlencoded")


WARMUP = 100  # commands of the mix dispatched before any is counted


def prepared_app(name: str) -> tuple[Any, Callable[[int], Any]]:
    """`name`'s app built, warmed up and settled, and what signs the mix's `i`-th command for it (from `WARMUP` on,
    a command not yet dispatched: the first 40 of them once, by `settle`)."""
    from slack_bolt import BoltRequest

    if name == "dpscale":
        from bot.logs import configure_logging
        from bot.settings import Settings
        from bot.slack.app import create_app

        settings = Settings.model_validate({
            "slack_bot_token": BOT_TOKEN, "slack_signing_secret": SIGNING_SECRET,
            "slack_api_url": os.environ["SLACK_API_URL"], "log_level": "INFO",
            "database_url": f"sqlite:///{tempfile.mkdtemp(prefix='dpscale-count-')}/dpscale.sqlite3",
        })
        configure_logging(settings)  # the line is written, to stderr as in the server
        app = create_app(settings)
    else:
        from bench.bare import create_bolt_app

        app = create_bolt_app(inline=True)
    from bot.processes import freeze_startup_heap

    freeze_startup_heap()  # warmed and frozen at once, as each of the server's workers ends up (bot/processes.py)

    def request(i: int) -> BoltRequest:
        body, headers = sent_command(i)
        return BoltRequest(body=body, headers=headers)

    for i in range(WARMUP):
        assert app.dispatch(request(i)).status == 200
    settle(lambda: [app.dispatch(request(i)) for i in range(WARMUP, WARMUP + len(USERS))])
    return app, request


def settle(again: Callable[[], object]) -> None:
    """Let the warm-up's lookups end and their writes be seen, then run `again` (every user once more): on SQLite
    a lookup's write makes the process read the rows it keeps once more (the file's change counter cannot say
    which row changed), and that belongs to the warm-up, not to the commands counted."""
    deadline = time.monotonic() + 60
    while any(thread.name == "dpscale-lookup" for thread in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # the SQLite watcher looks every 50 ms; under valgrind, far slower
    again()


def send(url: str, texts: list[str], start: int, n: int, deadline: float | None = None) -> None:
    for i in range(start, start + n):
        body = slash_command_body(texts[i % len(texts)], user=USERS[i % len(USERS)])
        while True:
            try:
                response = post(url, body, signed_headers(body, "application/x-www-form-urlencoded"), 60)
                assert response.status == 200, response.status
                break
            except OSError:
                if deadline is None or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)


def dump(pid: int) -> list[Path]:
    """Ask callgrind to write its counters since the last dump (and reset them); the dump files so far."""
    before = len(_dumps(pid))
    subprocess.run(["callgrind_control", "--dump", str(pid)], check=True, capture_output=True)
    deadline = time.monotonic() + 60
    while len(_dumps(pid)) == before and time.monotonic() < deadline:
        time.sleep(0.1)
    return _dumps(pid)


def _dumps(pid: int) -> list[Path]:
    files = [f for f in OUT.glob(f"*.{pid}*") if re.search(rf"\.{pid}\.\d+$", f.name)]
    return sorted(files, key=lambda f: int(f.name.rsplit(".", 1)[1]))


def total_instructions(path: Path) -> float:
    text = path.read_text(errors="replace")
    found = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.M)
    assert found, path
    return float(found.group(1))


OUT = Path(tempfile.mkdtemp(prefix="dpscale-callgrind-"))


def in_process(fake: FakeSlack, requests: int) -> None:
    """Count both apps in-process and print the counts against the targets."""
    try:
        counted = {name: dispatch_count(name, fake, requests) for name in APPS}
    finally:
        fake.stop()
    print(f"instructions per slash command, the request and App.dispatch, over {requests} commands of the mix:")
    dpscale, floor = counted["dpscale"], counted["bolt in-line (floor)"]
    extra = dpscale - floor
    print(f"  dpscale                {dpscale / 1e6:7.3f} M  (target {COMMAND_TARGET / 1e6:.2f} M: "
          f"{'met' if dpscale <= COMMAND_TARGET else 'not met'})")
    print(f"  bolt in-line (floor)   {floor / 1e6:7.3f} M")
    print(f"  dpscale over the floor {extra / 1e6:7.3f} M  (target {TARGET / 1e6:.2f} M: "
          f"{'met' if extra <= TARGET else 'not met'})")


def check(fake: FakeSlack, requests: int) -> int:
    """CI's check: dpscale's in-process count at this commit against COMMAND_TARGET (no stored count); 1 if over
    it by more than TOLERANCE."""
    try:
        counted = dispatch_count("dpscale", fake, requests)
    finally:
        fake.stop()
    limit = COMMAND_TARGET * (1 + TOLERANCE)
    over = counted > limit
    print(f"instructions per slash command, in-process, over {requests} commands of the mix: {counted / 1e6:.3f} M "
          f"(target {COMMAND_TARGET / 1e6:.2f} M, failing over {limit / 1e6:.2f} M): {'FAILED' if over else 'ok'}")
    return 1 if over else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=60)
    parser.add_argument("--also", metavar="KEY=VALUE", nargs="*", default=[],
                        help="also count dpscale with this variable set, e.g. LOG_LEVEL=WARNING (no request log line)")
    parser.add_argument("--only-dpscale", action="store_true", help="skip the floor (compare --also variants)")
    parser.add_argument("--in-process", action="store_true", help="count App.dispatch alone (repeatable)")
    parser.add_argument("--check", action="store_true",
                        help=f"count dpscale in-process; fail over {COMMAND_TARGET / 1e6:.2f} M "
                             f"(+{TOLERANCE * 100:.0f} %%)")
    parser.add_argument("--dispatch", choices=list(APPS), help=argparse.SUPPRESS)  # inside callgrind
    args = parser.parse_args()
    if args.dispatch:
        dispatch_requests(args.dispatch, args.requests)
        return
    if not shutil.which("valgrind"):
        sys.exit("needs valgrind: apt-get install -y valgrind")
    texts = command_mix()
    fake = FakeSlack(locales={u: ("de-DE" if i % 2 else "en-US") for i, u in enumerate(USERS)}).start()
    if args.check:
        sys.exit(check(fake, args.requests))
    if args.in_process:
        in_process(fake, args.requests)
        return
    try:
        names = ["dpscale"] if args.only_dpscale else list(APPS)
        per_request = {}
        for name in names:
            per_request[name] = count(name, fake, texts, args.warmup, args.requests, OUT)
            print(f"  {name:22} {per_request[name] / 1e6:6.2f} M", flush=True)
        for setting in args.also:
            key, _, value = setting.partition("=")
            per_request[f"dpscale {setting}"] = count(
                "dpscale", fake, texts, args.warmup, args.requests, OUT, {key: value}
            )
    finally:
        fake.stop()
    if args.only_dpscale:
        for name, value in per_request.items():
            print(f"  {name:22} {value / 1e6:7.3f} M")
        return
    floor = per_request["bolt in-line (floor)"]
    print(f"instructions per slash command over {args.requests} commands of the benchmark's mix, whole process:")
    for name, value in per_request.items():
        print(f"  {name:22} {value / 1e6:7.3f} M")
    extra = per_request["dpscale"] - floor
    verdict = "met" if extra <= TARGET else "not met"
    print(f"  dpscale over the floor {extra / 1e6:7.3f} M  (target {TARGET / 1e6:.2f} M: {verdict})")


if __name__ == "__main__":
    main()
