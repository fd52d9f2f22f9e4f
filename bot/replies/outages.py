"""What users are told when dpscale's database cannot be reached for a moment: never an apology that says nothing,
and never a silence: what could not be done, and what to do."""

from __future__ import annotations

from bot.reader.recipient import Recipient
from bot.replies.blocks import Reply, context, warning
from bot.replies.wording import wording_for


def unavailable_text(recipient: Recipient) -> str:
    """The sentence for a request dpscale could not take on (its database did not answer): try again."""
    return wording_for(recipient).gettext("dpscale could not handle your request just now. Please try again in a moment.")


def build_unavailable_reply(recipient: Recipient) -> Reply:
    """A private note where a click or a form could not be taken on."""
    return warning(unavailable_text(recipient))


def with_preference_unread(reply: Reply, recipient: Recipient) -> Reply:
    """`reply`, saying under it that the user's saved number format could not be read just now, so numbers were
    read and written as the user's Slack language does."""
    note = wording_for(recipient).gettext(
        "Your saved number format could not be read just now, so this answer reads and writes numbers the way "
        "your Slack language does.")
    return reply.with_blocks([*reply.blocks, context([":information_source: " + note])])

