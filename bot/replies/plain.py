"""A reply as plain text: the same content the Slack message shows, for the command-line tool and for review.

Slack's markup is rendered as Slack renders it, minus the styling: `*bold*`, `_italic_` and `~struck~` lose their
marks, code keeps what it holds as written (`` `*` `` is a `*`), `:warning:` becomes its emoji (⚠️; a custom one
is dropped), links show their text and address, and Slack's escapes are undone.
"""

from __future__ import annotations

import re
from typing import Any

from bot.reader.recipient import Recipient
from bot.replies.blocks import Reply
from bot.replies.wording import wording_for

# Slack's styling marks: opened after a space or punctuation, closed before one, never around a space
_STYLED = re.compile(r"(?<![\w*_~])([*_~])(?=\S)(.+?)(?<=\S)\1(?![\w*_~])")
_CODE = re.compile(r"```(.*?)```|`([^`\n]+)`", re.DOTALL)
_LINK = re.compile(r"<([^<>|]+)(?:\|([^<>]*))?>")
_SHORTCODE = re.compile(r"(?<![\w:]):[a-z][a-z0-9_+'-]*:(?![\w:])")  # `:party-parrot:`, not `10:30:00`


def render_plain_text(reply: Reply) -> str:
    """The reply's blocks as readable text; a field's label and value on one line, joined as the reply's language
    joins them (`Débit réel : …` with a narrow no-break space, `デバイス数：…`)."""
    words = wording_for(Recipient.parse(reply.locale or "en_US"))
    out: list[str] = []
    for block in reply.blocks:
        kind = block["type"]
        if kind == "header":
            title = block["text"]["text"]
            out.append(title + "\n" + "=" * len(title))
        elif kind == "divider":
            out.append("—" * 40)
        elif kind == "section" and "fields" in block:
            out.extend(words.field_line(*plain(field["text"]).partition("\n")[::2]) for field in block["fields"])
        elif kind == "section":
            out.append(plain(block["text"]["text"]))
        elif kind == "context":
            out.extend(plain(element["text"]) for element in block["elements"])
        out.append("")
    return "\n".join(out).strip() + "\n"


def plain(mrkdwn: str) -> str:
    """Slack's `mrkdwn` as the text a reader sees, without styling.

    >>> plain(":warning: I don't know `*`. Try *64 2,000 90%*, see <https://x.example|the docs>.")
    "⚠️ I don't know *. Try 64 2,000 90%, see the docs (https://x.example)."
    """
    pieces: list[str] = []
    end = 0
    for code in _CODE.finditer(mrkdwn):  # code is shown as written; only the text between is marked up
        pieces.append(_unmarked(mrkdwn[end : code.start()]))
        block, inline = code.groups()
        pieces.append(_unescaped(block.strip("\n") if block is not None else inline))
        end = code.end()
    pieces.append(_unmarked(mrkdwn[end:]))
    return "".join(pieces)


def _unmarked(text: str) -> str:
    text = _LINK.sub(_link, text)
    while (unstyled := _STYLED.sub(r"\2", text)) != text:  # `*_both_*`
        text = unstyled
    return _unescaped(_emoji(text))


def _link(found: re.Match[str]) -> str:
    """`<https://…|text>` → `text (https://…)`; `<@U1>` → `@U1`, `<#C1|general>` → `#general`, `<!here>` → `@here`."""
    target, label = found.group(1), found.group(2)
    if target.startswith(("@", "#")):
        return target[0] + (label or target[1:])
    if target.startswith("!"):
        return "@" + (label or target[1:].split("^")[0])
    if target.startswith("mailto:"):
        return label or target.removeprefix("mailto:")
    return f"{label} ({target})" if label and label != target else target


def _emoji(text: str) -> str:
    """Slack's emoji names as the emoji themselves (the `emoji` package knows Slack's names, its *aliases*);
    a name it does not know (a workspace's own emoji) is dropped."""
    if ":" not in text:
        return text
    import emoji  # only the command-line tool renders plain text: the server never loads it

    shown: Any = emoji.emojize(text, language="alias")
    return re.sub(r" ?" + _SHORTCODE.pattern, "", str(shown))


def _unescaped(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
