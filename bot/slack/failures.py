"""Unexpected failures: logged with their traceback; the user gets a short localized apology, never the error."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from babel import Locale
from slack_bolt import App, BoltContext, BoltResponse
from slack_sdk import WebClient

from bot.replies import build_failure_reply
from bot.slack.plumbing import locale_of, services_of

logger = logging.getLogger(__name__)


def handle_error(error: Exception, body: dict[str, Any], context: BoltContext) -> BoltResponse:
    """Bolt's error handler, for failures before or during an acknowledgement."""
    logger.exception("listener failed", exc_info=error)
    locale = locale_of(context) if context.get("locale") else services_of(context).locales.default
    if body.get("command"):
        payload = json.dumps(build_failure_reply(locale).payload(response_type="ephemeral"))
        return BoltResponse(status=200, body=payload, headers={"content-type": "application/json"})
    return BoltResponse(status=200, body="")


@contextmanager
def apologizing_on_failure(
    client: WebClient, channel: str | None, thread_ts: str | None, locale: Locale
) -> Iterator[None]:
    """For work done after the acknowledgement (lazy listeners), where Bolt's error handler is not called:
    log the failure with its traceback and post the apology to `channel` (a thread in it, or a user's DM)."""
    try:
        yield
    except Exception:
        logger.exception("lazy listener failed")
        if channel:
            reply = build_failure_reply(locale)
            try:
                client.chat_postMessage(channel=channel, thread_ts=thread_ts, **reply.payload())
            except Exception:
                logger.exception("could not post the apology either")
        raise


def register(app: App) -> None:
    app.error(handle_error)
