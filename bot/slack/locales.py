"""Which locale a Slack user reads: `users.info` with `include_locale`, cached, and bounded in time.

Slack's API must never make a user wait past the 3-second acknowledgement window, and a user whose locale is not
known must never have their numbers read in someone else's format. So:

- a lookup runs in its own thread and the request waits for it only until a deadline (DPSCALE_LOCALE_TIMEOUT, or
  what the request has left); the lookup's client waits longer, so that a lookup that finishes later is still
  cached for the user's next request;
- concurrent requests of one user share one lookup; lookups of different users run side by side, up to
  `MAX_LOOKUPS` at once (a lookup outlives a request that stopped waiting for it, so the server's threads alone do
  not bound them): a burst of new users is looked up together, and a request beyond the bound is read in the
  unknown format, its user looked up on their next request;
- a user whose locale is not known in time is read in the *unknown format* (`bot.numbers.UNKNOWN`): a number
  that Slack's locales read differently is asked about, never computed under a guess;
- only what says something about Slack's health pauses lookups for everyone: a rate limit (for its
  `Retry-After`), a server error, a timeout. An error about one user (`user_not_found`, `user_not_visible`, any
  other `ok: false` answer) concerns that user alone, and the log line names it.
"""

from __future__ import annotations

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
from bot.formats import with_number_format
from bot.numbers import resolve_locale, unknown_locale
from bot.slack.cache import ExpiringCache
from bot.slack.workspaces import workspace_of
from bot.store import Preferences

logger = logging.getLogger(__name__)

CACHE_ENTRIES = 10_000
CACHE_TTL = 6 * 3600.0
PAUSE_AFTER_FAILURE = 30.0  # after a server error or a timeout, or a rate limit without Retry-After
MAX_PAUSE = 300.0
USER_ERROR_TTL = 600.0  # a user Slack would not describe is not asked about again for this long
DEFAULT_DEADLINE = 1.5
MAX_LOOKUPS = 64  # users.info calls in flight at once, per process
# ok:false answers about the app's own token or scopes: no user's lookup can succeed until an operator acts
APP_ERRORS = frozenset({"invalid_auth", "not_authed", "account_inactive", "token_revoked", "missing_scope",
                        "no_permission", "team_access_not_granted"})


@dataclass
class _Lookup:
    """One `users.info` call in flight, shared by every request of that user that arrives meanwhile."""

    done: threading.Event = field(default_factory=threading.Event)
    locale: Locale | None = None


