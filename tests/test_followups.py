"""The follow-up protocol driven step by step, with a clock of the test's own: two "processes" (each its own Store
and FollowUps) on one database, a Slack that keeps what is posted in each thread, and pools that run a queued job
only when the test says so. Each test counts the answers a user sees in the thread: never two, never none."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from slack_bolt import BoltContext, BoltRequest
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy.exc import OperationalError

from bot.policy import LANDING_WAIT, FollowUpPolicy
from bot.settings import SettingsError, load_settings
from bot.slack import events, installs, threads
from bot.slack.followups import FollowUps
from bot.slack.plumbing import Services
from bot.store import Job, Store, Workspace, upgrade

LEASE = 13.0
POLICY = FollowUpPolicy(lease=LEASE, expire_every=60, window=120)
WORKSPACE = Workspace(team_id="T1")
APOLOGY = "Sorry, something went wrong on our side"
ANSWER = "115\u202f200"  # as a channel reads it


class Clock:
    """Naive UTC that moves only when told to (or when the code under test sleeps)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class Crash(BaseException):
    """The process dies here: nothing after it in that process runs (no except clause of the code catches it)."""


def crash() -> None:
    raise Crash


@dataclass
class Slack:
    """What users see: every message posted, in its thread, from the moment it lands."""

    clock: Clock
    messages: list[dict[str, Any]] = field(default_factory=list)
    during_post: list[Callable[[], None]] = field(default_factory=list)  # each post runs the next of these

    def thread(self, ts: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["thread_ts"] == ts and m["lands"] <= self.clock()]


class Client:
    """The Web API calls a mention's work makes, against `Slack`."""

    def __init__(self, slack: Slack) -> None:
        self.slack = slack

    def chat_postMessage(self, *, channel: str, thread_ts: str, text: str = "", metadata: Any = None,
                         **_: Any) -> dict[str, Any]:
        message = {"ts": f"1800000000.{len(self.slack.messages):06d}", "thread_ts": thread_ts, "text": text,
                   "metadata": metadata or {}, "lands": self.slack.clock()}
        self.slack.messages.append(message)
        if self.slack.during_post:
            self.slack.during_post.pop(0)()  # meanwhile (the post is in flight), or how the call ends
        return {"ok": True, "ts": message["ts"]}

    def conversations_replies(self, *, channel: str, ts: str, **_: Any) -> dict[str, Any]:
        return {"ok": True, "messages": self.slack.thread(ts)}


class ManualPool:
    """A kind's pool whose queued jobs run only when `run_next` is called, one at a time, in the test's thread."""

    def __init__(self, threads: int, name: str) -> None:
        self.queued: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        self.closed = False

    def submit(self, fn: Callable[..., None], *args: Any) -> None:
        if self.closed:  # as ThreadPoolExecutor does
            raise RuntimeError("cannot schedule new futures after shutdown")
        self.queued.append((fn, args))

    def run_next(self) -> None:
        fn, args = self.queued.pop(0)
        fn(*args)

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        self.closed = True
        if cancel_futures:
            self.queued.clear()

    def finish(self, deadline: float) -> int:
        return 0


class Process:
    """One server process: its own store (connections) and follow-up work, on the shared database and clock."""

    def __init__(self, url: str, clock: Clock, slack: Slack) -> None:
        self.store = Store.open(url)
        self.store.work.clock = clock
        self.services = Services(locales=None, store=self.store, policy=POLICY)  # type: ignore[arg-type]
        self.followups = FollowUps(self.store, POLICY, pool=ManualPool, sleep=clock.advance)
        self.services.followups = self.followups
        for kind, (handler, apology, logged_as) in {**events.FOLLOW_UPS, **installs.FOLLOW_UPS}.items():
            self.followups.register(kind, handler, apology, logged_as)
        self.client = Client(slack)
        self.followups.runtime = lambda job: (self.client, self.context())
        self.clock = clock

    def context(self) -> BoltContext:
        return BoltContext({"services": self.services, "locale": "en-US", "team_id": "T1", "bot_user_id": "UBOT"})

    def mention(self, n: int) -> Job:
        """A mention accepted here (before its acknowledgement) and queued here, as `accept_mention` does."""
        job = mention_job(n, self.clock())
        assert self.followups.accept(job)
        self.followups.run_now(job, self.client, self.context())
        return job

    @property
    def queue(self) -> ManualPool:
        return self.followups.kinds["mention"].pool  # type: ignore[return-value]

    def run_all(self) -> None:
        """Every job queued here, of every kind, in turn."""
        for kind in self.followups.kinds.values():
            pool: ManualPool = kind.pool  # type: ignore[assignment]
            while pool.queued:
                pool.run_next()


