"""Unexpected failures: logged with their traceback; the user gets a short localized apology, never the error.

A failure before the acknowledgement is never answered with an empty 200, which Slack would take for "received"
and never send again: an event whose work could not be recorded (the database did not answer) is answered 503,
so that Slack delivers it again (its work, once recorded, is done once however often it comes); a command gets the
note to try again in a moment, and so does a form (which stays open) or a click (beside its message).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from slack_bolt import App, BoltContext, BoltResponse
from sqlalchemy.exc import SQLAlchemyError

from bot.reader.recipient import Recipient
from bot.replies import build_failure_reply, build_unavailable_reply, unavailable_text
from bot.slack.delivery import post_to_response_url
from bot.slack.plumbing import recipient_of, services_of

logger = logging.getLogger(__name__)


def handle_error(error: Exception, body: dict[str, Any], context: BoltContext) -> BoltResponse:
    """Bolt's error handler, for failures before or during an acknowledgement."""
    recipient = recipient_of(context) if context.get("locale") else Recipient.of(services_of(context).locales.default)
    if isinstance(error, SQLAlchemyError):
        return store_unavailable(error, body, context, recipient)
    logger.exception("listener failed", exc_info=error)
    if body.get("command"):
        return _json(build_failure_reply(recipient).payload(response_type="ephemeral"))
    return BoltResponse(status=200, body="")


def store_unavailable(error: Exception, body: dict[str, Any], context: BoltContext,
                      recipient: Recipient) -> BoltResponse:
    """The database did not answer before the acknowledgement (a workspace's installation, work to record): an
    event is answered 503, for Slack to send it again; a command gets a note to try again in a moment; a form stays
    open with that note under its first field; a click gets the note beside the message it was in."""
    kind = body.get("type")
    logger.warning("the database did not answer before the acknowledgement (%s) for %s", type(error).__name__,
                   "an event, answered 503 for Slack to send it again" if kind == "event_callback" else "a request")
    if kind == "event_callback":
        return BoltResponse(status=503, body="")
    note = build_unavailable_reply(recipient)
    if body.get("command"):
        return _json(note.payload(response_type="ephemeral"))
    if kind == "view_submission":
        first = next((b.get("block_id") for b in (body.get("view") or {}).get("blocks") or []
                      if b.get("type") == "input"), None)
        if first:
            return _json({"response_action": "errors", "errors": {first: unavailable_text(recipient)}})
    urls: list[dict[str, Any]] = body.get("response_urls") or []
    url = body.get("response_url") or (urls[0].get("response_url") if urls else None)
    if url:
        services_of(context).background.submit(post_to_response_url, url,
                                               **note.payload(response_type="ephemeral", replace_original=False))
    return BoltResponse(status=200, body="")


def _json(payload: dict[str, Any]) -> BoltResponse:
    return BoltResponse(status=200, body=json.dumps(payload), headers={"content-type": "application/json"})


def register(app: App) -> None:
    app.error(handle_error)
