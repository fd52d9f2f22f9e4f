"""Channel mentions: `@dpscale 64 2.000 90 %` answered in a thread, in the mentioning user's locale.

The event is acknowledged at once; the answer is posted by a lazy listener, so a slow `chat.postMessage`
never holds up the acknowledgement. An event Slack delivers again is answered only once.
"""

from __future__ import annotations

import re
from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from bot.engine import answer
from bot.numbers import for_channel
from bot.slack.failures import apologizing_on_failure
from bot.slack.ids import MENTION_EVENT
from bot.slack.plumbing import EVENT_MEMORY_TTL, acknowledge, locale_of, logged, read_user_locale, services_of
from bot.store import EVENT


@logged("mention")
def reply_in_thread(body: dict[str, Any], event: dict[str, Any], context: BoltContext, client: WebClient) -> str:
    event_id = body.get("event_id") or f"{event.get('channel')}:{event.get('ts')}"
    if not services_of(context).first_time(EVENT, event_id, EVENT_MEMORY_TTL, context):
        return "duplicate"
    locale = locale_of(context)
    thread_ts = event.get("thread_ts") or event.get("ts")
    with apologizing_on_failure(client, event.get("channel"), thread_ts, locale):
        # the whole channel reads the answer: written so no locale can misread a figure
        reply = answer(strip_mention(event.get("text") or "", context.bot_user_id), for_channel(locale))
        client.chat_postMessage(channel=event["channel"], thread_ts=thread_ts, **reply.payload())
    return "error" if reply.is_error else "ok"


def strip_mention(text: str, bot_user_id: str | None) -> str:
    """Remove the bot's own mention (`<@U123>` or `<@U123|name>`); other mentions stay for the parser to reject."""
    if not bot_user_id:
        return text
    return re.sub(rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>", " ", text)


def register(app: App) -> None:
    app.event(MENTION_EVENT, middleware=[read_user_locale])(ack=acknowledge, lazy=[reply_in_thread])
