"""Faults through the real server: the database busy, Slack slow or rate-limiting. Each user still gets an answer,
or an apology, in time, and nothing secret reaches the log."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from test_interactive import buttons, click
from test_workspaces import MULTI, begin_install, finish_install

from fake_slack import BOT_USER_ID, FakeSlack
from slack_client import AppServer, running_app, send_command, send_mention

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
ACK_DEADLINE = 3.0
APOLOGY = "Sorry, something went wrong on our side"


def write_lock(server: AppServer) -> sqlite3.Connection:
    """The SQLite file's write lock, held by another connection, as an operator's `sqlite3` session or a backup
    with an open write transaction would hold it."""
    connection = sqlite3.connect(server.env["DATABASE_URL"].removeprefix("sqlite:///"), isolation_level=None,
                                 timeout=5)  # the server's own writes (its sweeper's) are brief
    connection.execute("BEGIN EXCLUSIVE")
    return connection


def test_a_mention_the_database_cannot_record_is_answered_503_and_its_redelivery_is_answered_once():
    """Slack does not send an acknowledged event again: a mention whose work cannot be recorded is refused with 503,
    in time, so that Slack delivers it again; the redelivery, once the database answers, gets the result, once."""
    with running_app({"UEN": "en-US"}) as (fake, server):
        lock = write_lock(server)
        try:
            refused = send_mention(server, f"<@{BOT_USER_ID}> 64 2000 90%", "UEN", "EvBusy", "1700000000.1")
        finally:
            lock.execute("ROLLBACK")
        redelivered = send_mention(server, f"<@{BOT_USER_ID}> 64 2000 90%", "UEN", "EvBusy", "1700000000.1")
        again = send_mention(server, f"<@{BOT_USER_ID}> 64 2000 90%", "UEN", "EvBusy", "1700000000.1")
        posts = fake.wait_for("chat.postMessage", 1, timeout=8)
        server.wait_for_log("kind=mention outcome=duplicate")  # the third delivery was seen and left alone
    assert refused.status == 503 and refused.elapsed < ACK_DEADLINE
    assert redelivered.status == 200 and again.status == 200
    assert len(fake.calls_to("chat.postMessage")) == 1
    assert "115" in posts[0].params["text"] and not posts[0].params["text"].startswith(APOLOGY)
    assert posts[0].params["thread_ts"] == "1700000000.1"


def test_a_share_click_the_database_cannot_record_gets_a_note_beside_the_result_and_works_when_clicked_again():
    with running_app({"UEN": "en-US"}) as (fake, server):
        share = buttons(send_command(server, "64 2000 90%", user="UEN").json())["dpscale_share"]
        lock = write_lock(server)
        try:
            assert click(server, "UEN", share, fake.response_url("busy")).status == 200
            told = fake.wait_for("/response/busy", 1, timeout=8)
        finally:
            lock.execute("ROLLBACK")
        assert click(server, "UEN", share, fake.response_url("free")).status == 200
        shared = fake.wait_for("/response/free", 2, timeout=8)
    assert told and told[0].params["text"].startswith("dpscale could not handle your request just now")
    assert told[0].params.get("replace_original") is False  # the result and its buttons stay, to click again
    assert shared[0].params.get("response_type") == "in_channel" and shared[1].params.get("delete_original")


def test_a_format_word_while_the_database_is_locked_is_answered_within_slacks_deadline():
    with running_app({"UEN": "en-US"}) as (_, server):
        lock = write_lock(server)
        try:
            response = send_command(server, "64 2000 90% format=de", user="UEN")
        finally:
            lock.execute("ROLLBACK")
        log = server.output()
    assert response.status == 200 and response.elapsed < ACK_DEADLINE, response.elapsed
    assert response.json()["text"].startswith("dpscale could not handle your request just now")  # to try again
    assert "Traceback" not in log


def test_an_installation_that_cannot_be_stored_gets_the_failure_page_and_its_token_never_reaches_the_log():
    fake = FakeSlack(locales={"UEN": "en-US"}).start()
    server = AppServer(fake, env={**MULTI, "WEB_CONCURRENCY": "1"}).start()
    server.crash_expected = True
    try:
        state = begin_install(server)
        fake.behaviour["oauth.v2.access"] = 1.5  # the lock is taken while Slack issues the token
        result: dict = {}
        done = threading.Thread(target=lambda: result.update(page=finish_install(server, state, "code-T9")))
        done.start()
        assert fake.wait_for("oauth.v2.access")
        lock = write_lock(server)
        done.join(20)
        lock.execute("ROLLBACK")
        server.wait_for_log("install page failed")
        log = server.output()
    finally:
        server.stop()
        fake.stop()
    status, page = result["page"]
    assert status == 500 and "Installation failed" in page and "/slack/install" in page
    assert "xoxb-T9" not in log  # an SQL error's message quoted the row being stored
    # nor any of its values: the token is stored encrypted now, but the row holds more than the token
    assert "[parameters:" not in log and "[SQL parameters hidden due to hide_parameters=True]" in log


def test_a_mention_rate_limited_once_is_answered_after_slacks_retry_after_not_with_the_apology():
    with running_app({"UEN": "en-US"}, **{"chat.postMessage": "ratelimit_once"}) as (fake, server):
        fake.retry_after = "1"
        send_mention(server, f"<@{BOT_USER_ID}> 8 1000 80%", "UEN", "EvRL", "1700000000.000900")
        posts = fake.wait_for("chat.postMessage", 2, timeout=8)
    assert len(posts) == 2 and "6400 samples/s" in posts[1].params["text"], [p.params["text"] for p in posts]


def test_a_users_info_answer_later_than_the_requests_wait_is_kept_for_the_users_next_command():
    """DPSCALE_LOCALE_TIMEOUT is how long a request waits (1.5 s); Slack answering in 1.8 s is still heard, and the
    user's next command is read in their own format."""
    with running_app({"UDE": "de-DE"}, **{"users.info": 1.8}) as (fake, server):
        first = send_command(server, "64 2.000 90 %", user="UDE")
        deadline = time.monotonic() + 5
        while not fake.finished_count("users.info") and time.monotonic() < deadline:  # Slack has answered
            time.sleep(0.01)
        second = send_command(server, "64 2.000 90 %", user="UDE")
        assert fake.finished_count("users.info") == 1  # one lookup, heard after the first command stopped waiting
    assert "is ambiguous" in first.json()["text"]  # asked about, as an unknown reader's
    assert "115.200 Samples/s" in second.json()["text"], second.json()["text"][:120]
