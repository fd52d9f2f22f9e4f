"""What dpscale keeps beyond one request, in one SQL database shared by every process that serves it.

    store = Store.open(settings.database_url)
    store.handled.first(EVENT, event_id, ttl, workspace)          # exactly once, across processes
    store.preferences.number_format(workspace, user_id)             # a user's own number format
    store.locales.read(workspace, user_id)                          # a user's Slack locale, kept for a day
    store.answers.get(workspace, channel, message_ts)               # where a mention's answer is
    store.forget(workspace, client_id)                              # uninstalled: delete all of it

Nothing here knows Slack's request shapes; the Slack layer passes plain ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.store.answers import Answers, PostedAnswer
from bot.store.cache import SharedCache
from bot.store.db import Database
from bot.store.events import EVENT, SHARE, HandledOnce
from bot.store.installations import forget_workspace
from bot.store.locales import UserLocales
from bot.store.migrate import upgrade
from bot.store.preferences import Preferences
from bot.store.workspace import Workspace

__all__ = [
    "EVENT", "SHARE", "Answers", "Database", "HandledOnce", "PostedAnswer", "Preferences", "Store", "UserLocales",
    "Workspace", "upgrade",
]


@dataclass
class Store:
    database: Database
    cache: SharedCache = field(init=False)
    handled: HandledOnce = field(init=False)
    preferences: Preferences = field(init=False)
    answers: Answers = field(init=False)
    locales: UserLocales = field(init=False)

    def __post_init__(self) -> None:
        self.cache = SharedCache(self.database)
        self.handled = HandledOnce(self.database)
        self.preferences = Preferences(self.database, self.cache)
        self.answers = Answers(self.database)
        self.locales = UserLocales(self.database)

    @classmethod
    def open(cls, database_url: str | None) -> Store:
        """The store at `database_url` (None: the default SQLite file); no connection is made until first use."""
        return cls(Database(database_url))

    def close(self) -> None:
        """Stop the cache's listener and close this process's connections."""
        self.cache.close()
        self.database.dispose()

    def forget(self, workspace: Workspace, client_id: str | None = None) -> dict[str, int]:
        return forget_workspace(self.database, workspace, client_id, self.cache)
