"""The payload corpus (tests/payloads/*.json): requests in the shapes Slack really sends — Enterprise Grid and
org-wide installs, DMs, group DMs, private channels, Slack Connect users, mentions in threads, as rich text,
edited or sent by bots, buttons in messages, threads and attachments, form submissions with `response_urls` —
each replayed in-process through `app.dispatch` and through the real server, asserting what each user sees.

Each file names where its shape comes from (`source`), says what should happen (`what`), and lists its steps:
a request (`kind`: event, command or interaction; `{response_url:NAME}` stands for the fake Slack's
/response/NAME) and what it must cause (`expect`): the acknowledgement's status and content, the Web API calls
and response_url posts it makes (`calls`, with `$answer_to:TS` for the ts of the answer to message TS), calls it
must not make (`no_calls`, proven by a later mention's answer), and a log line (`log`).
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from slack_bolt import BoltRequest

from bot.settings import Settings
from bot.slack.app import create_app
from fake_slack import Call, FakeSlack
from slack_client import BOT_TOKEN, SIGNING_SECRET, post, running_app, signed_headers

CORPUS = sorted((Path(__file__).parent / "payloads").glob("*.json"))
USER_LOCALES = {"U0EN": "en-US", "U0DE": "de-DE", "W0GRIDDE": "de-DE", "W0ORGES": "es-ES", "U0CONNECT": "fr-FR",
                "U0JA": "ja-JP"}
UNREACHABLE = {"/response/gone": "error"}  # a conversation the app can no longer post into
FORM = "application/x-www-form-urlencoded"

Send = Callable[[str, dict[str, str]], tuple[int, str]]


def scenario(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def test_the_corpus_says_where_each_shape_comes_from():
    assert len(CORPUS) >= 35
    for path in CORPUS:
        loaded = scenario(path)
        assert loaded["source"] and loaded["what"] and loaded["steps"], path.name
        assert {step["kind"] for step in loaded["steps"]} <= {"event", "command", "interaction"}, path.name


def request_of(step: dict[str, Any], fake: FakeSlack) -> tuple[str, dict[str, str]]:
    text = re.sub(r"\{response_url:([\w-]+)\}", lambda m: fake.response_url(m.group(1)), json.dumps(step["payload"]))
    payload = json.loads(text)
    if step["kind"] == "event":
        body, content_type = json.dumps(payload), "application/json"
    elif step["kind"] == "command":
        body, content_type = urlencode(payload), FORM
    else:
        body, content_type = urlencode({"payload": json.dumps(payload)}), FORM
    return body, {**signed_headers(body, content_type), **step.get("headers", {})}


def readable(params: dict[str, Any]) -> str:
    """A call's parameters as one string, JSON-valued form fields (a view, blocks) decoded first."""
    decoded = {}
    for key, value in params.items():
        if isinstance(value, str) and value[:1] in "{[":
            try:
                value = json.loads(value)
            except ValueError:
                pass
        decoded[key] = value
    return json.dumps(decoded, ensure_ascii=False)


def answer_ts(fake: FakeSlack, message_ts: str) -> str:
    posts = [c for c in fake.calls_to("chat.postMessage") if c.params.get("thread_ts") == message_ts and c.answer]
    assert posts, f"no answer to {message_ts}"
    return str(posts[0].answer["ts"])  # type: ignore[index]


def check_call(call: Call, expected: dict[str, Any], fake: FakeSlack) -> None:
    for key, value in expected["params"].items():
        if isinstance(value, str) and value.startswith("$answer_to:"):
            value = answer_ts(fake, value.removeprefix("$answer_to:"))
        assert call.params.get(key) == value, (call.method, key, call.params.get(key))
    text = readable(call.params)
    for fragment in expected["contains"]:
        assert fragment in text, (call.method, fragment)
    for fragment in expected["excludes"]:
        assert fragment not in text, (call.method, fragment)


_sentinels = iter(range(1, 1_000_000))


