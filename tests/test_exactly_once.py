"""Exactly once at the protocol's edges, through the real server: a backlog that outlives the lease, a lease of the
shortest length allowed, every process killed and a restart after the window, and the arbiter killed. Each
scenario reports sent / acknowledged / answered / answered twice / lost (an apology counts as an answer where the
window has passed); none may be answered twice or lost."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from test_durability import APOLOGY, answers_per_thread, deliver_like_slack, mention, postgres, wait_until
from test_shutdown import children_of, connection_refused

import postgres_server
from fake_slack import FakeSlack
from slack_client import AppServer, get

__all__ = ["postgres"]  # the fixture, shared with test_durability

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def send_at_once(server: AppServer, count: int, thread: str) -> tuple[list[list[int]], list[str]]:
    """`count` mentions, each in a thread of its own, sent together as Slack would (redelivered while refused);
    the statuses each got, and their threads."""
    mentions = [mention(n, thread=thread) for n in range(count)]
    with ThreadPoolExecutor(64) as pool:
        statuses = list(pool.map(lambda m: deliver_like_slack(server, m[0]), mentions))
    return statuses, [ts for _, ts in mentions]


def figures(fake: FakeSlack, statuses: list[list[int]], threads: list[str]) -> dict[str, int]:
    per_thread = answers_per_thread(fake)
    return {"sent": len(threads), "acknowledged": sum(s[-1] == 200 for s in statuses),
            "answered": sum(per_thread[ts] >= 1 for ts in threads),
            "answered twice": sum(per_thread[ts] > 1 for ts in threads),
            "lost": sum(per_thread[ts] == 0 for ts in threads)}


def settled(fake: FakeSlack, count: int, timeout: float) -> bool:
    """Every thread answered and no post still in flight (a second answer would have come by then)."""
    return wait_until(lambda: len(answers_per_thread(fake)) >= count
                      and fake.finished_count("chat.postMessage") == len(fake.calls_to("chat.postMessage")), timeout)


WINDOW = 20  # seconds: DPSCALE_FOLLOWUP_WINDOW for the restart after the window


@pytest.mark.parametrize("processes", ["1", "2"])
def test_three_hundred_mentions_at_once_with_2_s_posts_are_each_answered_once(tmp_path, processes):
    """The backlog waits longer than the shortest lease (13 s) behind 16 threads a process, 37 s on one process and
    19 s on two: the heartbeat holds it, so no sweeper (another process's, or its own) takes up what is only
    queued."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'd.sqlite3'}", "WEB_CONCURRENCY": processes,
           "DPSCALE_FOLLOWUP_LEASE": "13"}
    fake = FakeSlack(behaviour={"chat.postMessage": 2.0}).start()
    server = AppServer(fake, env=env).start()
    try:
        statuses, threads = send_at_once(server, 300, "1700000500")
        done = settled(fake, 300, 240)
        log = server.output()
    finally:
        server.stop()
        fake.stop()
    report = figures(fake, statuses, threads)
    print(f"300 mentions, 2 s posts, a 13 s lease, {processes} process(es):", report,
          "taken up by a sweeper:", log.count("taking up a mention follow-up"))
    assert done and report == {"sent": 300, "acknowledged": 300, "answered": 300, "answered twice": 0, "lost": 0}


