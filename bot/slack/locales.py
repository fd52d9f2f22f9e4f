"""Which locale a Slack user reads: `users.info` with `include_locale`, cached, bounded in time and size.

Slack's API must never make a user wait past the 3-second acknowledgement window: the lookup has a short
timeout and no retries; only a few lookups run at once (a request that would wait for a free one uses the
default locale instead); and after a failure (error, 429, timeout) lookups pause for a while, so that an
unavailable API costs a few slow requests rather than one per user.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from babel import Locale
from slack_bolt import BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.errors import UserInputError
from bot.formats import with_number_format
from bot.numbers import resolve_locale
from bot.slack.cache import ExpiringCache
from bot.slack.workspaces import workspace_of
from bot.store import Preferences

logger = logging.getLogger(__name__)

CACHE_ENTRIES = 10_000
CACHE_TTL = 6 * 3600.0
PAUSE_AFTER_FAILURE = 30.0
MAX_LOOKUPS_IN_FLIGHT = 4  # the rest of the server's threads never wait on Slack for a locale


class LocaleDirectory:
    def __init__(
        self,
        client: WebClient,
        default: Locale,
        clock: Callable[[], float] = time.monotonic,
        preferences: Preferences | None = None,
    ) -> None:
        self._client = client
        self._preferences = preferences
        self.default = default
        self._clock = clock
        self._cache: ExpiringCache[Locale] = ExpiringCache(CACHE_ENTRIES, CACHE_TTL, clock)
        self._paused_until = 0.0
        self._lock = threading.Lock()
        self._in_flight = threading.BoundedSemaphore(MAX_LOOKUPS_IN_FLIGHT)

    def locale_for(self, context: BoltContext, user_id: str | None) -> Locale:
        """The locale a user's request is read and answered in: the Slack language's words, and the number format
        the user chose, if any. The choice comes first and from dpscale's own database, so a user who made one
        has their numbers read right even when Slack cannot tell their language in time."""
        locale = self.locale_of(context.team_id, user_id, token=context.bot_token)
        if self._preferences is None or not user_id:
            return locale
        tag = self._preferences.number_format(workspace_of(context), user_id)
        if tag is None:
            return locale
        try:
            return with_number_format(locale, resolve_locale(tag))
        except UserInputError:
            return locale

    def locale_of(self, team_id: str | None, user_id: str | None, token: str | None = None) -> Locale:
        """The user's Slack locale, or the default when Slack does not tell us in time (`token`: the
        workspace's own bot token in multi-workspace mode)."""
        if not user_id:
            return self.default
        key = (team_id, user_id)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if self._clock() < self._paused_until or not self._in_flight.acquire(blocking=False):
            return self.default
        try:
            locale = self._look_up(user_id, token)
        finally:
            self._in_flight.release()
        if locale is None:
            return self.default
        self._cache.put(key, locale)
        return locale

    def _look_up(self, user_id: str, token: str | None) -> Locale | None:
        try:
            extra = {"token": token} if token else {}
            response = self._client.users_info(user=user_id, include_locale=True, **extra)
        except SlackApiError as error:
            retry_after = error.response.headers.get("Retry-After") if error.response is not None else None
            self._pause(float(retry_after) if retry_after and retry_after.isdigit() else PAUSE_AFTER_FAILURE,
                        f"slack error {error.response.status_code if error.response is not None else '?'}")
            return None
        except (SlackClientError, OSError, ValueError) as error:  # timeouts, refused connections, bad bodies
            self._pause(PAUSE_AFTER_FAILURE, type(error).__name__)
            return None
        tag = (response.get("user") or {}).get("locale")
        if not tag:
            return None
        try:
            return resolve_locale(tag)
        except UserInputError:
            logger.warning("users.info gave a locale Babel does not know; using the default")
            return None

    def _pause(self, seconds: float, reason: str) -> None:
        with self._lock:
            self._paused_until = self._clock() + max(1.0, min(seconds, 300.0))
        logger.warning("users.info failed (%s); using the default locale for %.0f s", reason, seconds)
