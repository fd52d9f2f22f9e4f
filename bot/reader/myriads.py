"""Numbers written by myriads, as Korean, Chinese and Japanese write them with digits: `11만5200` (115 200),
`11만5천` (115 000), `1억2000만` (120 000 000), `2千万` (20 000 000), and, as Korean spacing has it, `11만 5200`.

A unit's digits after it are read only where they say one number: as many digits as the unit has zeros (`11만5200`,
`1万5000`), or a count of thousands (`5천`, with its three digits after it or none). Fewer digits say two numbers
as readily as one: `1万5` is 15 000 to a Chinese reader (一万五) and 10 005 as written, `1억5천` is 150 000 000 to a
Korean one (1억 5천만) and 100 005 000 as written; they are not read here, and are refused as no number. A single
unit on a number (`2万`, `11.52만`, `1,234만`) is a suffix (`bot.reader.candidates.SUFFIXES`), not read here either.

    >>> [str(myriad_value(text)) for text in ("11만5200", "11만5천", "1억2000만", "2千万", "11만 5200", "1万5")]
    ['115200', '115000', '120000000', '20000000', '115200', 'None']
"""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = ["HUNDRED_MILLIONS", "MYRIADS", "THOUSANDS", "myriad_value"]

HUNDRED_MILLIONS, MYRIADS, THOUSANDS = "亿億억", "万萬만", "千천"
_BELOW_A_MYRIAD = rf"(?:\d{{1,4}}|\d[{THOUSANDS}](?:\d{{3}})?)"  # `5200`, `5천`, `5천200`: one myriad's count
_WRITTEN = re.compile(
    rf"(?:(?P<e8>[1-9]\d*)[{HUNDRED_MILLIONS}][ \u202f]?)?"  # `1억`
    rf"(?:(?P<e4>[1-9]\d*|\d[{THOUSANDS}](?:\d{{3}})?)[{MYRIADS}][ \u202f]?)?"  # `11만`, `2천만`
    rf"(?P<rest>\d+|\d[{THOUSANDS}](?:\d{{3}})?)?")  # `5200`, `5천`


def myriad_value(text: str) -> Decimal | None:
    """The value of `text` written by myriads with more than one unit or with digits after its unit; None for any
    other text (a number with one unit and nothing after it is a suffixed one)."""
    if text.isascii() or not any(unit in text for unit in HUNDRED_MILLIONS + MYRIADS + THOUSANDS):
        return None
    match = _WRITTEN.fullmatch(text)
    if match is None:
        return None
    e8, e4, rest = match.group("e8", "e4", "rest")
    if e8 is not None and e4 is not None and not re.fullmatch(_BELOW_A_MYRIAD, e4):
        return None  # `1억20000만`: a myriad's count has at most four digits
    if rest is not None and not _rest_says_one_number(rest, e8, e4):
        return None
    parts = [value for value in (e8, e4, rest) if value is not None]
    if len(parts) < 2 and not any(unit in (e4 or rest or "") for unit in THOUSANDS):
        return None  # `2万`, `2천`: a suffixed number
    return sum((_below(part) * Decimal(10) ** zeros for part, zeros in ((e8, 8), (e4, 4), (rest, 0)) if part),
               Decimal(0))


def _rest_says_one_number(rest: str, e8: str | None, e4: str | None) -> bool:
    """Whether the digits after the last unit say one number with it: as many digits as it has zeros, or a
    count of thousands after a myriad (`11만5천`); never after a hundred million alone (`1억5천`: 1억 5천만?)."""
    if e4 is not None:
        return re.fullmatch(rf"\d{{4}}|\d[{THOUSANDS}](?:\d{{3}})?", rest) is not None
    if e8 is not None:
        return re.fullmatch(r"\d{8}", rest) is not None
    return re.fullmatch(rf"\d[{THOUSANDS}]\d{{3}}", rest) is not None  # `5천200`


def _below(part: str) -> Decimal:
    """A count below the next unit: digits, or thousands and the digits after them (`5천200`, `2千`)."""
    for mark in THOUSANDS:
        thousands, found, rest = part.partition(mark)
        if found:
            return Decimal(thousands) * 1000 + Decimal(rest or 0)
    return Decimal(part)
