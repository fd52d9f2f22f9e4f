"""A worker stopped while the work a request left behind is stuck: the drain timeout meeting a background task that
never returns. The process exits at the bound, says what it abandoned, and the next process answers the user."""

from __future__ import annotations

import os
import signal
import time

import pytest

from bot.server import GRACE
from fake_slack import BOT_USER_ID, FakeSlack
from slack_client import AppServer, log_problems, send_command, send_mention, untimed

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
DRAIN = 0.5  # WEB_DRAIN_TIMEOUT: the bound a stuck task meets


def test_a_worker_stopped_while_a_mentions_answer_is_stuck_exits_at_the_drain_bound_and_the_next_one_answers(tmp_path):
    """chat.postMessage never answers the stopping process: it exits 0 at the drain timeout (not when Slack would
    have answered, nor when the arbiter kills what is left), warns of the one background task it abandoned, and the
    process after it, on the same database, takes the mention up and posts its answer once."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'd.sqlite3'}", "WEB_DRAIN_TIMEOUT": str(DRAIN),
           "DPSCALE_FOLLOWUP_LEASE": "13"}  # the least allowed: a drain hands its work back at exit anyway
    fake = FakeSlack(behaviour={"chat.postMessage": "hang"}).start()
    old, new = AppServer(fake, env=env), AppServer(fake, env=env)
    try:
        old.start()
        ack = send_mention(old, f"<@{BOT_USER_ID}> 64 2000 90%", "USTUCK", "EvStuck", "1700000500.000001")
        assert ack.status == 200 and fake.wait_for("chat.postMessage")  # the answer is stuck on its way to Slack
        assert old.process is not None
        os.kill(old.process.pid, signal.SIGTERM)
        signalled = time.monotonic()
        status = old.process.wait(DRAIN + 10)
        stopped_after = time.monotonic() - signalled
        first_log = old.output()
        fake.behaviour["chat.postMessage"] = "ok"  # Slack is back for the next process
        new.start()
        taken_up = new.wait_for_log("taking up a mention follow-up", timeout=20)
        answered = wait_for_posts(fake, "1700000500.000001")
        second_log = new.output()
    finally:
        old.stop()
        new.stop()
        fake.stop()
    # it left on its own at the bound, before the arbiter's grace ran out (when it kills a worker that is still there)
    assert status == 0 and stopped_after < DRAIN + GRACE, stopped_after
    assert "abandoned 0 requests and 1 background task" in untimed(first_log)
    assert taken_up == 1 and len(answered) == 1 and "115\u202f200 samples/s" in str(answered[0]["text"])
    assert log_problems(first_log + second_log, sent_texts=old.sent_texts) == []


def wait_for_posts(fake: FakeSlack, thread: str, timeout: float = 20.0) -> list[dict]:
    """The messages posted in `thread` once one has landed (or the timeout passed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        posted = [m for m in list(fake.posted) if m["thread_ts"] == thread]
        if posted:
            return posted
        time.sleep(0.02)
    return []


def test_a_worker_stopped_while_a_form_is_stuck_opening_exits_at_the_drain_bound():
    """The form is opened from the background pool after the acknowledgement; views.open never answers: the
    process exits 0 at the drain timeout, warning of the one background task it abandoned."""
    fake = FakeSlack(behaviour={"views.open": "hang"}).start()
    server = AppServer(fake, env={"WEB_DRAIN_TIMEOUT": str(DRAIN)})
    try:
        server.start()
        assert send_command(server, "", user="UFSTUCK", response_url=fake.response_url("stuck-form")).status == 200
        assert fake.wait_for("views.open")  # the form is being opened, and stays so
        assert server.process is not None
        os.kill(server.process.pid, signal.SIGTERM)
        signalled = time.monotonic()
        status = server.process.wait(DRAIN + 10)
        stopped_after = time.monotonic() - signalled
        log = server.output()
    finally:
        server.stop()
        fake.stop()
    assert status == 0 and stopped_after < DRAIN + GRACE, stopped_after
    assert "abandoned 0 requests and 1 background task" in untimed(log)
    assert log_problems(log, sent_texts=server.sent_texts) == []
