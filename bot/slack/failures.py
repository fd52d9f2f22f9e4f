"""Unexpected failures: logged with their traceback; the user gets a short localized apology, never the error.

A failure before the acknowledgement is never answered with an empty 200, which Slack would take for "received"
and never send again: an event whose work could not be recorded (the database did not answer) is answered 503,
so that Slack delivers it again (its work, once recorded, is done once however often it comes); a command gets the
apology as its answer; anything else a 200 with nothing, as Slack expects of a click it will not resend.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from slack_bolt import App, BoltContext, BoltResponse
from sqlalchemy.exc import SQLAlchemyError

from bot.replies import build_failure_reply
from bot.slack.plumbing import locale_of, services_of

logger = logging.getLogger(__name__)


def handle_error(error: Exception, body: dict[str, Any], context: BoltContext) -> BoltResponse:
    """Bolt's error handler, for failures before or during an acknowledgement."""
    if isinstance(error, SQLAlchemyError) and body.get("type") == "event_callback":
        logger.warning("an event's work could not be recorded (%s): answered 503 for Slack to send it again",
                       type(error).__name__)
        return BoltResponse(status=503, body="")
    logger.exception("listener failed", exc_info=error)
    locale = locale_of(context) if context.get("locale") else services_of(context).locales.default
    if body.get("command"):
        payload = json.dumps(build_failure_reply(locale).payload(response_type="ephemeral"))
        return BoltResponse(status=200, body=payload, headers={"content-type": "application/json"})
    return BoltResponse(status=200, body="")


def register(app: App) -> None:
    app.error(handle_error)
