"""What else in a command tells how its writer writes numbers, beside the marks of its numbers: a percent sign
written first (`%90`, as Turkish writes it), digits grouped by spaces (`1 024`, as French, Russian or Polish do),
and another language's key words (`geräte=`, `débit=`), where that language's countries agree on a decimal mark.

Each clue stands for the decimal marks of the formats that write so. `bot.reading.confirm_house_forms` takes them
as it takes the marks of a number read in another format: `1,024` written as dpscale writes 1024 for an English
user is asked about after all when `%90` or `durchsatz=` says its writer may mean 1.024. A clue of the user's own
format doubts nothing, since only another format's readings are set aside.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.keywords import WORDS
from bot.numbers import NEIGHBOUR_LOCALES, SLACK_LOCALES, SPACES, resolve_locale
from bot.reading import own_styles

_SPACE_GROUP = re.compile(rf"\d[{SPACES}]\d")
ENGLISH_TOO = frozenset({"gpu", "real"})  # other languages' key words that an English writer types as well


def clue_marks(words: list[tuple[str | None, str]]) -> str:
    """The decimal marks that the command's clues stand for; `words` pairs each value's key word (casefolded, or
    None for a bare number) with the value as typed."""
    marks = ""
    for key, value in words:  # most commands are a few bare numbers: each look is skipped where it can
        if key is not None:
            marks += _keyword_marks().get(key, "")
        if value[:1] == "%":
            marks += _marks_of_styles("prefix")
        elif not value.isdigit() and _SPACE_GROUP.search(value):
            marks += _marks_of_styles("spaces")
    return marks


@lru_cache(maxsize=2)
def _marks_of_styles(kind: str) -> str:
    """The decimal marks of the Slack locales' and neighbours' formats that write a percent sign first, or that
    group digits by spaces (each locale's own: formats that read numbers alike may write percentages apart)."""
    styles = [style for tag in (*SLACK_LOCALES, *NEIGHBOUR_LOCALES) for style in own_styles(resolve_locale(tag))]
    if kind == "prefix":
        return "".join(sorted({style.decimal for style in styles if style.percent_prefix}))
    return "".join(sorted({style.decimal for style in styles if style.group in SPACES}))


@lru_cache(maxsize=1)
def _keyword_marks() -> dict[str, str]:
    """Each key word of a language other than English (casefolded) to the decimal mark of that language's Slack
    locales: `durchsatz` → `,`, `効率` → `.`; none for a word of a language whose Slack locales disagree."""
    by_language: dict[str, set[str]] = {}
    for tag in SLACK_LOCALES:
        locale = resolve_locale(tag)
        scripted = f"{locale.language}_{locale.script}"
        language = scripted if scripted in WORDS else locale.language
        by_language.setdefault(language, set()).update(style.decimal for style in own_styles(locale))
    english = {word.casefold() for words in WORDS["en"].values() for word in words} | ENGLISH_TOO
    marks: dict[str, set[str]] = {}
    for language, quantities in WORDS.items():
        for words in quantities.values():
            for word in words:
                if word.casefold() not in english:
                    marks.setdefault(word.casefold(), set()).update(by_language.get(language, ()))
    # a language whose countries write numbers differently (Spanish: Spain's `,` and Mexico's `.`) is no clue
    return {word: found.pop() for word, found in marks.items() if len(found) == 1}
