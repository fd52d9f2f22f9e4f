"""What else in a command tells how its writer writes numbers, beside the marks of its numbers: a percent sign
written first (`%90`, as Turkish writes it), and the key words of another language than the user's own
(`geräte=`, `débit=`), where that language's countries agree on a decimal mark.

Each clue stands for the decimal marks of the formats that write so. The reading rules (`bot.reader.rules`) take them as
evidence, as they take the marks of a number read in another format: `1,024` written as dpscale writes 1024 for an
English user is asked about after all when `%90` or `durchsatz=` says its writer may mean 1.024. A clue of the
user's own format doubts nothing, since only another format's readings are in doubt; nor do the user's own
language's key words, whatever number format the user chose.

Digits grouped by spaces are no clue: ISO 80000-1 groups so in every language, and dpscale writes a channel's
figures that way.
"""

from __future__ import annotations

from functools import lru_cache

from babel import Locale

from bot.i18n import catalog_name
from bot.reader.keywords import WORDS, word_list
from bot.reader.numbers import NEIGHBOUR_LOCALES, SLACK_LOCALES, own_styles, resolve_locale

ENGLISH_TOO = frozenset({"gpu", "real"})  # other languages' key words that an English writer types as well


def clue_marks(words: list[tuple[str | None, str]], locale: Locale) -> str:
    """The decimal marks that the command's clues stand for, for a user writing in `locale`'s language; `words`
    pairs each value's key word (casefolded, or None for a bare number) with the value as typed."""
    marks = ""
    for key, value in words:  # most commands are a few bare numbers: each look is skipped where it can
        if key is not None and (found := _keyword_marks().get(key)) and _word_list(locale) not in found[1]:
            marks += found[0]
        if value[:1] == "%":
            marks += _prefix_marks()
    return marks


def _word_list(locale: Locale) -> str:
    """The key words (`bot.reader.keywords.WORDS`) of `locale`'s language: those of the catalog it is answered from."""
    return word_list(catalog_name(locale))


@lru_cache(maxsize=1)
def _prefix_marks() -> str:
    """The decimal marks of the Slack locales' and neighbours' formats that write a percent sign first (each
    locale's own: formats that read numbers alike may write percentages apart)."""
    styles = [style for tag in (*SLACK_LOCALES, *NEIGHBOUR_LOCALES) for style in own_styles(resolve_locale(tag))]
    return "".join(sorted({style.decimal for style in styles if style.percent_prefix}))


@lru_cache(maxsize=1)
def _keyword_marks() -> dict[str, tuple[str, frozenset[str]]]:
    """Each key word of a language other than English (casefolded) to the decimal mark of its language's Slack
    locales, and the languages it is a word of: `durchsatz` → `,`, `効率` → `.`; no entry for a word of a
    language whose Slack locales disagree (Spanish: Spain's `,`, Mexico's `.`)."""
    by_language: dict[str, set[str]] = {}
    for tag in SLACK_LOCALES:
        locale = resolve_locale(tag)
        by_language.setdefault(_word_list(locale), set()).update(style.decimal for style in own_styles(locale))
    english = {word.casefold() for words in WORDS["en"].values() for word in words} | ENGLISH_TOO
    marks: dict[str, set[str]] = {}
    languages: dict[str, set[str]] = {}
    for language, quantities in WORDS.items():
        for word in (word.casefold() for words in quantities.values() for word in words):
            if word not in english:
                marks.setdefault(word, set()).update(by_language.get(language, ()))
                languages.setdefault(word, set()).add(language)
    return {word: (found.pop(), frozenset(languages[word])) for word, found in marks.items() if len(found) == 1}
