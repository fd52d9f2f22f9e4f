"""Channel mentions: `@dpscale 64 2.000 90 %` answered in a thread, in the mentioning user's locale.

The event is acknowledged once its answer is recorded as follow-up work (bot/slack/followups.py), which posts
it after the acknowledgement, so a slow `chat.postMessage` never holds it up; should the database not record it
even on Slack's last redelivery, the apology is posted at once instead. Each message is answered once, whether
Slack delivers it again under the same event id or under a new one; an edited mention updates its answer in
place when the result changes. Mentions written by bots and workflows are not answered (two bots could
otherwise answer each other forever).

Where each answer is lives in the store (`store.answers`), so an edit updates it whichever process or host the edit
lands on. The message's handled-once claim tells whether some process, this one or another, is answering it: an edit
that finds no answer yet but the message claimed waits for the answer's row (up to `FollowUpPolicy.call_timeout`, as
long as one `chat.postMessage` may take) and then updates it, so the reader sees one answer, showing the edited result.
An edit that finds the message unclaimed claims it and is answered itself (the original, if it still arrives, is then
not answered). A post that fails gives its claim up, so a later edit is answered at once; should the first answer not
come within that time (its process stopped), the edit is answered on its own. Two edits of one message handled at the
same moment by two processes may both update the answer; the later `chat.update` to reach Slack stands. Within a
process, a lock per message, taken only after that wait (the original may need it to post what the edit waits for),
makes two edits update in turn.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt import Ack, App, BoltContext, BoltRequest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from sqlalchemy.exc import SQLAlchemyError

from bot.engine import answer
from bot.policy import FollowUpPolicy
from bot.reader.recipient import Recipient
from bot.replies import Reply, build_failure_reply
from bot.slack.ids import MENTION_EVENT
from bot.slack.mentions import readable_mentions, strip_own_mention
from bot.slack.plumbing import HANDED_ON, Services, logged, read_user_locale, recipient_of, services_of
from bot.slack.preferences import choose_format_by_command, confirmed_above
from bot.slack.workspaces import workspace_of
from bot.store import EVENT, Job, PostedAnswer, Store, Workspace

logger = logging.getLogger(__name__)

_MESSAGE_LOCKS = tuple(threading.Lock() for _ in range(64))
MENTION_WORK = "mention"
POSTING = "posting"  # the work's stage while its answer is being posted
ANSWER_EVENT_TYPE = "dpscale_answer"
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
        services.background.submit(_apologize_now, client, event, recipient_of(context))
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
    thread_ts = event.get("thread_ts") or message.ts
    # the same message under another event id is answered once: the claim is this work's, and still is when the
    # work is taken up again after its process died
    if not edited and not services.store.handled.first(EVENT, message.claim, services.policy.memory, message.workspace,
                                                       owner=job.key):
        return "duplicate"
    reply = mention_reply(event, context, edited=edited)
    # an edit finds the answer to update, or waits for the one being posted, before it takes the message's
    # lock: the process posting that answer, this one included, may need the lock to post it
    earlier = _earlier_answer(services.store, message, job.key, services.policy) if edited else None
    with _MESSAGE_LOCKS[hash((message.channel, message.ts)) % len(_MESSAGE_LOCKS)]:  # edits here update in turn
        if earlier is not None:
            services.followups.hold(job)
            return _update(client, services.store, message, earlier, reply, services.policy.memory)
        _post(client, services, message, thread_ts, reply, job)
    return "error" if reply.is_error else "ok"


def apologize_in_thread(job: Job, client: WebClient, context: BoltContext) -> None:
    """The mention could not be answered however often it was tried, or in time: the apology in its thread, unless
    its answer landed after all."""
    event = job.payload["event"]
    thread_ts = event.get("thread_ts") or event.get("ts")
    if job.stage == POSTING and find_posted(client, str(event.get("channel")), thread_ts, job.key) is not None:
        return
    _apologize_now(client, event, recipient_of(context))


def _apologize_now(client: WebClient, event: dict[str, Any], recipient: Recipient) -> None:
    reply = build_failure_reply(recipient)
    client.chat_postMessage(channel=str(event.get("channel")), thread_ts=event.get("thread_ts") or event.get("ts"),
                            **reply.payload())


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


@dataclass(frozen=True)
class Message:
    """A message that mentions the app: whose it is, where, and its ts — the key of its one answer."""

    workspace: Workspace
    channel: str
    ts: str

    @property
    def claim(self) -> str:
        """The handled-once key held by whichever process answers the message (the original or an edit)."""
        return f"message:{self.channel}:{self.ts}"


def _earlier_answer(store: Store, message: Message, owner: str, policy: FollowUpPolicy) -> PostedAnswer | None:
    """An edit's answer to update: the one already posted, or the one another process is posting, waited for.

    None when there is none to update. Either this edit claims the message now (no process was answering it:
    this edit is answered, and the original, should it still arrive, is not), or the claim was given up because
    that post failed, or the other process's answer did not come within `policy.call_timeout`.
    """
    deadline = time.monotonic() + policy.call_timeout
    for look in itertools.count():
        earlier = store.answers.get(message.workspace, message.channel, message.ts)
        if earlier is not None or store.handled.first(EVENT, message.claim, policy.memory, message.workspace,
                                                      owner=owner):
            return earlier
        if time.monotonic() >= deadline:
            break
        time.sleep(policy.poll_delay(look))
    logger.warning("an edited mention's first answer, being posted by another process, did not come within %g s: "
                   "the edit is answered on its own", policy.call_timeout)
    return None


def _post(client: WebClient, services: Services, message: Message, thread_ts: str | None, reply: Reply,
          job: Job) -> None:
    """Post the answer, once, and record where it is.

    The post carries the work's key as its metadata. Before it is sent the work notes that it is posting; should
    its outcome be unknown (the call timed out, or the process died during it) the thread is looked through for a
    message with that key before anything is posted again (`find_posted`). A post Slack refused gives the message
    up again, so that an edit of it, on any process, is answered at once instead of waiting for an answer that
    will never come. Held by its lease, which the heartbeat extends while the post is in flight: should another
    process hold it now, `reached` raises LeaseLostError and nothing is posted here."""
    store, followups = services.store, services.followups
    patience = followups.policy.landing_wait
    # an earlier try got as far as posting: its post, which may still be landing, is looked for first
    posted_ts = find_posted(client, message.channel, thread_ts, job.key, patience, followups.sleep) \
        if job.stage == POSTING else None
    if posted_ts is None:
        store.work.reached(job, POSTING, hold=followups.policy.lease)
        try:
            posted = client.chat_postMessage(channel=message.channel, thread_ts=thread_ts, **reply.payload(),
                                             metadata=marker(job.key))
            posted_ts = str(posted.get("ts"))
        except SlackApiError:  # Slack answered: it did not post
            store.handled.release(EVENT, message.claim)
            raise
        except (OSError, ValueError):  # no answer, or one cut short: it may have posted all the same
            posted_ts = find_posted(client, message.channel, thread_ts, job.key, patience, followups.sleep)
            if posted_ts is None:
                raise
    answered = PostedAnswer(posted_ts, fingerprint(reply))
    try:
        store.answers.put(message.workspace, message.channel, message.ts, answered, followups.policy.memory)
    except SQLAlchemyError:  # the answer stands: no apology under it; an edit of it posts a new one
        logger.warning("the answer to a mention was posted but where it is could not be recorded")


def marker(key: str) -> dict[str, Any]:
    """The metadata an answer is posted with: which work posted it (so that it is never posted twice)."""
    return {"event_type": ANSWER_EVENT_TYPE, "event_payload": {"work": key}}


def find_posted(client: WebClient, channel: str, thread_ts: str | None, key: str, patience: float = 0.0,
                sleep: Callable[[float], object] = time.sleep) -> str | None:
    """The ts of the message posted in the thread with `key`'s marker, looked for now and, if not found, again
    `patience` seconds later (a post that timed out may still be landing); None if there is none.

    Reading the thread needs the history scopes. Without them, or should Slack not answer, the post is taken to
    have landed (the ts of the thread stands for it): a message is never posted twice, though one may be lost."""
    for wait in (0.0, patience) if patience else (0.0,):
        sleep(wait)
        try:
            found = client.conversations_replies(channel=channel, ts=thread_ts or "", include_all_metadata=True,
                                                 limit=200)
        except (SlackApiError, OSError) as error:
            logger.warning("a post's outcome could not be looked up (%s): taken to have landed", type(error).__name__)
            return thread_ts or ""
        for posted in found.get("messages") or []:
            payload = (posted.get("metadata") or {}).get("event_payload") or {}
            if posted.get("metadata", {}).get("event_type") == ANSWER_EVENT_TYPE and payload.get("work") == key:
                return str(posted.get("ts"))
    return None


def _update(client: WebClient, store: Store, message: Message, earlier: PostedAnswer, reply: Reply,
            memory: float) -> str:
    """An edited mention: its answer updated in place if the result changed, left alone otherwise (compared with
    the answer as it stands now: another edit may have updated it meanwhile)."""
    earlier = store.answers.get(message.workspace, message.channel, message.ts) or earlier
    if fingerprint(reply) == earlier.fingerprint:
        return "unchanged"
    client.chat_update(channel=message.channel, ts=earlier.ts, **reply.payload())
    updated = PostedAnswer(earlier.ts, fingerprint(reply))
    store.answers.put(message.workspace, message.channel, message.ts, updated, memory)
    return "updated"


def mention_text(text: str, bot_user_id: str | None) -> str:
    """The command in a mention: the bot's own mention removed, anyone else's shown as `@name`."""
    return readable_mentions(strip_own_mention(text, bot_user_id))


def fingerprint(reply: Reply) -> str:
    """What an answer says, in a few bytes: an edit that leaves it the same leaves the posted answer alone."""
    return hashlib.sha256(json.dumps(reply.payload(), sort_keys=True).encode()).hexdigest()


def register(app: App) -> None:
    app.event(MENTION_EVENT, middleware=[read_user_locale])(accept_mention)


FOLLOW_UPS = {MENTION_WORK: (reply_in_thread, apologize_in_thread, "mention")}  # bot.slack.app registers them
