"""Follow-up work, recorded before Slack is told a request was received and kept until it is done, so that a
process that dies, stops or loses its database for a moment leaves nothing acknowledged and unanswered.

    work.accept(job, lease=30, memory=3600)   # before the acknowledgement: False if that request came already
    work.take_due(limit=16, lease=30)         # work whose holder let go of it (or died): now this caller's
    work.hold(job, 30)                        # still this holder's? held 30 s more (before each step, a heartbeat)
    work.reached(job, "posting", hold=30)     # how far it got: its one visible effect may have reached Slack
    work.finish(job)                          # done: never done again; the payload (the user's text) deleted
    work.retry_later(job, after=5)            # failed this time: any process may take it up again after a while

Exactly once, without locks held across a Web API call: a job is held by a *lease*, a time until which its
*holder* alone works on it. Every take makes a fresh holder token (`Job.holder`), and every later write names it
(`… WHERE holder = :token`): a process whose lease ran out and was taken over, however late it wakes, changes
nothing, and learns so (`hold` and the writes return False; `reached` raises `LeaseLostError`). Taking a job is a
compare-and-set on the lease it read (`UPDATE … WHERE lease_until = :read AND holder = :read`), which the database
serialises, so two processes never both win it; it costs one statement per job taken, which at a bot's rate (a
few follow-ups a second at most) is nothing, and it reads the same on SQLite, where `SELECT … FOR UPDATE SKIP
LOCKED` does not exist, and on PostgreSQL. What cannot be taken back (a message posted) is marked before it is
attempted (`stage`), so the next taker first looks whether it happened.

Time is read from `clock` (naive UTC), so a test can drive leases step by step.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, select, true, update

from bot.store.db import Database
from bot.store.events import utcnow
from bot.store.tables import work
from bot.store.workspace import Workspace

Clock = Callable[[], datetime]  # naive UTC, as every DateTime column holds it


def new_holder() -> str:
    """A token naming one take of a job: 32 hex digits, never reused."""
    return secrets.token_hex(16)


class LeaseLostError(Exception):
    """The job is held by another taker now (this one's lease ran out and was taken over): leave it to them."""


@dataclass(frozen=True)
class Job:
    """One piece of follow-up work: its kind (`mention`, `share`, `form`), the key that makes it unique (the event
    id, the click, the submission), whose workspace it is, and what the work needs (JSON-able); `holder` names the
    take that holds it."""

    kind: str
    key: str
    workspace: Workspace
    payload: dict[str, Any] = field(default_factory=dict)
    attempts: int = 1
    stage: str = ""
    accepted: datetime = field(default_factory=utcnow)  # when Slack was told it was received (naive UTC)
    holder: str = field(default_factory=new_holder)

    def age(self, now: datetime) -> float:
        """Seconds since it was accepted, at `now`."""
        return (now - self.accepted).total_seconds()

    @property
    def id(self) -> tuple[str, str]:
        return self.kind, self.key[:200]


class Work:
    def __init__(self, database: Database, clock: Clock = utcnow) -> None:
        self._database = database
        self.clock = clock

    def accept(self, job: Job, lease: float, memory: float) -> bool:
        """Record `job`, held by its holder for `lease` seconds; False if the same key was recorded already and is
        not yet forgotten (`memory` seconds after it is done): a redelivery, or a second click."""
        now = job.accepted
        stored = {"workspace": _workspace_json(job.workspace), "work": job.payload}
        values = {
            "kind": job.kind, "key": job.key[:200], "enterprise_id": job.workspace.enterprise_key,
            "team_id": job.workspace.team_key, "payload": json.dumps(stored), "done": False, "stage": "",
            "attempts": 1, "lease_until": now + timedelta(seconds=lease), "created_at": now,
            "expires_at": now + timedelta(seconds=memory), "holder": job.holder,
        }
        insert = self._database.insert(work).values(**values)
        statement = insert.on_conflict_do_update(  # a key forgotten long ago may be used again
            index_elements=[work.c.kind, work.c.key],
            set_={name: insert.excluded[name] for name in values if name not in ("kind", "key")},
            where=work.c.expires_at <= now,
        ).returning(work.c.key)
        with self._database.engine.begin() as connection:
            return connection.execute(statement).first() is not None

    def take_due(self, limit: int, lease: float, skip: Iterable[str] = ()) -> list[Job]:
        """Up to `limit` jobs nobody holds (their lease ran out: a holder let go of them or died), however old, each
        now held by the caller for `lease` seconds under a fresh holder; oldest first. Jobs held by the `skip`
        holders (the caller's own, queued or running) are never taken, whatever their lease says."""
        now = self.clock()
        mine = list(skip)
        due = and_(work.c.done.is_(False), work.c.lease_until <= now, work.c.expires_at > now)
        query = (select(work).where(due, work.c.holder.not_in(mine) if mine else true())
                 .order_by(work.c.created_at).limit(limit))
        taken = []
        with self._database.engine.begin() as connection:
            for row in connection.execute(query).all():
                job = _job(row, attempts=row.attempts + 1)
                won = connection.execute(
                    update(work).where(_this(job), work.c.done.is_(False), work.c.lease_until == row.lease_until,
                                       work.c.holder == row.holder)
                    .values(lease_until=now + timedelta(seconds=lease), attempts=work.c.attempts + 1,
                            holder=job.holder)
                ).rowcount
                if won:
                    taken.append(job)
        return taken

    def hold(self, job: Job, seconds: float) -> bool:
        """Extend `job`'s lease to `seconds` from now, if its holder still holds it (and it is not done): False
        when another take has it now."""
        return self._set(job, lease_until=self.clock() + timedelta(seconds=seconds))

    def hold_all(self, jobs: Iterable[Job], seconds: float) -> set[tuple[str, str]]:
        """The heartbeat: every one of `jobs` its holder still holds, extended to `seconds` from now, in one
        statement; the ids of those still held."""
        holders = [job.holder for job in jobs]
        if not holders:
            return set()
        statement = (update(work).where(work.c.holder.in_(holders), work.c.done.is_(False))
                     .values(lease_until=self.clock() + timedelta(seconds=seconds)).returning(work.c.kind, work.c.key))
        with self._database.engine.begin() as connection:
            return {(row.kind, row.key) for row in connection.execute(statement)}

    def reached(self, job: Job, stage: str, hold: float) -> Job:
        """Note that `job` got as far as `stage` (before an effect that cannot be taken back is attempted), and hold
        it `hold` seconds from now; LeaseLostError, and nothing written, if another take holds it now."""
        if not self._set(job, stage=stage, lease_until=self.clock() + timedelta(seconds=hold)):
            raise LeaseLostError(job.kind)
        return replace(job, stage=stage)

    def current(self, job: Job) -> Job:
        """`job` with the stage the database has for it now (an earlier try may have got further)."""
        with self._database.engine.connect() as connection:
            stage = connection.execute(select(work.c.stage).where(_this(job))).scalar()
        return replace(job, stage=stage or "")

    def finish(self, job: Job) -> bool:
        """`job` is done: it is never taken up again, and what it carried (the user's text) is deleted now. False
        if another take held it (nothing written: that take finishes it)."""
        return self._set(job, done=True, payload="")

    def retry_later(self, job: Job, after: float) -> bool:
        """`job` failed this time: free for any process to take up again `after` seconds from now."""
        return self._set(job, lease_until=self.clock() + timedelta(seconds=after), holder="")

    def let_go(self, jobs: Iterable[Job], after: float = 0.0) -> int:
        """Jobs this process holds but will not do (it is stopping): free for another process at once, or `after`
        seconds from now; how many were still its own to free."""
        return sum(self.retry_later(job, after) for job in jobs)

    def pending(self) -> int:
        """How many jobs are not done (whoever holds them)."""
        with self._database.engine.connect() as connection:
            return len(connection.execute(select(work.c.key).where(work.c.done.is_(False))).all())

    def delete_expired(self) -> int:
        """Forget every job whose time is up (done or not: past its use to anyone); how many were deleted."""
        with self._database.engine.begin() as connection:
            return connection.execute(delete(work).where(work.c.expires_at <= self.clock())).rowcount

    def _set(self, job: Job, **values: Any) -> bool:
        """Write `values` to `job`'s row if its holder holds it and it is not done; whether it did."""
        statement = update(work).where(_this(job), work.c.holder == job.holder, work.c.done.is_(False))
        with self._database.engine.begin() as connection:
            return bool(connection.execute(statement.values(**values)).rowcount)


def _this(job: Job) -> ColumnElement[bool]:
    kind, key = job.id
    return and_(work.c.kind == kind, work.c.key == key)


def _job(row: Any, attempts: int) -> Job:
    """The job a row holds, under a fresh holder (the caller's take)."""
    stored = json.loads(row.payload or "{}")
    workspace = Workspace(**stored.get("workspace", {}))
    return Job(row.kind, row.key, workspace, stored.get("work", {}), attempts, row.stage, row.created_at)


def _workspace_json(workspace: Workspace) -> dict[str, Any]:
    return {"enterprise_id": workspace.enterprise_id, "team_id": workspace.team_id,
            "is_enterprise_install": workspace.is_enterprise_install}
