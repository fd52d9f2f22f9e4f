"""Resilience through the real server: Slack's API misbehaving, slow follow-ups, hostile text, long soaks."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blockkit import assert_no_broadcast, assert_within_limits
from bot.logs import LineWriter
from bot.policy import Limits
from bot.reader.formats import NUMBER_FORMATS
from bot.reader.series_syntax import wants_series_form
from fake_slack import BOT_USER_ID, FakeSlack
from slack_client import (
    BOT_TOKEN,
    SIGNING_SECRET,
    AppServer,
    log_problems,
    post,
    running_app,
    send_command,
    send_interaction,
    signed_headers,
    slash_command_body,
    untimed,
    worker_memory_kib,
)
from slack_client import send_mention as send_mention

pytestmark = pytest.mark.e2e
ACK_DEADLINE = 3.0


@pytest.mark.parametrize("behaviour", ["hang", "error", "ratelimit"])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_under_concurrent_load_every_command_is_answered_within_3_seconds(behaviour):
    """48 commands from 48 users at once while users.info hangs, fails or is rate-limited."""
    with running_app(**{"users.info": behaviour}) as (_, server), ThreadPoolExecutor(max_workers=24) as pool:
        responses = list(pool.map(lambda n: send_command(server, "64 2000 90%", user=f"UL{n}"), range(48)))
    assert [r.status for r in responses] == [200] * 48
    assert max(r.elapsed for r in responses) < ACK_DEADLINE
    assert all("115\u202f200 samples/s" in r.json()["text"] for r in responses)  # read alike by every locale


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_slow_chat_post_message_does_not_delay_slash_commands():
    with running_app(**{"chat.postMessage": 2.0}) as (fake, server):
        with ThreadPoolExecutor(max_workers=16) as pool:
            mentions = [
                pool.submit(send_mention, server, f"<@{BOT_USER_ID}> 8 1000 80%", "UM", f"EvSlow{n}", f"17.{n}")
                for n in range(10)
            ]
            fake.wait_for("chat.postMessage", 10)  # every mention's answer is now waiting on chat.postMessage
            commands = [pool.submit(send_command, server, "64 2000 90%", user="UC") for _ in range(10)]
            command_times = [f.result().elapsed for f in commands]
            mention_acks = [f.result() for f in mentions]
        posted = fake.wait_for("chat.postMessage", 10, timeout=10)
    assert all(r.status == 200 and r.elapsed < 1.0 for r in mention_acks)
    assert max(command_times) < 1.0
    assert len(posted) == 10


@pytest.mark.parametrize("forged", [None, "0.0"])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_command_that_waited_for_a_thread_gets_only_what_is_left_of_slacks_deadline(forged):
    """One worker thread: B arrives while A's users.info keeps the thread for 2 s. B's own lookup is as slow, and
    B may wait for it only for what is left of Slack's 3 s since B arrived, not for a fresh 2.5 s after the
    wait. A client's own arrival header changes nothing (`forged`: A claims to have arrived long ago)."""
    fake = FakeSlack(locales={"UQA": "en-US", "UQB": "de-DE"}, users={"UQA": 2.0, "UQB": 2.0}).start()
    server = AppServer(fake, env={"WEB_THREADS": "1", "DPSCALE_LOCALE_TIMEOUT": "2.5"})
    try:
        server.start()
        with ThreadPoolExecutor(max_workers=2) as pool:
            extra = {} if forged is None else {"X-Dpscale-Arrived": forged}
            first = pool.submit(send_command, server, "64 2000 90%", user="UQA", **extra)
            assert fake.wait_for("users.info", 1)  # A holds the only thread now
            second = pool.submit(send_command, server, "64 2000 90%", user="UQB").result()
            first_reply = first.result()
    finally:
        server.stop()
        fake.stop()
    assert "115,200 samples/s" in first_reply.json()["text"]  # A waited for its locale, within its deadline
    assert second.status == 200 and second.elapsed < ACK_DEADLINE
    assert "115\u202f200" in second.json()["text"]  # B's format not known in time: written so every locale reads it


@pytest.mark.parametrize(("server_says", "client_says", "listener_sees"), [
    (12.5, None, "12.5"),
    (12.5, "0.0", "12.5"),  # the server's word wins
    (None, "0.0", None),  # another WSGI server says nothing: neither does a client's header
    (None, None, None),
])
def test_only_the_server_tells_the_listeners_when_a_request_arrived(server_says, client_says, listener_sees):
    from io import BytesIO

    from bot.web.http import ARRIVED, guarded

    seen = {}

    def bolt(environ, start_response):
        seen.update(environ)
        start_response("200 OK", [])
        return [b""]

    body = slash_command_body("64 2000 90%")
    environ = {"PATH_INFO": "/slack/events", "REQUEST_METHOD": "POST", "CONTENT_LENGTH": str(len(body)),
               "CONTENT_TYPE": "application/x-www-form-urlencoded", "wsgi.input": BytesIO(body.encode()),
               **{"HTTP_" + k.upper().replace("-", "_"): v for k, v in signed_headers(body, "x").items()
                  if k.startswith("X-")}}
    if server_says is not None:
        environ[ARRIVED] = server_says
    if client_says is not None:
        environ["HTTP_X_DPSCALE_ARRIVED"] = client_says
    guarded(bolt)(environ, lambda *args: None)
    assert seen.get("HTTP_X_DPSCALE_ARRIVED") == listener_sees


