"""Work done after Slack has been told a request was received — a mention's answer, a Share, a form's result, a
workspace's deletion — kept in the database from before that acknowledgement until it is done, and done by
whichever process is there to do it. It is the one way dpscale works after an acknowledgement on anything whose
loss a user or an admin would notice.

    followups.register("mention", answer_mention, apologize)   # each feature its own kinds (bot/slack/events.py …)
    if followups.accept(Job("mention", event_id, workspace, payload)):   # before ack(): raises if it cannot record
        ack(); followups.run_now(job, client, context)                    # at once, in this process
    else: ack()                                                           # a redelivery: done, or being done

How long work is held, tried and given up is one value, `FollowUpPolicy` (built once from Settings). A job runs
in its kind's own thread pool. While it is queued or running here, this process's *heartbeat* extends its lease;
before each step that talks to Slack it holds its lease again (`hold`), and one another process took over stops
there (`LeaseLostError`). It is tried a few times here, then handed back to the database while there is time; once
the time is up the user gets the kind's apology, with a WARNING: nothing acknowledged is dropped in silence. A
process that dies leaves its leases to run out; every process's sweeper (bot/slack/sweeper.py, which beats the
heartbeat too) takes such jobs up (never its own), rebuilding their client and context through `runtime`.

A stopping process lets go of the jobs not started (or taken as it began to drain) for another to take at once,
and gives those running the drain timeout; what still runs then is let go of too, to be taken once a post it may
have in flight can no longer land (the next taker looks for that post first).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from slack_bolt import BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError
from sqlalchemy.exc import SQLAlchemyError

from bot.policy import FollowUpPolicy
from bot.shutdown import WorkPool
from bot.slack.sweeper import Sweeper
from bot.store import Job, LeaseLostError, Store

log = logging.getLogger(__name__)
request_log = logging.getLogger("bot.requests")  # one line per request, as bot.slack.plumbing.logged writes

Handler = Callable[..., object]  # called with job=, client= and context=
Runtime = Callable[[Job], tuple[WebClient, BoltContext]]
Id = tuple[str, str]

# failures of the database or of Slack that a later try may not meet: a post refused, timed out or cut short (json)
TRANSIENT = (SQLAlchemyError, SlackClientError, OSError, json.JSONDecodeError)


@dataclass
class Kind:
    handler: Handler
    apology: Handler
    pool: WorkPool
    logged_as: str  # the kind its one log line names


@dataclass
class FollowUps:
    store: Store
    policy: FollowUpPolicy
    runtime: Runtime | None = None  # set by the app: the client and context of a job taken up from the database
    kinds: dict[str, Kind] = field(default_factory=dict)
    pool: Callable[[int, str], WorkPool] = WorkPool  # each kind's pool, from its threads and name
    sleep: Callable[[float], object] = time.sleep  # between tries, and a post's landing wait
    _draining: threading.Event = field(default_factory=threading.Event)
    _sweeper: Sweeper = field(init=False)  # keeps the leases held here, takes up work nobody holds
    _held: dict[Id, Job] = field(default_factory=dict)  # queued or running here: the heartbeat keeps their leases
    _running: set[Id] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._sweeper = Sweeper(self.store, self.policy, self.heartbeat, self.take_up, self._draining)

    def register(self, kind: str, handler: Handler, apology: Handler, logged_as: str | None = None) -> None:
        """`handler(job=, client=, context=)` does a job of `kind` and returns its outcome (a word for the log);
        `apology(...)` tells the user when it cannot be done."""
        pool = self.pool(self.policy.threads_for(kind), kind)
        self.kinds[kind] = Kind(handler, apology, pool, logged_as or kind)

    def accept(self, job: Job) -> bool:
        """Record `job` before the acknowledgement; False if it was recorded already (a redelivery, a second
        click). Raises SQLAlchemyError if the database cannot record it: the caller must not acknowledge as done."""
        return self.store.work.accept(job, self.policy.lease, self.policy.memory)

    def run_now(self, job: Job, client: WebClient, context: BoltContext) -> None:
        """Start `job` in this process, in its kind's pool; held by this process's heartbeat while it waits."""
        with self._lock:
            self._held[job.id] = job
        try:
            self.kinds[job.kind].pool.submit(self._run, job, client, context)
        except RuntimeError:  # the pool is shut: the process began to drain since the job was taken or accepted
            self._let_go([job], "taken as the process began to drain")

    def hold(self, job: Job) -> None:
        """Before a step that talks to Slack: `job`'s lease held a whole lease from now, or LeaseLostError if another
        process holds it now (this one was held up longer than its lease)."""
        if not self.store.work.hold(job, self.policy.lease):
            raise LeaseLostError(job.kind)

    def heartbeat(self) -> int:
        """Extend the lease of every job this process has queued or running, in one statement; how many it still
        holds. One taken over meanwhile stops at its next `hold`."""
        with self._lock:
            jobs = list(self._held.values())
        return len(self.store.work.hold_all(jobs, self.policy.lease)) if jobs else 0

    def _run(self, job: Job, client: WebClient, context: BoltContext) -> None:
        """Do `job`, trying again while that may help, and write the request's one log line when it is settled
        (none when another process holds it now: that process writes it)."""
        with self._lock:
            if job.id not in self._held:  # handed back by a stop before this thread took it from the queue
                return
            self._running.add(job.id)
        started = time.perf_counter()
        outcome: str | None = "failed"
        try:
            outcome = self._attempt(job, client, context)
        except LeaseLostError:
            outcome = None
            log.info("a %s follow-up is held by another process now: left to it", job.kind)
        finally:
            with self._lock:
                self._running.discard(job.id)
                self._held.pop(job.id, None)
            if outcome is not None:
                request_log.info("kind=%s locale=%s outcome=%s duration_ms=%.1f", self.kinds[job.kind].logged_as,
                                 context.get("locale") or "-", outcome, (time.perf_counter() - started) * 1000)

    def _attempt(self, job: Job, client: WebClient, context: BoltContext) -> str:
        policy, kind = self.policy, self.kinds[job.kind]
        if job.age(self.store.work.clock()) > policy.window:
            log.warning("a %s follow-up acknowledged %.0f s ago is past its %g s window: the user gets the apology",
                        job.kind, job.age(self.store.work.clock()), policy.window)
            self._apologize(job, client, context)
            return "too_late"
        for attempt in range(policy.tries):
            try:
                self.hold(job)  # its lease taken again before each try
                outcome = kind.handler(job=job, client=client, context=context)
                self._finish(job)
                return str(outcome or "ok")
            except LeaseLostError:
                raise
            except TRANSIENT as error:
                if attempt + 1 == policy.tries or self._draining.is_set():  # a stopping process waits for no retry
                    return self._hand_back(job, client, context, error)
                log.warning("%s follow-up failed (%s), trying again", job.kind, _why(error))
                # in real time, a drain cuts the wait short (the next failure is handed back); a test's clock advances
                (self._draining.wait if self.sleep is time.sleep else self.sleep)(policy.wait_before(attempt))
                job = self._current(job)
            except Exception:  # a fault of dpscale's own, which trying again would only repeat
                log.exception("%s follow-up failed", job.kind)
                break
        self._apologize(job, client, context)
        return "failed"

    def _hand_back(self, job: Job, client: WebClient, context: BoltContext, error: Exception) -> str:
        """Tried `policy.tries` times here: another try later, by any process, or the apology when time is up."""
        policy = self.policy
        if job.attempts * policy.tries >= policy.max_attempts or \
                job.age(self.store.work.clock()) + policy.retry_after > policy.window:
            log.error("%s follow-up failed for good (%s): the user is told", job.kind, _why(error))
            self._apologize(job, client, context)
            return "failed"
        log.warning("%s follow-up failed (%s): to be tried again in %g s", job.kind, _why(error), policy.retry_after)
        try:
            self.store.work.retry_later(job, policy.retry_after)
        except SQLAlchemyError:  # it keeps its lease, and is taken up again when that runs out
            pass
        return "retry_later"

    def _apologize(self, job: Job, client: WebClient, context: BoltContext) -> None:
        try:
            self.hold(job)
            self.kinds[job.kind].apology(job=job, client=client, context=context)
        except LeaseLostError:
            raise
        except Exception as error:
            log.warning("the apology for a failed %s could not be delivered either (%s)", job.kind, _why(error))
        self._finish(job)

    def _finish(self, job: Job) -> None:
        self._sweeper.finished.set()
        try:
            if not self.store.work.finish(job):
                log.warning("a %s follow-up was done here after another process had taken it over", job.kind)
        except SQLAlchemyError as error:  # done all the same; should it be taken up again, its stage says so
            log.warning("a finished %s could not be recorded as done (%s)", job.kind, _why(error))

    def _current(self, job: Job) -> Job:
        """The job as the database has it now (how far an earlier try got)."""
        try:
            return self.store.work.current(job)
        except SQLAlchemyError:
            return job

    def start(self) -> None:
        """Begin sweeping (a worker process starts serving): `bot.slack.sweeper`."""
        self._sweeper.start()

    def stop(self, deadline: float) -> int:
        """Stop taking work up; let go of the jobs not started; wait for those running until `deadline`, their
        leases still extended; then let go of what still runs, to be taken once a post it may have in flight can no
        longer land (the taker looks for it first). How many were still unfinished at the deadline."""
        self._draining.set()
        with self._lock:  # out of `_held` at once, so that a thread taking one from its queue now leaves it alone
            queued = [job for job_id, job in self._held.items() if job_id not in self._running]
            for job in queued:
                del self._held[job.id]
        for kind in self.kinds.values():
            kind.pool.shutdown(wait=False, cancel_futures=True)  # what has not started never will, here
        self._let_go(queued, "not started")
        left = sum(kind.pool.finish(deadline) for kind in self.kinds.values())
        self._sweeper.stop()
        with self._lock:
            running = [job for job_id, job in self._held.items() if job_id in self._running]
        self._let_go(running, "still running at the drain timeout", after=self.policy.call_timeout)
        return left

    def _let_go(self, jobs: list[Job], why: str, after: float = 0.0) -> None:
        if not jobs:
            return
        try:
            self.store.work.let_go(jobs, after)
            with self._lock:
                self._held = {job_id: job for job_id, job in self._held.items() if job not in jobs}
            log.info("%d follow-up job(s) %s handed back for another process (in %g s)", len(jobs), why, after)
        except SQLAlchemyError as error:
            log.warning("follow-up jobs %s could not be handed back (%s): taken up when their leases end", why,
                        _why(error))

    def take_up(self) -> list[Job]:
        """One sweep: jobs nobody holds (never this process's own), taken and queued here; the jobs taken."""
        if self.runtime is None:
            return []
        with self._lock:
            mine = [job.holder for job in self._held.values()]
        taken = self.store.work.take_due(limit=self.policy.take_at_once, lease=self.policy.lease, skip=mine)
        for job in taken:
            if job.kind not in self.kinds:
                continue
            try:
                client, context = self.runtime(job)
            except Exception as error:  # the workspace's installation cannot be read now: later
                log.warning("a %s follow-up cannot be taken up now (%s)", job.kind, _why(error))
                self.store.work.retry_later(job, self.policy.retry_after)
                continue
            log.info("taking up a %s follow-up left unfinished (attempt %d)", job.kind, job.attempts)
            self.run_now(job, client, context)
        return taken


def _why(error: BaseException) -> str:
    """A failure named by its type (and Slack's error code), never by its message, which may quote a payload."""
    code = getattr(getattr(error, "response", None), "get", lambda _key: None)("error")
    return f"{type(error).__name__}: {code}" if isinstance(code, str) and code.isidentifier() else type(error).__name__
