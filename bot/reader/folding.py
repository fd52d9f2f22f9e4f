"""Characters users type for digits, signs and spaces, folded to the ASCII ones that reading knows: full-width
forms from CJK keyboards, decimal digits of every script, the Arabic percent sign, every kind of space."""

from __future__ import annotations

import unicodedata

from bot.reader.numbers import SPACES

__all__ = ["folded", "has_numeral", "plain_digits"]

_FOLDS = {
    **{code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)},
    0x3000: " ",
    0x066A: "%",
    0x2212: "-",
    **dict.fromkeys(map(ord, SPACES), " "),
}


def folded(text: str) -> str:
    """Full-width forms (`＝`, `％`, digits) and the ideographic space folded to ASCII, the Arabic percent sign to
    `%`, and every decimal digit (Unicode Nd) to ASCII; every space kind becomes a plain space. Nothing else is
    folded: a superscript or a fraction stays what it is, so `10³` is never read as 103."""
    if text.isascii():
        return text
    return plain_digits(unicodedata.normalize("NFC", text.translate(_FOLDS)))


def plain_digits(text: str) -> str:
    """Decimal digits of any script (Unicode category Nd) as ASCII digits; other characters unchanged."""
    if text.isascii():
        return text
    return "".join(str(unicodedata.digit(c)) if unicodedata.category(c) == "Nd" else c for c in text)


def has_numeral(text: str) -> bool:
    """Whether `text` has a digit, or a character that stands for one as digits do (`²`, `½`, `①`: a number to be
    refused as no plain digits). A CJK ideograph that is also a numeral (`一`, `十`, `千`) is a letter of a word
    (`算一下`, "work it out"), as in every text a Chinese or Japanese user writes: it makes no number without
    digits (`2千` has its digit).

    >>> [has_numeral(word) for word in ("64", "2千", "½", "算一下", "谢谢")]
    [True, True, True, False, False]
    """
    if text.isascii():
        return any(map(str.isdigit, text))
    return any(c.isnumeric() and unicodedata.category(c) != "Lo" for c in text)
