"""The scopes the app was granted, checked at start: a missing history scope is said in one WARNING then, not
found out when an answer that needed it is lost.

Reading a thread (`conversations.replies`) is how an answer whose post timed out, or whose process died while
posting, is looked for before it is posted again (bot/slack/threads.py); without the history scopes it is taken to
have landed. With SLACK_BOT_TOKEN the scopes are those `auth.test` answered with at start (its `x-oauth-scopes`
header, read from Bolt's own call); in multi-workspace mode, those SLACK_SCOPES asks each installation for.
"""

from __future__ import annotations

import logging

from slack_bolt import App
from slack_bolt.middleware.authorization import SingleTeamAuthorization

from bot.settings import Settings

log = logging.getLogger("bot.server")

HISTORY_SCOPES = ("channels:history", "groups:history", "im:history", "mpim:history")


def granted_scopes(app: App, settings: Settings) -> list[str] | None:
    """The scopes the bot holds or asks for; None where Slack did not say (no header on its answer)."""
    if settings.multi_workspace:
        return settings.scopes
    for middleware in getattr(app, "_middleware_list", []):
        answered = getattr(middleware, "auth_test_result", None) if isinstance(
            middleware, SingleTeamAuthorization) else None
        if answered is not None:
            header = next((value for name, value in (answered.headers or {}).items()
                           if name.lower() == "x-oauth-scopes"), None)
            if isinstance(header, list):
                header = header[0] if header else None
            return None if header is None else [scope.strip() for scope in str(header).split(",") if scope.strip()]
    return None


def warn_of_missing_scopes(app: App, settings: Settings) -> list[str]:
    """One WARNING naming the history scopes the app lacks, and what that costs; the scopes missing."""
    granted = granted_scopes(app, settings)
    missing = [scope for scope in HISTORY_SCOPES if granted is not None and scope not in granted]
    if missing:
        log.warning("the app lacks the %s scope%s: a mention's answer whose post timed out, or whose process died "
                    "while posting, cannot be looked for in its thread and is taken to have landed, so it may be "
                    "lost; add %s in the app's settings (OAuth & Permissions) and reinstall it",
                    ", ".join(missing), "" if len(missing) == 1 else "s", "it" if len(missing) == 1 else "them")
    return missing
