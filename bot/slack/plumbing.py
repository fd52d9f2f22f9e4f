"""What every listener needs, given once instead of repeated in each: the shared services, the reader's locale,
and one log line per request.

    app.use(provide(services))                                  # every request: context["services"]
    app.command(COMMAND, middleware=[read_user_locale])(handle)  # context["locale"] from users.info
    @logged("command") def handle(..., context): return "result" # one INFO line: kind, locale, outcome, time
"""

from __future__ import annotations

import functools
import inspect
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from babel import Locale
from slack_bolt import Ack, BoltContext

from bot.formats import parse_reader_locale
from bot.slack.locales import LocaleDirectory
from bot.slack.workspaces import workspace_of
from bot.store import Store

request_log = logging.getLogger("bot.requests")

EVENT_MEMORY_TTL = 3600.0  # Slack retries an event for at most about an hour
SHARE_MEMORY_TTL = 1800.0  # a response_url, and so a Share button, works for 30 minutes


@dataclass
class Services:
    """Long-lived parts every listener may use: built once per app, shared by all requests and threads."""

    locales: LocaleDirectory
    store: Store
    client_id: str | None = None  # multi-workspace mode: whose installations the store holds

    def first_time(self, kind: str, key: str, ttl: float, context: BoltContext) -> bool:
        """True for the first process to handle `key` (an event id, a click), False for any later one: the
        database decides, so it holds across every process and host."""
        return self.store.handled.first(kind, key, ttl, workspace_of(context))

    def __deepcopy__(self, memo: dict[int, Any]) -> Services:
        """Bolt copies a request's context for lazy listeners; the services are shared, never copied."""
        return self


def provide(services: Services) -> Callable[..., None]:
    """A global middleware putting the services on every request's context."""

    def attach_services(context: BoltContext, next: Callable[[], None]) -> None:
        context["services"] = services
        next()

    return attach_services


def services_of(context: BoltContext) -> Services:
    services: Services = context["services"]
    return services


def read_user_locale(context: BoltContext, next: Callable[[], None]) -> None:
    """Listener middleware: the locale of the user who sent the request, read by `locale_of(context)`.

    The context holds the locale's tag, not Babel's `Locale`: Bolt deep-copies the context for lazy listeners,
    and a `Locale` would take its whole CLDR data along on every copy.
    """
    context["locale"] = str(services_of(context).locales.locale_for(context, context.user_id))
    next()


def locale_of(context: BoltContext) -> Locale:
    """The locale a listener answers in (set by `read_user_locale` or by the listener itself)."""
    return parse_reader_locale(context["locale"])


def acknowledge(ack: Ack) -> None:
    """The acknowledgement of a listener whose work is done lazily, after Slack has its answer."""
    ack()


def logged(kind: str) -> Callable[[Callable[..., str | None]], Callable[..., None]]:
    """Time a listener and log one INFO line: kind, locale, the outcome it returns, duration.

    Never tokens or the user's text. The listener must take `context` (where the locale is read from); Bolt
    injects arguments by the wrapped function's own signature.
    """

    def decorate(listener: Callable[..., str | None]) -> Callable[..., None]:
        if "context" not in inspect.signature(listener).parameters:
            raise TypeError(f"{listener.__name__} must take `context` to be logged")

        @functools.wraps(listener)
        def run(**kwargs: Any) -> None:
            started = time.perf_counter()
            outcome = "failed"
            try:
                outcome = listener(**kwargs) or "ok"
            finally:
                request_log.info(
                    "kind=%s locale=%s outcome=%s duration_ms=%.1f",
                    kind,
                    kwargs["context"].get("locale") or "-",
                    outcome,
                    (time.perf_counter() - started) * 1000,
                )

        return run

    return decorate
