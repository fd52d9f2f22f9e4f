"""What dpscale keeps beyond one request, in one SQL database shared by every process that serves it.

    store = Store.open(settings.database_url)
    store.handled.first(EVENT, event_id, ttl, workspace)          # exactly once, across processes
    store.preferences.number_format(workspace, user_id)             # a user's own number format
    store.locales.read(workspace, user_id)                          # a user's Slack locale, kept for a day
    store.answers.get(workspace, channel, message_ts)               # where a mention's answer is
    store.work.accept(job, lease, memory)                           # follow-up work, finished by some process
    store.delete_expired()                                          # what has outlived its use: on a clock
    store.forget(workspace, client_id)                              # uninstalled: delete all of it

Nothing here knows Slack's request shapes; the Slack layer passes plain ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import delete

from bot.store.answers import Answers, PostedAnswer
from bot.store.cache import SharedCache
from bot.store.db import Database
from bot.store.events import EVENT, SHARE, HandledOnce, utcnow
from bot.store.locales import UserLocales
from bot.store.migrate import upgrade
from bot.store.preferences import Preferences
from bot.store.work import Clock, Job, LeaseLostError, Work
from bot.store.workspace import Workspace

__all__ = [
    "EVENT", "SHARE", "Answers", "Clock", "Database", "HandledOnce", "Job", "LeaseLostError", "PostedAnswer",
    "Preferences", "Store", "UserLocales", "Work", "Workspace", "upgrade",
]


@dataclass
class Store:
    database: Database
    clock: Clock = utcnow  # the follow-up work's clock (naive UTC): a test's own, to drive leases step by step
    cache: SharedCache = field(init=False)
    handled: HandledOnce = field(init=False)
    preferences: Preferences = field(init=False)
    answers: Answers = field(init=False)
    work: Work = field(init=False)
    locales: UserLocales = field(init=False)

    def __post_init__(self) -> None:
        self.cache = SharedCache(self.database)
        self.handled = HandledOnce(self.database)
        self.preferences = Preferences(self.database, self.cache)
        self.answers = Answers(self.database)
        self.work = Work(self.database, self.clock)
        self.locales = UserLocales(self.database)

    def delete_expired(self) -> dict[str, int]:
        """Delete every row whose time is up: handled-once keys, answers' whereabouts, finished or stale work, and
        OAuth states (each lives `SLACK_STATE_EXPIRATION_SECONDS`; an install page makes one for every visit, and
        no install may ever come to use it). Rows deleted per table."""
        deleted = {
            "dpscale_handled": self.handled.delete_expired(),
            "dpscale_answers": self.answers.delete_expired(),
            "dpscale_work": self.work.delete_expired(),
            "dpscale_user_locales": self.locales.delete_expired(),
        }
        from bot.store.slack_tables import oauth_states  # on the sweeper's clock, not at start-up

        with self.database.engine.begin() as connection:
            deleted[oauth_states.name] = connection.execute(
                delete(oauth_states).where(oauth_states.c.expire_at <= utcnow())).rowcount
        return deleted

    @classmethod
    def open(cls, database_url: str | None) -> Store:
        """The store at `database_url` (None: the default SQLite file); no connection is made until first use."""
        return cls(Database(database_url))

    def close(self) -> None:
        """Stop the cache's listener and close this process's connections."""
        self.cache.close()
        self.database.dispose()

    def forget(self, workspace: Workspace, client_id: str | None = None,
               keep: tuple[str, str] | None = None) -> dict[str, int]:
        from bot.store.installations import forget_workspace

        return forget_workspace(self.database, workspace, client_id, self.cache, keep)
