"""The `/dpscale` slash command: answered in-line, inside the acknowledgement, ephemeral to the user."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App

from bot.engine import answer
from bot.messages import Reply
from bot.slack.context import Services, logged_request

COMMAND = "/dpscale"


def register(app: App, services: Services) -> None:
    @app.command(COMMAND)
    def handle_dpscale(ack: Ack, command: dict[str, Any]) -> None:
        with logged_request("command") as outcome:
            locale = services.locales.locale_of(command.get("team_id"), command.get("user_id"))
            reply = answer(command.get("text") or "", locale)
            ack(**ephemeral(reply))
            outcome.locale, outcome.result = locale, "error" if reply.is_error else "ok"


def ephemeral(reply: Reply) -> dict[str, Any]:
    return {"response_type": "ephemeral", "text": reply.text, "blocks": reply.blocks}
