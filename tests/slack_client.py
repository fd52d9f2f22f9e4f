"""Signed requests to the app under test, made the way Slack makes them, and the server it runs under."""

from __future__ import annotations

import atexit
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus, urlencode

from slack_sdk.signature import SignatureVerifier

from fake_slack import TEAM_ID, FakeSlack

ROOT = Path(__file__).resolve().parent.parent
SIGNING_SECRET = "test-signing-secret"
BOT_TOKEN = "xoxb-test-token"
LEGACY_TOKEN = "legacy-verification-token"
# every AppServer's command, log, whether a crash was expected and the texts users sent it; checked at the end
SERVER_LOGS: list[tuple[str, str, bool, set[str]]] = []


@dataclass
class Response:
    status: int
    body: bytes
    elapsed: float

    def json(self) -> Any:
        return json.loads(self.body)


PORT_IN_USE = "Connection in use: "  # what gunicorn logs when its port is taken (it then retries for 5 s)
PORT_TRIES = 3


class PortTaken(Exception):
    """The port picked for a server was bound by someone else before the server could bind it."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_TEMPLATES = tempfile.TemporaryDirectory(prefix="dpscale-head-")  # this test process's migrated database
atexit.register(_TEMPLATES.cleanup)


def migrated_sqlite(directory: Path) -> str:
    """A SQLite database at the schema's head in `directory`: a copy of one this process migrated once (a server
    that migrates a new database spends most of a second on it; one at head costs it a query)."""
    template = Path(_TEMPLATES.name) / "head.sqlite3"
    if not template.exists():
        from bot.store import Store, upgrade

        store = Store.open(f"sqlite:///{template.with_suffix('.new')}")
        upgrade(store.database)
        store.close()
        template.with_suffix(".new").rename(template)
    shutil.copyfile(template, directory / "dpscale.sqlite3")
    return f"sqlite:///{directory / 'dpscale.sqlite3'}"


def procfile_command(process: str = "web", root: Path = ROOT) -> list[str]:
    for line in (root / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        if name.strip() == process:
            return shlex.split(command.strip())
    raise LookupError(process)


class AppServer:
    """The Procfile's `web:` command, started on a loopback port against a fake Slack Web API."""

    def __init__(self, fake: FakeSlack, env: dict[str, str | None] | None = None, command: list[str] | None = None,
                 cwd: Path = ROOT):
        self.port = free_port()
        self.fake = fake
        self._directory = tempfile.TemporaryDirectory(prefix="dpscale-server-")
        base_env = {
            "PATH": os.environ["PATH"],
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_API_URL": fake.api_url,
            "PORT": str(self.port),
            "LOG_LEVEL": "INFO",
            "PYTHONPATH": str(ROOT),
        }
        if "DATABASE_URL" not in (env or {}):
            base_env["DATABASE_URL"] = migrated_sqlite(Path(self._directory.name))
        merged = {**base_env, **(env or {})}
        self.env = {key: value for key, value in merged.items() if value is not None}  # None: leave unset
        self.command = command or procfile_command("web")
        self.cwd = cwd
        self.process: subprocess.Popen[bytes] | None = None
        self.sent_texts: set[str] = set()  # what users typed in requests to it; its log may contain none of it
        self.crash_expected = False  # set by a test that makes the app fail on purpose: a traceback is then expected
        self._log = tempfile.TemporaryFile()
        self._text = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0, http: bool = True) -> AppServer:
        """Start the command; unless `http` is false (Socket Mode), wait until /healthz answers. A port another
        test took between `free_port` and the server's bind (tests run in parallel) is traded for a new one."""
        for _ in range(PORT_TRIES - 1):
            try:
                return self._start(timeout, http)
            except PortTaken:
                self.port = free_port()
                self.env["PORT"] = str(self.port)
        return self._start(timeout, http)

    def _start(self, timeout: float, http: bool) -> AppServer:
        executable = Path(sys.executable).parent / self.command[0]
        command = [str(executable) if executable.exists() else self.command[0], *self.command[1:]]
        self._log.seek(0)
        self._log.truncate()
        self.process = subprocess.Popen(command, cwd=self.cwd, env=self.env, stdout=self._log, stderr=subprocess.STDOUT)
        if not http:
            return self
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if PORT_IN_USE in self.log_so_far():
                self.process.kill()
                self.process.wait()
                raise PortTaken(self.port)
            if self.process.poll() is not None:
                raise RuntimeError(self.output())
            try:
                if get(self.url + "/healthz").status == 200:
                    return self
            except OSError:
                time.sleep(0.05)
        raise TimeoutError("server did not start: " + self.output())

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not self._log.closed:
            self._log.seek(0)
            self._text = self._log.read().decode(errors="replace")
            self._log.close()
            SERVER_LOGS.append((shlex.join(self.command), self._text, self.crash_expected, self.sent_texts))
            self._directory.cleanup()

    def log_so_far(self) -> str:
        """What the running server has printed until now, read without moving the offset it writes at."""
        if self._log.closed:
            return self._text
        fd = self._log.fileno()
        return os.pread(fd, os.fstat(fd).st_size, 0).decode(errors="replace")

    def wait_for_log(self, fragment: str, count: int = 1, timeout: float = 10.0) -> int:
        """Wait until `fragment` stands in the log `count` times: the observable end of work that answers nothing
        (the timeout only bounds a failing test: a busy machine's retries of a failing Web API call take seconds)."""
        deadline = time.monotonic() + timeout
        while (seen := self.log_so_far().count(fragment)) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return seen

    def output(self) -> str:
        """Everything the server printed; stops it first so that nothing is still being written."""
        self.stop()
        return self._text