def mention_job(n: int, accepted: datetime) -> Job:
    event = {"type": "app_mention", "user": f"U{n}", "text": "<@UBOT> 64 2000 90%", "ts": thread_of(n),
             "channel": "C1"}
    return Job("mention", f"Ev{n}", WORKSPACE, {"event": event, "locale": "en-US", "bot_user_id": "UBOT"},
               accepted=accepted)


def thread_of(n: int) -> str:
    return f"1700000000.{n:06d}"


@pytest.fixture
def world(tmp_path):
    """The shared database, clock and Slack, and two processes on them."""
    url = f"sqlite:///{tmp_path / 'd.sqlite3'}"
    first = Store.open(url)
    upgrade(first.database)
    first.close()
    clock = Clock()
    slack = Slack(clock)
    processes = Process(url, clock, slack), Process(url, clock, slack)
    yield clock, slack, *processes
    for process in processes:
        process.store.close()


def answers(slack: Slack, n: int) -> list[str]:
    """What the user who sent mention `n` sees in its thread: each message's text."""
    return [m["text"] for m in slack.thread(thread_of(n))]


def test_a_lease_keeps_others_off_until_it_runs_out_and_then_the_job_is_theirs(world):
    clock, slack, a, b = world
    a.mention(1)  # accepted by A, which then dies before its thread runs it
    assert b.followups.take_up() == []
    clock.advance(LEASE - 1)
    assert b.followups.take_up() == []  # still A's
    clock.advance(2)
    (taken,) = b.followups.take_up()
    assert taken.attempts == 2
    b.run_all()
    assert len(answers(slack, 1)) == 1 and ANSWER in answers(slack, 1)[0]


def test_the_heartbeat_keeps_queued_work_from_another_process_however_long_it_waits(world):
    """300 mentions queued behind 16 threads wait longer than a lease: the heartbeat holds them all, so the other
    process's sweeper takes none, and each is answered once."""
    clock, slack, a, b = world
    for n in range(3):
        a.mention(n)
    for _ in range(6):  # two leases' time in queue
        clock.advance(POLICY.heartbeat)
        assert a.followups.heartbeat() == 3
        assert b.followups.take_up() == []
    a.run_all()
    b.run_all()
    assert [len(answers(slack, n)) for n in range(3)] == [1, 1, 1]


def test_a_sweeper_never_takes_what_its_own_process_has_queued(world):
    clock, slack, a, b = world
    a.mention(1)
    clock.advance(LEASE + 1)  # no heartbeat came (the database was slow, say)
    assert a.followups.take_up() == []  # its own: queued here, never taken a second time here
    a.run_all()
    assert len(answers(slack, 1)) == 1


def test_finished_work_tells_the_sweeper_to_scrub_its_text_from_the_log(world):
    """The sweeper cuts finished work's text from SQLite's write-ahead log only when told that some finished."""
    clock, slack, a, b = world
    a.mention(1)
    assert not a.followups._sweeper.finished.is_set()
    a.run_all()
    assert len(answers(slack, 1)) == 1 and a.followups._sweeper.finished.is_set()


def test_a_stale_writer_whose_lease_was_taken_over_changes_nothing_and_posts_nothing(world, caplog):
    """A is held up past its lease with the job queued; B takes it over and answers. When A's thread finally runs,
    its lease is gone: it posts nothing, and none of its writes touches B's row."""
    clock, slack, a, b = world
    job = a.mention(1)
    clock.advance(LEASE + 1)
    (taken,) = b.followups.take_up()
    assert taken.holder != job.holder
    with caplog.at_level(logging.INFO, logger="bot.slack.followups"):
        a.run_all()
    assert answers(slack, 1) == [] and "held by another process now" in caplog.text
    assert not a.store.work.finish(job) and not a.store.work.retry_later(job, 0) and a.store.work.let_go([job]) == 0
    assert not a.store.work.hold(job, LEASE)
    assert b.followups.take_up() == []  # B's lease untouched by A's writes
    b.run_all()
    assert len(answers(slack, 1)) == 1


