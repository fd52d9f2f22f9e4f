"""Where a slash command's instructions go: one process under callgrind, its parts counted one after another.

    python bench/breakdown.py [--requests 300] [--functions 25]

The app is built and warmed as `bench/instructions.py --in-process` builds it; then the same `--requests` commands
of the benchmark's mix go through one part at a time, the counters dumped between parts (by this script's parent,
which the counted thread waits for on a pipe, so the dumps cost it nothing):

- `sent`: Slack's side, each command's form body encoded and signed (not in `bench/instructions.py --in-process`);
- `request`: the app's `BoltRequest` made from each body and its headers (Bolt parses the body here);
- `dispatch`: `App.dispatch`, those commands' first time (`request` and `dispatch` are what
  `bench/instructions.py --in-process` counts);
- `again`: the same dispatches a second time: what the reader's memories of tokens already read save;
- `parse`: the text read in the user's locale (`split_words`, `parse_words`), as `bot.engine.answer` does;
- `calculate`: the same, then validation and the model (`make_scenario`, `solve`);
- `answer`: `bot.engine.answer`, the whole engine: the above and the reply rendered;
- `buttons`: the reader note and the result's buttons added to those replies (`bot.slack.views`);
- `json`: the final replies written as JSON (`Reply.json`, orjson);
- `log`: the request's log line, written as the listener writes it;
- `bolt`: `App.dispatch` with the engine's answer given ready-made (the reply looked up by its text), so the
  signature check, Bolt's parsing and middleware, the locale, the buttons, the JSON and the log line.

All but `sent`, `request` and `dispatch` see tokens already read once (as `again`).

Each part's count per command is printed, then the C functions that cost most in `dispatch` (callgrind's own
per-function costs, the interpreter's included: Python functions all run inside `_PyEval_EvalFrameDefault`).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.instructions import HASH_SEED, OUT, total_instructions  # noqa: E402
from bench.load import USERS  # noqa: E402
from fake_slack import FakeSlack  # noqa: E402
from slack_client import BOT_TOKEN, SIGNING_SECRET  # noqa: E402

PARTS = ("sent", "request", "dispatch", "again", "answer", "parse", "calculate", "buttons", "json", "log", "bolt")


def run_parts(requests: int) -> None:
    """Inside callgrind: build and warm the app, then run each part over the same commands, waiting between."""
    import bench.instructions as counting
    import bot.slack.commands as commands
    from bot.engine import calculate as calculate_command
    from bot.errors import UserInputError
    from bot.reader.parsing import parse_words, split_words
    from bot.reader.series_syntax import is_series
    from bot.slack.plumbing import request_log
    from bot.slack.views import with_text_buttons, with_unknown_reader_note

    asked: list[tuple[str, object]] = []
    real_answer = commands.answer

    def recording(text, locale):  # type: ignore[no-untyped-def]
        asked.append((text, locale))
        return real_answer(text, locale)

    from slack_bolt import BoltRequest

    app, _ = counting.prepared_app("dpscale")
    arrived: list[tuple[str, dict[str, Any]]] = []
    batch: list[object] = []
    pairs: list[tuple[str, object]] = []
    answers: dict[str, object] = {}
    finals = []

    def sent() -> None:
        arrived.extend(counting.sent_command(i) for i in range(counting.WARMUP, counting.WARMUP + requests))

    def request() -> None:
        batch.extend(BoltRequest(body=body, headers=headers) for body, headers in arrived)

    def dispatch() -> None:  # the engine's inputs recorded as the listener passes them (a call and an append)
        commands.answer = recording
        for each in batch:
            app.dispatch(each)
        commands.answer = real_answer
        pairs.extend(asked[-requests:])

    def answer() -> None:
        answers.update((text, real_answer(text, locale)) for text, locale in pairs)

    def parse() -> None:
        for text, locale in pairs:
            try:
                words, read_in = split_words(text, locale)
                if not is_series(words):
                    parse_words(words, read_in)
            except UserInputError:
                pass

    def calculate() -> None:
        for text, locale in pairs:
            try:
                words, read_in = split_words(text, locale)
                if not is_series(words):
                    command = parse_words(words, read_in)
                    if not command.wants_help:
                        calculate_command(command)
            except UserInputError:
                pass

    def buttons() -> None:
        for text, locale in pairs:
            finals.append(with_text_buttons(with_unknown_reader_note(answers[text], locale), locale, text))

    def bolt() -> None:
        commands.answer = lambda text, locale: answers[text]
        for each in batch:
            app.dispatch(each)
        commands.answer = real_answer

    steps = {
        "parse": parse,
        "calculate": calculate,
        "answer": answer,
        "buttons": buttons,
        "json": lambda: [reply.json(response_type="ephemeral") for reply in finals],
        "log": lambda: [request_log.info("kind=%s locale=%s outcome=%s duration_ms=%.1f", "command", "de-DE",
                                         "result", 1.25) for _ in pairs],
        "bolt": bolt,
        "sent": sent,
        "request": request,
        "dispatch": dispatch,
        "again": lambda: [app.dispatch(each) for each in batch],
    }
    for name in PARTS:
        checkpoint(name)
        steps[name]()
    checkpoint("end")


def checkpoint(name: str) -> None:
    """Tell the parent a part begins (it dumps the counters so far), and wait until it has."""
    sys.stdout.write(name + "\n")
    sys.stdout.flush()
    sys.stdin.readline()


def count_parts(requests: int) -> dict[str, Path]:
    """Run `run_parts` under callgrind, dumping its counters at each checkpoint; each part's dump file."""
    fake = FakeSlack(locales={u: ("de-DE" if i % 2 else "en-US") for i, u in enumerate(USERS)}).start()
    out = OUT / "parts.out"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
           "SLACK_API_URL": fake.api_url, "PYTHONHASHSEED": HASH_SEED}
    child = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}",
         sys.executable, __file__, "--parts", "--requests", str(requests)],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert child.stdin and child.stdout
    files: dict[str, Path] = {}
    previous = None
    try:
        for line in child.stdout:
            name = line.strip()
            n = len(list(OUT.glob("parts.out.*-01")))
            subprocess.run(["callgrind_control", "--dump", str(child.pid)], check=True, capture_output=True)
            deadline = time.monotonic() + 120
            while len(list(OUT.glob("parts.out.*-01"))) == n and time.monotonic() < deadline:
                time.sleep(0.1)
            if previous is not None:
                files[previous] = OUT / f"parts.out.{n + 1}-01"
            previous = name
            child.stdin.write("go\n")
            child.stdin.flush()
        child.wait(120)
    finally:
        fake.stop()
    return files


def top_functions(path: Path, n: int) -> list[str]:
    """The `n` C functions with the most instructions of their own in a dump, each with its share."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", str(path)],
                          capture_output=True, text=True, check=True).stdout
    rows = [line.strip() for line in text.splitlines()
            if re.match(r"\s*[\d,]+ \(\s*[\d.]+%\)\s+\S", line) and "(100.0%)" not in line]
    return [re.sub(r" \[.*\]$", "", re.sub(r"/tmp/python-build[^:]*/Python-[\d.]+/", "", row)) for row in rows[:n]]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--functions", type=int, default=25)
    parser.add_argument("--parts", action="store_true", help=argparse.SUPPRESS)  # inside callgrind
    args = parser.parse_args()
    if args.parts:
        run_parts(args.requests)
        return
    files = count_parts(args.requests)
    print(f"instructions per command, over {args.requests} commands of the mix, one part at a time:")
    for name in PARTS:
        print(f"  {name:10} {total_instructions(files[name]) / args.requests / 1e3:8.1f} k")
    print(f"costliest C functions (self) in `dispatch` (dump {files['dispatch']}):")
    for row in top_functions(files["dispatch"], args.functions):
        print("  " + row.strip())


if __name__ == "__main__":
    main()
