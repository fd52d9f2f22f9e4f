"""From the text a user typed to the words of its command: control characters and odd spaces as plain spaces,
full-width forms and every script's digits folded, emoji and lists' commas marked (`bot.reader.grouping.BOUNDARY`,
`LIST_CUT`) so that no number's groups are joined across them. The text is plain: Slack's markup (mentions,
escapes) is read by the Slack layer (`bot.slack.mentions`) before it gets here."""

from __future__ import annotations

import re
import unicodedata

from bot.reader.folding import folded
from bot.reader.grouping import BOUNDARY, LIST_CUT
from bot.reader.numbers import NARROW_SPACE, SPACES

# `e = 90%`; but `e= lang=de` is two words, and so is a key beside where an emoji stood (`e= :fire: 90%`)
_KEY_VALUE = re.compile(rf"(?<!{BOUNDARY})\s*([=:])(?:\s+(?![^\s=:]+[=:]|{BOUNDARY}))?")
_EMOJI = re.compile(r"(?<!\S)(?::[a-z0-9_+'-]+:)+(?!\S)")  # Slack's emoji (`:fire:`), standing alone
EMOJI_STAND_IN = ":_:"  # an emoji as the normalized text writes it: read again, it is one
# `64, 2k, 90 %`, `64 , 2000`
_LIST_SEPARATOR = re.compile(r"(?<=[\d%kKMG千천万萬만亿億억])[,;](?=\s)|(?<!\S)[,;](?!\S)")
_TRAILING_SEPARATOR = re.compile(r"(?<=[\d%])[,;]\s*$")  # `64 2000 90%,`: nothing listed after it
_OPENING_SEPARATOR = re.compile(r"(?<!\S)[,;](?=[\d%])")  # `64, 2000 ,90%`: in a list, `,90%` is no decimal
_NO_BREAK_GROUP = re.compile(r"(?<=\d)[\u00a0\u202f\u2007](?=\d{3}(?!\d))")
_WIDE_GROUP = re.compile(r"，(?=\d{3}(?!\d))")  # `２，０００`: a full-width comma grouping digits
_WIDE_LIST = re.compile(r"\s*[，、]\s*")  # `64，2000，90%`, `64、2000、90%`: a list, as an IME types it
_HELD = "\ue000"  # a no-break group space, held through folding and splitting (a private-use character)


def normalized_command(text: str) -> str:
    """The text as the parser reads it (control characters gone, spaces and compatibility forms folded): it
    parses as `text` does, and is what a result's buttons carry."""
    return " ".join(split_text(text)).replace(f" {LIST_CUT}", ",").replace(BOUNDARY, EMOJI_STAND_IN)


def split_text(text: str) -> list[str]:
    """The words, with a percent sign standing alone still a word of its own (`split_words` joins it to its
    number, once it knows the formats the numbers are read in)."""
    if not text.isprintable():  # each step only where it has something to do: most commands are a few numbers
        text = visible(text)
    if not text.isascii():  # a no-break space between digits only groups them: `28 800` as dpscale writes it
        text = _NO_BREAK_GROUP.sub(_HELD, text)
        if "、" in text or "，" in text:
            text = _wide_lists(text)
    text = folded(text)
    if ":" in text:  # an emoji says nothing about the numbers, and its colons are no key's; no groups join across it
        text = _EMOJI.sub(f" {BOUNDARY} ", text)
    if "=" in text or ":" in text:
        text = _KEY_VALUE.sub(r"\1", text)
    if ", " in text or " ," in text or ";" in text or text.endswith(","):  # `64, 2000, 90%`: no number ends with a
        # mark, so one there lists them (spaces are all plain ones by now; `2,000` alone never looks further)
        text = _LIST_SEPARATOR.sub(f" {LIST_CUT} ", _TRAILING_SEPARATOR.sub("", text))
        if LIST_CUT in text or len(_OPENING_SEPARATOR.findall(text)) > 1:  # a list, its commas before the items
            text = _OPENING_SEPARATOR.sub(f" {LIST_CUT} ", text)
    words = text.split()
    if _HELD in text:
        words = [word.replace(_HELD, NARROW_SPACE) for word in words]
    return words


def _wide_lists(text: str) -> str:
    """The ideographic comma `、` lists, and so does a full-width `，` that does not group three digits
    (`２，０００`): a list's comma as a Chinese or Japanese keyboard types it, followed by a space as the list's own
    comma is."""
    return _WIDE_LIST.sub(", ", _WIDE_GROUP.sub(",", text))


def visible(text: str) -> str:
    """Control, format and odd space characters (a zero-width space, a direction mark) as plain spaces: a space,
    never nothing, so that `64\u200b2000` is never read as one number."""
    return "".join(" " if unicodedata.category(c)[0] in "CZ" and c not in SPACES else c for c in text)
