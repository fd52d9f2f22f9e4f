"""Acknowledged means answered, through the real server: a database that stops for a while, a process killed with
answers in flight, a stop under a slow Slack, and Slack's own failures. Each test counts what users sent, what was
acknowledged, answered, answered twice and lost; none may be lost or answered twice.

Slack's side is played as Slack plays it: an event answered 5xx (or not answered within 3 s) is sent again, with
`X-Slack-Retry-Num`, after about 1 s, 1 min and 5 min (here 1, 4 and 8 s); an acknowledged one never again.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_interactive import buttons, click, opened_view, submit
from test_shutdown import children_of

import postgres_server
from fake_slack import BOT_USER_ID, FakeSlack
from slack_client import (
    AppServer,
    log_problems,
    mention_body,
    post,
    running_app,
    send_command,
    send_event,
    signed_headers,
)

pytestmark = pytest.mark.e2e
SLACK_RETRIES = (1.0, 4.0, 8.0)  # Slack's 1 s, 1 min and 5 min, shortened
ACK_DEADLINE = 3.0
APOLOGY = "Sorry, something went wrong on our side"
ANSWER = "115,200"


def deliver_like_slack(server: AppServer, body: str, retries: tuple[float, ...] = SLACK_RETRIES) -> list[int]:
    """Send an event as Slack does, again after each of `retries` while it is answered 5xx, not within 3 s, or not
    at all; the statuses it got (0: no answer)."""
    statuses = []
    for attempt in range(len(retries) + 1):
        headers = signed_headers(body, "application/json")
        if attempt:
            headers |= {"X-Slack-Retry-Num": str(attempt), "X-Slack-Retry-Reason": "http_error"}
        try:
            statuses.append(post(server.url + "/slack/events", body, headers, timeout=ACK_DEADLINE).status)
        except OSError:
            statuses.append(0)
        if 200 <= statuses[-1] < 300 or attempt == len(retries):
            return statuses
        time.sleep(retries[attempt])
    return statuses


def mention(n: int, thread: str = "1700000000") -> tuple[str, str]:
    """A new mention from its own user, in a thread of its own: its body and its thread's ts."""
    ts = f"{thread}.{n:06d}"
    return mention_body(f"<@{BOT_USER_ID}> 64 2000 90%", f"UM{n}", f"EvM{n}", ts), ts


def answers_per_thread(fake: FakeSlack) -> Counter[str]:
    """How many messages were posted in each thread (the answers users see)."""
    return Counter(str(m["thread_ts"]) for m in fake.posted if m.get("thread_ts"))


def wait_until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


@pytest.fixture
def postgres():
    """A PostgreSQL server of this test's own, which it may stop and start again (in a directory the server's
    own user can reach, as pytest's are not)."""
    directory = Path(tempfile.mkdtemp(prefix="dpscale-pg-"))
    try:
        url = postgres_server.start(directory)
    except (FileNotFoundError, OSError) as error:
        if os.environ.get("DPSCALE_REQUIRE_POSTGRES") == "1":
            raise
        pytest.skip(f"no PostgreSQL server here: {error}")
    yield directory, url
    postgres_server.stop(directory)
    shutil.rmtree(directory, ignore_errors=True)


