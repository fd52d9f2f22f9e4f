"""A process's sweeper (`bot.slack.sweeper`) on a policy of tenths of a second: it beats the heartbeat once a third of
a lease, takes up work at every turn, expires what has expired and scrubs finished work's text as often as its policy
says, and while the process drains it only beats the heartbeat, until it is stopped."""

from __future__ import annotations

import threading
import time
from collections import Counter
from types import SimpleNamespace

from bot.policy import FollowUpPolicy
from bot.slack.sweeper import Sweeper

# a heartbeat every 0.1 s, a turn every 0.02 s, the first expiry 0.05 s after start and one every 0.2 s after it
POLICY = FollowUpPolicy(lease=0.3, expire_every=0.2, window=120, sweep_every=0.02, first_expiry_after=0.05,
                        scrub_every=0.05)


def sweeper() -> tuple[Sweeper, Counter[str]]:
    """A sweeper whose store and follow-up work count what it asks of them."""
    calls: Counter[str] = Counter()
    store = SimpleNamespace(delete_expired=lambda: calls.update(["expire"]) or {},
                            database=SimpleNamespace(scrub=lambda: calls.update(["scrub"])))
    return Sweeper(store, POLICY, heartbeat=lambda: calls.update(["heartbeat"]),  # type: ignore[arg-type]
                   take_up=lambda: calls.update(["take_up"]), draining=threading.Event()), calls


def test_the_sweeper_does_each_of_its_jobs_as_often_as_its_policy_says():
    swept, calls = sweeper()
    swept.start()
    try:
        time.sleep(0.5)
        assert calls["scrub"] == 0  # nothing finished yet
        swept.finished.set()
        time.sleep(0.2)
    finally:
        swept.stop()
    assert 4 <= calls["heartbeat"] <= 8  # every 0.1 s for 0.7 s
    assert 2 <= calls["expire"] <= 5  # at 0.05 s, then every 0.2 s
    assert calls["take_up"] >= 10 and calls["scrub"] == 1  # each turn; once, for what finished


def test_a_draining_sweeper_only_beats_the_heartbeat_and_a_stopped_one_does_nothing():
    swept, calls = sweeper()
    swept.start()
    try:
        time.sleep(0.1)
        swept.draining.set()
        swept.finished.set()
        before = calls.copy()
        time.sleep(0.4)
        drained = calls - before
    finally:
        swept.stop()
    assert drained["heartbeat"] >= 3 and not drained["take_up"] and not drained["expire"] and not drained["scrub"]
    time.sleep(0.05)
    after_stop = calls.copy()
    time.sleep(0.2)
    assert calls == after_stop
