"""Korean particles chosen by the value they follow (pure: text in, text out).

Korean writes 은/는, 이/가, 을/를, 과/와, (으)로 and 이라/라 in one of two forms, by whether the last pronounced
syllable of the word before ends in a consonant (받침): 효율은, 처리량은, but 디바이스는. A catalog string asks for
one with a marker right after a placeholder, `{quantity}{은/는}`, and `fill` formats the string and puts the form
that fits the rendered value in the marker's place: `스케일링 효율은`, `2,000은` (이천은), `90%로` (구십 퍼센트로).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
RIEUL = 8  # ㄹ as a final consonant: (code − 0xAC00) % 28
UNKNOWN = -1  # nothing pronounceable was found: the form after a consonant is taken (효율은 reads, 디바이스은 less so)

# marker → (the form after a final consonant, the form after a vowel)
PAIRS = {"은/는": ("은", "는"), "이/가": ("이", "가"), "을/를": ("을", "를"), "과/와": ("과", "와"),
         "으로/로": ("으로", "로"), "이라/라": ("이라", "라")}
MARKER = re.compile(r"\{(" + "|".join(re.escape(pair) for pair in PAIRS) + r")\}")

# final consonant indices (0: none) of how each digit is read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구
DIGITS = {"0": 21, "1": RIEUL, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": RIEUL, "8": RIEUL, "9": 0}
# a number ending in 1, 2, 3 zeros is read …십, …백, …천; in 4n zeros …만, …억, …조, …경
TENS = {1: 17, 2: 1, 3: 4}
MYRIADS = {1: 4, 2: 1, 3: 0, 4: 21}
# English letter names as Korean reads them: only 엘 엠 엔 알 end in a consonant (에프, 엑스, 제트 end in 으)
LETTERS = {"l": RIEUL, "m": 16, "n": 4, "r": RIEUL}
SYMBOLS = {"%": 0, "×": 0, "‰": 0}  # 퍼센트, 배, 퍼밀
SILENT = set(" \t\n\u00a0\u202f`*_~'\"‘’“”.,;:!?…") | {"」", "』", "》", "〉"}
NUMBER_TAIL = re.compile(r"[0-9][0-9.,'\u00a0\u202f ]*$")


def final_consonant(text: str, decimal: str = ".") -> int:
    """The final consonant (받침) of the last pronounced syllable of `text`, as Hangul indexes it (0: none, 8: ㄹ),
    or `UNKNOWN`. Markup, quotes, trailing punctuation and a closing parenthetical are skipped (`영어(미국)` ends in
    영어, as a particle after a gloss follows the word glossed); numbers are read in Sino-Korean, with `decimal` the
    decimal mark (`2,000` is 이천, `0.90` is 영 점 구영)."""
    text = text.rstrip("".join(SILENT))
    while text.endswith(")") and "(" in text:
        text = text[:text.rindex("(")].rstrip("".join(SILENT))
    if not text:
        return UNKNOWN
    last = text[-1]
    if HANGUL_FIRST <= ord(last) <= HANGUL_LAST:
        return (ord(last) - HANGUL_FIRST) % 28
    if last in SYMBOLS:
        return SYMBOLS[last]
    if last.isascii() and last.isalpha():
        return LETTERS.get(last.lower(), 0)
    if last.isascii() and last.isdigit():
        return _number_final(NUMBER_TAIL.search(text).group().strip(), decimal)  # type: ignore[union-attr]
    return UNKNOWN


def _number_final(number: str, decimal: str) -> int:
    """The final consonant of a written number: decimals are read digit by digit, a whole number by its units."""
    if decimal in number and number.rsplit(decimal, 1)[1].isdigit():
        return DIGITS[number[-1]]
    digits = re.sub(r"\D", "", number)
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros == len(digits):
        return DIGITS["0"]
    if zeros == 0:
        return DIGITS[digits[-1]]
    return TENS[zeros] if zeros < 4 else MYRIADS.get(zeros // 4, UNKNOWN)


def particle(text: str, pair: str, decimal: str = ".") -> str:
    """The form of `pair` (a key of `PAIRS`, such as `을/를`) that follows `text`."""
    consonant, vowel = PAIRS[pair]
    final = final_consonant(text, decimal)
    if final == 0 or (final == RIEUL and consonant == "으로"):
        return vowel
    return consonant


def fill(template: str, values: Mapping[str, object], decimal: str = ".") -> str:
    """`template.format(**values)` with every particle marker replaced by the form that fits the text before it.
    A particle never touches a code span: Slack draws `code` only at a word boundary, so it follows after a space."""
    pieces = MARKER.split(template)  # text, marker, text, marker, …
    text = pieces[0].format(**values)
    for pair, rest in zip(pieces[1::2], pieces[2::2], strict=True):
        chosen = particle(text, pair, decimal)
        text += (" " if text.endswith("`") else "") + chosen + rest.format(**values)
    return text


class Template(str):
    """A catalog string whose `format` also chooses its particles (what Korean `Wording.gettext` returns)."""

    decimal = "."

    def format(self, *args: object, **values: object) -> str:
        if args or not MARKER.search(self):
            return str.format(self, *args, **values)
        return fill(str(self), values, self.decimal)


def template(text: str, decimal: str) -> str:
    """`text` as a `Template` reading numbers with `decimal` as their decimal mark."""
    made = Template(text)
    made.decimal = decimal
    return made