def test_a_database_outage_under_mixed_load_loses_nothing_and_answers_nothing_twice(postgres):
    """PostgreSQL stops for about 8 s under commands, mentions, Share clicks, form submissions and App Home, with two
    worker processes; then it starts again. Every mention is answered once (Slack's redeliveries counted), every
    command gets its result, no form closes without its result coming, no click goes unanswered."""
    directory, url = postgres
    env = {"DATABASE_URL": url, "WEB_CONCURRENCY": "2", "DPSCALE_FOLLOWUP_LEASE": "5"}
    with running_app(env=env) as (fake, server), ThreadPoolExecutor(40) as pool:
        shares = [buttons(send_command(server, "64 2000 90%", user=f"US{n}").json())["dpscale_share"]
                  for n in range(4)]
        before = len(fake.calls_to("views.open"))
        send_command(server, "", user="UF0", response_url=fake.response_url("form-0"))
        form = opened_view(fake, before)
        postgres_server.stop(directory)
        stopped = time.monotonic()
        mentions = [mention(n) for n in range(20)]
        delivered = [pool.submit(deliver_like_slack, server, body) for body, _ in mentions]
        commands = [pool.submit(send_command, server, "64 2000 90%", f"UC{n}") for n in range(20)]
        clicks = [click(server, f"US{n}", share, fake.response_url(f"share-{n}")) for n, share in enumerate(shares)]
        refused_form = submit(server, "UF0", form, {"devices": "64", "throughput": "2000", "efficiency": "90%"})
        home = send_event(server, {"type": "app_home_opened", "user": "UH", "tab": "home"}, "EvHome")
        time.sleep(max(0.0, 8.0 - (time.monotonic() - stopped)))
        postgres_server.resume(directory)
        statuses = [future.result() for future in delivered]
        replies = [future.result() for future in commands]
        again = submit(server, "UF0", form, {"devices": "64", "throughput": "2000", "efficiency": "90%"})
        answered = wait_until(lambda: len(answers_per_thread(fake)) >= 20, 30)
        form_result = fake.wait_for("/response/form-0", 1, timeout=10)
        notes = [fake.wait_for(f"/response/share-{n}", 1, timeout=10) for n in range(4)]
        home_published = fake.wait_for("views.publish", 1, timeout=10)
        log = server.output()
    per_thread = answers_per_thread(fake)
    report = {"sent": 20, "acknowledged": sum(s[-1] == 200 for s in statuses), "answered": len(per_thread),
              "answered twice": sum(c > 1 for c in per_thread.values()),
              "lost": sum(per_thread[ts] == 0 for _, ts in mentions)}
    print("mentions under an 8 s database outage:", report, "deliveries per mention:", Counter(map(len, statuses)))
    assert answered and report == {"sent": 20, "acknowledged": 20, "answered": 20, "answered twice": 0, "lost": 0}
    assert not [m for m in fake.posted if str(m["text"]).startswith(APOLOGY)]
    assert all(r.status == 200 and ANSWER in r.json()["text"] for r in replies)  # each command its result
    assert all(c.status == 200 for c in clicks) and all(n and n[0].params.get("replace_original") is False
                                                          for n in notes)  # a note beside each result
    assert refused_form.status == 200 and refused_form.json()["response_action"] == "errors"  # stays open
    assert again.status == 200 and again.body == b"" and form_result and ANSWER in form_result[0].params["text"]
    assert home.status == 200 and home_published  # the Home tab opened all the same
    assert log_problems(log, sent_texts=server.sent_texts) == []


def test_a_process_killed_with_answers_in_flight_leaves_none_unanswered_or_answered_twice(tmp_path):
    """Twelve mentions acknowledged, their answers being posted (Slack takes 3 s), when the worker is killed with
    SIGKILL; the worker gunicorn starts in its place takes their work up when its lease ends, looks in each thread
    for what already landed, and posts only what did not."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'd.sqlite3'}", "DPSCALE_FOLLOWUP_LEASE": "4"}
    with running_app(env=env, **{"chat.postMessage": 3.0}) as (fake, server), ThreadPoolExecutor(12) as pool:
        assert server.process is not None
        (worker,) = children_of(server.process.pid)
        mentions = [mention(n, thread="1700000100") for n in range(12)]
        acks = list(pool.map(lambda m: deliver_like_slack(server, m[0]), mentions))
        assert fake.wait_for("chat.postMessage", 12, timeout=10)  # every answer on its way
        os.kill(worker, signal.SIGKILL)
        server.wait_for_log("was sent SIGKILL")
        # the new worker's line for each mention it took up: written once that work is done
        done = server.wait_for_log("kind=mention locale=en_US outcome=ok", count=12, timeout=40)
        log = server.output()
    per_thread = answers_per_thread(fake)
    report = {"acknowledged": sum(a == [200] for a in acks), "answered": len(per_thread),
              "answered twice": sum(c > 1 for c in per_thread.values()), "lost": 12 - len(per_thread)}
    print("mentions across a SIGKILL:", report)
    assert done == 12 and report == {"acknowledged": 12, "answered": 12, "answered twice": 0, "lost": 0}
    assert log.count("taking up a mention follow-up") == 12
    assert len(fake.calls_to("conversations.replies")) >= 12  # each looked for before it was posted again