def worker_memory_kib(pid: int, field: str = "VmRSS") -> int:
    """A /proc/<pid>/status memory field (VmRSS, VmHWM) of the process serving requests: `pid` itself, or its
    worker if it is a master process with one child."""
    for status in [*Path("/proc").glob("[0-9]*/status"), Path(f"/proc/{pid}/status")]:
        try:
            text = status.read_text()
        except OSError:
            continue
        if re.search(rf"^PPid:\s+{pid}$", text, re.M) or status.parent.name == str(pid):
            found = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
            if found:
                return int(found.group(1))
    raise LookupError(f"no process {pid}")


@contextmanager
def running_app(
    locales: dict[str, str | None] | None = None, env: dict[str, str | None] | None = None,
    **behaviour: str | float
) -> Iterator[tuple[FakeSlack, AppServer]]:
    """A fake Slack Web API and the app's real server pointed at it, both stopped afterwards."""
    fake = FakeSlack(locales=dict(locales or {}), behaviour=dict(behaviour)).start()
    server = AppServer(fake, env=env)
    try:
        yield fake, server.start()
    finally:
        server.stop()
        fake.stop()


def signed_headers(body: str, content_type: str, secret: str = SIGNING_SECRET, timestamp: int | None = None):
    ts = str(int(time.time()) if timestamp is None else timestamp)
    return {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": SignatureVerifier(secret).generate_signature(timestamp=ts, body=body),
    }


def slash_command_body(text: str, user: str = "U1", response_url: str = "", **extra: str) -> str:
    fields = {
        "token": LEGACY_TOKEN,
        "team_id": TEAM_ID,
        "team_domain": "example",
        "channel_id": "C1",
        "channel_name": "ml",
        "user_id": user,
        "user_name": "someone",
        "command": "/dpscale",
        "text": text,
        "api_app_id": "A1",
        "response_url": response_url or "http://127.0.0.1:9/response/unused",
        "trigger_id": "1.2.3",
        **extra,
    }
    return urlencode(fields)


