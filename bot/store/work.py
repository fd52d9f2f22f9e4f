"""Follow-up work, recorded before Slack is told a request was received and kept until it is done, so that a
process that dies, stops or loses its database for a moment leaves nothing acknowledged and unanswered.

    work.accept(job, lease=30, memory=3600)   # before the acknowledgement: False if that request came already
    work.take_due(limit=16, lease=30)         # work whose process let go of it (or died): now this one's
    work.reached(job, "posting")              # how far it got: its one visible effect may have reached Slack
    work.finish(job)                          # done: never done again; the payload (the user's text) deleted
    work.retry_later(job, after=5)            # failed this time: any process may take it up again after a while

Exactly once, without locks held across a Web API call: a job is held by a *lease*, a time until which the process
that accepted or took it alone works on it. Taking a job is a compare-and-set (`UPDATE … WHERE lease_until =
the value read`), which the database serialises, so two processes never both win it; it costs one statement per
job taken, which at a bot's rate (a few follow-ups a second at most) is nothing, and it reads the same on SQLite,
where `SELECT … FOR UPDATE SKIP LOCKED` does not exist, and on PostgreSQL. A process that dies leaves its leases
to run out, and another takes the work up then. What cannot be taken back (a message posted) is marked before it
is attempted (`stage`), so the next taker first looks whether it happened.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, select, update

from bot.store.db import Database
from bot.store.events import utcnow
from bot.store.tables import work
from bot.store.workspace import Workspace

WINDOW = 120.0  # seconds: work older than this is of no use to the user any more, and is not taken up again


@dataclass(frozen=True)
class Job:
    """One piece of follow-up work: its kind (`mention`, `share`, `form`), the key that makes it unique (the event
    id, the click, the submission), whose workspace it is, and what the work needs (JSON-able)."""

    kind: str
    key: str
    workspace: Workspace
    payload: dict[str, Any] = field(default_factory=dict)
    attempts: int = 1
    stage: str = ""
    accepted: datetime = field(default_factory=utcnow)  # when Slack was told it was received (naive UTC)

    @property
    def age(self) -> float:
        """Seconds since it was accepted."""
        return (utcnow() - self.accepted).total_seconds()

    @property
    def id(self) -> tuple[str, str]:
        return self.kind, self.key[:200]


class Work:
    def __init__(self, database: Database) -> None:
        self._database = database

    def accept(self, job: Job, lease: float, memory: float) -> bool:
        """Record `job`, held by the caller for `lease` seconds; False if the same key was recorded already and is
        not yet forgotten (`memory` seconds after it is done): a redelivery, or a second click."""
        now = job.accepted
        stored = {"workspace": _workspace_json(job.workspace), "work": job.payload}
        values = {
            "kind": job.kind, "key": job.key[:200], "enterprise_id": job.workspace.enterprise_key,
            "team_id": job.workspace.team_key, "payload": json.dumps(stored), "done": False, "stage": "",
            "attempts": 1, "lease_until": now + timedelta(seconds=lease), "created_at": now,
            "expires_at": now + timedelta(seconds=max(memory, WINDOW)),
        }
        insert = self._database.insert(work).values(**values)
        statement = insert.on_conflict_do_update(  # a key forgotten long ago may be used again
            index_elements=[work.c.kind, work.c.key],
            set_={name: insert.excluded[name] for name in values if name not in ("kind", "key")},
            where=work.c.expires_at <= now,
        ).returning(work.c.key)
        with self._database.engine.begin() as connection:
            return connection.execute(statement).first() is not None

    def take_due(self, limit: int, lease: float, window: float = WINDOW) -> list[Job]:
        """Up to `limit` jobs nobody holds (their lease ran out: a process let go of them or died), younger than
        `window` seconds, each now held by the caller for `lease` seconds; oldest first."""
        now = utcnow()
        query = (select(work).where(work.c.done.is_(False), work.c.lease_until <= now,
                                    work.c.created_at > now - timedelta(seconds=window))
                 .order_by(work.c.created_at).limit(limit))
        taken = []
        with self._database.engine.begin() as connection:
            rows = connection.execute(query).all()
            for row in rows:
                won = connection.execute(
                    update(work).where(work.c.kind == row.kind, work.c.key == row.key, work.c.done.is_(False),
                                       work.c.lease_until == row.lease_until)
                    .values(lease_until=now + timedelta(seconds=lease), attempts=work.c.attempts + 1)
                ).rowcount
                if won:
                    taken.append(_job(row, attempts=row.attempts + 1))
        return taken

    def reached(self, job: Job, stage: str) -> Job:
        """Note that `job` got as far as `stage` (before an effect that cannot be taken back is attempted)."""
        self._set(job, stage=stage)
        return replace(job, stage=stage)

    def current(self, job: Job) -> Job:
        """`job` with the stage the database has for it now (an earlier try may have got further)."""
        kind, key = job.id
        with self._database.engine.connect() as connection:
            stage = connection.execute(select(work.c.stage).where(work.c.kind == kind, work.c.key == key)).scalar()
        return replace(job, stage=stage or "")

    def finish(self, job: Job) -> None:
        """`job` is done: it is never taken up again, and what it carried (the user's text) is deleted now."""
        self._set(job, done=True, payload="")

    def retry_later(self, job: Job, after: float) -> None:
        """`job` failed this time: free for any process to take up again `after` seconds from now."""
        self._set(job, lease_until=utcnow() + timedelta(seconds=after))

    def let_go(self, jobs: list[Job]) -> None:
        """Jobs this process holds but will not start (it is stopping): free for another process at once."""
        for job in jobs:
            self._set(job, lease_until=utcnow())

    def pending(self) -> int:
        """How many jobs are not done (whoever holds them)."""
        with self._database.engine.connect() as connection:
            return len(connection.execute(select(work.c.key).where(work.c.done.is_(False))).all())

    def delete_expired(self) -> int:
        """Forget every job whose time is up (done or not: past its use to anyone); how many were deleted."""
        with self._database.engine.begin() as connection:
            return connection.execute(delete(work).where(work.c.expires_at <= utcnow())).rowcount

    def _set(self, job: Job, **values: Any) -> None:
        kind, key = job.id
        with self._database.engine.begin() as connection:
            connection.execute(update(work).where(and_(work.c.kind == kind, work.c.key == key)).values(**values))


def _job(row: Any, attempts: int) -> Job:
    stored = json.loads(row.payload or "{}")
    workspace = Workspace(**stored.get("workspace", {}))
    return Job(row.kind, row.key, workspace, stored.get("work", {}), attempts, row.stage, row.created_at)


def _workspace_json(workspace: Workspace) -> dict[str, Any]:
    return {"enterprise_id": workspace.enterprise_id, "team_id": workspace.team_id,
            "is_enterprise_install": workspace.is_enterprise_install}