def test_the_shortest_lease_with_5_s_posts_answers_nothing_twice(tmp_path):
    """DPSCALE_FOLLOWUP_LEASE at its least (13 s) while posts take 5 s and a backlog waits 20 s, on two processes."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'd.sqlite3'}", "WEB_CONCURRENCY": "2",
           "DPSCALE_FOLLOWUP_LEASE": "13"}
    fake = FakeSlack(behaviour={"chat.postMessage": 5.0}).start()
    server = AppServer(fake, env=env).start()
    try:
        statuses, threads = send_at_once(server, 100, "1700000600")
        done = settled(fake, 100, 120)
    finally:
        server.stop()
        fake.stop()
    report = figures(fake, statuses, threads)
    print("100 mentions, 5 s posts, a 13 s lease, 2 processes:", report)
    assert done and report == {"sent": 100, "acknowledged": 100, "answered": 100, "answered twice": 0, "lost": 0}


def test_every_process_killed_and_a_restart_after_the_window_answers_or_apologises_for_each_once(tmp_path):
    """Twenty mentions acknowledged, some with their posts under way, every process killed with SIGKILL, the next
    server started after the follow-up window (DPSCALE_FOLLOWUP_WINDOW, 20 s here, 120 s by default): each thread
    holds one message, its answer (the post landed) or the apology (it never left), none twice, none silent."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'd.sqlite3'}", "WEB_CONCURRENCY": "1",
           "DPSCALE_FOLLOWUP_WINDOW": str(WINDOW)}
    fake = FakeSlack(behaviour={"chat.postMessage": 2.0}).start()
    old = AppServer(fake, env=env).start()
    try:
        assert old.process is not None
        (worker,) = children_of(old.process.pid)
        # the first answers are on their way (each lands 8 s later, inside the client's 10 s timeout, as a post
        # Slack took lands before the window ends); the rest wait in queue
        fake.behaviour["chat.postMessage"] = 8.0
        statuses, threads = send_at_once(old, 20, "1700000700")
        for pid in (old.process.pid, worker):
            os.kill(pid, signal.SIGKILL)
        old.process.wait(10)
        fake.behaviour["chat.postMessage"] = 0.0
        time.sleep(WINDOW + 5)  # the window is measured from each mention's acknowledgement
        new = AppServer(fake, env=env).start()
        try:
            done = settled(fake, 20, 60)
            log = new.output()
        finally:
            new.stop()
    finally:
        old.stop()
        fake.stop()
    report = figures(fake, statuses, threads)
    apologies = sum(str(m["text"]).startswith(APOLOGY) for m in fake.posted if m.get("thread_ts") in threads)
    print(f"20 mentions, every process killed, restarted after {WINDOW + 5} s:", report, "of them apologies:",
          apologies)
    assert done and report == {"sent": 20, "acknowledged": 20, "answered": 20, "answered twice": 0, "lost": 0}
    assert apologies >= 1 and f"past its {WINDOW} s window" in log


def test_the_arbiter_killed_leaves_no_worker_and_the_next_start_serves_at_once(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'd.sqlite3'}", "WEB_CONCURRENCY": "2", "WEB_DRAIN_TIMEOUT": "2"}
    fake = FakeSlack().start()
    server = AppServer(fake, env=env).start()
    try:
        assert server.process is not None
        pid = server.process.pid
        assert wait_until(lambda: len(children_of(pid)) == 2, 10)  # the arbiter forks its workers one by one
        workers = children_of(pid)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(10)
        gone = wait_until(lambda: not [pid for pid in workers if _alive(pid)], 10)
        refused = connection_refused(server.port)
        again = AppServer(fake, env={**env, "PORT": str(server.port)})
        again.port = server.port
        started = time.monotonic()
        again.start()
        serving = get(again.url + "/healthz").status == 200
        took = time.monotonic() - started
        again.stop()
    finally:
        server.stop()
        fake.stop()
    print(f"arbiter killed: workers left {[pid for pid in workers if _alive(pid)]}, restart served in {took:.1f} s")
    assert gone and refused and serving


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by init) is gone
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_a_database_down_for_longer_than_slacks_retries_gets_each_mention_the_apology_once(postgres):
    """The database stays down through every redelivery (Slack's 1 s, 1 min and 5 min, here 1, 4 and 8 s): the
    last one, still not recordable, is acknowledged with the apology in its thread; nothing is answered later."""
    directory, url = postgres
    fake = FakeSlack().start()
    server = AppServer(fake, env={"DATABASE_URL": url, "WEB_CONCURRENCY": "1"}).start()
    try:
        postgres_server.stop(directory)
        try:
            statuses, threads = send_at_once(server, 5, "1700000800")
        finally:
            postgres_server.resume(directory)
        told = fake.wait_for("chat.postMessage", 5, timeout=20)
        time.sleep(3)  # a sweep or two once the database is back: nothing more may come
        log = server.output()
    finally:
        server.stop()
        fake.stop()
    report = figures(fake, statuses, threads)
    apologies = [m for m in fake.posted if str(m["text"]).startswith(APOLOGY)]
    print("5 mentions, the database down through every redelivery:", report, "apologies:", len(apologies),
          "deliveries each:", [len(s) for s in statuses])
    assert len(told) == 5 and report == {"sent": 5, "acknowledged": 5, "answered": 5, "answered twice": 0, "lost": 0}
    assert len(apologies) == 5 and all(s[:-1] == [503, 503, 503] for s in statuses)
    assert log.count("on Slack's last delivery of a mention") == 5
