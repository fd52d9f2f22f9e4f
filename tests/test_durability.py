"""Acknowledged means answered, through the real server: a database that stops for a while, a process killed with
answers in flight, a stop under a slow Slack, and Slack's own failures. Each test counts what users sent, what was
acknowledged, answered, answered twice and lost; none may be lost or answered twice.

Slack's side is played as Slack plays it: an event answered 5xx (or not answered within 3 s) is sent again, with
`X-Slack-Retry-Num`, after about 1 s, 1 min and 5 min (here 1, 4 and 8 s); an acknowledged one never again.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_interactive import buttons, click, opened_view, submit
from test_shutdown import children_of
from test_workspaces import MULTI, command, install

import postgres_server
from fake_slack import BOT_USER_ID, FakeSlack
from slack_client import (
    AppServer,
    get,
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


@pytest.mark.slow
def test_a_database_outage_under_mixed_load_loses_nothing_and_answers_nothing_twice(postgres):
    """PostgreSQL stops for about 8 s under commands, mentions, Share clicks, form submissions and App Home, with two
    worker processes; then it starts again. Every mention is answered once (Slack's redeliveries counted), every
    command gets its result, no form closes without its result coming, no click goes unanswered."""
    directory, url = postgres
    env = {"DATABASE_URL": url, "WEB_CONCURRENCY": "2", "DPSCALE_FOLLOWUP_LEASE": "13"}
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


@pytest.mark.slow
def test_a_process_killed_with_answers_in_flight_leaves_none_unanswered_or_answered_twice(tmp_path):
    """Twelve mentions acknowledged, their answers being posted (Slack takes 5 s), when the worker is killed with
    SIGKILL; the worker gunicorn starts in its place takes their work up when its lease ends, looks in each thread
    for what already landed, and posts only what did not."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'd.sqlite3'}", "DPSCALE_FOLLOWUP_LEASE": "13"}
    with running_app(env=env, **{"chat.postMessage": 5.0}) as (fake, server), ThreadPoolExecutor(12) as pool:
        assert server.process is not None
        (worker,) = children_of(server.process.pid)
        mentions = [mention(n, thread="1700000100") for n in range(12)]
        acks = list(pool.map(lambda m: deliver_like_slack(server, m[0]), mentions))
        assert len(fake.wait_for("chat.postMessage", 12, timeout=30)) == 12  # every answer on its way
        os.kill(worker, signal.SIGKILL)
        server.wait_for_log("was sent SIGKILL")
        # every mention's work recorded as done, by the killed worker (before it died) or by its replacement
        done = wait_until(lambda: finished_work(tmp_path / "d.sqlite3") == 12, 60)
        wait_until(lambda: fake.finished_count("chat.postMessage") == len(fake.calls_to("chat.postMessage")), 30)
        log = server.output()
    per_thread = answers_per_thread(fake)
    report = {"acknowledged": sum(a == [200] for a in acks), "answered": len(per_thread),
              "answered twice": sum(c > 1 for c in per_thread.values()), "lost": 12 - len(per_thread)}
    taken_up = log.count("taking up a mention follow-up")
    print("mentions across a SIGKILL:", report, "taken up by the replacement:", taken_up)
    assert done and report == {"acknowledged": 12, "answered": 12, "answered twice": 0, "lost": 0}
    assert taken_up >= 1  # the replacement finished what the killed worker left
    assert len(fake.calls_to("conversations.replies")) >= taken_up  # each looked for before it was posted again