def mention_body(text: str, user: str, event_id: str, ts: str, thread_ts: str | None = None) -> str:
    event: dict[str, Any] = {
        "type": "app_mention", "user": user, "text": text, "ts": ts, "channel": "C1", "event_ts": ts,
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
    return json.dumps({
        "token": LEGACY_TOKEN,
        "team_id": TEAM_ID,
        "api_app_id": "A1",
        "event": event,
        "type": "event_callback",
        "event_id": event_id,
        "event_time": int(time.time()),
        "authorizations": [{"team_id": TEAM_ID, "user_id": "UDPSCALE", "is_bot": True}],
    })


def post(url: str, body: str, headers: dict[str, str], timeout: float = 10.0) -> Response:
    request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    return _open(request, timeout)


def get(url: str, timeout: float = 5.0) -> Response:
    return _open(urllib.request.Request(url, method="GET"), timeout)


def _open(request: urllib.request.Request, timeout: float) -> Response:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return Response(reply.status, reply.read(), time.monotonic() - started)
    except urllib.error.HTTPError as error:
        return Response(error.code, error.read(), time.monotonic() - started)


def send_command(server: AppServer, text: str, user: str = "U1", response_url: str = "", **headers: str) -> Response:
    server.sent_texts.add(text)
    body = slash_command_body(text, user=user, response_url=response_url)
    signed = signed_headers(body, "application/x-www-form-urlencoded")
    return post(server.url + "/slack/events", body, {**signed, **headers})


def send_mention(server: AppServer, text: str, user: str, event_id: str, ts: str, thread_ts: str | None = None,
                 **headers: str) -> Response:
    server.sent_texts.add(text)
    body = mention_body(text, user, event_id, ts, thread_ts)
    return post(server.url + "/slack/events", body, {**signed_headers(body, "application/json"), **headers})


def interaction_body(payload: dict[str, Any]) -> str:
    """Interactivity payloads arrive form-encoded, the JSON in a `payload` field."""
    return urlencode({"payload": json.dumps(payload)})


def send_interaction(server: AppServer, payload: dict[str, Any]) -> Response:
    body = interaction_body(payload)
    return post(server.url + "/slack/events", body, signed_headers(body, "application/x-www-form-urlencoded"))


def submit_view(server: AppServer, user: str, view: dict[str, Any], fields: dict[str, str]) -> Response:
    """A `view_submission` of `view` as Slack sends it: each input block (by its id) holding its typed value."""
    state = {"values": {block: {"value": {"type": "plain_text_input", "value": value}}
                        for block, value in fields.items()}}
    return send_interaction(server, {
        "type": "view_submission",
        "user": {"id": user, "team_id": "T0TEAM"},
        "team": {"id": "T0TEAM"},
        "api_app_id": "A1",
        "view": {**view, "id": "V1", "state": state},
    })


def send_event(server: AppServer, event: dict[str, Any], event_id: str) -> Response:
    body = json.dumps({
        "token": LEGACY_TOKEN, "team_id": TEAM_ID, "api_app_id": "A1", "event": event, "type": "event_callback",
        "event_id": event_id, "event_time": int(time.time()),
    })
    return post(server.url + "/slack/events", body, signed_headers(body, "application/json"))


LOG_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "  # each line's time stamp, ISO 8601 in UTC
LOG_LINE = re.compile(rf"{LOG_TIME}(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+ \S")


def untimed(log: str) -> str:
    """`log` without the time stamp that opens each of its lines."""
    return re.sub(rf"^{LOG_TIME}", "", log, flags=re.M)


def log_problems(log: str, crash_expected: bool = False, sent_texts: set[str] | None = None) -> list[str]:
    """What a server log must never hold: a traceback (unless a crash was caused on purpose), a logging error,
    a secret, a response_url, any text a test sent it as a user's; and every line must be one whole event.
    Texts are looked for when they are long and typed like a sentence or a number (a space or a digit): a
    single word such as a logger's name may be sent by the hostile-text test and appear in a log honestly."""
    problems = []
    if "Traceback" in log and not crash_expected:
        problems.append("a traceback")
    forbidden = {"Logging error": "a logging error", BOT_TOKEN: "the bot token", SIGNING_SECRET: "the signing secret",
                 LEGACY_TOKEN: "the verification token", "/response/": "a response_url"}
    problems += [name for value, name in forbidden.items() if value in log]
    for text in sent_texts or ():
        if len(text.strip()) < 10 or not re.search(r"[\s\d]", text.strip()):
            continue
        if text in log or quote_plus(text) in log:
            problems.append(f"a user's text ({text[:20]!r}…)")
    problems += [f"a line that is not one event: {line[:80]!r}" for line in log.splitlines()
                 if line and not LOG_LINE.match(line)]
    return problems
