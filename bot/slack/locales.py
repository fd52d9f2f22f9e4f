"""Which locale a Slack user reads: `users.info` with `include_locale`, kept for a day, and bounded in time.

Slack's API must never make a user wait past the 3-second acknowledgement window, and a user whose locale is not
known must never have their numbers read in someone else's format. So:

- what a lookup learns is kept for `CACHE_TTL` (a day) in this process and in the database every process shares
  (`bot.store.locales`): a deploy, a restart or another process reads it back in one round trip, which also brings
  the user's own number format, and asks Slack nothing; a request of a user this process knows costs none;
- a lookup (the stored row first, then Slack) runs in its own thread and the request waits for it only until a
  deadline (DPSCALE_LOCALE_TIMEOUT, or what the request has left); the lookup's client waits longer, so that a
  lookup that finishes later is still kept for the user's next request;
- concurrent requests of one user share one lookup (single flight); lookups of different users run side by side,
  up to `MAX_LOOKUPS` at once (a lookup outlives a request that stopped waiting for it, so the server's threads
  alone do not bound them): a burst of new users is looked up together, and a request beyond the bound is read in
  the unknown format, its user looked up on their next request;
- a user whose locale is not known in time is read in the *unknown format* (`bot.reader.numbers.UNKNOWN`): a number
  that Slack's locales read differently is asked about, never computed under a guess;
- only what says something about Slack's health pauses a workspace's lookups: a rate limit (for its
  `Retry-After`), a server error, a timeout. The pause is stored too, so every process honours it, and users whose
  locale is stored are still read in it. An error about one user (`user_not_found`, `user_not_visible`, any other
  `ok: false` answer) concerns that user alone, and the log line names it.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from babel import Locale
from slack_bolt import BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from sqlalchemy.exc import SQLAlchemyError

from bot.errors import UserInputError
from bot.reader.numbers import resolve_locale
from bot.reader.recipient import Audience, Recipient
from bot.slack.cache import ExpiringCache
from bot.slack.workspaces import workspace_of
from bot.store import Preferences, UserLocales, Workspace
from bot.store.locales import TTL, StoredLocale

logger = logging.getLogger(__name__)

CACHE_ENTRIES = 10_000
CACHE_TTL = TTL  # a day: a user who changes their Slack language is read in it within a day (`lang=` at once)
PAUSE_AFTER_FAILURE = 30.0  # after a server error or a timeout, or a rate limit without Retry-After
MAX_PAUSE = 300.0
USER_ERROR_TTL = 600.0  # a user Slack would not describe is not asked about again for this long
MAX_LOOKUPS = 64  # users.info calls in flight at once, per process
LOOKUP_THREAD = "dpscale-lookup"  # each lookup's thread, which stores what it learnt after its requests went on
# ok:false answers about the app's own token or scopes: no user's lookup can succeed until an operator acts
APP_ERRORS = frozenset({"invalid_auth", "not_authed", "account_inactive", "token_revoked", "missing_scope",
                        "no_permission", "team_access_not_granted"})


@dataclass
class _Lookup:
    """One `users.info` call in flight, shared by every request of that user that arrives meanwhile."""

    done: threading.Event = field(default_factory=threading.Event)
    locale: Recipient | None = None


_Store = Callable[[], None] | None  # what a lookup leaves to store, once its requests have been let go
_Found = tuple[Recipient | None, _Store]  # a lookup's locale, and what to store of it


class LocaleDirectory:
    def __init__(
        self,
        client: WebClient,
        default: Locale,
        deadline: float,  # DPSCALE_LOCALE_TIMEOUT
        clock: Callable[[], float] = time.monotonic,
        preferences: Preferences | None = None,
        stored: UserLocales | None = None,
    ) -> None:
        self._client = client
        self._preferences = preferences
        self._stored = stored
        self.default = default
        self.unknown = Recipient.of(default, Audience.UNKNOWN)
        self._clock = clock
        self._deadline = deadline
        self._cache: ExpiringCache[Recipient] = ExpiringCache(CACHE_ENTRIES, CACHE_TTL, clock)
        self._pauses: ExpiringCache[bool] = ExpiringCache(CACHE_ENTRIES, MAX_PAUSE, clock)  # per workspace
        # (team, enterprise, user) → the number formats' version and when the Slack locale expires, and the tag
        self._tags: dict[tuple[str | None, str | None, str | None], tuple[int, float, str]] = {}
        self._lock = threading.Lock()
        self._in_flight: dict[tuple[str | None, str], _Lookup] = {}
        if preferences is not None:
            preferences.watch()  # so that the first request's number format is kept, not read again

    def tag_for(self, context: BoltContext, user_id: str | None, wait: float | None = None) -> str:
        """`str(locale_for(…))`, the tag a request's context carries; for a user this process knows, from one
        memory kept while neither the Slack locale's time nor the process's number formats have changed."""
        key = (context.team_id, context.enterprise_id, user_id)
        version = self._preferences.version if self._preferences is not None else 0
        known = self._tags.get(key)
        if known is not None and known[0] == version and known[1] > self._clock():
            return known[2]
        locale = self.locale_for(context, user_id, wait)
        tag = str(locale)
        expires = self._cache.expires((context.team_id, user_id))
        # kept only when everything it stands for was read: never a number format that could not be read
        if version is not None and expires is not None and not context.get("preference_unread"):
            if len(self._tags) >= CACHE_ENTRIES:
                self._tags.clear()
            self._tags[key] = (version, expires, tag)
        return tag

    def locale_for(self, context: BoltContext, user_id: str | None, wait: float | None = None) -> Recipient:
        """The locale a user's request is read and answered in: the Slack language's words, and the number format
        the user chose, if any. The choice comes first and from dpscale's own database, so a user who made one
        has their numbers read right even when Slack cannot tell their language in time. `wait`: the seconds the
        request has left, if fewer than the lookup's own deadline."""
        workspace = workspace_of(context)
        locale = self.locale_of(context.team_id, user_id, token=context.bot_token, wait=wait, workspace=workspace)
        if self._preferences is None or not user_id:
            return locale
        try:
            tag = self._preferences.number_format(workspace, user_id)
        except SQLAlchemyError as error:  # the Slack language's format, said under the answer (bot.slack.commands)
            logger.warning("a saved number format could not be read (%s): the Slack language's is used",
                           type(error).__name__)
            context["preference_unread"] = True
            return locale
        if tag is None:
            return locale
        try:
            return locale.choosing(resolve_locale(tag))
        except UserInputError:
            return locale

    def locale_of(
        self, team_id: str | None, user_id: str | None, token: str | None = None, wait: float | None = None,
        workspace: Workspace | None = None,
    ) -> Recipient:
        """The reader of the user's Slack locale, or the unknown reader (`en_US@unknown`) when Slack does not tell
        us in time (`token`: the workspace's own bot token in multi-workspace mode; `wait`: at most this many
        seconds, if fewer than the deadline; `workspace`: whose stored lookups to read, by default the team's)."""
        if not user_id:
            return self.unknown
        key = (team_id, user_id)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        workspace = workspace or Workspace(team_id=team_id)
        with self._lock:
            if (cached := self._cache.get(key)) is not None:  # a lookup ended since: it is not made again
                return cached
            if self._stored is None and self._pauses.get(workspace):  # nothing stored to read meanwhile
                return self.unknown
            lookup = self._in_flight.get(key)
            if lookup is None:
                if len(self._in_flight) >= MAX_LOOKUPS:
                    logger.info("%d users.info lookups already running; reading this user's numbers in the unknown "
                                "format", MAX_LOOKUPS)
                    return self.unknown
                lookup = self._in_flight[key] = _Lookup()
                threading.Thread(target=self._run, args=(key, workspace, lookup, token), name=LOOKUP_THREAD,
                                 daemon=True).start()
        patience = self._deadline if wait is None else max(0.0, min(wait, self._deadline))
        if not lookup.done.wait(patience):
            logger.info("users.info did not answer within %.1f s; reading this user's numbers in the unknown format",
                        patience)
        return lookup.locale or self.unknown

    def _run(self, key: tuple[str | None, str], workspace: Workspace, lookup: _Lookup, token: str | None) -> None:
        """One lookup, in its own thread: every request waiting for it is let go before what it learnt is stored."""
        store: _Store = None
        try:
            lookup.locale, store = self._look_up(key, workspace, token)
        finally:
            with self._lock:
                self._in_flight.pop(key, None)
            lookup.done.set()
        if store is not None:
            try:
                store()
            except SQLAlchemyError as error:  # kept in this process all the same
                logger.warning("a user's locale could not be stored (%s)", type(error).__name__)

    def _look_up(self, key: tuple[str | None, str], workspace: Workspace, token: str | None) -> _Found:
        """The user's locale from the database if any process looked it up within its TTL, else from Slack unless
        the workspace's lookups are paused; and what to store of Slack's answer."""
        stored = self._read(workspace, key[1]) if self._stored is not None else None
        if stored is not None and stored.found:
            locale = self._resolve(stored.tag)
            self._cache.put(key, locale, stored.seconds_left)
            return locale, None
        if stored is not None and stored.paused_for > 0:
            self._pauses.put(workspace, True, stored.paused_for)
            return None, None
        if self._pauses.get(workspace):
            return None, None
        return self._ask_slack(key, workspace, token)

    def _read(self, workspace: Workspace, user_id: str) -> StoredLocale | None:
        """The stored lookup, pause and number format (the last offered to the preferences' cache); None if the
        database cannot be read, and Slack is then asked as if nothing were stored."""
        assert self._stored is not None
        snapshot = self._preferences.snapshot() if self._preferences is not None else 0
        try:
            stored = self._stored.read(workspace, user_id)
        except SQLAlchemyError as error:
            logger.warning("stored locales could not be read (%s); asking Slack", type(error).__name__)
            return None
        if self._preferences is not None:
            self._preferences.offer(workspace, user_id, stored.number_format, snapshot)
        return stored

    def _resolve(self, tag: str | None) -> Recipient:
        try:
            return Recipient.of(resolve_locale(tag)) if tag else self.unknown
        except UserInputError:
            return self.unknown

    def _ask_slack(self, key: tuple[str | None, str], workspace: Workspace, token: str | None) -> _Found:
        try:
            extra = {"token": token} if token else {}
            response = self._client.users_info(user=key[1], include_locale=True, **extra)
        except SlackApiError as error:
            return None, self._failed(key, workspace, error)
        except (SlackClientError, OSError, ValueError) as error:  # timeouts, refused connections, bad bodies
            return None, self._pause(workspace, PAUSE_AFTER_FAILURE, f"no answer ({type(error).__name__})")
        tag = (response.get("user") or {}).get("locale")
        locale = self.unknown
        if not tag:
            logger.warning("users.info gave no locale for this user; reading their numbers in the unknown format")
        else:
            try:
                locale = Recipient.of(resolve_locale(tag))
            except UserInputError:
                logger.warning("users.info gave a locale Babel does not know; reading this user's numbers in the "
                               "unknown format")
        self._cache.put(key, locale)
        return locale, self._remembered(workspace, key[1], str(tag) if tag else None, CACHE_TTL)

    def _remembered(self, workspace: Workspace, user_id: str, tag: str | None, ttl: float) -> _Store:
        """Storing what Slack said of a user, for every process (nothing to do without a store)."""
        return None if self._stored is None else functools.partial(self._stored.remember, workspace, user_id, tag, ttl)

    def _failed(self, key: tuple[str | None, str], workspace: Workspace, error: SlackApiError) -> _Store:
        response = error.response
        status = response.status_code if response is not None else 0
        code = str((response.data if response is not None and isinstance(response.data, dict) else {})
                   .get("error") or "unknown_error")
        if status == 429:
            retry_after = str(response.headers.get("Retry-After") or "") if response is not None else ""
            seconds = float(retry_after) if retry_after.isdigit() else PAUSE_AFTER_FAILURE
            return self._pause(workspace, seconds, "rate limited, Retry-After " + (retry_after or "missing"))
        elif status >= 500 or status == 0:
            return self._pause(workspace, PAUSE_AFTER_FAILURE, f"server error, HTTP {status}")
        elif code in APP_ERRORS:
            return self._pause(workspace, PAUSE_AFTER_FAILURE, f"the app's token cannot read users: {code}")
        else:  # about this user alone: remember it for a while, and let everyone else's lookups go on
            self._cache.put(key, self.unknown, USER_ERROR_TTL)
            logger.warning("users.info answered %s (HTTP %s) for one user; reading that user's numbers in the "
                           "unknown format for %.0f s", code, status, USER_ERROR_TTL)
            return self._remembered(workspace, key[1], None, USER_ERROR_TTL)

    def _pause(self, workspace: Workspace, seconds: float, reason: str) -> _Store:
        """Pause the workspace's lookups in this process now, and (returned) in every process."""
        seconds = max(1.0, min(seconds, MAX_PAUSE))
        self._pauses.put(workspace, True, seconds)
        logger.warning("users.info failed (%s); reading new users' numbers in the unknown format for %.0f s",
                       reason, seconds)
        return None if self._stored is None else functools.partial(self._stored.pause, workspace, seconds)