def finished_work(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT count(*) FROM dpscale_work WHERE done").fetchone()[0]


@pytest.mark.slow
def test_a_stop_under_a_slow_slack_abandons_no_acknowledged_mention(tmp_path):
    """SIGTERM while 30 acknowledged mentions wait on a chat.postMessage that takes 5 s, with a drain timeout too
    short for all of them: what the stopping process could not finish, the next one (a deploy's new process, on
    the same database) does; each mention is answered once."""
    database = f"sqlite:///{tmp_path / 'd.sqlite3'}"
    env = {"DATABASE_URL": database, "WEB_DRAIN_TIMEOUT": "6", "DPSCALE_FOLLOWUP_LEASE": "15"}
    fake = FakeSlack(behaviour={"chat.postMessage": 5.0}).start()
    old = AppServer(fake, env=env).start()
    try:
        with ThreadPoolExecutor(30) as pool:
            mentions = [mention(n, thread="1700000200") for n in range(30)]
            acks = list(pool.map(lambda m: deliver_like_slack(old, m[0]), mentions))
        assert old.process is not None
        os.kill(old.process.pid, signal.SIGTERM)
        assert old.process.wait(30) == 0
        first_log = old.output()
        new = AppServer(fake, env=env).start()  # the deploy's new process
        try:
            answered = wait_until(lambda: len(answers_per_thread(fake)) >= 30
                                  and fake.finished_count("chat.postMessage") == len(fake.calls_to("chat.postMessage")),
                                  60)
            second_log = new.output()
        finally:
            new.stop()
    finally:
        old.stop()
        fake.stop()
    per_thread = answers_per_thread(fake)
    report = {"acknowledged": sum(a == [200] for a in acks), "answered": len(per_thread),
              "answered twice": sum(c > 1 for c in per_thread.values()), "lost": 30 - len(per_thread)}
    print("mentions across a stop under a slow Slack:", report, "left to the next process:",
          second_log.count("taking up a mention follow-up"))
    assert answered and report == {"acknowledged": 30, "answered": 30, "answered twice": 0, "lost": 0}
    # the stopping process could not finish them all (it handed back what it had not begun, and the drain timeout
    # cut off what it had): the next process took those up
    assert second_log.count("taking up a mention follow-up") >= 1
    assert log_problems(first_log + second_log, sent_texts=set()) == []


@pytest.mark.parametrize("behaviour", ["error_once", "portal_once", "truncated_once",
                                       pytest.param(11.0, marks=pytest.mark.slow)],
                         ids=["a 500", "an HTML page", "a cut-short answer", "an answer after 11 s"])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_slack_that_fails_once_or_answers_late_shows_one_answer_and_no_apology(behaviour):
    with running_app(**{"chat.postMessage": behaviour}) as (fake, server):
        body, ts = mention(1, thread="1700000300")
        assert deliver_like_slack(server, body) == [200]
        done = server.wait_for_log("kind=mention locale=en_US outcome=ok", timeout=40)
        settled = wait_until(lambda: fake.finished_count("chat.postMessage") == len(fake.calls_to("chat.postMessage")),
                             30)  # every post made has been answered: none is still landing
        log = server.output()
    posted = [m for m in fake.posted if m["thread_ts"] == ts]
    assert done == 1 and settled and "outcome=failed" not in log
    assert len(posted) == 1 and "115\u202f200" in posted[0]["text"]  # as a channel reads it
    assert not posted[0]["text"].startswith(APOLOGY)


@pytest.mark.slow
def test_a_share_whose_response_url_answers_after_11_s_is_shared_once_and_never_said_to_have_failed():
    with running_app(**{"/response/slow-share": 11.0}) as (fake, server):
        share = buttons(send_command(server, "64 2000 90%", user="USL").json())["dpscale_share"]
        assert click(server, "USL", share, fake.response_url("slow-share")).status == 200
        calls = fake.wait_for("/response/slow-share", 2, timeout=30)
        server.wait_for_log("kind=share locale=en_US outcome=ok", timeout=10)
    assert [c.params.get("response_type") or "delete" for c in calls] == ["in_channel", "delete"]
    assert not [c for c in calls if "could not be shared" in json.dumps(c.params)]
    assert not fake.calls_to("chat.postMessage")


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_expired_rows_are_deleted_on_a_clock_without_any_write(tmp_path):
    """Rows past their time — handled events, answers' whereabouts, follow-up work, OAuth states — are deleted by
    the server on its own clock (at start, then every DPSCALE_EXPIRY_INTERVAL), with no request made."""
    path = tmp_path / "d.sqlite3"
    with running_app(env={"DATABASE_URL": f"sqlite:///{path}", "DPSCALE_EXPIRY_INTERVAL": "1"}) as (_, server):
        with sqlite3.connect(path) as connection:  # fewer than ten writes, by another hand
            connection.execute("INSERT INTO dpscale_handled (kind, key, expires_at) VALUES ('event', 'E', '2001-1-1')")
            connection.execute("INSERT INTO dpscale_answers VALUES ('', 'T', 'C', '1.1', '2.2', 'f', '2001-01-01')")
            connection.execute("INSERT INTO slack_oauth_states (state, expire_at) VALUES ('s1', '2001-01-01')")
        def left() -> list[int]:
            with sqlite3.connect(path) as connection:
                return [connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                        for t in ("dpscale_handled", "dpscale_answers", "slack_oauth_states")]

        # a sweep may begin between two of those tables' deletions: the next one, a second later, takes the rest
        gone = wait_until(lambda: left() == [0, 0, 0], 10)
        deleted = server.wait_for_log("expired rows deleted", timeout=10)
    assert gone and deleted >= 1, left()


@pytest.mark.slow
def test_in_multi_workspace_mode_a_database_outage_is_never_taken_for_a_missing_installation(postgres):
    """Installed workspaces whose installation cannot be read (the database stopped) are not told to install
    dpscale again: a command gets a note to try again in a moment, a mention is answered 503 and, redelivered
    once the database is back, answered once."""
    directory, url = postgres
    fake = FakeSlack(locales={"UEN": "en-US"}).start()
    server = AppServer(fake, env={**MULTI, "DATABASE_URL": url, "WEB_CONCURRENCY": "1"}).start()
    try:
        install(server, "T1")
        install(server, "T2")  # neither has made a request yet: no process holds their installation
        postgres_server.stop(directory)
        try:
            told = command(server, "64 2000 90%", "T1")
            body = json.loads(mention_body(f"<@{BOT_USER_ID}> 64 2000 90%", "UEN", "EvMW", "1700000400.000001"))
            body["team_id"] = "T2"
            body["authorizations"] = [{"team_id": "T2", "user_id": BOT_USER_ID, "is_bot": True}]
            delivered = pool_deliver(server, json.dumps(body))
            time.sleep(2.5)  # the outage outlasts Slack's first redelivery
        finally:
            postgres_server.resume(directory)
        statuses = delivered.result()
        answered = fake.wait_for("chat.postMessage", 1, timeout=20)
    finally:
        log = server.output()
        fake.stop()
    assert told.status == 200 and told.json()["text"].startswith("dpscale could not handle your request just now")
    assert "not installed" not in told.body.decode()
    assert statuses[0] == 503 and statuses[-1] == 200
    assert len(answered) == 1 and "115\u202f200" in answered[0].params["text"]
    assert log_problems(log, sent_texts=server.sent_texts) == []


def pool_deliver(server: AppServer, body: str):
    return ThreadPoolExecutor(1).submit(deliver_like_slack, server, body)


@pytest.mark.slow
def test_three_thousand_install_page_visits_leave_no_state_rows_once_their_lifetime_is_over(tmp_path):
    """Each GET of /slack/install makes an OAuth state; none of these visits ever installs, and their rows are gone
    once SLACK_STATE_EXPIRATION_SECONDS (60 s) have passed, deleted by the server's own clock."""
    path = tmp_path / "d.sqlite3"
    env = {**MULTI, "DATABASE_URL": f"sqlite:///{path}", "DPSCALE_EXPIRY_INTERVAL": "1",
           "SLACK_STATE_EXPIRATION_SECONDS": "60"}
    fake = FakeSlack().start()
    server = AppServer(fake, env=env).start()
    try:
        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(lambda _: get(server.url + "/slack/install").status, range(3000)))
        made = time.monotonic()
        with sqlite3.connect(path) as connection:
            stored = connection.execute("SELECT count(*) FROM slack_oauth_states").fetchone()[0]

        def left() -> int:
            with sqlite3.connect(path) as connection:
                return connection.execute("SELECT count(*) FROM slack_oauth_states").fetchone()[0]

        gone = wait_until(lambda: left() == 0, 90)
        waited = time.monotonic() - made
    finally:
        server.stop()
        fake.stop()
    assert statuses == [200] * 3000 and stored == 3000
    assert gone and waited < 60 + 10, waited  # within the lifetime and a few sweeps