class LocaleDirectory:
    def __init__(
        self,
        client: WebClient,
        default: Locale,
        clock: Callable[[], float] = time.monotonic,
        deadline: float = DEFAULT_DEADLINE,
        preferences: Preferences | None = None,
    ) -> None:
        self._client = client
        self._preferences = preferences
        self.default = default
        self.unknown = unknown_locale(default)
        self._clock = clock
        self._deadline = deadline
        self._cache: ExpiringCache[Locale] = ExpiringCache(CACHE_ENTRIES, CACHE_TTL, clock)
        self._paused_until = 0.0
        self._lock = threading.Lock()
        self._in_flight: dict[tuple[str | None, str], _Lookup] = {}

    def locale_for(self, context: BoltContext, user_id: str | None, wait: float | None = None) -> Locale:
        """The locale a user's request is read and answered in: the Slack language's words, and the number format
        the user chose, if any. The choice comes first and from dpscale's own database, so a user who made one
        has their numbers read right even when Slack cannot tell their language in time. `wait`: the seconds the
        request has left, if fewer than the lookup's own deadline."""
        locale = self.locale_of(context.team_id, user_id, token=context.bot_token, wait=wait)
        if self._preferences is None or not user_id:
            return locale
        try:
            tag = self._preferences.number_format(workspace_of(context), user_id)
        except SQLAlchemyError as error:  # the Slack language's format, said under the answer (bot.slack.commands)
            logger.warning("a saved number format could not be read (%s): the Slack language's is used",
                           type(error).__name__)
            context["preference_unread"] = True
            return locale
        if tag is None:
            return locale
        try:
            return with_number_format(locale, resolve_locale(tag))
        except UserInputError:
            return locale

    def locale_of(
        self, team_id: str | None, user_id: str | None, token: str | None = None, wait: float | None = None
    ) -> Locale:
        """The user's Slack locale, or the unknown reader (`en_US@unknown`) when Slack does not tell us in time
        (`token`: the workspace's own bot token in multi-workspace mode; `wait`: at most this many seconds, if
        fewer than the deadline)."""
        if not user_id:
            return self.unknown
        key = (team_id, user_id)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        with self._lock:
            if self._clock() < self._paused_until:
                return self.unknown
            lookup = self._in_flight.get(key)
            if lookup is None:
                if len(self._in_flight) >= MAX_LOOKUPS:
                    logger.info("%d users.info lookups already running; reading this user's numbers in the unknown "
                                "format", MAX_LOOKUPS)
                    return self.unknown
                lookup = self._in_flight[key] = _Lookup()
                threading.Thread(target=self._run, args=(key, lookup, token), daemon=True).start()
        patience = self._deadline if wait is None else max(0.0, min(wait, self._deadline))
        if not lookup.done.wait(patience):
            logger.info("users.info did not answer within %.1f s; reading this user's numbers in the unknown format",
                        patience)
        return lookup.locale or self.unknown

    def _run(self, key: tuple[str | None, str], lookup: _Lookup, token: str | None) -> None:
        try:
            lookup.locale = self._look_up(key, token)
        finally:
            with self._lock:
                self._in_flight.pop(key, None)
            lookup.done.set()

    def _look_up(self, key: tuple[str | None, str], token: str | None) -> Locale | None:
        try:
            extra = {"token": token} if token else {}
            response = self._client.users_info(user=key[1], include_locale=True, **extra)
        except SlackApiError as error:
            self._failed(key, error)
            return None
        except (SlackClientError, OSError, ValueError) as error:  # timeouts, refused connections, bad bodies
            self._pause(PAUSE_AFTER_FAILURE, f"no answer ({type(error).__name__})")
            return None
        tag = (response.get("user") or {}).get("locale")
        locale = self.unknown
        if not tag:
            logger.warning("users.info gave no locale for this user; reading their numbers in the unknown format")
        else:
            try:
                locale = resolve_locale(tag)
            except UserInputError:
                logger.warning("users.info gave a locale Babel does not know; reading this user's numbers in the "
                               "unknown format")
        self._cache.put(key, locale)
        return locale

    def _failed(self, key: tuple[str | None, str], error: SlackApiError) -> None:
        response = error.response
        status = response.status_code if response is not None else 0
        code = str((response.data if response is not None and isinstance(response.data, dict) else {})
                   .get("error") or "unknown_error")
        if status == 429:
            retry_after = str(response.headers.get("Retry-After") or "") if response is not None else ""
            seconds = float(retry_after) if retry_after.isdigit() else PAUSE_AFTER_FAILURE
            self._pause(seconds, "rate limited, Retry-After " + (retry_after or "missing"))
        elif status >= 500 or status == 0:
            self._pause(PAUSE_AFTER_FAILURE, f"server error, HTTP {status}")
        elif code in APP_ERRORS:
            self._pause(PAUSE_AFTER_FAILURE, f"the app's token cannot read users: {code}")
        else:  # about this user alone: remember it for a while, and let everyone else's lookups go on
            self._cache.put(key, self.unknown, USER_ERROR_TTL)
            logger.warning("users.info answered %s (HTTP %s) for one user; reading that user's numbers in the "
                           "unknown format for %.0f s", code, status, USER_ERROR_TTL)

    def _pause(self, seconds: float, reason: str) -> None:
        seconds = max(1.0, min(seconds, MAX_PAUSE))
        with self._lock:
            self._paused_until = self._clock() + seconds
        logger.warning("users.info failed (%s); reading new users' numbers in the unknown format for %.0f s",
                       reason, seconds)
