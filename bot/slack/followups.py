"""Work done after Slack has been told a request was received — a mention's answer, a Share, a form's result — kept
in the database from before that acknowledgement until it is done, and done by whichever process is there to do it.

    followups.register("mention", answer_mention, apologize)   # each feature its own kinds (bot/slack/events.py …)
    if followups.accept(Job("mention", event_id, workspace, payload)):   # before ack(): raises if it cannot record
        ack(); followups.run_now(job, client, context)                    # at once, in this process
    else:
        ack()                                                             # a redelivery: done, or being done

A job runs in its kind's own thread pool, so mentions never queue behind slow Shares or deliveries. It is tried
a few times in its process (`TRIES`, waiting `BACKOFF` between), within its lease; what still fails is handed
back to the database (`Work.retry_later`) while there is time, and when the time is up (`MAX_ATTEMPTS`, or older
than `bot.store.work.WINDOW`) the user gets the kind's apology instead. A process that dies leaves its jobs' leases
to run out; every process's sweeper (`SWEEP_INTERVAL`) takes such jobs up and finishes them, rebuilding the
client and context a job needs through `runtime` (the app's token or the workspace's installation). The sweeper
also deletes what has expired, every `EXPIRE_INTERVAL`, the first time `FIRST_EXPIRY_AFTER` after start.

A stopping process lets go of the jobs it has not started, for another process to take at once, and gives those
running the drain timeout; one still running then keeps its lease, so that its post, which may still land, is
looked for before anyone posts it again.
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

from bot.shutdown import WorkPool
from bot.store import Job, Store, Workspace
from bot.store.work import WINDOW

log = logging.getLogger(__name__)
request_log = logging.getLogger("bot.requests")  # one line per request, as bot.slack.plumbing.logged writes

LEASE = 30.0  # seconds a process holds a job it works on before another may take it up
MEMORY = 3600.0  # seconds a done job's key is remembered: Slack retries an event for about an hour
TRIES = 3  # attempts in one process before the job is handed back
BACKOFF = (1.0, 3.0)  # seconds between them
MAX_ATTEMPTS = 6  # attempts, over every process, before the user gets the apology instead
RETRY_AFTER = 5.0  # seconds before a job handed back may be taken up again
FIRST_EXPIRY_AFTER = 5.0  # seconds after a process starts before it first deletes what has expired
SWEEP_INTERVAL = 1.0  # seconds between looks for jobs nobody holds
EXPIRE_INTERVAL = 60.0  # seconds between deletions of what has expired
THREADS = {"mention": 16, "share": 8, "form": 8, "chart": 2}  # per kind: each mostly waits on Slack (a chart draws)

Handler = Callable[..., object]  # called with job=, client= and context=
Runtime = Callable[[Job], tuple[WebClient, BoltContext]]


# failures of the database or of Slack, which a later try may not meet: a post that was refused, timed out or got
# an answer cut short (json), a database that did not answer
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
    lease: float = LEASE
    expire_every: float = EXPIRE_INTERVAL
    runtime: Runtime | None = None  # set by the app: the client and context of a job taken up from the database
    kinds: dict[str, Kind] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _sweeper: threading.Thread | None = None
    _queued: set[tuple[str, str]] = field(default_factory=set)  # accepted here, not yet started
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def register(self, kind: str, handler: Handler, apology: Handler, logged_as: str | None = None) -> None:
        """`handler(job=, client=, context=)` does a job of `kind` and returns its outcome (a word for the log);
        `apology(...)` tells the user when it cannot be done."""
        pool = WorkPool(THREADS.get(kind, 8), thread_name_prefix=kind)
        self.kinds[kind] = Kind(handler, apology, pool, logged_as or kind)

    @property
    def pools(self) -> tuple[WorkPool, ...]:
        return tuple(kind.pool for kind in self.kinds.values())

    def accept(self, job: Job) -> bool:
        """Record `job` before the acknowledgement; False if it was recorded already (a redelivery, a second
        click). Raises SQLAlchemyError if the database cannot record it: the caller must not acknowledge as done."""
        return self.store.work.accept(job, self.lease, MEMORY)

    def run_now(self, job: Job, client: WebClient, context: BoltContext) -> None:
        """Start `job` in this process, in its kind's pool."""
        with self._lock:
            self._queued.add(job.id)
        self.kinds[job.kind].pool.submit(self._run, job, client, context, time.monotonic() + self.lease)

    def _run(self, job: Job, client: WebClient, context: BoltContext, lease_end: float) -> None:
        """Do `job`, trying again while that may help, and write the request's one log line when it is settled."""
        with self._lock:
            self._queued.discard(job.id)
        started = time.perf_counter()
        outcome = "failed"
        try:
            outcome = self._attempt(job, client, context, lease_end)
        finally:
            request_log.info("kind=%s locale=%s outcome=%s duration_ms=%.1f", self.kinds[job.kind].logged_as,
                             context.get("locale") or "-", outcome, (time.perf_counter() - started) * 1000)

    def _attempt(self, job: Job, client: WebClient, context: BoltContext, lease_end: float) -> str:
        kind = self.kinds[job.kind]
        for attempt in range(TRIES):
            try:
                outcome = kind.handler(job=job, client=client, context=context)
                self._finish(job)
                return str(outcome or "ok")
            except TRANSIENT as error:
                if attempt + 1 == TRIES or time.monotonic() + BACKOFF[min(attempt, len(BACKOFF) - 1)] > lease_end:
                    return self._hand_back(job, client, context, error)
                log.warning("%s follow-up failed (%s), trying again", job.kind, _why(error))
                time.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                job = self._current(job)
            except Exception:  # a fault of dpscale's own, which trying again would only repeat
                log.exception("%s follow-up failed", job.kind)
                break
        self._apologize(job, client, context)
        return "failed"

    def _hand_back(self, job: Job, client: WebClient, context: BoltContext, error: Exception) -> str:
        """Tried `TRIES` times here: another try later, by any process, or the apology when the time is up."""
        if job.attempts * TRIES >= MAX_ATTEMPTS or job.age + RETRY_AFTER > WINDOW:
            log.error("%s follow-up failed for good (%s): the user is told", job.kind, _why(error))
            self._apologize(job, client, context)
            return "failed"
        log.warning("%s follow-up failed (%s): to be tried again in %g s", job.kind, _why(error), RETRY_AFTER)
        try:
            self.store.work.retry_later(job, RETRY_AFTER)
        except SQLAlchemyError:  # it keeps its lease, and is taken up again when that runs out
            pass
        return "retry_later"

    def _apologize(self, job: Job, client: WebClient, context: BoltContext) -> None:
        try:
            self.kinds[job.kind].apology(job=job, client=client, context=context)
        except Exception as error:
            log.warning("the apology for a failed %s could not be delivered either (%s)", job.kind, _why(error))
        self._finish(job)

    def _finish(self, job: Job) -> None:
        try:
            self.store.work.finish(job)
        except SQLAlchemyError as error:  # done all the same; should it be taken up again, its stage says so
            log.warning("a finished %s could not be recorded as done (%s)", job.kind, _why(error))

    def _current(self, job: Job) -> Job:
        """The job as the database has it now (how far an earlier try got)."""
        try:
            return self.store.work.current(job)
        except SQLAlchemyError:
            return job

    # the sweeper: one thread per process

    def start(self) -> None:
        """Begin sweeping (a worker process starts serving)."""
        if self._sweeper is None or not self._sweeper.is_alive():
            self._stop.clear()
            self._sweeper = threading.Thread(target=self._sweep, name="dpscale-sweeper", daemon=True)
            self._sweeper.start()

    def stop(self, deadline: float) -> int:
        """Stop sweeping; let go of the jobs not started; wait for those running until `deadline`. How many were
        still unfinished then."""
        self._stop.set()
        with self._lock:
            queued = list(self._queued)
        for kind in self.kinds.values():
            kind.pool.shutdown(wait=False, cancel_futures=True)  # what has not started never will, here
        if queued:
            try:
                self.store.work.let_go([Job(k, key, Workspace()) for k, key in queued])
            except SQLAlchemyError as error:
                log.warning("jobs not started could not be handed back (%s): taken up when their leases end",
                            _why(error))
        return sum(kind.pool.finish(deadline) for kind in self.kinds.values())

    def _sweep(self) -> None:
        # the first expiry a few seconds after start, not beside the first requests of a process that just started
        expired_at = time.monotonic() - self.expire_every + min(FIRST_EXPIRY_AFTER, self.expire_every)
        failing = False
        first = True
        while not self._stop.wait(0 if first else min(SWEEP_INTERVAL, self.expire_every)):
            first = False
            try:
                if time.monotonic() - expired_at >= self.expire_every:
                    deleted = self.store.delete_expired()
                    expired_at = time.monotonic()
                    if any(deleted.values()):
                        log.info("expired rows deleted: %s", " ".join(f"{t}={n}" for t, n in sorted(deleted.items())))
                self._take_up()
                if failing:
                    log.info("the database answers again: follow-up work goes on")
                failing = False
            except SQLAlchemyError as error:
                if not failing:
                    log.warning("the database cannot be reached (%s): follow-up work waits for it", _why(error))
                failing = True
            except Exception:
                log.exception("the follow-up sweeper failed; it goes on")

    def _take_up(self) -> None:
        if self.runtime is None:
            return
        for job in self.store.work.take_due(limit=THREADS["mention"], lease=self.lease):
            if job.kind not in self.kinds:
                continue
            try:
                client, context = self.runtime(job)
            except Exception as error:  # the workspace's installation cannot be read now: later
                log.warning("a %s follow-up cannot be taken up now (%s)", job.kind, _why(error))
                continue
            log.info("taking up a %s follow-up left unfinished (attempt %d)", job.kind, job.attempts)
            self.kinds[job.kind].pool.submit(self._run, job, client, context, time.monotonic() + self.lease)


def _why(error: BaseException) -> str:
    """A failure named by its type (and Slack's error code), never by its message, which may quote a payload."""
    code = getattr(getattr(error, "response", None), "get", lambda _key: None)("error")
    return f"{type(error).__name__}: {code}" if isinstance(code, str) and code.isidentifier() else type(error).__name__

