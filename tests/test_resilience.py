"""Resilience through the real server: Slack's API misbehaving, slow follow-ups, hostile text, long soaks."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blockkit import assert_no_broadcast, assert_within_limits
from fake_slack import BOT_USER_ID
from slack_client import AppServer, running_app, send_command, send_mention, worker_memory_kib

pytestmark = pytest.mark.e2e
ACK_DEADLINE = 3.0


@pytest.mark.parametrize("behaviour", ["hang", "error", "ratelimit"])
def test_under_concurrent_load_every_command_is_answered_within_3_seconds(behaviour):
    """48 commands from 48 users at once while users.info hangs, fails or is rate-limited."""
    with running_app(**{"users.info": behaviour}) as (_, server), ThreadPoolExecutor(max_workers=24) as pool:
        responses = list(pool.map(lambda n: send_command(server, "64 2000 90%", user=f"UL{n}"), range(48)))
    assert [r.status for r in responses] == [200] * 48
    assert max(r.elapsed for r in responses) < ACK_DEADLINE
    assert all("115,200 samples/s" in r.json()["text"] for r in responses)


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


@settings(max_examples=int(os.environ.get("DPSCALE_HOSTILE_EXAMPLES", "1000")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=hostile)
def test_hostile_text_never_breaks_the_server_or_pings_anyone(hostile_server, text):
    response = send_command(hostile_server, text, user="UH")
    assert response.status == 200
    if not response.body:  # no numbers at all: the form was opened instead
        assert not text.strip()
        return
    payload = response.json()
    assert_no_broadcast(payload)
    assert_within_limits(payload["blocks"])
    assert "Traceback" not in response.body.decode()


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
