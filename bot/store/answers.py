"""Where each mention's answer is and what it said, shared by every process and host, so that an edit of the mention
updates that one answer in place wherever the edit lands.

A row holds the answer's ts and a fingerprint of its payload, keyed by workspace, channel and message ts. It lives
for a given time after it was last written (the Slack layer gives the hour it remembers events for); an expired
row reads as absent, and expired rows are deleted on a clock (`Store.delete_expired`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import ColumnElement, and_, select

from bot.store.db import Database
from bot.store.events import ExpiredRows, utcnow
from bot.store.tables import answers
from bot.store.workspace import Workspace


@dataclass(frozen=True)
class PostedAnswer:
    """The answer posted to a mention: where it is (its ts) and what it said (a fingerprint of its payload)."""

    ts: str
    fingerprint: str


class Answers:
    """The answer to each mention, kept for `ttl` seconds after each `put`."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._expired = ExpiredRows(database, answers)

    def get(self, workspace: Workspace, channel: str, message_ts: str) -> PostedAnswer | None:
        """The answer to the message, or None if none was recorded (or its time is up)."""
        query = select(answers.c.answer_ts, answers.c.fingerprint).where(
            _key(workspace, channel, message_ts), answers.c.expires_at > utcnow()
        )
        with self._database.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else PostedAnswer(row.answer_ts, row.fingerprint)

    def put(self, workspace: Workspace, channel: str, message_ts: str, answer: PostedAnswer, ttl: float) -> None:
        """Record (or replace) the answer to the message, for `ttl` seconds from now."""
        values = {
            "enterprise_id": workspace.enterprise_key, "team_id": workspace.team_key, "channel_id": channel,
            "message_ts": message_ts, "answer_ts": answer.ts, "fingerprint": answer.fingerprint,
            "expires_at": utcnow() + timedelta(seconds=ttl),
        }
        statement = self._database.insert(answers).values(**values)
        statement = statement.on_conflict_do_update(
            index_elements=[answers.c.enterprise_id, answers.c.team_id, answers.c.channel_id, answers.c.message_ts],
            set_={name: statement.excluded[name] for name in ("answer_ts", "fingerprint", "expires_at")},
        )
        with self._database.engine.begin() as connection:
            connection.execute(statement)

    def delete_expired(self) -> int:
        """Forget every answer whose time is up; how many were deleted."""
        return self._expired.delete()


def _key(workspace: Workspace, channel: str, message_ts: str) -> ColumnElement[bool]:
    c = answers.c
    return and_(c.enterprise_id == workspace.enterprise_key, c.team_id == workspace.team_key,
                c.channel_id == channel, c.message_ts == message_ts)