def prove_nothing_more(fake: FakeSlack, send: Send, before: dict[str, int], methods: list[str]) -> None:
    """A later mention's answer has arrived, so anything the step was going to do it has done: none of `methods`."""
    n = next(_sentinels)
    ts = f"1800000000.{n:06d}"
    event = {"type": "app_mention", "user": "U0EN", "text": "<@UDPSCALE> 2 10 50%", "ts": ts, "channel": "C0SENTINEL",
             "event_ts": ts}
    sentinel = {"kind": "event", "payload": {
        "token": "t", "team_id": "T0TEAM", "api_app_id": "A0DPSCALE", "type": "event_callback",
        "event_id": f"EvSent{n}", "event_time": 1800000000, "event": event}}
    posts_before = len(fake.calls_to("chat.postMessage"))
    assert send(*request_of(sentinel, fake))[0] == 200
    assert any(c.params.get("thread_ts") == ts for c in fake.wait_for("chat.postMessage", posts_before + 1))
    for method in methods:
        new = [c for c in fake.calls_to(method)[before.get(method, 0):] if c.params.get("channel") != "C0SENTINEL"]
        assert new == [], method


def replay(loaded: dict[str, Any], fake: FakeSlack, send: Send, log: Callable[[], str]) -> None:
    for step in loaded["steps"]:
        expect = step["expect"]
        methods = {c["method"] for c in expect.get("calls", [])} | set(expect.get("no_calls", []))
        before = {method: len(fake.calls_to(method)) for method in methods}
        status, body = send(*request_of(step, fake))
        assert status == expect.get("status", 200), body[:200]
        if expect.get("ack_empty"):
            assert body == ""
        for key, value in expect.get("ack_json", {}).items():
            assert json.loads(body)[key] == value
        ack_text = readable(json.loads(body)) if body.startswith("{") else body
        for fragment in expect.get("ack_contains", []):
            assert fragment in ack_text, fragment
        for fragment in expect.get("ack_excludes", []):
            assert fragment not in ack_text, fragment
        for method in {c["method"] for c in expect.get("calls", [])}:
            wanted = [c for c in expect["calls"] if c["method"] == method]
            made = fake.wait_for(method, before[method] + len(wanted), timeout=10)[before[method]:]
            assert len(made) == len(wanted), (method, len(made))
            for call, expected in zip(made, wanted, strict=True):
                check_call(call, expected, fake)
        if expect.get("no_calls"):
            prove_nothing_more(fake, send, before, expect["no_calls"])
        if expect.get("log"):  # the server's writer thread writes it a moment later: wait for it to appear
            wanted, deadline = expect.get("log_count", 1), time.monotonic() + 5
            while (count := log().count(expect["log"])) < wanted and time.monotonic() < deadline:
                time.sleep(0.01)
            assert count >= 1 and count == expect.get("log_count", count), (expect["log"], count)


@pytest.fixture
def dispatching(caplog, tmp_path) -> Iterator[tuple[FakeSlack, Send, Callable[[], str]]]:
    fake = FakeSlack(locales=dict(USER_LOCALES), behaviour=dict(UNREACHABLE)).start()
    settings = Settings.model_validate({
        "slack_bot_token": BOT_TOKEN, "slack_signing_secret": SIGNING_SECRET, "slack_api_url": fake.api_url,
        "database_url": f"sqlite:///{tmp_path / 'dpscale.sqlite3'}",  # each scenario its own memory
    })
    app = create_app(settings)
    caplog.set_level(logging.INFO)

    def send(body: str, headers: dict[str, str]) -> tuple[int, str]:
        response = app.dispatch(BoltRequest(body=body, headers=headers))
        return response.status, response.body

    yield fake, send, lambda: caplog.text
    fake.stop()


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_each_payload_through_app_dispatch(path, dispatching):
    replay(scenario(path), *dispatching)


@pytest.fixture(scope="module")
def serving() -> Iterator[tuple[FakeSlack, Send, Callable[[], str]]]:
    with running_app(USER_LOCALES, **UNREACHABLE) as (fake, server):

        def send(body: str, headers: dict[str, str]) -> tuple[int, str]:
            response = post(server.url + "/slack/events", body, headers)
            return response.status, response.body.decode()

        yield fake, send, server.log_so_far


@pytest.mark.e2e
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_each_payload_through_the_real_server(path, serving):
    replay(scenario(path), *serving)


@pytest.mark.e2e
def test_the_real_server_logged_no_error_for_the_whole_corpus(serving):
    """Run after the corpus: no payload made the server log an ERROR or a traceback (invalid forms included)."""
    log = serving[2]()
    assert "ERROR" not in log and "Traceback" not in log
