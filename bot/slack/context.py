"""What every listener needs, built once per app and handed to each feature's `register`."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from babel import Locale

from bot.slack.locales import LocaleDirectory
from bot.slack.memory import ExpiringCache

request_log = logging.getLogger("bot.requests")

EVENT_MEMORY_ENTRIES = 10_000
EVENT_MEMORY_TTL = 3600.0  # Slack retries an event for at most about an hour


@dataclass
class Services:
    locales: LocaleDirectory
    seen_events: ExpiringCache[bool] = field(
        default_factory=lambda: ExpiringCache(EVENT_MEMORY_ENTRIES, EVENT_MEMORY_TTL)
    )


@dataclass
class Outcome:
    """Filled in by a listener as it goes; logged as one line when it is done."""

    kind: str
    locale: Locale | None = None
    result: str = "unfinished"


@contextmanager
def logged_request(kind: str) -> Iterator[Outcome]:
    """One INFO line per handled request: kind, locale, outcome and duration; never tokens or the user's text."""
    outcome = Outcome(kind)
    started = time.perf_counter()
    try:
        yield outcome
    except Exception:
        outcome.result = "failed"
        raise
    finally:
        request_log.info(
            "kind=%s locale=%s outcome=%s duration_ms=%.1f",
            outcome.kind,
            outcome.locale or "-",
            outcome.result,
            (time.perf_counter() - started) * 1000,
        )
