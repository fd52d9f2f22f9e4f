"""Replies as data: pure functions from a result, an error or a wish for help, plus the reader's locale, to
Block Kit. Nothing here talks to Slack; the Slack-only surfaces (buttons, the form, App Home) live in
`bot.slack.views`.

    blocks    the Block Kit primitives and the `Reply` a listener sends
    wording   numbers and sentences bound to one locale
    result    the answer to a calculation
    guide     the help, the usage line and the explanations every result carries
    problems  what a user's mistake, or ours, looks like to them
    outages   what users are told while the database cannot be reached
    plain     a reply as plain text (the command-line tool, notifications)
"""

from bot.replies.blocks import Reply, ReplyKind
from bot.replies.guide import build_help_reply, explanation_blocks, usage_line
from bot.replies.outages import build_unavailable_reply, unavailable_text, with_preference_unread
from bot.replies.plain import render_plain_text
from bot.replies.problems import build_error_reply, build_failure_reply, describe_error
from bot.replies.result import build_result_reply

__all__ = [
    "Reply",
    "ReplyKind",
    "build_error_reply",
    "build_failure_reply",
    "build_help_reply",
    "build_result_reply",
    "build_unavailable_reply",
    "describe_error",
    "explanation_blocks",
    "render_plain_text",
    "unavailable_text",
    "usage_line",
    "with_preference_unread",
]
