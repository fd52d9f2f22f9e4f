"""A workspace leaving: `app_uninstalled`, or its bot token revoked, deletes its installation and every row
dpscale keeps about it (Bolt's own revocation listeners would delete only the installation)."""

from __future__ import annotations

from typing import Any

from slack_bolt import App, BoltContext

from bot.slack.ids import TOKENS_REVOKED_EVENT, UNINSTALLED_EVENT
from bot.slack.plumbing import acknowledge, logged, services_of
from bot.slack.workspaces import workspace_of


def _forget(context: BoltContext) -> str:
    services = services_of(context)
    services.store.forget(workspace_of(context), services.client_id)
    return "forgotten"


@logged("uninstalled")
def forget_workspace(context: BoltContext) -> str:
    return _forget(context)


@logged("tokens_revoked")
def forget_if_bot_revoked(event: dict[str, Any], context: BoltContext) -> str:
    if not (event.get("tokens") or {}).get("bot"):
        return "user_tokens_only"  # dpscale keeps no user tokens
    return _forget(context)


def register(app: App) -> None:
    app.event(UNINSTALLED_EVENT)(ack=acknowledge, lazy=[forget_workspace])
    app.event(TOKENS_REVOKED_EVENT)(ack=acknowledge, lazy=[forget_if_bot_revoked])
