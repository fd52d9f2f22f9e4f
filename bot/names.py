"""Names of locales and lists of items, written as the reply's language writes them: Babel's CLDR data, with the
punctuation CLDR prescribes for Japanese, Chinese and Korean put back where Babel writes ASCII.

Babel joins a locale's parts with `" ("`, `", "` and `")"` in every language, where CLDR's own display patterns for
Chinese are `{0}（{1}）` and `{0}，{1}` (Japanese: `{0}（{1}）` and `{0}、{1}`; Korean: `{0}({1})`). This module is
the one place that corrects it, so a format's name reads `中文（简体，中国）`, not `中文 (简体, 中国)`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from babel import Locale
from babel.lists import format_list

__all__ = ["display_name", "join_list", "kept_apart"]

# (opening, separator, closing) of a locale's display name where CLDR's pattern is not Babel's ASCII one
_DISPLAY_PUNCTUATION = {"zh": ("（", "，", "）"), "ja": ("（", "、", "）"), "ko": ("(", ", ", ")")}
_HAN_NEXT_TO_DIGIT = re.compile(r"(?<=[\u3400-\u9fff])(?=\d)|(?<=\d)(?=[\u3400-\u9fff])")
# Korean joins two counted items (`8개`, `16개`: they end in a vowel) with 와, as running prose does; CLDR's 및
# is the conjunction of forms and lists in official writing
_LIST_JOINS = {"ko": (", ", "{0}와 {1}")}
# Japanese joins two items with と (`8台と16台`); CLDR's 、 stays for longer lists
_LIST_PAIRS = {"ja": "{0}と{1}"}


def display_name(named: Locale, language: Locale) -> str:
    """`named`'s name in `language`, with the parentheses and separators that language writes.

    >>> display_name(Locale.parse("zh_Hans_CN"), Locale.parse("zh_Hans"))
    '中文（简体，中国）'
    >>> display_name(Locale.parse("en_US"), Locale.parse("de"))
    'Englisch (Vereinigte Staaten)'
    """
    name = named.get_display_name(language) or str(named)
    punctuation = _DISPLAY_PUNCTUATION.get(language.language)
    if punctuation is None or " (" not in name:
        return name
    opening, separator, closing = punctuation
    head, _, details = name.partition(" (")
    return head + opening + separator.join(details.removesuffix(")").split(", ")) + closing


def join_list(items: list[str], language: Locale) -> str:
    """`items` joined by `language`'s list pattern (CLDR's, through Babel); in Chinese, with the space between a
    number and a Han character that the catalogs write everywhere else (`8 台和 16 台`).

    >>> join_list(["8 台", "16 台"], Locale.parse("zh_Hans"))
    '8 台和 16 台'
    >>> join_list(["8개", "16개"], Locale.parse("ko"))
    '8개와 16개'
    >>> join_list(["8台", "16台"], Locale.parse("ja")), join_list(["8台", "16台", "32台"], Locale.parse("ja"))
    ('8台と16台', '8台、16台、32台')
    """
    joins = _LIST_JOINS.get(language.language)
    if len(items) == 2 and language.language in _LIST_PAIRS:
        text = _LIST_PAIRS[language.language].format(*items)
    elif joins is not None and len(items) >= 2:
        middle, end = joins
        text = end.format(middle.join(items[:-1]), items[-1])
    else:
        text = format_list(items, locale=language)
    if language.language == "zh":
        text = _HAN_NEXT_TO_DIGIT.sub(" ", text)
    return text


def kept_apart(marked: str, items: list[str]) -> str:
    """`marked` with each `\x00{index}\x01` the item it marks, a code span set apart by a space from a letter, a digit
    or a full-width character beside it (`或`, `または`, `、`, `，`), where Slack may not draw it."""
    pieces, slots = _slots(marked)
    out = [pieces[0]]
    for (index, before, after), piece in zip(slots, pieces[1:], strict=True):
        text = items[index]
        if text.startswith("`") and text.endswith("`"):
            text = " " * before + text + " " * after
        out += (text, piece)
    return "".join(out)


@lru_cache(maxsize=64)  # a few list patterns per language
def _slots(marked: str) -> tuple[tuple[str, ...], tuple[tuple[int, bool, bool], ...]]:
    """The text between `marked`'s marks, and for each mark its item's index and whether a code span there needs a
    space before it and after it: worked out once per pattern, not once per reply."""
    def spaced(char: str) -> bool:
        return char.isalnum() or unicodedata.east_asian_width(char or " ") in "WF"
    pieces, slots, start = [], [], 0
    for match in re.finditer(r"\x00(\d+)\x01", marked):
        pieces.append(marked[start:match.start()])
        slots.append((int(match.group(1)), spaced(marked[match.start() - 1:match.start()]),
                      spaced(marked[match.end():match.end() + 1])))
        start = match.end()
    return (*pieces, marked[start:]), tuple(slots)