def test_a_post_in_flight_past_the_lease_is_held_by_the_heartbeat(world):
    """The post takes longer than a lease (Slack is slow): the heartbeat, beating meanwhile, keeps B's sweeper off,
    so B never posts the answer a second time."""
    clock, slack, a, b = world
    a.mention(1)

    def slow_slack() -> None:
        for _ in range(4):
            clock.advance(POLICY.heartbeat)
            a.followups.heartbeat()
            b.followups.take_up()  # whatever B took, it runs once A's post has returned

    slack.during_post.append(slow_slack)
    a.run_all()
    b.run_all()
    assert len(answers(slack, 1)) == 1


def test_two_takers_racing_for_one_due_job_never_both_win(world):
    """B reads the due job; before B's compare-and-set, A takes it: B's write finds the lease changed and wins
    nothing (or the database refuses B's stale write), and the job is answered once."""
    clock, slack, a, b = world
    a.mention(1)
    a.queue.queued.clear()  # A died with it queued
    clock.advance(LEASE + 1)
    raced = []

    def a_first(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("UPDATE dpscale_work") and not raced:
            raced.append(a.followups.take_up())

    sqlalchemy_event.listen(b.store.database.engine, "before_cursor_execute", a_first)
    try:
        b_took = b.followups.take_up()
    except Exception:  # noqa: BLE001 - SQLite refuses a write from a stale snapshot: that is a loss for B too
        b_took = []
    assert len(raced[0]) + len(b_took) == 1
    a.run_all()
    b.run_all()
    assert len(answers(slack, 1)) == 1


def test_a_crash_before_the_first_post_is_answered_once_by_the_next_taker(world):
    """A noted that it was posting, then died before the post left the process: B looks in the thread first,
    finds nothing, and posts the answer."""
    clock, slack, a, b = world
    a.mention(1)
    original = a.client.chat_postMessage
    a.client.chat_postMessage = lambda **kwargs: crash()  # type: ignore[method-assign]
    with pytest.raises(Crash):
        a.run_all()
    a.client.chat_postMessage = original  # type: ignore[method-assign]
    clock.advance(LEASE + 1)
    (taken,) = b.followups.take_up()
    assert taken.stage == threads.POSTING
    b.run_all()
    assert len(answers(slack, 1)) == 1 and ANSWER in answers(slack, 1)[0]


def test_a_crash_between_the_post_and_its_record_is_never_posted_again(world):
    clock, slack, a, b = world
    a.mention(1)
    slack.during_post.append(crash)  # posted, then the process died
    with pytest.raises(Crash):
        a.run_all()
    clock.advance(LEASE + 1)
    b.followups.take_up()
    b.run_all()
    assert len(answers(slack, 1)) == 1
    assert b.store.work.pending() == 0  # B found the answer and recorded the work as done


def test_a_post_that_lands_only_after_the_landing_wait_is_found_before_it_is_posted_again(world):
    """chat.postMessage times out, and the message lands 4 s later, after the 3 s landing wait: the try fails, the
    next try (after its backoff) looks again, finds it, and posts nothing more."""
    clock, slack, a, b = world
    a.mention(1)

    def times_out_and_lands_late() -> None:
        slack.messages[-1]["lands"] = clock() + timedelta(seconds=POLICY.landing_wait + 1)
        raise TimeoutError("The read operation timed out")

    slack.during_post.append(times_out_and_lands_late)
    a.run_all()
    assert len(answers(slack, 1)) == 1 and a.store.work.pending() == 0


def test_a_redelivery_minutes_later_is_recognised_and_answers_nothing(world):
    clock, slack, a, b = world
    a.mention(1)
    a.run_all()
    clock.advance(300)
    assert not b.followups.accept(mention_job(1, clock()))
    assert b.followups.take_up() == []
    assert len(answers(slack, 1)) == 1


def test_work_past_its_window_gets_the_apology_once_and_a_warning(world, caplog):
    """Acknowledged, then every process killed; the next starts 3 minutes later: the user gets the apology, not
    silence, and the operator a WARNING."""
    clock, slack, a, b = world
    a.mention(1)
    a.queue.queued.clear()
    clock.advance(180)
    with caplog.at_level(logging.WARNING, logger="bot.slack.followups"):
        b.followups.take_up()
        b.run_all()
    (apology,) = answers(slack, 1)
    assert apology.startswith(APOLOGY)
    assert "past its 120 s window" in caplog.text
    assert b.followups.take_up() == [] and b.store.work.pending() == 0


def test_work_past_its_window_whose_answer_landed_gets_no_apology_under_it(world):
    clock, slack, a, b = world
    a.mention(1)
    slack.during_post.append(crash)
    with pytest.raises(Crash):
        a.run_all()
    clock.advance(180)
    b.followups.take_up()
    b.run_all()
    assert len(answers(slack, 1)) == 1 and ANSWER in answers(slack, 1)[0]


def test_a_stop_hands_back_what_is_queued_at_once_and_a_post_cut_off_in_flight_once_it_can_no_longer_land(world):
    """SIGTERM while mention 1's post is in flight and mention 2 waits in the queue; the post outlasts the drain
    timeout, and Slack shows it 8 s later (longer than the landing wait, within the call's timeout). The queued
    one is the next process's at once; the cut-off one only once its post can no longer be landing, so the next
    process finds it instead of posting it again."""
    clock, slack, a, b = world
    a.mention(1)
    a.mention(2)
    cut_off_late = timedelta(seconds=POLICY.landing_wait + 5)
    taken_at_once: list[set[str]] = []

    def stop_during_the_post() -> None:
        slack.messages[-1]["lands"] = clock() + cut_off_late
        a.followups.stop(deadline=0)  # the drain timeout passes while the post is still in flight
        taken_at_once.append({job.key for job in b.followups.take_up()})
        raise Crash  # the process exits with its thread in the call

    slack.during_post.append(stop_during_the_post)
    with pytest.raises(Crash):
        a.queue.run_next()
    assert taken_at_once == [{"Ev2"}]
    b.run_all()
    clock.advance(POLICY.call_timeout - 1)
    assert b.followups.take_up() == []  # its post may still be landing
    clock.advance(1)
    assert {job.key for job in b.followups.take_up()} == {"Ev1"}
    b.run_all()
    assert len(answers(slack, 1)) == 1 and len(answers(slack, 2)) == 1
    assert b.store.work.pending() == 0


def test_a_job_its_thread_takes_from_the_queue_as_the_stop_hands_it_back_is_left_to_the_next_process(world):
    """A thread frees up and takes a queued job from its pool at the moment the stop hands that job back: it does
    nothing with it, so only the next process answers."""
    clock, slack, a, b = world
    a.mention(1)
    pool = a.queue
    closing = pool.shutdown

    def a_thread_takes_it_meanwhile(wait: bool = True, cancel_futures: bool = False) -> None:
        pool.run_next()
        closing(wait, cancel_futures)

    pool.shutdown = a_thread_takes_it_meanwhile  # type: ignore[method-assign]
    a.followups.stop(deadline=0)
    assert answers(slack, 1) == []
    assert {job.key for job in b.followups.take_up()} == {"Ev1"}
    b.run_all()
    assert len(answers(slack, 1)) == 1


def test_work_taken_as_the_drain_begins_is_handed_back_at_once_not_lost_in_a_closed_pool(world, caplog):
    """The sweeper (or a late request) hands a job to its kind's pool just after the drain shut the pools: the job
    goes back for the next process at once, with a line saying so, instead of the sweeper failing with it held."""
    clock, slack, a, b = world
    a.followups.stop(deadline=0)
    with caplog.at_level(logging.INFO, logger="bot.slack.followups"):
        a.mention(3)
    assert "taken as the process began to drain" in caplog.text
    assert {job.key for job in b.followups.take_up()} == {"Ev3"}  # no lease to wait out
    b.run_all()
    assert len(answers(slack, 3)) == 1


def test_a_try_that_fails_while_the_process_drains_is_handed_back_at_once_instead_of_waiting_to_retry(world, caplog):
    """Slack fails a post just as the process begins to stop: the job goes back to the database for any process 5 s
    later, without this one sleeping its backoff (1 s, then 3 s) inside the drain, and is answered once."""
    clock, slack, a, b = world
    refused = []

    def fails_once_while_stopping(**kwargs: Any) -> dict[str, Any]:
        if not refused:
            refused.append(True)
            a.followups._draining.set()  # the stop begins while this post is in flight
            raise ConnectionResetError("connection reset by peer")
        return Client.chat_postMessage(a.client, **kwargs)

    a.client.chat_postMessage = fails_once_while_stopping  # type: ignore[method-assign]
    started = clock()
    with caplog.at_level(logging.WARNING, logger="bot.slack.followups"):
        a.mention(4)
        a.run_all()
    assert clock() - started == timedelta(seconds=LANDING_WAIT)  # the failed post's landing check, no backoff
    assert "to be tried again in 5 s" in caplog.text and answers(slack, 4) == []
    clock.advance(POLICY.retry_after)
    assert {job.key for job in b.followups.take_up()} == {"Ev4"}
    b.run_all()
    assert len(answers(slack, 4)) == 1


@pytest.mark.parametrize("lease", ["2", "12.9"])
def test_a_lease_too_short_for_a_post_and_its_landing_wait_is_refused_in_one_line(lease):
    env = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DPSCALE_FOLLOWUP_LEASE": lease}
    with pytest.raises(SettingsError) as refused:
        load_settings(env)
    assert refused.value.problems == ["DPSCALE_FOLLOWUP_LEASE must be at least 13 s: a post may take 10 s and is "
                                      "then given 3 s to land, so a shorter lease lets another process post it again"]
    assert load_settings({**env, "DPSCALE_FOLLOWUP_LEASE": "13"}).followups.lease == 13


def test_an_uninstall_whose_process_died_mid_delete_is_finished_by_the_next_taker(world):
    """The deletion is follow-up work: recorded before the acknowledgement, taken up once its lease ends, every
    row of the workspace gone then (and the other workspace's kept)."""
    clock, slack, a, b = world
    for team in ("T1", "T2"):
        a.store.preferences.set_number_format(Workspace(team_id=team), "U1", "de-DE")
    a.mention(1)
    a.run_all()
    gone = Job(installs.FORGET_WORK, "EvGone", WORKSPACE, accepted=clock())
    assert a.followups.accept(gone)  # acknowledged; the process dies before its thread starts the deletion
    clock.advance(LEASE + 1)
    (taken,) = b.followups.take_up()
    b.run_all()
    assert taken.key == "EvGone" and b.store.work.pending() == 0
    assert b.store.preferences.number_format(WORKSPACE, "U1") is None
    assert b.store.preferences.number_format(Workspace(team_id="T2"), "U1") == "de-DE"
    assert b.store.answers.get(WORKSPACE, "C1", thread_of(1)) is None
    assert not b.followups.accept(Job(installs.FORGET_WORK, "EvGone", WORKSPACE, accepted=clock()))  # redelivered


class BrokenWork:
    def accept(self, job: Job, lease: float, memory: float) -> bool:
        raise OperationalError("INSERT", {}, OSError("disk I/O error"))


@pytest.mark.parametrize("retry", [None, "1", "2", "3"])
def test_a_storage_fault_outlasting_slacks_retries_gets_the_apology_on_the_last_one(world, retry):
    """Disk full or read-only: each delivery is answered 503 for Slack to send it again, but the last (Retry-Num 3)
    is acknowledged and the apology posted in the thread at once, since no other delivery comes."""
    clock, slack, a, _ = world
    a.store.work = BrokenWork()  # type: ignore[assignment]
    job = mention_job(1, clock())
    acked: list[bool] = []
    headers = {"x-slack-retry-num": retry} if retry else {}
    context = a.context()
    kwargs = {"ack": lambda: acked.append(True), "body": {"event_id": "Ev1", "event": job.payload["event"]},
              "event": job.payload["event"], "context": context, "client": a.client,
              "request": BoltRequest(body="", headers=headers)}
    if retry != "3":
        with pytest.raises(OperationalError):  # bot.slack.failures answers it 503
            events.accept_mention(**kwargs)
        assert acked == [] and answers(slack, 1) == []
        return
    events.accept_mention(**kwargs)
    assert a.services.background.finish(time.monotonic() + 5) == 0
    (apology,) = answers(slack, 1)
    assert acked == [True] and apology.startswith(APOLOGY)


class Looked:
    """A store where another process holds a message's claim and its answer never comes: each look counted."""

    def __init__(self) -> None:
        self.looks = 0
        self.answers = self.handled = self

    def get(self, *args: object) -> None:
        self.looks += 1

    def first(self, *args: object, **kwargs: object) -> bool:
        return False


def test_an_edit_looks_for_the_first_answer_by_the_policys_delays_and_gives_up_at_its_call_timeout(caplog):
    """An edit waits for the answer another process is posting as the policy says: a look after each of its
    `poll_delays`, until its `call_timeout` has passed (the defaults would look six times, and wait 10 s)."""
    policy = FollowUpPolicy(lease=LEASE, expire_every=60, window=120, call_timeout=0.4, poll_delays=(0.15,))
    store, message = Looked(), threads.Message(WORKSPACE, "C1", "1.0")
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        assert threads._earlier_answer(store, message, "Ev2", policy) is None  # type: ignore[arg-type]
    assert 0.4 <= time.monotonic() - started < 2 and 3 <= store.looks <= 4, store.looks
    assert "did not come within 0 s" not in caplog.text and "the edit is answered on its own" in caplog.text
