"""Block Kit primitives, and the `Reply` every listener sends: plain dicts, built the same way everywhere.

Text typed by a user is escaped before it is echoed, so `<!channel>` or `<@U…>` in a command can never ping anyone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import orjson

Block = dict[str, Any]
HEADER_LIMIT = 150  # Slack cuts a header's plain text at 150 characters

DIVIDER: Block = {"type": "divider"}


class ReplyKind(StrEnum):
    RESULT = "result"
    HELP = "help"
    ERROR = "error"


@dataclass(frozen=True)
class Reply:
    """A message ready to send: Block Kit blocks plus the plain `text` Slack shows in notifications."""

    text: str
    blocks: list[Block]
    kind: ReplyKind = ReplyKind.RESULT
    locale: str | None = None  # the locale the body is written in (a `lang=` word's), for what goes with it

    @property
    def is_error(self) -> bool:
        return self.kind is ReplyKind.ERROR

    def payload(self, **extra: Any) -> dict[str, Any]:
        """The message as Slack's APIs take it (`text` and `blocks`), with any `extra` fields."""
        return {"text": self.text, "blocks": self.blocks, **extra}

    def json(self, **extra: Any) -> str:
        """`payload(**extra)` as JSON text (UTF-8, compact), the text of a slash command's acknowledgement:
        written by orjson, or by the standard library for what orjson refuses (a lone surrogate)."""
        payload = self.payload(**extra)
        try:
            return orjson.dumps(payload).decode()
        except orjson.JSONEncodeError:
            return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))

    def with_blocks(self, blocks: list[Block]) -> Reply:
        return Reply(text=self.text, blocks=blocks, kind=self.kind, locale=self.locale)


def escape(text: str) -> str:
    """Neutralise Slack markup in user text: `<!channel>` becomes inert `&lt;!channel&gt;`."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def code(text: str) -> str:
    """User or example text as inline code, escaped; a backtick inside would end the code span, so it is swapped."""
    return "`" + escape(text).replace("`", "'") + "`"


def header(text: str) -> Block:
    return {"type": "header", "text": {"type": "plain_text", "text": text[:HEADER_LIMIT], "emoji": True}}


def section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def fields(pairs: list[tuple[str, str]]) -> Block:
    return {
        "type": "section",
        "fields": [{"type": "mrkdwn", "text": f"*{label}*\n{value}"} for label, value in pairs],
    }


def context(texts: list[str]) -> Block:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text} for text in texts]}


def warning(message: str, kind: ReplyKind = ReplyKind.ERROR) -> Reply:
    """A one-section reply that leads with a warning sign."""
    return Reply(text=message, blocks=[section(":warning: " + message)], kind=kind)
