"""A mention's answer in its thread, exactly once: posted with a marker naming the work that posts it, looked for
in the thread again wherever a post's outcome is unknown, updated in place after an edit of the mention, and the
apology where no answer can be given.

    put_in_thread(client, services, job, Message(workspace, channel, ts), thread_ts, reply, edited=False)

Where each answer is lives in the store (`store.answers`), so an edit updates it whichever process or host the edit
lands on; an edit whose first answer another process is still posting waits for it as `FollowUpPolicy` says
(bot/slack/events.py tells which edits those are). Reading a thread needs the history scopes (bot/slack/scopes.py).
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

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from sqlalchemy.exc import SQLAlchemyError

from bot.policy import FollowUpPolicy
from bot.reader.recipient import Recipient
from bot.replies import Reply, build_failure_reply
from bot.slack.plumbing import Services
from bot.store import EVENT, Job, PostedAnswer, Store, Workspace

__all__ = ["POSTING", "Message", "find_posted", "post_apology", "put_in_thread"]

logger = logging.getLogger("bot.slack.events")  # the mention's lines, under the name they have always had
_MESSAGE_LOCKS = tuple(threading.Lock() for _ in range(64))
POSTING = "posting"  # the work's stage while its answer is being posted
ANSWER_EVENT_TYPE = "dpscale_answer"


def put_in_thread(client: WebClient, services: Services, job: Job, message: Message, thread_ts: str | None,
                  reply: Reply, *, edited: bool) -> str:
    """`reply` in `message`'s thread, once: the answer posted, or, for an edit of the mention, the answer already
    there (or being posted, waited for) updated in place; a word for the log."""
    # an edit finds the answer to update, or waits for the one being posted, before it takes the message's
    # lock: the process posting that answer, this one included, may need the lock to post it
    earlier = _earlier_answer(services.store, message, job.key, services.policy) if edited else None
    with _MESSAGE_LOCKS[hash((message.channel, message.ts)) % len(_MESSAGE_LOCKS)]:  # edits here update in turn
        if earlier is not None:
            services.followups.hold(job)
            return _update(client, services.store, message, earlier, reply, services.policy.memory)
        _post(client, services, message, thread_ts, reply, job)
    return "error" if reply.is_error else "ok"


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


def fingerprint(reply: Reply) -> str:
    """What an answer says, in a few bytes: an edit that leaves it the same leaves the posted answer alone."""
    return hashlib.sha256(json.dumps(reply.payload(), sort_keys=True).encode()).hexdigest()


def post_apology(client: WebClient, event: dict[str, Any], recipient: Recipient) -> None:
    """The apology for a mention that could not be answered, in its thread."""
    reply = build_failure_reply(recipient)
    client.chat_postMessage(channel=str(event.get("channel")), thread_ts=event.get("thread_ts") or event.get("ts"),
                            **reply.payload())
