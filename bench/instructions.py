"""Instructions per slash command, dpscale beside the floor, counted by callgrind (not moved by machine noise).

    python bench/instructions.py [--requests 300] [--warmup 60]

Each app runs under the production server (`python -m bot.server`; the floor through bench/load.py's `--serve`,
with the same waitress settings) inside `valgrind --tool=callgrind`. After `--warmup` signed commands from the
benchmark's mix (every user's locale looked up, code paths loaded), the counters are dumped and reset; then
`--requests` more are sent one at a time and the counters dumped again. That second dump, divided by the number
of requests, is the whole process's cost per command: server, Bolt, dpscale, logging. dpscale's extra cost is
its count less the floor's. Needs valgrind (Debian package `valgrind`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.load import USERS, command_mix  # noqa: E402
from fake_slack import FakeSlack  # noqa: E402
from slack_client import BOT_TOKEN, SIGNING_SECRET, free_port, post, signed_headers, slash_command_body  # noqa: E402

TARGET = 0.5e6  # extra instructions per command over the floor that dpscale aims at

APPS = {
    "dpscale": ["-m", "bot.server"],
    "bolt in-line (floor)": [str(ROOT / "bench" / "load.py"), "--serve", "bench.bare:create_wsgi_app(inline=True)"],
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=60)
    parser.add_argument("--also", metavar="KEY=VALUE", nargs="*", default=[],
                        help="also count dpscale with this variable set, e.g. LOG_LEVEL=WARNING (no request log line)")
    parser.add_argument("--only-dpscale", action="store_true", help="skip the floor (compare --also variants)")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("needs valgrind: apt-get install -y valgrind")
    texts = command_mix()
    fake = FakeSlack(locales={u: ("de-DE" if i % 2 else "en-US") for i, u in enumerate(USERS)}).start()
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
            print(f"  {name:22} {value / 1e6:6.2f} M")
        return
    floor = per_request["bolt in-line (floor)"]
    print(f"instructions per slash command over {args.requests} commands of the benchmark's mix, whole process:")
    for name, value in per_request.items():
        print(f"  {name:22} {value / 1e6:6.2f} M")
    extra = per_request["dpscale"] - floor
    verdict = "met" if extra <= TARGET else "not met"
    print(f"  dpscale over the floor {extra / 1e6:6.2f} M  (target {TARGET / 1e6:.2f} M: {verdict})")


if __name__ == "__main__":
    main()
