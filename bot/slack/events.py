"""Channel mentions: `@dpscale 64 2.000 90 %` answered in a thread, in the mentioning user's locale.

The event is acknowledged once its answer is recorded as follow-up work (bot/slack/followups.py), which posts
it after the acknowledgement, so a slow `chat.postMessage` never holds it up; should the database not record it
even on Slack's last redelivery, the apology is posted at once instead. Each message is answered once, whether
Slack delivers it again under the same event id or under a new one; an edited mention updates its answer in
place when the result changes. Mentions written by bots and workflows are not answered (two bots could
otherwise answer each other forever).

The message's handled-once claim tells whether some process, this one or another, is answering it: an edit that
finds no answer yet but the message claimed waits for the answer (up to `FollowUpPolicy.call_timeout`, as long as one
`chat.postMessage` may take) and then updates it, so the reader sees one answer, showing the edited result. An edit
that finds the message unclaimed claims it and is answered itself (the original, if it still arrives, is then not
answered). A post that fails gives its claim up, so a later edit is answered at once; should the first answer not
come within that time (its process stopped), the edit is answered on its own. Two edits of one message handled at the
same moment by two processes may both update the answer; the later `chat.update` to reach Slack stands. Within a
process, a lock per message, taken only after that wait (the original may need it to post what the edit waits for),
makes two edits update in turn. How an answer is put in its thread once is bot/slack/threads.py's.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext, BoltRequest
from slack_sdk import WebClient
from sqlalchemy.exc import SQLAlchemyError

from bot.engine import answer
from bot.replies import Reply
from bot.slack.ids import MENTION_EVENT
from bot.slack.mentions import mention_text
from bot.slack.plumbing import HANDED_ON, logged, read_user_locale, recipient_of, services_of
from bot.slack.preferences import choose_format_by_command, confirmed_above
from bot.slack.threads import POSTING, Message, find_posted, post_apology, put_in_thread
from bot.slack.workspaces import workspace_of
from bot.store import EVENT, Job

logger = logging.getLogger(__name__)

MENTION_WORK = "mention"
LAST_RETRY = 3  # Slack's own: its last redelivery of an event (`X-Slack-Retry-Num`), after which none comes


@logged("mention")
def accept_mention(ack: Ack, body: dict[str, Any], event: dict[str, Any], context: BoltContext,
                   client: WebClient, request: BoltRequest) -> str:
    """Record the mention's answer as work to do before Slack hears it was received, then answer it at once.

    Should the database not record it, the acknowledgement fails (bot.slack.failures answers 503) and Slack sends
    the event again; on its last redelivery the apology is posted instead, since no other comes. A redelivery of
    one already recorded is acknowledged and left to the work in hand."""
    if event.get("bot_id") or event.get("subtype") == "bot_message":
        ack()
        return "from_bot"
    services = services_of(context)
    job = Job(MENTION_WORK, str(body.get("event_id") or _message_of(event, context).claim), workspace_of(context), {
        "event": event, "locale": context["locale"], "bot_user_id": context.bot_user_id,
    })
    try:
        accepted = services.followups.accept(job)
    except SQLAlchemyError as error:
        if _retry_number(request) < LAST_RETRY:
            raise  # 503: Slack sends it again
        logger.warning("the database did not answer (%s) on Slack's last delivery of a mention: the apology is "
                       "posted instead of its answer", type(error).__name__)
        ack()
        # in memory: the database, where it would be kept, is what failed
        services.background.submit(post_apology, client, event, recipient_of(context))
        return "failed"
    if not accepted:
        ack()
        return "duplicate"
    ack()
    services.followups.run_now(job, client, context)
    return HANDED_ON


def _retry_number(request: BoltRequest) -> int:
    """Which redelivery of an event this is (0: the first delivery)."""
    number = (request.headers.get("x-slack-retry-num") or ["0"])[0]
    return int(number) if number.isdigit() else 0


def reply_in_thread(job: Job, client: WebClient, context: BoltContext) -> str:
    """Answer a mention in its thread once, or update that answer in place when the mention was edited."""
    services = services_of(context)
    event = job.payload["event"]
    edited = "edited" in event
    message = _message_of(event, context)
    # the same message under another event id is answered once: the claim is this work's, and still is when the
    # work is taken up again after its process died
    if not edited and not services.store.handled.first(EVENT, message.claim, services.policy.memory, message.workspace,
                                                       owner=job.key):
        return "duplicate"
    reply = mention_reply(event, context, edited=edited)
    return put_in_thread(client, services, job, message, event.get("thread_ts") or message.ts, reply, edited=edited)


def apologize_in_thread(job: Job, client: WebClient, context: BoltContext) -> None:
    """The mention could not be answered however often it was tried, or in time: the apology in its thread, unless
    its answer landed after all."""
    event = job.payload["event"]
    thread_ts = event.get("thread_ts") or event.get("ts")
    if job.stage == POSTING and find_posted(client, str(event.get("channel")), thread_ts, job.key) is not None:
        return
    post_apology(client, event, recipient_of(context))


def _message_of(event: dict[str, Any], context: BoltContext) -> Message:
    return Message(workspace_of(context), str(event.get("channel")), str(event.get("ts")))


def mention_reply(event: dict[str, Any], context: BoltContext, *, edited: bool = False) -> Reply:
    """The answer to a mention's text, for the whole channel to read: written so no locale can misread a figure.
    A `format=` word is saved and said, as in a command; in an edit of the mention it is not saved again (which
    would silently undo a choice made since)."""
    text = mention_text(event.get("text") or "", context.bot_user_id)
    text, chosen, saved = choose_format_by_command(context, event.get("user"), text, save=not edited)
    if chosen is not None and (chosen.is_error or not text.strip()):
        return chosen
    recipient = recipient_of(context)  # brought up to date by a choice
    return confirmed_above(answer(text, recipient.for_channel()), saved, recipient)


def register(app: App) -> None:
    app.event(MENTION_EVENT, middleware=[read_user_locale])(accept_mention)


FOLLOW_UPS = {MENTION_WORK: (reply_in_thread, apologize_in_thread, "mention")}  # bot.slack.app registers them
