"""Each user's Slack locale, kept for a day in the database every process shares, so that neither a deploy nor a
second process asks Slack's `users.info` again; and each workspace's pause after Slack rate-limited or failed a
lookup, which every process then honours.

    stored = store.locales.read(workspace, user_id)   # one round trip: the locale, the pause, the number format
    store.locales.remember(workspace, user_id, "de-DE")
    store.locales.pause(workspace, seconds=30)

A read asks for the user's own number format (`bot.store.preferences`) in the same round trip, so a process that
has never seen the user costs the database one query for both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import DateTime, and_, cast, null, select, union_all

from bot.store.db import Database
from bot.store.events import ExpiredRows, utcnow
from bot.store.tables import preferences, user_locales
from bot.store.workspace import Workspace

TTL = 24 * 3600.0  # seconds a user's locale is kept: a user who changes their Slack language is read anew a day on
PAUSE_ROW = ""  # the user id of a workspace's pause (no Slack user id is empty)
MAX_TAG = 35  # the column's width; a longer tag is no locale Babel knows anyway


@dataclass(frozen=True)
class StoredLocale:
    """What the database holds for one user: their Slack locale if a lookup is still fresh, the workspace's pause,
    and the number format the user chose."""

    found: bool = False  # a fresh lookup is stored (its `tag` may still be None: the unknown format)
    tag: str | None = None
    seconds_left: float = 0.0  # how long the stored lookup stays fresh
    paused_for: float = 0.0  # seconds until the workspace's lookups may ask Slack again (0: now)
    number_format: str | None = None


class UserLocales:
    def __init__(self, database: Database, now: Callable[[], datetime] = utcnow) -> None:
        self._database = database
        self._now = now
        self._expired = ExpiredRows(database, user_locales)

    def read(self, workspace: Workspace, user_id: str) -> StoredLocale:
        """The user's stored locale, their workspace's pause and their own number format, in one round trip."""
        now = self._now()
        ours = and_(user_locales.c.enterprise_id == workspace.enterprise_key,
                    user_locales.c.team_id == workspace.team_key)
        lookups = select(user_locales.c.user_id, user_locales.c.locale.label("value"), user_locales.c.expires_at).where(
            ours, user_locales.c.user_id.in_([user_id, PAUSE_ROW]), user_locales.c.expires_at > now)
        chosen = select(preferences.c.user_id, preferences.c.number_format, cast(null(), DateTime)).where(
            preferences.c.enterprise_id == workspace.enterprise_key, preferences.c.team_id == workspace.team_key,
            preferences.c.user_id == user_id)
        # outside a transaction: on PostgreSQL one query is then one exchange, with no BEGIN before it and no
        # ROLLBACK after (the pool's ping on checkout, bot/store/db.py, is one more)
        with self._database.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            rows = connection.execute(union_all(lookups, chosen)).all()
        found, tag, left, paused, chosen_format = False, None, 0.0, 0.0, None
        for row_user, value, expires_at in rows:
            if expires_at is None:
                chosen_format = value
            elif row_user == PAUSE_ROW:
                paused = (expires_at - now).total_seconds()
            else:
                found, tag, left = True, value, (expires_at - now).total_seconds()
        return StoredLocale(found, tag, left, paused, chosen_format)

    def remember(self, workspace: Workspace, user_id: str, tag: str | None, ttl: float = TTL) -> None:
        """Keep what `users.info` said of the user's locale (None: nothing usable) for `ttl` seconds."""
        self._put(workspace, user_id, tag if tag is None or len(tag) <= MAX_TAG else None, ttl)

    def pause(self, workspace: Workspace, seconds: float) -> None:
        """No process asks Slack about the workspace's users for `seconds` from now."""
        self._put(workspace, PAUSE_ROW, None, seconds)

    def delete_expired(self) -> int:
        """Forget every lookup and pause whose time is up; how many were deleted."""
        return self._expired.delete()

    def _put(self, workspace: Workspace, user_id: str, tag: str | None, ttl: float) -> None:
        values = {"enterprise_id": workspace.enterprise_key, "team_id": workspace.team_key, "user_id": user_id,
                  "locale": tag, "expires_at": self._now() + timedelta(seconds=ttl)}
        statement = self._database.insert(user_locales).values(**values)
        statement = statement.on_conflict_do_update(
            index_elements=[user_locales.c.enterprise_id, user_locales.c.team_id, user_locales.c.user_id],
            set_={"locale": statement.excluded.locale, "expires_at": statement.excluded.expires_at},
        )
        with self._database.engine.begin() as connection:
            connection.execute(statement)


__all__ = ["PAUSE_ROW", "TTL", "StoredLocale", "UserLocales"]
