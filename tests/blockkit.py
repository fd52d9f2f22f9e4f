"""Block Kit's published limits, checked with slack-sdk's own models plus the message-level limits."""

from __future__ import annotations

import json
import re
from typing import Any

from slack_sdk.models.blocks import Block

MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
MAX_BLOCKS_JSON = 12_000
BROADCAST = re.compile(r"<!(channel|here|everyone)|<@[UW]|<#C|<!subteam")


def assert_within_limits(blocks: list[dict[str, Any]], *, max_blocks: int = MAX_MESSAGE_BLOCKS) -> None:
    assert 0 < len(blocks) <= max_blocks
    assert len(json.dumps(blocks, ensure_ascii=False)) < MAX_BLOCKS_JSON
    for raw in blocks:
        block = Block.parse(raw)
        assert block is not None, raw
        block.validate_json()  # raises SlackObjectFormationError past any per-field limit
        if raw["type"] == "section":
            assert len(raw.get("text", {}).get("text", "")) <= 3000
            assert len(raw.get("fields", [])) <= 10
            assert all(len(f["text"]) <= 2000 for f in raw.get("fields", []))
        if raw["type"] == "header":
            assert len(raw["text"]["text"]) <= 150
        if raw["type"] == "context":
            assert len(raw["elements"]) <= 10


def assert_no_broadcast(payload: Any) -> None:
    """No mention, broadcast or channel link that Slack would act on appears anywhere in the payload."""
    assert not BROADCAST.search(json.dumps(payload, ensure_ascii=False))


def texts_of(reply: Any) -> list[str]:
    """The reply's notification text, then every `text` of its blocks (what Slack draws, markup included), in order."""
    found = [reply.text]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("text"), str):
                found.append(node["text"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(reply.blocks)
    return found