@pytest.fixture(scope="module")
def hostile_server():
    with running_app() as (_, server):
        yield server


hostile = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=400, max_size=10_000),
    st.lists(
        st.sampled_from(["<!channel>", "<!here>", "<!everyone>", "<@U123>", "<#C123|x>", "<!subteam^S1>",
                         "&lt;!channel&gt;", "&amp;", "\x00", "\u202e", "\u200b", "9" * 400, "1e999", "NaN",
                         "-0", "lang=de", "actual=", "%", "<https://x.example|x>", "`", "*", "\n"]),
        max_size=12,
    ).map(" ".join),
    st.from_regex(r"[0-9.,' \u202f%kMG]{1,40}", fullmatch=True),
)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("DPSCALE_HOSTILE_EXAMPLES", "1000")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=hostile)
def test_hostile_text_never_breaks_the_server_or_pings_anyone(hostile_server, text):
    response = send_command(hostile_server, text, user="UH")
    assert response.status == 200
    if not response.body:  # nothing, or a series word alone (`series`, `シリーズ`): a form was opened instead
        assert not text.strip() or wants_series_form(text), text
        return
    payload = response.json()
    assert_no_broadcast(payload)
    assert_within_limits(payload["blocks"])
    assert "Traceback" not in response.body.decode()


