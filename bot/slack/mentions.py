"""Slack's markup in a user's text, so that the pure core sees plain text: the bot's own mention removed, anyone
else's written the way Slack shows it (`@anna`, `#general`), as plain words that ping no one, and Slack's escapes
of `<`, `>` and `&` undone.

    <@U0BOT> 64 <@U_DE|anna>  → " 64 @anna"          (mention_text: both at once)
    <@U0BOT> 64 2000 90%      → " 64 2000 90%"       (strip_own_mention)
    64 <@U_DE|anna> 90%       → "64 @anna 90%"        (readable_mentions)
    &lt;!here&gt; 64          → "<!here> 64"          (readable_mentions: typed, not a broadcast)
"""

from __future__ import annotations

import re

# users (U…, W… on Enterprise Grid), with an optional label; channels; user groups
_USER = re.compile(r"<@([UWB][A-Z0-9_]+)(?:\|([^>]*))?>")
_CHANNEL = re.compile(r"<#(C[A-Z0-9_]+)(?:\|([^>]*))?>")
_GROUP = re.compile(r"<!subteam\^([A-Z0-9_]+)(?:\|([^>]*))?>")


def mention_text(text: str, bot_user_id: str | None) -> str:
    """The command in a mention: the bot's own mention removed, anyone else's shown as `@name`."""
    return readable_mentions(strip_own_mention(text, bot_user_id))


def strip_own_mention(text: str, bot_user_id: str | None, *, leading_only: bool = False) -> str:
    """Remove the bot's own mention (`<@U123>` or `<@U123|name>`): every one, or only one that opens the text."""
    if not bot_user_id or "<" not in text:  # no markup at all: most commands
        return text
    pattern = rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>"
    if leading_only:
        return re.sub(rf"^\s*{pattern}", " ", text)
    return re.sub(pattern, " ", text)


def readable_mentions(text: str) -> str:
    """Other people's, channels' and groups' mentions as Slack shows their names: `@anna`, `#general`.

    The result is plain text (Slack's `&lt;`, `&gt;` and `&amp;` undone after the markup is read, so a typed
    `&lt;@U1&gt;` stays text); whoever echoes it escapes it like any other text the user typed.
    """
    if "<" in text:
        text = _USER.sub(lambda m: "@" + _label(m), text)
        text = _CHANNEL.sub(lambda m: "#" + _label(m), text)
        text = _GROUP.sub(lambda m: "@" + _label(m).lstrip("@"), text)
    if "&" in text:
        text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return text


def _label(match: re.Match[str]) -> str:
    label = (match.group(2) or "").strip()
    return label or match.group(1)
