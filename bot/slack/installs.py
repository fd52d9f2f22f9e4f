"""A workspace leaving: `app_uninstalled`, or its bot token revoked, deletes its installation and every row
dpscale keeps about it (Bolt's own revocation listeners would delete only the installation).

The deletion is follow-up work (bot/slack/followups.py): recorded before Slack hears the event was received, so
that a process that dies in the middle of it leaves it to the next one, which deletes what is left. Should the
database not record it, the event is answered 503 and Slack sends it again.
"""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.slack.ids import TOKENS_REVOKED_EVENT, UNINSTALLED_EVENT
from bot.slack.plumbing import HANDED_ON, logged, services_of
from bot.slack.workspaces import workspace_of
from bot.store import Job

FORGET_WORK = "forget"  # the kind of follow-up work that deletes a workspace's rows: it needs no token


def _accept(ack: Ack, body: dict[str, Any], context: BoltContext, client: WebClient) -> str:
    services = services_of(context)
    job = Job(FORGET_WORK, str(body.get("event_id") or ""), workspace_of(context))
    if not services.followups.accept(job):  # raises if it cannot be recorded: answered 503, sent again
        ack()
        return "duplicate"
    ack()
    services.followups.run_now(job, client, context)
    return HANDED_ON


@logged("uninstalled")
def forget_workspace(ack: Ack, body: dict[str, Any], context: BoltContext, client: WebClient) -> str:
    return _accept(ack, body, context, client)


@logged("tokens_revoked")
def forget_if_bot_revoked(ack: Ack, body: dict[str, Any], event: dict[str, Any], context: BoltContext,
                          client: WebClient) -> str:
    if not (event.get("tokens") or {}).get("bot"):
        ack()
        return "user_tokens_only"  # dpscale keeps no user tokens
    return _accept(ack, body, context, client)


def forget(job: Job, client: WebClient, context: BoltContext) -> str:
    """The follow-up work: delete the workspace's installation and rows, all but this work's own (finished next)."""
    services = services_of(context)
    services.store.forget(job.workspace, services.client_id, keep=job.id)
    return "forgotten"


def cannot_forget(job: Job, client: WebClient, context: BoltContext) -> None:
    """No one to tell: the workspace is gone. The operator reads the ERROR the follow-up work writes."""


def register(app: App) -> None:
    app.event(UNINSTALLED_EVENT)(forget_workspace)
    app.event(TOKENS_REVOKED_EVENT)(forget_if_bot_revoked)


FOLLOW_UPS = {FORGET_WORK: (forget, cannot_forget, "uninstalled")}  # bot.slack.app registers them
