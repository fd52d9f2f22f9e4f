"""Channel mentions: `@dpscale 64 2.000 90 %` answered in a thread, in the mentioning user's locale; and Slack's
notice that it is throttling the app's events.

The event is acknowledged at once; the answer is posted by a lazy listener, so a slow `chat.postMessage`
never holds up the acknowledgement. Each message is answered once, whether Slack delivers it again under the
same event id or under a new one; an edited mention updates its answer in place when the result changes.
Mentions written by bots and workflows are not answered (two bots could otherwise answer each other forever).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from datetime import UTC, datetime
from typing import Any

from slack_bolt import App, BoltContext, BoltResponse
from slack_sdk import WebClient

from bot.engine import answer
from bot.numbers import for_channel
from bot.replies import Reply
from bot.slack.cache import ExpiringCache
from bot.slack.failures import apologizing_on_failure
from bot.slack.ids import MENTION_EVENT, RATE_LIMITED_EVENT
from bot.slack.mentions import readable_mentions, strip_own_mention
from bot.slack.plumbing import (
    EVENT_MEMORY_TTL,
    PostedAnswer,
    acknowledge,
    locale_of,
    logged,
    read_user_locale,
    services_of,
)
from bot.store import EVENT

logger = logging.getLogger(__name__)

EVENTS_PER_WINDOW = 30_000  # Slack: events from one workspace to one app in WINDOW_MINUTES
WINDOW_MINUTES = 60
_MESSAGE_LOCKS = tuple(threading.Lock() for _ in range(64))


@logged("mention")
def reply_in_thread(body: dict[str, Any], event: dict[str, Any], context: BoltContext, client: WebClient) -> str:
    if event.get("bot_id") or event.get("subtype") == "bot_message":
        return "from_bot"
    services = services_of(context)
    channel, ts = event.get("channel"), event.get("ts")
    event_id = body.get("event_id")
    if event_id and not services.first_time(EVENT, event_id, EVENT_MEMORY_TTL, context):
        return "duplicate"
    edited = "edited" in event
    if not edited and not services.first_time(EVENT, f"message:{channel}:{ts}", EVENT_MEMORY_TTL, context):
        return "duplicate"  # the same message under another event id
    locale = locale_of(context)
    thread_ts = event.get("thread_ts") or ts
    # one message at a time: an edit that arrives while the first answer is being posted waits for its ts
    with _MESSAGE_LOCKS[hash((channel, ts)) % len(_MESSAGE_LOCKS)], apologizing_on_failure(
        client, channel, thread_ts, locale
    ):
        # the whole channel reads the answer: written so no locale can misread a figure
        reply = answer(mention_text(event.get("text") or "", context.bot_user_id), for_channel(locale))
        earlier = services.answers.get((channel, ts)) if edited else None
        if earlier is not None:
            return _update(client, services.answers, (channel, ts), earlier, reply)
        if edited:  # an edit that comes first: the original, if it still arrives, is not answered again
            services.first_time(EVENT, f"message:{channel}:{ts}", EVENT_MEMORY_TTL, context)
        posted = client.chat_postMessage(channel=event["channel"], thread_ts=thread_ts, **reply.payload())
        services.answers.put((channel, ts), PostedAnswer(str(posted.get("ts")), fingerprint(reply)))
    return "error" if reply.is_error else "ok"


def _update(
    client: WebClient, answers: ExpiringCache[PostedAnswer], message: tuple[Any, Any], earlier: PostedAnswer,
    reply: Reply,
) -> str:
    """An edited mention: its answer updated in place if the result changed, left alone otherwise."""
    if fingerprint(reply) == earlier.fingerprint:
        return "unchanged"
    client.chat_update(channel=message[0], ts=earlier.ts, **reply.payload())
    answers.put(message, PostedAnswer(earlier.ts, fingerprint(reply)))
    return "updated"


def mention_text(text: str, bot_user_id: str | None) -> str:
    """The command in a mention: the bot's own mention removed, anyone else's shown as `@name`."""
    return readable_mentions(strip_own_mention(text, bot_user_id))


def fingerprint(reply: Reply) -> str:
    return hashlib.sha256(json.dumps(reply.payload(), sort_keys=True).encode()).hexdigest()


def note_rate_limit(body: dict[str, Any], context: BoltContext) -> BoltResponse | None:
    """Slack's `app_rate_limited` notice (a payload with no inner event, sent without any subscription):
    acknowledged and logged as one WARNING per notice. None for every other request, which goes on."""
    if body.get("type") != RATE_LIMITED_EVENT:
        return None
    team, minute = body.get("team_id") or "-", body.get("minute_rate_limited")
    if services_of(context).first_time(EVENT, f"rate_limited:{team}:{minute}", EVENT_MEMORY_TTL, context):
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


def register(app: App) -> None:
    app.event(MENTION_EVENT, middleware=[read_user_locale])(ack=acknowledge, lazy=[reply_in_thread])
