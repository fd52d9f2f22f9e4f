"""What every listener needs, built once per app and handed to each feature's `register`."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from babel import Locale
from slack_bolt import BoltContext

from bot.slack.locales import LocaleDirectory
from bot.slack.workspaces import workspace_of
from bot.store import Store

request_log = logging.getLogger("bot.requests")

EVENT_MEMORY_TTL = 3600.0  # Slack retries an event for at most about an hour
SHARE_MEMORY_TTL = 1800.0  # a response_url, and so a Share button, works for 30 minutes


@dataclass
class Services:
    locales: LocaleDirectory
    store: Store

    def first_time(self, kind: str, key: str, ttl: float, context: BoltContext) -> bool:
        """True for the first process to handle `key` (an event id, a click), False for any later one."""
        return self.store.handled.first(kind, key, ttl, workspace_of(context))


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


def share_key(body: dict[str, Any], action: dict[str, Any]) -> str:
    """What makes two Share clicks the same: the user, the message they clicked in, and the result it carries."""
    container = body.get("container") or {}
    parts = [body.get("user", {}).get("id"), container.get("channel_id") or (body.get("channel") or {}).get("id"),
             container.get("message_ts"), action.get("value")]
    return hashlib.sha256("\x1f".join(str(p or "") for p in parts).encode()).hexdigest()
