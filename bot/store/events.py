"""Exactly once, across threads, processes and hosts: the first to record a key wins; a second one is refused.

The guard is the table's primary key: `INSERT … ON CONFLICT DO UPDATE … WHERE expired` inserts a new key, or
takes over one whose time is up, in one statement the database serialises; a live key is left alone and the
caller learns it came second, unless it is the key's `owner`: a piece of follow-up work taken up again after its
process died still holds what it claimed before. A key may be released early, when the work it guarded failed.
Expired rows are deleted on a clock (`bot.slack.followups`' sweeper, in every process).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import Table, and_, delete, or_

from bot.store.db import Database
from bot.store.tables import handled
from bot.store.workspace import Workspace

EVENT = "event"
SHARE = "share"


def utcnow() -> datetime:
    """Naive UTC, as every DateTime column here holds it (the same convention as slack-sdk's tables)."""
    return datetime.now(UTC).replace(tzinfo=None)


class ExpiredRows:
    """Deletes a table's rows whose `expires_at` has passed."""

    def __init__(self, database: Database, table: Table) -> None:
        self._database = database
        self._table = table

    def delete(self) -> int:
        """Delete every row whose time is up; how many were deleted."""
        with self._database.engine.begin() as connection:
            return connection.execute(delete(self._table).where(self._table.c.expires_at <= utcnow())).rowcount


class HandledOnce:
    def __init__(self, database: Database) -> None:
        self._database = database
        self._expired = ExpiredRows(database, handled)

    def first(self, kind: str, key: str, ttl: float, workspace: Workspace, owner: str = "") -> bool:
        """Record `key` for `ttl` seconds; True for the first caller, False while it is still held, unless by the
        same `owner` (a piece of work's own key: that work, taken up again, still holds it)."""
        now = utcnow()
        values = {
            "kind": kind, "key": key[:200], "team_id": workspace.team_key, "enterprise_id": workspace.enterprise_key,
            "expires_at": now + timedelta(seconds=ttl), "owner": owner[:200],
        }
        insert = self._database.insert(handled).values(**values)
        taken_over = handled.c.expires_at <= now
        statement = insert.on_conflict_do_update(
            index_elements=[handled.c.kind, handled.c.key],
            set_={"expires_at": insert.excluded.expires_at, "team_id": insert.excluded.team_id,
                  "enterprise_id": insert.excluded.enterprise_id, "owner": insert.excluded.owner},
            where=or_(taken_over, handled.c.owner == owner[:200]) if owner else taken_over,
        ).returning(handled.c.key)  # a row back means this caller won (rowcount is not reliable on every driver)
        with self._database.engine.begin() as connection:
            return connection.execute(statement).first() is not None

    def release(self, kind: str, key: str) -> None:
        """Give `key` up before its time: the next caller of `first` wins again (the work it guarded failed)."""
        with self._database.engine.begin() as connection:
            connection.execute(delete(handled).where(and_(handled.c.kind == kind, handled.c.key == key[:200])))

    def delete_expired(self) -> int:
        """Forget every key whose time is up; how many were deleted."""
        return self._expired.delete()
