"""The `/dpscale` slash command: answered in-line, inside the acknowledgement, ephemeral to the user.

With no text it opens the form instead (falling back to the help if Slack will not open it).
"""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.engine import answer
from bot.replies import ReplyKind
from bot.slack.forms import open_form
from bot.slack.ids import COMMAND
from bot.slack.plumbing import locale_of, logged, read_user_locale
from bot.slack.preferences import choose_format_by_command
from bot.slack.state import FormMetadata, ResultState
from bot.slack.views import with_buttons


@logged("command")
def handle_command(ack: Ack, command: dict[str, Any], client: WebClient, context: BoltContext) -> str:
    text, chosen = choose_format_by_command(context, command.get("user_id"), command.get("text"))
    locale = locale_of(context)
    if chosen is not None and (chosen.is_error or not text.strip()):
        ack(**chosen.payload(response_type="ephemeral"))
        return "format_error" if chosen.is_error else "format"
    if not text.strip():
        metadata = FormMetadata.of(locale, command.get("response_url"))
        if open_form(client, command.get("trigger_id") or "", locale, metadata):
            ack()
            return "form"
    reply = answer(text, locale)
    if reply.kind is ReplyKind.RESULT:  # only a result carries state; a text too long to carry is an error reply
        reply = with_buttons(reply, ResultState.of_text(locale, text))
    ack(**reply.payload(response_type="ephemeral"))
    return reply.kind.value


def register(app: App) -> None:
    app.command(COMMAND, middleware=[read_user_locale])(handle_command)
