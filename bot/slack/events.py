"""Channel mentions: `@dpscale 64 2.000 90 %` answered in a thread, in the mentioning user's locale.

The event is acknowledged at once; the answer is posted by a lazy listener, so a slow `chat.postMessage`
never holds up the acknowledgement. An event Slack delivers again is answered only once.
"""

from __future__ import annotations

import re
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.engine import answer
from bot.slack.context import EVENT_MEMORY_TTL, Services, logged_request
from bot.slack.failures import apologizing_on_failure
from bot.store import EVENT

MENTION = "app_mention"


def register(app: App, services: Services) -> None:
    def acknowledge(ack: Ack) -> None:
        ack()

    def reply_in_thread(body: dict[str, Any], event: dict[str, Any], context: BoltContext, client: WebClient) -> None:
        with logged_request("mention") as outcome:
            event_id = body.get("event_id") or f"{event.get('channel')}:{event.get('ts')}"
            if not services.first_time(EVENT, event_id, EVENT_MEMORY_TTL, context):
                outcome.result = "duplicate"
                return
            locale = services.locales.locale_for(context, event.get("user"))
            outcome.locale = locale
            thread_ts = event.get("thread_ts") or event.get("ts")
            with apologizing_on_failure(client, event.get("channel"), thread_ts, locale):
                reply = answer(strip_mention(event.get("text") or "", context.bot_user_id), locale)
                client.chat_postMessage(channel=event["channel"], thread_ts=thread_ts, **reply.payload())
            outcome.result = "error" if reply.is_error else "ok"

    app.event(MENTION)(ack=acknowledge, lazy=[reply_in_thread])


def strip_mention(text: str, bot_user_id: str | None) -> str:
    """Remove the bot's own mention (`<@U123>` or `<@U123|name>`); other mentions stay for the parser to reject."""
    if not bot_user_id:
        return text
    return re.sub(rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>", " ", text)
