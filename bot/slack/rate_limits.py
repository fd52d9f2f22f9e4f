"""Slack's notice that it is throttling the app's events (`app_rate_limited`): acknowledged, and told the operator
once per workspace and minute, since answers to mentions stop there until the window passes."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from slack_bolt import BoltContext, BoltResponse

from bot.slack.ids import RATE_LIMITED_EVENT
from bot.slack.plumbing import services_of
from bot.store import EVENT

logger = logging.getLogger(__name__)

EVENTS_PER_WINDOW = 30_000  # Slack: events from one workspace to one app in WINDOW_MINUTES
WINDOW_MINUTES = 60


def note_rate_limit(body: dict[str, Any], context: BoltContext) -> BoltResponse | None:
    """Slack's `app_rate_limited` notice (a payload with no inner event, sent without any subscription):
    acknowledged and logged as one WARNING per notice. None for every other request, which goes on."""
    if body.get("type") != RATE_LIMITED_EVENT:
        return None
    team, minute = body.get("team_id") or "-", body.get("minute_rate_limited")
    services = services_of(context)
    if services.first_time(EVENT, f"rate_limited:{team}:{minute}", services.policy.memory, context):
        logger.warning(
            "app_rate_limited: Slack is dropping this app's events from team %s since %s: more than %d events "
            "within a %d-minute window; answers to mentions in that workspace stop until the window passes",
            team, _minute(minute), EVENTS_PER_WINDOW, WINDOW_MINUTES,
        )
    return BoltResponse(status=200, body="")


def _minute(epoch: object) -> str:
    try:
        return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%d %H:%M UTC")  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError, OSError):
        return "an unknown minute"
