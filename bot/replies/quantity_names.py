"""What each value is called where a sentence names it: "The number of devices must be …", "The language …".

    >>> from bot.reader.recipient import Recipient
    >>> from bot.replies.wording import wording_for
    >>> quantity_name("devices", wording_for(Recipient.parse("de-DE")))
    'Die Gerätezahl'
"""

from __future__ import annotations

from functools import lru_cache

from bot.errors import LANGUAGE, NUMBER_FORMAT
from bot.model.calculator import Quantity
from bot.replies.wording import Wording

__all__ = ["quantity_name"]


def quantity_name(quantity: str | None, words: Wording) -> str:
    """The name of `quantity` (a `Quantity`'s value, `LANGUAGE` or `NUMBER_FORMAT`) that opens a sentence about it,
    in `words`' language; "The value" for none."""
    return _quantity_names(words).get(quantity or "") or words.gettext("The value")


@lru_cache(maxsize=64)  # per language and format (`wording_for` makes one Wording per recipient)
def _quantity_names(words: Wording) -> dict[str, str]:
    _ = words.gettext
    return {
        Quantity.DEVICES.value: _("The number of devices"),
        Quantity.THROUGHPUT.value: _("The per-device throughput"),
        Quantity.EFFICIENCY.value: _("The scaling efficiency"),
        Quantity.ACTUAL.value: _("The actual throughput"),
        LANGUAGE: _("The language"),
        NUMBER_FORMAT: _("The number format"),
    }