@pytest.mark.slow
def test_memory_levels_off_through_a_long_soak(capsys):
    """Commands from a few thousand users and mentions with ever-new event ids, through one worker."""
    total = int(os.environ.get("DPSCALE_SOAK_REQUESTS", "6000"))
    users = int(os.environ.get("DPSCALE_SOAK_USERS", "1500"))

    def one(server: AppServer, n: int) -> int:
        user = f"US{n % users}"
        if n % 4 == 3:
            text = f"<@{BOT_USER_ID}> {n % 500 + 1} 2000 90%"
            return send_mention(server, text, user, f"EvSoak{n}", f"1800000000.{n:06d}").status
        return send_command(server, f"{n % 997 + 1} {n * 7 % 50_000 + 10} {n % 60 + 40}%", user=user).status

    checkpoints = [total // 3, total * 2 // 3, total]
    statuses: list[int] = []
    rss_mib: list[float] = []
    with running_app() as (_, server), ThreadPoolExecutor(max_workers=8) as pool:
        assert server.process is not None
        start = 0
        for end in checkpoints:
            statuses += pool.map(lambda n: one(server, n), range(start, end))
            rss_mib.append(worker_memory_kib(server.process.pid) / 1024)
            start = end
    assert set(statuses) == {200}
    growth = rss_mib[-1] - rss_mib[0]
    with capsys.disabled():
        marks = ", ".join(f"{n}: {mib:.1f} MiB" for n, mib in zip(checkpoints, rss_mib, strict=True))
        print(f"\nsoak of {total} requests from {users} users; worker RSS after {marks}; "
              f"growth after warm-up {growth:+.1f} MiB")
    assert growth < 3


def stall(server: AppServer, count: int) -> list[socket.socket]:
    """Connections that send a request's headers announcing 100,000 bytes of body, and never the body."""
    held = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", server.port))
        connection.sendall(b"POST /slack/events HTTP/1.1\r\nHost: dpscale\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 100000\r\n\r\n{")
        held.append(connection)
    return held


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_stalled_connections_do_not_keep_signed_commands_waiting(server):
    held = stall(server, 32)
    try:
        assert server.process is not None and server.process.poll() is None
        with ThreadPoolExecutor(max_workers=16) as pool:
            responses = list(pool.map(lambda n: send_command(server, "64 2000 90%", user=f"UST{n}"), range(32)))
    finally:
        for connection in held:
            connection.close()
    assert [r.status for r in responses] == [200] * 32
    assert all("115,200 samples/s" in r.json()["text"] for r in responses)
    assert max(r.elapsed for r in responses) < ACK_DEADLINE


@pytest.mark.slow
def test_a_stalled_connection_is_closed_after_the_read_timeout(server):
    (connection,) = stall(server, 1)
    with connection:
        connection.settimeout(30)
        assert connection.recv(1024) == b""  # closed by the server, with no answer and no thread held meanwhile


TRICKLED = {
    "headers": b"POST /slack/events HTTP/1.1\r\nHost: dpscale\r\nX-Trickle: ",
    "body": b"POST /slack/events HTTP/1.1\r\nHost: dpscale\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000\r\n\r\n{",
}


def closed_by_server(connection: socket.socket, wait: float) -> bool:
    """Whether the server closes `connection` within `wait` seconds (it sends no answer to an unfinished request)."""
    connection.settimeout(wait)
    try:
        return connection.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


@pytest.mark.slow
def test_a_request_trickled_a_byte_at_a_time_is_closed_once_its_deadline_passes(server):
    """Connections that send one byte of their headers or of their body every half second are never idle, yet
    each is closed within the request's deadline (`Limits.request`, the server's) of its first byte (and the poll
    and the cleanup's slack); a signed command sent meanwhile is answered at once."""
    deadline = Limits().request
    started = time.monotonic()
    open_ = {name: socket.create_connection(("127.0.0.1", server.port)) for name in TRICKLED}
    for name, connection in open_.items():
        connection.sendall(TRICKLED[name])
    closed: dict[str, float] = {}
    answered = None
    try:
        while open_ and time.monotonic() - started < deadline + 5:
            for name, connection in list(open_.items()):
                if closed_by_server(connection, 0.25):
                    closed[name] = time.monotonic() - started
                    open_.pop(name).close()
                    continue
                try:
                    connection.sendall(b"a")
                except (BrokenPipeError, ConnectionResetError):
                    closed[name] = time.monotonic() - started
                    open_.pop(name).close()
            if answered is None:
                answered = send_command(server, "64 2000 90%", user="UTR")
    finally:
        for connection in open_.values():
            connection.close()
    assert sorted(closed) == sorted(TRICKLED)  # neither was still open the deadline + 5 s after its first byte
    assert min(closed.values()) >= deadline  # by the deadline, not by anything sooner
    assert answered is not None and answered.status == 200 and answered.elapsed < ACK_DEADLINE
    assert "115,200 samples/s" in answered.json()["text"]


PIPELINED = """
import asyncio, socket, sys, threading, time
import uvicorn
import bot.web.workers as workers
from bot.policy import Limits

size = int(sys.argv[1])

async def slow(scope, receive, send):  # a request that waits, as one queued behind busy threads does
    if scope["type"] != "http":
        return
    await asyncio.sleep(2)
    body = b"x" * size
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", str(size).encode())]})
    await send({"type": "http.response.body", "body": body})

listener = socket.create_server(("127.0.0.1", 0))
limits = Limits(request=1)  # shorter than the first request takes to answer
config = uvicorn.Config(slow, http=workers.bounded_protocol(limits), lifespan="off", log_level="warning")
threading.Thread(target=uvicorn.Server(config).run, kwargs={"sockets": [listener]}, daemon=True).start()
time.sleep(0.5)
client = socket.socket()
client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)  # a small window: an answer takes a while to send
client.connect(listener.getsockname())
client.sendall(b"GET /1 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET /2 HTTP/1.1\\r\\nHo")
time.sleep(0.1)
client.sendall(b"st: x\\r\\n\\r\\n")  # the rest of the second request, at once
client.settimeout(10)
received, body_bytes = bytearray(), 0
try:
    while body_bytes < 2 * size:  # every byte of both answers' bodies (their headers hold no `x`)
        chunk = client.recv(65536)
        if not chunk:
            break
        received += chunk
        body_bytes += chunk.count(b"x")
except (TimeoutError, ConnectionResetError) as error:
    print(type(error).__name__)
print(received.count(b"HTTP/1.1 200"), received.count(b"x"))
"""


@pytest.mark.parametrize("size", [10, 5_000_000], ids=["short answers", "a long answer still being sent"])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_pipelined_request_waiting_behind_a_slow_one_is_answered_not_cut_off(size):
    """The request deadline runs only while the server reads: a second request sent at once on the same
    connection, waiting while the first (slower than the deadline) is served and its answer sent, is answered
    too, and the first answer arrives whole."""
    done = subprocess.run([sys.executable, "-c", PIPELINED, str(size)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", str(2 * size)]


def raw_request(server: AppServer, head: bytes, body_chunks: int = 0, chunk: bytes = b"") -> bytes:
    """Send `head`, then up to `body_chunks` chunks while the server still reads; the status line it answered."""
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.settimeout(20)
        connection.sendall(head)
        try:
            for _ in range(body_chunks):
                connection.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the end, as it should be
        try:
            return connection.recv(65536).split(b"\r\n", 1)[0]
        except ConnectionResetError:
            return b""


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_oversized_bodies_are_refused_with_413_without_growing_the_worker_or_the_log():
    """Eight unsigned 25 MB bodies, announced by Content-Length or sent chunked; their text is never logged."""
    marker = b"OVERSIZED-BODY-TEXT\n" * 4096  # 80 KiB per chunk, a newline every 20 bytes
    with running_app() as (_, server):
        assert server.process is not None
        before = worker_memory_kib(server.process.pid, "VmHWM")
        statuses = []
        for n in range(8):
            if n % 2:
                head = (b"POST /slack/events HTTP/1.1\r\nHost: dpscale\r\nContent-Type: application/json\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n")
                sized = b"%x\r\n" % len(marker) + marker + b"\r\n"
                statuses.append(raw_request(server, head, 320, sized))
            else:
                head = (b"POST /slack/events HTTP/1.1\r\nHost: dpscale\r\nContent-Type: application/json\r\n"
                        b"Content-Length: %d\r\n\r\n" % (320 * len(marker)))
                statuses.append(raw_request(server, head, 320, marker))
        growth_mib = (worker_memory_kib(server.process.pid, "VmHWM") - before) / 1024
        assert send_command(server, "64 2000 90%").status == 200  # still serving
        log = server.output()
    assert statuses == [b"HTTP/1.1 413 Request Entity Too Large"] * 8
    assert growth_mib < 16
    assert "OVERSIZED" not in log
    assert len(log) < 4096


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_an_endless_chunk_size_line_is_refused_at_once():
    """A chunk size line that never ends is malformed framing: refused with 400 as soon as its size cannot be a
    number any more (httptools' parser bounds it), never kept growing or held for the request's whole 10 s."""
    head = (b"POST /slack/events HTTP/1.1\r\nHost: dpscale\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    with running_app() as (_, server):
        assert server.process is not None
        before = worker_memory_kib(server.process.pid, "VmHWM")
        started = time.monotonic()
        status = raw_request(server, head, 320, b"f" * 65536)  # 20 MiB of one hexadecimal size that never ends
        elapsed = time.monotonic() - started
        growth_mib = (worker_memory_kib(server.process.pid, "VmHWM") - before) / 1024
        assert send_command(server, "64 2000 90%").status == 200
    assert status == b"HTTP/1.1 400 Bad Request"
    assert elapsed < 5  # answered at once, not closed at the request's deadline
    assert growth_mib < 16


def signed_bytes(body: bytes, content_type: str) -> dict[str, str]:
    timestamp = str(int(time.time()))
    base = b"v0:" + timestamp.encode() + b":" + body
    digest = hmac.new(SIGNING_SECRET.encode(), base, hashlib.sha256).hexdigest()
    return {"Content-Type": content_type, "X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": "v0=" + digest}


FORM = "application/x-www-form-urlencoded"
JSON_UTF8 = "application/json; charset=utf-8"
def _payload(text: str) -> bytes:
    return b"payload=" + quote(text).encode()


MALFORMED = {
    # name: (body, content type, signed, header overrides, expected status)
    "non-UTF-8 body, signed": (b"text=\xff\xfe&command=%2Fdpscale", FORM, True, {}, 400),
    "non-UTF-8 body, unsigned": (b"text=\xff\xfe", FORM, False, {}, 401),
    "payload=not-json, signed": (b"payload=not-json", FORM, True, {}, 400),
    "payload=not-json, unsigned": (b"payload=not-json", FORM, False, {}, 401),
    "payload a JSON array, signed": (b"payload=%5B1%2C2%5D", FORM, True, {}, 400),
    "JSON array, signed": (b"[1, 2]", "application/json", True, {}, 400),
    "JSON string, signed": (b'"event"', "application/json", True, {}, 400),
    "timestamp abc": (b"text=64", FORM, True, {"X-Slack-Request-Timestamp": "abc"}, 401),
    "signature v0=\u00e4": (b"text=64", FORM, True, {"X-Slack-Signature": "v0=\u00e4"}, 401),
    "no signature at all": (b"text=64", FORM, False, {}, 401),
    # Bolt reads `application/json; charset=utf-8` as JSON: so must the front
    "JSON array, charset, signed": (b"[1, 2]", JSON_UTF8, True, {}, 400),
    "JSON number, charset, signed": (b"1", JSON_UTF8, True, {}, 400),
    "not JSON, charset, signed": (b"not json", JSON_UTF8, True, {}, 400),
    "JSON string, charset, wrong signature": (b'"event"', JSON_UTF8, True, {"X-Slack-Signature": "v0=deadbeef"}, 400),
    "not JSON, charset, unsigned": (b"not json", JSON_UTF8, False, {}, 401),
    # nested past the interpreter's recursion limit
    "JSON nested 100,000 deep, signed": (b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}", "application/json",
                                         True, {}, 400),
    "JSON nested 100,000 deep, wrong signature": (b"[" * 100_000 + b"]" * 100_000, "application/json", True,
                                                  {"X-Slack-Signature": "v0=deadbeef"}, 400),
    "payload= nested 50,000 deep, signed": (b"payload=" + b"%5B" * 50_000 + b"%5D" * 50_000, FORM, True, {}, 400),
    # shapes Bolt's listener matchers index without checking
    "block_actions without actions, signed": (_payload('{"type":"block_actions","actions":[]}'), FORM, True, {}, 400),
    "block_actions, an action without an id, signed": (
        _payload('{"type":"block_actions","actions":[{"value":"x"}]}'), FORM, True, {}, 400),
    "view_submission without a view, signed": (_payload('{"type":"view_submission"}'), FORM, True, {}, 400),
    "view_submission, a view without a type, signed": (
        _payload('{"type":"view_submission","view":{"callback_id":"dpscale_form"}}'), FORM, True, {}, 400),
    "interactive_message without actions, signed": (
        _payload('{"type":"interactive_message","callback_id":"x"}'), FORM, True, {}, 400),
    "dialog_submission, a number for its callback id, signed": (
        _payload('{"type":"dialog_submission","callback_id":5}'), FORM, True, {}, 400),
    "block_suggestion, a number for its action id, signed": (
        _payload('{"type":"block_suggestion","action_id":5}'), FORM, True, {}, 400),
    "event_callback, the event a string, signed": (b'{"type":"event_callback","event":"type"}', "application/json",
                                                   True, {}, 400),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_malformed_or_unsigned_requests_get_400_or_401_and_no_traceback(server, case):
    body, content_type, signed, overrides, expected = MALFORMED[case]
    headers = signed_bytes(body, content_type) if signed else {"Content-Type": content_type}
    headers.update(overrides)
    request = urllib.request.Request(server.url + "/slack/events", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            status, answer = reply.status, reply.read()
    except urllib.error.HTTPError as error:
        status, answer = error.code, error.read()
    assert status == expected
    assert b"Traceback" not in answer
    assert send_command(server, "64 2000 90%").status == 200  # a later request, so the log has caught up
    assert "Traceback" not in server.log_so_far()


@pytest.mark.parametrize(
    "values",
    [
        {"field_devices": {"value": {"type": "plain_text_input", "value": 64}}},  # a number, not text
        {"field_devices": "64"},  # a block that is no object
        [],
    ],
    ids=["a number", "a block as text", "values a list"],
)
def test_a_submitted_form_whose_state_is_not_a_forms_is_replaced_by_a_note_without_a_traceback(server, values):
    """Slack never sends these, but a signed one must not reach a listener's `.isascii` or `.get`: the form is
    replaced with the note for a form this version does not know, and the log holds no traceback."""
    view = {"id": "V1", "type": "modal", "callback_id": "dpscale_form", "private_metadata": '{"l":"de_DE"}',
            "state": {"values": values}}
    response = send_interaction(server, {"type": "view_submission", "user": {"id": "U1", "team_id": "T0TEAM"},
                                         "team": {"id": "T0TEAM"}, "api_app_id": "A1", "view": view})
    assert response.status == 200
    assert response.json()["response_action"] == "update"
    assert "älteren Version" in json.dumps(response.json()["view"], ensure_ascii=False)
    assert server.wait_for_log("kind=form locale=de_DE outcome=outdated") >= 1  # no result is recorded to deliver
    assert "Traceback" not in server.log_so_far()


@pytest.mark.parametrize("value", [{"l": "de_DE"}, 5, ["t"]], ids=["an object", "a number", "a list"])
def test_a_button_whose_value_is_not_text_opens_an_empty_form_without_a_traceback(server, fake, value):
    """A signed Edit click whose value is JSON other than a string: read as a button this app did not write (the
    empty form opens), not a TypeError."""
    before, logged = len(fake.calls_to("views.open")), server.log_so_far().count("outcome=empty_form")
    response = send_interaction(server, {
        "type": "block_actions", "user": {"id": "U1", "team_id": "T0TEAM"}, "team": {"id": "T0TEAM"},
        "api_app_id": "A1", "trigger_id": "t", "channel": {"id": "C1"}, "response_url": fake.response_url("odd"),
        "container": {"type": "message", "is_ephemeral": True},
        "actions": [{"action_id": "dpscale_edit", "block_id": "b", "action_ts": "1", "value": value}],
    })
    assert response.status == 200
    assert server.wait_for_log("outcome=empty_form", logged + 1) == logged + 1
    fake.wait_for("views.open", before + 1)
    assert "Traceback" not in server.log_so_far()


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_json_nested_about_as_deep_as_the_stack_allows_gets_an_answer_and_no_traceback():
    """Bolt parses a body again, further down the stack than the front: nested a little less deep than the
    front's own parse can manage, a body used to pass the front and fail in Bolt with 500 and a traceback."""
    limit = sys.getrecursionlimit()  # the server's interpreter has the same default
    with running_app() as (_, server):
        statuses = set()
        for depth in range(limit - 100, limit + 10):
            body = '{"a":' + "[" * depth + "]" * depth + "}"
            statuses.add(post(server.url + "/slack/events", body, signed_headers(body, "application/json")).status)
        log = server.output()
    assert statuses and statuses <= {400, 404}  # not JSON Bolt can read, or a well-formed event no listener wants
    assert "Traceback" not in log


PAYLOAD_WORD = {  # a slash command's form fields that hold the word `payload`, though the form has no such field
    "channel": {"channel_name": "payload-team"},
    "user": {"user_name": "payloadmaster"},
    "workspace": {"team_domain": "payload"},
}


@pytest.mark.parametrize("fields", PAYLOAD_WORD.values(), ids=list(PAYLOAD_WORD))
def test_a_command_whose_form_mentions_payload_is_answered(server, fields):
    body = slash_command_body("64 2000 90%", **fields)
    response = post(server.url + "/slack/events", body, signed_headers(body, FORM))
    assert response.status == 200
    assert "115,200 samples/s" in response.json()["text"]


def test_a_command_whose_text_says_payload_is_answered_by_the_command(server):
    text = "64 2000 90% payload"
    server.sent_texts.add(text)
    body = slash_command_body(text)
    response = post(server.url + "/slack/events", body, signed_headers(body, FORM))
    assert response.status == 200
    assert "I don't recognize `payload`" in response.json()["text"]  # the listener read the text, as it reads any word


def test_a_command_mentioning_payload_is_still_verified(server):
    """Bolt still checks the signature of what the front lets through: a forged one gets 401."""
    body = slash_command_body("64 2000 90%", channel_name="payload-team")
    headers = {**signed_headers(body, FORM), "X-Slack-Signature": "v0=" + "0" * 64}
    assert post(server.url + "/slack/events", body, headers).status == 401


def test_head_gets_the_headers_of_get_and_no_body(server):
    """On one kept-alive connection, HEAD /healthz then GET /healthz: the second answer starts right after the
    first one's headers, with nothing between them."""
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.settimeout(10)
        connection.sendall(b"HEAD /healthz HTTP/1.1\r\nHost: dpscale\r\n\r\n"
                           b"GET /healthz HTTP/1.1\r\nHost: dpscale\r\n\r\n")
        received = b""
        while received.count(b"HTTP/1.1 ") < 2 or not received.endswith(b"\r\n\r\nok"):
            chunk = connection.recv(4096)
            if not chunk:
                break
            received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK") and b"content-length: 2" in head.lower()
    assert rest.startswith(b"HTTP/1.1 200 OK") and rest.endswith(b"\r\n\r\nok")


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_request_failing_verification_is_logged_without_its_body():
    """A genuine request signed with a clock skewed by ten minutes: 401, and the log names the failure only."""
    with running_app() as (fake, server):
        server.sent_texts.add("64 2000 SKEWED-TEXT")
        body = slash_command_body("64 2000 SKEWED-TEXT", response_url=fake.response_url("skewed"))
        headers = signed_headers(body, FORM, timestamp=int(time.time()) - 600)
        response = post(server.url + "/slack/events", body, headers)
        log = server.output()
    assert response.status == 401
    assert "Invalid request signature detected" in log
    assert log_problems(log, sent_texts=server.sent_texts) == []


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_python_m_bot_serves_http_from_any_working_directory():
    fake = FakeSlack().start()
    with tempfile.TemporaryDirectory() as elsewhere:
        server = AppServer(fake, command=["python", "-m", "bot"], cwd=Path(elsewhere))
        try:
            server.start()
            response = send_command(server, "64 2000 90%")
        finally:
            server.stop()
            fake.stop()
    assert response.status == 200
    assert "115,200 samples/s" in response.json()["text"]


LOGGING_PROGRAM = """
import logging
from bot.settings import load_settings
from bot.logs import configure_logging

configure_logging(load_settings({"SLACK_BOT_TOKEN": "xoxb-x", "SLACK_SIGNING_SECRET": "s"}))
logging.getLogger("bot.requests").info("kind=%s outcome=%s", "command", "forged\\nINFO bot.requests kind=admin\\r")
try:
    raise ValueError("several\\nlines")
except ValueError:
    logging.getLogger("bot.slack.failures").exception("listener failed")
logging.getLogger("bot.bolt").info("Invalid request signature detected (body: token=t&text=secret)")
logging.getLogger("slack_sdk.web.base_client").error("Failed to send a request to Slack API server: timed out")
"""


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_each_log_record_is_one_line_whatever_its_values_hold():
    done = subprocess.run([sys.executable, "-c", LOGGING_PROGRAM], capture_output=True, text=True, timeout=30)
    assert untimed(done.stderr).splitlines() == [
        "INFO bot.requests kind=command outcome=forged\\nINFO bot.requests kind=admin\\r",
        untimed(done.stderr).splitlines()[1],
        "INFO bot.bolt Invalid request signature detected",
        # a failed Web API call, which its caller handles and logs in its own words: a warning
        "WARNING slack_sdk.web.base_client Failed to send a request to Slack API server",
    ]
    assert untimed(done.stderr).splitlines()[1].startswith("ERROR bot.slack.failures listener failed\\nTraceback")
    assert "ValueError: several\\nlines" in done.stderr


class RecordingStream:
    """A stand-in for stderr: what each write call was given, and an event set on every write."""

    def __init__(self) -> None:
        self.writes: list[str] = []
        self.written = threading.Event()

    def write(self, text: str) -> None:
        self.writes.append(text)
        self.written.set()

    def flush(self) -> None:
        pass


def test_log_lines_reach_the_stream_in_order_within_the_writers_interval():
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    stream = RecordingStream()
    writer = LineWriter(lines, stream, interval=0.01)  # type: ignore[arg-type]
    writer.start()
    try:
        for n in range(3):
            lines.put(f"INFO bot.requests kind=command n={n}")
        deadline = time.monotonic() + 5
        while "".join(stream.writes).count("\n") < 3 and time.monotonic() < deadline:
            stream.written.wait(0.1)
            stream.written.clear()
        assert "".join(stream.writes).splitlines() == [f"INFO bot.requests kind=command n={n}" for n in range(3)]
    finally:
        writer.stop()


def test_the_writer_writes_what_is_queued_in_one_write_when_it_stops():
    """Lines logged while the writer sleeps go out together, and none is lost at exit: with an interval of an
    hour the thread never wakes, so only `stop` can have written them."""
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    stream = RecordingStream()
    writer = LineWriter(lines, stream, interval=3600)  # type: ignore[arg-type]
    writer.start()
    for n in range(5):
        lines.put(f"line {n}")
    writer.stop()
    assert stream.writes == ["".join(f"line {n}\n" for n in range(5))]


FORKING_PROGRAM = """
import logging, os, sys
import bot.server  # registers what a forked server does with its log writer
from bot.settings import load_settings
from bot.logs import configure_logging

configure_logging(load_settings({"SLACK_BOT_TOKEN": "xoxb-x", "SLACK_SIGNING_SECRET": "s"}))
logging.getLogger("bot.server").info("before the fork")
pid = os.fork()
if pid == 0:
    logging.getLogger("bot.server").info("in the child")
    sys.exit(0)
os.waitpid(pid, 0)
logging.getLogger("bot.server").info("in the parent")
"""


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_forked_process_writes_its_own_lines_and_not_its_parents_again():
    done = subprocess.run([sys.executable, "-c", FORKING_PROGRAM], capture_output=True, text=True, timeout=30)
    assert sorted(untimed(done.stderr).splitlines()) == [
        "INFO bot.server before the fork", "INFO bot.server in the child", "INFO bot.server in the parent",
    ]


FORK_MID_WRITE_PROGRAM = """
import os, sys, threading, time
import bot.server  # registers what a fork does with the log writer
from bot import logs

class SlowStream:  # as stderr's buffer: a lock held across each write, taking a while
    lock = threading.Lock()
    started = threading.Event()
    def write(self, text):
        with self.lock:
            self.started.set()
            time.sleep(0.5)
    def flush(self):
        with self.lock:
            pass

import queue
lines = queue.SimpleQueue()
logs._listener = logs.LineWriter(lines, SlowStream(), interval=0.01)
logs._listener.start()
lines.put("a line the parent is writing as it forks")
SlowStream.started.wait(5)
pid = os.fork()  # the writer thread is in the middle of its write
if pid == 0:
    lines.put("the child's own line")
    writer = threading.Thread(target=logs.stop_writer, daemon=True)
    writer.start()
    writer.join(5)
    os._exit(1 if writer.is_alive() else 0)  # 1: the child's write waits for a lock nobody will release
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_worker_forked_while_its_parent_writes_a_log_line_can_still_write_and_exit():
    """A fork in the middle of the parent's write copies stderr's buffer locked by a thread the child does not
    have: the worker's every write and its exit would wait for ever (a worker stopped by SIGTERM that never went
    away). The fork waits for the write to end."""
    done = subprocess.run([sys.executable, "-c", FORK_MID_WRITE_PROGRAM], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.stdout.strip() == "0", done.stderr


HEAP_PROGRAM = """
import gc
from bot.engine import answer
from bot.reader.formats import NUMBER_FORMATS
from bot.reader.numbers import resolve_locale
from bot.processes import freeze_startup_heap

freeze_startup_heap()
before = len(gc.get_objects())
for tag in NUMBER_FORMATS:
    for text in ("64 2.000 90 %", "64 2,000 0.9 a=1", "hilfe", "x"):
        answer(text, resolve_locale(tag))
gc.collect()
print(len(gc.get_objects()) - before)
"""


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_replies_in_every_offered_locale_leave_nothing_new_for_the_collector_once_the_server_has_started():
    """The server freezes its start-up heap with every locale's data loaded: answering in each then leaves no
    more than a few objects per locale (the first reply alone used to bring in some 28,000)."""
    done = subprocess.run([sys.executable, "-c", HEAP_PROGRAM], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 100 * len(NUMBER_FORMATS)


HALF_WARMED_PROGRAM = """
import gc
from bot.processes import warm_steps

steps = warm_steps()
gc.freeze()  # the heap as a worker inherits it, frozen before the fork
for step in steps[: len(steps) // 2]:
    step()
print(len(gc.get_objects()))
"""


def test_a_collection_while_the_warm_up_is_under_way_walks_none_of_the_locales_data():
    """Each step of a worker's idle warm-up freezes the locale data it loaded, so a full collection that a burst of
    requests starts half-way through the warm-up walks almost nothing (unfrozen, half the locales' data is some
    18,000 objects, and such a collection held the interpreter for a tenth of a second and more)."""
    done = subprocess.run([sys.executable, "-c", HALF_WARMED_PROGRAM], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 1000


STARTUP_FAILURES = {
    # Slack's answer to the start-up auth.test: what the one line must say
    "Slack down": ({"behaviour": {"auth.test": "error"}}, "failed at start-up with HTTP 500 (internal_error)"),
    "rate-limited": ({"behaviour": {"auth.test": "ratelimit"}}, "failed at start-up with HTTP 429 (ratelimited)"),
    "token revoked": ({"revoked": {BOT_TOKEN}}, "Slack refused SLACK_BOT_TOKEN at start-up (auth.test: invalid_auth)"),
    "a proxy's page": ({"behaviour": {"auth.test": "portal"}}, "an answer that is not Slack's at start-up (HTTP 200)"),
}


@pytest.mark.parametrize("mode", ["http", "socket mode"])
@pytest.mark.parametrize("case", STARTUP_FAILURES, ids=list(STARTUP_FAILURES))
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_failed_token_check_at_start_up_exits_1_with_one_line_saying_why(case, mode):
    """Bolt checks the bot token with auth.test as the app is built: when that fails the process (the web one, or
    `python -m bot` in Socket Mode) exits 1 with one ERROR line telling a refused token from Slack being
    unavailable, and no traceback."""
    options, expected = STARTUP_FAILURES[case]
    fake = FakeSlack(**options).start()
    socket_mode = {"env": {"SLACK_APP_TOKEN": "xapp-1-test"}, "command": ["python", "-m", "bot"]}
    server = AppServer(fake, **(socket_mode if mode == "socket mode" else {}))
    try:
        if mode == "http":
            with pytest.raises(RuntimeError):  # exited before /healthz answered
                server.start(timeout=30)
        else:
            server.start(http=False)
        assert server.process is not None and server.process.wait(30) == 1
        log = server.output()
    finally:
        server.stop()
        fake.stop()
    errors = [line for line in untimed(log).splitlines() if line.startswith("ERROR bot.server")]
    assert len(errors) == 1 and errors[0].startswith("ERROR bot.server not serving: ")
    assert expected in errors[0]
    assert "portal-page" not in log  # nothing of what came back is written
    assert log_problems(log) == []  # no traceback, no token, every line one event


def hold_idle_connections(port: int, count: int, stop: threading.Event, reopened: list[int]) -> None:
    """Keep `count` connections open to `port` that never send a byte, opening a new one as each is closed."""
    import selectors

    selector = selectors.DefaultSelector()

    def open_one() -> None:
        connection = socket.socket()
        connection.setblocking(False)
        connection.connect_ex(("127.0.0.1", port))
        selector.register(connection, selectors.EVENT_READ)

    for _ in range(count):
        open_one()
    while not stop.is_set():
        for key, _ in selector.select(timeout=0.1):
            connection = key.fileobj
            try:
                closed = connection.recv(1024) == b""  # type: ignore[union-attr]
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                closed = True
            if closed:
                selector.unregister(connection)
                connection.close()  # type: ignore[union-attr]
                reopened[0] += 1
                open_one()
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    selector.close()


@pytest.mark.slow
def test_two_thousand_idle_reconnecting_connections_leave_every_signed_command_answered_in_time(server):
    """A client holding 2,000 connections that send nothing, reconnecting as each is closed: silent connections are
    closed after 2 s and only file descriptors bound how many may be open, so signed commands sent meanwhile are
    each answered within Slack's 3 s."""
    stop, reopened = threading.Event(), [0]
    holder = threading.Thread(target=hold_idle_connections, args=(server.port, 2000, stop, reopened), daemon=True)
    holder.start()
    try:
        time.sleep(0.5)  # the connections are open (the first ones being closed and reopened from now on)
        responses = []
        for n in range(10):
            responses.append(send_command(server, "64 2000 90%", user=f"UIDLE{n}"))
            time.sleep(0.5)
    finally:
        stop.set()
        holder.join(10)
    assert [r.status for r in responses] == [200] * 10
    assert max(r.elapsed for r in responses) < ACK_DEADLINE, [round(r.elapsed, 2) for r in responses]
    assert reopened[0] >= 2000  # each was closed by the server within the few seconds and reopened


def test_content_length_beside_chunked_framing_is_refused_and_nothing_after_it_is_served(server):
    """RFC 9112: Content-Length with Transfer-Encoding is an error; the bytes after the chunked body are never read
    as a second request (request smuggling behind a proxy that trusts Content-Length)."""
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.settimeout(10)
        connection.sendall(b"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
                           b"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                           b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    assert received.startswith(b"HTTP/1.1 400 ") and received.count(b"HTTP/1.1 ") == 1


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_killed_worker_is_replaced_and_logged_within_a_second_and_requests_go_on():
    from test_shutdown import children_of

    with running_app() as (_, server):
        replaced, worker, answered, log = _kill_the_worker(server, children_of)
    assert replaced is not None and replaced < 1.0, (replaced, log[-3000:])
    assert f"Worker (pid:{worker}) was sent SIGKILL" in log
    assert answered.status == 200 and "115,200 samples/s" in answered.json()["text"]


def _kill_the_worker(server, children_of):
    """SIGKILL the server's worker; how soon another was serving, which was killed, a command's answer, the log."""
    assert server.process is not None
    (worker,) = children_of(server.process.pid)
    os.kill(worker, 9)
    killed = time.monotonic()
    replaced = None
    while time.monotonic() - killed < 5:
        found = [pid for pid in children_of(server.process.pid) if pid != worker]
        if found and f"Booting worker with pid: {found[0]}" in server.log_so_far():  # the replacement, serving
            replaced = time.monotonic() - killed
            break
        time.sleep(0.02)
    answered = send_command(server, "64 2000 90%", user="UREPLACED")
    return replaced, worker, answered, server.log_so_far()


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_host_keeps_the_server_on_the_address_it_names():
    fake = FakeSlack().start()
    app = AppServer(fake, env={"HOST": "127.0.0.1"}).start()
    try:
        outside = next(address for address in _own_addresses() if not address.startswith("127."))
        with pytest.raises(OSError):
            socket.create_connection((outside, app.port), timeout=2).close()
        assert send_command(app, "64 2000 90%").status == 200
    finally:
        app.stop()
        fake.stop()


def _own_addresses() -> list[str]:
    """This machine's IPv4 addresses (its loopback too)."""
    found = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    return [a for a in found if "." in a] or pytest.skip("no address but loopback here")
