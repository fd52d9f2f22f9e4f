"""Each user's own number format: a locale tag such as `de-DE`, chosen in App Home or with `format=`.

Keyed by organisation, workspace and user (see `Workspace`), so that an installation's preferences can be
forgotten in full when it is uninstalled.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_, delete, select

from bot.store.cache import SharedCache
from bot.store.db import Database
from bot.store.events import utcnow
from bot.store.tables import preferences
from bot.store.workspace import Workspace


class Preferences:
    def __init__(self, database: Database, cache: SharedCache | None = None) -> None:
        self._database = database
        self._cache = cache or SharedCache(database)

    def number_format(self, workspace: Workspace, user_id: str) -> str | None:
        """The tag the user chose, or None if they never chose (or chose to follow their Slack language)."""

        def load() -> str | None:
            query = select(preferences.c.number_format).where(_key(workspace, user_id))
            with self._database.engine.connect() as connection:
                return connection.execute(query).scalar_one_or_none()

        return self._cache.get(_cache_key(workspace, user_id), load)

    def watch(self) -> None:
        """Begin watching for other processes' changes now, so that the first request already reads from memory."""
        self._cache.start()

    @property
    def version(self) -> int | None:
        """A number that moves whenever any number format this process keeps may have changed; None while none is
        kept (changes are not watched), when every read goes to the database."""
        return self._cache.version

    def snapshot(self) -> int:
        """A mark to take before reading a number format in another query (see `offer`)."""
        return self._cache.snapshot()

    def offer(self, workspace: Workspace, user_id: str, tag: str | None, snapshot: int) -> None:
        """Keep the user's number format, read in another query begun after `snapshot` (`bot.store.locales` reads
        it beside the user's locale), as if `number_format` had read it."""
        self._cache.offer(_cache_key(workspace, user_id), tag, snapshot)

    def set_number_format(self, workspace: Workspace, user_id: str, tag: str | None) -> None:
        """Remember `tag` for the user; None forgets it (numbers follow the Slack language again)."""
        with self._database.engine.begin() as connection:
            self._cache.changed(connection, _cache_key(workspace, user_id))
            if tag is None:
                connection.execute(delete(preferences).where(_key(workspace, user_id)))
                return
            now = utcnow()
            statement = self._database.insert(preferences).values(
                enterprise_id=workspace.enterprise_key, team_id=workspace.team_key, user_id=user_id,
                number_format=tag, updated_at=now,
            )
            connection.execute(statement.on_conflict_do_update(
                index_elements=[preferences.c.enterprise_id, preferences.c.team_id, preferences.c.user_id],
                set_={"number_format": tag, "updated_at": now},
            ))


def _cache_key(workspace: Workspace, user_id: str) -> str:
    return f"preference:{workspace.enterprise_key}:{workspace.team_key}:{user_id}"


def _key(workspace: Workspace, user_id: str) -> ColumnElement[bool]:
    c = preferences.c
    return and_(c.enterprise_id == workspace.enterprise_key, c.team_id == workspace.team_key, c.user_id == user_id)
