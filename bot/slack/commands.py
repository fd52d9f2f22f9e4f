"""The `/dpscale` slash command: answered in-line, inside the acknowledgement, ephemeral to the user.

With no text it opens the form instead (falling back to the help if Slack will not open it).
"""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.engine import answer
from bot.slack.context import Services, logged_request
from bot.slack.interactivity import encode_state, form_metadata, open_form, with_buttons
from bot.slack.preferences import choose_format_by_command

COMMAND = "/dpscale"


def register(app: App, services: Services) -> None:
    @app.command(COMMAND)
    def handle_dpscale(ack: Ack, command: dict[str, Any], client: WebClient, context: BoltContext) -> None:
        with logged_request("command") as outcome:
            text, chosen = choose_format_by_command(services, context, command.get("user_id"), command.get("text"))
            locale = services.locales.locale_for(context, command.get("user_id"))
            outcome.locale = locale
            if chosen is not None and (chosen.is_error or not text.strip()):
                ack(**chosen.payload(response_type="ephemeral"))
                outcome.result = "format_error" if chosen.is_error else "format"
                return
            if not text.strip():
                metadata = form_metadata(locale, command.get("response_url"))
                if open_form(client, command.get("trigger_id") or "", locale, metadata):
                    ack()
                    outcome.result = "form"
                    return
            reply = with_buttons(answer(text, locale), encode_state(locale, text=text), locale)
            ack(**reply.payload(response_type="ephemeral"))
            outcome.result = reply.kind
