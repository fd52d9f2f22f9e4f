"""A reply as plain text: the same content the Slack message shows, for the command-line tool and for review."""

from __future__ import annotations

from bot.formats import parse_reader_locale
from bot.replies.blocks import Reply
from bot.replies.wording import wording_for


def render_plain_text(reply: Reply) -> str:
    """The reply's blocks as readable text; a field's label and value on one line, joined as the reply's language
    joins them (`Débit réel : …` with a narrow no-break space, `デバイス数：…`)."""
    words = wording_for(parse_reader_locale(reply.locale or "en_US"))
    out: list[str] = []
    for block in reply.blocks:
        kind = block["type"]
        if kind == "header":
            title = block["text"]["text"]
            out.append(title + "\n" + "=" * len(title))
        elif kind == "divider":
            out.append("—" * 40)
        elif kind == "section" and "fields" in block:
            out.extend(words.field_line(*_plain(field["text"]).partition("\n")[::2]) for field in block["fields"])
        elif kind == "section":
            out.append(_plain(block["text"]["text"]))
        elif kind == "context":
            out.extend(_plain(element["text"]) for element in block["elements"])
        out.append("")
    return "\n".join(out).strip() + "\n"


def _plain(mrkdwn: str) -> str:
    text = mrkdwn.replace("```", "\n").replace("*", "").replace("`", "")
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
