"""An edited mention updates its one answer in place, whichever process the edit lands on: two real servers (the
Procfile's `web:` command, one process each) share one database — an SQLite file, then a PostgreSQL server — and
the test chooses which of them receives the original and which the edit."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from fake_slack import FakeSlack
from slack_client import AppServer, mention_body, post, signed_headers

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
CHANNEL = "C1"  # where slack_client.mention_body's mentions are written
THIN = "\u202f"  # the channel format's thousands separator, which every locale reads alike


@pytest.fixture
def servers(database_url) -> Iterator[tuple[FakeSlack, ...]]:
    """The fake Slack Web API and two single-process servers on one database."""
    fake = FakeSlack(locales={"UEN": "en-US"}).start()
    started: list[AppServer] = []
    try:
        for _ in range(2):  # each started before the next picks its port
            started.append(AppServer(fake, env={"DATABASE_URL": database_url, "WEB_CONCURRENCY": "1"}).start())
        yield fake, *started
    finally:
        for server in started:
            server.stop()
        fake.stop()


def mention(server: AppServer, text: str, event_id: str, ts: str, edited: bool = False) -> None:
    """An `app_mention` as Slack sends it; an edit is the same message (channel and ts) under a new event id."""
    payload = json.loads(mention_body(text, "UEN", event_id, ts))
    if edited:
        payload["event"]["edited"] = {"user": "UEN", "ts": f"{float(ts) + 1:.6f}"}
    server.sent_texts.add(text)
    body = json.dumps(payload)
    assert post(server.url + "/slack/events", body, signed_headers(body, "application/json")).status == 200


def outcomes(server: AppServer, count: int) -> list[str]:
    """The outcomes of the first `count` mentions the server handled, once it has logged that many."""
    assert server.wait_for_log("kind=mention", count, timeout=20) >= count, server.log_so_far()
    return re.findall(r"kind=mention locale=\S+ outcome=(\w+)", server.log_so_far())


def answers_to(fake: FakeSlack, ts: str) -> list[dict]:
    return [c.params for c in fake.calls_to("chat.postMessage") if c.params.get("thread_ts") == ts]


def test_an_edit_on_the_other_process_updates_the_answer_in_place(servers):
    fake, first, second = servers
    ts = "1700000100.000100"
    mention(first, "<@UDPSCALE> 64 2000 9%", "EvOriginal", ts)
    assert outcomes(first, 1) == ["ok"]
    posted = fake.calls_to("chat.postMessage")[0]
    assert f"11{THIN}520 samples/s" in json.dumps(posted.params, ensure_ascii=False)
    mention(second, "<@UDPSCALE> 64 2000 90%", "EvEdited", ts, edited=True)
    assert outcomes(second, 1) == ["updated"]
    assert len(answers_to(fake, ts)) == 1
    updates = fake.calls_to("chat.update")
    assert [(u.params["channel"], u.params["ts"]) for u in updates] == [(CHANNEL, posted.answer["ts"])]
    assert f"115{THIN}200 samples/s" in json.dumps(updates[0].params, ensure_ascii=False)


def test_an_edit_with_the_same_result_on_the_other_process_leaves_the_answer_alone(servers):
    fake, first, second = servers
    ts = "1700000100.000200"
    mention(first, "<@UDPSCALE> 64 2000 90%", "EvSame1", ts)
    assert outcomes(first, 1) == ["ok"]
    mention(second, "<@UDPSCALE>  64  2000  90%", "EvSame2", ts, edited=True)
    assert outcomes(second, 1) == ["unchanged"]
    assert len(answers_to(fake, ts)) == 1 and fake.calls_to("chat.update") == []


def test_an_edit_that_arrives_while_the_answer_is_still_being_posted_elsewhere_waits_for_it(servers):
    fake, first, second = servers
    ts = "1700000100.000300"
    fake.behaviour["chat.postMessage"] = 1.0  # Slack takes a second to post the first answer
    mention(first, "<@UDPSCALE> 64 2000 9%", "EvSlow1", ts)
    assert len(fake.wait_for("chat.postMessage")) == 1  # the first answer is on its way, not yet posted
    mention(second, "<@UDPSCALE> 64 2000 90%", "EvSlow2", ts, edited=True)
    assert outcomes(first, 1) == ["ok"] and outcomes(second, 1) == ["updated"]
    assert len(answers_to(fake, ts)) == 1
    update = fake.calls_to("chat.update")
    assert [u.params["ts"] for u in update] == [fake.calls_to("chat.postMessage")[0].answer["ts"]]
    assert f"115{THIN}200 samples/s" in json.dumps(update[0].params, ensure_ascii=False)


def test_an_edit_after_the_first_answer_failed_elsewhere_is_answered_at_once(servers):
    fake, first, second = servers
    ts = "1700000100.000400"
    fake.behaviour["chat.postMessage"] = "error"
    mention(first, "<@UDPSCALE> 64 2000 9%", "EvFailed1", ts)
    assert outcomes(first, 1) == ["retry_later"]  # refused each time it was tried: handed back for later
    failed = len(fake.calls_to("chat.postMessage"))  # every try, each once again after Slack's 500
    fake.behaviour["chat.postMessage"] = "ok"
    mention(second, "<@UDPSCALE> 64 2000 90%", "EvFailed2", ts, edited=True)
    # answered without first waiting out the other process's post, which will never come
    assert len(fake.wait_for("chat.postMessage", failed + 1, timeout=3)) == failed + 1
    assert outcomes(second, 1) == ["ok"]
    answer = fake.calls_to("chat.postMessage")[failed]
    assert answer.params["thread_ts"] == ts and f"115{THIN}200" in json.dumps(answer.params, ensure_ascii=False)
    assert fake.calls_to("chat.update") == []
